// Browser tests of the heat matrix (display/matrix*.go,
// runtime/src/matrix.js), in headless Chromium with every network request
// refused.
//
// They read matrix-samples.ipynb, written by `go run ./sdk/internal/samples`
// into a temporary directory (or found in $SUPERSTEP_SAMPLES): a 16×16
// matrix drawn as SVG, a 1,024×1,024 sparse one (about 60,000 seeded
// made-up pairs) drawn on a canvas, and a bad one. Each cell's metadata
// "superstep_sample" holds what Go computed: the plot's place and cell side,
// a point over a known cell and Go's hover text there (MatrixView.Tip of
// MatrixView.CellAt), and for the canvas FormatMatrixValue's text of many
// values. The checks:
//
//   sanitized  JupyterLab's Sanitizer keeps the static PNG <img> unchanged
//              and no <script>; shown with scripts off, it decodes;
//   live       the display turns live with no script error: an inline <svg>
//              with one rect per non-zero cell, or a <canvas> of the plot's
//              size (its first-paint time is logged; paint-bench.mjs
//              measures it against the 1 s target);
//   hover      the pointer at Go's point shows exactly Go's text, and the
//              tip hides when the pointer leaves;
//   format     the runtime's formatMatrixValue prints every value as Go's
//              FormatMatrixValue;
//   bad        a bad matrix shows its error as text, no picture.
//
// Run: npm ci && node --test matrix.test.mjs

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { JSDOM } from 'jsdom';
import { wrap } from './chromium.mjs';
import { REPO, outputPages, samples as samplesOf, sanitize } from './page.mjs';

const PNG_DATA_URL = 'data:image/png;base64,';

const samples = samplesOf('matrix-samples.ipynb');
const { formatMatrixValue } = await import(pathToFileURL(path.join(REPO, 'display/runtime/src/matrix.js')).href);

const show = outputPages({ viewport: { width: 1200, height: 900 } });

test('the samples hold an SVG matrix, a canvas matrix and a bad one', () => {
  assert.deepEqual(samples.map((s) => s.sample.name), ['small', 'large', 'bad']);
});

for (const { sample, html } of samples.filter((s) => s.sample.kind === 'matrix')) {
  describe(`matrix ${sample.name}`, () => {
    test('the static picture survives the sanitizer and reads alone', async () => {
      const src = html.match(/src="(data:image\/png;base64,[^"]+)"/)[1];
      const clean = sanitize(html);
      assert.ok(!/<script/i.test(clean), 'a <script> survived the sanitizer');
      const doc = new JSDOM(wrap(clean)).window.document;
      const srcs = [...doc.querySelectorAll('img')].map((i) => i.getAttribute('src'));
      assert.deepEqual(srcs, [src], 'the sanitizer dropped or changed the static picture');
      const { page, problems, close } = await show(clean, { scripts: false });
      try {
        const im = await page.evaluate(() => [...document.images].map((i) => [i.complete, i.naturalWidth, i.naturalHeight]));
        assert.equal(im.length, 1);
        assert.ok(im[0][0] && im[0][1] > 0 && im[0][2] > 0, `the picture did not decode: ${im[0]}`);
        assert.ok(src.startsWith(PNG_DATA_URL));
        assert.deepEqual(problems, []);
      } finally {
        await close();
      }
    });

    test("live: no error, the picture's cells, Go's hover text at Go's point", async () => {
      const { page, root, problems, t0, close } = await show(html, { title: 'matrix' });
      try {
        await page.waitForFunction(() => document.querySelector('.superstep-display[data-live="1"]'), null, { timeout: 5000 });
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
        const paint = Date.now() - t0;
        assert.equal(await root.getAttribute('data-live-error'), null, 'the runtime failed');
        assert.equal(await root.locator('img').count(), 0, 'the static picture is still there');
        let box;
        let scale;
        if (sample.canvas) {
          // Logged, not asserted (the 1 s target is paint-bench.mjs's).
          console.log(`# first live paint of the ${sample.name} matrix: ${paint} ms`);
          const cv = root.locator('canvas.ss-canvas');
          assert.equal(await cv.count(), 1, 'one canvas');
          const [cw, ch, filled] = await cv.evaluate((c) => {
            const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
            let n = 0;
            for (let i = 0; i < d.length; i += 4) if (d[i] !== 255 || d[i + 1] !== 255 || d[i + 2] !== 255) n++;
            return [c.width, c.height, n];
          });
          assert.equal(cw, Math.ceil(1024 * sample.plot.cell), 'canvas width: the plot in px');
          assert.equal(ch, cw);
          assert.ok(filled > cw * ch * 0.02, `only ${filled} coloured pixels`);
          box = await root.locator('.ss-matrix').boundingBox();
          const frameW = await root.locator('.ss-matrix > svg').evaluate((s) => s.viewBox.baseVal.width);
          scale = box.width / frameW;
          const cb = await cv.boundingBox();
          assert.ok(Math.abs(cb.x - box.x - sample.plot.left * scale) < 0.5, 'the canvas sits on the plot area');
          // The live plot is the static picture's plot (which is stored
          // with at most 256 colours: nearly equal, pixel by pixel).
          const src = html.match(/src="(data:image\/png;base64,[^"]+)"/)[1];
          const [differ, total] = await cv.evaluate(async (c, [src, left, top]) => {
            const im = new Image();
            im.src = src;
            await im.decode();
            const s = document.createElement('canvas');
            s.width = c.width;
            s.height = c.height;
            s.getContext('2d').drawImage(im, -left, -top);
            const a = s.getContext('2d').getImageData(0, 0, c.width, c.height).data;
            const b = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
            let n = 0;
            for (let i = 0; i < a.length; i += 4) {
              if (Math.max(Math.abs(a[i] - b[i]), Math.abs(a[i + 1] - b[i + 1]), Math.abs(a[i + 2] - b[i + 2])) > 16) n++;
            }
            return [n, a.length / 4];
          }, [src, sample.plot.left, sample.plot.top]);
          console.log(`# live vs static plot: ${differ} of ${total} pixels differ by more than 16`);
          assert.ok(differ <= total * 0.001, `${differ} of ${total} plot pixels differ between the live and the static picture`);
        } else {
          const svg = root.locator('svg').first();
          assert.equal(await svg.locator('rect[data-tip]').count(), sample.cells, 'one rect per non-zero cell');
          box = await svg.boundingBox();
          scale = box.width / (await svg.evaluate((s) => s.viewBox.baseVal.width));
        }
        assert.ok(sample.point.tip, 'Go named no cell at its point');
        const tipEl = root.locator('.superstep-tip');
        for (const { x, y, tip } of [sample.point, ...(sample.points || [])]) {
          await page.mouse.move(0, 0);
          await page.mouse.move(box.x + x * scale, box.y + y * scale);
          if (!tip) {
            assert.ok(!(await tipEl.isVisible()), `a tooltip over the empty pixel at (${x}, ${y})`);
            continue;
          }
          assert.ok(await tipEl.isVisible(), `no tooltip at (${x}, ${y})`);
          assert.equal(await tipEl.textContent(), tip, `the hover text at (${x}, ${y}) is Go's`);
        }
        await page.mouse.move(box.x + box.width + 40, box.y + box.height + 40);
        assert.ok(!(await tipEl.isVisible()), 'the tooltip stays after the pointer left');
        assert.deepEqual(problems, [], 'script errors');
      } finally {
        await close();
      }
    });

    if (sample.formats) {
      test("the runtime formats values as Go's FormatMatrixValue", () => {
        assert.ok(sample.formats.length > 50);
        for (const { v, unit, text } of sample.formats) {
          assert.equal(formatMatrixValue(v, unit), text, `formatMatrixValue(${v}, ${JSON.stringify(unit)})`);
        }
      });
    }
  });
}

test('a bad matrix shows its error as text, no picture', () => {
  const bad = samples.find((s) => s.sample.name === 'bad');
  assert.ok(bad);
  assert.equal(bad.html, undefined, 'a bad matrix has an HTML picture');
});
