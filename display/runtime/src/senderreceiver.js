// The bundled-curve views: the sender/receiver diagram
// (views.SenderReceiver) and the chord diagram of bundled lines
// (views.ChordLines, chordlines.js). Go computed the control polygons
// (shared interiors: grid routes, group centres), the colours, the amount
// of every curve and the automatic opacity (gain). Small pictures come as
// Go's SVG paths (with data-tip), large ones are drawn here on a canvas
// over the frame's plot area, from the spec's typed arrays: uniform clamped
// quadratic B-splines (Go's bundle.QuadChain) whose light is accumulated
// per pixel as Go's static picture does (curve_raster.go), then shown as
// pixels, so that a change of blend or opacity repaints without drawing
// again. Under the view: a blend toggle (additive light on a dark ground,
// mix-blend-mode: plus-lighter in SVG; or alpha over white), its state in
// the root's data-blend, and an opacity slider (×2^v of the automatic
// opacity), its factor in data-opacity. A canvas view's paint time (from
// the spec to the picture, then of each repaint) is in data-paint-ms.
import { html, fmt, BAR, BUTTON, svgFromText, unpackArrays, pendingUntil, classesOf } from './util.js';

const hexRGB = (h) => [1, 3, 5].map((k) => parseInt(h.slice(k, k + 2), 16));

/**
 * The curves of the spec (its arrays read by get, util.js unpackArrays):
 * polygons, quadratic pieces, amount levels, hover text.
 */
function curves(sp, get) {
  const P = get(sp.pts);
  const il = get(sp.il);
  const ia = get(sp.ia);
  const ioff = new Uint32Array(il.length + 1);
  for (let k = 0; k < il.length; k++) ioff[k + 1] = ioff[k] + il[k];
  const an = get(sp.an);
  const n = sp.n;
  const A = new Uint32Array(n);
  for (let p = 0, i = 0; p < an.length; p++) for (let k = 0; k < an[p]; k++) A[i++] = p;
  const B = get(sp.b);
  const IV = get(sp.iv);
  const msgs = get(sp.msgs);
  const bytes = get(sp.bytes);
  const level = classesOf(msgs, sp.levelSteps);
  const beta = sp.beta || 1;
  /** Curve i's control polygon (x, y pairs), straightened by beta. */
  const poly = (i) => {
    const iv = IV[i];
    const m = il[iv] + 2;
    const out = new Float64Array(2 * m);
    const put = (k, p) => {
      out[2 * k] = P[2 * p];
      out[2 * k + 1] = P[2 * p + 1];
    };
    put(0, A[i]);
    for (let k = 0; k < il[iv]; k++) put(k + 1, ia[ioff[iv] + k]);
    put(m - 1, B[i]);
    if (beta < 1 && m > 2) {
      const ax = out[0], ay = out[1], bx = out[2 * m - 2], by = out[2 * m - 1];
      for (let k = 1; k < m - 1; k++) {
        const s = k / (m - 1);
        out[2 * k] = beta * out[2 * k] + (1 - beta) * (ax + s * (bx - ax));
        out[2 * k + 1] = beta * out[2 * k + 1] + (1 - beta) * (ay + s * (by - ay));
      }
    }
    return out;
  };
  /** The quadratic pieces [x0, y0, cx, cy, x1, y1]… of curve i (bundle.QuadChain). */
  const quads = (i) => {
    const p = poly(i);
    const m = p.length / 2;
    if (m === 2) return [[p[0], p[1], (p[0] + p[2]) / 2, (p[1] + p[3]) / 2, p[2], p[3]]];
    const q = [];
    for (let k = 0; k <= m - 3; k++) {
      const x0 = k === 0 ? p[0] : (p[2 * k] + p[2 * k + 2]) / 2;
      const y0 = k === 0 ? p[1] : (p[2 * k + 1] + p[2 * k + 3]) / 2;
      const x1 = k === m - 3 ? p[2 * m - 2] : (p[2 * k + 2] + p[2 * k + 4]) / 2;
      const y1 = k === m - 3 ? p[2 * m - 1] : (p[2 * k + 3] + p[2 * k + 5]) / 2;
      q.push([x0, y0, p[2 * k + 2], p[2 * k + 3], x1, y1]);
    }
    return q;
  };
  const tip = (i) => {
    const nm = msgs[i];
    let m = nm === 1 ? '1 message' : fmt(nm) + ' messages';
    if (bytes) m += ', ' + fmt(bytes[i]) + ' bytes';
    const pq = sp.units[A[i]] + '→' + sp.units[B[i] - sp.dstOff];
    return sp.tipFirst ? pq + ': ' + m : m + ', ' + pq;
  };
  return { n, level, levels: sp.levels, quads, tip };
}

/**
 * The light of the curves, accumulated per pixel as Go's curveField does
 * (display/views/curve_raster.go): light R, G, B and coverage, each curve an
 * anti-aliased one-pixel line (Wu's) of its amount, its colour running
 * along it. Blend and opacity only change how it becomes pixels.
 */
function accumulator(C, acc, W, H, scale, colorOf) {
  let fr = 0, fg = 0, fb = 0, dr = 0, dg = 0, db = 0;
  const deposit = (x, y, t, a) => {
    if (x < 0 || y < 0 || x >= W || y >= H || a <= 0) return;
    const i = 4 * (y * W + x);
    acc[i] += a * (fr + t * dr);
    acc[i + 1] += a * (fg + t * dg);
    acc[i + 2] += a * (fb + t * db);
    acc[i + 3] += a;
  };
  const plot = (x, y, steep, t, a) => {
    const yc = y - 0.5;
    const yi = Math.floor(yc);
    const frac = yc - yi;
    const xi = Math.floor(x);
    if (steep) {
      deposit(yi, xi, t, a * (1 - frac));
      deposit(yi + 1, xi, t, a * frac);
    } else {
      deposit(xi, yi, t, a * (1 - frac));
      deposit(xi, yi + 1, t, a * frac);
    }
  };
  const segment = (x0, y0, x1, y1, t0, t1, a) => {
    let dx = x1 - x0, dy = y1 - y0, tmp;
    const steep = Math.abs(dy) > Math.abs(dx);
    if (steep) {
      tmp = x0; x0 = y0; y0 = tmp;
      tmp = x1; x1 = y1; y1 = tmp;
      tmp = dx; dx = dy; dy = tmp;
    }
    if (x1 < x0) {
      tmp = x0; x0 = x1; x1 = tmp;
      tmp = y0; y0 = y1; y1 = tmp;
      tmp = t0; t0 = t1; t1 = tmp;
      dx = -dx;
      dy = -dy;
    }
    const xs = Math.ceil(x0 - 0.5);
    const n = Math.ceil(x1 - 0.5) - xs;
    if (dx < 1e-9 || n <= 0) {
      let xm = (x0 + x1) / 2, ym = (y0 + y1) / 2;
      if (steep) {
        tmp = xm; xm = ym; ym = tmp;
      }
      plot(xm, ym, false, (t0 + t1) / 2, a * Math.max(Math.hypot(dx, dy), 0.25));
      return;
    }
    const grad = dy / dx;
    const per = a * Math.sqrt(1 + grad * grad);
    for (let k = 0; k < n; k++) {
      const x = xs + k + 0.5;
      plot(x, y0 + grad * (x - x0), steep, t0 + ((t1 - t0) * (x - x0)) / dx, per);
    }
  };
  const quad = (q, t0, t1, a) => {
    const x0 = q[0] * scale, y0 = q[1] * scale, cx = q[2] * scale, cy = q[3] * scale, x1 = q[4] * scale, y1 = q[5] * scale;
    const l = Math.hypot(cx - x0, cy - y0) + Math.hypot(x1 - cx, y1 - cy);
    const n = Math.max(1, Math.min(Math.floor(l / 2), 512));
    let px = x0, py = y0;
    for (let k = 1; k <= n; k++) {
      const s = k / n, u = 1 - s;
      const x = u * u * x0 + 2 * u * s * cx + s * s * x1;
      const y = u * u * y0 + 2 * u * s * cy + s * s * y1;
      segment(px, py, x, y, t0 + ((t1 - t0) * (k - 1)) / n, t0 + (t1 - t0) * s, a);
      px = x;
      py = y;
    }
  };
  // Draws curves lo…hi−1.
  return (lo, hi) => {
    for (let i = lo; i < hi; i++) {
      const [from, to] = colorOf(i);
      fr = from[0] / 255; fg = from[1] / 255; fb = from[2] / 255;
      dr = to[0] / 255 - fr; dg = to[1] / 255 - fg; db = to[2] / 255 - fb;
      const q = C.quads(i);
      const a = C.level[i] / C.levels;
      for (let k = 0; k < q.length; k++) quad(q[k], k / q.length, (k + 1) / q.length, a);
    }
  };
}

/**
 * The canvas plot: paint(blend, mult), hover, and start(curves, get),
 * called once the spec's arrays are read. The first picture is Go's
 * static one (the same pixels: Go drew them from the same light); the
 * light is accumulated here in slices meanwhile, and a change of blend
 * or opacity repaints from it once it is there (root's data-ready="1").
 */
function canvasPlot(sp, cv, root, img) {
  const { w, h } = sp;
  const dpr = window.devicePixelRatio || 1;
  const W = (cv.width = Math.round(w * dpr));
  const H = (cv.height = Math.round(h * dpr));
  const ctx = cv.getContext('2d');
  let C = null;
  const acc = new Float32Array(4 * W * H);
  let draw = null;
  const im = ctx.createImageData(W, H);
  const px = im.data;
  // As Go's curveField.pixel: additive light 1 − e^(−gain·light) over the
  // dark ground; alpha the curves' mean colour by coverage over white.
  const tone = (blend, mult) => {
    const gain = sp.gain * mult;
    const add = blend === 'additive';
    const bg = hexRGB(add ? sp.dark : sp.light).map((v) => v / 255);
    for (let p = 0, i = 0; p < W * H; p++, i += 4) {
      const cov = acc[i + 3];
      for (let c = 0; c < 3; c++) {
        let v = bg[c];
        if (cov > 0) {
          if (add) v = bg[c] + (1 - bg[c]) * Math.min(1, 1 - Math.exp(-gain * acc[i + c]));
          else {
            const k = 1 - Math.exp(-gain * cov);
            v = bg[c] * (1 - k) + (acc[i + c] / cov) * k;
          }
        }
        px[i + c] = Math.round(Math.min(Math.max(v, 0), 1) * 255);
      }
      px[i + 3] = 255;
    }
    ctx.putImageData(im, 0, 0);
  };
  const made = performance.now();
  let ready = false;
  let want = null;
  const paint = (blend, mult, initial) => {
    if (ready) tone(blend, mult);
    else if (initial && img.complete && img.naturalWidth > 0) {
      ctx.drawImage(img, sp.left, sp.top, w, h, 0, 0, W, H);
      want = null;
    } else want = [blend, mult];
  };
  let next = 0;
  // The curves, once the spec's arrays are read: their light is then
  // accumulated in slices.
  const start = (curves, get) => {
    C = curves;
    let colorOf;
    if (sp.grad) {
      const g = [hexRGB(sp.grad[0]), hexRGB(sp.grad[1])];
      colorOf = () => g;
    } else {
      const table = sp.colors.map(hexRGB);
      const ci = get(sp.ci);
      colorOf = (i) => [table[ci[i]], table[ci[i]]];
    }
    draw = accumulator(C, acc, W, H, dpr, colorOf);
    setTimeout(slice, 0);
  };
  const slice = () => {
    const t = performance.now();
    while (next < C.n && performance.now() - t < 40) {
      const hi = Math.min(C.n, next + 500);
      draw(next, hi);
      next = hi;
    }
    if (next < C.n) {
      setTimeout(slice, 0);
      return;
    }
    ready = true;
    root.setAttribute('data-ready', '1');
    root.setAttribute('data-ready-ms', String(Math.round(performance.now() - made)));
    if (want) tone(...want);
  };
  // Hover: the nearest curve within 5 px (pieces' boxes first).
  let box = null;
  const index = () => {
    const cur = [], bx = [], qs = [];
    for (let i = 0; i < C.n; i++) {
      for (const q of C.quads(i)) {
        cur.push(i);
        qs.push(q);
        bx.push(Math.min(q[0], q[2], q[4]), Math.min(q[1], q[3], q[5]), Math.max(q[0], q[2], q[4]), Math.max(q[1], q[3], q[5]));
      }
    }
    return { cur, bx: Float32Array.from(bx), qs };
  };
  const nearest = (x, y) => {
    if (!C) return -1;
    if (!box) box = index();
    const R = 5;
    let best = -1, bd = R * R;
    const { cur, bx, qs } = box;
    for (let j = 0; j < cur.length; j++) {
      if (x < bx[4 * j] - R || y < bx[4 * j + 1] - R || x > bx[4 * j + 2] + R || y > bx[4 * j + 3] + R) continue;
      const q = qs[j];
      for (let s = 0; s <= 24; s++) {
        const t = s / 24, u = 1 - t;
        const px = u * u * q[0] + 2 * u * t * q[2] + t * t * q[4];
        const py = u * u * q[1] + 2 * u * t * q[3] + t * t * q[5];
        const d = (px - x) * (px - x) + (py - y) * (py - y);
        if (d < bd) {
          bd = d;
          best = cur[j];
        }
      }
    }
    return best;
  };
  return { paint, nearest, start };
}

export function curveView(root, img, sp) {
  const start = performance.now();
  const box = html('div', 'position:relative;max-width:100%');
  box.className = 'ss-curves-view';
  let doc = sp.frame;
  if (sp.plot) doc = doc.replace(/<text [^>]*class="ss-caption"/, (m) => sp.plot + m);
  const frame = svgFromText(doc);
  if (!frame) return false;
  const W = Number(frame.getAttribute('width'));
  const H = Number(frame.getAttribute('height'));
  box.style.width = W + 'px';
  frame.style.cssText = 'width:100%;height:auto;display:block';
  box.append(frame);
  const ground = frame.querySelector('.ss-ground');
  let C = null;
  let blend = sp.blend;
  let mult = 1;
  let apply;
  if (sp.plot) {
    const plot = frame.querySelector('svg.ss-plot');
    const paths = [...plot.querySelectorAll('path.ss-curve')];
    // Wider transparent twins on top take the hover.
    const hits = document.createElementNS('http://www.w3.org/2000/svg', 'g');
    hits.setAttribute('class', 'ss-hits');
    for (const p of paths) {
      const t = p.cloneNode(false);
      t.setAttribute('class', 'ss-hit');
      t.removeAttribute('style');
      t.setAttribute('stroke', 'transparent');
      t.setAttribute('stroke-width', '7');
      t.setAttribute('fill', 'none');
      t.style.pointerEvents = 'stroke';
      hits.append(t);
    }
    plot.append(hits);
    apply = () => {
      for (const p of paths) {
        const lv = Number(p.getAttribute('data-level'));
        p.setAttribute('stroke-opacity', String(Math.min(1, (lv / sp.levels) * sp.gain * mult)));
        p.style.mixBlendMode = blend === 'additive' ? 'plus-lighter' : 'normal';
      }
      if (ground) ground.setAttribute('fill', blend === 'additive' ? sp.dark : sp.light);
    };
  } else {
    const cv = html('canvas',
      `position:absolute;left:${(100 * sp.left) / W}%;top:${(100 * sp.top) / H}%;width:${(100 * sp.w) / W}%;height:${(100 * sp.h) / H}%`);
    cv.className = 'ss-canvas';
    box.append(cv);
    const plot = canvasPlot(sp, cv, root, img);
    pendingUntil(root, unpackArrays(sp.bin).then((get) => {
      C = curves(sp, get);
      plot.start(C, get);
      root.setAttribute('data-build-ms', String(Math.round(performance.now() - start)));
    }));
    let first = true; // the first paint counts from the spec to the picture
    apply = () => {
      const t0 = first ? start : performance.now();
      plot.paint(blend, mult, first);
      first = false;
      root.setAttribute('data-paint-ms', String(Math.round(performance.now() - t0)));
    };
    let hover = -1;
    cv.addEventListener('mousemove', (e) => {
      const b = cv.getBoundingClientRect();
      const i = plot.nearest(((e.clientX - b.left) * sp.w) / b.width, ((e.clientY - b.top) * sp.h) / b.height);
      if (i === hover) return;
      hover = i;
      if (i < 0) cv.removeAttribute('data-tip');
      else cv.setAttribute('data-tip', C.tip(i));
    });
    cv.addEventListener('mouseleave', () => {
      hover = -1;
      cv.removeAttribute('data-tip');
    });
  }
  // The controls: blend toggle and opacity slider.
  const bar = html('div', BAR);
  bar.className = 'ss-curve-controls';
  const toggle = html('button', BUTTON);
  toggle.className = 'ss-blend';
  const label = () => (toggle.textContent = blend === 'additive' ? 'Blend: additive' : 'Blend: alpha');
  toggle.onclick = () => {
    blend = blend === 'additive' ? 'alpha' : 'additive';
    root.setAttribute('data-blend', blend);
    label();
    apply();
  };
  label();
  const slider = html('input', 'width:140px');
  slider.type = 'range';
  slider.className = 'ss-opacity';
  slider.min = '-3';
  slider.max = '3';
  slider.step = '0.25';
  slider.value = '0';
  slider.title = 'Opacity (× 2^v of the automatic opacity)';
  slider.oninput = () => {
    mult = Math.pow(2, Number(slider.value));
    root.setAttribute('data-opacity', String(mult));
    apply();
  };
  bar.append(toggle, html('span', '', 'opacity'), slider);
  root.setAttribute('data-blend', blend);
  img.replaceWith(box);
  root.append(bar);
  apply();
  return true;
}

export const senderreceiverView = curveView;
