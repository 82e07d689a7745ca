// What every browser test and benchmark shares above chromium.mjs: the
// samples (sdk/internal/samples), the runtime, the spec inside an output,
// JupyterLab's sanitizer, and one function for "a page showing these
// outputs" (showOutput; outputPages for a test file).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';

// The sanitizer module imports only sanitize-html (htmlparser2 based), so it
// needs no DOM in node; importing the file directly avoids the package index,
// which pulls in React and the Lumino widgets.
import { Sanitizer } from '@jupyterlab/apputils/lib/sanitizer.js';

import { launchChromium, offlineContext, settledLive, watchProblems, wrap } from './chromium.mjs';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// ---------------------------------------------------------------------------
// The samples.

/** A text/html output's HTML as one string (undefined if it has none). */
export function htmlOf(output) {
  const html = output.data && output.data['text/html'];
  return Array.isArray(html) ? html.join('') : html;
}

/** Every text/html output of every executed notebook in dirs, in a stable order. */
export function collectOutputs(dirs) {
  const outputs = [];
  const files = dirs.flatMap((dir) =>
    fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.ipynb'))
      .sort()
      .map((f) => ({ dir, file: f })),
  );
  for (const { dir, file } of files) {
    const nb = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
    let htmlIndex = 0;
    (nb.cells || []).forEach((cell, cellIndex) => {
      (cell.outputs || []).forEach((out, outIndex) => {
        const html = htmlOf(out);
        if (html === undefined) return;
        outputs.push({
          notebook: file,
          cellIndex,
          outIndex,
          htmlIndex: htmlIndex++,
          label: `${file} cell ${cellIndex} output ${outIndex} (html output #${htmlIndex - 1})`,
          html: String(html),
          sample: (cell.metadata && cell.metadata.superstep_sample) || null,
        });
      });
    });
  }
  return outputs;
}

/**
 * A fresh temporary directory written by `go run ./sdk/internal/samples
 * [args] DIR` from the repository root, env added to the environment.
 */
export function writeSamples(args = [], env = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'superstep-samples-'));
  execFileSync('go', ['run', './sdk/internal/samples', ...args, dir], {
    cwd: REPO,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, ...env },
  });
  return dir;
}

/** $SUPERSTEP_SAMPLES if it names a directory that holds notebook name, else null. */
export function givenSamplesDir(name) {
  const dir = process.env.SUPERSTEP_SAMPLES;
  return dir && dir !== 'off' && fs.existsSync(path.join(dir, name)) ? dir : null;
}

/** [{sample, html}] for every cell of dir/name with superstep_sample metadata and an output. */
export function readSamples(dir, name) {
  const nb = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));
  return nb.cells
    .filter((c) => c.metadata && c.metadata.superstep_sample && c.outputs && c.outputs.length)
    .map((c) => ({ sample: c.metadata.superstep_sample, html: htmlOf(c.outputs[0]) }));
}

/**
 * The samples of notebook name, read from $SUPERSTEP_SAMPLES or written
 * (with args) into a temporary directory: [{sample, html}].
 */
export function samples(name, args = []) {
  return readSamples(givenSamplesDir(name) || writeSamples(args), name);
}

// ---------------------------------------------------------------------------
// An output's parts.

// The runtime, as the kernel adds it to a notebook's first live display.
const RUNTIME = fs.readFileSync(path.join(REPO, 'display/runtime/superstep.js'), 'utf8');
const RUNTIME_TAG = `<script type="text/javascript">\n${RUNTIME}\n</script>`;

/** html with the runtime after it, unless it carries it already. */
const withRuntime = (html) => (html.includes(RUNTIME.slice(0, 200)) ? html : html + RUNTIME_TAG);

/** The spec of the output's last display (views.SpecMIME, after its root). */
export function specOf(html) {
  const m = html.match(/.*<script type="application\/vnd\.superstep\.spec\+json">([^<]*)<\/script>/s);
  assert.ok(m, 'no live call in the output');
  const spec = JSON.parse(m[1]);
  // A big spec is stored compressed (display.packSpec).
  return spec.deflate ? JSON.parse(zlib.inflateSync(Buffer.from(spec.deflate, 'base64')).toString('utf8')) : spec;
}

const sanitizer = new Sanitizer();

/** html as an untrusted notebook shows it: through JupyterLab's own Sanitizer. */
export const sanitize = (html) => sanitizer.sanitize(html);

// ---------------------------------------------------------------------------
// A page showing outputs.

/**
 * Opens a page showing html in browser, in a context of its own in which
 * nothing reaches the network (chromium.mjs offlineContext), and records
 * its problems from the start (watch, chromium.mjs watchProblems).
 *
 *   scripts    true: as a trusted notebook shows it: scripts on, the runtime
 *              after html unless it carries it, waited for until no display
 *              is still pending (settledLive, timeout ms); false: as given
 *              (sanitize it first for an untrusted notebook), scripts off;
 *   viewport   the page's size in CSS px (device scale factor 1);
 *   title      the document's title (chromium.mjs wrap);
 *   head       HTML put before the output (a benchmark's clock);
 *   document   html is a whole document (an nbconvert export): shown as it
 *              is, neither wrapped nor given the runtime;
 *   assertLive assert that the first .superstep-display went live (no
 *              data-live-error, data-live="1").
 *
 * Returns {page, root (the first .superstep-display), problems, t0 (the
 * clock when the content was set), close (closes the page and its context)}.
 */
export async function showOutput(browser, html, {
  scripts = true,
  viewport = { width: 1000, height: 800 },
  title,
  head = '',
  document = false,
  timeout = 10000,
  assertLive = false,
  watch = watchProblems,
} = {}) {
  const ctx = await offlineContext(browser, { viewport, deviceScaleFactor: 1, javaScriptEnabled: scripts });
  try {
    const page = await ctx.newPage();
    const problems = watch(page);
    const content = document ? html : wrap(head + (scripts ? withRuntime(html) : html), title);
    const t0 = Date.now();
    await page.setContent(content, { waitUntil: 'load' });
    if (scripts) await settledLive(page, timeout);
    const root = page.locator('.superstep-display').first();
    if (assertLive) {
      assert.equal(await root.getAttribute('data-live-error'), null, 'the runtime failed');
      assert.equal(await root.getAttribute('data-live'), '1', 'the display did not turn live');
    }
    return { page, root, problems, t0, close: () => ctx.close() };
  } catch (e) {
    await ctx.close();
    throw e;
  }
}

/**
 * The pages of a test file: Chromium is launched before its tests and
 * closed after them; the function returned shows html in it as showOutput
 * does, with options over defaults.
 */
export function outputPages(defaults = {}) {
  let browser;
  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });
  return (html, options) => showOutput(browser, html, { ...defaults, ...options });
}
