// The headless Chromium every browser test uses: Debian's chromium
// ($SUPERSTEP_CHROMIUM to override), quiet, and never reaching the network
// on its own.
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.SUPERSTEP_CHROMIUM || '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Launches the browser. */
export function launchChromium() {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

/**
 * A context in which displays must not reach the network (no CDN): every
 * request that is not a data URL or the page itself is refused.
 */
export async function offlineContext(browser, options) {
  const ctx = await browser.newContext(options);
  await ctx.route(/^(?!data:|about:)/, (route) => route.abort());
  return ctx;
}

/** A minimal document around an output's HTML. */
export function wrap(html, title = 'superstep output') {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head>` +
    `<body style="margin:8px;background:#fff">${html}</body></html>`;
}

/**
 * Waits until no display is still reading its compressed spec
 * (data-live-pending, display.packSpec): every one is live or failed.
 */
export async function settledLive(page, timeout = 10000) {
  await page.waitForFunction(() => !document.querySelector('[data-live-pending]'), null, { timeout });
}

/**
 * The problems a page reports from now on, collected into the returned
 * array: script errors, console errors and failed requests.
 */
export function watchProblems(page) {
  const problems = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && problems.push(`console error: ${m.text()}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url().slice(0, 80)}`));
  return problems;
}
