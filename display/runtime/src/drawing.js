// The graph drawing (display.Drawing). Go fitted the positions, chose the
// colours and sampled the edges. A small drawing inlines the static SVG; a
// large one draws on a canvas from typed arrays in the spec. Both zoom with
// the wheel (about the pointer) while Ctrl/⌘ is held or after a click into
// the view (a plain wheel scrolls the notebook), pan by dragging and reset
// on a double click; a line under the view says so. The view (scale k,
// then translation) is in data-view="k tx ty".
import { decodeDataURL, html } from './util.js';

/** A base64 little-endian typed array. */
function arr(s, T) {
  const b = atob(s);
  const u = new Uint8Array(b.length);
  for (let i = 0; i < b.length; i++) u[i] = b.charCodeAt(i);
  return new T(u.buffer);
}

/**
 * Wheel zoom and drag pan on el, a plot of w×h px whose client box is box's;
 * draw(k, tx, ty) shows the view.
 */
function zoomPan(root, el, box, w, h, draw) {
  let k = 1, tx = 0, ty = 0, drag = null;
  const at = (e) => {
    const r = box.getBoundingClientRect();
    return [((e.clientX - r.left) * w) / r.width, ((e.clientY - r.top) * h) / r.height];
  };
  const set = () => {
    root.setAttribute('data-view', k + ' ' + tx + ' ' + ty);
    draw(k, tx, ty);
  };
  const on = (t, f, o) => el.addEventListener(t, f, o);
  // The wheel zooms with Ctrl/⌘ held, or after a click into the view until
  // the pointer leaves it; otherwise it scrolls the notebook as usual.
  let armed = false;
  on('wheel', (e) => {
    if (!(e.ctrlKey || e.metaKey || armed)) return;
    e.preventDefault();
    const [x, y] = at(e);
    const k1 = Math.min(400, Math.max(0.5, k * Math.exp(-e.deltaY * (e.deltaMode ? 0.05 : 0.002))));
    tx = x - ((x - tx) * k1) / k;
    ty = y - ((y - ty) * k1) / k;
    k = k1;
    set();
  }, { passive: false });
  on('pointerleave', () => (armed = false));
  on('pointerdown', (e) => {
    armed = true;
    drag = [e.clientX, e.clientY, tx, ty];
    el.setPointerCapture(e.pointerId);
  });
  on('pointermove', (e) => {
    if (!drag) return;
    const r = box.getBoundingClientRect();
    tx = drag[2] + ((e.clientX - drag[0]) * w) / r.width;
    ty = drag[3] + ((e.clientY - drag[1]) * h) / r.height;
    set();
  });
  on('pointerup', () => (drag = null));
  on('pointercancel', () => (drag = null));
  on('dblclick', () => {
    k = 1;
    tx = ty = 0;
    set();
  });
  el.style.cursor = 'grab';
  el.style.touchAction = 'none';
  const hint = html('div', 'font:10px sans-serif;color:#888;margin-top:2px');
  hint.className = 'ss-hint';
  hint.textContent = 'Ctrl/⌘ + wheel (or click, then wheel) zooms · drag pans · double-click resets';
  root.append(hint);
  set();
  return { at, view: () => [k, tx, ty], dragging: () => !!drag };
}

export function drawingView(root, img, sp) {
  const { w, h, r } = sp;
  if (sp.mode === 'svg') {
    const holder = html('div');
    holder.innerHTML = decodeDataURL(img.getAttribute('src'));
    const svg = holder.querySelector('svg');
    if (!svg) return false;
    svg.style.cssText = 'max-width:100%;height:auto;display:block';
    const plot = svg.querySelector('.ss-plot');
    const g = plot.querySelector('.ss-zoom');
    const nodes = g.querySelectorAll('circle');
    img.replaceWith(svg);
    // Nodes grow as the square root of the zoom, so that crowds separate.
    zoomPan(root, plot, plot.querySelector('.ss-bg'), w, h, (k, tx, ty) => {
      g.setAttribute('transform', `translate(${tx},${ty}) scale(${k})`);
      const rk = String(r / Math.sqrt(k));
      for (const c of nodes) c.setAttribute('r', rk);
    });
    return true;
  }

  const n = sp.n;
  const X = arr(sp.x, Float32Array);
  const Y = arr(sp.y, Float32Array);
  const G = sp.g ? arr(sp.g, [, Uint8Array, Uint16Array, , Uint32Array][sp.gb]) : null;
  const E = sp.e ? arr(sp.e, sp.eb === 2 ? Uint16Array : Uint32Array) : null;
  const nc = sp.colors.length;
  const col = (i) => (G ? G[i] % nc : 0);
  const dpr = window.devicePixelRatio || 1;
  const cv = html('canvas', `width:${w}px;max-width:100%;height:auto;display:block`);
  cv.className = 'ss-canvas';
  cv.width = Math.round(w * dpr);
  cv.height = Math.round(h * dpr);
  const ctx = cv.getContext('2d');

  // Nodes by colour (one path each), in the order Go drew the PNG.
  const start = new Int32Array(nc + 1);
  for (let i = 0; i < n; i++) start[col(i) + 1]++;
  for (let c = 0; c < nc; c++) start[c + 1] += start[c];
  const byCol = new Int32Array(n);
  const fill = start.slice();
  for (let i = 0; i < n; i++) byCol[fill[col(i)]++] = i;

  // A grid of cells of side cs px (CSR: cell c holds items[cell0[c]..cell0[c+1]]) for hover.
  const cs = Math.max(2, Math.sqrt((w * h) / Math.max(n, 1)));
  const gw = Math.ceil(w / cs) + 1;
  const gh = Math.ceil(h / cs) + 1;
  const cellOf = (x, y) => Math.min(gw - 1, Math.max(0, Math.floor(x / cs))) + gw * Math.min(gh - 1, Math.max(0, Math.floor(y / cs)));
  const cell0 = new Int32Array(gw * gh + 1);
  for (let i = 0; i < n; i++) cell0[cellOf(X[i], Y[i]) + 1]++;
  for (let c = 0; c < gw * gh; c++) cell0[c + 1] += cell0[c];
  const items = new Int32Array(n);
  const put = cell0.slice();
  for (let i = 0; i < n; i++) items[put[cellOf(X[i], Y[i])]++] = i;

  let hover = -1;
  let queued = false;
  const paint = () => {
    queued = false;
    const [k, tx, ty] = zp.view();
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, w, h);
    ctx.setTransform(dpr * k, 0, 0, dpr * k, dpr * tx, dpr * ty);
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
    const rr = r / Math.sqrt(k);
    const square = rr * k * dpr < 1.5; // a dot: a square is as good and faster
    for (let c = 0; c < nc; c++) {
      ctx.beginPath();
      for (let j = start[c]; j < start[c + 1]; j++) {
        const i = byCol[j];
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
  const zp = zoomPan(root, cv, cv, w, h, redraw);

  // The nearest node within 6 px (plus its radius) of the pointer.
  const nearest = (e) => {
    const [k, tx, ty] = zp.view();
    const [sx, sy] = zp.at(e);
    const px = (sx - tx) / k;
    const py = (sy - ty) / k;
    const rad = (6 + r * Math.sqrt(k)) / k;
    let best = -1;
    let bd = rad * rad;
    const c0 = cellOf(px - rad, py - rad);
    const c1 = cellOf(px + rad, py + rad);
    for (let cy = Math.floor(c0 / gw); cy <= Math.floor(c1 / gw); cy++) {
      for (let cx = c0 % gw; cx <= c1 % gw; cx++) {
        const c = cx + cy * gw;
        for (let j = cell0[c]; j < cell0[c + 1]; j++) {
          const i = items[j];
          const d = (X[i] - px) ** 2 + (Y[i] - py) ** 2;
          if (d < bd) {
            bd = d;
            best = i;
          }
        }
      }
    }
    return best;
  };
  // The runtime's tooltip shows the data-tip of the element under the pointer.
  const hoverAt = (e) => {
    const i = !e || zp.dragging() ? -1 : nearest(e);
    if (i === hover) return;
    hover = i;
    if (i < 0) cv.removeAttribute('data-tip');
    else cv.setAttribute('data-tip', ((sp.labels && sp.labels[i]) || 'node ' + i) + (G ? '\ngroup ' + sp.gid[G[i]] : ''));
    redraw();
  };
  cv.addEventListener('mousemove', hoverAt);
  cv.addEventListener('wheel', hoverAt);
  cv.addEventListener('mouseleave', () => hoverAt(null));
  img.replaceWith(cv);
  paint();
  return true;
}
