// The trend view: stacked small multiples over a paginated time axis. All
// positions come from the spec's layout (computed in Go, display/views/trend.go);
// this file only draws a page of it.
import { newSVG, hatch, text, add, rect, legend, darken, fmt, uid, html, measureText, fitWidth, BAR, BUTTON, INK, MUTED } from './util.js';

const SMALL = { 'font-size': 10, fill: MUTED };
const CLIP = '#d62728'; // trendClipColor

/** Draws the trend spec sp; returns its controller. */
export function trendChart(root, sp, opts) {
  const L = sp.layout;
  const nf = sp.frames.length;
  const per = Math.max(1, L.perPage);
  const pages = Math.max(1, Math.ceil(nf / per));
  const step = L.plotWidth / per;
  const rowH = L.rowHeight;
  const svg = newSVG(L.width, L.height).attr('class', 'ss-trend');
  const hid = hatch(svg, uid(root) + '-hatch');
  // The title stops short of the legend at the top right (trend.go alike).
  // A title wrapped in Go (a trend on its own, narrow) is drawn line by line.
  if (sp.titleLines && sp.titleLines.length) sp.titleLines.forEach((l, i) => text(svg, 0, 16 + 16 * i, l, { 'font-size': 13, 'font-weight': 'bold', fill: INK }));
  else text(svg, 0, 16, fitWidth(sp.title, L.width - 104, 'bold 13px sans-serif'), { 'font-size': 13, 'font-weight': 'bold', fill: INK });
  legend(svg, L.width - 96, 16, hid, '');
  const grid = svg.append('g');
  const rows = [];
  if (sp.panels.length) text(svg, L.left - 6, L.axisY, 'frame', Object.assign({ 'text-anchor': 'end' }, SMALL));
  sp.panels.forEach((ps, p) => {
    const top = L.panelTop[p];
    // A title too long to sit beside the scale label goes a line above it (trend.go).
    text(svg, 0, top - 4 - (ps.titleAbove ? 13 : 0), ps.title, { 'font-weight': 'bold', fill: INK });
    text(svg, L.width - 8, top - 4, ps.maxLabel, Object.assign({ 'text-anchor': 'end' }, SMALL));
    sp.units.forEach((u, i) => {
      const yt = top + i * rowH;
      const yb = yt + rowH - 1;
      const sw = Math.min(10, rowH - 3);
      const g = add(svg, 'g', { class: 'ss-row', 'data-unit': i, 'data-unit-id': u.id, 'data-panel': p });
      rect(g, 0, yt + (rowH - sw) / 2, sw, sw, u.color);
      if (rowH >= 10) text(g, sw + 4, yt + rowH / 2 + 3.5, sp.labels[i], { fill: INK });
      add(g, 'line', { x1: L.left, x2: L.left + L.plotWidth, y1: yb, y2: yb, stroke: '#dddddd', 'stroke-width': 0.6 });
      const row = { p, i, yb, yt, g, out: add(g, 'path', { fill: u.color }) };
      if (ps.in) {
        row.inn = add(g, 'path', { fill: darken(u.color, 0.15) });
        row.inh = add(g, 'path', { fill: `url(#${hid})` });
      }
      row.pts = g.append('g');
      rows.push(row);
    });
  });
  const top0 = sp.panels.length ? L.panelTop[0] : 0;
  const bottom = L.axisY - 12;
  const marker = add(svg, 'line', { class: 'ss-marker', y1: top0 - 2, y2: bottom, stroke: INK, 'stroke-width': 1.5, 'stroke-dasharray': '4 2' })
    .style('pointer-events', 'none').style('display', 'none');

  let page = 0;
  let markerFrame = -1;
  function tip(i, f) {
    let s = sp.units[i].name + ' · frame ' + sp.frames[f];
    for (const ps of sp.panels) {
      s += '\n' + ps.title + ': ' + (ps.in ? 'out ' + fmt(ps.out[i][f]) + ' · in ' + fmt(ps.in[i][f]) : fmt(ps.out[i][f]));
    }
    return s;
  }
  const X = (j) => (L.left + j * step).toFixed(2);
  // The area between series lo and hi, as display.trendArea.
  function area(lo, hi, yb, mx) {
    if (!hi.length || mx <= 0) return '';
    const y = (v) => (yb - (Math.min(v, mx) / mx) * (rowH - 3)).toFixed(2);
    const n = hi.length;
    let d = `M${X(0)},${y(hi[0])}`;
    hi.forEach((v, j) => (d += `L${X(j + 0.5)},${y(v)}`));
    d += `L${X(n)},${y(hi[n - 1])}L${X(n)},${y(lo[n - 1])}`;
    for (let j = n - 1; j >= 0; j--) d += `L${X(j + 0.5)},${y(lo[j])}`;
    return d + `L${X(0)},${y(lo[0])}Z`;
  }
  const labelW = Math.max(0, ...sp.frames.map((f) => measureText(f, '10px sans-serif')));
  const every = Math.max(1, Math.ceil((labelW + 6) / step));

  function setPage(pg) {
    page = Math.max(0, Math.min(pages - 1, pg));
    const f0 = page * per;
    const f1 = Math.min(nf, f0 + per);
    grid.selectAll('*').remove();
    let lastRight = -Infinity;
    for (let f = f0; f < f1; f += every) {
      const xc = X(f - f0 + 0.5);
      add(grid, 'line', { x1: xc, x2: xc, y1: top0, y2: bottom, stroke: '#eeeeee' });
      // Centred where it fits, else flush with the edge it would cross
      // (as axisLabelAt in trend.go); left out if that runs it into the
      // label before.
      const tw = measureText(sp.frames[f], '10px sans-serif');
      let lx = Number(xc), anchor = 'middle', left = lx - tw / 2;
      if (lx + tw / 2 > L.width) [lx, anchor, left] = [L.width, 'end', L.width - tw];
      else if (lx - tw / 2 < L.left) [lx, anchor, left] = [L.left, 'start', L.left];
      if (left < lastRight + 4) continue;
      lastRight = left + tw;
      text(grid, lx, L.axisY, sp.frames[f], Object.assign({ 'text-anchor': anchor }, SMALL));
    }
    for (const r of rows) {
      const ps = sp.panels[r.p];
      const out = ps.out[r.i].slice(f0, f1);
      r.out.attr('d', area(out.map(() => 0), out, r.yb, ps.max));
      if (ps.in) {
        const d = area(out, out.map((v, j) => v + ps.in[r.i][f0 + j]), r.yb, ps.max);
        r.inn.attr('d', d);
        r.inh.attr('d', d);
      }
      r.pts.selectAll('*').remove();
      // A clipped scale (trend.go): a red mark over each value above it.
      if (ps.clipped) {
        for (let f = f0; f < f1; f++) {
          const v = ps.out[r.i][f] + (ps.in ? ps.in[r.i][f] : 0);
          if (v > ps.max) rect(r.pts, X(f - f0), (r.yb - (rowH - 3) - 1).toFixed(2), step.toFixed(2), 2, CLIP, { class: 'ss-clip' });
        }
      }
      for (let f = f0; f < f1; f++) {
        rect(r.pts, X(f - f0), r.yt, step.toFixed(2), rowH, null, { class: 'ss-pt', 'data-frame': f, 'data-tip': tip(r.i, f) });
      }
    }
    setMarker(markerFrame);
    if (opts.onPage) opts.onPage(page);
  }

  function setMarker(f) {
    markerFrame = f;
    const f0 = page * per;
    const on = f >= f0 && f < Math.min(nf, f0 + per);
    marker.attr('x1', X(f - f0 + 0.5)).attr('x2', X(f - f0 + 0.5)).style('display', on ? null : 'none');
  }

  const chart = {
    node: svg.node(),
    pages,
    get page() {
      return page;
    },
    setPage,
    setMarker,
    setHidden(hidden) {
      for (const r of rows) r.g.classed('ss-hidden', hidden(sp.units[r.i]));
    },
    /** Shows the page holding frame f. */
    showFrame(f) {
      if (f >= 0 && Math.floor(f / per) !== page) setPage(Math.floor(f / per));
    },
  };
  setPage(0);
  return chart;
}

/** Previous/next page buttons and the page's frame range, for chart. */
export function pager(chart, sp) {
  const bar = html('div', BAR);
  const prev = html('button', BUTTON, '◀');
  const next = html('button', BUTTON, '▶');
  const label = html('span', 'margin-left:4px');
  prev.className = 'ss-prev';
  next.className = 'ss-next';
  label.className = 'ss-page';
  prev.title = 'previous frames';
  next.title = 'next frames';
  bar.append(prev, next, label);
  const per = Math.max(1, sp.layout.perPage);
  const F = sp.frames;
  function update() {
    const f0 = chart.page * per;
    label.textContent = F.length
      ? `frames ${F[f0]} – ${F[Math.min(F.length, f0 + per) - 1]} (page ${chart.page + 1} of ${chart.pages})`
      : 'no frames';
    prev.disabled = chart.page === 0;
    next.disabled = chart.page >= chart.pages - 1;
  }
  prev.onclick = () => chart.setPage(chart.page - 1);
  next.onclick = () => chart.setPage(chart.page + 1);
  bar.update = update;
  update();
  return bar;
}
