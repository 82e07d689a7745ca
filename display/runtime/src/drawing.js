// The graph drawing (views.Drawing). Go fitted the positions, ranked and
// coloured the groups, sampled the edges and drew the frame (title, legend,
// caption) as SVG; the plot is drawn here on a canvas laid over the
// frame's empty plot area, from typed arrays in the spec. d3-zoom zooms
// and pans: Ctrl/⌘ + wheel, or a plain wheel after a click into the view
// (until the pointer leaves it; otherwise the wheel scrolls the notebook),
// a pinch on touch screens (a wheel notch zooms 1.25×, zoom.js), dragging
// pans, a double click resets; a line under the view says so. The view
// (scale k, then translation) is in data-view="k tx ty". Hover finds the nearest node with d3-quadtree.
import { select } from 'd3-selection';
import { zoom, zoomIdentity } from 'd3-zoom';
import { quadtree } from 'd3-quadtree';
import { wheelFactor } from './zoom.js';
import { html, b64array, canvasOverFrame } from './util.js';

export function drawingView(root, img, sp) {
  const { w, h, r, n } = sp;
  const X = new Float32Array(n);
  const Y = new Float32Array(n);
  const xq = b64array(sp.x, Uint16Array);
  const yq = b64array(sp.y, Uint16Array);
  for (let i = 0; i < n; i++) {
    // Hundredths of a px, or (nodes beyond the frame) u/ps + po.
    X[i] = xq[i] / (sp.ps || 100) + (sp.po || 0);
    Y[i] = yq[i] / (sp.ps || 100) + (sp.po || 0);
  }
  const G = sp.g ? b64array(sp.g, [, Uint8Array, Uint16Array, , Uint32Array][sp.gb]) : null;
  const E = sp.e ? b64array(sp.e, sp.eb === 2 ? Uint16Array : Uint32Array) : null;
  const nc = sp.colors.length;
  const col = (i) => (G ? Math.min(G[i], nc - 1) : 0);

  // The frame, and the canvas over its plot area (both scale down together).
  const over = canvasOverFrame(sp.frame, 'ss-drawing', w, h, sp.top);
  if (!over) return false;
  const { box, cv, ctx, dpr } = over;

  // Nodes by colour, in Go's drawing order (grey first, the largest group last).
  const order = Array.from({ length: n }, (_, i) => i);
  if (G) order.sort((a, b) => G[b] - G[a] || a - b);
  const runs = []; // [colour, from, to) over order
  for (let j = 0; j < n; j++) {
    const c = col(order[j]);
    if (!runs.length || runs[runs.length - 1][0] !== c) runs.push([c, j, j + 1]);
    else runs[runs.length - 1][2] = j + 1;
  }
  const tree = quadtree(order, (i) => X[i], (i) => Y[i]);

  let t = zoomIdentity;
  let hover = -1;
  let queued = false;
  const paint = () => {
    queued = false;
    const k = t.k;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, w, h);
    ctx.setTransform(dpr * k, 0, 0, dpr * k, dpr * t.x, dpr * t.y);
    if (E) {
      ctx.beginPath();
      for (let i = 0; i < E.length; i += 2) {
        ctx.moveTo(X[E[i]], Y[E[i]]);
        ctx.lineTo(X[E[i + 1]], Y[E[i + 1]]);
      }
      ctx.globalAlpha = sp.eo;
      ctx.lineWidth = sp.ew / k;
      ctx.strokeStyle = sp.ec;
      ctx.stroke();
      ctx.globalAlpha = 1;
    }
    // Nodes grow as the square root of the zoom, so that crowds separate.
    const rr = r / Math.sqrt(k);
    const square = rr * k * dpr < 1.5; // a dot: a square is as good and faster
    for (const [c, from, to] of runs) {
      ctx.beginPath();
      for (let j = from; j < to; j++) {
        const i = order[j];
        if (square) ctx.rect(X[i] - rr, Y[i] - rr, 2 * rr, 2 * rr);
        else {
          ctx.moveTo(X[i] + rr, Y[i]);
          ctx.arc(X[i], Y[i], rr, 0, 2 * Math.PI);
        }
      }
      ctx.fillStyle = sp.colors[c];
      ctx.fill();
    }
    if (hover >= 0) {
      ctx.beginPath();
      ctx.arc(X[hover], Y[hover], rr + 2 / k, 0, 2 * Math.PI);
      ctx.lineWidth = 1.5 / k;
      ctx.strokeStyle = '#222';
      ctx.stroke();
    }
  };
  const redraw = () => {
    if (!queued) {
      queued = true;
      requestAnimationFrame(paint);
    }
  };
  const setView = () => root.setAttribute('data-view', t.k + ' ' + t.x + ' ' + t.y);

  // Client px → plot px (the canvas may be scaled down to its container).
  const at = (e) => {
    const b = cv.getBoundingClientRect();
    return [((e.clientX - b.left) * w) / b.width, ((e.clientY - b.top) * h) / b.height];
  };
  let armed = false;
  let dragging = false;
  const z = zoom()
    .wheelDelta((e) => Math.log2(wheelFactor(e))) // d3-zoom's ×10 under Ctrl made a notch 4×
    .scaleExtent([sp.zmin || 0.5, 400]) // zmin: nodes far beyond the frame
    .extent([[0, 0], [w, h]])
    .filter((e) => (e.type === 'wheel' ? e.ctrlKey || e.metaKey || armed : !e.button && e.type !== 'dblclick'))
    .on('start', (e) => (dragging = !!(e.sourceEvent && e.sourceEvent.type !== 'wheel')))
    .on('zoom', (e) => {
      t = e.transform;
      setView();
      redraw();
    })
    .on('end', () => (dragging = false));
  const sel = select(cv);
  sel.call(z).on('dblclick.zoom', null);
  // d3-zoom works in the canvas's CSS px: plot px, unless the view is
  // scaled down to a narrow column (then zooming is about a nearby point).
  cv.addEventListener('dblclick', () => sel.call(z.transform, zoomIdentity));
  cv.addEventListener('pointerdown', () => (armed = true));
  cv.addEventListener('pointerleave', () => (armed = false));
  cv.style.cursor = 'grab';
  cv.style.touchAction = 'none';

  // The nearest node within 6 px (plus its radius) of the pointer.
  const hoverAt = (e) => {
    let i = -1;
    if (e && !dragging) {
      const [sx, sy] = at(e);
      const [px, py] = t.invert([sx, sy]);
      const found = tree.find(px, py, (6 + r * Math.sqrt(t.k)) / t.k);
      if (found !== undefined) i = found;
    }
    if (i === hover) return;
    hover = i;
    if (i < 0) cv.removeAttribute('data-tip');
    else cv.setAttribute('data-tip', ((sp.labels && sp.labels[i]) || 'node ' + i) + (G ? '\n' + (sp.groupName || 'group') + ' ' + sp.gid[G[i]] : ''));
    redraw();
  };
  cv.addEventListener('mousemove', hoverAt);
  cv.addEventListener('wheel', hoverAt);
  cv.addEventListener('mouseleave', () => hoverAt(null));

  const hint = html('div', 'font:10px sans-serif;color:#888;margin-top:2px');
  hint.className = 'ss-hint';
  hint.textContent = 'Ctrl/⌘ + wheel (or click, then wheel) or pinch zooms · drag pans · double-click resets';
  img.replaceWith(box);
  root.append(hint);
  setView();
  paint();

  // The vector picture of the view as it is now, for the download menu.
  const svg = () => {
    const k = t.k;
    const rr = r / Math.sqrt(k);
    const f = (v) => Math.round(v * 100) / 100;
    const parts = [];
    parts.push(`<svg x="0" y="${sp.top}" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" overflow="hidden">`);
    parts.push(`<g transform="translate(${f(t.x)},${f(t.y)}) scale(${k})">`);
    if (E) {
      const d = [];
      for (let i = 0; i < E.length; i += 2) d.push(`M${X[E[i]]} ${Y[E[i]]}L${X[E[i + 1]]} ${Y[E[i + 1]]}`);
      parts.push(`<path fill="none" stroke="${sp.ec}" stroke-opacity="${sp.eo}" stroke-width="${sp.ew / k}" d="${d.join('')}"/>`);
    }
    for (const [c, from, to] of runs) {
      parts.push(`<g fill="${sp.colors[c]}">`);
      for (let j = from; j < to; j++) {
        const i = order[j];
        parts.push(`<circle cx="${X[i]}" cy="${Y[i]}" r="${f(rr * 1000) / 1000}"/>`);
      }
      parts.push('</g>');
    }
    parts.push('</g></svg>');
    const doc = sp.frame.replace(/<\/svg>\s*$/, parts.join('') + '</svg>');
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + doc;
  };
  return { svg };
}
