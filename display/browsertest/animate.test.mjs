// Browser tests of the animated vertex-program run (display/animate*.go,
// runtime/src/animate.js), in headless Chromium with scripts on and every
// network request refused.
//
// They read the animate samples of display-samples.ipynb, written by
// `go run ./sdk/internal/samples` into a temporary directory (or found
// in $SUPERSTEP_SAMPLES): SSSP on a 12×12 lattice, with a trend, and an
// empty run. The SSSP cell's metadata "superstep_sample" names a vertex,
// its position as Go drew it (AnimateView.Positions) and Go's hover text of
// it at every superstep (AnimateData.tip). The checks:
//
//   sanitized  JupyterLab's sanitizer keeps the static PNG (the small
//              multiples), which decodes with scripts off and is as wide
//              as the view;
//   live       the view goes live with no error and no request, paused at
//              superstep 0 (data-step), its canvas over the frame;
//   play       play advances data-step, pause stops it;
//   step       the buttons and the keyboard (→, ←) move exactly one
//              superstep; space plays and pauses; the slider jumps;
//   trend      the trend's marker sits on the current superstep's column,
//              and a click on superstep k's column jumps to k;
//   hover      hovering the vertex shows Go's text at the current superstep,
//              and the text follows a step with the pointer at rest;
//   download   the menu saves the superstep shown as SVG (one circle per
//              vertex, the superstep's pulses, its label, the trend) and as
//              PNG at twice its size;
//   empty      an empty run goes live, its controls disabled.
//
// With $SUPERSTEP_ANIMATE_SCREENSHOT=DIR it writes DIR/animate-live.png
// (the live view mid-play, a vertex hovered) and DIR/animate-static.png
// (the sanitized static picture).
//
// Run: npm ci && node --test animate.test.mjs

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { JSDOM } from 'jsdom';

import { wrap } from './chromium.mjs';
import { outputPages, samples, sanitize } from './page.mjs';

const SHOTS = process.env.SUPERSTEP_ANIMATE_SCREENSHOT;
const all = samples('display-samples.ipynb').filter((s) => s.html.includes('data-kind="animate"'));
const sssp = all.find((s) => s.sample.kind === 'animate');
const empty = all.find((s) => s.sample.kind === 'empty');

const show = outputPages({ viewport: { width: 900, height: 1000 }, title: 'animate' });
/** The sample live in a fresh page. */
const open = (s) => show(s.html, { assertLive: true });

const stepOf = async (root) => Number(await root.getAttribute('data-step'));

/** Page coordinates of plot point (x, y) (px of Go's plot). */
async function toPage(root, x, y) {
  const cv = root.locator('canvas.ss-canvas');
  const box = await cv.boundingBox();
  return [box.x + (x * box.width) / sssp.sample.w, box.y + (y * box.height) / sssp.sample.h];
}

/** The marker's x and the centre of superstep k's column in the trend. */
async function markerAndColumn(root, k) {
  return root.locator('svg.ss-trend').evaluate((svg, f) => {
    const m = svg.querySelector('.ss-marker');
    const pt = svg.querySelector(`.ss-pt[data-frame="${f}"]`);
    return {
      shown: m.style.display !== 'none',
      marker: Number(m.getAttribute('x1')),
      column: pt ? Number(pt.getAttribute('x')) + Number(pt.getAttribute('width')) / 2 : null,
    };
  }, k);
}

describe('animate', () => {
  test('samples: SSSP on a 12×12 lattice and an empty run', () => {
    assert.ok(sssp && empty, 'expected the SSSP and the empty animate samples');
    assert.equal(sssp.sample.n, 144);
    assert.ok(sssp.sample.steps > 10);
    assert.ok(sssp.sample.jump > 0, 'a superstep to jump to');
  });

  test('sanitized: the small multiples survive and decode with scripts off', async () => {
    for (const s of all) {
      const clean = sanitize(s.html);
      const doc = new JSDOM(wrap(clean)).window.document;
      assert.equal(doc.querySelectorAll('script').length, 0);
      const imgs = [...doc.querySelectorAll('img')];
      assert.equal(imgs.length, 1, 'one picture per display');
      const src = imgs[0].getAttribute('src') || '';
      assert.ok(src.startsWith('data:image/png;base64,'), 'the picture is a PNG data URL');
      assert.ok(s.html.includes(src), 'the sanitizer kept the picture unchanged');
      if (s === sssp) assert.match(imgs[0].getAttribute('alt'), /144 vertices/);
      const { page, close } = await show(clean, { scripts: false });
      const size = await page.evaluate(() => [...document.images].map((i) => [i.complete, i.naturalWidth, i.naturalHeight]));
      assert.equal(size.length, 1);
      assert.ok(size[0][0] && size[0][1] === 640 && size[0][2] > (s === sssp ? 600 : 40), `the sanitized picture decodes: ${size}`);
      if (SHOTS && s === sssp) {
        fs.mkdirSync(SHOTS, { recursive: true });
        await page.locator('img').screenshot({ path: path.join(SHOTS, 'animate-static.png') });
      }
      await close();
    }
  });

  test('live: paused at superstep 0, a canvas over the frame, controls', async () => {
    const { root, problems, close } = await open(sssp);
    assert.equal(await stepOf(root), 0);
    assert.equal(await root.getAttribute('data-playing'), '0');
    assert.equal(await root.getAttribute('tabindex'), '0');
    assert.equal(await root.locator('img').count(), 0);
    assert.equal(await root.locator('canvas.ss-canvas').count(), 1);
    for (const c of ['.ss-play', '.ss-back', '.ss-forward', 'input.ss-scrub', 'select.ss-speed', 'svg.ss-trend']) {
      assert.equal(await root.locator(c).count(), 1, `no ${c}`);
    }
    assert.equal(await root.locator('input.ss-scrub').getAttribute('max'), String(sssp.sample.steps - 1));
    assert.deepEqual(problems, []);
    await close();
  });

  test('play advances supersteps; pause stops', async () => {
    const { page, root, problems, close } = await open(sssp);
    await root.locator('select.ss-speed').selectOption('4');
    await root.locator('.ss-play').click();
    assert.equal(await root.getAttribute('data-playing'), '1');
    const handle = await root.elementHandle();
    await page.waitForFunction((el) => Number(el.getAttribute('data-step')) >= 2, handle, { timeout: 5000 });
    await root.locator('.ss-play').click();
    assert.equal(await root.getAttribute('data-playing'), '0');
    const s = await stepOf(root);
    await page.waitForTimeout(600);
    assert.equal(await stepOf(root), s, 'paused, the superstep stays');
    // Played to the end, it stops on the last superstep.
    await root.locator('input.ss-scrub').evaluate((el, v) => {
      el.value = String(v);
      el.dispatchEvent(new Event('input', { bubbles: true }));
    }, sssp.sample.steps - 2);
    await root.locator('.ss-play').click();
    await page.waitForFunction((el) => el.getAttribute('data-playing') === '0', handle, { timeout: 5000 });
    assert.equal(await stepOf(root), sssp.sample.steps - 1);
    assert.deepEqual(problems, []);
    await close();
  });

  test('step: buttons and keys move exactly one superstep; space plays', async () => {
    const { page, root, problems, close } = await open(sssp);
    await root.locator('.ss-forward').click();
    assert.equal(await stepOf(root), 1);
    await root.locator('.ss-forward').click();
    assert.equal(await stepOf(root), 2);
    await root.locator('.ss-back').click();
    assert.equal(await stepOf(root), 1);
    await root.focus();
    await page.keyboard.press('ArrowRight');
    assert.equal(await stepOf(root), 2);
    await page.keyboard.press('ArrowRight');
    assert.equal(await stepOf(root), 3);
    await page.keyboard.press('ArrowLeft');
    assert.equal(await stepOf(root), 2);
    // The slider, focused, steps by one too.
    await root.locator('input.ss-scrub').focus();
    await page.keyboard.press('ArrowRight');
    assert.equal(await stepOf(root), 3);
    await root.focus();
    await page.keyboard.press(' ');
    assert.equal(await root.getAttribute('data-playing'), '1');
    await page.keyboard.press(' ');
    assert.equal(await root.getAttribute('data-playing'), '0');
    // At either end a step stays put.
    await page.keyboard.press('Home');
    for (let i = 0; i < sssp.sample.steps + 2; i++) await page.keyboard.press('ArrowLeft');
    assert.equal(await stepOf(root), 0);
    assert.ok(await root.locator('.ss-back').isDisabled());
    assert.deepEqual(problems, []);
    await close();
  });

  test('trend: the marker follows the superstep; a click jumps there', async () => {
    const { page, root, problems, close } = await open(sssp);
    for (const k of [0, 1, 5]) {
      if (k) {
        await root.locator('input.ss-scrub').evaluate((el, v) => {
          el.value = String(v);
          el.dispatchEvent(new Event('input', { bubbles: true }));
        }, k);
      }
      assert.equal(await stepOf(root), k);
      const m = await markerAndColumn(root, k);
      assert.ok(m.shown && Math.abs(m.marker - m.column) < 0.01, `superstep ${k}: marker at ${m.marker}, column at ${m.column}`);
    }
    const k = sssp.sample.jump;
    const pt = root.locator(`svg.ss-trend .ss-pt[data-frame="${k}"]`).first();
    if (!(await pt.count())) await root.locator('.ss-next').click(); // the page holding k
    const box = await root.locator(`svg.ss-trend .ss-pt[data-frame="${k}"]`).first().boundingBox();
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    assert.equal(await stepOf(root), k, `a click on superstep ${k} of the trend`);
    const m = await markerAndColumn(root, k);
    assert.ok(m.shown && Math.abs(m.marker - m.column) < 0.01);
    // The keyboard works on after the click.
    await page.keyboard.press('ArrowRight');
    assert.equal(await stepOf(root), k + 1);
    assert.deepEqual(problems, []);
    await close();
  });

  test("hover: the vertex says Go's text at the current superstep", async () => {
    const { page, root, problems, close } = await open(sssp);
    const v = sssp.sample.vertex;
    const tip = root.locator('.superstep-tip');
    const [x, y] = await toPage(root, v.x, v.y);
    for (const k of [0, sssp.sample.jump, sssp.sample.steps - 1]) {
      await root.locator('input.ss-scrub').evaluate((el, s) => {
        el.value = String(s);
        el.dispatchEvent(new Event('input', { bubbles: true }));
      }, k);
      await page.mouse.move(0, 0);
      await page.mouse.move(x, y);
      assert.ok(await tip.isVisible(), `superstep ${k}: a tooltip`);
      assert.equal(await tip.textContent(), v.tips[k], `superstep ${k}`);
    }
    // The pointer at rest, a step changes the text.
    await root.focus();
    await page.keyboard.press('ArrowLeft');
    const k = sssp.sample.steps - 2;
    await page.mouse.move(x + 0.5, y);
    assert.equal(await tip.textContent(), v.tips[k], `superstep ${k}, after ←`);
    await page.mouse.move(0, 0);
    assert.ok(!(await tip.isVisible()), 'the tip hides when the pointer leaves');
    assert.deepEqual(problems, []);
    await close();
  });

  test('download: the superstep shown as SVG (one circle per vertex, its pulses) and PNG', async () => {
    const { page, root, problems, close } = await open(sssp);
    const k = sssp.sample.jump;
    await root.locator('input.ss-scrub').evaluate((el, s) => {
      el.value = String(s);
      el.dispatchEvent(new Event('input', { bubbles: true }));
    }, k);
    const fetch = async (format) => {
      await root.locator('.ss-download').click();
      const [download] = await Promise.all([page.waitForEvent('download'), root.locator(`.ss-download-menu [data-format="${format}"]`).click()]);
      assert.equal(download.suggestedFilename(), `superstep-animate.${format}`);
      return fs.readFileSync(await download.path());
    };
    const doc = new JSDOM((await fetch('svg')).toString('utf8'), { contentType: 'image/svg+xml' }).window.document;
    const el = doc.documentElement;
    assert.equal(el.nodeName, 'svg');
    assert.equal(el.querySelectorAll('.ss-vertex').length, sssp.sample.n, 'one circle per vertex');
    assert.equal(el.querySelectorAll('.ss-pulse').length, sssp.sample.pulses[k], `the pulses of superstep ${k}`);
    assert.ok([...el.querySelectorAll('text')].some((t) => t.textContent.startsWith(`superstep ${k} `)), 'the superstep is named');
    assert.ok(el.querySelector('svg.ss-trend'), 'the trend is in the picture');
    const sw = Number(el.getAttribute('width')), sh = Number(el.getAttribute('height'));
    assert.equal(el.getAttribute('viewBox'), `0 0 ${sw} ${sh}`);
    const png = await fetch('png');
    assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
    const w = png.readUInt32BE(16), h = png.readUInt32BE(20);
    assert.ok(Math.abs(w - 2 * sw) <= 2 && Math.abs(h - 2 * sh) <= 2, `PNG ${w}×${h}, SVG ${sw}×${sh} (want 2×)`);
    assert.deepEqual(problems, []);
    await close();
  });

  test('screenshot of the live view mid-play', { skip: !SHOTS && 'SUPERSTEP_ANIMATE_SCREENSHOT not set' }, async () => {
    const { page, root, close } = await open(sssp);
    // Mid-play at superstep `jump`: pulses on their way.
    await root.locator('input.ss-scrub').evaluate((el, s) => {
      el.value = String(s);
      el.dispatchEvent(new Event('input', { bubbles: true }));
    }, sssp.sample.jump);
    await root.locator('select.ss-speed').selectOption('0.25');
    await root.locator('.ss-play').click();
    await page.waitForTimeout(1500);
    const v = sssp.sample.vertex;
    const [x, y] = await toPage(root, v.x, v.y);
    await page.mouse.move(x, y);
    fs.mkdirSync(SHOTS, { recursive: true });
    await root.screenshot({ path: path.join(SHOTS, 'animate-live.png') });
    await close();
  });

  test('empty: goes live, controls disabled', async () => {
    const { root, problems, close } = await open(empty);
    assert.ok(await root.locator('.ss-play').isDisabled());
    assert.ok(await root.locator('input.ss-scrub').isDisabled());
    assert.deepEqual(problems, []);
    await close();
  });
});
