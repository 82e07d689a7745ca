// Browser tests of comparisons side by side (display/views/row.go): a
// views.Row lays every ring and trend out for its share of the row's
// width (900 px), so the row sits on one line in a 1,000 px output, live
// and static, with no text shrunk, cut or outside its view, and compared
// views on one scale.
//
// They read row-samples.ipynb, written by `go run ./sdk/internal/samples`
// into a temporary directory (or found in $SUPERSTEP_SAMPLES): two rings
// (4×4×4 and 4×4×8 tori), three rings, and two trends (hosts, workers).
// The checks, in a page 1,000 px wide:
//
//   live     every item turns live; the items share one top (one line);
//            nothing reaches past 1,000 px (no item, no horizontal
//            scroll); every view is as wide as its spec says (laid out
//            for its share, not shrunk) and its text is inside it and at
//            least 10 px; rings show one scale (the same "scale 0–…"
//            legend), trends the same plot x-range (row baselines) and
//            the same scale label per panel;
//   static   with scripts off, the pictures sit on one line at their own
//            width (not shrunk), within 1,000 px.
//
// Run: npm ci && node --test row.test.mjs

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { outputPages, samples as samplesOf } from './page.mjs';

const samples = samplesOf('row-samples.ipynb').filter((s) => s.sample.kind === 'row');
const WIDTH = 1000;
const show = outputPages({ viewport: { width: WIDTH, height: 1000 }, title: 'row' });

/** Each row item's box and its views' boxes, widths and texts. */
async function measure(page) {
  return page.evaluate(() => {
    const box = (e) => {
      const r = e.getBoundingClientRect();
      return { x: r.left, y: r.top, right: r.right, bottom: r.bottom, w: r.width, h: r.height };
    };
    const items = [...document.querySelectorAll('.superstep-row-item')].map((it) => {
      const svgs = [...it.querySelectorAll('svg')].filter((s) => s.getBoundingClientRect().width > 0);
      const texts = [];
      for (const s of svgs) {
        const sb = s.getBoundingClientRect();
        for (const t of s.querySelectorAll('text')) {
          if (!t.textContent.trim()) continue;
          const tb = t.getBoundingClientRect();
          if (!tb.width) continue;
          texts.push({ text: t.textContent, size: parseFloat(getComputedStyle(t).fontSize), x0: tb.left - sb.left, x1: tb.right - sb.left, w: sb.width, svg: s.getAttribute('class') || '' });
        }
      }
      return {
        box: box(it),
        imgs: [...it.querySelectorAll('img')].map((i) => ({ ...box(i), attr: Number(i.getAttribute('width')) })),
        views: [...it.querySelectorAll('.ss-ringgraph, svg.ss-trend')].map((v) => ({ ...box(v), cls: v.getAttribute('class') })),
        texts,
        scale: [...it.querySelectorAll('.ss-legend span')].map((s) => s.textContent).find((t) => t.startsWith('link width')) || '',
        baselines: [...it.querySelectorAll('svg.ss-trend g.ss-row line')].map((l) => l.getAttribute('x1') + '–' + l.getAttribute('x2')),
        maxLabels: [...it.querySelectorAll('svg.ss-trend > text')].map((t) => t.textContent).filter((t) => /^(max|scale) /.test(t)),
        clips: it.querySelectorAll('svg.ss-trend .ss-clip').length,
      };
    });
    return { items, scrollWidth: document.documentElement.scrollWidth };
  });
}

function oneLine(items, what) {
  const top = items[0].box.y;
  for (const [i, it] of items.entries()) {
    assert.ok(Math.abs(it.box.y - top) <= 1, `${what}: item ${i} at y ${it.box.y}, item 0 at ${top}: not on one line`);
    assert.ok(it.box.right <= WIDTH, `${what}: item ${i} reaches ${it.box.right} px, past ${WIDTH}`);
  }
}

describe('row', () => {
  test('samples: two rings, three rings, two trends', () => {
    assert.deepEqual(samples.map((s) => [s.sample.of, s.sample.items]), [['ringgraph', 2], ['ringgraph', 3], ['trend', 2]]);
  });

  for (const s of samples) {
    const name = `${s.sample.items} ${s.sample.of}s`;
    test(`live: ${name} side by side within ${WIDTH} px, text whole, one scale`, async () => {
      const { page, problems, close } = await show(s.html);
      const live = await page.locator('.superstep-display[data-live="1"]').count();
      assert.equal(live, s.sample.items, 'every item turns live');
      const { items, scrollWidth } = await measure(page);
      assert.equal(items.length, s.sample.items);
      assert.ok(scrollWidth <= WIDTH, `the page scrolls sideways: ${scrollWidth} px`);
      oneLine(items, 'live');
      for (const [i, it] of items.entries()) {
        assert.equal(it.views.length, 1, `item ${i}: one live view`);
        const v = it.views[0];
        assert.ok(v.right <= WIDTH && v.w <= it.box.w + 0.5, `item ${i}: view ${v.w} px wide in a ${it.box.w} px item`);
        // Laid out for its share, not shrunk: its width is the row's share.
        assert.ok(v.w <= (s.sample.width - 8 * (s.sample.items - 1)) / s.sample.items, `item ${i}: ${v.w} px, more than its share`);
        assert.ok(v.w >= 200, `item ${i}: only ${v.w} px`);
        for (const t of it.texts) {
          assert.ok(t.size >= 10, `item ${i}: "${t.text}" at ${t.size} px`);
          assert.ok(t.x0 >= -0.5 && t.x1 <= t.w + 0.5, `item ${i}: "${t.text}" spans ${t.x0.toFixed(1)}–${t.x1.toFixed(1)} in a ${t.w} px ${t.svg}`);
          assert.ok(!t.text.endsWith('…'), `item ${i}: "${t.text}" is cut`);
        }
      }
      if (s.sample.of === 'ringgraph') {
        assert.ok(items[0].scale.includes('scale 0–'), `legend: ${items[0].scale}`);
        for (const it of items) assert.equal(it.scale, items[0].scale, 'one traffic scale');
      } else {
        assert.ok(items[0].baselines.length > 0);
        assert.deepEqual(new Set(items[1].baselines), new Set(items[0].baselines), 'one plot x-range');
        // A panel's scale: "scale 0–X…" where it is not the panel's own
        // largest value, else "max X".
        const scales = (it) => it.maxLabels.map((t) => (t.match(/^scale 0–([^,· ]+)/) || t.match(/^max (\S+)/))[1]);
        assert.equal(items[0].maxLabels.length, 3);
        assert.deepEqual(scales(items[1]), scales(items[0]), 'one scale per panel');
        assert.ok(items.some((it) => it.clips > 0), 'the noisy time panel is clipped, with marks');
      }
      assert.deepEqual(problems, []);
      await close();
    });

    test(`static: ${name} side by side within ${WIDTH} px at their own width`, async () => {
      const { page, close } = await show(s.html, { scripts: false });
      const { items, scrollWidth } = await measure(page);
      assert.ok(scrollWidth <= WIDTH, `the page scrolls sideways: ${scrollWidth} px`);
      oneLine(items, 'static');
      for (const [i, it] of items.entries()) {
        assert.equal(it.imgs.length, 1, `item ${i}: one picture`);
        const img = it.imgs[0];
        assert.ok(Math.abs(img.w - img.attr) <= 0.5, `item ${i}: picture shown ${img.w} px, drawn ${img.attr} px (shrunk)`);
        assert.ok(img.right <= WIDTH);
      }
      await close();
    });
  }
});
