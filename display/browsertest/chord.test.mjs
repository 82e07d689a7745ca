// Browser tests of the chord diagrams' common scale and of CompareChords
// (display/views/chord.go, display/views/chord_compare.go, runtime/src/chord.js), in
// headless Chromium with scripts on.
//
// They read chord-samples.ipynb, written by `go run ./sdk/internal/samples`
// into a temporary directory (or found in $SUPERSTEP_SAMPLES), whose cells'
// metadata "superstep_sample" say what to expect:
//
//   chord-scale    moving the slider, the part of the circle a frame's
//                  ribbons cover (measured by hit-testing the drawn ribbons
//                  just inside the arcs, all round the circle) is
//                  proportional to the frame's volume over the busiest
//                  frame's;
//   chord-compare  the diagrams sit side by side in one row, one slider
//                  moves all of them (every frame label changes), and their
//                  ribbons cover the circle on one scale across the jobs.
//
// On chord-scale too: the volume bar under each frame's header is as long
// as the frame's total (self included) against the busiest frame's, its
// dark part the traffic within units; the header prints that share ("self
// 34%"); every unit with self traffic shows a dark self band whose hover
// text gives the exact number.
//
// Run: npm ci && node --test chord.test.mjs (Chromium: $SUPERSTEP_CHROMIUM,
// default /usr/bin/chromium).

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { outputPages, samples as samplesOf, specOf } from './page.mjs';

// Not a timed assertion: only how long to wait for a transition's end.
const DONE_TIMEOUT = 5000;
// Ribbon coverage is sampled at this many angles.
const SAMPLES_PER_TURN = 1440;

const samples = samplesOf('chord-samples.ipynb');
const sampleOf = (kind) => {
  const s = samples.find((x) => x.sample.kind === kind);
  assert.ok(s, `no ${kind} sample in chord-samples.ipynb`);
  return s;
};

/** The ribbon paths of a sample's SVG (its static PNG is drawn from it), by data-key. */
function staticRibbons(sample) {
  assert.ok(sample.svg, 'the sample carries no SVG');
  return new Map([...sample.svg.matchAll(/<path data-key="([^"]+)" d="([^"]+)"/g)].map((x) => [x[1], x[2]]));
}

/** The numbers in an SVG path. */
const pathNumbers = (d) => (d.match(/-?\d+(\.\d+)?(e-?\d+)?/g) || []).map(Number);

function assertSamePath(a, b, what) {
  const x = pathNumbers(a);
  const y = pathNumbers(b);
  assert.equal(x.length, y.length, `${what}: paths differ in shape:\n  ${a}\n  ${b}`);
  x.forEach((v, i) => assert.ok(Math.abs(v - y[i]) <= 0.02, `${what}: paths differ at number ${i}:\n  ${a}\n  ${b}`));
}

const show = outputPages({ viewport: { width: 1000, height: 800 }, title: 'chord', assertLive: true });

/** Renders html live; fails on script errors or a display that is not live. */
async function renderLive(html) {
  const live = await show(html);
  assert.deepEqual(live.problems, [], 'script errors');
  return live;
}

/** Moves a range input to v as a user would (an input event). */
async function slide(input, v) {
  await input.evaluate((el, value) => {
    el.value = String(value);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, v);
}

/** Waits until the display shows frame f with no transition running. */
async function settled(page, root, f) {
  const handle = await root.elementHandle();
  await page.waitForFunction(
    ([el, frame]) => el.getAttribute('data-frame') === String(frame) && !el.hasAttribute('data-busy'),
    [handle, f],
    { timeout: DONE_TIMEOUT },
  );
}

/**
 * The share of the circle that ribbons cover in chart k of the display (its
 * k-th svg.ss-chord): the fraction of SAMPLES_PER_TURN points, 3 px inside
 * the arcs' inner radius, where the element drawn on top is a ribbon.
 */
async function ribbonCover(root, dims, k = 0) {
  return root.evaluate(
    (el, [D, k, n]) => {
      const svg = el.querySelectorAll('svg.ss-chord')[k];
      const box = svg.getBoundingClientRect();
      const s = box.width / D.width;
      const r = D.r0 - 3;
      let hit = 0;
      for (let i = 0; i < n; i++) {
        const a = ((i + 0.5) / n) * 2 * Math.PI;
        const x = box.left + s * (D.cx + r * Math.sin(a));
        const y = box.top + s * (D.cy - r * Math.cos(a));
        const under = document.elementFromPoint(x, y);
        if (under && under.classList.contains('ss-ribbon') && svg.contains(under)) hit++;
      }
      return hit / n;
    },
    [dims, k, SAMPLES_PER_TURN],
  );
}

test('chord: each frame covers the circle in proportion to its volume, on the busiest frame\'s scale', async () => {
  const { sample, html } = sampleOf('chord-scale');
  const sp = specOf(html);
  const { page, root, close } = await renderLive(html);
  try {
    // The live ribbons (d3-chord's) are the static picture's (Go's).
    const stat = staticRibbons(sample);
    const live = await root.locator('.ss-ribbon').evaluateAll((els) => els.map((e) => [e.getAttribute('data-key'), e.getAttribute('d')]));
    assert.equal(live.length, stat.size, 'as many ribbons live as in the static picture');
    for (const [key, d] of live) assertSamePath(stat.get(key) || '', d, `ribbon ${key}, static vs live`);

    const vols = sample.volumes;
    const busiest = vols.indexOf(Math.max(...vols));
    const input = root.locator('input.ss-frame');
    const cover = async (f) => {
      await slide(input, f);
      await settled(page, root, f);
      return ribbonCover(root, sp.dims);
    };
    const full = await cover(busiest);
    // The busiest frame fills the circle but for the gaps between units.
    assert.ok(full > 0.75 && full <= 1, `the busiest frame covers ${full.toFixed(3)} of the circle`);
    const seen = [];
    for (const f of sample.frames) {
      const c = await cover(f);
      const want = vols[f] / vols[busiest];
      seen.push(`frame ${f}: cover ${(c / full).toFixed(3)} of the busiest, volume ${want.toFixed(3)}`);
      assert.ok(Math.abs(c / full - want) < 0.04, `not on one scale:\n  ${seen.join('\n  ')}`);
      // The printed total changes with the frame.
      const total = await root.locator('svg.ss-chord .ss-total').textContent();
      assert.equal(total, sp.frames[f].total, `frame ${f}: total`);
    }
    // The lightest and the busiest really differ (a light frame looks light).
    const lightest = vols.indexOf(Math.min(...vols));
    assert.ok((await cover(lightest)) < 0.4 * full, 'the lightest frame covers as much as the busiest');
  } finally {
    await close();
  }
});

test('chord: the volume bar and the self bands show every frame\'s total and its traffic within units', async () => {
  const { sample, html } = sampleOf('chord-scale');
  const sp = specOf(html);
  const { page, root, close } = await renderLive(html);
  try {
    // Each frame's total and self traffic, from the per-unit totals.
    const sums = sp.frames.map((fr) => {
      let all = 0;
      let self = 0;
      for (const [, out, s] of fr.totals) {
        all += out + s;
        self += s;
      }
      return { all, self };
    });
    const busiest = Math.max(...sums.map((x) => x.all));
    const input = root.locator('input.ss-frame');
    const width = async (sel) => (await root.locator(`svg.ss-chord ${sel}`).boundingBox()).width;
    for (const f of sample.frames) {
      await slide(input, f);
      await settled(page, root, f);
      const { all, self } = sums[f];
      const track = await width('.ss-volume-track');
      const between = await width('.ss-volume-between');
      const dark = await width('.ss-volume-self');
      assert.ok(Math.abs((between + dark) / track - all / busiest) < 0.01, `frame ${f}: bar ${((between + dark) / track).toFixed(3)} of the track, total ${(all / busiest).toFixed(3)} of the busiest`);
      assert.ok(Math.abs(dark / (between + dark) - self / all) < 0.01, `frame ${f}: dark part ${(dark / (between + dark)).toFixed(3)}, self share ${(self / all).toFixed(3)}`);
      const head = await root.locator('svg.ss-chord .ss-total').textContent();
      assert.ok(head.includes(`self ${Math.round((100 * self) / all)}%`), `frame ${f}: header ${head}`);
      assert.ok((await root.locator('svg.ss-chord .ss-volume').getAttribute('data-tip')).includes(`within units ${self.toLocaleString('en-US')}`), `frame ${f}: bar tip`);
      // A visible self band per unit with self traffic, its tip exact.
      const bands = await root.locator('svg.ss-chord path.ss-self').evaluateAll((els) =>
        els.map((e) => ({ tip: e.getAttribute('data-tip'), shown: getComputedStyle(e).display !== 'none' && e.getBBox().width > 0 })));
      sp.frames[f].totals.forEach(([, , s], u) => {
        if (s > 0) {
          assert.ok(bands[u].shown, `frame ${f}: unit ${u}'s self band is not drawn`);
          assert.ok(bands[u].tip.includes(`within itself: ${s.toLocaleString('en-US')}`), `frame ${f}: unit ${u}'s self tip ${bands[u].tip}`);
        } else {
          assert.ok(!bands[u].shown, `frame ${f}: unit ${u} has no self traffic but a band`);
        }
      });
    }
  } finally {
    await close();
  }
});

test('CompareChords: side by side, one slider moves every diagram, one scale', async () => {
  const { sample, html } = sampleOf('chord-compare');
  const sp = specOf(html);
  const { page, root, close } = await renderLive(html);
  try {
    const svgs = await root.locator('svg.ss-chord').all();
    assert.equal(svgs.length, sample.captions.length, 'one live chord per job');
    const boxes = await Promise.all(svgs.map((s) => s.boundingBox()));
    for (let i = 1; i < boxes.length; i++) {
      assert.ok(Math.abs(boxes[i].y - boxes[0].y) < 1, `chord ${i} is not on the first one's row: ${JSON.stringify(boxes)}`);
      assert.ok(boxes[i].x >= boxes[i - 1].x + boxes[i - 1].width, `chord ${i} overlaps the one before: ${JSON.stringify(boxes)}`);
    }
    const inputs = root.locator('input.ss-frame');
    assert.equal(await inputs.count(), 1, 'exactly one slider');
    const heads = async () => root.locator('svg.ss-chord .ss-head').allTextContents();
    const before = await heads();
    assert.deepEqual(before, sample.labels.map((l) => 'frame ' + l[sp.selected]), 'the first frame shown');

    await slide(inputs.first(), sample.slideTo);
    await settled(page, root, sample.slideTo);
    const afterSlide = await heads();
    afterSlide.forEach((h, i) => {
      assert.notEqual(h, before[i], `chord ${i} did not follow the slider`);
      assert.equal(h, 'frame ' + sample.labels[i][sample.slideTo], `chord ${i}'s frame label`);
    });

    // One scale: each diagram covers the circle as its volume is of the
    // busiest frame over all the jobs.
    const max = Math.max(...sample.volumes.flat());
    const f = sample.slideTo;
    const full = (await ribbonCover(root, sp.items[0].dims, 0)) / (sample.volumes[0][f] / max);
    for (let i = 1; i < svgs.length; i++) {
      const c = await ribbonCover(root, sp.items[i].dims, i);
      const want = sample.volumes[i][f] / max;
      assert.ok(Math.abs(c / full - want) < 0.04, `chord ${i} covers ${(c / full).toFixed(3)} of the scale, volume ${want.toFixed(3)}`);
    }
  } finally {
    await close();
  }
});
