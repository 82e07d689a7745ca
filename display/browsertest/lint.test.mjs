// The picture linter: what a reader of a figure would trip over, checked on
// every view of every executed notebook ($SUPERSTEP_NB_OUT, as in
// display.test.mjs) and every display sample ($SUPERSTEP_SAMPLES: every
// *-samples.ipynb there, or written afresh), in the live page and in the
// static picture: the SVG the PNG is drawn from, in a sample's metadata or,
// for a notebook, in $SUPERSTEP_FIGURES (where the kernel wrote it, as
// <display id>.svg, when the notebooks ran with SUPERSTEP_FIGURE_SVG_DIR):
//
//   - no two pieces of text overlap ("D-mod-ktotals", "110–111120–121");
//   - no text leaves its view, or the picture it is drawn in;
//   - no live view is wider than the output area (OUTPUT_WIDTH, a
//     JupyterLab output at a normal window width; a static picture is an
//     <img> that scales to it);
//   - every colour of a legend has one meaning: a legend entry is a small
//     swatch (a square, a dot or a short line) just left of its text, and
//     two entries of one colour must say the same thing;
//   - the views of one comparison (a row) show one quantity on one scale:
//     every live view publishes its scales on its root, as data-scales
//     ({"packets": [0, 4000], …}), and a quantity two views of a row both
//     show must have the same domain in both.
//
// Each view's findings are printed (a view with none prints nothing), and
// a test fails for any finding.
//
// Run: SUPERSTEP_NB_OUT=/tmp/nbout SUPERSTEP_SAMPLES=/tmp/samples node --test lint.test.mjs

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';

import { collectOutputs, outputPages, writeSamples } from './page.mjs';

const NB_OUT = process.env.SUPERSTEP_NB_OUT || '/tmp/nbout';
const SAMPLES = process.env.SUPERSTEP_SAMPLES || '';
const FIGURES = process.env.SUPERSTEP_FIGURES || '';
// JupyterLab 4's output area in a 1,000 px wide notebook panel.
export const OUTPUT_WIDTH = 923;

/**
 * Runs in the page: the findings for each .superstep-display (and each
 * root svg of a static picture) as [{view, findings: [text]}].
 */
function lintPage(outputWidth) {
  // A static picture is an <img> scaled to the output's width: only the
  // live view must fit (outputWidth 0: no width check).
  const visible = (el, root) => {
    for (let e = el; e && e !== root.parentElement; e = e.parentElement) {
      const cs = getComputedStyle(e);
      if (cs.display === 'none' || cs.visibility === 'hidden' || +cs.opacity === 0) return false;
    }
    return true;
  };
  const rectCorners = (r) => [[r.left, r.top], [r.right, r.top], [r.right, r.bottom], [r.left, r.bottom]];
  const overlapDepth = (p, q) => {
    let depth = Infinity;
    for (const poly of [p, q]) {
      for (let i = 0; i < 2; i++) {
        let ax = poly[i + 1][0] - poly[i][0], ay = poly[i + 1][1] - poly[i][1];
        const l = Math.hypot(ax, ay);
        if (!l) continue;
        ax /= l;
        ay /= l;
        const span = (pts) => pts.reduce(([lo, hi], [x, y]) => [Math.min(lo, x * ax + y * ay), Math.max(hi, x * ax + y * ay)], [Infinity, -Infinity]);
        const [a0, a1] = span(p), [b0, b1] = span(q);
        depth = Math.min(depth, Math.min(a1, b1) - Math.max(a0, b0));
      }
    }
    return depth;
  };
  const short = (s) => JSON.stringify(s.length > 40 ? s.slice(0, 39) + '…' : s);
  const lint = (root) => {
    const findings = [];
    const rb = root.getBoundingClientRect();
    const width = Math.max(rb.width, root.scrollWidth || 0);
    if (outputWidth && width > outputWidth + 0.5) findings.push(`${Math.round(width)} px wide in a ${outputWidth} px output`);
    const texts = [];
    for (const t of root.querySelectorAll('text')) {
      const s = t.textContent.trim();
      if (!s || !visible(t, root) || t.closest('.superstep-tip')) continue;
      const r = t.getBoundingClientRect();
      if (!(r.width > 0 && r.height > 0)) continue;
      // Turned text (a ring's labels) as its own rectangle, not the
      // upright box around it.
      const b = t.getBBox(), m = t.getScreenCTM();
      const corners = m && [[b.x, b.y], [b.x + b.width, b.y], [b.x + b.width, b.y + b.height], [b.x, b.y + b.height]]
        .map(([x, y]) => [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f]);
      texts.push({ el: t, r, s, box: t.ownerSVGElement, corners });
    }
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n; (n = walker.nextNode());) {
      const s = n.textContent.trim();
      const p = n.parentElement;
      if (!s || !p || p.closest('svg, script, style, .superstep-tip, option, select') || !visible(p, root)) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      for (const r of range.getClientRects()) if (r.width > 0 && r.height > 0) texts.push({ el: p, r, s, box: null });
    }
    for (const t of texts) {
      const r = t.r;
      const outOf = (b, what) => {
        if (r.left < b.left - 1 || r.right > b.right + 1 || r.top < b.top - 1 || r.bottom > b.bottom + 1) {
          findings.push(`text ${short(t.s)} leaves ${what} (${Math.round(r.left - b.left)}..${Math.round(r.right - b.left)} × ${Math.round(r.top - b.top)}..${Math.round(r.bottom - b.top)} in ${Math.round(b.width)} × ${Math.round(b.height)})`);
          return true;
        }
        return false;
      };
      if (!outOf(rb, 'its view') && t.box) outOf(t.box.getBoundingClientRect(), 'its picture');
    }
    // Text boxes include the font's ascent and descent: two lines set
    // tightly may touch by a pixel or two; letters that run into each
    // other overlap by more.
    for (let i = 0; i < texts.length; i++) {
      for (let j = i + 1; j < texts.length; j++) {
        const a = texts[i], b = texts[j];
        if (a.el === b.el || a.el.contains(b.el) || b.el.contains(a.el)) continue;
        const ix = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
        const iy = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
        if (!(ix > 1.5 && iy > 2)) continue;
        // How deep the two rectangles reach into each other: the least
        // overlap of their shadows on the four edge directions.
        const depth = overlapDepth(a.corners || rectCorners(a.r), b.corners || rectCorners(b.r));
        const thin = Math.min(a.r.height, b.r.height, a.r.width, b.r.width);
        if (depth > Math.max(1.5, 0.3 * thin)) {
          findings.push(`text ${short(a.s)} overlaps ${short(b.s)} by ${depth.toFixed(1)} px`);
        }
      }
    }
    // Legend entries: swatches at most 14 px tall ending at most 10 px
    // left of a text, level with it. The swatch is what a reader sees:
    // every shape there (a hatch over a fill, a ring round a dot), each
    // with its shape, size, fill and stroke; its colour is its first
    // shape's fill (a line's stroke).
    const meaning = new Map();
    const none = (c) => !c || c === 'none' || c === 'rgba(0, 0, 0, 0)';
    const shapes = [...root.querySelectorAll('rect, circle, line, path, polygon')].filter((e) => visible(e, root) && !e.closest('.superstep-tip'));
    const boxes = shapes.map((e) => ({ e, r: e.getBoundingClientRect() })).filter(({ r }) => r.height <= 14 && r.width <= 24 && r.width > 0 && r.height > 0);
    for (const t of texts) {
      if (!t.box || (t.corners && Math.abs(t.corners[0][1] - t.corners[1][1]) > 0.5)) continue; // upright SVG text only
      const mid = (t.r.top + t.r.bottom) / 2;
      const at = boxes.filter(({ r }) => r.right <= t.r.left + 1 && r.right >= t.r.left - 10 && r.top <= mid && r.bottom >= mid);
      if (!at.length) continue;
      let colour = '';
      const look = at.map(({ e, r }) => {
        const cs = getComputedStyle(e);
        const fill = none(cs.fill) ? '' : cs.fill;
        const stroke = none(cs.stroke) || !(parseFloat(cs.strokeWidth) > 0) ? '' : cs.stroke;
        // A white dot with a coloured ring says its ring's colour.
        const white = fill === 'rgb(255, 255, 255)';
        colour ||= fill && !fill.startsWith('url') && !(white && stroke) ? fill : stroke;
        // What tells keys of one colour apart: hatching, dashes, or a
        // dot's size (a size legend).
        const size = e.tagName === 'circle' ? Math.round(r.width) : '';
        return `${fill.startsWith('url') ? 'hatched' : ''} ${cs.strokeDasharray === 'none' ? '' : cs.strokeDasharray} ${size}`;
      }).sort().join(' + ');
      if (!colour) continue;
      if (!meaning.has(colour)) meaning.set(colour, new Map());
      const looks = meaning.get(colour);
      if (!looks.has(look)) looks.set(look, new Set());
      looks.get(look).add(t.s.split(' · ')[0]); // "in · ribbon colour: …" says "in"
    }
    // One look, several texts: one colour with several meanings. (One
    // colour hatched and solid, dashed, or in dots of several sizes, is
    // a key of each.)
    for (const [colour, looks] of meaning) {
      for (const says of looks.values()) {
        if (says.size > 1) findings.push(`legend colour ${colour} means ${[...says].map(short).join(' and ')}`);
      }
    }
    return findings;
  };
  const views = [...document.querySelectorAll('.superstep-display')];
  const roots = views.length ? views : [...document.querySelectorAll('body > svg')];
  const found = roots.map((root, i) => ({ view: i, findings: [...new Set(lint(root))] }));
  // One scale across a comparison.
  for (const row of document.querySelectorAll('.superstep-row')) {
    const seen = new Map();
    for (const root of row.querySelectorAll('.superstep-display')) {
      const i = views.indexOf(root);
      let scales = {};
      try {
        scales = JSON.parse(root.getAttribute('data-scales') || '{}');
      } catch (e) {
        found[i].findings.push(`data-scales is not JSON: ${e.message}`);
      }
      for (const [q, domain] of Object.entries(scales)) {
        const d = JSON.stringify(domain);
        if (seen.has(q) && seen.get(q).d !== d) {
          found[i].findings.push(`${q} on ${d} here, on ${seen.get(q).d} in view ${seen.get(q).i} of the same comparison`);
        } else if (!seen.has(q)) seen.set(q, { d, i });
      }
    }
  }
  return found;
}

/** The outputs to lint: the notebooks' and the samples' that hold a view. */
function outputsToLint() {
  const dirs = NB_OUT.split(':').filter((d) => d && fs.existsSync(d));
  const notebooks = collectOutputs(dirs);
  let samplesDir = SAMPLES === 'off' ? '' : SAMPLES || writeSamples();
  const samples = samplesDir ? collectOutputs([samplesDir]) : [];
  return [...notebooks, ...samples].filter((o) => o.html.includes('superstep-display'));
}

/** The static pictures of an output: its sample's SVG, or its displays'. */
function staticPictures(out) {
  if (out.sample && out.sample.svg) return [out.sample.svg];
  if (!FIGURES) return [];
  const ids = [...out.html.matchAll(/class="superstep-display" id="(ss-[0-9a-f]+)"/g)].map((m) => m[1]);
  return ids.map((id) => `${FIGURES}/${id}.svg`).filter((f) => fs.existsSync(f)).map((f) => fs.readFileSync(f, 'utf8'));
}

const show = outputPages({ viewport: { width: OUTPUT_WIDTH + 16, height: 900 } });
const outputs = outputsToLint();

describe('picture linter', () => {
  test('there are views to lint', () => {
    assert.ok(outputs.length > 0, `no view in ${NB_OUT} or the samples`);
  });
  test('every notebook view has its static picture', { skip: !FIGURES && 'SUPERSTEP_FIGURES not set' }, () => {
    const missing = outputs.filter((o) => !o.sample && !staticPictures(o).length).map((o) => o.label);
    assert.deepEqual(missing, [], `no SVG in ${FIGURES} for these outputs`);
  });
  for (const out of outputs) {
    test(`live: ${out.label}`, async () => {
      const { page, close } = await show(out.html);
      try {
        const found = (await page.evaluate(lintPage, OUTPUT_WIDTH)).filter((v) => v.findings.length);
        for (const v of found) console.log(`${out.label} view ${v.view}:\n  ${v.findings.join('\n  ')}`);
        assert.deepEqual(found, [], 'the linter found problems (printed above)');
      } finally {
        await close();
      }
    });
    staticPictures(out).forEach((svg, k) => {
      const label = `${out.label}${k ? ` (picture ${k + 1})` : ''}`;
      test(`static: ${label}`, async () => {
        const { page, close } = await show(svg, { scripts: false });
        try {
          const found = (await page.evaluate(lintPage, 0)).filter((v) => v.findings.length);
          for (const v of found) console.log(`${label} (static) view ${v.view}:\n  ${v.findings.join('\n  ')}`);
          assert.deepEqual(found, [], 'the linter found problems (printed above)');
        } finally {
          await close();
        }
      });
    });
  }
});
