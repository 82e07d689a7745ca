// The ring graph (views.RingGraph; spec in display/views/ringgraph_spec.md):
// leaves on a circle, tracks of per-leaf values around it, links as
// quadratic curves bundled towards their block pair's centre, with traffic
// marks. Go computed every position; this file draws and filters: hovering
// a leaf shows only its links (tooltip: label, block, in/out); a click on a
// link or a brushed rectangle keeps block pairs (shift adds); a click on a
// track cell keeps the links touching (or, as an option, within) its value,
// ANDed over tracks; the zoom tool (or Alt + drag) zooms to a rectangle, a
// double click resets. Level, frame and link mode switch; a strip of
// per-group totals follows every filter. A link's stroke width grows with
// its traffic in the mode shown (8 steps up to the spec's scale maximum,
// markMax, which rings compared side by side share); idle links (0 in the
// mode) are thin and faint, or hidden with the "hide idle links" toggle. Below the spec's canvas threshold
// everything is SVG; above it tracks, links and marks go on canvases under
// an SVG that holds the blocks, highlights and brush.
//
// State for tests, on the display: data-level, data-blocks, data-bundles,
// data-frame, data-mode, data-visible (links drawn), data-marks,
// data-hover, data-pairs, data-dims ("track:value,…"), data-match,
// data-totals (JSON, per group [links, Σfwd, Σbwd, idle]), data-view
// ("x y w h"), data-idle (visible links of value 0 in the mode),
// data-idle-hidden ("1" when the toggle hides them) and data-update-ms.
import { html, BAR, BUTTON, fmt, NS, darken, INK, MUTED, b64bytes } from './util.js';
import { frameSlider } from './chord.js';

const TAU = 2 * Math.PI;
const CHUNK = 64; // curves or marks per canvas path
const n2 = (x) => Math.round(x * 100) / 100;
const DESCRIBE = { sum: 'sum of both directions', plus: '+ direction only', minus: '− direction only', avg: 'average of both directions' };

const ints = (s, w) => {
  const u = b64bytes(s);
  return w === 1 ? u : w === 2 ? new Uint16Array(u.buffer) : new Uint32Array(u.buffer);
};
const KINDS = { u8: Uint8Array, u16: Uint16Array, u32: Uint32Array, f32: Float32Array };
const typed = (s, kind) => {
  const u = b64bytes(s);
  return kind === 'u8' ? u : new KINDS[kind](u.buffer);
};

/** lowbias32 of k, as display.ringHash. */
function lowbias32(k) {
  let x = k >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}

/** An SVG element with attributes, appended to parent. */
function el(parent, tag, a, text) {
  const e = document.createElementNS(NS, tag);
  for (const k in a) e.setAttribute(k, a[k]);
  if (text != null) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

/** The annular sector r0..r1 × a0..a1 around (cx, cy) (angles clockwise from 12 o'clock). */
function sector(cx, cy, r0, r1, a0, a1) {
  if (a1 - a0 > TAU - 1e-9) return sector(cx, cy, r0, r1, a0, (a0 + a1) / 2) + sector(cx, cy, r0, r1, (a0 + a1) / 2, a1);
  const p = (r, a) => n2(cx + r * Math.sin(a)) + ' ' + n2(cy - r * Math.cos(a));
  const lg = a1 - a0 > Math.PI ? 1 : 0;
  return `M${p(r1, a0)}A${r1} ${r1} 0 ${lg} 1 ${p(r1, a1)}L${p(r0, a1)}A${r0} ${r0} 0 ${lg} 0 ${p(r0, a0)}Z`;
}

/** The same sector on a canvas path. */
function sectorTo(ctx, cx, cy, r0, r1, a0, a1) {
  ctx.moveTo(cx + r1 * Math.sin(a0), cy - r1 * Math.cos(a0));
  ctx.arc(cx, cy, r1, a0 - Math.PI / 2, a1 - Math.PI / 2, false);
  ctx.arc(cx, cy, r0, a1 - Math.PI / 2, a0 - Math.PI / 2, true);
  ctx.closePath();
}

/** Calls f(i, j, key) for each run [i, j) of leaves with equal key(i). */
function runs(n, key, f) {
  for (let i = 0; i < n; ) {
    const k = key(i);
    let j = i + 1;
    while (j < n && key(j) === k) j++;
    f(i, j, k);
    i = j;
  }
}

const grey = (v, lo, hi) => {
  const g = hi <= lo ? 235 : Math.round(235 - (170 * v) / (hi - lo));
  return '#' + g.toString(16).padStart(2, '0').repeat(3);
};

export function ringgraphView(root, img, sp) {
  const t0 = performance.now();
  const { n, cx, cy, w } = sp;
  const R = sp.linkR;
  const L = sp.links.count;
  const PT = 2 * cy - sp.legendTop; // the plot box: y from PT (below the header), w − 40 px high
  const PH = sp.legendTop - PT;
  const full = [0, PT, w, PH];
  const cell = TAU / Math.max(n, 1);
  const X = new Float64Array(n);
  const Y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const th = (TAU * (i + 0.5)) / n;
    X[i] = cx + R * Math.sin(th);
    Y[i] = cy - R * Math.cos(th);
  }
  const A = ints(sp.links.a, sp.links.ib);
  const B = ints(sp.links.b, sp.links.ib);
  const G = ints(sp.links.group, sp.links.gb);
  const V = sp.tracks.map((t) => ints(t.v, t.vb));
  // Each leaf's links (CSR).
  const off = new Uint32Array(n + 1);
  for (let k = 0; k < L; k++) off[A[k] + 1]++, off[B[k] + 1]++;
  for (let i = 0; i < n; i++) off[i + 1] += off[i];
  const adj = new Uint32Array(2 * L);
  const fill = off.slice(0, n);
  for (let k = 0; k < L; k++) (adj[fill[A[k]]++] = k), (adj[fill[B[k]]++] = k);
  const frames = sp.frames.map(() => null);
  const weights = (f) =>
    frames[f] || (frames[f] = { fwd: typed(sp.frames[f].fwd, sp.wb), bwd: typed(sp.frames[f].bwd, sp.wb), leaf: sp.frames[f].leaf ? new Float32Array(b64bytes(sp.frames[f].leaf).buffer) : null });
  const markT = new Float64Array(L);
  for (let k = 0; k < L; k++) markT[k] = sp.markT[0] + (sp.markT[1] * lowbias32(k)) / 4294967296;

  const st = { level: -1, frame: sp.selected, mode: sp.mode, hover: -1, pairs: new Set(), dims: new Map(), within: false, view: full.slice(), tool: 'select', hideIdle: false };
  let lv, P, Qx, Qy, ck, cols, blockOf; // the level's pairs, control points, colour index per link
  const vis = new Uint8Array(L);

  // Layout: header, plot (canvases under an SVG), controls, legend, totals.
  const box = html('div', `max-width:100%;width:${w}px;font:12px sans-serif;color:${INK}`);
  box.className = 'ss-ringgraph';
  const head = el(null, 'svg', { xmlns: NS, width: w, height: PT, viewBox: `0 0 ${w} ${PT}`, 'font-family': 'sans-serif', style: 'max-width:100%;height:auto;display:block' });
  // The title wrapped to the width, and the frame-and-mode line (in two
  // when the ring is narrow), as Go laid them out.
  const titleLines = sp.titleLines && sp.titleLines.length ? sp.titleLines : sp.title ? [sp.title] : [];
  titleLines.forEach((l, i) => el(head, 'text', { x: 4, y: 15 + 16 * i, 'font-size': 13, 'font-weight': 'bold', fill: INK }, l));
  const headY = sp.headY && sp.headY.length ? sp.headY : [31];
  const headText = el(head, 'text', { x: 4, y: headY[0], class: 'ss-head', 'font-size': 10, fill: MUTED });
  const modeText = headY.length > 1 ? el(head, 'text', { x: 4, y: headY[1], class: 'ss-head-mode', 'font-size': 10, fill: MUTED }) : null;
  const plotBox = html('div', `position:relative;width:100%;aspect-ratio:${w}/${PH}`);
  const svg = el(null, 'svg', { xmlns: NS, class: 'ss-plot', width: w, height: PH, 'font-family': 'sans-serif', 'font-size': 11, style: 'position:relative;width:100%;height:auto;display:block;touch-action:none;cursor:crosshair' });
  const dpr = window.devicePixelRatio || 1;
  const canvas = () => {
    const c = html('canvas', 'position:absolute;left:0;top:0;width:100%;height:100%');
    c.className = 'ss-canvas';
    c.width = Math.round(w * dpr);
    c.height = Math.round(PH * dpr);
    plotBox.append(c);
    return c;
  };
  const cvTracks = sp.canvas ? canvas() : null;
  const cvLinks = sp.canvas ? canvas() : null;
  plotBox.append(svg);
  const gTracks = el(svg, 'g', { class: 'ss-tracks' });
  const gLeaf = el(svg, 'g', { class: 'ss-leafring' });
  const gLinks = el(svg, 'g', { class: 'ss-links', fill: 'none', 'stroke-width': sp.linkWidth, 'stroke-opacity': sp.linkOpacity });
  const gMarks = el(svg, 'g', { class: 'ss-marks', 'fill-opacity': sp.markOpacity });
  const gBlocks = el(svg, 'g', { class: 'ss-blocks' });
  const gSel = el(svg, 'g', { class: 'ss-dimsel', fill: 'none', stroke: '#d62728', 'stroke-width': 1.5 });
  const gFocus = el(svg, 'g', { class: 'ss-focus' });
  const brush = el(svg, 'rect', { class: 'ss-brush', fill: 'rgba(70,130,180,.12)', stroke: '#4682b4', 'stroke-dasharray': '3 2', 'vector-effect': 'non-scaling-stroke', display: 'none' });
  if (!n) el(svg, 'text', { x: cx, y: cy, 'text-anchor': 'middle', fill: MUTED }, 'no leaves');

  // Tracks: runs of equal values, as Go draws them.
  sp.tracks.forEach((t, ti) => {
    const v = V[ti];
    if (cvTracks) return;
    const g = el(gTracks, 'g', { class: 'ss-track', 'data-track': ti, 'data-name': t.name });
    runs(n, (i) => v[i], (i, j, x) => el(g, 'path', { d: sector(cx, cy, t.r0, t.r1, i * cell, j * cell), fill: grey(x, t.min, t.max) }));
  });
  const ramp = sp.leafRing.on ? sp.leafRing.ramp.match(/.{6}/g).map((h) => '#' + h) : [];
  // Each frame's leaf colours span that frame's range (Go: leafScale).
  const leafRange = () => {
    const fr = sp.frames[st.frame];
    return fr && fr.leaf ? { min: fr.leafMin, max: fr.leafMax } : sp.leafRing;
  };
  const leafColor = (x) => {
    const { min, max } = leafRange();
    if (!(x === x)) return ramp[0];
    const i = max === min ? (x <= min ? 0 : 255) : Math.floor(((x - min) / (max - min)) * 256);
    return ramp[Math.max(0, Math.min(255, i))];
  };

  // Canvas drawing in the current view.
  const ctxOf = (c) => {
    const ctx = c.getContext('2d');
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, c.width, c.height);
    const s = (dpr * w) / st.view[2];
    ctx.setTransform(s, 0, 0, s, -st.view[0] * s, -st.view[1] * s);
    return ctx;
  };
  function paintTracks() {
    if (!cvTracks) return;
    const ctx = ctxOf(cvTracks);
    sp.tracks.forEach((t, ti) => {
      const v = V[ti];
      const byValue = new Map();
      runs(n, (i) => v[i], (i, j, x) => {
        if (!byValue.has(x)) byValue.set(x, []);
        byValue.get(x).push(i, j);
      });
      for (const [x, rs] of byValue) {
        ctx.beginPath();
        for (let q = 0; q < rs.length; q += 2) sectorTo(ctx, cx, cy, t.r0, t.r1, rs[q] * cell, rs[q + 1] * cell);
        ctx.fillStyle = grey(x, t.min, t.max);
        ctx.fill();
      }
    });
    const lf = st.frame >= 0 && sp.leafRing.on ? weights(st.frame).leaf : null;
    if (lf) {
      runs(n, (i) => leafColor(lf[i]), (i, j, c) => {
        ctx.beginPath();
        sectorTo(ctx, cx, cy, sp.leafRing.r0, sp.leafRing.r1, i * cell, j * cell);
        ctx.fillStyle = c;
        ctx.fill();
      });
    }
  }
  function drawLeafRing() {
    if (cvTracks) return paintTracks();
    gLeaf.textContent = '';
    const lf = sp.frames.length && sp.leafRing.on ? weights(st.frame).leaf : null;
    if (lf) runs(n, (i) => leafColor(lf[i]), (i, j, c) => el(gLeaf, 'path', { d: sector(cx, cy, sp.leafRing.r0, sp.leafRing.r1, i * cell, j * cell), fill: c }));
  }

  function setLevel(l) {
    st.level = l;
    lv = sp.levels[l];
    P = ints(lv.pair, lv.pb);
    Qx = new Float64Array(L);
    Qy = new Float64Array(L);
    const beta = sp.beta;
    for (let k = 0; k < L; k++) {
      const p = lv.pairs[P[k]];
      const mx = (X[A[k]] + X[B[k]]) / 2;
      const my = (Y[A[k]] + Y[B[k]]) / 2;
      Qx[k] = mx + beta * (p.x - mx);
      Qy[k] = my + beta * (p.y - my);
    }
    // Colours in Go's drawing order: intra, adjacent, far pairs (or groups).
    if (sp.colorBy === 'group') {
      cols = sp.groups.map((g) => g.color);
      ck = G;
    } else {
      cols = [sp.classes[0].color, sp.classes[1].color];
      for (const p of lv.pairs) if (p.cls === 2) cols.push(p.color);
      const idx = new Map();
      cols.forEach((c, i) => idx.has(c) || idx.set(c, i));
      const pc = lv.pairs.map((p) => idx.get(p.color));
      ck = new Uint16Array(L);
      for (let k = 0; k < L; k++) ck[k] = pc[P[k]];
    }
    blockOf = new Uint32Array(n);
    for (let b = 0; b < lv.m; b++) for (let i = lv.starts[b]; i < lv.starts[b + 1]; i++) blockOf[i] = b;
    gBlocks.textContent = '';
    for (let b = 0; b < lv.m; b++) {
      const a0 = (TAU * lv.starts[b]) / n;
      const a1 = (TAU * lv.starts[b + 1]) / n;
      el(gBlocks, 'path', { d: sector(cx, cy, sp.blockRing[0], sp.blockRing[1], a0, a1), fill: b % 2 ? '#bdbdbd' : '#d9d9d9', stroke: '#fff', 'stroke-width': 0.5 });
      if ((a1 - a0) * sp.blockLabelR >= String(b + 1).length * 6 + 4) {
        const m = (a0 + a1) / 2;
        el(gBlocks, 'text', { x: n2(cx + sp.blockLabelR * Math.sin(m)), y: n2(cy - sp.blockLabelR * Math.cos(m)), 'text-anchor': 'middle', dy: '0.35em', 'font-size': 10, fill: INK }, String(b + 1));
      }
    }
    st.pairs.clear();
    root.setAttribute('data-level', String(l));
    root.setAttribute('data-blocks', String(lv.m));
    root.setAttribute('data-bundles', String(lv.pairs.length));
    for (const b of levelButtons) b.style.fontWeight = +b.dataset.level === l ? 'bold' : '';
  }

  // Which links show: the hovered leaf's, else those passing every filter.
  function filter(allPairs) {
    vis.fill(0);
    if (st.hover >= 0) {
      for (let q = off[st.hover]; q < off[st.hover + 1]; q++) vis[adj[q]] = 1;
      return;
    }
    const dims = [...st.dims].map(([t, v]) => [V[t], v - sp.tracks[t].min]);
    const pairs = st.pairs.size && !allPairs ? st.pairs : null;
    for (let k = 0; k < L; k++) {
      if (pairs && !pairs.has(P[k])) continue;
      let ok = true;
      for (const [v, x] of dims) {
        const a = v[A[k]] === x;
        const b = v[B[k]] === x;
        if (st.within ? !(a && b) : !(a || b)) {
          ok = false;
          break;
        }
      }
      if (ok) vis[k] = 1;
    }
  }

  // Link k's mark in the current frame and mode, as RingGraphGeometry.Mark:
  // [kind (0 none, 1 circle, 2 arrow), x, y, r, dx, dy].
  const markMax = () => sp.markMax[st.mode] || 0;
  const value = (fw, bw) => {
    const m = st.mode;
    return m === 'plus' ? fw : m === 'minus' ? bw : m === 'avg' ? (fw + bw) / 2 : fw + bw;
  };
  // Link stroke (RingGraphGeometry.LinkStroke): load step 0 (idle) or
  // 1..widthSteps, and each step's width.
  const NS_ = sp.widthSteps || 8;
  function loadStep(fw, bw) {
    const v = value(fw, bw);
    if (!(v > 0)) return 0;
    const mx = markMax();
    if (!(mx > 0)) return NS_;
    return Math.min(NS_, Math.max(1, Math.ceil((NS_ * v) / mx)));
  }
  const stepWidth = (s) => Math.round((sp.linkWidth + ((sp.linkMaxWidth - sp.linkWidth) * (s - 1)) / (NS_ - 1)) * 100) / 100;
  // [width, opacity] of step s (-1: no frames, every link alike).
  const stroke = (s) => (s < 0 ? [sp.linkWidth, sp.linkOpacity] : s === 0 ? [sp.idleWidth, sp.idleOpacity] : [stepWidth(s), sp.linkOpacity]);
  function mark(k, fw, bw) {
    const m = st.mode;
    const v = value(fw, bw);
    if (!(v > 0)) return null;
    let kind = 2;
    let fromB = m === 'minus';
    if (m === 'sum' || m === 'avg') {
      fromB = bw > fw;
      if (fw > 0 && bw > 0) kind = 1;
    }
    const t = fromB ? 1 - markT[k] : markT[k];
    const u = 1 - t;
    const ax = X[A[k]], ay = Y[A[k]], bx = X[B[k]], by = Y[B[k]], qx = Qx[k], qy = Qy[k];
    const x = u * u * ax + 2 * u * t * qx + t * t * bx;
    const y = u * u * ay + 2 * u * t * qy + t * t * by;
    let dx = 2 * u * (qx - ax) + 2 * t * (bx - qx);
    let dy = 2 * u * (qy - ay) + 2 * t * (by - qy);
    if (fromB) (dx = -dx), (dy = -dy);
    const l = Math.hypot(dx, dy) || 1;
    const mx = markMax();
    let r = mx > 0 ? Math.max(sp.markMinR, sp.markR * Math.sqrt(v / mx)) : sp.markMinR;
    if (kind === 2) r = Math.max(sp.arrowMinR, r);
    return [kind, x, y, r, dx / l, dy / l];
  }
  const arrow = (mk) => {
    const [, x, y, r, ux, uy] = mk;
    return [x + 1.6 * r * ux, y + 1.6 * r * uy, x - 0.8 * r * ux - r * uy, y - 0.8 * r * uy + r * ux, x - 0.8 * r * ux + r * uy, y - 0.8 * r * uy - r * ux];
  };

  // Draws the visible links and their marks; returns [links, marks].
  // The links canvas with every link drawn, kept for the state it shows
  // (level, frame, mode, view): clearing a filter blits it instead of
  // stroking every curve again (0.3-0.4 s for 122,880 links in software).
  let fullCache = null;
  let nIdle = 0; // visible links of value 0, hidden or not
  function drawLinks() {
    let nv = 0;
    for (let k = 0; k < L; k++) nv += vis[k];
    const key = cvLinks && nv === L ? [st.level, st.frame, st.mode, st.hideIdle, st.view.join(',')].join('|') : '';
    if (key && fullCache && fullCache.key === key) {
      const ctx = cvLinks.getContext('2d');
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.globalAlpha = 1;
      ctx.clearRect(0, 0, cvLinks.width, cvLinks.height);
      ctx.drawImage(fullCache.canvas, 0, 0);
      nIdle = fullCache.idle;
      return fullCache.nm;
    }
    const fr = sp.frames.length ? weights(st.frame) : null;
    // Groups in Go's drawing order: by load step (idle first; one step,
    // -1, without frames), then by colour. groups[i] = [step, colour, links].
    const nc = cols.length;
    const steps = fr ? NS_ + 1 : 1;
    const byGroup = Array.from({ length: steps * nc }, () => []);
    nIdle = 0;
    for (let k = 0; k < L; k++) {
      if (!vis[k]) continue;
      const s = fr ? loadStep(fr.fwd[k], fr.bwd[k]) : 0;
      if (fr && s === 0) {
        nIdle++;
        if (st.hideIdle) continue;
      }
      byGroup[s * nc + ck[k]].push(k);
    }
    const order = byGroup.map((ks, i) => [fr ? Math.floor(i / nc) : -1, i % nc, ks]);
    let nm = 0;
    const marks = cols.map(() => []);
    if (fr) for (let k = 0; k < L; k++) {
      if (!vis[k]) continue;
      const mk = mark(k, fr.fwd[k], fr.bwd[k]);
      if (mk) marks[ck[k]].push(mk), nm++;
    }
    if (cvLinks) {
      const ctx = ctxOf(cvLinks);
      order.forEach(([s, c, ks]) => {
        if (!ks.length) return;
        const [lw, op] = stroke(s);
        ctx.lineWidth = lw;
        ctx.globalAlpha = op;
        // Short paths: a path of many crossing curves is slow to fill.
        ctx.strokeStyle = cols[c];
        for (let j = 0; j < ks.length; j += CHUNK) {
          ctx.beginPath();
          for (const k of ks.slice(j, j + CHUNK)) {
            ctx.moveTo(X[A[k]], Y[A[k]]);
            ctx.quadraticCurveTo(Qx[k], Qy[k], X[B[k]], Y[B[k]]);
          }
          ctx.stroke();
        }
      });
      ctx.globalAlpha = sp.markOpacity;
      marks.forEach((ms, c) => {
        if (!ms.length) return;
        ctx.fillStyle = darken(cols[c], sp.markDarken);
        ctx.beginPath();
        ms.forEach((mk, j) => {
          if (j && j % CHUNK === 0) ctx.fill(), ctx.beginPath();
          if (mk[0] === 1) {
            ctx.moveTo(mk[1] + mk[3], mk[2]);
            ctx.arc(mk[1], mk[2], mk[3], 0, TAU);
          } else {
            const p = arrow(mk);
            ctx.moveTo(p[0], p[1]);
            ctx.lineTo(p[2], p[3]);
            ctx.lineTo(p[4], p[5]);
            ctx.closePath();
          }
        });
        ctx.fill();
      });
      if (key) {
        const c = (fullCache && fullCache.canvas) || document.createElement('canvas');
        c.width = cvLinks.width;
        c.height = cvLinks.height;
        c.getContext('2d').drawImage(cvLinks, 0, 0);
        fullCache = { key, canvas: c, nm, idle: nIdle };
      }
    } else {
      gLinks.textContent = '';
      gMarks.textContent = '';
      order.forEach(([s, c, ks]) => {
        if (!ks.length) return;
        let d = '';
        for (const k of ks) d += `M${n2(X[A[k]])} ${n2(Y[A[k]])}Q${n2(Qx[k])} ${n2(Qy[k])} ${n2(X[B[k]])} ${n2(Y[B[k]])}`;
        const a = { class: 'ss-bundle', stroke: cols[c] };
        if (s >= 0) {
          const [lw, op] = stroke(s);
          a['data-step'] = s;
          a['stroke-width'] = lw;
          if (s === 0) a['stroke-opacity'] = op;
        }
        a.d = d;
        el(gLinks, 'path', a);
      });
      marks.forEach((ms, c) => {
        if (!ms.length) return;
        let d = '';
        for (const mk of ms) {
          if (mk[0] === 1) {
            const [, x, y, r] = mk.map(n2);
            d += `M${n2(x + r)} ${y}A${r} ${r} 0 1 1 ${n2(x - r)} ${y}A${r} ${r} 0 1 1 ${n2(x + r)} ${y}Z`;
          } else {
            const p = arrow(mk).map(n2);
            d += `M${p[0]} ${p[1]}L${p[2]} ${p[3]}L${p[4]} ${p[5]}Z`;
          }
        }
        el(gMarks, 'path', { fill: darken(cols[c], sp.markDarken), d });
      });
    }
    return nm;
  }

  // Per-group totals of the visible links in the current frame.
  const strip = html('div', 'display:flex;flex-wrap:wrap;gap:4px 14px;margin:4px 0;font:11px sans-serif');
  strip.className = 'ss-totals';
  function totals() {
    const out = sp.groups.map(() => [0, 0, 0, 0]);
    const fr = sp.frames.length ? weights(st.frame) : null;
    for (let k = 0; k < L; k++) {
      if (!vis[k]) continue;
      const t = out[G[k]];
      if (!t) continue;
      const f = fr ? fr.fwd[k] : 0;
      const b = fr ? fr.bwd[k] : 0;
      t[0]++;
      t[1] += f;
      t[2] += b;
      if (!f && !b) t[3]++;
    }
    strip.textContent = '';
    const m = st.mode;
    out.forEach((t, g) => {
      const v = m === 'plus' ? t[1] : m === 'minus' ? t[2] : m === 'avg' ? (t[1] + t[2]) / 2 : t[1] + t[2];
      const chip = html('span', '', '');
      chip.className = 'ss-total';
      chip.setAttribute('data-group', g);
      // A group's colour only where links wear it: coloured by class, the
      // strip has no swatches (each colour keeps one meaning).
      if (sp.colorBy === 'group') chip.append(html('span', `display:inline-block;width:10px;height:3px;margin-right:4px;vertical-align:middle;background:${sp.groups[g].color}`));
      chip.append(`${sp.groups[g].name}: ${fmt(t[0])} links · ${fmt(v)} ${sp.weightName} (${m}) · ${fmt(t[3])} idle`);
      strip.append(chip);
    });
    root.setAttribute('data-totals', JSON.stringify(out));
  }

  // Hover and selection highlights.
  const cellPath = (t, i) => el(gFocus, 'path', { class: 'ss-cell', 'data-track': t, 'data-leaf': i, d: sector(cx, cy, sp.tracks[t].r0, sp.tracks[t].r1, i * cell, (i + 1) * cell), fill: grey(V[t][i], sp.tracks[t].min, sp.tracks[t].max), stroke: '#222', 'stroke-width': 0.75 });
  function highlights() {
    gFocus.textContent = '';
    const i = st.hover;
    const dim = i >= 0 ? 0.3 : 1;
    gTracks.setAttribute('opacity', dim);
    gLeaf.setAttribute('opacity', dim);
    if (cvTracks) cvTracks.style.opacity = dim;
    if (i >= 0) {
      sp.tracks.forEach((_, t) => cellPath(t, i));
      const th = (i + 0.5) * cell;
      const r = sp.blockRing[1] + 4;
      el(gFocus, 'line', { x1: n2(X[i]), y1: n2(Y[i]), x2: n2(cx + r * Math.sin(th)), y2: n2(cy - r * Math.cos(th)), stroke: '#222', 'stroke-width': 0.75 });
      el(gFocus, 'text', { class: 'ss-address', x: n2(cx + (r + 24) * Math.sin(th)), y: n2(cy - (r + 24) * Math.cos(th)), 'text-anchor': 'middle', dy: '0.35em', 'font-size': 11, 'font-weight': 'bold', fill: INK }, leafName(i));
    }
    gSel.textContent = '';
    for (const [t, v] of st.dims) {
      const tr = sp.tracks[t];
      runs(n, (j) => V[t][j] + tr.min === v, (a, b, on) => on && el(gSel, 'path', { d: sector(cx, cy, tr.r0, tr.r1, a * cell, b * cell) }));
    }
  }
  const leafName = (i) => sp.labels[i] || 'leaf ' + i + ' ' + sp.tracks.map((t, ti) => `${t.name}=${V[ti][i] + t.min}`).join(' ');
  function leafTip(i) {
    let out = 0;
    let inn = 0;
    if (sp.frames.length) {
      const fr = weights(st.frame);
      for (let q = off[i]; q < off[i + 1]; q++) {
        const k = adj[q];
        if (A[k] === i) (out += fr.fwd[k]), (inn += fr.bwd[k]);
        else (out += fr.bwd[k]), (inn += fr.fwd[k]);
      }
    }
    const deg = off[i + 1] - off[i];
    const vals = sp.labels[i] ? '\n' + sp.tracks.map((t, ti) => `${t.name}=${V[ti][i] + t.min}`).join(' ') : '';
    return `${leafName(i)}${vals}\nblock ${blockOf[i] + 1} of ${lv.m}\nout ${fmt(out)} · in ${fmt(inn)} ${sp.weightName}\n${deg} link${deg === 1 ? '' : 's'}`;
  }

  /** Redraws what the state shows and records it on the display. */
  function update(what) {
    const s = performance.now();
    const fr = sp.frames[st.frame];
    const frameHead = fr ? `frame ${fr.label} (${st.frame + 1} of ${sp.frames.length})` : 'no frames';
    if (modeText) (headText.textContent = frameHead), (modeText.textContent = 'mode: ' + DESCRIBE[st.mode]);
    else headText.textContent = frameHead + ' · mode: ' + DESCRIBE[st.mode];
    if (!n) return;
    filter();
    const nm = drawLinks();
    highlights();
    totals();
    let nv = 0;
    for (let k = 0; k < L; k++) nv += vis[k];
    if (what === 'frame') drawLeafRing();
    const set = (k, v) => root.setAttribute('data-' + k, String(v));
    set('visible', nv);
    set('marks', nm);
    set('hover', st.hover);
    set('frame', st.frame);
    set('mode', st.mode);
    set('pairs', [...st.pairs].sort((a, b) => a - b).join(','));
    set('dims', [...st.dims].map(([t, v]) => t + ':' + v).join(','));
    set('match', st.within ? 'within' : 'touching');
    set('view', st.view.map(n2).join(' '));
    set('idle', nIdle);
    set('idle-hidden', st.hideIdle ? 1 : 0);
    set('update-ms', (performance.now() - s).toFixed(1));
  }

  // Pointer: hover a leaf; click a link (pairs) or a track cell (values);
  // drag to brush (or, with the zoom tool or Alt, to zoom).
  const userPt = (e) => {
    const m = svg.getScreenCTM();
    return m ? new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse()) : { x: 0, y: 0 };
  };
  const polar = (p) => {
    const dx = p.x - cx;
    const dy = p.y - cy;
    let th = Math.atan2(dx, -dy);
    if (th < 0) th += TAU;
    return [Math.hypot(dx, dy), Math.min(n - 1, Math.floor((th / TAU) * n))];
  };
  const zoomK = () => w / st.view[2];
  function nearestLink(p) {
    let best = -1;
    let bd = (6 / zoomK()) ** 2;
    for (let k = 0; k < L; k++) {
      if (!vis[k]) continue;
      const ax = X[A[k]], ay = Y[A[k]], bx = X[B[k]], by = Y[B[k]];
      // The curve lies in the box of its three points.
      const e = Math.sqrt(bd);
      if (p.x < Math.min(ax, bx, Qx[k]) - e || p.x > Math.max(ax, bx, Qx[k]) + e || p.y < Math.min(ay, by, Qy[k]) - e || p.y > Math.max(ay, by, Qy[k]) + e) continue;
      for (let s = 0; s <= 16; s++) {
        const t = s / 16;
        const u = 1 - t;
        const dx = u * u * ax + 2 * u * t * Qx[k] + t * t * bx - p.x;
        const dy = u * u * ay + 2 * u * t * Qy[k] + t * t * by - p.y;
        const d = dx * dx + dy * dy;
        if (d < bd) (bd = d), (best = k);
      }
    }
    return best;
  }
  function click(p, shift) {
    const [r, i] = polar(p);
    const t = sp.tracks.findIndex((tr) => r >= tr.r0 && r < tr.r1);
    if (t >= 0) {
      const v = V[t][i] + sp.tracks[t].min;
      if (st.dims.get(t) === v) st.dims.delete(t);
      else st.dims.set(t, v);
      return update();
    }
    if (r > R) return;
    st.hover = -1;
    filter(shift); // shift adds: any link that passes the other filters
    const k = nearestLink(p);
    if (k < 0) {
      if (!shift) st.pairs.clear();
    } else if (shift) {
      if (st.pairs.has(P[k])) st.pairs.delete(P[k]);
      else st.pairs.add(P[k]);
    } else st.pairs = new Set([P[k]]);
    update();
  }
  function brushed(x0, y0, x1, y1, shift) {
    const got = shift ? new Set(st.pairs) : new Set();
    st.hover = -1;
    filter(shift);
    for (let k = 0; k < L; k++) {
      if (!vis[k]) continue;
      const x = (X[A[k]] + X[B[k]]) / 4 + Qx[k] / 2;
      const y = (Y[A[k]] + Y[B[k]]) / 4 + Qy[k] / 2;
      if (x >= x0 && x <= x1 && y >= y0 && y <= y1) got.add(P[k]);
    }
    st.pairs = got;
    update();
  }
  function zoomTo(x0, y0, x1, y1) {
    let vw = Math.max(x1 - x0, 4);
    let vh = Math.max(y1 - y0, 4);
    const mx = (x0 + x1) / 2;
    const my = (y0 + y1) / 2;
    if (vw / vh > w / PH) vh = (vw * PH) / w;
    else vw = (vh * w) / PH;
    setView([mx - vw / 2, my - vh / 2, vw, vh]);
  }
  function setView(v) {
    st.view = v;
    svg.setAttribute('viewBox', v.map(n2).join(' '));
    paintTracks();
    update();
  }
  let drag = null;
  svg.addEventListener('pointerdown', (e) => {
    if (e.button) return;
    drag = { p: userPt(e), x: e.clientX, y: e.clientY, on: false, zoom: st.tool === 'zoom' || e.altKey };
    try {
      svg.setPointerCapture(e.pointerId);
    } catch (_) {
      // a synthetic event has no pointer to capture
    }
  });
  svg.addEventListener('pointermove', (e) => {
    const p = userPt(e);
    if (drag) {
      if (!drag.on && Math.hypot(e.clientX - drag.x, e.clientY - drag.y) > 3) {
        drag.on = true;
        if (st.hover >= 0) (st.hover = -1), update();
        svg.removeAttribute('data-tip');
      }
      if (drag.on) {
        const a = drag.p;
        Object.entries({ x: Math.min(a.x, p.x), y: Math.min(a.y, p.y), width: Math.abs(p.x - a.x), height: Math.abs(p.y - a.y), display: null })
          .forEach(([k, v]) => (v == null ? brush.removeAttribute(k) : brush.setAttribute(k, v)));
      }
      return;
    }
    const [r, i] = polar(p);
    const h = n && r >= R - 4 && r <= sp.blockRing[1] ? i : -1;
    if (h === st.hover) return;
    st.hover = h;
    if (h >= 0) svg.setAttribute('data-tip', leafTip(h));
    else svg.removeAttribute('data-tip');
    update();
  });
  svg.addEventListener('pointerup', (e) => {
    const d = drag;
    drag = null;
    if (!d) return;
    brush.setAttribute('display', 'none');
    const p = userPt(e);
    if (!d.on) return click(p, e.shiftKey);
    const x0 = Math.min(d.p.x, p.x), x1 = Math.max(d.p.x, p.x), y0 = Math.min(d.p.y, p.y), y1 = Math.max(d.p.y, p.y);
    if (d.zoom) zoomTo(x0, y0, x1, y1);
    else brushed(x0, y0, x1, y1, e.shiftKey);
  });
  svg.addEventListener('pointerleave', () => {
    if (drag || st.hover < 0) return;
    st.hover = -1;
    svg.removeAttribute('data-tip');
    update();
  });
  svg.addEventListener('dblclick', () => setView(full.slice()));

  // Controls.
  const button = (cls, label, data, on) => {
    const b = html('button', BUTTON, label);
    b.className = cls;
    for (const k in data) b.dataset[k] = data[k];
    b.onclick = on;
    return b;
  };
  const bold = (bs, f) => bs.forEach((b) => (b.style.fontWeight = f(b) ? 'bold' : ''));
  const levelButtons = sp.levels.map((l, i) => button('ss-level', `${l.m} blocks`, { level: i }, () => {
    setLevel(i);
    legend();
    update();
  }));
  const modeButtons = sp.modes.map((m) => button('ss-mode', m === 'plus' ? '+' : m === 'minus' ? '−' : m, { mode: m }, () => {
    st.mode = m;
    bold(modeButtons, (b) => b.dataset.mode === m);
    legend();
    update();
  }));
  const toolButtons = ['select', 'zoom'].map((t) => button('ss-tool', t === 'select' ? 'brush' : 'zoom', { tool: t }, () => {
    st.tool = t;
    bold(toolButtons, (b) => b.dataset.tool === t);
  }));
  const within = html('input');
  within.type = 'checkbox';
  within.className = 'ss-within';
  within.onchange = () => {
    st.within = within.checked;
    update();
  };
  const withinLabel = html('label', 'display:flex;align-items:center;gap:3px', '');
  withinLabel.append(within, 'values: within (both ends)');
  const hideIdle = html('input');
  hideIdle.type = 'checkbox';
  hideIdle.className = 'ss-hide-idle';
  hideIdle.onchange = () => {
    st.hideIdle = hideIdle.checked;
    legend();
    update();
  };
  const hideIdleLabel = html('label', 'display:flex;align-items:center;gap:3px', '');
  hideIdleLabel.append(hideIdle, 'hide idle links');
  const clear = button('ss-clear', 'clear filters', {}, () => {
    st.pairs.clear();
    st.dims.clear();
    update();
  });
  const bar1 = html('div', BAR + ';flex-wrap:wrap');
  if (sp.levels.length > 1) bar1.append(html('span', '', 'blocks'), ...levelButtons);
  bar1.append(html('span', 'margin-left:8px', 'mode'), ...modeButtons);
  const bar2 = html('div', BAR + ';flex-wrap:wrap');
  bar2.append(html('span', '', 'drag'), ...toolButtons, withinLabel);
  if (sp.frames.length) bar2.append(hideIdleLabel);
  bar2.append(clear);
  bold(modeButtons, (b) => b.dataset.mode === st.mode);
  bold(toolButtons, (b) => b.dataset.tool === st.tool);

  // Legend (HTML): link colours, marks, tracks, leaf ring; then the caption.
  const leg = html('div', 'display:flex;flex-wrap:wrap;gap:2px 12px;font:11px sans-serif;color:#222;margin:4px 0');
  leg.className = 'ss-legend';
  const cap = html('div', `font:11px sans-serif;color:${MUTED}`);
  cap.className = 'ss-caption';
  const swatch = (c, text) => {
    const s = html('span', '');
    s.append(html('span', `display:inline-block;width:10px;height:3px;margin-right:4px;vertical-align:middle;background:${c}`), text);
    leg.append(s);
  };
  function legend() {
    leg.textContent = '';
    if (sp.colorBy === 'group') sp.groups.forEach((g) => swatch(g.color, g.name));
    else if (lv) {
      swatch(sp.classes[0].color, sp.classes[0].name);
      swatch(sp.classes[1].color, sp.classes[1].name);
      const far = lv.pairs.filter((p) => p.cls === 2);
      far.slice(0, 12).forEach((p) => swatch(p.color, `blocks ${p.lo + 1}–${p.hi + 1}`));
      if (far.length > 12) leg.append(html('span', '', `+${far.length - 12} more far pairs`));
    }
    const mx = markMax();
    if (sp.frames.length) {
      // Widths in the mode shown; the idle links of the frame shown.
      const line = (lw, op, text) => {
        const s = html('span', 'display:inline-flex;align-items:center');
        s.className = 'ss-width';
        s.append(html('span', `display:inline-block;width:18px;height:${lw}px;margin-right:4px;background:#555555;opacity:${op}`), text);
        leg.append(s);
      };
      if (mx > 0) {
        leg.append(html('span', '', `link width: ${sp.weightName} (${DESCRIBE[st.mode]}), scale 0–${fmt(mx)}:`));
        for (const s of [1, NS_ / 2, NS_]) line(stepWidth(s), sp.linkOpacity, `≤ ${fmt((mx * s) / NS_)}`);
      }
      const fr = weights(st.frame);
      let idle = 0;
      for (let k = 0; k < L; k++) if (!(value(fr.fwd[k], fr.bwd[k]) > 0)) idle++;
      line(sp.idleWidth, sp.idleOpacity, `idle (0 ${sp.weightName}): ${fmt(idle)} link${idle === 1 ? '' : 's'}, ${st.hideIdle ? 'hidden' : 'thin and faint'}`);
    }
    if (mx > 0) leg.append(html('span', '', `largest mark (r ${sp.markR} px): ${fmt(mx)} ${sp.weightName} · circle area ∝ ${sp.weightName}, nearer the end that sends more · arrow: one way`));
    if (sp.tracks.length) leg.append(html('span', '', `tracks, inside → out: ${sp.tracks.map((t) => t.name).join(', ')} (brighter = smaller)`));
    if (sp.leafRing.on) swatch(ramp[200], `inner ring: ${sp.leafRing.name} ${fmt(leafRange().min)}–${fmt(leafRange().max)}`);
    cap.textContent = lv ? sp.caption.replace(sp.levels[sp.level].caption, lv.caption) : sp.caption;
  }

  box.append(head, plotBox, bar1);
  if (sp.frames.length > 1) {
    box.append(frameSlider(sp, (f) => {
      st.frame = f;
      legend();
      update('frame');
    }));
  }
  box.append(bar2, strip, leg, cap);
  img.replaceWith(box);
  svg.setAttribute('viewBox', full.join(' '));
  if (n) setLevel(sp.level);
  legend();
  update('frame'); // paints the tracks too

  root.setAttribute('data-live-ms', (performance.now() - t0).toFixed(1));
  return {};
}
