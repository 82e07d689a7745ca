// The matrix board (views.MatrixBoard): TreeScope's matrix view, generic.
// Every rectangle comes from the spec (views.MatrixBoardLayout in Go);
// this file sums the items' values over the active window of bins, colours
// cells and bars through the ramp tables Go shipped (ColorScale.Index's
// formula), formats values as display.FormatValue does, and links the
// board to a time chart (a d3-brush that snaps to whole bins sets the
// window), a histogram of the visible cells' totals (a brush that snaps to
// bin edges hides the cells outside, or inside, the range), a direction
// radio, colour controls per map, a hotspot threshold and the job table
// (a selection sets the window to the jobs' common interval and fades
// everything outside their footprints). Up to 20,000 cells are SVG <rect>s;
// above, they are painted on a canvas under the SVG frame and found under
// the pointer by a grid of buckets. With a forwarding table in the spec
// (views.MatrixRoutes), a click on a bar or a cell adds a source and a
// shift-click a destination, and the board keeps only the routes between
// them (routeMarks, the same computation as Go's matrixRoutes.routeMarks),
// limited to the selected jobs' endpoints.
//
// State for tests and benchmarks is on the display's root: data-window
// ("a b", inclusive bins), data-visible-cells, data-hist ("a b", bin edges,
// or ""), data-series (the time chart's series count), data-routes (the
// number of items on the selected routes, or ""), data-update-ms (the
// last update's duration).
import { brushX } from 'd3-brush';
import { select } from 'd3-selection';
import { NS, INK, MUTED, fmt, html, BAR, BUTTON, b64bytes, fitWidth, measureText, hatch } from './util.js';

const HIST_BINS = 20;
const FADE = 0.15;
const SERIES_COLORS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f'];
// The histogram's colours for directions without a colour of their own
// (Dark2: none is a time chart series' colour).
const HIST_COLORS = ['#1b9e77', '#d95f02', '#7570b3', '#e7298a', '#66a61e', '#e6ab02'];
const JOB_COLORS = ['#222222', '#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e'];
const PREFIXES = ['kB', 'MB', 'GB', 'TB', 'PB', 'EB'];

/** A base64 little-endian float32 array. */
function float32s(s) {
  const u = b64bytes(s);
  return new Float32Array(u.buffer, 0, u.length >> 2);
}

/** x.toFixed(dec) with Go's rounding of exact ties (half to even). */
function toFixedGo(x, dec) {
  const p = 10 ** dec;
  const scaled = x * p;
  const fl = Math.floor(scaled);
  if (scaled - fl === 0.5) return ((fl % 2 === 0 ? fl : fl + 1) / p).toFixed(dec);
  return x.toFixed(dec);
}

/** Go's fmt.Sprint of a float64 that is NaN or infinite. */
const goSpecial = (v) => (isNaN(v) ? 'NaN' : v > 0 ? '+Inf' : '-Inf');

/** display.FormatValue: v as the board prints it in unit. */
export function formatValue(v, unit) {
  if (unit !== 'B') return unit ? fmt(v) + ' ' + unit : fmt(v);
  if (isNaN(v) || !isFinite(v)) return goSpecial(v);
  let sign = '';
  if (v < 0) {
    sign = '-';
    v = -v;
  }
  if (Math.round(v) < 1000) return sign + String(Math.round(v)) + ' B';
  let p = 0;
  v /= 1000;
  while (v >= 999.5 && p < PREFIXES.length - 1) {
    v /= 1000;
    p++;
  }
  const dec = v >= 99.95 ? 0 : v >= 9.995 ? 1 : 2;
  return sign + toFixedGo(v, dec) + ' ' + PREFIXES[p];
}

/** Reads "1 TB", "2.5e9", "300 GB", "4k" as a number in unit (null when empty or bad). */
export function parseValue(s) {
  const m = String(s).trim().match(/^([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)\s*([kKMGTPE]?)\s*(?:[A-Za-z/]*)$/);
  if (!m) return null;
  const k = { '': 0, k: 1, K: 1, M: 2, G: 3, T: 4, P: 5, E: 6 }[m[2]];
  return Number(m[1]) * 1000 ** k;
}

/** Reads a duration: "90", "90 s", "2 min", "1.5 h", "1 d" (seconds; null when bad). */
function parseDuration(s) {
  const m = String(s).trim().match(/^(\d+\.?\d*|\.\d+)\s*(s|sec|m|min|h|d)?$/i);
  if (!m) return String(s).trim() === '' ? 0 : null;
  const k = { s: 1, sec: 1, m: 60, min: 60, h: 3600, d: 86400 }[(m[2] || 's').toLowerCase()];
  return Number(m[1]) * k;
}

function formatDuration(sec) {
  if (!isFinite(sec)) return '—';
  if (sec < 60) return Math.round(sec) + ' s';
  if (sec < 3600) return +(sec / 60).toFixed(1) + ' min';
  if (sec < 86400) return +(sec / 3600).toFixed(1) + ' h';
  return +(sec / 86400).toFixed(1) + ' d';
}

const pad = (n) => String(n).padStart(2, '0');
/** Unix seconds as Go's "2006-01-02 15:04" in UTC. */
function utc(s) {
  const d = new Date(s * 1000);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

/** ColorScale.Index's rampBucket. */
function bucket(v, lo, hi, n) {
  if (hi === lo) return v <= lo ? 0 : n - 1;
  const x = Math.floor(((v - lo) / (hi - lo)) * n);
  if (!(x >= 0)) return 0;
  if (x > n - 1) return n - 1;
  return x;
}

/** ColorScale.Index: the ramp entry of v under scale s {min, mid, max, diverging}. */
export function rampIndex(s, v) {
  if (isNaN(v)) return 0;
  if (!s.diverging) return bucket(v, s.min, s.max, 256);
  if (v < s.mid) return bucket(v, s.min, s.mid, 128);
  return 128 + bucket(v, s.mid, s.max, 128);
}

/** A ramp's hex table as 256 "#rrggbb" strings. */
function rampColors(hex) {
  const out = new Array(256);
  for (let i = 0; i < 256; i++) out[i] = '#' + hex.slice(6 * i, 6 * i + 6);
  return out;
}

/** autoDomain: least, mean (summed in order) and largest of vs; zeros when empty. */
function autoDomain(vs) {
  if (!vs.length) return [0, 0, 0];
  let lo = vs[0], hi = vs[0], sum = 0;
  for (const v of vs) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
    sum += v;
  }
  return [lo, sum / vs.length, hi];
}

function svgEl(tag, attrs, parent) {
  const el = document.createElementNS(NS, tag);
  for (const k in attrs) el.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(el);
  return el;
}

function svgText(parent, x, y, s, attrs) {
  const t = svgEl('text', Object.assign({ x, y }, attrs), parent);
  t.textContent = s;
  return t;
}

export function matrixboardView(root, img, sp) {
  const nb = sp.bins.start.length;
  const nItems = sp.items.id.length;
  const nCells = sp.cells.item.length;
  const nBars = sp.bars.x.length;
  const unit = sp.unit || '';
  const fv = (v) => formatValue(v, unit);
  const cellSize = sp.cell;
  const V = float32s(sp.values);
  // The value of item i in bin b, as matrixModel.value (NaN and ±Inf are 0; negatives, as in a difference, are kept).
  const val = (i, b) => {
    const v = V[i * nb + b];
    return Number.isFinite(v) ? v : 0;
  };
  // Missing items (MatrixItem.Missing): drawn grey and hatched, in no scale, hot share, histogram or mean.
  const missing = new Uint8Array(nItems);
  for (const i of sp.items.missing || []) missing[i] = 1;
  const missingCell = (c) => missing[sp.cells.item[c]] === 1;
  let nMissingCells = 0;
  for (let c = 0; c < nCells; c++) if (missingCell(c)) nMissingCells++;
  const MISSING_FILL = '#9e9e9e';
  const missingName = sp.missingName || 'missing';
  const cats = sp.categories || [];
  const dirOfItem = (i) => cats[sp.items.cat[i]].direction;
  const cellDir = sp.cells.item.map(dirOfItem);
  const directions = [...new Set(cats.map((c) => c.direction))];

  // Colour maps: the cells' directions, then in and out (legend order as Go's).
  const mapKeys = Object.keys(sp.maps).filter((k) => k !== 'in' && k !== 'out').sort().concat(['in', 'out'].filter((k) => sp.maps[k]));
  const maps = {};
  for (const k of mapKeys) {
    const m = sp.maps[k];
    const d = m.domain || [];
    maps[k] = {
      ramp: m.name, colors: rampColors(m.ramp), diverging: m.diverging,
      forced: [d.length ? d[0] : null, d.length === 3 ? d[1] : null, d.length ? d[d.length - 1] : null],
      scale: null,
    };
  }

  // State.
  const st = {
    win: nb ? [Math.max(0, sp.window[0]), Math.min(nb - 1, sp.window[1])] : [0, -1],
    stat: sp.stat === 'mean' ? 'mean' : 'max',
    byLevel: false, byDir: false,
    dir: 'both',
    hist: null, // [a, b): bin edges
    exclusive: false, logY: false,
    threshold: sp.threshold > 0 ? sp.threshold : 0,
    selected: new Set(), // job indices
    // Route ends: header indices and item indices, clicked (sources) and shift-clicked (destinations).
    src: { h: new Set(), i: new Set() },
    dst: { h: new Set(), i: new Set() },
  };
  const T = new Float64Array(nItems); // window totals
  const hdrN = sp.headers.length;
  const maxIn = new Float64Array(hdrN);
  const maxOut = new Float64Array(hdrN);
  const visible = new Uint8Array(nCells);
  const faded = new Uint8Array(nCells);
  const cellColor = new Array(nCells).fill('');
  let histLo = 0, histHi = 0;
  const cellBin = new Int16Array(nCells);

  // Jobs: footprints, and which jobs hold each item.
  const jobs = sp.jobs || [];
  const jobItems = jobs.map((j) => new Set(j.items));
  const itemJobs = new Map();
  jobs.forEach((j, k) => {
    for (const i of j.items) {
      if (!itemJobs.has(i)) itemJobs.set(i, []);
      itemJobs.get(i).push(k);
    }
  });
  const hasCell = new Uint8Array(nItems);
  for (const i of sp.cells.item) hasCell[i] = 1;
  // An L1's capacity: its items without a cell that enter it (host links);
  // at least the most nodes a job has under it.
  const capacity = new Float64Array(hdrN);
  for (let i = 0; i < nItems; i++) if (!hasCell[i] && sp.items.to[i] >= 0) capacity[sp.items.to[i]]++;
  for (const j of jobs) for (const [h, n] of j.stacks) capacity[h] = Math.max(capacity[h], n);

  // ----------------------------------------------------------------- routes
  const R = sp.routes;
  const ne = R ? R.endId.length : 0;
  const rowOf = new Int32Array(hdrN).fill(-1);
  const outItems = Array.from({ length: hdrN }, () => []); // header → items leaving it, in item order
  for (let i = 0; i < nItems; i++) if (sp.items.from[i] >= 0) outItems[sp.items.from[i]].push(i);
  const nextB = R ? b64bytes(R.next) : null;
  if (R) R.rows.forEach((h, k) => (rowOf[h] = k));
  /** The item by which a route to endpoint d leaves header h, or -1. */
  const nextItem = (h, d) => {
    const k = rowOf[h];
    if (k < 0) return -1;
    const p = nextB[k * ne + d];
    return p === 255 ? -1 : outItems[h][p];
  };
  /**
   * matrixRoutes.routeMarks: the items and headers on the routes between
   * every two distinct allowed endpoints that pass a source element and
   * then a destination element (at or before, at or after the marked one).
   */
  function routeMarks(srcH, srcI, dstH, dstI, allowed) {
    const items = new Uint8Array(nItems), headers = new Uint8Array(hdrN);
    const noSrc = !srcH.includes(1) && !srcI.includes(1);
    const noDst = !dstH.includes(1) && !dstI.includes(1);
    if (noSrc && noDst) return { items, headers };
    const ok = (e) => !allowed || allowed[e];
    const destAfter = new Int8Array(hdrN); // 0 unknown, 1 no, 2 yes
    const seen = new Int32Array(hdrN);
    const chain = [];
    const after = (h, d) => {
      chain.length = 0;
      let x = h, res = noDst;
      for (let steps = 0; ; steps++) {
        if (destAfter[x]) { res = destAfter[x] === 2; break; }
        if (steps > hdrN) { res = false; break; }
        chain.push(x);
        if (dstH[x]) { res = true; break; }
        const it = nextItem(x, d);
        if (x === R.endHdr[d]) { res = (it >= 0 && dstI[it] === 1) || noDst; break; } // the route ends here
        if (it < 0) { res = false; break; }
        if (dstI[it]) { res = true; break; }
        const to = sp.items.to[it];
        if (to < 0) { res = false; break; }
        x = to;
      }
      for (const c of chain) destAfter[c] = res ? 2 : 1;
      return res;
    };
    const itemAfter = (it, d) => {
      if (dstI[it]) return true;
      const e = R.endHdr[d];
      if (sp.items.from[it] === e && nextItem(e, d) === it) return noDst; // the item to d itself
      const to = sp.items.to[it];
      return to >= 0 && after(to, d);
    };
    const walk = (a, d, passed) => {
      let x = a;
      for (let steps = 0; steps <= hdrN; steps++) {
        passed = passed || srcH[x] === 1;
        if (passed && after(x, d)) headers[x] = 1;
        const it = nextItem(x, d);
        if (it >= 0) {
          passed = passed || srcI[it] === 1;
          if (passed && itemAfter(it, d)) items[it] = 1;
        }
        if (x === R.endHdr[d] || it < 0) return;
        const to = sp.items.to[it];
        if (to < 0) return;
        x = to;
      }
    };
    for (let d = 0; d < ne; d++) {
      if (!ok(d)) continue;
      destAfter.fill(0);
      for (let s = 0; s < ne; s++) {
        if (s === d || !ok(s)) continue;
        const a = R.endHdr[s];
        let flag = noSrc;
        const inItem = R.endIn[s];
        if (inItem >= 0) {
          flag = flag || srcI[inItem] === 1;
          if (flag && (dstI[inItem] === 1 || after(a, d))) items[inItem] = 1;
        }
        const key = flag ? 2 * d + 2 : 2 * d + 1;
        if (seen[a] === key || (seen[a] === 2 * d + 2 && !flag)) continue; // true marks a superset of false
        seen[a] = key;
        walk(a, d, flag);
      }
    }
    return { items, headers };
  }
  let routeItems = null, routeHeaders = null, routesDirty = true;
  const routesActive = () => st.src.h.size + st.src.i.size + st.dst.h.size + st.dst.i.size > 0;
  function computeRoutes() {
    if (!routesDirty) return;
    routesDirty = false;
    routeItems = routeHeaders = null;
    if (!R || !routesActive()) {
      root.setAttribute('data-routes', '');
      return;
    }
    const flags = (set, n) => {
      const a = new Uint8Array(n);
      for (const x of set) a[x] = 1;
      return a;
    };
    let allowed = null;
    if (st.selected.size) {
      allowed = new Uint8Array(ne);
      for (const k of st.selected) for (const e of jobs[k].ends || []) allowed[e] = 1;
    }
    const m = routeMarks(flags(st.src.h, hdrN), flags(st.src.i, nItems), flags(st.dst.h, hdrN), flags(st.dst.i, nItems), allowed);
    routeItems = m.items;
    routeHeaders = m.headers;
    let n = 0;
    for (let i = 0; i < nItems; i++) n += routeItems[i];
    root.setAttribute('data-routes', String(n));
  }
  /** A click on header h or item i: a source; with shift, a destination; again, off. */
  function toggleEnd(kind, x, shift) {
    const [mine, other] = shift ? [st.dst, st.src] : [st.src, st.dst];
    other[kind].delete(x);
    if (mine[kind].has(x)) mine[kind].delete(x);
    else mine[kind].add(x);
    routesDirty = true;
    update('routes');
  }

  // ---------------------------------------------------------------- the board
  const W = sp.w, H = sp.h;
  const board = html('div', `position:relative;width:${W}px;max-width:100%`);
  board.className = 'ss-matrixboard';
  const svg = svgEl('svg', {
    xmlns: NS, width: W, height: H, viewBox: `0 0 ${W} ${H}`, 'font-family': 'sans-serif', 'font-size': 11,
    class: 'ss-board',
  });
  svg.style.cssText = 'max-width:100%;height:auto;display:block;position:relative';
  svgEl('rect', { width: W, height: H, fill: '#ffffff' }, svg);
  // The title and the window's totals fit the board's width (Go's
  // matrixBoardSVG does the same with its estimate of the text's width).
  const TITLE_FONT = 'bold 13px sans-serif', SMALL_FONT = '10px sans-serif';
  // A board fitted to a width (sp.fit, a board in a row) may put the
  // window's text on a line of its own (sp.winPos, Go's windowPos).
  // Go's title lines (a fitted board's title wraps at its spaces).
  const titleLines = sp.titleLines && sp.titleLines.length ? sp.titleLines : [sp.title || 'Matrix board'];
  const title = fitWidth(titleLines[titleLines.length - 1], W - 4, TITLE_FONT);
  titleLines.forEach((t, i) =>
    svgText(svg, 0, 15 + 16 * i, i === titleLines.length - 1 ? title : t, { 'font-size': 13, 'font-weight': 'bold', fill: INK }));
  const fit = sp.fit > 0 ? sp.fit : 0;
  const twoLines = sp.winPos ? sp.winPos[0] === 0 && sp.winPos[1] > 15 : false;
  const winText = svgText(svg, 0, sp.winPos ? sp.winPos[1] : 15, '', { 'font-size': 10, fill: MUTED, class: 'ss-window-text' });
  for (const p of sp.panels) {
    const [x, y, , h] = p.labelBox;
    if (p.label) svgText(svg, x, y + h - 6, p.label, { fill: INK });
  }
  // The rows' names left of their bars (Go's rowLabels), when they fit.
  for (const l of sp.rowLabels || []) {
    svgText(svg, l.x, l.y, l.text, { 'font-size': 10, 'text-anchor': 'end', fill: INK, class: 'ss-row-label', 'pointer-events': 'none' });
  }
  const barG = svgEl('g', { class: 'ss-bars' }, svg);
  const bars = [];
  for (let k = 0; k < nBars; k++) {
    bars.push(svgEl('rect', {
      x: sp.bars.x[k], y: sp.bars.y[k], width: sp.bars.w[k], height: sp.bars.h[k], stroke: '#bbbbbb', 'stroke-width': 0.5,
      class: 'ss-bar', 'data-header': sp.headers[sp.bars.hdr[k]].id,
    }, barG));
    bars[k].ssHeader = sp.bars.hdr[k];
  }
  barG.style.cursor = 'pointer';
  barG.addEventListener('click', (e) => {
    if (e.target.ssHeader !== undefined) toggleEnd('h', e.target.ssHeader, e.shiftKey);
  });
  const stackG = svgEl('g', { class: 'ss-stacks' }, svg);
  let cellEls = null;
  let canvas = null;
  if (!sp.canvas) {
    const cellG = svgEl('g', { class: 'ss-cells' }, svg);
    cellEls = new Array(nCells);
    for (let c = 0; c < nCells; c++) {
      cellEls[c] = svgEl('rect', {
        x: sp.cells.x[c], y: sp.cells.y[c], width: cellSize, height: cellSize, class: 'ss-cell',
        'data-item': sp.items.id[sp.cells.item[c]],
      }, cellG);
      cellEls[c].ssCell = c;
      if (missingCell(c)) cellEls[c].setAttribute('data-missing', '1');
    }
    cellG.addEventListener('click', (e) => {
      if (e.target.ssCell !== undefined) toggleEnd('i', sp.cells.item[e.target.ssCell], e.shiftKey);
    });
  }
  const routeG = svgEl('g', { class: 'ss-route-ends', 'pointer-events': 'none' }, svg);
  const routeText = html('span', 'color:#555;margin-left:6px');
  routeText.className = 'ss-route-text';
  // The hatch over missing cells (SVG cells; the canvas draws its own).
  const missingG = svgEl('g', { class: 'ss-missing', 'pointer-events': 'none' }, svg);
  const hatchId = hatch(select(svg), (root.id || 'ss') + '-mb-missing');
  const missingEls = new Map(); // cell → its hatch
  if (cellEls) {
    for (let c = 0; c < nCells; c++) {
      if (missingCell(c)) missingEls.set(c, svgEl('rect', { x: sp.cells.x[c], y: sp.cells.y[c], width: cellSize, height: cellSize, fill: `url(#${hatchId})` }, missingG));
    }
  }
  const hotG = svgEl('g', { class: 'ss-hot', 'pointer-events': 'none' }, svg);
  const legendG = svgEl('g', { class: 'ss-legend' }, svg);
  board.append(svg);

  // Canvas: under the SVG (which lets the pointer through but on bars).
  let ctx = null;
  let grid = null;
  const dpr = window.devicePixelRatio || 1;
  if (sp.canvas) {
    canvas = html('canvas', 'position:absolute;left:0;top:0;width:100%;height:100%');
    canvas.className = 'ss-canvas';
    canvas.width = Math.round(W * dpr);
    canvas.height = Math.round(H * dpr);
    svg.style.pointerEvents = 'none';
    barG.style.pointerEvents = 'auto';
    stackG.style.pointerEvents = 'auto';
    // The SVG's white ground would hide the canvas: the canvas paints it.
    svg.firstChild.setAttribute('fill', 'none');
    board.insertBefore(canvas, svg);
    ctx = canvas.getContext('2d');
    // Buckets of cellSize: each cell is in every bucket it overlaps.
    grid = new Map();
    for (let c = 0; c < nCells; c++) {
      const x0 = Math.floor(sp.cells.x[c] / cellSize), y0 = Math.floor(sp.cells.y[c] / cellSize);
      const x1 = Math.floor((sp.cells.x[c] + cellSize) / cellSize), y1 = Math.floor((sp.cells.y[c] + cellSize) / cellSize);
      for (let gx = x0; gx <= x1; gx++) {
        for (let gy = y0; gy <= y1; gy++) {
          const key = gx * 65536 + gy;
          let l = grid.get(key);
          if (!l) grid.set(key, (l = []));
          l.push(c);
        }
      }
    }
  }
  /** The cell at board px (x, y), or -1. */
  const cellAt = (x, y) => {
    const l = grid.get(Math.floor(x / cellSize) * 65536 + Math.floor(y / cellSize));
    if (l) {
      for (const c of l) {
        const cx = sp.cells.x[c], cy = sp.cells.y[c];
        if (x >= cx && x < cx + cellSize && y >= cy && y < cy + cellSize) return c;
      }
    }
    return -1;
  };

  // --------------------------------------------------------------- computing
  function computeTotals() {
    const [a, b] = st.win;
    for (let i = 0; i < nItems; i++) {
      let t = 0;
      const base = i * nb;
      for (let k = a; k <= b; k++) {
        const v = V[base + k];
        t += Number.isFinite(v) ? v : 0;
      }
      T[i] = t;
    }
    maxIn.fill(0);
    maxOut.fill(0);
    for (let i = 0; i < nItems; i++) {
      const t = sp.items.to[i], f = sp.items.from[i];
      if (t >= 0 && T[i] > maxIn[t]) maxIn[t] = T[i];
      if (f >= 0 && T[i] > maxOut[f]) maxOut[f] = T[i];
    }
  }
  const barKey = (k) => (sp.bars.side[k] === 1 ? 'out' : 'in');
  const barValue = (k) => {
    const h = sp.bars.hdr[k], s = sp.bars.side[k];
    return s === 0 ? maxIn[h] : s === 1 ? maxOut[h] : Math.max(maxIn[h], maxOut[h]);
  };
  /** The values map key colours, as matrixModel.mapValues. */
  function mapValues(key) {
    const vs = [];
    if (key === 'in' || key === 'out') {
      const side = key === 'in' ? 0 : 1;
      for (let k = 0; k < nBars; k++) {
        if (sp.bars.side[k] === side || sp.bars.side[k] === 2) vs.push(side === 0 ? maxIn[sp.bars.hdr[k]] : maxOut[sp.bars.hdr[k]]);
      }
    } else {
      for (let c = 0; c < nCells; c++) if (cellDir[c] === key && !missingCell(c)) vs.push(T[sp.cells.item[c]]);
    }
    return vs;
  }
  /** The scales: forced ends where given, else the values' (matrixModel.scaleFor). */
  function computeScales() {
    for (const k of mapKeys) {
      const m = maps[k];
      const [fmin, fmid, fmax] = m.forced;
      let lo, mid, hi;
      if (fmin != null && fmax != null) {
        lo = fmin;
        hi = fmax;
        mid = fmid != null ? fmid : (lo + hi) / 2;
      } else {
        [lo, mid, hi] = autoDomain(mapValues(k));
        // A single-hue ramp starts at 0: white is "nothing".
        if (!m.diverging && lo > 0) lo = 0;
        if (fmin != null) lo = fmin;
        if (fmax != null) hi = fmax;
        if (fmid != null) mid = fmid;
        if (fmin != null || fmax != null) mid = Math.min(Math.max(mid, lo), hi);
      }
      m.scale = { min: lo, mid, max: hi, diverging: m.diverging };
    }
  }
  const colorOf = (key, v) => maps[key].colors[rampIndex(maps[key].scale, v)];

  /** Window and direction-visible cells' totals into the histogram's bins. */
  function computeHist() {
    let lo = Infinity, hi = -Infinity;
    for (let c = 0; c < nCells; c++) {
      if ((st.dir !== 'both' && cellDir[c] !== st.dir) || missingCell(c)) continue;
      const t = T[sp.cells.item[c]];
      if (t < lo) lo = t;
      if (t > hi) hi = t;
    }
    if (lo > hi) lo = hi = 0;
    histLo = lo;
    histHi = hi;
    for (let c = 0; c < nCells; c++) cellBin[c] = missingCell(c) ? -1 : bucket(T[sp.cells.item[c]], lo, hi, HIST_BINS);
  }

  function computeVisible() {
    let n = 0;
    for (let c = 0; c < nCells; c++) {
      let on = st.dir === 'both' || cellDir[c] === st.dir;
      // A missing cell stays, whatever the histogram's brush: it has no value to brush.
      if (on && st.hist && !missingCell(c)) {
        const inside = cellBin[c] >= st.hist[0] && cellBin[c] < st.hist[1];
        on = st.exclusive ? !inside : inside;
      }
      visible[c] = on ? 1 : 0;
      n += visible[c];
    }
    root.setAttribute('data-visible-cells', String(n));
  }

  let footItems = null, footHeaders = null;
  function computeFade() {
    computeRoutes();
    if (routeItems) {
      // Routes: everything off them fades (within the jobs' endpoints, if any are selected).
      footItems = footHeaders = null;
      for (let c = 0; c < nCells; c++) faded[c] = routeItems[sp.cells.item[c]] ? 0 : 1;
      return;
    }
    if (!st.selected.size) {
      footItems = footHeaders = null;
      faded.fill(0);
      return;
    }
    footItems = new Set();
    footHeaders = new Set();
    for (const k of st.selected) {
      for (const i of jobs[k].items) footItems.add(i);
      for (const h of jobs[k].headers) footHeaders.add(h);
    }
    for (let c = 0; c < nCells; c++) faded[c] = footItems.has(sp.cells.item[c]) ? 0 : 1;
  }

  const winStart = () => (nb && st.win[1] >= st.win[0] ? sp.bins.start[st.win[0]] : 0);
  const winEnd = () => (nb && st.win[1] >= st.win[0] ? sp.bins.end[st.win[1]] : 0);
  const jobStart = (j) => (j.start ? j.start : -Infinity);
  const jobEnd = (j) => (j.end ? j.end : Infinity);
  const overlapsWindow = (j) => nb > 0 && jobStart(j) < winEnd() && jobEnd(j) > winStart();

  /** The jobs a cell's tooltip lists: the selected ones, else those overlapping the window. */
  function tipJobs() {
    if (st.selected.size) return st.selected;
    const s = new Set();
    jobs.forEach((j, k) => overlapsWindow(j) && s.add(k));
    return s;
  }
  let listed = new Set();
  function cellTip(c) {
    const i = sp.cells.item[c];
    if (missing[i]) return sp.items.name[i] + '\n' + missingName + ': no data';
    let s = sp.items.name[i] + '\n' + fv(T[i]);
    const js = itemJobs.get(i);
    if (js) {
      const ids = js.filter((k) => listed.has(k)).map((k) => jobs[k].id);
      if (ids.length) s += '\nused by ' + ids.join(', ');
    }
    return s;
  }
  const barTip = (k) => {
    const h = sp.bars.hdr[k];
    return `${sp.headers[h].id}\nin ${fv(maxIn[h])} · out ${fv(maxOut[h])}`;
  };

  // ----------------------------------------------------------------- drawing
  const hot = (c) => st.threshold > 0 && T[sp.cells.item[c]] >= st.threshold && !missingCell(c);
  const cellTips = cellEls ? new Array(nCells).fill(null) : null;
  const cellState = cellEls ? new Int8Array(nCells).fill(-1) : null; // 0 shown, 1 hidden, 2 faded

  function drawCells() {
    listed = tipJobs();
    for (let c = 0; c < nCells; c++) cellColor[c] = missingCell(c) ? MISSING_FILL : colorOf(cellDir[c], T[sp.cells.item[c]]);
    if (cellEls) {
      for (let c = 0; c < nCells; c++) {
        const el = cellEls[c];
        if (el.ssFill !== cellColor[c]) el.setAttribute('fill', (el.ssFill = cellColor[c]));
        const s = !visible[c] ? 1 : faded[c] ? 2 : 0;
        if (s !== cellState[c]) {
          if (s === 1) el.setAttribute('class', 'ss-cell ss-hidden');
          else el.setAttribute('class', 'ss-cell');
          if (s === 2) el.setAttribute('opacity', FADE), el.setAttribute('data-faded', '1');
          else el.removeAttribute('opacity'), el.removeAttribute('data-faded');
          cellState[c] = s;
        }
        const hatched = missingEls.get(c);
        if (hatched) hatched.setAttribute('visibility', visible[c] ? 'visible' : 'hidden');
        const tip = cellTip(c);
        if (tip !== cellTips[c]) el.setAttribute('data-tip', (cellTips[c] = tip));
      }
    } else paintCanvas();
    // Hot outlines, as the static picture draws them.
    hotG.textContent = '';
    if (st.threshold > 0) {
      const frag = document.createDocumentFragment();
      for (let c = 0; c < nCells; c++) {
        if (!visible[c] || !hot(c)) continue;
        svgEl('rect', {
          x: +(sp.cells.x[c] - 0.6).toFixed(4), y: +(sp.cells.y[c] - 0.6).toFixed(4), width: cellSize + 1.2, height: cellSize + 1.2,
          fill: 'none', stroke: '#000000', 'stroke-width': 1.2, 'data-item': sp.items.id[sp.cells.item[c]], class: 'ss-hotcell',
          opacity: faded[c] ? FADE : 1,
        }, frag);
      }
      hotG.appendChild(frag);
    }
  }

  function paintCanvas() {
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, W, H);
    // By colour and fade: few fillStyle changes.
    const groups = new Map();
    for (let c = 0; c < nCells; c++) {
      if (!visible[c]) continue;
      const key = cellColor[c] + (faded[c] ? 'f' : '');
      let g = groups.get(key);
      if (!g) groups.set(key, (g = []));
      g.push(c);
    }
    for (const [key, cs] of groups) {
      ctx.globalAlpha = key.endsWith('f') ? FADE : 1;
      ctx.fillStyle = key.slice(0, 7);
      ctx.beginPath();
      for (const c of cs) ctx.rect(sp.cells.x[c], sp.cells.y[c], cellSize, cellSize);
      ctx.fill();
    }
    ctx.globalAlpha = 1;
    // The hatch of the missing cells, as the static picture's pattern.
    if (nMissingCells) {
      ctx.save();
      ctx.strokeStyle = 'rgba(0,0,0,0.45)';
      ctx.lineWidth = 1.1;
      for (let c = 0; c < nCells; c++) {
        if (!visible[c] || !missingCell(c)) continue;
        const x = sp.cells.x[c], y = sp.cells.y[c];
        ctx.save();
        ctx.beginPath();
        ctx.rect(x, y, cellSize, cellSize);
        ctx.clip();
        ctx.beginPath();
        for (let d = -cellSize; d < cellSize; d += 4) {
          ctx.moveTo(x + d, y + cellSize);
          ctx.lineTo(x + d + cellSize, y);
        }
        ctx.stroke();
        ctx.restore();
      }
      ctx.restore();
    }
    if (hoverCell >= 0) {
      ctx.lineWidth = 1.5;
      ctx.strokeStyle = '#222';
      ctx.strokeRect(sp.cells.x[hoverCell], sp.cells.y[hoverCell], cellSize, cellSize);
    }
  }

  function drawBars() {
    for (let k = 0; k < nBars; k++) {
      const el = bars[k];
      el.setAttribute('fill', colorOf(barKey(k), barValue(k)));
      el.setAttribute('data-tip', barTip(k));
      const off = routeHeaders ? !routeHeaders[sp.bars.hdr[k]] : footHeaders && !footHeaders.has(sp.bars.hdr[k]);
      if (off) el.setAttribute('opacity', FADE);
      else el.removeAttribute('opacity');
    }
    drawRouteEnds();
    // Placement stacks of the selected jobs on their top bars.
    stackG.textContent = '';
    if (!st.selected.size) return;
    const used = new Float64Array(hdrN);
    const topBars = new Map();
    for (let k = 0; k < nBars; k++) {
      if (sp.bars.kind[k] !== 0) continue;
      const h = sp.bars.hdr[k];
      if (!topBars.has(h)) topBars.set(h, []);
      topBars.get(h).push(k);
    }
    [...st.selected].sort((a, b) => a - b).forEach((jk, n) => {
      const j = jobs[jk];
      for (const [h, cnt] of j.stacks) {
        const cap = capacity[h] || cnt;
        for (const k of topBars.get(h) || []) {
          const w = (sp.bars.w[k] * cnt) / cap;
          const x = sp.bars.x[k] + (sp.bars.w[k] * used[h]) / cap;
          svgEl('rect', {
            x: +x.toFixed(4), y: sp.bars.y[k] + 1, width: +w.toFixed(4), height: Math.max(1, sp.bars.h[k] - 2),
            fill: JOB_COLORS[n % JOB_COLORS.length], opacity: 0.85, class: 'ss-stack', 'data-job': j.id, 'data-n': cnt,
            'data-tip': `${j.id} on ${sp.headers[h].id}\n${cnt} of ${cap} nodes`,
          }, stackG);
        }
        used[h] += cnt;
      }
    });
  }

  /** Outlines on the route ends: sources blue, destinations red. */
  function drawRouteEnds() {
    routeG.textContent = '';
    const frag = document.createDocumentFragment();
    const ring = (x, y, w, h, colour, cls, attr, id) =>
      svgEl('rect', {
        x: +(x - 1).toFixed(4), y: +(y - 1).toFixed(4), width: +(w + 2).toFixed(4), height: +(h + 2).toFixed(4),
        fill: 'none', stroke: colour, 'stroke-width': 2, class: cls, [attr]: id,
      }, frag);
    // The cells on the routes, outlined: a lit cell may carry nothing and be white.
    if (routeItems) {
      for (let c = 0; c < nCells; c++) {
        const i = sp.cells.item[c];
        if (!routeItems[i] || !visible[c]) continue;
        svgEl('rect', {
          x: +(sp.cells.x[c] - 0.5).toFixed(4), y: +(sp.cells.y[c] - 0.5).toFixed(4), width: cellSize + 1, height: cellSize + 1,
          fill: 'none', stroke: '#333333', 'stroke-width': 1, class: 'ss-route-cell', 'data-item': sp.items.id[i],
        }, frag);
      }
    }
    for (const [ends, colour, cls] of [[st.src, '#1f77b4', 'ss-route-src'], [st.dst, '#d62728', 'ss-route-dst']]) {
      for (let k = 0; k < nBars; k++) {
        if (ends.h.has(sp.bars.hdr[k])) ring(sp.bars.x[k], sp.bars.y[k], sp.bars.w[k], sp.bars.h[k], colour, cls, 'data-header', sp.headers[sp.bars.hdr[k]].id);
      }
      for (let c = 0; c < nCells; c++) {
        const i = sp.cells.item[c];
        if (ends.i.has(i)) ring(sp.cells.x[c], sp.cells.y[c], cellSize, cellSize, colour, cls, 'data-item', sp.items.id[i]);
      }
    }
    routeG.appendChild(frag);
    routeText.textContent = !routesActive()
      ? R ? 'click a switch or a cell: a source; shift-click: a destination' : ''
      : !R ? sp.routesNote || 'This board has no forwarding table.'
      : `routes: ${st.src.h.size + st.src.i.size} source(s), ${st.dst.h.size + st.dst.i.size} destination(s)` +
        (st.selected.size ? ', between the selected jobs\' nodes' : '');
  }

  function drawLegend() {
    legendG.textContent = '';
    for (const k of mapKeys) {
      const m = maps[k];
      // Go's legendPos, in board px (a spec from before it: one row, 190 px apart).
      const [x, y] = sp.legend ? sp.legend[k] : [190 * mapKeys.indexOf(k), H - 24];
      svgText(legendG, x, y + 9, k, { 'font-size': 10, fill: MUTED });
      const x0 = x + 34;
      for (let i = 0; i < 32; i++) {
        svgEl('rect', { x: x0 + i * 4, y, width: 4, height: 10, fill: m.colors[Math.floor((i * 255) / 31)] }, legendG);
      }
      svgText(legendG, x0, y + 21, fv(m.scale.min), { 'font-size': 10, fill: MUTED });
      svgText(legendG, x0 + 128, y + 21, fv(m.scale.max), { 'font-size': 10, fill: MUTED, 'text-anchor': 'end' });
      if (m.diverging) svgText(legendG, x0 + 64, y + 21, fv(m.scale.mid), { 'font-size': 10, fill: MUTED, 'text-anchor': 'middle' });
    }
    // What the outline means (Go's hotText), over the window.
    if (sp.hotKey && st.threshold > 0) {
      const [x, y] = sp.hotKey;
      let n = 0;
      for (let c = 0; c < nCells; c++) if (hot(c)) n++;
      const pct = nCells - nMissingCells ? (100 * n) / (nCells - nMissingCells) : 0;
      svgEl('rect', { x: x + 0.6, y: y + 0.6, width: 9, height: 9, fill: '#ffffff', stroke: '#000000', 'stroke-width': 1.2, class: 'ss-hot-key' }, legendG);
      svgText(legendG, x + 14, y + 9, `outlined: ≥ ${fv(st.threshold)} (${n} cells, ${pct.toFixed(1)} %)`, { 'font-size': 10, fill: MUTED, class: 'ss-hot-text' });
    }
    // What the grey hatched cells are (Go's missingText).
    if (sp.missingKey && nMissingCells) {
      const [x, y] = sp.missingKey;
      svgEl('rect', { x, y, width: 10, height: 10, fill: MISSING_FILL, class: 'ss-missing-key' }, legendG);
      svgEl('rect', { x, y, width: 10, height: 10, fill: `url(#${hatchId})` }, legendG);
      svgText(legendG, x + 14, y + 9, `${missingName}: ${nMissingCells} ${nMissingCells === 1 ? 'cell' : 'cells'}, not drawn to scale`, { 'font-size': 10, fill: MUTED, class: 'ss-missing-text' });
    }
  }

  function drawWindowText() {
    const x = twoLines ? 0 : Math.ceil(measureText(title, TITLE_FONT)) + 12;
    winText.setAttribute('x', x);
    if (!nb || st.win[1] < st.win[0]) winText.textContent = 'no data';
    else {
      const a = utc(winStart()), b = utc(winEnd());
      const end = a.slice(0, 10) === b.slice(0, 10) ? b.slice(11) : b; // the day once
      const dates = `${a} – ${end}`, short = `${dates} (bins ${st.win[0]}–${st.win[1]} of ${nb})`;
      const full = `totals ${short}`;
      // Fitted, the first that fits of the whole text, without "totals"
      // and the interval alone (Go's windowTextIn).
      const pick = fit ? [full, short, dates].find((t) => measureText(t, SMALL_FONT) <= W - x) || dates : full;
      winText.textContent = fitWidth(pick, W - x, SMALL_FONT);
    }
    root.setAttribute('data-window', st.win[0] + ' ' + st.win[1]);
  }

  // Canvas hover: the cell under the pointer gets its tooltip on the canvas.
  let hoverCell = -1;
  if (canvas) {
    const at = (e) => {
      const b = canvas.getBoundingClientRect();
      return [((e.clientX - b.left) * W) / b.width, ((e.clientY - b.top) * H) / b.height];
    };
    canvas.addEventListener('mousemove', (e) => {
      const [x, y] = at(e);
      let c = cellAt(x, y);
      if (c >= 0 && !visible[c]) c = -1;
      if (c >= 0) {
        canvas.setAttribute('data-tip', cellTip(c));
        canvas.setAttribute('data-item', sp.items.id[sp.cells.item[c]]);
      } else {
        canvas.removeAttribute('data-tip');
        canvas.removeAttribute('data-item');
      }
      if (c !== hoverCell) {
        hoverCell = c;
        paintCanvas();
      }
    });
    canvas.addEventListener('click', (e) => {
      const [x, y] = at(e);
      const c = cellAt(x, y);
      if (c >= 0 && visible[c]) toggleEnd('i', sp.cells.item[c], e.shiftKey);
    });
    canvas.addEventListener('mouseleave', () => {
      if (hoverCell >= 0) {
        hoverCell = -1;
        paintCanvas();
      }
    });
  }

  // ------------------------------------------------------------- time chart
  // Fitted, the charts keep to the board's width.
  const TW = fit ? Math.max(200, Math.floor(fit)) : Math.max(420, Math.min(W, 760));
  let TH = 150;
  const tm = { l: 58, r: 8, t: 8, b: 34 };
  const tsvg = select(document.createElementNS(NS, 'svg'))
    .attr('xmlns', NS).attr('width', TW).attr('height', TH).attr('viewBox', `0 0 ${TW} ${TH}`)
    .attr('font-family', 'sans-serif').attr('font-size', 10).attr('class', 'ss-timechart')
    .style('max-width', '100%').style('height', 'auto').style('display', 'block');
  const pw = TW - tm.l - tm.r, ph = TH - tm.t - tm.b;
  const bw = nb ? pw / nb : pw;
  tsvg.attr('data-plot', `${tm.l} ${tm.t} ${pw} ${ph}`).attr('data-bins', nb);
  const seriesG = tsvg.append('g').attr('class', 'ss-series-g');
  const axisG = tsvg.append('g');
  const keyG = tsvg.append('g');

  /** The series of the grouping: [{name, items}], in category order. */
  function seriesGroups() {
    const key = (c) =>
      st.byLevel && st.byDir ? c.level + ' ' + c.direction : st.byLevel ? c.level : st.byDir ? c.direction : 'all items';
    const groups = new Map();
    const catKey = cats.map(key);
    for (const k of catKey) if (!groups.has(k)) groups.set(k, []);
    for (let i = 0; i < nItems; i++) if (!missing[i]) groups.get(catKey[sp.items.cat[i]]).push(i);
    return [...groups].filter(([, items]) => items.length).map(([name, items]) => ({ name, items }));
  }

  function drawTimeChart() {
    seriesG.selectAll('*').remove();
    axisG.selectAll('*').remove();
    keyG.selectAll('*').remove();
    const groups = seriesGroups();
    root.setAttribute('data-series', String(groups.length));
    const ys = groups.map((g) => {
      const y = new Float64Array(nb);
      for (let b = 0; b < nb; b++) {
        let m = 0, s = 0;
        for (const i of g.items) {
          const v = val(i, b);
          if (v > m) m = v;
          s += v;
        }
        y[b] = st.stat === 'max' ? m : s / g.items.length;
      }
      return y;
    });
    let top = 0;
    for (const y of ys) for (const v of y) if (v > top) top = v;
    if (!(top > 0)) top = 1;
    const Y = (v) => tm.t + ph - (v / top) * ph;
    axisG.append('line').attr('x1', tm.l).attr('x2', tm.l + pw).attr('y1', tm.t + ph).attr('y2', tm.t + ph).attr('stroke', '#999');
    axisG.append('line').attr('x1', tm.l).attr('x2', tm.l).attr('y1', tm.t).attr('y2', tm.t + ph).attr('stroke', '#999');
    for (const v of [0, top / 2, top]) {
      axisG.append('text').attr('x', tm.l - 4).attr('y', Y(v) + 3).attr('text-anchor', 'end').attr('fill', MUTED).text(fv(v));
    }
    // The statistic names the y axis, turned along it, left of the tick
    // labels (it once sat on the top tick: "max" over "900 MB").
    axisG.append('text').attr('transform', `translate(9,${tm.t + ph / 2}) rotate(-90)`).attr('text-anchor', 'middle')
      .attr('fill', MUTED).text(st.stat);
    if (nb) {
      axisG.append('text').attr('x', tm.l).attr('y', tm.t + ph + 12).attr('fill', MUTED).text(utc(sp.bins.start[0]));
      axisG.append('text').attr('x', tm.l + pw).attr('y', tm.t + ph + 12).attr('fill', MUTED).attr('text-anchor', 'end').text(utc(sp.bins.end[nb - 1]));
    } else axisG.append('text').attr('x', tm.l + pw / 2).attr('y', tm.t + ph / 2).attr('text-anchor', 'middle').attr('fill', MUTED).text('no data');
    // The key under the axis, wrapped in rows within the chart's width
    // (the chart grows a row of 14 px for each more).
    let kx = tm.l, ky = 150 - 4;
    const keyRows = [];
    for (const g of groups) {
      const w = 12 + measureText(g.name, '10px sans-serif');
      if (kx > tm.l && kx + w > TW - 2) (kx = 8), (ky += 14);
      keyRows.push([kx, ky]);
      kx += w + 10;
    }
    TH = ky + 4;
    tsvg.attr('height', TH).attr('viewBox', `0 0 ${TW} ${TH}`);
    groups.forEach((g, s) => {
      const col = SERIES_COLORS[s % SERIES_COLORS.length];
      let d = '';
      for (let b = 0; b < nb; b++) d += (b ? 'L' : 'M') + (tm.l + (b + 0.5) * bw).toFixed(2) + ',' + Y(ys[s][b]).toFixed(2);
      seriesG.append('path').attr('class', 'ss-series').attr('data-series', g.name).attr('d', d || 'M0,0')
        .attr('fill', 'none').attr('stroke', col).attr('stroke-width', 1.5);
      const [gx, gy] = keyRows[s];
      keyG.append('text').attr('x', gx + 12).attr('y', gy).attr('fill', INK).text(g.name);
      keyG.append('rect').attr('x', gx).attr('y', gy - 8).attr('width', 9).attr('height', 9).attr('fill', col);
    });
  }

  const tBrush = brushX().extent([[tm.l, tm.t], [tm.l + pw, tm.t + ph]]);
  const tBrushG = tsvg.append('g').attr('class', 'ss-time-brush');
  tBrushG.call(tBrush);
  const showWindowBrush = () => {
    const full = st.win[0] === 0 && st.win[1] === nb - 1;
    tBrushG.call(tBrush.move, full || !nb ? null : [tm.l + st.win[0] * bw, tm.l + (st.win[1] + 1) * bw]);
  };
  tBrush.on('end', (e) => {
    if (!e.sourceEvent || !nb) return;
    if (!e.selection) return setWindow([0, nb - 1], true);
    let a = Math.round((e.selection[0] - tm.l) / bw);
    let b = Math.round((e.selection[1] - tm.l) / bw);
    a = Math.max(0, Math.min(nb - 1, a));
    b = Math.max(a + 1, Math.min(nb, b));
    setWindow([a, b - 1], true);
  });

  // -------------------------------------------------------------- histogram
  const HW = fit ? Math.max(200, Math.min(380, Math.floor(fit))) : 380, HH = 150;
  const hm = { l: 34, r: 8, t: 8, b: 34 };
  const hpw = HW - hm.l - hm.r, hph = HH - hm.t - hm.b;
  const hsvg = select(document.createElementNS(NS, 'svg'))
    .attr('xmlns', NS).attr('width', HW).attr('height', HH).attr('viewBox', `0 0 ${HW} ${HH}`)
    .attr('font-family', 'sans-serif').attr('font-size', 10).attr('class', 'ss-histogram')
    .style('max-width', '100%').style('height', 'auto').style('display', 'block');
  const hBarsG = hsvg.append('g');
  const hAxisG = hsvg.append('g');
  const hbw = hpw / HIST_BINS;
  hsvg.attr('data-plot', `${hm.l} ${hm.t} ${hpw} ${hph}`).attr('data-bins', HIST_BINS);
  // A direction's bars take the colour its cells have on the board (the
  // 26th of its legend's 32 swatches), named in a key above the bars.
  // Directions whose maps would give one colour (a difference board's
  // diverging maps) take a series colour each instead.
  const swatchOf = (d) => (maps[d] ? maps[d].colors[Math.floor((25 * 255) / 31)] : null);
  const dirColor = (d) => {
    const c = swatchOf(d);
    const shared = directions.some((e) => e !== d && swatchOf(e) === c);
    return c && !shared ? c : HIST_COLORS[directions.indexOf(d) % HIST_COLORS.length];
  };

  function drawHist() {
    hBarsG.selectAll('*').remove();
    hAxisG.selectAll('*').remove();
    const counts = directions.map(() => new Array(HIST_BINS).fill(0));
    for (let c = 0; c < nCells; c++) {
      if (st.dir !== 'both' && cellDir[c] !== st.dir) continue;
      counts[directions.indexOf(cellDir[c])][cellBin[c]]++;
    }
    let top = 0;
    const tot = new Array(HIST_BINS).fill(0);
    for (const row of counts) row.forEach((n, b) => (tot[b] += n));
    for (const n of tot) top = Math.max(top, n);
    const f = st.logY ? (n) => Math.log10(1 + n) : (n) => n;
    const ftop = f(top) || 1;
    const step = (histHi - histLo) / HIST_BINS;
    for (let b = 0; b < HIST_BINS; b++) {
      let acc = 0;
      directions.forEach((d, k) => {
        const n = counts[k][b];
        if (!n) return;
        const y0 = hm.t + hph - (f(acc + n) / ftop) * hph;
        const y1 = hm.t + hph - (f(acc) / ftop) * hph;
        hBarsG.append('rect').attr('class', 'ss-hbar').attr('x', hm.l + b * hbw + 0.5).attr('y', y0)
          .attr('width', Math.max(0.5, hbw - 1)).attr('height', Math.max(0.5, y1 - y0)).attr('fill', dirColor(d))
          .attr('data-tip', `${fv(histLo + b * step)} – ${fv(histLo + (b + 1) * step)}\n${n} ${d} cells`);
        acc += n;
      });
    }
    hAxisG.append('line').attr('x1', hm.l).attr('x2', hm.l + hpw).attr('y1', hm.t + hph).attr('y2', hm.t + hph).attr('stroke', '#999');
    hAxisG.append('text').attr('x', hm.l - 4).attr('y', hm.t + 8).attr('text-anchor', 'end').attr('fill', MUTED).text(String(top));
    hAxisG.append('text').attr('x', hm.l - 4).attr('y', hm.t + hph).attr('text-anchor', 'end').attr('fill', MUTED).text('0');
    hAxisG.append('text').attr('x', hm.l).attr('y', hm.t + hph + 12).attr('fill', MUTED).text(fv(histLo));
    hAxisG.append('text').attr('x', hm.l + hpw).attr('y', hm.t + hph + 12).attr('text-anchor', 'end').attr('fill', MUTED).text(fv(histHi));
    hAxisG.append('text').attr('x', hm.l + hpw / 2).attr('y', HH - 4).attr('text-anchor', 'middle').attr('fill', MUTED)
      .text('cells by window total' + (st.logY ? ' (log count)' : ''));
    let kx = hm.l + hpw;
    for (const d of [...directions].reverse()) {
      if (st.dir !== 'both' && d !== st.dir) continue;
      kx -= 12 + measureText(d, '10px sans-serif');
      hAxisG.append('rect').attr('class', 'ss-hist-key').attr('x', kx).attr('y', hm.t).attr('width', 8).attr('height', 8).attr('fill', dirColor(d));
      hAxisG.append('text').attr('x', kx + 10).attr('y', hm.t + 8).attr('fill', INK).text(d);
      kx -= 6;
    }
  }

  const hBrush = brushX().extent([[hm.l, hm.t], [hm.l + hpw, hm.t + hph]]);
  const hBrushG = hsvg.append('g').attr('class', 'ss-hist-brush');
  hBrushG.call(hBrush);
  // The brush lies over the bars and takes the pointer: it shows the tip
  // of the bar under the pointer as its own.
  hsvg.node().addEventListener('mousemove', (e) => {
    const el = e.target;
    if (!el.closest || !el.closest('.ss-hist-brush')) return;
    const b = hsvg.node().getBoundingClientRect();
    const x = ((e.clientX - b.left) * HW) / b.width, y = ((e.clientY - b.top) * HH) / b.height;
    let tip = null;
    for (const r of hBarsG.node().children) {
      const rx = +r.getAttribute('x'), ry = +r.getAttribute('y');
      if (x >= rx && x <= rx + +r.getAttribute('width') && y >= ry && y <= ry + +r.getAttribute('height')) tip = r.getAttribute('data-tip');
    }
    if (tip) el.setAttribute('data-tip', tip);
    else el.removeAttribute('data-tip');
  });
  hBrush.on('end', (e) => {
    if (!e.sourceEvent) return;
    if (!e.selection) st.hist = null;
    else {
      let a = Math.round((e.selection[0] - hm.l) / hbw);
      let b = Math.round((e.selection[1] - hm.l) / hbw);
      a = Math.max(0, Math.min(HIST_BINS - 1, a));
      b = Math.max(a + 1, Math.min(HIST_BINS, b));
      st.hist = [a, b];
      hBrushG.call(hBrush.move, [hm.l + a * hbw, hm.l + b * hbw]);
    }
    update('hist');
  });

  // --------------------------------------------------------------- controls
  const uid = (root.id || 'ss') + '-mb';
  const label = (text, el) => {
    const l = html('label', 'display:inline-flex;align-items:center;gap:3px');
    l.append(el, text);
    return l;
  };
  const checkbox = (cls, checked, on) => {
    const c = html('input');
    c.type = 'checkbox';
    c.className = cls;
    c.checked = checked;
    c.onchange = () => on(c.checked);
    return c;
  };
  const row1 = html('div', BAR + ';flex-wrap:wrap');
  row1.className = 'ss-mb-controls';
  row1.append(html('span', '', 'show'));
  for (const d of ['both', ...directions]) {
    const r = html('input');
    r.type = 'radio';
    r.name = uid + '-dir';
    r.value = d;
    r.className = 'ss-dir';
    r.checked = d === 'both';
    r.onchange = () => {
      if (!r.checked) return;
      st.dir = d;
      update('dir');
    };
    row1.append(label(d, r));
  }
  const statSel = html('select');
  statSel.className = 'ss-stat';
  for (const s of ['max', 'mean']) statSel.append(Object.assign(html('option'), { value: s, textContent: s }));
  statSel.value = st.stat;
  statSel.onchange = () => {
    st.stat = statSel.value;
    drawTimeChart();
  };
  const reset = html('button', BUTTON, 'reset window');
  reset.className = 'ss-reset';
  reset.onclick = () => setWindow([Math.max(0, sp.window[0]), Math.min(nb - 1, sp.window[1])], true);
  row1.append(
    html('span', 'margin-left:10px', 'time chart:'), statSel,
    label('by level', checkbox('ss-by-level', false, (v) => ((st.byLevel = v), drawTimeChart()))),
    label('by direction', checkbox('ss-by-dir', false, (v) => ((st.byDir = v), drawTimeChart()))),
    reset,
  );
  const row2 = html('div', BAR + ';flex-wrap:wrap');
  row2.append(
    html('span', '', 'histogram:'),
    label('log y', checkbox('ss-logy', false, (v) => ((st.logY = v), drawHist()))),
    label('exclusive (hide cells inside the range)', checkbox('ss-exclusive', false, (v) => ((st.exclusive = v), update('hist')))),
  );
  const routeClear = html('button', BUTTON, 'clear routes');
  routeClear.className = 'ss-route-clear';
  routeClear.onclick = () => {
    for (const e of [st.src, st.dst]) e.h.clear(), e.i.clear();
    routesDirty = true;
    update('routes');
  };
  row2.append(routeClear, routeText);
  const charts = html('div', 'display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start');
  charts.append(tsvg.node(), hsvg.node());

  // Colour controls.
  const colours = html('div', BAR + ';flex-wrap:wrap');
  colours.className = 'ss-colour-controls';
  const domainInputs = {};
  for (const k of mapKeys) {
    const m = maps[k];
    const box = html('span', 'display:inline-flex;flex-wrap:wrap;align-items:center;gap:3px;margin-right:10px');
    const sel = html('select');
    sel.className = 'ss-ramp';
    sel.setAttribute('data-map', k);
    for (const name of Object.keys(sp.ramps || {})) sel.append(Object.assign(html('option'), { value: name, textContent: name }));
    sel.value = m.ramp;
    sel.onchange = () => {
      const r = sp.ramps[sel.value];
      m.ramp = sel.value;
      m.colors = rampColors(r.hex);
      m.diverging = r.diverging;
      update('colour');
    };
    box.append(html('b', 'font-weight:600', k), sel);
    domainInputs[k] = ['min', 'mid', 'max'].map((what, n) => {
      const inp = html('input', fit ? 'width:52px' : 'width:64px');
      inp.className = 'ss-dom';
      inp.placeholder = what;
      inp.setAttribute('data-map', k);
      inp.setAttribute('data-i', String(n));
      inp.setAttribute('aria-label', `${k} ${what}`);
      if (m.forced[n] != null) inp.value = fv(m.forced[n]);
      inp.onchange = () => {
        const v = parseValue(inp.value);
        m.forced[n] = inp.value.trim() === '' || v == null ? null : v;
        if (v == null) inp.value = '';
        update('colour');
      };
      box.append(inp);
      return inp;
    });
    colours.append(box);
  }
  const thr = html('input', 'width:80px');
  thr.className = 'ss-threshold';
  thr.placeholder = unit === 'B' ? 'e.g. 1 TB' : 'value';
  thr.setAttribute('aria-label', 'hotspot threshold');
  if (st.threshold > 0) thr.value = fv(st.threshold);
  thr.onchange = () => {
    const v = parseValue(thr.value);
    st.threshold = v != null && v > 0 ? v : 0;
    if (v == null) thr.value = '';
    update('colour');
  };
  colours.append(html('span', '', 'hot ≥'), thr);

  // ----------------------------------------------------------- job table
  const jobBox = html('div', 'font:12px sans-serif;color:#222;margin-top:6px');
  jobBox.className = 'ss-jobs';
  const jobRows = [];
  let sortKey = 'start', sortDir = 1;
  const filt = { dur: sp.minJobSeconds || 0, nodes: 0, overlap: false };
  if (jobs.length) {
    const fbar = html('div', BAR + ';flex-wrap:wrap');
    const durIn = html('input', 'width:70px');
    durIn.className = 'ss-job-duration';
    durIn.value = filt.dur ? formatDuration(filt.dur) : '';
    durIn.onchange = () => {
      const v = parseDuration(durIn.value);
      filt.dur = v == null ? 0 : v;
      filterJobs();
    };
    const nodesIn = html('input', 'width:50px');
    nodesIn.className = 'ss-job-nodes';
    nodesIn.type = 'number';
    nodesIn.min = '0';
    nodesIn.onchange = () => {
      filt.nodes = Number(nodesIn.value) || 0;
      filterJobs();
    };
    const clear = html('button', BUTTON, 'clear selection');
    clear.className = 'ss-job-clear';
    clear.onclick = () => {
      st.selected.clear();
      jobRows.forEach((r) => mark(r));
      routesDirty = true;
      update('jobs');
    };
    fbar.append(
      html('span', '', `jobs (${jobs.length}): duration ≥`), durIn, html('span', '', 'nodes ≥'), nodesIn,
      label('overlaps the window', checkbox('ss-job-overlap', false, (v) => ((filt.overlap = v), filterJobs()))), clear,
    );
    const scroll = html('div', 'max-height:220px;overflow:auto;border:1px solid #ddd');
    const table = html('table', 'border-collapse:collapse;width:100%;font:inherit');
    const head = html('tr');
    const cols = [['id', 'id'], ['name', 'name'], ['user', 'user'], ['nodes', 'nodes'], ['start', 'start'], ['duration', 'duration']];
    for (const [k, t] of cols) {
      const th = html('th', 'text-align:left;padding:2px 6px;border-bottom:1px solid #ccc;cursor:pointer;background:#f6f6f6;position:sticky;top:0', t);
      th.setAttribute('data-sort', k);
      th.onclick = () => {
        sortDir = sortKey === k ? -sortDir : 1;
        sortKey = k;
        sortJobs();
      };
      head.append(th);
    }
    const thead = html('thead');
    thead.append(head);
    const tbody = html('tbody');
    table.append(thead, tbody);
    jobs.forEach((j, k) => {
      const tr = html('tr', 'cursor:pointer');
      tr.className = 'ss-job';
      tr.setAttribute('data-job', j.id);
      const dur = j.start && j.end ? j.end - j.start : Infinity;
      const cells = [j.id, j.name, j.user, String(j.nodes), j.start ? utc(j.start) : '—', formatDuration(dur)];
      for (const c of cells) tr.append(html('td', 'padding:1px 6px;border-bottom:1px solid #eee;white-space:nowrap', c));
      const r = { tr, k, j, dur };
      tr.onclick = () => {
        if (st.selected.has(k)) st.selected.delete(k);
        else st.selected.add(k);
        mark(r);
        selectJobs();
      };
      jobRows.push(r);
      tbody.append(tr);
    });
    function sortJobs() {
      const key = { id: (r) => r.j.id, name: (r) => r.j.name, user: (r) => r.j.user, nodes: (r) => r.j.nodes, start: (r) => r.j.start, duration: (r) => r.dur }[sortKey];
      const sorted = [...jobRows].sort((a, b) => {
        const x = key(a), y = key(b);
        return (x < y ? -1 : x > y ? 1 : a.k - b.k) * sortDir;
      });
      for (const r of sorted) tbody.append(r.tr);
      for (const th of head.children) th.textContent = th.getAttribute('data-sort') + (th.getAttribute('data-sort') === sortKey ? (sortDir > 0 ? ' ▲' : ' ▼') : '');
    }
    sortJobs();
    scroll.append(table);
    jobBox.append(fbar, scroll);
  }
  function mark(r) {
    const on = st.selected.has(r.k);
    r.tr.style.background = on ? '#dbe9f8' : '';
    r.tr.setAttribute('aria-selected', on ? 'true' : 'false');
  }
  function filterJobs() {
    for (const r of jobRows) {
      const ok = (r.dur >= filt.dur || !isFinite(r.dur)) && r.j.nodes >= filt.nodes && (!filt.overlap || overlapsWindow(r.j));
      r.tr.style.display = ok ? '' : 'none';
    }
  }
  /** A selection sets the window to the jobs' common interval (else their hull) and fades the rest. */
  function selectJobs() {
    routesDirty = true;
    if (st.selected.size && nb) {
      let s = -Infinity, e = Infinity, hs = Infinity, he = -Infinity;
      for (const k of st.selected) {
        const j = jobs[k];
        s = Math.max(s, jobStart(j));
        e = Math.min(e, jobEnd(j));
        hs = Math.min(hs, jobStart(j));
        he = Math.max(he, jobEnd(j));
      }
      if (!(s < e)) {
        s = hs;
        e = he;
      }
      st.win = snapInterval(s, e);
      showWindowBrush();
    }
    update('jobs');
  }
  /** The bins [a, b] that overlap [s, e): from the first ending after s to the last starting before e. */
  function snapInterval(s, e) {
    let a = 0;
    while (a < nb - 1 && !(sp.bins.end[a] > s)) a++;
    let b = nb - 1;
    while (b > a && !(sp.bins.start[b] < e)) b--;
    return [a, b];
  }

  // ----------------------------------------------------------------- update
  function setWindow(w, fromBrush) {
    st.win = w;
    showWindowBrush();
    void fromBrush;
    update('window');
  }

  function update() {
    const t0 = performance.now();
    computeTotals();
    computeScales();
    computeHist();
    computeVisible();
    computeFade();
    drawCells();
    drawBars();
    drawLegend();
    drawWindowText();
    drawHist();
    if (filt.overlap) filterJobs();
    root.setAttribute('data-hist', st.hist ? st.hist.join(' ') : '');
    root.setAttribute('data-update-ms', (performance.now() - t0).toFixed(1));
  }

  // First draw: the colours must be Go's; flag a difference in the domains.
  update();
  const bad = mapKeys.filter((k) => {
    const g = sp.domain && sp.domain[k];
    const s = maps[k].scale;
    return g && (g[0] !== s.min || g[1] !== s.mid || g[2] !== s.max);
  });
  if (bad.length) root.setAttribute('data-domain-mismatch', bad.join(' '));
  drawTimeChart();
  showWindowBrush();
  filterJobs();

  // Fitted, the view is as wide as its share of the row (its controls
  // wrap within it), else as wide as the output.
  const box = html('div', fit ? `width:${fit}px;max-width:100%` : 'max-width:100%');
  box.className = 'ss-matrixboard-view';
  box.append(board, row1, row2, charts, colours, jobBox);
  img.replaceWith(box);
  return true;
}
