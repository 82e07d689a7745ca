// Browser tests of the live message timeline (display/timeline*.go,
// runtime/src/timeline.js), in headless Chromium with scripts on and every
// network request refused.
//
// They read timeline-samples.ipynb, written by
// `go run ./sdk/internal/samples` into a temporary directory (or found
// in $SUPERSTEP_SAMPLES): the hand-made trace H as SVG (additive and
// alpha) and a made-up 2.2 M-message timeline on 1,024 lanes drawn on a
// canvas. Each cell's metadata "superstep_sample" holds what Go computed:
// the bundles, where A's bundle is and what hovering it says. The checks:
//
//   sanitized  JupyterLab's sanitizer keeps each static PNG, which decodes
//              with scripts off;
//   live       every sample goes live with no script error and no request;
//   hover      hovering A's bundle (H) and the heaviest bundle (2.2 M)
//              shows exactly Go's text;
//   lanes      clicking lane P0 hides A's bundle (Go's count of bundles per
//              lane), clicking again shows it;
//   blend      the toggle flips data-blend and changes the pixels; the
//              opacity slider changes them too;
//   zoom       Ctrl + wheel zooms about the pointer: the plot point under
//              it stays under it;
//   speed      the 2.2 M timeline's first paint and hover times are logged;
//              paint-bench.mjs measures the paint against its target.
//
// Run: npm ci && node --test timeline.test.mjs

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';

import { wrap } from './chromium.mjs';
import { outputPages, samples as samplesOf, sanitize } from './page.mjs';

const samples = samplesOf('timeline-samples.ipynb');
const svgH = samples.find((s) => s.sample.mode === 'svg' && s.sample.blend === 'additive');
const big = samples.find((s) => s.sample.mode === 'canvas');

const show = outputPages({ viewport: { width: 1100, height: 1000 }, title: 'timeline' });
/** The sample live in a fresh page. */
const open = (s) => show(s.html, { assertLive: true });

/** Page coordinates of plot point (x, y) (px of Go's plot). */
async function toPage(page, root, x, y) {
  const target = root.locator('svg.ss-plot, canvas.ss-canvas').first();
  const box = await target.boundingBox();
  const [w, h] = await target.evaluate((el) =>
    el.tagName.toLowerCase() === 'canvas' ? [el.width / (window.devicePixelRatio || 1), el.height / (window.devicePixelRatio || 1)] : el.getAttribute('viewBox').split(' ').slice(2).map(Number),
  );
  return [box.x + (x * box.width) / w, box.y + (y * box.height) / h];
}

/** A hash of the plot's pixels as the page shows them. */
async function pixels(page, root) {
  const target = root.locator('svg.ss-plot, canvas.ss-canvas').first();
  const shot = await target.screenshot();
  let h = 0;
  for (let i = 0; i < shot.length; i += 7) h = (h * 31 + shot[i]) >>> 0;
  return h + ':' + shot.length;
}

describe('timeline', () => {
  test('samples: H as SVG (additive, alpha) and 2.2 M messages on a canvas', () => {
    assert.ok(svgH && big, 'expected the H and 2.2 M samples');
    assert.equal(samples.length, 3);
  });

  test('sanitized: the static pictures survive and decode with scripts off', async () => {
    for (const s of samples) {
      const clean = sanitize(s.html);
      const doc = new JSDOM(wrap(clean)).window.document;
      assert.equal(doc.querySelectorAll('script').length, 0);
      const imgs = [...doc.querySelectorAll('img')].filter((i) => (i.getAttribute('src') || '').startsWith('data:image/png;base64,'));
      assert.equal(imgs.length, 1, 'one static PNG per display');
      const { page, close } = await show(clean, { scripts: false });
      const ok = await page.evaluate(() => [...document.images].every((i) => i.complete && i.naturalWidth > 0));
      assert.ok(ok, 'the sanitized picture decodes');
      await close();
    }
  });

  test('live: every sample goes live with no error and no request', async () => {
    for (const s of samples) {
      const { root, problems, close } = await open(s);
      assert.equal(await root.getAttribute('data-blend'), s.sample.blend);
      if (s.sample.mode === 'svg') {
        assert.equal(await root.locator('.ss-bundle').count(), s.sample.bundles);
      }
      assert.deepEqual(problems, []);
      await close();
    }
  });

  test("hover: A's bundle says exactly Go's text", async () => {
    const { page, root, problems, close } = await open(svgH);
    const [x, y] = await toPage(page, root, svgH.sample.hover.x, svgH.sample.hover.y);
    await page.mouse.move(x, y);
    const tip = root.locator('.superstep-tip');
    assert.ok(await tip.isVisible(), 'a tooltip');
    assert.equal(await tip.textContent(), svgH.sample.hover.tip);
    assert.deepEqual(problems, []);
    await close();
  });

  test('lanes: clicking P0 hides its bundles, clicking again shows them', async () => {
    const { page, root, problems, close } = await open(svgH);
    const visible = () => root.locator('.ss-bundle').evaluateAll((bs) => bs.filter((b) => b.style.display !== 'none').length);
    assert.equal(await visible(), svgH.sample.bundles);
    const lane = root.locator('.ss-lane[data-lane="0"]');
    await lane.click();
    assert.equal(await root.getAttribute('data-hidden'), '0');
    assert.equal(await visible(), svgH.sample.bundles - svgH.sample.laneBundles['0']);
    // A's bundle is gone: hovering its middle says nothing.
    const [x, y] = await toPage(page, root, svgH.sample.hover.x, svgH.sample.hover.y);
    await page.mouse.move(x, y);
    assert.ok(!(await root.locator('.superstep-tip').isVisible()) || (await root.locator('.superstep-tip').textContent()) !== svgH.sample.hover.tip);
    await lane.click();
    assert.equal(await visible(), svgH.sample.bundles);
    assert.deepEqual(problems, []);
    await close();
  });

  for (const s of [svgH, big]) {
    test(`blend and opacity change the picture (${s.sample.mode})`, async () => {
      const { page, root, problems, close } = await open(s);
      if (s.sample.mode === 'canvas') await page.waitForSelector('.ss-timeline[data-painted="1"]');
      const before = await pixels(page, root);
      await root.locator('button.ss-blend').click();
      assert.equal(await root.getAttribute('data-blend'), s.sample.blend === 'additive' ? 'alpha' : 'additive');
      const toggled = await pixels(page, root);
      assert.notEqual(toggled, before, 'the blend toggle changes the pixels');
      await root.locator('input.ss-opacity').fill('0.3');
      assert.equal(await root.getAttribute('data-opacity'), '0.3');
      assert.notEqual(await pixels(page, root), toggled, 'the opacity slider changes the pixels');
      assert.deepEqual(problems, []);
      await close();
    });
  }

  test('zoom: Ctrl + wheel keeps the point under the pointer', async () => {
    const { page, root, problems, close } = await open(svgH);
    const px = svgH.sample.hover.x, py = svgH.sample.hover.y;
    const [x, y] = await toPage(page, root, px, py);
    await page.mouse.move(x, y);
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -300);
    await page.keyboard.up('Control');
    await page.waitForFunction(() => document.querySelector('.superstep-display').getAttribute('data-view').split(' ')[0] !== '1');
    const [k, tx, ty] = (await root.getAttribute('data-view')).split(' ').map(Number);
    assert.ok(k > 1.2, `zoomed in (k = ${k})`);
    // The plot point under the pointer: (x − t) / k before the zoom = after.
    assert.ok(Math.abs((px * k + tx) - px) < 1.5 && Math.abs((py * k + ty) - py) < 1.5, `point (${px}, ${py}) moved to (${px * k + tx}, ${py * k + ty})`);
    assert.deepEqual(problems, []);
    await close();
  });

  test('canvas: the 2.2 M timeline paints and names its heaviest bundle', async () => {
    const { page, root, problems, t0, close } = await open(big);
    await page.waitForSelector('.ss-timeline[data-painted="1"]');
    const paint = Date.now() - t0;
    console.log(`2.2 M-message timeline: first live paint ${paint} ms after load began`);
    const [x, y] = await toPage(page, root, big.sample.hover.x, big.sample.hover.y);
    const h0 = Date.now();
    await page.mouse.move(x, y);
    const tip = root.locator('.superstep-tip');
    await tip.waitFor({ state: 'visible' });
    console.log(`hover response ${Date.now() - h0} ms`);
    assert.equal(await tip.textContent(), big.sample.hover.tip);
    assert.deepEqual(problems, []);
    await close();
  });
});
