// Browser tests of the live ring graph (display/ringgraph*.go,
// runtime/src/ringgraph.js), in headless Chromium with scripts on and every
// network request refused.
//
// They read ringgraph-samples.ipynb, written by
// `go run ./sdk/internal/samples` into a temporary directory (or found
// in $SUPERSTEP_SAMPLES): a 4×4 torus in Hilbert order, an 8×8×8 torus
// (512 leaves) and the paper's 1×4×4×4×2 torus (128 leaves, Hilbert order,
// tracks a..e, 3 regions), two 4×4×4 tori whose dimension a is idle (the
// second with a quarter of the first's packets, on the first's scale),
// plus an empty ring. Each cell's metadata
// "superstep_sample" holds what Go computed (views.RingGraphLayout, the
// static SVG, RingGraphData.Totals). The checks:
//
//   live      every sample goes live with no script error and no request;
//   paths     the live link paths (one per load step and colour) are Go's
//             static SVG paths, number by number within 0.02 px, with
//             Go's stroke widths, and the live marks are as many as Go's
//             circles and arrows;
//   idle      the idle links (dimension a) are thinner and fainter than
//             every busy link, the legend says what width means and how
//             many links are idle, "hide idle links" hides them (and only
//             them); on one scale the lighter ring's widest link is
//             narrower than the heavier ring's;
//   hover     hovering a leaf's track cell leaves exactly its links (Go's
//             count) and one highlighted cell per track, with a tooltip
//             naming it; leaving restores every link;
//   bundle    a click on a far link's midpoint leaves exactly its block
//             pair (Go's link count); a shift-brush around another link's
//             midpoint adds that pair; the clear button restores all;
//   values    a click on value 3 of the third track (the paper's Dim2 = 3)
//             leaves Go's count of links touching it; "within" leaves
//             Go's count of links with both ends at 3; a second click
//             clears;
//   levels    the level buttons give Go's block and bundle counts;
//   zoom      a rectangle drag with the zoom tool sets data-view to a
//             smaller box; a double click resets it;
//   frames    the region slider changes the totals strip to Go's totals
//             of that frame, per dimension;
//   modes     the mode buttons switch the head text and the marks to the
//             links with a positive value in that mode.
//
// Run: npm ci && node --test ringgraph.test.mjs

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { outputPages, samples as samplesOf, specOf } from './page.mjs';

const samples = samplesOf('ringgraph-samples.ipynb').filter((s) => s.sample.kind === 'ringgraph' || s.sample.kind === 'empty');
const byLeaves = (n) => {
  const s = samples.find((x) => x.sample.leaves === n);
  assert.ok(s, `no ring graph sample of ${n} leaves`);
  return s;
};

// Decoding the spec's little-endian arrays, as ringgraph_spec.md says.
const buf = (s) => Buffer.from(s, 'base64');
function ints(s, w) {
  const b = buf(s);
  const out = [];
  for (let i = 0; i < b.length; i += w) out.push(w === 1 ? b[i] : w === 2 ? b.readUInt16LE(i) : b.readUInt32LE(i));
  return out;
}
function weights(s, wb) {
  const b = buf(s);
  const w = { u8: 1, u16: 2, u32: 4, f32: 4 }[wb];
  const out = [];
  for (let i = 0; i < b.length; i += w) out.push(wb === 'u8' ? b[i] : wb === 'u16' ? b.readUInt16LE(i) : wb === 'u32' ? b.readUInt32LE(i) : b.readFloatLE(i));
  return out;
}
const nums = (d) => (d.match(/-?\d+(\.\d+)?(e-?\d+)?/g) || []).map(Number);

const show = outputPages({ viewport: { width: 1100, height: 1100 }, title: 'ring graph', assertLive: true });

/** The sample live in a fresh page: {page, root, problems, spec, close}. */
async function open(s) {
  return { ...(await show(s.html)), spec: specOf(s.html) };
}

/** Page coordinates of user-space point (x, y) of the plot. */
async function toPage(root, spec, x, y) {
  const svg = root.locator('svg.ss-plot');
  const box = await svg.boundingBox();
  const vb = (await svg.getAttribute('viewBox')).split(' ').map(Number);
  const k = box.width / vb[2];
  return [box.x + k * (x - vb[0]), box.y + k * (y - vb[1])];
}
const polarPt = (spec, r, th) => [spec.cx + r * Math.sin(th), spec.cy - r * Math.cos(th)];
const leafAngle = (spec, i) => (2 * Math.PI * (i + 0.5)) / spec.n;
const attr = async (root, a) => root.getAttribute('data-' + a);
const num = async (root, a) => Number(await attr(root, a));

describe('ring graph', () => {
  test('live: every sample goes live, no script error, no request', async () => {
    assert.ok(samples.length >= 5, 'expected the 4×4, 8×8×8, 1×4×4×4×2, 16×16×16 and empty samples');
    for (const s of samples) {
      const { root, problems, close } = await open(s);
      if (s.sample.kind === 'ringgraph') assert.equal(await num(root, 'visible'), s.sample.links);
      assert.deepEqual(problems, []);
      await close();
    }
  });

  for (const n of [16, 512, 128]) {
    test(`paths: live link paths are Go's within 0.02 px (${n} leaves)`, async () => {
      const s = byLeaves(n);
      const { root, problems, close } = await open(s);
      // Paths keyed by colour and load step ("" without frames).
      const goPaths = new Map([...s.sample.svg.matchAll(/<path class="ss-bundle" stroke="([^"]+)"([^>]*?) d="([^"]+)"/g)].map((m) => {
        const step = (m[2].match(/data-step="(\d+)"/) || [])[1] || '';
        const width = (m[2].match(/stroke-width="([\d.]+)"/) || [])[1] || '';
        return [m[1] + '|' + step, { d: m[3], width }];
      }));
      const live = await root.locator('svg.ss-plot path.ss-bundle').evaluateAll((ps) => ps.map((p) => [p.getAttribute('stroke') + '|' + (p.getAttribute('data-step') || ''), p.getAttribute('d'), p.getAttribute('stroke-width') || '']));
      assert.deepEqual(live.map((x) => x[0]), [...goPaths.keys()], 'colours and steps in Go\'s drawing order');
      for (const [c, d, width] of live) {
        assert.equal(Number(width), Number(goPaths.get(c).width), `stroke width of ${c}`);
        const a = nums(d);
        const b = nums(goPaths.get(c).d);
        assert.equal(a.length, b.length, `numbers in the ${c} path`);
        for (let i = 0; i < a.length; i++) assert.ok(Math.abs(a[i] - b[i]) <= 0.02 + 1e-9, `${c} path number ${i}: live ${a[i]}, Go ${b[i]}`);
        assert.ok(d.startsWith('M') && d.includes('Q'));
      }
      const goMarks = (s.sample.svg.match(/<g class="ss-marks"[^>]*>(.*?)<\/g>/s)[1].match(/<(circle|path)/g) || []).length;
      assert.equal(await num(root, 'marks'), goMarks);
      assert.deepEqual(problems, []);
      await close();
    });
  }

  test('idle: idle links thin and faint, busy ones wider, one scale across rings, a toggle hides them', async () => {
    const byName = (name) => samples.find((x) => x.sample.name === name);
    const heavy = byName('idle-heavy');
    const light = byName('idle-light');
    assert.ok(heavy && light, 'the idle samples');
    const strokes = (root) => root.locator('svg.ss-plot path.ss-bundle').evaluateAll((ps) => ps.map((p) => {
      const g = p.parentNode;
      const num = (a) => Number(p.getAttribute(a) ?? g.getAttribute(a));
      return { color: p.getAttribute('stroke'), step: Number(p.getAttribute('data-step')), width: num('stroke-width'), opacity: num('stroke-opacity'), curves: (p.getAttribute('d').match(/M/g) || []).length };
    }));
    const widest = {};
    for (const s of [heavy, light]) {
      const { root, problems, spec, close } = await open(s);
      const aColor = spec.groups[0].color;
      const ps = await strokes(root);
      const idle = ps.filter((p) => p.color === aColor);
      const busy = ps.filter((p) => p.color !== aColor);
      assert.equal(idle.reduce((a, p) => a + p.curves, 0), s.sample.idle, 'every link of dimension a is drawn');
      assert.ok(idle.every((p) => p.step === 0), 'dimension a is idle');
      const thinnest = Math.min(...busy.map((p) => p.width));
      const faintest = Math.min(...busy.map((p) => p.opacity));
      for (const p of idle) {
        assert.ok(p.width < thinnest && p.opacity < faintest, `idle link ${p.width} px at ${p.opacity}; thinnest busy ${thinnest} px at ${faintest}`);
      }
      // Busier links are wider: the steps' widths rise with the step.
      const byStep = [...new Set(busy.map((p) => p.step))].sort((a, b) => a - b).map((st) => busy.find((p) => p.step === st).width);
      assert.ok(byStep.length >= 2 && byStep.every((w, i) => i === 0 || w > byStep[i - 1]), `widths by step ${byStep}`);
      widest[s.sample.name] = Math.max(...busy.map((p) => p.width));
      assert.equal(spec.markMax.sum, s.sample.scaleMax, 'the shared scale');
      assert.equal(await num(root, 'idle'), s.sample.idle);
      const legend = await root.locator('.ss-legend').textContent();
      assert.ok(legend.includes(`link width: packets (sum of both directions), scale 0–${s.sample.scaleMax.toLocaleString('en-US')}`), legend);
      assert.ok(legend.includes(`idle (0 packets): ${s.sample.idle} links, thin and faint`), legend);
      // Hide them: no idle path, the busy ones unchanged, the filters
      // (visible, totals) unchanged; show them again.
      await root.locator('input.ss-hide-idle').check();
      assert.equal(await attr(root, 'idle-hidden'), '1');
      const hidden = await strokes(root);
      assert.deepEqual(hidden, busy);
      assert.equal(await num(root, 'visible'), s.sample.links);
      assert.ok((await root.locator('.ss-legend').textContent()).includes(`${s.sample.idle} links, hidden`));
      await root.locator('input.ss-hide-idle').uncheck();
      assert.deepEqual(await strokes(root), ps);
      assert.deepEqual(problems, []);
      await close();
    }
    assert.ok(widest['idle-light'] < widest['idle-heavy'], `one scale: light ${widest['idle-light']} px, heavy ${widest['idle-heavy']} px`);
  });

  test('hover: a leaf keeps exactly its links and its track cells', async () => {
    const s = byLeaves(128);
    const { page, root, problems, spec, close } = await open(s);
    for (const i of [0, 37, 127]) {
      const t = spec.tracks[1];
      const [x, y] = await toPage(root, spec, ...polarPt(spec, (t.r0 + t.r1) / 2, leafAngle(spec, i)));
      await page.mouse.move(x, y);
      assert.equal(await num(root, 'hover'), i);
      assert.equal(await num(root, 'visible'), s.sample.linksPerLeaf[i], `links of leaf ${i}`);
      const cells = await root.locator('.ss-focus .ss-cell').evaluateAll((cs) => cs.map((c) => [c.getAttribute('data-track'), c.getAttribute('data-leaf')]));
      assert.deepEqual(cells, spec.tracks.map((_, t) => [String(t), String(i)]));
      const tip = root.locator('.superstep-tip');
      assert.ok(await tip.isVisible());
      const text = await tip.textContent();
      assert.ok(text.startsWith(spec.labels[i] + '\n'), text);
      assert.match(text, new RegExp(`block \\d+ of ${spec.levels[spec.level].m}\n`));
      assert.match(text, new RegExp(`${s.sample.linksPerLeaf[i]} links`));
    }
    await page.mouse.move(2, 2);
    assert.equal(await num(root, 'hover'), -1);
    assert.equal(await num(root, 'visible'), s.sample.links);
    assert.deepEqual(problems, []);
    await close();
  });

  test('bundle: a click keeps one block pair; a shift-brush adds one; clear restores', async () => {
    const s = byLeaves(128);
    const { page, root, problems, spec, close } = await open(s);
    // 8 blocks: far pairs exist.
    await root.locator('button.ss-level[data-level="1"]').click();
    const lv = spec.levels[1];
    assert.equal(lv.m, 8);
    const A = ints(spec.links.a, spec.links.ib);
    const B = ints(spec.links.b, spec.links.ib);
    const P = ints(lv.pair, lv.pb);
    const X = (i) => spec.cx + spec.linkR * Math.sin(leafAngle(spec, i));
    const Y = (i) => spec.cy - spec.linkR * Math.cos(leafAngle(spec, i));
    // Curve points (as the spec's formula) and each link's midpoint B(½).
    const curve = (k) => {
      const p = lv.pairs[P[k]];
      const mx = (X(A[k]) + X(B[k])) / 2;
      const my = (Y(A[k]) + Y(B[k])) / 2;
      const qx = mx + spec.beta * (p.x - mx);
      const qy = my + spec.beta * (p.y - my);
      return (t) => [(1 - t) ** 2 * X(A[k]) + 2 * t * (1 - t) * qx + t * t * X(B[k]), (1 - t) ** 2 * Y(A[k]) + 2 * t * (1 - t) * qy + t * t * Y(B[k])];
    };
    const samplesOf = [...A.keys()].map((k) => Array.from({ length: 33 }, (_, j) => curve(k)(j / 32)));
    // The far links whose midpoint is farthest from any link of another pair.
    const clearance = (k) => {
      const [x, y] = curve(k)(0.5);
      let d = Infinity;
      samplesOf.forEach((pts, j) => P[j] !== P[k] && pts.forEach(([u, v]) => (d = Math.min(d, Math.hypot(u - x, v - y)))));
      return d;
    };
    const far = [...A.keys()].filter((k) => lv.pairs[P[k]].cls === 2).map((k) => [k, clearance(k)]).sort((a, b) => b[1] - a[1]);
    const k1 = far[0][0];
    const k2 = far.find(([k]) => P[k] !== P[k1])[0];
    assert.ok(far[0][1] > 3, 'an isolated far link');
    const [x1, y1] = await toPage(root, spec, ...curve(k1)(0.5));
    await page.mouse.click(x1, y1);
    assert.equal(await attr(root, 'pairs'), String(P[k1]));
    assert.equal(await num(root, 'visible'), lv.pairs[P[k1]].links);
    // Shift-brush a small box around the second link's midpoint.
    const [mx, my] = curve(k2)(0.5);
    const [bx0, by0] = await toPage(root, spec, mx - 1.5, my - 1.5);
    const [bx1, by1] = await toPage(root, spec, mx + 1.5, my + 1.5);
    await page.keyboard.down('Shift');
    await page.mouse.move(bx0 - 4, by0 - 4);
    await page.mouse.down();
    await page.mouse.move(bx1 + 4, by1 + 4, { steps: 5 });
    await page.mouse.up();
    await page.keyboard.up('Shift');
    const pairs = (await attr(root, 'pairs')).split(',').map(Number);
    assert.ok(pairs.includes(P[k1]) && pairs.includes(P[k2]), `pairs ${pairs}`);
    assert.equal(await num(root, 'visible'), pairs.reduce((a, p) => a + lv.pairs[p].links, 0));
    await root.locator('button.ss-clear').click();
    assert.equal(await attr(root, 'pairs'), '');
    assert.equal(await num(root, 'visible'), s.sample.links);
    assert.deepEqual(problems, []);
    await close();
  });

  test('values: Dim2 = 3 leaves the links touching it (or within it)', async () => {
    const s = byLeaves(128);
    const { page, root, problems, spec, close } = await open(s);
    const want = s.sample.dimValue;
    const t = spec.tracks[want.track];
    const V = ints(t.v, t.vb);
    const i = V.findIndex((v) => v + t.min === want.value);
    const [x, y] = await toPage(root, spec, ...polarPt(spec, (t.r0 + t.r1) / 2, leafAngle(spec, i)));
    await page.mouse.click(x, y);
    await page.mouse.move(2, 2);
    assert.equal(await attr(root, 'dims'), `${want.track}:${want.value}`);
    assert.equal(await attr(root, 'match'), 'touching');
    assert.equal(await num(root, 'visible'), want.touching);
    await root.locator('input.ss-within').check();
    assert.equal(await attr(root, 'match'), 'within');
    assert.equal(await num(root, 'visible'), want.within);
    await root.locator('input.ss-within').uncheck();
    assert.equal(await num(root, 'visible'), want.touching);
    // The totals strip follows the filter: its links add up.
    const totals = JSON.parse(await attr(root, 'totals'));
    assert.equal(totals.reduce((a, r) => a + r[0], 0), want.touching);
    await page.mouse.click(x, y);
    await page.mouse.move(2, 2);
    assert.equal(await attr(root, 'dims'), '');
    assert.equal(await num(root, 'visible'), s.sample.links);
    assert.deepEqual(problems, []);
    await close();
  });

  test('levels: 4 → 8 → 16 blocks give Go\'s bundle counts', async () => {
    const s = byLeaves(128);
    const { root, problems, close } = await open(s);
    assert.equal(await num(root, 'level'), s.sample.level);
    const seen = [];
    for (let l = 0; l < s.sample.levels.length; l++) {
      await root.locator(`button.ss-level[data-level="${l}"]`).click();
      assert.equal(await num(root, 'blocks'), s.sample.levels[l].blocks);
      assert.equal(await num(root, 'bundles'), s.sample.levels[l].bundles);
      assert.equal(await root.locator('.ss-blocks path').count(), s.sample.levels[l].blocks);
      assert.equal(await num(root, 'visible'), s.sample.links);
      seen.push(s.sample.levels[l].blocks);
    }
    assert.deepEqual(seen, [4, 8, 16]);
    assert.deepEqual(problems, []);
    await close();
  });

  test('zoom: a rectangle sets data-view, a double click resets it', async () => {
    const s = byLeaves(512);
    const { page, root, problems, spec, close } = await open(s);
    const full = await attr(root, 'view');
    assert.equal(full, `0 ${2 * spec.cy - spec.legendTop} ${spec.w} ${spec.legendTop - (2 * spec.cy - spec.legendTop)}`);
    await root.locator('button.ss-tool[data-tool="zoom"]').click();
    const [x0, y0] = await toPage(root, spec, 200, 200);
    const [x1, y1] = await toPage(root, spec, 320, 300);
    await page.mouse.move(x0, y0);
    await page.mouse.down();
    await page.mouse.move(x1, y1, { steps: 5 });
    await page.mouse.up();
    const v = (await attr(root, 'view')).split(' ').map(Number);
    assert.ok(v[2] < 200 && v[2] >= 119 && v[0] <= 200 && v[0] + v[2] >= 320 && v[1] <= 200 && v[1] + v[3] >= 300, `view ${v}`);
    assert.equal(await root.locator('svg.ss-plot').getAttribute('viewBox'), v.join(' '));
    await page.mouse.dblclick(x0, y0);
    assert.equal(await attr(root, 'view'), full);
    assert.deepEqual(problems, []);
    await close();
  });

  test('frames: the region slider sets the totals to Go\'s', async () => {
    const s = byLeaves(128);
    const { page, root, problems, close } = await open(s);
    const want = (f) => s.sample.totals[f].map((t) => [t.links, t.forward, t.backward, t.idle]);
    assert.deepEqual(JSON.parse(await attr(root, 'totals')), want(0));
    for (const f of [2, 1, 0]) {
      await root.locator('input.ss-frame').evaluate((el, v) => {
        el.value = String(v);
        el.dispatchEvent(new Event('input', { bubbles: true }));
      }, f);
      assert.equal(await num(root, 'frame'), f);
      assert.deepEqual(JSON.parse(await attr(root, 'totals')), want(f));
      assert.match(await root.locator('.ss-head').textContent(), new RegExp(`region ${f + 1} \\(${f + 1} of 3\\)`));
    }
    assert.notDeepEqual(want(0), want(1));
    void page;
    assert.deepEqual(problems, []);
    await close();
  });

  test('canvas: above the SVG limit the links go to a canvas; filters redraw it, clearing restores it exactly', async () => {
    const s = byLeaves(4096);
    const { page, root, problems, spec, close } = await open(s);
    assert.ok(spec.canvas, 'the spec asks for a canvas');
    assert.equal(await root.locator('canvas.ss-canvas').count(), 2, 'a canvas for the tracks and one for the links');
    assert.equal(await root.locator('svg.ss-plot path.ss-bundle').count(), 0, 'no SVG link paths');
    // The links canvas's pixels: how many are inked, and a checksum.
    const pixels = () => root.locator('canvas.ss-canvas').nth(1).evaluate((c) => {
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let inked = 0;
      let sum = 0;
      for (let i = 0; i < d.length; i += 4) {
        if (d[i + 3]) inked++;
        sum = (sum * 31 + d[i] + 7 * d[i + 1] + 13 * d[i + 2] + 17 * d[i + 3]) % 1000000007;
      }
      return { inked, sum };
    });
    const full = await pixels();
    assert.ok(full.inked > 10000, `${full.inked} inked pixels with every link drawn`);
    assert.equal(await num(root, 'visible'), s.sample.links);
    // Hover: the leaf's links only, far fewer pixels; leaving gives back
    // the very same picture.
    const i = 1000;
    const t = spec.tracks[0];
    const [x, y] = await toPage(root, spec, ...polarPt(spec, (t.r0 + t.r1) / 2, leafAngle(spec, i)));
    await page.mouse.move(x, y);
    assert.equal(await num(root, 'hover'), i);
    assert.equal(await num(root, 'visible'), s.sample.linksPerLeaf[i]);
    const one = await pixels();
    assert.ok(one.inked > 0 && one.inked < full.inked / 20, `hover: ${one.inked} inked pixels (all links: ${full.inked})`);
    await page.mouse.move(2, 2);
    assert.equal(await num(root, 'visible'), s.sample.links);
    assert.deepEqual(await pixels(), full, 'the full picture after the hover');
    // Another frame: Go's totals and another picture; back to the first
    // frame: the first picture again.
    const setFrame = (f) => root.locator('input.ss-frame').evaluate((el, v) => {
      el.value = String(v);
      el.dispatchEvent(new Event('input', { bubbles: true }));
    }, f);
    await setFrame(1);
    assert.deepEqual(JSON.parse(await attr(root, 'totals')), s.sample.totals[1].map((g) => [g.links, g.forward, g.backward, g.idle]));
    assert.notDeepEqual(await pixels(), full, 'frame 2 draws other marks');
    await setFrame(0);
    assert.deepEqual(await pixels(), full, 'frame 1 again');
    assert.deepEqual(problems, []);
    await close();
  });

  test('modes: sum, +, −, avg switch the marks', async () => {
    const s = byLeaves(128);
    const { root, problems, spec, close } = await open(s);
    const f = spec.frames[spec.selected];
    const fw = weights(f.fwd, spec.wb);
    const bw = weights(f.bwd, spec.wb);
    const count = (m) => fw.filter((x, k) => (m === 'plus' ? x : m === 'minus' ? bw[k] : x + bw[k]) > 0).length;
    const words = { sum: 'sum of both directions', plus: '+ direction only', minus: '− direction only', avg: 'average of both directions' };
    for (const m of ['plus', 'minus', 'avg', 'sum']) {
      await root.locator(`button.ss-mode[data-mode="${m}"]`).click();
      assert.equal(await attr(root, 'mode'), m);
      assert.equal(await num(root, 'marks'), count(m), `marks in mode ${m}`);
      assert.ok((await root.locator('.ss-head').textContent()).endsWith('mode: ' + words[m]));
      const totals = JSON.parse(await attr(root, 'totals'));
      assert.deepEqual(totals, s.sample.totals[spec.selected].map((t) => [t.links, t.forward, t.backward, t.idle]));
    }
    assert.notEqual(count('plus'), count('minus'));
    assert.deepEqual(problems, []);
    await close();
  });
});
