// Browser tests of the Superstep display contract (DESIGN.md, Principles 3).
//
// Every text/html output of the executed notebooks in $SUPERSTEP_NB_OUT
// (default /tmp/nbout) is checked twice:
//
//   live       as a trusted notebook shows it: scripts run in headless
//              Chromium; every .superstep-display turns live (data-live="1",
//              an inline <svg> or <canvas>, no <img>) and hovering an
//              element with data-tip shows a visible .superstep-tip with
//              that text. A notebook holds the runtime once (in its first
//              live display); an output checked alone gets it after its own
//              HTML, so the queue of displays shown before the runtime
//              loaded is exercised too.
//   sanitized  as an untrusted notebook shows it: JupyterLab's own Sanitizer
//              (@jupyterlab/apputils) leaves no <script>, keeps every
//              display's static <img> with its PNG data URL, and that
//              picture decodes into a real image in Chromium.
//
// The display samples (display-samples.ipynb, written by
// `go run ./sdk/internal/samples`, generated into a temporary directory
// unless $SUPERSTEP_SAMPLES names a directory that holds them, or is "off")
// get both checks too, and then the interaction checks of their views:
// trend hover and pages, chord slider and ribbon hover, treemap filtering,
// the dashboard's linked filter, slider and level switch, and the graph
// drawings' hover, wheel zoom and drag pan. The samples carry each view's
// SVG (what views.Save writes and the PNG is drawn from) in their cell
// metadata, for the checks of Go's geometry.
//
// With $SUPERSTEP_SCREENSHOT set, a PNG of the tour notebook's live bar chart
// (hovered, tooltip showing) is written there; with
// $SUPERSTEP_DASHBOARD_SCREENSHOT, one of the live sample dashboard; with
// $SUPERSTEP_DRAWING_SCREENSHOT, one of the large sample drawing.
//
// Run: npm ci && SUPERSTEP_NB_OUT=/tmp/nbout node --test

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import { wrap } from './chromium.mjs';
import { collectOutputs, htmlOf, outputPages, sanitize, writeSamples } from './page.mjs';
import { JSDOM } from 'jsdom';

// One directory, or several separated by ':'.
const NB_OUT = process.env.SUPERSTEP_NB_OUT || '/tmp/nbout';
const SAMPLES = process.env.SUPERSTEP_SAMPLES || '';
const SCREENSHOT = process.env.SUPERSTEP_SCREENSHOT || '';
const DASHBOARD_SCREENSHOT = process.env.SUPERSTEP_DASHBOARD_SCREENSHOT || '';
const DRAWING_SCREENSHOT = process.env.SUPERSTEP_DRAWING_SCREENSHOT || '';
const PNG_DATA_URL = 'data:image/png;base64,';
// A static picture: a PNG (nbconvert --sanitize-html strips SVG data URLs).
const isPicture = (src) => src.startsWith(PNG_DATA_URL);
const MAX_HOVERS_PER_DISPLAY = 20;

// ---------------------------------------------------------------------------
// Collect the outputs.


/**
 * The directory holding display-samples.ipynb: $SUPERSTEP_SAMPLES, or a
 * fresh one written by the samples program ('' when turned off).
 */
function samplesDir() {
  if (SAMPLES === 'off') return '';
  if (SAMPLES) return SAMPLES;
  return writeSamples();
}

let outputs = [];
let collectError = null;
let samplesError = null;
let samples = [];
try {
  outputs = collectOutputs(NB_OUT.split(':').filter(Boolean));
} catch (e) {
  collectError = e;
}
try {
  const dir = samplesDir();
  if (dir) {
    samples = collectOutputs([dir]).filter((o) => o.notebook === 'display-samples.ipynb');
    outputs.push(...samples);
  }
} catch (e) {
  samplesError = e;
}


/** The static pictures of the displays in html, parsed with jsdom. */
function displaysOf(html) {
  const doc = new JSDOM(wrap(html)).window.document;
  return [...doc.querySelectorAll('.superstep-display, .superstep-progress')].map((el) => ({
    kind: el.classList.contains('superstep-display') ? 'display' : 'progress',
    id: el.getAttribute('id'),
    imgSrcs: [...el.querySelectorAll('img')].map((img) => img.getAttribute('src') || ''),
  }));
}

// ---------------------------------------------------------------------------
// One browser for the whole file; each page in a context of its own, live
// (scripts on) or as sanitized HTML is shown (scripts off).

const show = outputPages({ viewport: { width: 1000, height: 800 } });

/**
 * Renders out live: asserts the contract of every .superstep-display and
 * returns the page (still open) for further use, with close.
 */
async function renderLive(out) {
  const live = await show(out.html);
  const { page, problems } = live;
  const roots = await page.locator('.superstep-display').all();
  for (const [d, root] of roots.entries()) {
    const where = `${out.label}, display #${d} (id ${await root.getAttribute('id')})`;
    const state = await root.evaluate((el) => ({
      live: el.getAttribute('data-live'),
      error: el.getAttribute('data-live-error'),
      svgs: el.querySelectorAll('svg, canvas').length,
      imgs: el.querySelectorAll('img').length,
      svgBox: (() => {
        const s = el.querySelector('svg, canvas');
        if (!s) return null;
        const r = s.getBoundingClientRect();
        return { width: r.width, height: r.height };
      })(),
    }));
    assert.equal(state.error, null, `${where}: the runtime failed: ${state.error}`);
    assert.equal(state.live, '1', `${where}: not live (data-live=${JSON.stringify(state.live)}); did the script run?`);
    assert.ok(state.svgs >= 1, `${where}: live display has no inline <svg> (or <canvas>)`);
    assert.equal(state.imgs, 0, `${where}: live display still has ${state.imgs} <img>`);
    assert.ok(
      state.svgBox.width > 0 && state.svgBox.height > 0,
      `${where}: inline <svg> (or <canvas>) has an empty box ${JSON.stringify(state.svgBox)}`,
    );
    await checkHover(page, root, where);
  }
  assert.deepEqual(problems, [], `${out.label}: problems while rendering live`);
  return live;
}

/**
 * Hovers the data-tip elements of one live display (those not covered by
 * another element) and asserts the tooltip shows each one's text.
 */
async function checkHover(page, root, where) {
  const tipped = await root.locator('svg [data-tip]').all();
  if (tipped.length === 0) return;
  const tip = root.locator('.superstep-tip');
  let hovered = 0;
  for (const [t, el] of tipped.entries()) {
    if (hovered >= MAX_HOVERS_PER_DISPLAY) break;
    await el.scrollIntoViewIfNeeded();
    const box = await el.boundingBox();
    if (!box || box.width < 1 || box.height < 1) continue;
    // Find a point that is on the element itself (a curved ribbon's box
    // centre may lie on another ribbon) and not covered by another
    // [data-tip] element: the runtime shows the nearest [data-tip]
    // ancestor of the element under the pointer.
    const point = await el.evaluate((node) => {
      const owns = (px, py) => {
        const under = document.elementFromPoint(px, py);
        return under && under.closest('[data-tip]') === node;
      };
      const r = node.getBoundingClientRect();
      const steps = 12;
      for (let i = 1; i < steps; i++) {
        for (let j = 1; j < steps; j++) {
          const px = r.left + (r.width * i) / steps;
          const py = r.top + (r.height * j) / steps;
          if (owns(px, py)) return [px, py];
        }
      }
      return null;
    });
    if (!point) continue;
    const [x, y] = point;
    const expected = await el.getAttribute('data-tip');
    await page.mouse.move(0, 0); // leave the display, so the next move is an event
    await page.mouse.move(x, y);
    const what = `${where}, data-tip element #${t} ${JSON.stringify(expected)}`;
    assert.equal(await tip.count(), 1, `${what}: expected one .superstep-tip in the display`);
    assert.ok(await tip.isVisible(), `${what}: .superstep-tip not visible on hover`);
    const text = await tip.textContent();
    assert.ok(text.includes(expected), `${what}: tooltip shows ${JSON.stringify(text)}`);
    hovered++;
  }
  assert.ok(hovered > 0, `${where}: ${tipped.length} data-tip elements but none could be hovered`);
  await page.mouse.move(0, 0);
  assert.ok(!(await tip.isVisible()), `${where}: tooltip still visible after the pointer left`);
}

// ---------------------------------------------------------------------------
// The tests.

test(`executed notebooks in ${NB_OUT} have text/html outputs`, () => {
  assert.equal(collectError, null, `cannot read executed notebooks in ${NB_OUT}: ${collectError}`);
  assert.ok(outputs.length > samples.length, `no text/html output in any *.ipynb in ${NB_OUT}`);
});

test('display samples were written', { skip: SAMPLES === 'off' && 'SUPERSTEP_SAMPLES=off' }, () => {
  assert.equal(samplesError, null, `cannot write or read the display samples: ${samplesError}`);
  const kinds = samples.map((o) => o.sample && o.sample.kind);
  for (const k of ['trend', 'chord', 'treemap', 'dashboard', 'drawing']) {
    assert.ok(kinds.includes(k), `no ${k} output in display-samples.ipynb (found ${JSON.stringify(kinds)})`);
  }
});

for (const out of outputs) {
  describe(out.label, () => {
    const displays = displaysOf(out.html);

    test('live', async () => {
      const { close } = await renderLive(out);
      await close();
    });

    test('sanitized', async () => {
      const clean = sanitize(out.html);
      assert.ok(!/<script/i.test(clean), `${out.label}: a <script> survived the sanitizer`);
      const cleanDoc = new JSDOM(wrap(clean)).window.document;
      assert.equal(cleanDoc.querySelectorAll('script').length, 0, `${out.label}: a <script> survived the sanitizer`);
      const cleanSrcs = new Set([...cleanDoc.querySelectorAll('img')].map((i) => i.getAttribute('src') || ''));

      for (const [d, disp] of displays.entries()) {
        const where = `${out.label}, ${disp.kind} #${d}`;
        const pictures = disp.imgSrcs.filter(isPicture);
        assert.ok(pictures.length > 0, `${where}: no <img src="${PNG_DATA_URL}..."> in the original HTML`);
        for (const src of pictures) {
          assert.ok(
            cleanSrcs.has(src),
            `${where}: the sanitizer dropped or changed the static picture <img src="${src.slice(0, 60)}...">`,
          );
        }
      }

      // The sanitized HTML, shown with scripts off: every picture decodes.
      const { page, problems, close } = await show(clean, { scripts: false });
      try {
        const imgs = await page.evaluate(() =>
          [...document.images].map((img) => ({
            src: (img.getAttribute('src') || '').slice(0, 60),
            complete: img.complete,
            naturalWidth: img.naturalWidth,
            naturalHeight: img.naturalHeight,
          })),
        );
        const svgImgs = imgs.filter((i) => isPicture(i.src)).length;
        assert.ok(
          svgImgs >= displays.length,
          `${out.label}: ${displays.length} displays but ${svgImgs} PNG <img> in the sanitized page`,
        );
        for (const [i, img] of imgs.entries()) {
          assert.ok(
            img.complete && img.naturalWidth > 0 && img.naturalHeight > 0,
            `${out.label}: sanitized <img> #${i} did not decode into a picture ` +
              `(complete=${img.complete}, ${img.naturalWidth}x${img.naturalHeight}, src ${img.src}...)`,
          );
        }
        assert.deepEqual(problems, [], `${out.label}: problems while rendering sanitized`);
      } finally {
        await close();
      }
    });
  });
}

// The README's picture: the tour's bar chart, live, with a bar hovered.
test('screenshot of the tour bar chart', { skip: !SCREENSHOT && 'SUPERSTEP_SCREENSHOT not set' }, async () => {
  const tour = outputs.filter((o) => o.notebook === '00-tour.ipynb' && o.html.includes('superstep-display'));
  const chart = tour.find((o) => /alt="[^"]*bar chart/i.test(o.html)) || tour[0];
  assert.ok(chart, `no SVG display output in 00-tour.ipynb in ${NB_OUT}`);
  const { page, close } = await renderLive(chart);
  try {
    const root = page.locator('.superstep-display').first();
    const bars = await root.locator('svg [data-tip]').all();
    if (bars.length > 0) {
      // Hover the first bar, so the picture shows the tooltip too.
      const box = await bars[0].boundingBox();
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    }
    const boxes = [await root.locator('svg').first().boundingBox()];
    const tip = root.locator('.superstep-tip');
    if ((await tip.count()) === 1 && (await tip.isVisible())) boxes.push(await tip.boundingBox());
    const pad = 8;
    const x0 = Math.max(0, Math.min(...boxes.map((b) => b.x)) - pad);
    const y0 = Math.max(0, Math.min(...boxes.map((b) => b.y)) - pad);
    const x1 = Math.max(...boxes.map((b) => b.x + b.width)) + pad;
    const y1 = Math.max(...boxes.map((b) => b.y + b.height)) + pad;
    fs.mkdirSync(path.dirname(path.resolve(SCREENSHOT)), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, clip: { x: x0, y: y0, width: x1 - x0, height: y1 - y0 } });
    assert.ok(fs.statSync(SCREENSHOT).size > 0, `empty screenshot ${SCREENSHOT}`);
  } finally {
    await close();
  }
});

// ---------------------------------------------------------------------------
// Interaction checks of the display samples (display-samples.ipynb). Each
// sample cell's metadata "superstep_sample" says what to expect; the numbers
// in it were formatted by Go, so a tooltip that matches shows that Go's data
// reached the browser intact and the runtime formats numbers as Go does.

const DONE_TIMEOUT = 5000;

/** A client point where el (or a descendant) is the topmost element, or null. */
async function topPoint(el) {
  await el.scrollIntoViewIfNeeded();
  return el.evaluate((node) => {
    const r = node.getBoundingClientRect();
    const n = 24;
    for (let i = 0; i <= n; i++) {
      for (let j = 0; j <= n; j++) {
        // Centre first, then spiral out along the grid.
        const fx = 0.5 + (((i % 2) * 2 - 1) * Math.ceil(i / 2)) / n;
        const fy = 0.5 + (((j % 2) * 2 - 1) * Math.ceil(j / 2)) / n;
        const x = r.left + r.width * Math.min(0.99, Math.max(0.01, fx));
        const y = r.top + r.height * Math.min(0.99, Math.max(0.01, fy));
        const hit = document.elementFromPoint(x, y);
        if (hit && (hit === node || node.contains(hit))) return { x, y };
      }
    }
    return null;
  });
}

/** Hovers el and returns the text of the display's visible tooltip. */
async function hoverTip(page, root, el, what) {
  const p = await topPoint(el);
  assert.ok(p, `${what}: no visible point to hover`);
  await page.mouse.move(0, 0);
  await page.mouse.move(p.x, p.y);
  const tip = root.locator('.superstep-tip');
  assert.ok(await tip.isVisible(), `${what}: no tooltip on hover`);
  return tip.textContent();
}

/** Moves a range input to value v as a user would (an input event). */
async function slide(input, v) {
  return input.evaluate((el, value) => {
    el.value = String(value);
    el.dispatchEvent(new Event('input', { bubbles: true }));
    const root = el.closest('.superstep-display');
    return root.getAttribute('data-busy');
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

/** The numbers in an SVG path, to compare paths drawn by Go and by the runtime. */
function pathNumbers(d) {
  return (d.match(/-?\d+(\.\d+)?(e-?\d+)?/g) || []).map(Number);
}

function assertSamePath(a, b, what) {
  const x = pathNumbers(a);
  const y = pathNumbers(b);
  assert.equal(x.length, y.length, `${what}: paths differ in shape:\n  ${a}\n  ${b}`);
  x.forEach((v, i) => assert.ok(Math.abs(v - y[i]) <= 0.02, `${what}: paths differ at number ${i}:\n  ${a}\n  ${b}`));
}

/** A sample's SVG (what its static PNG is drawn from), parsed. */
function staticSVG(out) {
  return new JSDOM(staticSVGOf(out), { contentType: 'image/svg+xml' }).window.document;
}

const bySample = (kind) => samples.filter((o) => o.sample && o.sample.kind === kind);

/** Asserts that exactly the units in hides are hidden in the trend and chord. */
async function checkHidden(root, units, hides, what) {
  for (const u of units) {
    const hidden = hides.includes(u);
    for (const sel of [`.ss-row[data-unit-id="${u}"]`, `.ss-arc[data-unit-id="${u}"]`]) {
      const els = await root.locator(sel).all();
      assert.ok(els.length > 0, `${what}: no ${sel}`);
      for (const el of els) {
        assert.equal(await el.isVisible(), !hidden, `${what}: ${sel} should be ${hidden ? 'hidden' : 'shown'}`);
      }
    }
    const ribbons = await root.locator(`.ss-ribbon[data-src="${u}"], .ss-ribbon[data-dst="${u}"]`).all();
    assert.ok(ribbons.length > 0, `${what}: no ribbon of ${u}`);
    for (const el of ribbons) {
      const vis = await el.evaluate((n) => getComputedStyle(n).display !== 'none');
      if (hidden) assert.ok(!vis, `${what}: a ribbon of hidden ${u} (${await el.getAttribute('data-key')}) is shown`);
    }
  }
}

describe('display samples: interaction', () => {
  for (const out of bySample('trend')) {
    test(`trend: hover shows the values; pages move the time axis (${out.label})`, async () => {
      const exp = out.sample;
      const { page, close } = await renderLive(out);
      try {
        const root = page.locator('.superstep-display').first();
        const p = exp.point;
        const pt = root.locator(`.ss-row[data-panel="${p.panel}"][data-unit="${p.unit}"] .ss-pt[data-frame="${p.frame}"]`);
        assert.equal(await hoverTip(page, root, pt, 'trend point'), p.tip, 'trend point tooltip');
        const frames = async () =>
          (await root.locator('.ss-row[data-panel="0"][data-unit="0"] .ss-pt').evaluateAll((els) => els.map((e) => +e.getAttribute('data-frame'))));
        const first = await frames();
        assert.equal(first[0], 0, 'the first page starts at frame 0');
        const prev = root.locator('button.ss-prev');
        const next = root.locator('button.ss-next');
        const label = root.locator('.ss-page');
        assert.ok(await prev.isDisabled(), 'previous is disabled on the first page');
        const before = await label.textContent();
        for (let pg = 1; pg < exp.pages; pg++) await next.click();
        const last = await frames();
        assert.ok(last[0] === first.length * (exp.pages - 1), `the last page starts at frame ${last[0]}`);
        assert.notEqual(await label.textContent(), before, 'the page label changed');
        assert.ok(await next.isDisabled(), 'next is disabled on the last page');
        await prev.click();
        assert.deepEqual(await frames(), exp.pages === 2 ? first : await frames(), 'previous goes back');
      } finally {
        await close();
      }
    });
  }

  for (const out of bySample('chord')) {
    test(`chord: the slider animates ribbons to another frame; hover shows details (${out.label})`, async () => {
      const exp = out.sample;
      const { page, close } = await renderLive(out);
      try {
        const root = page.locator('.superstep-display').first();
        assert.equal(await root.getAttribute('data-frame'), String(exp.selected), 'the selected frame is shown first');
        const rib = root.locator(`.ss-ribbon[data-key="${exp.ribbon}"]`);
        const d0 = await rib.getAttribute('d');
        const box0 = await rib.boundingBox();
        // The live drawing matches the static picture, which Go drew.
        const doc = staticSVG(out);
        const staticRibbon = doc.querySelector(`[data-key="${exp.ribbon}"]`);
        assert.ok(staticRibbon, `no ribbon ${exp.ribbon} in the static picture`);
        assertSamePath(staticRibbon.getAttribute('d'), d0, `ribbon ${exp.ribbon}, static vs live`);
        assert.equal(await hoverTip(page, root, rib, `ribbon ${exp.ribbon}`), exp.tip, 'ribbon tooltip');

        const input = root.locator('input.ss-frame');
        assert.equal(await slide(input, exp.slideTo), '1', 'moving the slider starts a transition');
        await settled(page, root, exp.slideTo);
        const d1 = await rib.getAttribute('d');
        const box1 = await rib.boundingBox();
        assert.notEqual(d1, d0, 'the ribbon path did not change');
        assert.ok(
          Math.abs(box1.width - box0.width) > 1 || Math.abs(box1.height - box0.height) > 1,
          `the ribbon's box did not change: ${JSON.stringify(box0)} → ${JSON.stringify(box1)}`,
        );
        assert.equal(await hoverTip(page, root, rib, `ribbon ${exp.ribbon} after sliding`), exp.tipAfter, 'ribbon tooltip after sliding');
        // Back to the first frame: the same geometry again.
        await slide(input, exp.selected);
        await settled(page, root, exp.selected);
        assertSamePath(await rib.getAttribute('d'), d0, 'ribbon after sliding back');
      } finally {
        await close();
      }
    });
  }

  for (const out of bySample('treemap')) {
    test(`treemap: hover shows name and value; click toggles the filter (${out.label})`, async () => {
      const exp = out.sample;
      const { page, close } = await renderLive(out);
      try {
        const root = page.locator('.superstep-display').first();
        const tile = root.locator(`.ss-tile[data-id="${exp.tile}"]`);
        assert.equal(await hoverTip(page, root, tile, `tile ${exp.tile}`), exp.tip, 'tile tooltip');
        await tile.click();
        assert.equal(await tile.getAttribute('data-filtered'), '1', 'a click filters the tile');
        await tile.click();
        assert.equal(await tile.getAttribute('data-filtered'), null, 'a second click restores it');
      } finally {
        await close();
      }
    });
  }

  for (const out of bySample('dashboard')) {
    test(`dashboard: filters, slider and level switch are linked (${out.label})`, async () => {
      const exp = out.sample;
      const { page, close } = await renderLive(out);
      try {
        const root = page.locator('.superstep-display').first();
        await checkHidden(root, exp.units, [], 'before filtering');
        for (const f of exp.filters) {
          const tile = root.locator(`.ss-tile[data-id="${f.tile}"]`);
          // An internal node is clicked on its header band; a leaf anywhere.
          const target = (await tile.locator('.ss-tile-head').count()) ? tile.locator('.ss-tile-head') : tile;
          const messages = root.locator('.ss-stat[data-label="messages"]');
          const all = await messages.textContent();
          await target.click();
          await checkHidden(root, exp.units, f.hides, `after filtering ${f.tile}`);
          // The totals follow the filter.
          assert.equal(await messages.textContent(), f.messages, `messages after filtering ${f.tile}`);
          assert.ok(await root.locator('.ss-filter-note').isVisible(), 'the panel says what the figures are of');
          await target.click();
          await checkHidden(root, exp.units, [], `after restoring ${f.tile}`);
          assert.equal(await messages.textContent(), all, `messages after restoring ${f.tile}`);
        }

        // One slider drives the chord and the trend's frame marker.
        const p = exp.point;
        const pt = root.locator(`.ss-row[data-panel="${p.panel}"][data-unit="${p.unit}"] .ss-pt[data-frame="${p.frame}"]`);
        assert.equal(await hoverTip(page, root, pt, 'dashboard trend point'), p.tip, 'dashboard trend tooltip');
        const marker = root.locator('.ss-marker');
        const column = async (f) => {
          const r = await root.locator(`.ss-row[data-panel="0"][data-unit="0"] .ss-pt[data-frame="${f}"]`).boundingBox();
          return r.x + r.width / 2;
        };
        const markerX = async () => {
          const r = await marker.boundingBox();
          return r.x + r.width / 2;
        };
        const ribbon = root.locator('.ss-ribbon').first();
        const key = await ribbon.getAttribute('data-key');
        const d0 = await ribbon.getAttribute('d');
        await slide(root.locator('input.ss-frame'), exp.slideTo);
        await settled(page, root, exp.slideTo);
        assert.ok(Math.abs((await markerX()) - (await column(exp.slideTo))) < 1.5, 'the trend marker follows the slider');
        assert.notEqual(await root.locator(`.ss-ribbon[data-key="${key}"]`).getAttribute('d'), d0, 'the chord follows the slider');

        // The level switch swaps the trend and the chord, keeping the frame.
        await root.locator('button.ss-level[data-level="host"]').click();
        assert.equal(await root.getAttribute('data-level'), 'host');
        const arcs = await root.locator('.ss-arc').count();
        assert.equal(arcs, 3, `the host level shows ${arcs} arcs`);
        assert.equal(await root.getAttribute('data-frame'), String(exp.slideTo), 'the frame survives the level switch');
        await root.locator('button.ss-level[data-level="worker"]').click();
        assert.equal(await root.locator('.ss-arc').count(), exp.units.length, 'back at the worker level');
      } finally {
        await close();
      }
    });
  }
});

// The dashboard picture in the README: the live sample dashboard with a
// ribbon hovered.
test('screenshot of the sample dashboard', { skip: !DASHBOARD_SCREENSHOT && 'SUPERSTEP_DASHBOARD_SCREENSHOT not set' }, async () => {
  const out = bySample('dashboard')[0];
  assert.ok(out, 'no dashboard sample');
  const { page, problems, close } = await show(out.html, { viewport: { width: 1120, height: 760 } });
  try {
    const root = page.locator('.superstep-display').first();
    const rib = root.locator('.ss-ribbon[data-key="3-4"]');
    const p = await topPoint(rib);
    if (p) await page.mouse.move(p.x, p.y);
    const box = await root.boundingBox();
    fs.mkdirSync(path.dirname(path.resolve(DASHBOARD_SCREENSHOT)), { recursive: true });
    await page.screenshot({ path: DASHBOARD_SCREENSHOT, clip: { x: 0, y: 0, width: box.x + box.width + 8, height: box.y + box.height + 8 } });
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

// ---------------------------------------------------------------------------
// Graph drawings (views.Drawing): the frame (title, legend, caption) is
// SVG, the plot a canvas over it, small (120 nodes) or large (20,000). The
// sample's metadata names a node, its
// position in the plot (px, as Go drew it, views.DrawingView.Positions)
// and its hover text; the view's zoom and pan are in data-view="k tx ty".

/** Resolves after the next two animation frames (a canvas repaint). */
function frames(page) {
  return page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

describe('display samples: drawings', () => {
  for (const out of bySample('drawing')) {
    const exp = out.sample;
    test(`drawing (${exp.mode}): hover shows the label; the wheel zooms and dragging pans (${out.label})`, async () => {
      const src = displaysOf(out.html)[0].imgSrcs[0];
      assert.ok(src.startsWith(PNG_DATA_URL), `the static picture is ${src.slice(0, 30)}..., want a PNG`);
      const { page, close } = await renderLive(out);
      try {
        const root = page.locator('.superstep-display').first();
        const plot = root.locator('canvas.ss-canvas');
        assert.equal(await plot.count(), 1, 'no canvas plot in the live view');
        assert.equal(await root.locator('.ss-drawing > svg').count(), 1, 'no SVG frame (title, legend, caption)');
        const tip = root.locator('.superstep-tip');
        // The node's client point under the current view.
        const at = async () => {
          const box = await plot.boundingBox();
          const [k, tx, ty] = (await root.getAttribute('data-view')).split(' ').map(Number);
          return {
            x: box.x + ((k * exp.node.x + tx) * box.width) / exp.w,
            y: box.y + ((k * exp.node.y + ty) * box.height) / exp.h,
            k, tx, ty,
          };
        };
        const hoverNode = async (what) => {
          const p = await at();
          await page.mouse.move(0, 0);
          await page.mouse.move(p.x, p.y);
          assert.ok(await tip.isVisible(), `${what}: no tooltip over node ${exp.node.index}`);
          assert.equal(await tip.textContent(), exp.node.tip, `${what}: the tooltip`);
          return p;
        };
        const look = async () => {
          await frames(page);
          return plot.evaluate((c) => c.toDataURL());
        };

        const p0 = await hoverNode('before zooming');
        assert.deepEqual([p0.k, p0.tx, p0.ty], [1, 0, 0], 'the view starts unzoomed');
        const before = await look();

        // A plain wheel scrolls the page and leaves the zoom alone.
        const m = { x: Math.round(p0.x), y: Math.round(p0.y) };
        await page.evaluate(() => { document.body.style.paddingBottom = '3000px'; window.scrollTo(0, 0); });
        await page.mouse.move(m.x, m.y);
        await page.mouse.wheel(0, 300);
        await page.waitForFunction(() => window.scrollY > 0, null, { timeout: DONE_TIMEOUT });
        assert.equal(await root.getAttribute('data-view'), '1 0 0', 'a wheel without a modifier zoomed the drawing');
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.waitForFunction(() => window.scrollY === 0, null, { timeout: DONE_TIMEOUT });
        assert.ok((await root.locator('.ss-hint').textContent()).includes('Ctrl/⌘ + wheel'), 'no hint under the drawing');

        // With Ctrl held the wheel zooms about the pointer (Chromium gives
        // wheel events whole-pixel coordinates): the point under it stays.
        await page.mouse.move(m.x, m.y);
        await page.keyboard.down('Control');
        await page.mouse.wheel(0, -400);
        await page.keyboard.up('Control');
        await page.waitForFunction((el) => +el.getAttribute('data-view').split(' ')[0] > 1.5, await root.elementHandle(), { timeout: DONE_TIMEOUT });
        const p1 = await at();
        const want = { x: m.x + (p0.x - m.x) * p1.k, y: m.y + (p0.y - m.y) * p1.k };
        assert.ok(Math.hypot(p1.x - want.x, p1.y - want.y) < 0.05, `zooming did not keep the pointer's point: ${JSON.stringify([p0, p1, want])}`);
        const after = await look();
        assert.notEqual(after, before, 'zooming did not change the picture');
        await hoverNode('after zooming');

        // Dragging pans by the pointer's movement, towards the plot's centre.
        const dx = exp.node.x < exp.w / 2 ? 60 : -60;
        const dy = exp.node.y < exp.h / 2 ? 40 : -40;
        await page.mouse.move(p1.x, p1.y);
        await page.mouse.down();
        await page.mouse.move(p1.x + dx, p1.y + dy, { steps: 5 });
        await page.mouse.up();
        const p2 = await at();
        assert.equal(p2.k, p1.k, 'panning changed the zoom');
        assert.ok(Math.abs(p2.x - (p1.x + dx)) < 0.5 && Math.abs(p2.y - (p1.y + dy)) < 0.5, `panned to ${JSON.stringify(p2)}, want +${dx},+${dy} from ${JSON.stringify(p1)}`);
        assert.notEqual(await look(), after, 'panning did not change the picture');
        await hoverNode('after panning');

        await page.mouse.move(0, 0);
        assert.ok(!(await tip.isVisible()), 'the tooltip stays after the pointer left');
        // A double click resets the view.
        const p3 = await at();
        await page.mouse.dblclick(p3.x, p3.y);
        assert.equal(await root.getAttribute('data-view'), '1 0 0', 'a double click resets the view');

        if (exp.mode === 'large') assert.ok(exp.far, 'the large sample\'s far node is inside the frame: the drawing is framed on its extremes');
        if (exp.far) {
          // A node beyond the frame (views.FrameOf) is not in the first
          // view, and zooming out far enough brings it in, in its place.
          const box = await plot.boundingBox();
          assert.ok(exp.far.x > exp.w, `the far node is at x = ${exp.far.x} in a plot ${exp.w} px wide`);
          const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
          await page.mouse.move(centre.x, centre.y);
          await page.keyboard.down('Control');
          for (let i = 0; i < 12; i++) await page.mouse.wheel(0, 400);
          await page.keyboard.up('Control');
          await frames(page);
          const [k, tx, ty] = (await root.getAttribute('data-view')).split(' ').map(Number);
          const fx = box.x + ((k * exp.far.x + tx) * box.width) / exp.w;
          const fy = box.y + ((k * exp.far.y + ty) * box.height) / exp.h;
          assert.ok(fx >= box.x && fx <= box.x + box.width && fy >= box.y && fy <= box.y + box.height,
            `zoomed out to ${k}, the far node is at ${fx}, ${fy}, outside the plot ${JSON.stringify(box)}`);
          await page.mouse.move(0, 0);
          await page.mouse.move(fx, fy);
          assert.ok(await tip.isVisible(), 'no tooltip over the far node once zoomed out');
          assert.equal(await tip.textContent(), exp.far.tip, 'the far node\'s tooltip');
        }
      } finally {
        await close();
      }
    });

    test(`drawing (${exp.mode}): the sanitized static picture reads alone (${out.label})`, async () => {
      const clean = sanitize(out.html);
      const { page, problems, close } = await show(clean, { scripts: false });
      try {
        // The picture, drawn on a canvas: its size, and the communities' colours.
        const pic = await page.evaluate(async () => {
          const img = document.querySelector('img');
          await img.decode();
          const c = document.createElement('canvas');
          c.width = img.naturalWidth;
          c.height = img.naturalHeight;
          const g = c.getContext('2d');
          g.drawImage(img, 0, 0);
          const px = g.getImageData(0, 0, c.width, c.height).data;
          let coloured = 0;
          const hues = new Set();
          for (let i = 0; i < px.length; i += 4) {
            const [r, gr, b] = [px[i], px[i + 1], px[i + 2]];
            if (Math.max(r, gr, b) - Math.min(r, gr, b) > 60) {
              coloured++;
              hues.add(`${r >> 5},${gr >> 5},${b >> 5}`);
            }
          }
          return { w: img.naturalWidth, h: img.naturalHeight, coloured, hues: hues.size, text: document.body.textContent };
        });
        assert.equal(pic.w, exp.w, 'picture width');
        assert.ok(pic.h >= exp.h, `picture height ${pic.h} < plot ${exp.h}`);
        assert.ok(pic.coloured > exp.n, `only ${pic.coloured} coloured pixels for ${exp.n} nodes`);
        assert.ok(pic.hues >= 5, `only ${pic.hues} colours: are the communities coloured?`);
        // The caption is in the picture and in its alt text.
        const alt = await page.evaluate(() => document.querySelector('img').alt);
        assert.match(alt, new RegExp(`${exp.n.toLocaleString('en-US')} nodes · [\\d,]+ edges · \\d+ groups`), 'the alt text says what the picture shows');
        assert.deepEqual(problems, []);
      } finally {
        await close();
      }
    });
  }
});

// The drawing picture in the README: the large canvas drawing, live, with a
// node hovered.
test('screenshot of the large drawing', { skip: !DRAWING_SCREENSHOT && 'SUPERSTEP_DRAWING_SCREENSHOT not set' }, async () => {
  const out = bySample('drawing').find((o) => o.sample.mode === 'large');
  assert.ok(out, 'no large drawing sample');
  const { page, close } = await renderLive(out);
  try {
    const root = page.locator('.superstep-display').first();
    const box = await root.locator('canvas').boundingBox();
    const n = out.sample.node;
    await page.mouse.move(box.x + (n.x * box.width) / out.sample.w, box.y + (n.y * box.height) / out.sample.h);
    await frames(page);
    assert.ok(await root.locator('.superstep-tip').isVisible(), 'no tooltip in the screenshot');
    const all = await root.boundingBox();
    fs.mkdirSync(path.dirname(path.resolve(DRAWING_SCREENSHOT)), { recursive: true });
    await page.screenshot({ path: DRAWING_SCREENSHOT, clip: { x: 0, y: 0, width: box.x + box.width + 8, height: all.y + all.height + 8 } });
  } finally {
    await close();
  }
});

// Display ids come from the content (a re-executed notebook stores the same
// bytes), so two equal displays share an id: each still goes live, found by
// the script beside it.
test('two equal displays both go live', async () => {
  const out = outputs.find((o) => (o.html.match(/<script type="application\/vnd\.superstep\.spec\+json">/g) || []).length === 1);
  assert.ok(out, 'no output with one live display');
  const { page, problems, close } = await show(out.html + out.html);
  const roots = await page.locator('.superstep-display').all();
  assert.equal(roots.length, 2);
  assert.equal(await roots[0].getAttribute('id'), await roots[1].getAttribute('id'));
  for (const root of roots) {
    assert.equal(await root.getAttribute('data-live'), '1', `a copy stayed static: ${await root.getAttribute('data-live-error')}`);
  }
  assert.deepEqual(problems, []);
  await close();
});

// The texts of an SVG document rendered in the page, each as the quad its
// glyphs cover on screen (a rotated label is a rotated box, not its larger
// axis-aligned bounding box): [{text, quad: [[x, y] × 4]}].
async function textQuads(page) {
  return page.evaluate(() => [...document.querySelectorAll('svg text')].map((t) => {
    const b = t.getBBox();
    const m = t.getScreenCTM();
    const pt = (x, y) => [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f];
    return { text: t.textContent, w: b.width, h: b.height,
      quad: [pt(b.x, b.y), pt(b.x + b.width, b.y), pt(b.x + b.width, b.y + b.height), pt(b.x, b.y + b.height)] };
  }).filter((t) => t.w > 0 && t.h > 0));
}

// Whether two convex quads overlap by more than tol px (separating axes).
function quadsOverlap(a, b, tol) {
  for (const q of [a, b]) {
    for (let i = 0; i < 4; i++) {
      const [x0, y0] = q[i];
      const [x1, y1] = q[(i + 1) % 4];
      const len = Math.hypot(x1 - x0, y1 - y0) || 1;
      const nx = -(y1 - y0) / len, ny = (x1 - x0) / len;
      const proj = (p) => p.map(([x, y]) => x * nx + y * ny);
      const pa = proj(a), pb = proj(b);
      if (Math.min(Math.max(...pa), Math.max(...pb)) - Math.max(Math.min(...pa), Math.min(...pb)) <= tol) return false;
    }
  }
  return true;
}

/** A sample's SVG, from its cell's metadata (null for other outputs). */
function staticSVGOf(out) {
  return (out.sample && out.sample.svg) || null;
}

// The static dashboard's texts never overlap (the aggregation panel put a
// long value over its label, "graph" under "graph: 16840 vertices …").
test('no two texts of a static dashboard overlap', async () => {
  const dashboards = outputs.filter((o) => o.html.includes('data-kind="dashboard"') && staticSVGOf(o));
  assert.ok(dashboards.length > 0, 'no dashboard among the samples');
  for (const out of dashboards) {
    const svg = staticSVGOf(out);
    assert.ok(svg, `${out.label}: no static SVG`);
    const { page, close } = await show(svg, { scripts: false });
    const texts = await textQuads(page);
    await close();
    const overlaps = [];
    for (let i = 0; i < texts.length; i++) {
      for (let j = i + 1; j < texts.length; j++) {
        if (quadsOverlap(texts[i].quad, texts[j].quad, 1)) overlaps.push(`"${texts[i].text}" and "${texts[j].text}"`);
      }
    }
    assert.deepEqual(overlaps, [], `${out.label}: texts overlap`);
  }
});

// Every axis label of a trend lies inside the picture, static and live (the
// last frame label, "120–123", was cut at the right edge).
test('trend axis labels lie inside the picture', async () => {
  const trends = outputs.filter((o) => o.html.includes('data-kind="trend"') && staticSVGOf(o));
  assert.ok(trends.length > 0, 'no trend among the samples');
  for (const out of trends) {
    const svg = staticSVGOf(out);
    const { page, close } = await show(svg, { scripts: false });
    const inside = await page.evaluate(() => {
      const s = document.querySelector('svg').getBoundingClientRect();
      return [...document.querySelectorAll('svg text')].map((t) => {
        const r = t.getBoundingClientRect();
        return { text: t.textContent, ok: r.left >= s.left - 0.5 && r.right <= s.right + 0.5 };
      }).filter((t) => !t.ok).map((t) => t.text);
    });
    await close();
    assert.deepEqual(inside, [], `${out.label}: static labels outside the picture`);
    const live = await renderLive(out);
    const outside = await live.page.evaluate(() => {
      const bad = [];
      for (const s of document.querySelectorAll('.superstep-display svg')) {
        const b = s.getBoundingClientRect();
        for (const t of s.querySelectorAll('text')) {
          const r = t.getBoundingClientRect();
          if (r.width > 0 && (r.left < b.left - 0.5 || r.right > b.right + 0.5)) bad.push(t.textContent);
        }
      }
      return bad;
    });
    await live.close();
    assert.deepEqual(outside, [], `${out.label}: live labels outside the picture`);
  }
});

// Racks, hosts and workers of different branches never share a colour: in
// a live dashboard's cluster view two tiles of one colour are one inside
// the other (a host r0h1 and a worker w1 of r0h0 were both rose).
test('units of different branches never share a colour', async () => {
  const dashboards = outputs.filter((o) => o.html.includes('data-kind="dashboard"'));
  assert.ok(dashboards.length > 0, 'no dashboard among the outputs');
  let checked = 0;
  for (const out of dashboards) {
    const { page, close } = await renderLive(out);
    const tiles = await page.evaluate(() => [...document.querySelectorAll('.ss-tile')].map((g) => {
      // A rack's or host's colour is its header's; a worker's, its tile's.
      const r = g.querySelector('rect');
      const colour = g.querySelector('.ss-tile-head') || r;
      const b = r.getBoundingClientRect();
      return { id: g.getAttribute('data-id'), fill: colour.getAttribute('fill').toLowerCase(), x: b.x, y: b.y, w: b.width, h: b.height };
    }));
    await close();
    checked += tiles.length >= 3 ? 1 : 0;
    const inside = (a, b) => a.x >= b.x - 0.5 && a.y >= b.y - 0.5 && a.x + a.w <= b.x + b.w + 0.5 && a.y + a.h <= b.y + b.h + 0.5;
    const shared = [];
    for (let i = 0; i < tiles.length; i++) {
      for (let j = i + 1; j < tiles.length; j++) {
        const a = tiles[i], b = tiles[j];
        // Greys are the treemap's own shades for nodes given no colour.
        const grey = /^#(..)\1\1$/.test(a.fill);
        if (a.fill === b.fill && !grey && !inside(a, b) && !inside(b, a)) shared.push(`${a.id} and ${b.id} (${a.fill})`);
      }
    }
    assert.deepEqual(shared, [], `${out.label}: unrelated units share a colour`);
  }
  assert.ok(checked > 0, 'no dashboard with a hierarchy of three tiles or more');
});

// Every live view has a download menu: SVG (a well-formed document of the
// view's size) and PNG (twice the view's size).
test('the download menu saves SVG and PNG', async () => {
  const picks = ['trend', 'chord', 'treemap', 'dashboard', 'drawing'].map((k) => [k, bySample(k)[0]]);
  for (const [kind, out] of picks) {
    assert.ok(out, `no ${kind} sample`);
    const { page, close } = await renderLive(out);
    try {
      const root = page.locator('.superstep-display').first();
      const box = await root.boundingBox();
      const button = root.locator('.ss-download');
      assert.equal(await button.count(), 1, `${kind}: no download button`);
      const menu = root.locator('.ss-download-menu');
      assert.ok(!(await menu.isVisible()), `${kind}: the menu shows before a click`);
      const fetch = async (format) => {
        await button.click();
        assert.ok(await menu.isVisible(), `${kind}: the menu did not open`);
        const [download] = await Promise.all([page.waitForEvent('download'), menu.locator(`[data-format="${format}"]`).click()]);
        assert.equal(download.suggestedFilename(), `superstep-${out.sample.kind === 'drawing' ? 'drawing' : kind}.${format}`);
        const file = await download.path();
        return fs.readFileSync(file);
      };
      const svg = (await fetch('svg')).toString('utf8');
      const doc = new JSDOM(svg, { contentType: 'image/svg+xml' }).window.document;
      const el = doc.documentElement;
      assert.equal(el.nodeName, 'svg', `${kind}: the SVG download is not an <svg> document`);
      assert.ok(Number(el.getAttribute('width')) > 100 && Number(el.getAttribute('height')) > 50, `${kind}: SVG ${el.getAttribute('width')}×${el.getAttribute('height')}`);
      assert.ok(el.querySelectorAll('text').length > 0, `${kind}: the SVG has no text`);
      if (kind === 'drawing') {
        const nodes = [...el.querySelectorAll('circle')].filter((c) => c.parentElement.closest('svg') !== el); // not the legend's
        assert.equal(nodes.length, out.sample.n, 'one circle per node in the vector drawing');
      }
      const png = await fetch('png');
      assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG', `${kind}: the PNG download is not a PNG`);
      const w = png.readUInt32BE(16), h = png.readUInt32BE(20);
      const [sw, sh] = [Number(el.getAttribute('width')), Number(el.getAttribute('height'))];
      assert.ok(Math.abs(w - 2 * sw) <= 2 && Math.abs(h - 2 * sh) <= 2, `${kind}: PNG ${w}×${h}, SVG ${sw}×${sh} (want 2×)`);
      assert.ok(box.width > 0);
    } finally {
      await close();
    }
  }
});
