// Browser tests of the Superstep display contract (DESIGN.md, Principles 3).
//
// Every text/html output of the executed notebooks in $SUPERSTEP_NB_OUT
// (default /tmp/nbout) is checked twice:
//
//   live       as a trusted notebook shows it: scripts run in headless
//              Chromium; every .superstep-display turns live (data-live="1",
//              an inline <svg>, no <img>) and hovering an element with
//              data-tip shows a visible .superstep-tip with that text.
//   sanitized  as an untrusted notebook shows it: JupyterLab's own Sanitizer
//              (@jupyterlab/apputils) leaves no <script>, keeps every
//              display's static <img> with its SVG data URL, and that
//              picture decodes into a real image in Chromium.
//
// With $SUPERSTEP_SCREENSHOT set, a PNG of the tour notebook's live bar chart
// (hovered, tooltip showing) is written there.
//
// Run: npm ci && SUPERSTEP_NB_OUT=/tmp/nbout node --test

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import { chromium } from 'playwright-core';
import { JSDOM } from 'jsdom';
// The sanitizer module imports only sanitize-html (htmlparser2 based), so it
// needs no DOM in node; importing the file directly avoids the package index,
// which pulls in React and the Lumino widgets.
import { Sanitizer } from '@jupyterlab/apputils/lib/sanitizer.js';

const NB_OUT = process.env.SUPERSTEP_NB_OUT || '/tmp/nbout';
const SCREENSHOT = process.env.SUPERSTEP_SCREENSHOT || '';
const CHROMIUM = process.env.SUPERSTEP_CHROMIUM || '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const SVG_DATA_URL = 'data:image/svg+xml;base64,';
const MAX_HOVERS_PER_DISPLAY = 20;
const PAGE_OPTIONS = { viewport: { width: 1000, height: 800 }, deviceScaleFactor: 1 };

// ---------------------------------------------------------------------------
// Collect the outputs.

/** Every text/html output of every executed notebook, in a stable order. */
function collectOutputs(dir) {
  const outputs = [];
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.ipynb'))
    .sort();
  for (const file of files) {
    const nb = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
    let htmlIndex = 0;
    (nb.cells || []).forEach((cell, cellIndex) => {
      (cell.outputs || []).forEach((out, outIndex) => {
        const html = out.data && out.data['text/html'];
        if (html === undefined) return;
        outputs.push({
          notebook: file,
          cellIndex,
          outIndex,
          htmlIndex: htmlIndex++,
          label: `${file} cell ${cellIndex} output ${outIndex} (html output #${htmlIndex - 1})`,
          html: Array.isArray(html) ? html.join('') : String(html),
        });
      });
    });
  }
  return outputs;
}

let outputs = [];
let collectError = null;
try {
  outputs = collectOutputs(NB_OUT);
} catch (e) {
  collectError = e;
}

/** A minimal document around an output's HTML. */
function wrap(html) {
  return `<!doctype html><html><head><meta charset="utf-8"><title>superstep output</title></head>` +
    `<body style="margin:8px;background:#fff">${html}</body></html>`;
}

/** The static pictures of the displays in html, parsed with jsdom. */
function displaysOf(html) {
  const doc = new JSDOM(wrap(html)).window.document;
  return [...doc.querySelectorAll('.superstep-display, .superstep-progress')].map((el) => ({
    kind: el.classList.contains('superstep-display') ? 'display' : 'progress',
    id: el.getAttribute('id'),
    imgSrcs: [...el.querySelectorAll('img')].map((img) => img.getAttribute('src') || ''),
  }));
}

// ---------------------------------------------------------------------------
// One browser for the whole file: a scripted context for live rendering and a
// script-free one for sanitized HTML.

let browser;
let liveContext;
let staticContext;

before(async () => {
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  liveContext = await browser.newContext({ ...PAGE_OPTIONS, javaScriptEnabled: true });
  staticContext = await browser.newContext({ ...PAGE_OPTIONS, javaScriptEnabled: false });
  // Displays must not reach the network (no CDN): refuse every request that
  // is not a data URL or the page itself.
  for (const ctx of [liveContext, staticContext]) {
    await ctx.route(/^(?!data:|about:)/, (route) => route.abort());
  }
});

after(async () => {
  if (browser) await browser.close();
});

/** A fresh page in ctx that records script errors and failed requests. */
async function openPage(ctx) {
  const page = await ctx.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
  });
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url().slice(0, 80)}`));
  return { page, problems };
}

/**
 * Renders out live: asserts the contract of every .superstep-display and
 * returns the page (still open) for further use.
 */
async function renderLive(out) {
  const { page, problems } = await openPage(liveContext);
  await page.setContent(wrap(out.html), { waitUntil: 'load' });
  const roots = await page.locator('.superstep-display').all();
  for (const [d, root] of roots.entries()) {
    const where = `${out.label}, display #${d} (id ${await root.getAttribute('id')})`;
    const state = await root.evaluate((el) => ({
      live: el.getAttribute('data-live'),
      error: el.getAttribute('data-live-error'),
      svgs: el.querySelectorAll('svg').length,
      imgs: el.querySelectorAll('img').length,
      svgBox: (() => {
        const s = el.querySelector('svg');
        if (!s) return null;
        const r = s.getBoundingClientRect();
        return { width: r.width, height: r.height };
      })(),
    }));
    assert.equal(state.error, null, `${where}: the runtime failed: ${state.error}`);
    assert.equal(state.live, '1', `${where}: not live (data-live=${JSON.stringify(state.live)}); did the script run?`);
    assert.ok(state.svgs >= 1, `${where}: live display has no inline <svg>`);
    assert.equal(state.imgs, 0, `${where}: live display still has ${state.imgs} <img>`);
    assert.ok(
      state.svgBox.width > 0 && state.svgBox.height > 0,
      `${where}: inline <svg> has an empty box ${JSON.stringify(state.svgBox)}`,
    );
    await checkHover(page, root, where);
  }
  assert.deepEqual(problems, [], `${out.label}: problems while rendering live`);
  return page;
}

/**
 * Hovers the data-tip elements of one live display (those not covered by
 * another element) and asserts the tooltip shows each one's text.
 */
async function checkHover(page, root, where) {
  const tipped = await root.locator('svg [data-tip]').all();
  if (tipped.length === 0) return;
  const tip = root.locator('.superstep-tip');
  let hovered = 0;
  for (const [t, el] of tipped.entries()) {
    if (hovered >= MAX_HOVERS_PER_DISPLAY) break;
    await el.scrollIntoViewIfNeeded();
    const box = await el.boundingBox();
    if (!box || box.width < 1 || box.height < 1) continue;
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    // The runtime shows the data-tip of the nearest [data-tip] ancestor of
    // the element under the pointer; skip elements covered by another one.
    const hit = await el.evaluate(
      (node, [px, py]) => {
        const under = document.elementFromPoint(px, py);
        const owner = under && under.closest('[data-tip]');
        return owner === node;
      },
      [x, y],
    );
    if (!hit) continue;
    const expected = await el.getAttribute('data-tip');
    await page.mouse.move(0, 0); // leave the display, so the next move is an event
    await page.mouse.move(x, y);
    const what = `${where}, data-tip element #${t} ${JSON.stringify(expected)}`;
    assert.equal(await tip.count(), 1, `${what}: expected one .superstep-tip in the display`);
    assert.ok(await tip.isVisible(), `${what}: .superstep-tip not visible on hover`);
    const text = await tip.textContent();
    assert.ok(text.includes(expected), `${what}: tooltip shows ${JSON.stringify(text)}`);
    hovered++;
  }
  assert.ok(hovered > 0, `${where}: ${tipped.length} data-tip elements but none could be hovered`);
  await page.mouse.move(0, 0);
  assert.ok(!(await tip.isVisible()), `${where}: tooltip still visible after the pointer left`);
}

// ---------------------------------------------------------------------------
// The tests.

test(`executed notebooks in ${NB_OUT} have text/html outputs`, () => {
  assert.equal(collectError, null, `cannot read executed notebooks in ${NB_OUT}: ${collectError}`);
  assert.ok(outputs.length > 0, `no text/html output in any *.ipynb in ${NB_OUT}`);
});

const sanitizer = new Sanitizer();

for (const out of outputs) {
  describe(out.label, () => {
    const displays = displaysOf(out.html);

    test('live', async () => {
      const page = await renderLive(out);
      await page.close();
    });

    test('sanitized', async () => {
      const clean = sanitizer.sanitize(out.html);
      assert.ok(!/<script/i.test(clean), `${out.label}: a <script> survived the sanitizer`);
      const cleanDoc = new JSDOM(wrap(clean)).window.document;
      assert.equal(cleanDoc.querySelectorAll('script').length, 0, `${out.label}: a <script> survived the sanitizer`);
      const cleanSrcs = new Set([...cleanDoc.querySelectorAll('img')].map((i) => i.getAttribute('src') || ''));

      for (const [d, disp] of displays.entries()) {
        const where = `${out.label}, ${disp.kind} #${d}`;
        const pictures = disp.imgSrcs.filter((s) => s.startsWith(SVG_DATA_URL));
        assert.ok(pictures.length > 0, `${where}: no <img src="${SVG_DATA_URL}..."> in the original HTML`);
        for (const src of pictures) {
          assert.ok(
            cleanSrcs.has(src),
            `${where}: the sanitizer dropped or changed the static picture <img src="${src.slice(0, 60)}...">`,
          );
        }
      }

      // The sanitized HTML, shown with scripts off: every picture decodes.
      const { page, problems } = await openPage(staticContext);
      try {
        await page.setContent(wrap(clean), { waitUntil: 'load' });
        const imgs = await page.evaluate(() =>
          [...document.images].map((img) => ({
            src: (img.getAttribute('src') || '').slice(0, 60),
            complete: img.complete,
            naturalWidth: img.naturalWidth,
            naturalHeight: img.naturalHeight,
          })),
        );
        const svgImgs = imgs.filter((i) => i.src.startsWith(SVG_DATA_URL)).length;
        assert.ok(
          svgImgs >= displays.length,
          `${out.label}: ${displays.length} displays but ${svgImgs} SVG <img> in the sanitized page`,
        );
        for (const [i, img] of imgs.entries()) {
          assert.ok(
            img.complete && img.naturalWidth > 0 && img.naturalHeight > 0,
            `${out.label}: sanitized <img> #${i} did not decode into a picture ` +
              `(complete=${img.complete}, ${img.naturalWidth}x${img.naturalHeight}, src ${img.src}...)`,
          );
        }
        assert.deepEqual(problems, [], `${out.label}: problems while rendering sanitized`);
      } finally {
        await page.close();
      }
    });
  });
}

// The README's picture: the tour's bar chart, live, with a bar hovered.
test('screenshot of the tour bar chart', { skip: !SCREENSHOT && 'SUPERSTEP_SCREENSHOT not set' }, async () => {
  const tour = outputs.filter((o) => o.notebook === '00-tour.ipynb' && o.html.includes('superstep-display'));
  const chart = tour.find((o) => /alt="[^"]*bar chart/i.test(o.html)) || tour[0];
  assert.ok(chart, `no SVG display output in 00-tour.ipynb in ${NB_OUT}`);
  const page = await renderLive(chart);
  try {
    const root = page.locator('.superstep-display').first();
    const bars = await root.locator('svg [data-tip]').all();
    if (bars.length > 0) {
      // Hover the first bar, so the picture shows the tooltip too.
      const box = await bars[0].boundingBox();
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    }
    const boxes = [await root.locator('svg').first().boundingBox()];
    const tip = root.locator('.superstep-tip');
    if ((await tip.count()) === 1 && (await tip.isVisible())) boxes.push(await tip.boundingBox());
    const pad = 8;
    const x0 = Math.max(0, Math.min(...boxes.map((b) => b.x)) - pad);
    const y0 = Math.max(0, Math.min(...boxes.map((b) => b.y)) - pad);
    const x1 = Math.max(...boxes.map((b) => b.x + b.width)) + pad;
    const y1 = Math.max(...boxes.map((b) => b.y + b.height)) + pad;
    fs.mkdirSync(path.dirname(path.resolve(SCREENSHOT)), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, clip: { x: x0, y: y0, width: x1 - x0, height: y1 - y0 } });
    assert.ok(fs.statSync(SCREENSHOT).size > 0, `empty screenshot ${SCREENSHOT}`);
  } finally {
    await page.close();
  }
});
