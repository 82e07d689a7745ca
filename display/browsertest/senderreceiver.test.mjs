// Browser tests of the bundled-curve views: the sender/receiver diagram
// (views.SenderReceiver) and the chord diagram of bundled lines
// (views.ChordLines), runtime/src/senderreceiver.js and chordlines.js,
// in headless Chromium with every network request refused.
//
// They read senderreceiver-samples.ipynb, written by
// `go run ./sdk/internal/samples DIR` into a temporary directory (or
// found in $SUPERSTEP_SAMPLES): small SVG pictures of both views, canvas
// pictures of 2,401 and 2,501 curves with a lone curve to hover, both views
// at the FD4 trace's scale (1,024 units, 60,515 pairs) and empty data. Each
// cell's metadata "superstep_sample" holds what to expect: the curves' count
// and, but at FD4 scale, a point on a lone curve (picture px) and its hover
// text as Go formats it. The checks:
//
//   static    the sanitized output (JupyterLab's Sanitizer) keeps no script
//             and the static PNG unchanged, which decodes with scripts off;
//   live      every sample goes live with no script error and no request;
//             SVG samples hold Go's paths, canvas samples a canvas;
//   hover     moving to the lone curve's point shows exactly Go's text;
//   controls  the blend toggle sets data-blend and changes the pixels; the
//             opacity slider changes the pixels;
//   fd4       the FD4-scale canvases paint (Go's static picture first),
//             and once the light is accumulated for repaints, the opacity
//             slider repaints and changes the pixels; the times are logged,
//             and paint-bench.mjs measures them against the 1 s target.
//
// Run: npm ci && SUPERSTEP_SAMPLES=DIR node --test senderreceiver.test.mjs

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';

import { wrap } from './chromium.mjs';
import { outputPages, samples as samplesOf, sanitize } from './page.mjs';

const samples = samplesOf('senderreceiver-samples.ipynb');
const of = (kind, mode) => {
  const s = samples.find((x) => x.sample.kind === kind && x.sample.mode === mode);
  assert.ok(s, `no ${kind} sample in mode ${mode}`);
  return s;
};

const show = outputPages({ viewport: { width: 1000, height: 900 }, title: 'curves' });
/** The sample live in a fresh page. */
const open = (s) => show(s.html, { assertLive: true });

/** Page coordinates of picture px (x, y) (the frame SVG may be scaled). */
async function toPage(root, x, y) {
  const frame = root.locator('.ss-curves-view > svg').first();
  const box = await frame.boundingBox();
  const vb = (await frame.getAttribute('viewBox')).split(' ').map(Number);
  const k = box.width / vb[2];
  return [box.x + k * x, box.y + k * y];
}

/** A screenshot of the view's picture, as bytes. */
const shot = async (root) => root.locator('.ss-curves-view').first().screenshot();

describe('bundled curves', () => {
  test('static: pictures survive the sanitizer and read alone', async () => {
    assert.ok(samples.length >= 8, `expected 8 samples, got ${samples.length}`);
    for (const s of samples) {
      const src = s.html.match(/<img [^>]*src="(data:image\/png;base64,[^"]+)"/)[1];
      const clean = sanitize(s.html);
      assert.ok(!/<script/i.test(clean), `${s.sample.kind}/${s.sample.mode}: a script survived`);
      const doc = new JSDOM(wrap(clean)).window.document;
      assert.ok([...doc.querySelectorAll('img')].some((i) => i.getAttribute('src') === src), 'the picture changed');
      const { page, close } = await show(clean, { scripts: false });
      const ok = await page.evaluate(() => [...document.images].every((i) => i.complete && i.naturalWidth > 0));
      assert.ok(ok, `${s.sample.kind}/${s.sample.mode}: the picture does not decode`);
      await close();
    }
  });

  test('live: every sample goes live, no script error, no request', async () => {
    for (const s of samples) {
      const { root, problems, close } = await open(s);
      if (s.sample.mode === 'svg') {
        assert.equal(await root.locator('path.ss-curve').count(), s.sample.curves, `${s.sample.kind}: Go's paths`);
      } else if (s.sample.kind !== 'empty') {
        assert.equal(await root.locator('canvas.ss-canvas').count(), 1, `${s.sample.kind}/${s.sample.mode}: a canvas`);
      }
      assert.deepEqual(problems, []);
      await close();
    }
  });

  for (const kind of ['senderreceiver', 'chordlines']) {
    for (const mode of ['svg', 'canvas']) {
      test(`hover: Go's text on a lone curve (${kind}, ${mode})`, async () => {
        const s = of(kind, mode);
        const { page, root, problems, close } = await open(s);
        const h = s.sample.hover;
        const [x, y] = await toPage(root, h.x, h.y);
        await page.mouse.move(x - 3, y - 3);
        await page.mouse.move(x, y, { steps: 3 });
        const tip = root.locator('.superstep-tip');
        await tip.waitFor({ state: 'visible', timeout: 2000 });
        assert.equal(await tip.textContent(), h.tip);
        await page.mouse.move(1, 1);
        assert.deepEqual(problems, []);
        await close();
      });

      test(`controls: blend toggle and opacity slider change the picture (${kind}, ${mode})`, async () => {
        const s = of(kind, mode);
        const { page, root, problems, close } = await open(s);
        if (mode === 'canvas') await page.waitForFunction((el) => el.getAttribute('data-ready') === '1', await root.elementHandle(), { timeout: 20000 });
        await page.mouse.move(1, 1);
        const first = await root.getAttribute('data-blend');
        const before = await shot(root);
        await root.locator('button.ss-blend').click();
        await page.mouse.move(1, 1);
        const second = await root.getAttribute('data-blend');
        assert.deepEqual([first, second].sort(), ['additive', 'alpha']);
        const toggled = await shot(root);
        assert.ok(!toggled.equals(before), 'the blend toggle left the picture as it was');
        await root.locator('input.ss-opacity').fill('2');
        await page.mouse.move(1, 1);
        const brighter = await shot(root);
        assert.ok(!brighter.equals(toggled), 'the opacity slider left the picture as it was');
        assert.equal(await root.getAttribute('data-opacity'), '4');
        assert.deepEqual(problems, []);
        await close();
      });
    }
  }

  for (const kind of ['senderreceiver', 'chordlines']) {
    test(`fd4: ${kind} of 1,024 units and 60,515 pairs paints, and repaints from its light`, async () => {
      const s = of(kind, 'fd4');
      assert.equal(s.sample.curves, 60515);
      const { page, root, problems, close } = await open(s);
      const ms = Number(await root.getAttribute('data-paint-ms'));
      assert.ok(ms > 0, `no paint time (data-paint-ms ${ms})`);
      // The light for repaints is accumulated meanwhile; a repaint from it
      // (the opacity slider) is as fast.
      await page.waitForFunction((el) => el.getAttribute('data-ready') === '1', await root.elementHandle(), { timeout: 20000 });
      const before = await shot(root);
      await root.locator('input.ss-opacity').fill('-1');
      const again = Number(await root.getAttribute('data-paint-ms'));
      console.log(`${kind} fd4: first paint ${ms} ms, light ready after ${await root.getAttribute('data-ready-ms')} ms more, repaint ${again} ms`);
      assert.ok(again > 0, `no repaint time (data-paint-ms ${again})`);
      assert.ok(!(await shot(root)).equals(before), 'the slider left the picture as it was');
      assert.deepEqual(problems, []);
      await close();
    });
  }
});
