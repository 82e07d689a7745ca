// Browser tests of the live matrix board (display/matrixboard*.go,
// runtime/src/matrixboard.js), in headless Chromium with scripts on and
// every network request refused.
//
// They read matrixboard-samples.ipynb, written by
// `go run ./sdk/internal/samples` into a temporary directory (or found
// in $SUPERSTEP_SAMPLES): a k = 4 fat-tree board (sdk.FatTree, simulated
// counters, two jobs, a hotspot threshold), a small generic board on the
// diverging RdYlBu⁻¹ map and a Paper1296 board. Each cell's metadata
// "superstep_sample" holds what Go computed (display.FormatValue texts,
// window totals summed as the board sums them, fills read from the static
// SVG); the checks:
//
//   cells      the live cells are the spec's rectangles (Go's layout), one
//              <rect> per cell with its item, and their initial fills are
//              the static SVG's fills cell by cell (same ramp tables, same
//              scales: no data-domain-mismatch), the named cell's too; the
//              hot outlines are as many as Go's hotspots;
//   hover      hovering the named cell shows exactly Go's text (name,
//              value, jobs running in the window that use it);
//   histogram  a mouse drag over the histogram between two bin edges
//              leaves exactly Go's count of cells visible; the exclusive
//              toggle leaves the complement;
//   time       a mouse drag over bins 2–3 of the time chart sets the window
//              to bins 2–3 and the named cell's text to Go's for them;
//   series     the level and direction toggles give 1, 2, 3 and 6 series
//              (as many as Go counts distinct keys);
//   direction  "up" hides every down cell and shows every up cell;
//   job        a click on the first job's row sets the window to its bins
//              and leaves exactly its footprint's cells unfaded, with
//              placement stacks of its node count on the top bars;
//   routes     a click on one L1's bar and a shift-click on another's
//              leave exactly the cells of Go's RouteItems unfaded; with the
//              first job selected, a click on a cell of its footprint
//              leaves Go's d(ℓ) ∩ N(J);
//   diverging  the generic board's cell equal to the mean is #ffffbf.
//
// Run: npm ci && node --test matrixboard.test.mjs

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { dragBins } from './matrixboard-util.mjs';
import { outputPages, samples as samplesOf, sanitize, specOf } from './page.mjs';

const samples = samplesOf('matrixboard-samples.ipynb');

/** The cell fills of the static SVG, in drawing order (the rects of the board group without a stroke). */
function staticFills(svg) {
  const start = svg.indexOf('<g transform="translate(0,22)">');
  const end = svg.indexOf('</g>', start);
  assert.ok(start >= 0 && end > start, 'no board group in the static SVG');
  return [...svg.slice(start, end).matchAll(/<rect [^>]*\/>/g)]
    .map((m) => m[0])
    .filter((r) => !r.includes('stroke='))
    .map((r) => r.match(/fill="([^"]+)"/)[1]);
}

const show = outputPages({ viewport: { width: 1200, height: 900 }, title: 'matrix board' });

/** Renders html live; returns the page, the display and the problems seen so far (script errors, requests). */
async function renderLive(html) {
  const live = await show(html, { assertLive: true });
  assert.equal(await live.root.getAttribute('data-domain-mismatch'), null, "the live scales differ from Go's");
  assert.deepEqual(live.problems, [], 'script errors');
  return live;
}

/** Hovers the cell of item id (its centre) and returns the tooltip's text. */
async function hoverCell(page, root, id) {
  const cell = root.locator(`rect.ss-cell[data-item="${id}"]`);
  await cell.scrollIntoViewIfNeeded();
  const b = await cell.boundingBox();
  await page.mouse.move(0, 0);
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
  const tip = root.locator('.superstep-tip');
  assert.ok(await tip.isVisible(), `no tooltip over cell ${id}`);
  return tip.textContent();
}

const visibleCells = (root) => root.locator('rect.ss-cell:not(.ss-hidden)').count();

for (const { sample, html } of samples.filter((s) => !['compare', 'holes', 'holes-compare'].includes(s.sample.name))) {
  describe(`matrix board ${sample.name}`, () => {
    const sp = specOf(html);

    test('live cells are the spec\'s rectangles, coloured as the static picture', async () => {
      const { page, root, problems, close } = await renderLive(html);
      try {
        const live = await root.locator('rect.ss-cell').evaluateAll((els) =>
          els.map((e) => [e.getAttribute('data-item'), ...['x', 'y', 'width', 'height'].map((a) => Number(e.getAttribute(a))), e.getAttribute('fill')]));
        assert.equal(live.length, sp.cells.item.length, 'one live rect per cell');
        assert.equal(live.length, sample.cells, "as many cells as Go's layout");
        const fills = staticFills(sample.svg);
        assert.equal(fills.length, live.length, 'as many cells in the static SVG');
        live.forEach(([id, x, y, w, h, fill], c) => {
          assert.equal(id, sp.items.id[sp.cells.item[c]], `cell ${c}: item`);
          assert.deepEqual([x, y, w, h], [sp.cells.x[c], sp.cells.y[c], sp.cell, sp.cell], `cell ${c} (${id}): rectangle`);
          assert.equal(fill, fills[c], `cell ${c} (${id}): fill, live vs static`);
        });
        const named = live.find((l) => l[0] === sample.item);
        assert.equal(named[5], sample.fill, `the named cell ${sample.item}: fill`);
        assert.equal(await root.locator('.ss-hotcell').count(), sample.hot, 'hot outlines');
        assert.equal(await root.getAttribute('data-window'), sample.window.join(' '), 'initial window');
        assert.equal(await visibleCells(root), sample.cells, 'every cell visible at first');
        assert.deepEqual(problems, [], 'script errors');
      } finally {
        await close();
      }
    });

    test('histogram bars take their direction\'s colour from the board, with a key; the brush lets their tips through', async () => {
      const { page, root, problems, close } = await renderLive(html);
      try {
        const hist = root.locator('svg.ss-histogram');
        const keys = await hist.locator('rect.ss-hist-key').evaluateAll((els) => els.map((e) => [e.nextSibling.textContent, e.getAttribute('fill')]));
        assert.ok(keys.length >= 1, 'no key of directions over the histogram');
        const keyFill = Object.fromEntries(keys);
        // Each direction's key colour is a swatch of its colour map in the
        // board's legend (where "up" was blue beside a green map).
        const swatches = await root.locator('.ss-legend').evaluate((g) => {
          const out = {};
          let key = null;
          for (const e of g.children) {
            if (e.tagName === 'text' && !out[e.textContent]) out[(key = e.textContent)] = [];
            else if (e.tagName === 'rect' && key) out[key].push(e.getAttribute('fill'));
          }
          return out;
        });
        for (const [d, fill] of keys) {
          assert.ok((swatches[d] || []).includes(fill), `key ${d}: ${fill} is not a swatch of its map ${JSON.stringify(swatches[d])}`);
        }
        const bars = await hist.locator('rect.ss-hbar').evaluateAll((els) => els.map((e) => [e.getAttribute('fill'), e.getAttribute('data-tip')]));
        assert.ok(bars.length > 0, 'no histogram bars');
        for (const [fill, tip] of bars) {
          const d = tip.split('\n')[1].split(' ')[1];
          assert.equal(fill, keyFill[d], `a ${d} bar is ${fill}, its key ${keyFill[d]}`);
        }
        // Hovering the middle of the tallest bar, under the brush's overlay.
        const heights = await hist.locator('rect.ss-hbar').evaluateAll((els) => els.map((e) => +e.getAttribute('height')));
        const tallest = heights.indexOf(Math.max(...heights));
        const bar = hist.locator('rect.ss-hbar').nth(tallest);
        await hist.scrollIntoViewIfNeeded();
        const b = await bar.boundingBox();
        await page.mouse.move(0, 0);
        await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
        const tip = root.locator('.superstep-tip');
        assert.ok(await tip.isVisible(), 'no tooltip over a histogram bar');
        assert.equal(await tip.textContent(), bars[tallest][1], 'the bar\'s tooltip');
        assert.deepEqual(problems, [], 'script errors');
      } finally {
        await close();
      }
    });

    test("hovering the named cell shows Go's text; a time brush over bins 2–3 shows Go's values for them", async () => {
      const { page, root, problems, close } = await renderLive(html);
      try {
        assert.equal(await hoverCell(page, root, sample.item), sample.tip, 'hover text over the window');
        if (sample.bins23) {
          await dragBins(page, root.locator('svg.ss-timechart'), 2, 4);
          assert.equal(await root.getAttribute('data-window'), '2 3', 'the brush snaps to bins 2–3');
          assert.equal(await hoverCell(page, root, sample.item), sample.bins23.tip, 'hover text over bins 2–3');
          await root.locator('button.ss-reset').click();
          assert.equal(await root.getAttribute('data-window'), sample.window.join(' '), 'reset restores the window');
          assert.equal(await hoverCell(page, root, sample.item), sample.tip, 'hover text after reset');
        }
        assert.deepEqual(problems, [], 'script errors');
      } finally {
        await close();
      }
    });

    test("a histogram brush leaves Go's cell count; exclusive leaves the complement", async () => {
      const { page, root, problems, close } = await renderLive(html);
      try {
        const [a, b] = sample.hist.range;
        await dragBins(page, root.locator('svg.ss-histogram'), a, b);
        assert.equal(await root.getAttribute('data-hist'), `${a} ${b}`, 'the brush snaps to the bin edges');
        assert.equal(await visibleCells(root), sample.hist.inclusive, 'cells left by the range');
        assert.equal(await root.getAttribute('data-visible-cells'), String(sample.hist.inclusive));
        await root.locator('input.ss-exclusive').check();
        assert.equal(await visibleCells(root), sample.hist.exclusive, 'cells left by the exclusive range');
        await root.locator('input.ss-exclusive').uncheck();
        assert.equal(await visibleCells(root), sample.hist.inclusive, 'inclusive again');
        assert.deepEqual(problems, [], 'script errors');
      } finally {
        await close();
      }
    });

    test('the toggles give 1, 2, 3 and 6 series; "up" hides every down cell', async () => {
      const { page, root, problems, close } = await renderLive(html);
      try {
        const series = async () => {
          const n = await root.locator('path.ss-series').count();
          assert.equal(await root.getAttribute('data-series'), String(n));
          return n;
        };
        assert.equal(await series(), sample.series.none, 'no toggle');
        await root.locator('input.ss-by-dir').check();
        assert.equal(await series(), sample.series.direction, 'by direction');
        await root.locator('input.ss-by-level').check();
        assert.equal(await series(), sample.series.both, 'by level and direction');
        await root.locator('input.ss-by-dir').uncheck();
        assert.equal(await series(), sample.series.level, 'by level');
        await root.locator('select.ss-stat').selectOption('mean');
        assert.equal(await series(), sample.series.level, 'mean, by level');

        const up = root.locator('input.ss-dir[value="up"]');
        await up.check();
        const dirs = await root.locator('rect.ss-cell').evaluateAll((els, [items, cats, cellItems]) =>
          els.map((e, c) => [cats[items[cellItems[c]]].direction, !e.classList.contains('ss-hidden')]), [sp.items.cat, sp.categories, sp.cells.item]);
        for (const [d, shown] of dirs) assert.equal(shown, d === 'up', `a ${d} cell is ${shown ? 'shown' : 'hidden'} under "up"`);
        assert.equal(await visibleCells(root), sample.directions.up || 0, 'up cells');
        await root.locator('input.ss-dir[value="both"]').check();
        assert.equal(await visibleCells(root), sample.cells, 'both again');
        assert.deepEqual(problems, [], 'script errors');
      } finally {
        await close();
      }
    });

    if (sample.job) {
      test('a job click sets the window and leaves exactly its footprint unfaded', async () => {
        const { page, root, problems, close } = await renderLive(html);
        try {
          const row = root.locator(`tr.ss-job[data-job="${sample.job.id}"]`);
          await row.scrollIntoViewIfNeeded();
          await row.click();
          assert.equal(await root.getAttribute('data-window'), sample.job.window.join(' '), "the job's bins");
          const unfaded = await root.locator('rect.ss-cell:not([data-faded])').count();
          assert.equal(unfaded, sample.job.cells, "unfaded cells: the job's footprint");
          const stacked = await root.locator(`rect.ss-stack[data-job="${sample.job.id}"]`).evaluateAll((els) => {
            const seen = new Map();
            for (const e of els) seen.set(e.getAttribute('data-tip').split('\n')[0], Number(e.getAttribute('data-n')));
            return [...seen.values()].reduce((a, b) => a + b, 0);
          });
          assert.equal(stacked, sample.job.stackNodes, 'placement stacks hold every node of the job');
          // Who uses this link: the tooltip lists the selected job.
          const text = await hoverCell(page, root, sample.item);
          assert.ok(text.endsWith('\nused by ' + sample.job.id), `tooltip of the named cell: ${JSON.stringify(text)}`);
          // A second click deselects: nothing faded.
          await page.mouse.move(0, 0);
          await row.click();
          assert.equal(await root.locator('rect.ss-cell[data-faded]').count(), 0, 'faded cells after deselecting');
          assert.deepEqual(problems, [], 'script errors');
        } finally {
          await close();
        }
      });
    }

    if (sample.routes) {
      test("click and shift-click keep Go's routes; with a job selected, a cell keeps d(ℓ) ∩ N(J)", async () => {
        const { page, root, problems, close } = await renderLive(html);
        try {
          const r = sample.routes;
          const unfaded = () => root.locator('rect.ss-cell:not([data-faded])').evaluateAll((els) => els.map((e) => e.getAttribute('data-item')).sort());
          const bar = (id) => root.locator(`rect.ss-bar[data-header="${id}"]`).first();
          await bar(r.src).scrollIntoViewIfNeeded();
          await bar(r.src).click();
          assert.ok((await root.locator('.ss-route-src').count()) >= 1, 'the source is outlined');
          await bar(r.dst).click({ modifiers: ['Shift'] });
          assert.ok((await root.locator('.ss-route-dst').count()) >= 1, 'the destination is outlined');
          assert.equal(await root.getAttribute('data-routes'), String(r.items), "items on the routes: Go's count");
          assert.deepEqual(await unfaded(), r.cells, "the unfaded cells are Go's routes");
          const outlined = await root.locator('rect.ss-route-cell').evaluateAll((els) => els.map((e) => e.getAttribute('data-item')).sort());
          assert.deepEqual(outlined, r.cells, "the outlined cells are Go's routes");
          await root.locator('button.ss-route-clear').click();
          assert.equal(await root.locator('rect.ss-cell[data-faded]').count(), 0, 'nothing faded after clearing');
          assert.equal(await root.getAttribute('data-routes'), '', 'no routes after clearing');
          if (r.job) {
            const row = root.locator(`tr.ss-job[data-job="${r.job.id}"]`);
            await row.scrollIntoViewIfNeeded();
            await row.click();
            const cell = root.locator(`rect.ss-cell[data-item="${r.job.item}"]`);
            await cell.scrollIntoViewIfNeeded();
            await cell.click();
            assert.equal(await root.getAttribute('data-routes'), String(r.job.items), "items from the cell to the job's nodes");
            assert.deepEqual(await unfaded(), r.job.cells, "the unfaded cells are Go's d(ℓ) ∩ N(J)");
          }
          assert.deepEqual(problems, [], 'script errors');
        } finally {
          await close();
        }
      });
    }

    if (sample.meanFill) {
      test('the diverging map puts its middle colour on the cell equal to the mean', async () => {
        const { page, root, problems, close } = await renderLive(html);
        try {
          assert.equal(sample.meanFill, '#ffffbf', "RdYlBu's middle colour");
          const fill = await root.locator(`rect.ss-cell[data-item="${sample.item}"]`).getAttribute('fill');
          assert.equal(fill, sample.meanFill, 'the mean cell');
          assert.deepEqual(problems, [], 'script errors');
        } finally {
          await close();
        }
      });
    }
  });
}

test('compare mode: three boards, the difference cells are B − A', async () => {
  const { sample, html } = samples.find((s) => s.sample.name === 'compare');
  const { page, problems, close } = await show(html, { title: 'matrix board compare' });
  try {
    const views = page.locator('.ss-matrixboard-view');
    assert.equal(await views.count(), sample.boards, 'A, B and B − A are live');
    assert.equal(await page.locator('.superstep-display[data-domain-mismatch]').count(), 0, "the live scales are Go's");
    assert.equal(await page.locator('.superstep-display[data-live-error]').count(), 0, 'the runtime failed');
    const tips = await views.nth(2).locator('rect.ss-cell').evaluateAll((els) => els.map((e) => [e.getAttribute('data-item'), e.getAttribute('data-tip')]));
    assert.equal(tips.length, Object.keys(sample.diffTips).length, 'one difference cell per link');
    for (const [id, tip] of tips) assert.equal(tip, sample.diffTips[id], `difference cell ${id}`);
    assert.ok(sample.changed > 0, 'the routings differ somewhere');
    assert.deepEqual(problems, [], 'script errors');
  } finally {
    await close();
  }
});

test('compare mode fits a 1,000 px page: three boards on one line, live and static', async () => {
  const { html } = samples.find((s) => s.sample.name === 'compare');
  for (const live of [true, false]) {
    const what = live ? 'live' : 'static';
    const { page, problems, close } = await show(live ? html : sanitize(html), { scripts: live, viewport: { width: 1000, height: 900 }, title: `matrix board compare, ${what}` });
    try {
      const boxes = await page.locator('.superstep-row-item').evaluateAll((els) => els.map((e) => {
        const r = e.getBoundingClientRect();
        return { x: r.x, y: r.y, right: r.right };
      }));
      assert.equal(boxes.length, 3, `${what}: A, B and B − A`);
      for (const b of boxes) assert.equal(Math.round(b.y), Math.round(boxes[0].y), `${what}: the boards share a line (tops ${boxes.map((b) => Math.round(b.y))})`);
      assert.ok(boxes[0].x < boxes[1].x && boxes[1].x < boxes[2].x, `${what}: side by side`);
      for (const b of boxes) assert.ok(b.right <= 1000, `${what}: a board ends at ${b.right} px`);
      // Nothing inside is wider than the page: no view, chart, control or picture.
      const widest = await page.evaluate(() => {
        let w = document.documentElement.scrollWidth;
        for (const e of document.querySelectorAll('.superstep-row *')) w = Math.max(w, e.getBoundingClientRect().right);
        return w;
      });
      assert.ok(widest <= 1000, `${what}: something reaches ${widest} px`);
      if (live) {
        assert.equal(await page.locator('.ss-matrixboard-view').count(), 3, 'three live boards');
        assert.deepEqual(problems, [], 'script errors');
      }
    } finally {
      await close();
    }
  }
});

test('the k = 4 board names its L1 switches and says what the outline means, live as in the static picture', async () => {
  const { sample, html } = samples.find((s) => s.sample.name === 'k4');
  const { root, problems, close } = await show(html, { assertLive: true, title: 'matrix board k4 labels' });
  try {
    const board = root.locator('svg.ss-board');
    const vb = await board.evaluate((e) => e.viewBox.baseVal.width);
    const labels = await board.locator('text.ss-row-label').evaluateAll((els) => els.map((e) => {
      const b = e.getBBox();
      return [e.textContent, b.x, b.x + b.width];
    }));
    const names = labels.map((l) => l[0]);
    for (const name of ['L1 p0 s0', 'L1 p3 s0']) assert.ok(names.includes(name), `no label ${name}: ${names}`);
    for (const [t, x0, x1] of labels) assert.ok(x0 >= 0 && x1 <= vb, `${t} spans ${x0}–${x1}, outside 0–${vb}`);
    for (const name of names) assert.ok(sample.svg.includes(`>${name}</text>`), `${name} is not in the static picture`);
    const key = sample.svg.match(/outlined: ≥ [^<]*/);
    assert.ok(key, 'the static legend says what the outline means');
    assert.equal(await root.locator('text.ss-hot-text').textContent(), key[0], 'the live legend words it as the static one');
    assert.deepEqual(problems, [], 'script errors');
  } finally {
    await close();
  }
});

test('the sanitized static picture of a board reads alone', async () => {
  const { sample, html } = samples.find((s) => s.sample.name === 'k4');
  const sp = specOf(html);
  const clean = sanitize(html);
  assert.ok(!/<script/i.test(clean), 'a <script> survived the sanitizer');
  const { page, close } = await show(clean, { scripts: false, title: 'matrix board, static' });
  try {
    const c = sp.cells.item.findIndex((i) => sp.items.id[i] === sample.item);
    const pic = await page.evaluate(async ([x, y]) => {
      const img = document.querySelector('img');
      await img.decode();
      const cv = document.createElement('canvas');
      cv.width = img.naturalWidth;
      cv.height = img.naturalHeight;
      const g = cv.getContext('2d');
      g.drawImage(img, 0, 0);
      const px = g.getImageData(Math.round(x), Math.round(y), 1, 1).data;
      return { w: img.naturalWidth, alt: img.alt, rgb: '#' + [px[0], px[1], px[2]].map((v) => v.toString(16).padStart(2, '0')).join('') };
    }, [sp.cells.x[c] + sp.cell / 2, sp.cells.y[c] + sp.cell / 2]);
    assert.equal(pic.w, sp.w, 'picture width');
    assert.equal(pic.rgb, sample.fill, `the named cell ${sample.item} in the picture`);
    assert.match(pic.alt, /matrix board|cells/i, 'the alt text says what the picture shows');
  } finally {
    await close();
  }
});

test('a fabric with holes: missing cells grey and hatched, live as static, apart from idle ones', async () => {
  const { sample, html } = samples.find((s) => s.sample.name === 'holes');
  for (const live of [true, false]) {
    const what = live ? 'live' : 'static';
    const { page, root, problems, close } = await show(live ? html : sanitize(html), live ? { assertLive: true, title: `matrix board with holes, ${what}` } : { scripts: false, title: `matrix board with holes, ${what}` });
    try {
      if (live) {
        assert.equal(await page.locator('.superstep-display[data-domain-mismatch]').count(), 0, "the live scales are Go's (missing cells left out)");
        const marked = await root.locator('rect.ss-cell[data-missing="1"]').evaluateAll((els) => els.map((e) => [e.getAttribute('data-item'), e.getAttribute('fill')]));
        assert.deepEqual(marked.map(([id]) => id).sort(), [...sample.missing].sort(), 'the missing cells are the four of the two cables');
        for (const [id, fill] of marked) assert.equal(fill, sample.missingFill, `missing cell ${id} is grey`);
        assert.equal(await root.locator('.ss-missing rect').count(), sample.missing.length, 'each missing cell is hatched');
        const idle = root.locator(`rect.ss-cell[data-item="${sample.idle}"]`);
        assert.equal(await idle.getAttribute('fill'), sample.idleFill, "the idle cell has Go's fill");
        assert.notEqual(sample.idleFill, sample.missingFill, 'an idle cell is not drawn as a missing one');
        assert.equal(await idle.getAttribute('data-missing'), null, 'the idle cell is not marked missing');
        for (const id of sample.missing) assert.equal(await hoverCell(page, root, id), sample.tips[id], `tooltip of missing cell ${id}`);
        assert.equal(await hoverCell(page, root, sample.idle), sample.idleTip, 'tooltip of the idle cell');
        assert.equal(await root.locator('.ss-missing-text').textContent(), sample.legend, 'the legend names the missing cells');
        assert.equal(await root.locator('rect.ss-missing-key').count(), 1, 'the legend has a key for them');
      } else {
        // The static picture: the same grey under the hatch, and the same legend.
        const img = page.locator('img').first();
        assert.ok(await img.isVisible(), 'the static picture shows');
      }
      const svg = sample.svg;
      assert.equal((svg.match(/fill="url\(#hatch\)"/g) || []).length, sample.missing.length + 1, 'the static picture hatches the four cells and the key');
      assert.ok(svg.includes(sample.legend), 'the static legend names the missing cells');
      assert.deepEqual(problems, [], 'script errors');
    } finally {
      await close();
    }
  }
  const cmp = samples.find((s) => s.sample.name === 'holes-compare');
  const { page, problems, close } = await show(cmp.html, { assertLive: true, title: 'matrix board with holes, compare' });
  try {
    const views = page.locator('.ss-matrixboard-view');
    assert.equal(await views.count(), cmp.sample.boards, 'A, B and B − A are live');
    for (let k = 0; k < 3; k++) {
      const ids = await views.nth(k).locator('rect.ss-cell[data-missing="1"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-item')));
      assert.deepEqual(ids.sort(), [...cmp.sample.missing].sort(), `board ${'AB'[k] || 'B − A'} keeps the holes`);
    }
    assert.deepEqual(problems, [], 'script errors');
  } finally {
    await close();
  }
});

test('matrixboard samples were written', () => {
  assert.deepEqual(samples.map((s) => s.sample.name), ['k4', 'compare', 'generic', 'paper1296', 'holes', 'holes-compare']);
});
