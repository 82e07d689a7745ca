// What the matrix board's browser test and benchmark share: the samples
// (display/internal/samples), the spec inside an output, the runtime, and
// a mouse drag over a chart's bins.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The samples of notebook name, written by `go run ./display/internal/samples
 * [args] DIR` into a temporary directory (or found in $SUPERSTEP_SAMPLES):
 * [{sample, html}] for every cell with superstep_sample metadata.
 */
export function matrixboardSamples(name, args = []) {
  let dir = process.env.SUPERSTEP_SAMPLES;
  if (!dir || dir === 'off' || !fs.existsSync(path.join(dir, name))) {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'superstep-matrixboard-samples-'));
    execFileSync('go', ['run', './display/internal/samples', ...args, dir], { cwd: REPO, stdio: ['ignore', 'inherit', 'inherit'] });
  }
  const nb = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));
  return nb.cells
    .filter((c) => c.metadata && c.metadata.superstep_sample && c.outputs && c.outputs.length)
    .map((c) => {
      const html = c.outputs[0].data['text/html'];
      return { sample: c.metadata.superstep_sample, html: Array.isArray(html) ? html.join('') : html };
    });
}

/** The spec the display's script passes to the runtime (display.liveCall). */
export function specOf(html) {
  const m = html.match(/\(\["[^"]*","[^"]*",(.*),document\.currentScript\]\);<\/script>\s*$/s);
  assert.ok(m, 'no live call in the output');
  const spec = JSON.parse(m[1]);
  return spec.deflate ? JSON.parse(zlib.inflateSync(Buffer.from(spec.deflate, 'base64')).toString('utf8')) : spec;
}

const RUNTIME = fs.readFileSync(path.join(REPO, 'display/runtime/superstep.js'), 'utf8');

/** html with the runtime after it, unless it carries it already. */
export const withRuntime = (html) =>
  html.includes(RUNTIME.slice(0, 200)) ? html : html + `<script type="text/javascript">\n${RUNTIME}\n</script>`;

/**
 * Drags the mouse over the plot of chart (an svg with data-plot="l t w h"
 * and data-bins) from just after edge a to just before edge b, as a user
 * would.
 */
export async function dragBins(page, chart, a, b) {
  await chart.scrollIntoViewIfNeeded();
  const [l, t, w, h, n, vw] = await chart.evaluate((el) => [...el.getAttribute('data-plot').split(' ').map(Number), Number(el.getAttribute('data-bins')), el.viewBox.baseVal.width]);
  const box = await chart.boundingBox();
  const k = box.width / vw;
  const step = w / n;
  const X = (x) => box.x + k * x;
  const y = box.y + k * (t + h / 2);
  await page.mouse.move(X(l + (a + 0.2) * step), y);
  await page.mouse.down();
  await page.mouse.move(X(l + (a + b) * step / 2), y, { steps: 4 });
  await page.mouse.move(X(l + (b - 0.2) * step), y, { steps: 4 });
  await page.mouse.up();
}

