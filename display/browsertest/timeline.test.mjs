// Browser tests of the live message timeline (display/timeline*.go,
// runtime/src/timeline.js), in headless Chromium with scripts on and every
// network request refused.
//
// They read timeline-samples.ipynb, written by
// `go run ./sdk/internal/samples` into a temporary directory (or found
// in $SUPERSTEP_SAMPLES): the hand-made trace H as SVG (additive and
// alpha), a made-up 2.2 M-message timeline on 1,024 lanes (additive) and a
// made-up one of 8,000 messages over regions (alpha), both drawn on a
// canvas. Each cell's metadata "superstep_sample" holds what Go computed:
// the bundles, where A's bundle is and what hovering it says. The checks:
//
//   sanitized  JupyterLab's sanitizer keeps each static PNG, which decodes
//              with scripts off;
//   live       every sample goes live with no script error and no request;
//   hover      hovering A's bundle (H) and the heaviest bundles (canvas)
//              shows exactly Go's text, then the lane, region and time
//              under the pointer;
//   lanes      clicking lane P0 hides A's bundle (Go's count of bundles per
//              lane), clicking again shows it;
//   blend      the toggle flips data-blend and changes the pixels; the
//              opacity slider changes them too;
//   static     a canvas timeline's spec holds the curves of the other blend
//              only: the live view takes those of the static picture's
//              blend from the static picture, and its first picture is the
//              static plot's;
//   zoom       Ctrl + wheel zooms time about the pointer: the plot point
//              under it stays under it, a notch zooms 1.25×, the time axis
//              shows the window in view, the lanes, their regions and
//              bundles stay level with their labels, hover names the time
//              under the pointer as zoomed, and the download is the zoomed
//              view (SVG and canvas);
//   speed      the 2.2 M timeline's first paint and hover times are logged;
//              paint-bench.mjs measures the paint against its target.
//
// Run: npm ci && node --test timeline.test.mjs

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { JSDOM } from 'jsdom';

import { wrap } from './chromium.mjs';
import { outputPages, samples as samplesOf, sanitize, specOf } from './page.mjs';

const samples = samplesOf('timeline-samples.ipynb');
const svgH = samples.find((s) => s.sample.mode === 'svg' && s.sample.blend === 'additive');
const big = samples.find((s) => s.sample.mode === 'canvas' && s.sample.blend === 'additive');
const regions = samples.find((s) => s.sample.mode === 'canvas' && s.sample.blend === 'alpha');

const show = outputPages({ viewport: { width: 1100, height: 1000 }, title: 'timeline' });
/** The sample live in a fresh page. */
const open = (s) => show(s.html, { assertLive: true });

/**
 * The plot's box on the page and its size in Go's px: the canvas's, or
 * the frame's plot area (a nested <svg>'s own box is that of its content,
 * which a zoom stretches beyond the plot).
 */
function plotBox(root) {
  return root.evaluate((r) => {
    const cv = r.querySelector('canvas.ss-canvas');
    if (cv) {
      const b = cv.getBoundingClientRect();
      const dpr = window.devicePixelRatio || 1;
      return { x: b.left, y: b.top, width: b.width, height: b.height, w: cv.width / dpr, h: cv.height / dpr };
    }
    const frame = r.querySelector('.ss-timeline > svg');
    const p = frame.querySelector('svg.ss-plot');
    const b = frame.getBoundingClientRect();
    const s = b.width / Number(frame.getAttribute('width'));
    const a = (n) => Number(p.getAttribute(n));
    return { x: b.left + a('x') * s, y: b.top + a('y') * s, width: a('width') * s, height: a('height') * s, w: a('width'), h: a('height') };
  });
}

/** Page coordinates of plot point (x, y) (px of Go's plot). */
async function toPage(page, root, x, y) {
  const b = await plotBox(root);
  return [b.x + (x * b.width) / b.w, b.y + (y * b.height) / b.h];
}

/**
 * The zoom (data-view "k tx": plot x ↦ k·x + tx), the time window it
 * shows, in seconds, from the spec's time range, and data-window.
 */
async function zoomOf(root, sp) {
  const [k, tx] = (await root.getAttribute('data-view')).split(' ').map(Number);
  const at = (x) => sp.t0 + ((x - tx) / k) * ((sp.t1 - sp.t0) / sp.pw);
  const lo = at(0), hi = at(sp.pw);
  const w = ((await root.getAttribute('data-window')) || '').split(' ').map(Number);
  return { k, tx, lo, hi, w };
}

/** Ctrl + wheel at page point (x, y): deltas, one event each. */
async function ctrlWheel(page, x, y, ...deltas) {
  await page.mouse.move(x, y);
  await page.keyboard.down('Control');
  for (const d of deltas) await page.mouse.wheel(0, d);
  await page.keyboard.up('Control');
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
}

/** The time axis as shown: [{v (the label's number), x (its page x)}]. */
function axisLabels(root) {
  return root.locator('.ss-timeline > svg .ss-axis text').evaluateAll((ts) =>
    ts.map((t) => {
      const r = t.getBoundingClientRect();
      return { v: Number(t.textContent), x: r.left + r.width / 2 };
    }),
  );
}

/** The first line of a hover text (the bundle's) and its last (lane, region, time). */
const tipLines = (s) => s.split('\n');

/** A hash of the plot's pixels as the page shows them. */
async function pixels(page, root) {
  const target = root.locator('svg.ss-plot, canvas.ss-canvas').first();
  const shot = await target.screenshot();
  let h = 0;
  for (let i = 0; i < shot.length; i += 7) h = (h * 31 + shot[i]) >>> 0;
  return h + ':' + shot.length;
}

describe('timeline', () => {
  test('samples: H as SVG (additive, alpha), 2.2 M messages and 8,000 over regions on a canvas', () => {
    assert.ok(svgH && big && regions, 'expected the H, 2.2 M and regions samples');
    assert.equal(samples.length, 4);
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
    const lines = tipLines(await tip.textContent());
    assert.equal(lines.length, 2, `the bundle, then where: ${lines}`);
    assert.equal(lines[0], svgH.sample.hover.tip);
    assert.match(lines[1], /^P[0-3] · (compute · )?\d+\.\d+ s$/);
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
    assert.ok(!(await root.locator('.superstep-tip').isVisible()) || !(await root.locator('.superstep-tip').textContent()).startsWith(svgH.sample.hover.tip));
    await lane.click();
    assert.equal(await visible(), svgH.sample.bundles);
    assert.deepEqual(problems, []);
    await close();
  });

  for (const s of [svgH, big, regions]) {
    test(`blend and opacity change the picture (${s.sample.mode}, ${s.sample.blend})`, async () => {
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

  test('zoom: Ctrl + wheel zooms time about the pointer; the lanes keep their place', async () => {
    const { page, root, problems, close } = await open(svgH);
    const sp = specOf(svgH.html);
    const px = svgH.sample.hover.x, py = svgH.sample.hover.y;
    const [x, y] = await toPage(page, root, px, py);
    await ctrlWheel(page, x, y, -300);
    const { k, tx } = await zoomOf(root, sp);
    assert.ok(k > 1.2, `zoomed in (k = ${k})`);
    // The plot point under the pointer stays: k·x + tx = x.
    assert.ok(Math.abs(px * k + tx - px) < 1.5, `point ${px} moved to ${px * k + tx}`);
    assert.equal((await root.getAttribute('data-view')).split(' ').length, 2, 'the zoom is in time only (data-view "k tx")');
    assert.deepEqual(problems, []);
    await close();
  });

  test('zoom: one Ctrl + wheel notch (100 px) zooms time 1.25×, the next one back', async () => {
    const { page, root, problems, close } = await open(svgH);
    const sp = specOf(svgH.html);
    const [x, y] = await toPage(page, root, sp.pw / 2, sp.ph / 2);
    await ctrlWheel(page, x, y, -100);
    const z = await zoomOf(root, sp);
    assert.ok(Math.abs(z.k - 1.25) < 1e-9, `one notch zoomed ${z.k}×, want 1.25×`);
    assert.ok(Math.abs((z.hi - z.lo) - (sp.t1 - sp.t0) / 1.25) < 1e-9, `window ${z.lo}–${z.hi} s after one notch`);
    await ctrlWheel(page, x, y, -100, -100, -100);
    assert.ok(Math.abs((await zoomOf(root, sp)).k - 1.25 ** 4) < 1e-9, 'four notches: 1.25⁴');
    await ctrlWheel(page, x, y, 100, 100, 100, 100);
    assert.ok(Math.abs((await zoomOf(root, sp)).k - 1) < 1e-9, 'four notches out: back to 1');
    assert.deepEqual(problems, []);
    await close();
  });

  test('zoom: the axis shows the window in view; lanes, regions and bundles stay level with their labels; hover names the time', async () => {
    const { page, root, problems, close } = await open(svgH);
    const sp = specOf(svgH.html);
    const before = await axisLabels(root);
    assert.equal(before[0].v, sp.t0);
    assert.equal(before.at(-1).v, sp.t1);
    // Four notches about A's bundle.
    const hx = svgH.sample.hover.x, hy = svgH.sample.hover.y;
    const [x, y] = await toPage(page, root, hx, hy);
    await ctrlWheel(page, x, y, -100, -100, -100, -100);
    const z = await zoomOf(root, sp);
    assert.ok(Math.abs(z.k - 1.25 ** 4) < 1e-9, `k = ${z.k}`);
    assert.ok(Math.abs((z.hi - z.lo) - (sp.t1 - sp.t0) / z.k) < 1e-9, `window ${z.lo}–${z.hi} s, want ${(sp.t1 - sp.t0) / z.k} s wide`);

    // Lanes: each label, its regions and its bundles' ends at one height.
    const rows = await root.locator('.ss-timeline > svg').evaluate((frame) => {
      const mid = (r) => r.top + r.height / 2;
      const out = [];
      for (const lab of frame.querySelectorAll('.ss-lane')) {
        const i = lab.getAttribute('data-lane');
        const ys = [];
        for (const r of frame.querySelectorAll(`.ss-interval[data-lane="${i}"]`)) ys.push(['region', mid(r.getBoundingClientRect())]);
        for (const p of frame.querySelectorAll(`.ss-bundle path[data-from="${i}"], .ss-bundle path[data-to="${i}"]`)) {
          const m = p.getScreenCTM();
          const end = p.getAttribute('data-from') === i ? 0 : p.getTotalLength();
          ys.push(['bundle', p.getPointAtLength(end).matrixTransform(m).y]);
        }
        out.push({ lane: i, label: mid(lab.getBoundingClientRect()), ys });
      }
      return out;
    });
    assert.equal(rows.length, sp.lanes);
    for (const r of rows) {
      assert.ok(r.ys.some(([k]) => k === 'region') && r.ys.some(([k]) => k === 'bundle'), `lane ${r.lane} has regions and bundles`);
      for (const [kind, y1] of r.ys) assert.ok(Math.abs(y1 - r.label) <= 2, `lane ${r.lane}: a ${kind} at y ${y1}, its label at ${r.label}`);
    }

    // The axis: every label inside the window, where the zoomed time
    // mapping puts it, and fewer seconds apart than before.
    const box = await plotBox(root);
    const scale = box.width / sp.pw;
    const after = await axisLabels(root);
    assert.ok(after.length >= 3, `${after.length} axis labels`);
    assert.notDeepEqual(after.map((a) => a.v), before.map((b) => b.v), 'the axis did not change');
    for (const a of after) {
      assert.ok(a.v >= z.lo - 1e-9 && a.v <= z.hi + 1e-9, `label ${a.v} outside the window ${z.lo}–${z.hi} s`);
      const want = box.x + (((a.v - sp.t0) / (sp.t1 - sp.t0)) * sp.pw * z.k + z.tx) * scale;
      assert.ok(Math.abs(a.x - want) < 1.5, `label ${a.v} at x ${a.x}, the zoomed time axis puts it at ${want}`);
    }
    const labelled = after.at(-1).v - after[0].v;
    assert.ok(labelled <= (sp.t1 - sp.t0) / z.k + 1e-9 && labelled >= (sp.t1 - sp.t0) / z.k / 2, `the labels span ${labelled} s`);
    // data-window and the control bar name the window.
    assert.ok(Math.abs(z.w[0] - z.lo) < 1e-9 && Math.abs(z.w[1] - z.hi) < 1e-9, `data-window ${z.w}, the zoom shows ${z.lo} ${z.hi}`);
    assert.match(await root.locator('.ss-window').textContent(), /^window \d+\.\d+–\d+\.\d+ s/);

    // Hover: A's bundle, now at k·x + tx, says Go's text, then the time
    // under the pointer in the zoomed view.
    const [ax, ay] = await toPage(page, root, hx * z.k + z.tx, hy);
    await page.mouse.move(ax, ay);
    const tip = root.locator('.superstep-tip');
    assert.ok(await tip.isVisible(), 'a tooltip');
    const lines = tipLines(await tip.textContent());
    assert.equal(lines[0], svgH.sample.hover.tip);
    const m = lines.at(-1).match(/([\d.]+) s$/);
    assert.ok(m, `no time in ${lines.at(-1)}`);
    const secPerPagePx = (sp.t1 - sp.t0) / sp.pw / z.k / scale;
    const want = sp.t0 + (((ax - box.x) / scale - z.tx) / z.k) * ((sp.t1 - sp.t0) / sp.pw);
    assert.ok(Math.abs(Number(m[1]) - want) <= 1.5 * secPerPagePx, `hover says ${m[1]} s, the pointer is at ${want} s`);
    assert.ok(Math.abs(Number(m[1]) - (sp.t0 + hx * ((sp.t1 - sp.t0) / sp.pw))) <= 1.5 * secPerPagePx, 'the time of A\'s point');
    assert.deepEqual(problems, []);
    await close();
  });

  test('zoom: the download is the zoomed view with its axis (SVG, PNG)', async () => {
    const { page, root, problems, close } = await open(svgH);
    const sp = specOf(svgH.html);
    const [x, y] = await toPage(page, root, sp.pw / 3, sp.ph / 2);
    await ctrlWheel(page, x, y, -100, -100, -100, -100, -100, -100);
    const z = await zoomOf(root, sp);
    const shown = (await axisLabels(root)).map((a) => a.v);
    const fetch = async (format) => {
      await root.locator('.ss-download').click();
      const [download] = await Promise.all([page.waitForEvent('download'), root.locator(`.ss-download-menu [data-format="${format}"]`).click()]);
      return fs.readFileSync(await download.path());
    };
    const doc = new JSDOM((await fetch('svg')).toString('utf8'), { contentType: 'image/svg+xml' }).window.document;
    const got = [...doc.querySelectorAll('.ss-axis text')].map((t) => Number(t.textContent));
    assert.deepEqual(got, shown, 'the downloaded axis is the one shown');
    assert.equal(doc.querySelector('.ss-zoom').getAttribute('transform'), `translate(${z.tx},0) scale(${z.k},1)`);
    const png = await fetch('png');
    assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
    assert.deepEqual(problems, []);
    await close();
  });

  test('zoom (canvas): the 2.2 M timeline zooms time, its axis follows, hover finds the heaviest bundle, the download holds the plot', async () => {
    const { page, root, problems, close } = await open(big);
    await page.waitForSelector('.ss-timeline[data-painted="1"]');
    const sp = specOf(big.html);
    const before = await pixels(page, root);
    const hx = big.sample.hover.x, hy = big.sample.hover.y;
    const [x, y] = await toPage(page, root, hx, hy);
    await ctrlWheel(page, x, y, -100, -100, -100, -100, -100);
    const z = await zoomOf(root, sp);
    assert.ok(Math.abs(z.k - 1.25 ** 5) < 1e-9, `k = ${z.k}`);
    assert.notEqual(await pixels(page, root), before, 'the plot did not change');
    const box = await plotBox(root);
    const scale = box.width / sp.pw;
    const axis = await axisLabels(root);
    assert.ok(axis.length >= 3);
    for (const a of axis) {
      assert.ok(a.v >= z.lo - 1e-9 && a.v <= z.hi + 1e-9, `label ${a.v} outside ${z.lo}–${z.hi} s`);
      const want = box.x + (((a.v - sp.t0) / (sp.t1 - sp.t0)) * sp.pw * z.k + z.tx) * scale;
      assert.ok(Math.abs(a.x - want) < 1.5, `label ${a.v} at x ${a.x}, want ${want}`);
    }
    const [ax, ay] = await toPage(page, root, hx * z.k + z.tx, hy);
    await page.mouse.move(ax, ay);
    const tip = root.locator('.superstep-tip');
    await tip.waitFor({ state: 'visible' });
    const lines = tipLines(await tip.textContent());
    assert.equal(lines[0], big.sample.hover.tip);
    assert.match(lines.at(-1), /^rank \d+ · [\d.]+ s$/);
    await root.locator('.ss-download').click();
    const [download] = await Promise.all([page.waitForEvent('download'), root.locator('.ss-download-menu [data-format="svg"]').click()]);
    const doc = new JSDOM(fs.readFileSync(await download.path(), 'utf8'), { contentType: 'image/svg+xml' }).window.document;
    const im = doc.querySelector('image');
    assert.ok(im && im.getAttribute('href').startsWith('data:image/png;base64,'), 'the plot is in the download');
    assert.deepEqual([...doc.querySelectorAll('.ss-axis text')].map((t) => Number(t.textContent)), axis.map((a) => a.v));
    assert.deepEqual(problems, []);
    await close();
  });

  for (const s of [big, regions]) {
    test(`canvas: the curves of the static picture's blend come from the static picture (${s.sample.blend})`, async () => {
      // The spec holds the curves of the other blend only; the live view
      // takes those of the static picture's blend from its plot, which Go
      // drew over the ground as g + (1 − g)·light per channel (additive:
      // the live view adds the light to the ground) or g·(1 − cov) +
      // colour·cov (alpha: the live view composites the same): its first
      // picture is the static plot's.
      const sp = specOf(s.html);
      const add = sp.blend === 'additive';
      assert.equal(sp.blend, s.sample.blend);
      assert.ok(add ? sp.imgCurvesAlpha && !sp.imgCurvesAdd : sp.imgCurvesAdd && !sp.imgCurvesAlpha, "the spec holds the other blend's curves only");
      const { page, root, problems, close } = await open(s);
      await page.waitForSelector('.ss-timeline[data-painted="1"]');
      await page.mouse.move(1, 1);
      const src = s.html.match(/src="(data:image\/png;base64,[^"]+)"/)[1];
      const ground = 'data:image/png;base64,' + (add ? sp.imgGroundAdd : sp.imgGroundAlpha);
      // Compared in blocks of 8 × 8 px over the plot's left quarter: the
      // canvas draws the layers into the plot's pw px, a fraction of a px
      // fewer than the static plot's whole px, so pixels drift apart to
      // the right.
      const { blocks, mean, worst, lit } = await root.locator('canvas.ss-canvas').evaluate(async (c, [src, ground, rect, add]) => {
        const read = async (url, x, y) => {
          const im = new Image();
          im.src = url;
          await im.decode();
          const s = document.createElement('canvas');
          s.width = c.width;
          s.height = c.height;
          s.getContext('2d').drawImage(im, x, y, c.width, c.height, 0, 0, c.width, c.height);
          return s.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        };
        const v = await read(src, rect[0], rect[1]);
        const g = await read(ground, 0, 0);
        const live = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        const B = 8;
        let blocks = 0, sum = 0, worst = 0, lit = 0;
        for (let by = 0; by + B <= c.height; by += B) {
          for (let bx = 0; bx + B <= c.width / 4; bx += B) {
            const d = [0, 0, 0];
            let curves = 0;
            for (let y = by; y < by + B; y++) {
              for (let x = bx; x < bx + B; x++) {
                const i = 4 * (y * c.width + x);
                for (let k = 0; k < 3; k++) {
                  const want = add ? Math.min(255, g[i + k] + (255 * Math.max(0, v[i + k] - g[i + k])) / (255 - g[i + k])) : v[i + k];
                  d[k] += live[i + k] - want;
                }
                if (Math.abs(v[i] - g[i]) + Math.abs(v[i + 1] - g[i + 1]) > 40) curves++;
              }
            }
            const e = Math.max(...d.map(Math.abs)) / (B * B);
            sum += e;
            worst = Math.max(worst, e);
            blocks++;
            if (curves > B) lit++;
          }
        }
        return { blocks, mean: sum / blocks, worst, lit };
      }, [src, ground, sp.staticPlot, add]);
      console.log(`live vs static plot (${s.sample.blend}): ${blocks} blocks of 8 × 8 px, mean difference ${mean.toFixed(2)}, worst ${worst.toFixed(1)}`);
      assert.ok(lit > blocks / 10, `only ${lit} of ${blocks} blocks with curves in the static plot`);
      assert.ok(mean < 1, `the live plot differs from the static one by ${mean.toFixed(2)} on average`);
      assert.ok(worst < 4, `a block of the live plot differs from the static one by ${worst.toFixed(1)}`);
      assert.deepEqual(problems, []);
      await close();
    });
  }

  for (const s of [big, regions]) {
    test(`canvas: the ${s.sample.messages.toLocaleString('en-US')}-message timeline paints and names its heaviest bundle`, async () => {
      const { page, root, problems, t0, close } = await open(s);
      await page.waitForSelector('.ss-timeline[data-painted="1"]');
      const paint = Date.now() - t0;
      console.log(`${s.sample.messages}-message timeline: first live paint ${paint} ms after load began`);
      const [x, y] = await toPage(page, root, s.sample.hover.x, s.sample.hover.y);
      const h0 = Date.now();
      await page.mouse.move(x, y);
      const tip = root.locator('.superstep-tip');
      await tip.waitFor({ state: 'visible' });
      console.log(`hover response ${Date.now() - h0} ms`);
      assert.equal(tipLines(await tip.textContent())[0], s.sample.hover.tip);
      assert.deepEqual(problems, []);
      await close();
    });
  }
});
