// The chord diagram (GiViP's Frame View). Every angle comes from the spec
// (views.ChordLayout in Go); this file draws them and animates between
// frames with a d3 transition that interpolates the angles.
import { interpolate } from 'd3-interpolate';
import { ribbon } from 'd3-chord';
import { arc } from 'd3-shape';
import 'd3-transition';
import { newSVG, hatch, text, add, rect, legend, fmt, uid, html, BAR, darken, INK, MUTED } from './util.js';

const DURATION = 750;
// The legend's words, as views.chordLegend, chordLegend2 and chordLegend3.
const LEGEND = " · ribbon colour: the sender's";
const LEGEND2 = 'self: traffic within a unit (dark band on arcs and bar)';
const LEGEND3 = "top bar: the frame's total; full: the busiest frame's";
// The volume bar under the header and the self band's colours, as
// views.chordBarY, chordBarH, chordBarTrack, chordBarBetween, chordSelfInk
// and chordSelfDarken.
const BAR_Y = 35;
const BAR_H = 5;
const BAR_TRACK = '#eeeeee';
const BAR_BETWEEN = '#9e9e9e';
const SELF_INK = '#333333';
const SELF_DARKEN = 0.55;

const n2 = (x) => String(Math.round(x * 100) / 100);

/** The point at radius r, angle a (clockwise from 12 o'clock), as "x,y". */
function pt(cx, cy, r, a) {
  return n2(cx + r * Math.sin(a)) + ',' + n2(cy - r * Math.cos(a));
}

// Arcs are d3-shape's annular sectors, drawn around the origin (their paths
// carry the centre's translation; display.annulusPath draws the same shape
// for the static picture).
const annulus = arc();

/** An annular sector between radii r0 and r1 and angles a0 and a1, around the origin. */
export function arcPath(r0, r1, a0, a1) {
  if (a1 - a0 < 1e-9) return '';
  return annulus({ innerRadius: r0, outerRadius: r1, startAngle: a0, endAngle: a1 });
}

// Ribbons are d3-chord's, drawn around the origin (display.ribbonPath
// draws the same path for the static picture).
const ribbonShape = ribbon();

/** A ribbon between the angles [a0, a1] and [b0, b1] on the circle of radius r around the origin. */
export function ribbonPath(r, a0, a1, b0, b1) {
  return ribbonShape({ source: { startAngle: a0, endAngle: a1, radius: r }, target: { startAngle: b0, endAngle: b1, radius: r } });
}

/** Draws the chord spec sp at frame sp.selected; returns its controller. */
export function chordChart(root, sp) {
  const D = sp.dims;
  const cx = D.cx;
  const cy = D.cy;
  const svg = newSVG(D.width, D.height).attr('class', 'ss-chord');
  const hid = hatch(svg, uid(root) + '-hatch');
  const head = text(svg, 4, 15, '', { class: 'ss-head', 'font-size': 12, 'font-weight': 'bold', fill: INK });
  const count = text(svg, D.width - 4, 15, '', { 'text-anchor': 'end', fill: MUTED });
  const total = text(svg, 4, 31, '', { class: 'ss-total', fill: INK });
  // The volume bar: the frame's total on the busiest frame's scale, its
  // traffic between units then within them (dark).
  const barW = D.width - 8;
  const bar = add(svg, 'g', { class: 'ss-volume' });
  rect(bar, 4, BAR_Y, barW, BAR_H, BAR_TRACK, { class: 'ss-volume-track' });
  const barBetween = rect(bar, 4, BAR_Y, 0, BAR_H, BAR_BETWEEN, { class: 'ss-volume-between' });
  const barSelf = rect(bar, 4, BAR_Y, 0, BAR_H, SELF_INK, { class: 'ss-volume-self' });
  const ringG = svg.append('g');
  const ribbonG = add(svg, 'g', { class: 'ss-ribbons', transform: `translate(${n2(cx)},${n2(cy)})` });
  const arcG = svg.append('g');
  legend(svg, 4, D.height - 30, hid, LEGEND);
  rect(svg, 4, D.height - 26, 10, 10, SELF_INK);
  text(svg, 17, D.height - 17, LEGEND2, { 'font-size': 10, fill: MUTED });
  text(svg, 4, D.height - 4, LEGEND3, { 'font-size': 10, fill: MUTED });

  const centre = `translate(${n2(cx)},${n2(cy)})`;
  // Rings: a path and a label per group.
  const rings = sp.rings.map((ring, r) =>
    ring.groups.map((g) => {
      const el = add(ringG, 'g', { 'data-tip': g.name });
      return {
        g,
        el,
        path: add(el, 'path', { fill: g.color, stroke: '#fff', 'stroke-width': 0.5, transform: centre }),
        label: add(el, 'text', { 'text-anchor': 'middle', dy: '0.35em', 'font-size': 10, fill: g.ink }).style('pointer-events', 'none').text(g.name),
      };
    }),
  );
  // Arcs: in (colour and hatch), out and a label, per unit.
  const arcs = sp.units.map((u) => {
    const el = add(arcG, 'g', { class: 'ss-arc', 'data-unit-id': u.id });
    return {
      el,
      inn: add(el, 'path', { fill: u.color, transform: centre }),
      inh: add(el, 'path', { fill: `url(#${hid})`, transform: centre }),
      out: add(el, 'path', { fill: u.color, transform: centre }),
      // The self band, above in and out, as high as the unit's self traffic.
      self: add(el, 'path', { class: 'ss-self', fill: darken(u.color, SELF_DARKEN), transform: centre }),
      label: add(arcG, 'text', { fill: INK }).text(u.name),
    };
  });
  const ribbons = new Map(); // "src-dst" → {el, s, d, cur: [a0, a1, b0, b1], gone}

  let frame = -1;
  let cur = null; // what is drawn: {arcs: [[in start, in end, out end, thickness]], rings: [[[start, end]]]}
  let token = 0;
  let hidden = () => false;

  function draw(st, ribbonStates) {
    st.arcs.forEach((a, i) => {
      const r1 = D.r0 + D.arcMax * a[3];
      // A spec without arcBase (an older one) has no self band.
      const rb = D.arcBase != null ? Math.min(r1, D.r0 + D.arcBase) : r1;
      const pin = arcPath(D.r0, rb, a[0], a[1]);
      const A = arcs[i];
      A.inn.attr('d', pin);
      A.inh.attr('d', pin);
      A.out.attr('d', arcPath(D.r0, rb, a[1], a[2]));
      A.self.attr('d', r1 > rb + 0.01 ? arcPath(rb, r1, a[0], a[2]) : '');
      // The label, placed as display.chordLabel does.
      const m = (a[0] + a[2]) / 2;
      const s = Math.sin(m);
      const c = Math.cos(m);
      A.label.attr('x', n2(cx + D.labelR * s)).attr('y', n2(cy - D.labelR * c + 4 - 5 * c))
        .attr('text-anchor', s > 0.15 ? 'start' : s < -0.15 ? 'end' : 'middle');
    });
    st.rings.forEach((ring, r) =>
      ring.forEach((iv, k) => {
        const ri = D.rings[r];
        const it = rings[r][k];
        const m = (iv[0] + iv[1]) / 2;
        it.path.attr('d', arcPath(ri, ri + D.ringWidth, iv[0], iv[1]));
        it.label.attr('transform', `translate(${pt(cx, cy, ri + D.ringWidth / 2, m)}) rotate(${n2((m * 180) / Math.PI + (Math.cos(m) < 0 ? 180 : 0))})`);
      }),
    );
    for (const [rb, c] of ribbonStates) rb.el.attr('d', ribbonPath(D.r0 - 1, c[0], c[1], c[2], c[3]));
  }

  function visibility() {
    const fr = sp.frames[frame];
    arcs.forEach((a, i) => {
      const off = hidden(sp.units[i]);
      const t = fr.totals[i];
      a.el.classed('ss-hidden', off)
        .attr('data-tip', `${sp.units[i].name}\nin ${fmt(t[0])} · out ${fmt(t[1])} · self ${fmt(t[2])}` + (sp.weightName ? ' ' + sp.weightName : ''));
      a.label.classed('ss-hidden', off || fr.labels[i] !== '1');
      const tip = fr.selfTips ? fr.selfTips[i] : '';
      a.self.attr('data-tip', tip || null).style('display', tip ? null : 'none');
    });
    for (const rb of ribbons.values()) rb.el.classed('ss-hidden', hidden(sp.units[rb.s]) || hidden(sp.units[rb.d]));
    rings.forEach((ring, r) =>
      ring.forEach((it, k) => {
        let all = true;
        for (let u = it.g.first; u <= it.g.last; u++) if (!hidden(sp.units[u])) all = false;
        it.el.classed('ss-hidden', all);
        it.label.style('display', fr.ringLabels[r][k] === '1' ? null : 'none');
      }),
    );
  }

  /** Shows frame f, animated from what is drawn unless animate is false. */
  function setFrame(f, animate) {
    f = Math.max(0, Math.min(sp.frames.length - 1, f));
    if (f === frame) return;
    frame = f;
    root.setAttribute('data-frame', String(f));
    const fr = sp.frames[f];
    head.text('frame ' + (fr.label || f + 1));
    count.text(`${f + 1} of ${sp.frames.length}`);
    total.text(fr.total || '');
    const vol = fr.volume || [0, 0];
    barBetween.attr('width', n2(barW * vol[0]));
    barSelf.attr('x', n2(4 + barW * vol[0])).attr('width', n2(barW * vol[1]));
    bar.attr('data-tip', fr.volumeTip || null);
    // Ribbon targets: present ones move; new ones grow from nothing; absent
    // ones shrink to nothing and go.
    const targets = new Map();
    fr.ribbons.forEach((r, k) => {
      const key = r[0] + '-' + r[1];
      let rb = ribbons.get(key);
      if (!rb) {
        const col = sp.units[r[0]].color;
        const el = add(ribbonG, 'path', {
          class: 'ss-ribbon', 'data-key': key, 'data-src': sp.units[r[0]].id, 'data-dst': sp.units[r[1]].id,
          fill: col, 'fill-opacity': 0.62, stroke: darken(col, 0.3), 'stroke-opacity': 0.8, 'stroke-width': 0.5,
        });
        rb = { el, s: r[0], d: r[1], cur: [r[2], r[2], r[4], r[4]] };
        ribbons.set(key, rb);
      }
      rb.gone = false;
      rb.el.attr('data-tip', fr.tips[k]);
      targets.set(rb, r.slice(2));
    });
    for (const rb of ribbons.values()) {
      if (!targets.has(rb)) {
        const m0 = (rb.cur[0] + rb.cur[1]) / 2;
        const m1 = (rb.cur[2] + rb.cur[3]) / 2;
        targets.set(rb, [m0, m0, m1, m1]);
        rb.gone = true;
      }
    }
    const to = { arcs: fr.arcs, rings: fr.rings };
    visibility();
    if (!animate || !cur) {
      cur = to;
      for (const [rb, t] of targets) rb.cur = t;
      draw(cur, targets);
      return finish();
    }
    const ist = interpolate(cur, to);
    const irb = [...targets].map(([rb, t]) => [rb, interpolate(rb.cur, t)]);
    const mine = ++token;
    busy(true);
    svg.transition('frame').duration(DURATION) // eased cubic in-out, d3's default
      .tween('frame', () => (t) => {
        cur = ist(t);
        draw(cur, irb.map(([rb, i]) => [rb, (rb.cur = i(t))]));
      })
      .on('end', () => mine === token && finish());
  }

  function finish() {
    for (const [key, rb] of ribbons) {
      if (rb.gone) {
        rb.el.remove();
        ribbons.delete(key);
      }
    }
    busy(false);
  }

  // data-busy is on root while a transition of any chart drawn in it runs
  // (CompareChords draws several charts in one root).
  function busy(on) {
    const set = (root.ssBusy = root.ssBusy || new Set());
    if (on) set.add(svg);
    else set.delete(svg);
    if (set.size) root.setAttribute('data-busy', '1');
    else root.removeAttribute('data-busy');
  }

  if (sp.frames.length) setFrame(sp.selected, false);
  else text(svg, cx, cy, 'no frames', { 'text-anchor': 'middle', fill: MUTED });
  return {
    node: svg.node(),
    setFrame,
    setHidden(fn) {
      hidden = fn;
      if (frame >= 0) visibility();
    },
  };
}

/** A frame slider: input type=range and the frame's label; onFrame(f) on input. */
export function frameSlider(sp, onFrame) {
  const bar = html('div', BAR);
  const input = html('input', 'flex:1;min-width:120px;max-width:320px');
  const label = html('span', 'min-width:90px');
  const n = sp.frames.length;
  Object.assign(input, { type: 'range', className: 'ss-frame', min: 0, max: Math.max(0, n - 1), step: 1, value: sp.selected });
  input.setAttribute('aria-label', 'frame');
  bar.append(html('span', '', 'frame'), input, label);
  function show(f) {
    const l = sp.frames[f].label;
    label.textContent = l && l !== String(f + 1) ? `${l} (${f + 1} of ${n})` : `${f + 1} of ${n}`;
  }
  input.oninput = () => {
    show(+input.value);
    onFrame(+input.value);
  };
  if (n) show(sp.selected);
  return bar;
}

/**
 * Several chord charts side by side in one row (views.CompareChords), with
 * one slider that moves all of them to the same frame index.
 */
export function chordsView(root, img, sp) {
  if (!sp.items.length) return false; // the static picture says so
  const row = html('div', 'display:flex;flex-wrap:nowrap;align-items:flex-start;gap:' + (sp.x.length > 1 ? sp.x[1] - sp.x[0] - sp.items[0].dims.width : 0) + 'px');
  const charts = sp.items.map((it, i) => {
    const cell = html('div', 'flex:none');
    cell.className = 'ss-chord-item';
    const cap = html('div', `font:bold 13px sans-serif;height:${sp.top}px;line-height:${sp.top}px;color:${INK}`, sp.captions[i]);
    const chart = chordChart(root, Object.assign({}, it, { selected: Math.min(sp.selected, Math.max(0, it.frames.length - 1)) }));
    cell.append(cap, chart.node);
    row.append(cell);
    return chart;
  });
  const box = html('div', 'max-width:100%;overflow-x:auto');
  box.append(row);
  // The slider runs over the longest diagram's frames.
  let longest = sp.items[0];
  for (const it of sp.items) if (it && it.frames.length > longest.frames.length) longest = it;
  if (longest && longest.frames.length > 1) {
    box.append(frameSlider(Object.assign({}, longest, { selected: sp.selected }), (f) => {
      charts.forEach((c) => c.setFrame(f, true));
      root.setAttribute('data-frame', String(f));
    }));
  }
  root.setAttribute('data-frame', String(sp.selected));
  img.replaceWith(box);
  return true;
}
