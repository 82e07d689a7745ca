// Timings of the live ring graph in headless Chromium (issue 13's browser
// targets), printed, never asserted: the machine is shared. The sample is
// a 4×12×16×16×2 torus in Hilbert order (24,576 leaves, 122,880 links with
// counters in two regions, 16 blocks of 8/16/32), drawn on canvases; it is
// written by `SUPERSTEP_RINGGRAPH_BENCH=1 go run ./sdk/internal/samples
// DIR` (or found in $SUPERSTEP_SAMPLES if its ringgraph-samples.ipynb holds
// it). Each action is timed in the page from its first input event to the
// second animation frame after it (handlers ran and a frame was painted):
//
//   live    setting the page until the view is live and painted, with
//           every channel drawn (target ≤ 1.5 s; the runtime's own share
//           is data-live-ms);
//   hover   moving onto a leaf's track cell: only its links (≤ 50 ms);
//   value   a click on a track value (dimension filter, ≤ 300 ms);
//   bundle  a click on a bundle (group filter, ≤ 300 ms);
//   level   the 32-block level button (≤ 1 s);
//   zoom    a rectangle drag with the zoom tool (≤ 1 s).
//
// Run: node ringgraph-bench.mjs

import assert from 'node:assert/strict';

import { launchChromium } from './chromium.mjs';
import { givenSamplesDir, readSamples, showOutput, specOf, writeSamples } from './page.mjs';

const ROUNDS = 3;
const NAME = 'ringgraph-samples.ipynb';

function benchSample() {
  const read = (dir) => readSamples(dir, NAME).find((s) => s.sample.name === 'bench');
  const given = givenSamplesDir(NAME);
  const s = given && read(given);
  if (s) return s;
  const t0 = Date.now();
  const dir = writeSamples([], { SUPERSTEP_RINGGRAPH_BENCH: '1' });
  console.log(`samples written in ${((Date.now() - t0) / 1000).toFixed(1)} s (${dir})`);
  const written = read(dir);
  assert.ok(written, 'no bench sample');
  return written;
}

const s = benchSample();
const spec = specOf(s.html);
console.log(`${spec.n.toLocaleString('en-US')} leaves, ${spec.links.count.toLocaleString('en-US')} links, canvas ${spec.canvas}, HTML ${(s.html.length / 1e6).toFixed(1)} MB`);
const browser = await launchChromium();
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const times = { live: [], liveRuntime: [], hover: [], value: [], bundle: [], clear: [], level: [], zoom: [] };
let problems = [];
for (let r = 0; r < ROUNDS; r++) {
  const live = await showOutput(browser, s.html, { viewport: { width: 1100, height: 1100 }, title: 'ring graph bench', timeout: 60000 });
  const { page, t0 } = live;
  problems = live.problems;
  await page.waitForSelector('.superstep-display[data-live="1"]', { timeout: 60000 });
  await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
  times.live.push(Date.now() - t0);
  await page.evaluate(() => {
    for (const type of ['pointermove', 'pointerdown', 'mousedown', 'click']) window.addEventListener(type, () => window.__t0 == null && (window.__t0 = performance.now()), true);
  });
  const { root } = live;
  times.liveRuntime.push(Number(await root.getAttribute('data-live-ms')));
  assert.equal(Number(await root.getAttribute('data-visible')), spec.links.count);
  const svg = root.locator('svg.ss-plot');
  await svg.scrollIntoViewIfNeeded();
  const at = async (x, y) => {
    const box = await svg.boundingBox();
    const vb = (await svg.getAttribute('viewBox')).split(' ').map(Number);
    const k = box.width / vb[2];
    return [box.x + k * (x - vb[0]), box.y + k * (y - vb[1])];
  };
  const timed = async (key, act) => {
    await page.evaluate(() => (window.__t0 = null));
    await act();
    times[key].push(await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(() => ok(performance.now() - window.__t0))))));
  };
  const polar = (rad, i) => {
    const th = (2 * Math.PI * (i + 0.5)) / spec.n;
    return at(spec.cx + rad * Math.sin(th), spec.cy - rad * Math.cos(th));
  };
  const t2 = spec.tracks[2];
  const [hx, hy] = await polar((t2.r0 + t2.r1) / 2, 1000 + r);
  await page.mouse.move(2, 2);
  await timed('hover', () => page.mouse.move(hx, hy));
  assert.ok(Number(await root.getAttribute('data-visible')) <= 10);
  await page.mouse.move(2, 2);
  await timed('value', () => page.mouse.click(hx, hy));
  await page.mouse.move(2, 2);
  await root.locator('button.ss-clear').click();
  // The midpoint B(½) of the first far link (the spec's formulas).
  const b64 = (x, w) => { const b = Buffer.from(x, 'base64'); return (i) => (w === 1 ? b[i] : w === 2 ? b.readUInt16LE(2 * i) : b.readUInt32LE(4 * i)); };
  const lv = spec.levels[spec.level];
  const [la, lb, lp] = [b64(spec.links.a, spec.links.ib), b64(spec.links.b, spec.links.ib), b64(lv.pair, lv.pb)];
  let k = 0;
  while (lv.pairs[lp(k)].cls !== 2) k++;
  const pos = (i) => { const th = (2 * Math.PI * (i + 0.5)) / spec.n; return [spec.cx + spec.linkR * Math.sin(th), spec.cy - spec.linkR * Math.cos(th)]; };
  const [pa, pb, pc] = [pos(la(k)), pos(lb(k)), lv.pairs[lp(k)]];
  const q = [0, 1].map((j) => { const m = (pa[j] + pb[j]) / 2; return m + spec.beta * ((j ? pc.y : pc.x) - m); });
  const [bx, by] = await at(...[0, 1].map((j) => (pa[j] + pb[j]) / 4 + q[j] / 2));
  await timed('bundle', () => page.mouse.click(bx, by));
  if (r === 0) console.log(`bundle click: pair ${await root.getAttribute('data-pairs')}, ${await root.getAttribute('data-visible')} links`);
  await timed('clear', () => root.locator('button.ss-clear').click());
  assert.equal(Number(await root.getAttribute('data-visible')), spec.links.count);
  await timed('level', () => root.locator('button.ss-level[data-level="2"]').click());
  await root.locator('button.ss-tool[data-tool="zoom"]').click();
  const [zx0, zy0] = await at(250, 250);
  const [zx1, zy1] = await at(390, 380);
  await timed('zoom', async () => {
    await page.mouse.move(zx0, zy0);
    await page.mouse.down();
    await page.mouse.move(zx1, zy1, { steps: 3 });
    await page.mouse.up();
  });
  assert.notEqual(await root.getAttribute('data-view'), `0 40 640 600`);
  await live.close();
}
await browser.close();
const f = (xs) => `${median(xs).toFixed(0)} ms`;
console.log(`live ${f(times.live)} (runtime ${f(times.liveRuntime)}) · hover ${f(times.hover)} · value filter ${f(times.value)} · bundle filter ${f(times.bundle)} · clear filters (all links back) ${f(times.clear)} · level switch ${f(times.level)} · zoom ${f(times.zoom)}`);
console.log(`(medians of ${ROUNDS}; targets: live ≤ 1500, hover ≤ 50, filters ≤ 300, level/zoom ≤ 1000)`);
if (problems.length) console.log('problems:', problems);
