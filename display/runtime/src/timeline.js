// The message timeline (views.Timeline). Go bundled the curves and drew
// the pictures; this view makes them live. Small timelines (mode "svg")
// are Go's SVG, every message a path grouped by its route's bundle; large
// ones (mode "canvas") are the frame (SVG) over a canvas compositing Go's
// layers: the ground and the curves of each blend (those of the static
// picture's blend taken from the static picture).
//
// Zoom is in time, as in Vampir: Ctrl/⌘ + wheel (or click, then wheel)
// zooms the time axis about the pointer (a notch 1.25×, zoom.js), dragging
// pans in time, a double click resets; the lanes keep their height, so they
// stay level with their labels. The axis is redrawn for the time window
// shown, the control bar names the window (views' Window(ctx, from, to)
// redraws it with its bundles computed anew) and the download is the view
// as zoomed. data-view="k tx" (plot x ↦ k·x + tx) and data-window="from
// to" (seconds) say where the view is. Hovering says the lane, the region
// and the time under the pointer, after the bundle's Go-formatted text if
// one passes there; clicking a lane label hides the bundles to and from
// that lane (again: shows them); a button switches additive and alpha
// blending (data-blend) and a slider sets the opacity (data-opacity).
import { html, fmt, svgFromText, unpackArrays, pendingUntil, imagePixels } from './util.js';
import { wheelFactor } from './zoom.js';

const NS = 'http://www.w3.org/2000/svg';

function image(b64) {
  return new Promise((resolve, reject) => {
    const im = new Image();
    im.onload = () => resolve(im);
    im.onerror = () => reject(new Error('cannot decode a timeline layer'));
    im.src = 'data:image/png;base64,' + b64;
  });
}

/** About n round values covering [lo, hi] and their step (Go's niceTicks). */
export function niceTicks(lo, hi, n) {
  const span = hi - lo;
  if (!(span > 0) || n < 1) return { ticks: [lo], step: 1 };
  let step = Math.pow(10, Math.floor(Math.log10(span / n)));
  for (const m of [1, 2, 5, 10]) {
    if (span / (step * m) <= n) {
      step *= m;
      break;
    }
  }
  const ticks = [];
  for (let i = Math.ceil(lo / step - 1e-9); i * step <= hi + step * 1e-9; i++) ticks.push(i * step);
  return { ticks, step };
}

/** A time with the decimals a step of step seconds needs (Go's tickText). */
export function tickText(v, step) {
  const d = Math.min(12, Math.max(0, -Math.floor(Math.log10(step) + 1e-9)));
  const s = v.toFixed(d);
  return /^-0\.?0*$/.test(s) ? s.slice(1) : s;
}

export function timelineView(root, img, sp) {
  const box = html('div', 'position:relative;max-width:100%');
  box.className = 'ss-timeline';
  box.style.width = sp.w + 'px';
  const frame = svgFromText(sp.svg);
  if (!frame) return false;
  frame.style.cssText = 'width:100%;height:auto;display:block';
  box.append(frame);

  const hidden = new Set();
  let blend = sp.blend;
  let opacity = 1; // a multiplier of the picture's own opacity
  // The zoom, in time only: plot x ↦ k·x + x; y stays.
  let t = { k: 1, x: 0 };
  const view = sp.mode === 'canvas' ? canvasPlot(root, box, frame, sp, img) : svgPlot(frame, sp);
  if (!view) return false;

  // Time ↔ plot px (unzoomed) and the window shown.
  const T0 = sp.t0, T1 = sp.t1;
  const secPerPx = (T1 - T0) / sp.pw;
  const timeAt = (sx) => T0 + ((sx - t.x) / t.k) * secPerPx;
  const win = () => [timeAt(0), timeAt(sp.pw)];
  const pointDecimals = () => Math.min(12, Math.max(0, Math.ceil(-Math.log10(secPerPx / t.k))));

  // The time axis: Go's ticks are replaced by those of the window shown,
  // drawn as Go draws them (copies of its first tick).
  const axis = frame.querySelector('.ss-axis');
  const tickLine = axis && axis.querySelector('line') && axis.querySelector('line').cloneNode();
  const tickLabel = axis && axis.querySelector('text') && axis.querySelector('text').cloneNode();
  const drawAxis = () => {
    if (!axis || !tickLine || !tickLabel) return;
    const [lo, hi] = win();
    const { ticks, step } = niceTicks(lo, hi, Math.max(2, Math.floor(sp.pw / 90)));
    axis.replaceChildren();
    for (const v of ticks) {
      const x = sp.px + ((v - T0) / secPerPx) * t.k + t.x;
      if (x < sp.px - 0.5 || x > sp.px + sp.pw + 0.5) continue;
      const l = tickLine.cloneNode();
      l.setAttribute('x1', x.toFixed(2));
      l.setAttribute('x2', x.toFixed(2));
      const tx = tickLabel.cloneNode();
      tx.setAttribute('x', x.toFixed(2));
      tx.textContent = tickText(v, step);
      axis.append(l, tx);
    }
  };

  const windowText = html('span', 'color:#555');
  windowText.className = 'ss-window';
  const state = () => {
    const [lo, hi] = win();
    root.setAttribute('data-blend', blend);
    root.setAttribute('data-opacity', String(opacity));
    root.setAttribute('data-view', t.k + ' ' + t.x);
    root.setAttribute('data-window', lo + ' ' + hi);
    root.setAttribute('data-hidden', [...hidden].sort((a, b) => a - b).join(' '));
    const d = Math.min(12, Math.max(3, Math.ceil(-Math.log10((hi - lo) / 1000))));
    const a = lo.toFixed(d), b = hi.toFixed(d);
    windowText.textContent = t.k === 1 ? '' : `window ${a}–${b} s · Window(ctx, ${a}, ${b}) redraws it in full detail`;
  };
  const update = () => {
    state();
    drawAxis();
    view.draw({ blend, opacity, t, hidden });
  };

  // Lanes: a click hides (or shows again) the bundles of that lane.
  for (const lab of frame.querySelectorAll('.ss-lane')) {
    lab.style.cursor = 'pointer';
    lab.addEventListener('click', () => {
      const i = Number(lab.getAttribute('data-lane'));
      if (hidden.has(i)) hidden.delete(i);
      else hidden.add(i);
      lab.setAttribute('fill', hidden.has(i) ? '#bbbbbb' : '#222222');
      lab.setAttribute('text-decoration', hidden.has(i) ? 'line-through' : 'none');
      update();
    });
  }

  // Zoom and pan in time: Ctrl/⌘ + wheel (or a plain wheel after a click
  // into the view) zooms about the pointer, dragging pans, a double click
  // resets. The window stays inside the trace.
  const target = view.target;
  let armed = false;
  // The plot's box on the page, from the frame's (a nested <svg>'s client
  // rect is that of its content, which a zoom stretches beyond the plot).
  const W = Number(frame.getAttribute('width'));
  const plotBox = () => {
    const b = frame.getBoundingClientRect();
    const s = b.width / W;
    return { left: b.left + sp.px * s, top: b.top + sp.py * s, width: sp.pw * s, height: sp.ph * s };
  };
  const plotAt = (e) => {
    const b = plotBox();
    return [((e.clientX - b.left) * sp.pw) / b.width, ((e.clientY - b.top) * sp.ph) / b.height];
  };
  const clamp = (k, x) => {
    k = Math.min(1000, Math.max(1, k));
    return { k, x: Math.min(0, Math.max(sp.pw * (1 - k), x)) };
  };
  const setT = (n) => {
    t = n;
    update();
  };
  target.addEventListener(
    'wheel',
    (e) => {
      if (!(e.ctrlKey || e.metaKey || armed)) return;
      e.preventDefault();
      const [sx] = plotAt(e);
      const k = clamp(t.k * wheelFactor(e), 0).k;
      setT(clamp(k, sx - ((sx - t.x) * k) / t.k));
    },
    { passive: false },
  );
  let drag = null;
  target.addEventListener('pointerdown', (e) => {
    armed = true;
    if (e.button === 0) drag = { x: e.clientX, t };
  });
  window.addEventListener('pointermove', (e) => {
    if (!drag) return;
    const dx = ((e.clientX - drag.x) * sp.pw) / plotBox().width;
    if (dx) setT(clamp(drag.t.k, drag.t.x + dx));
  });
  window.addEventListener('pointerup', () => (drag = null));
  target.addEventListener('pointerleave', () => (armed = false));
  target.addEventListener('dblclick', () => setT({ k: 1, x: 0 }));
  target.style.cursor = 'grab';

  // Hover: the bundle under the pointer (within a few px), then the lane,
  // region and time there.
  const lanes = sp.laneNames || [];
  const classes = sp.classNames || [];
  target.addEventListener('mousemove', (e) => {
    const [sx, sy] = plotAt(e);
    const { tip, region } = view.hit(sx, sy, 4, e, hidden, t);
    const lane = Math.floor(sy / sp.laneH);
    const where = [];
    if (lane >= 0 && lane < lanes.length) where.push(lanes[lane]);
    if (region >= 0 && region < classes.length) where.push(classes[region]);
    where.push(timeAt(sx).toFixed(pointDecimals()) + ' s');
    target.setAttribute('data-tip', (tip ? tip + '\n' : '') + where.join(' · '));
  });
  target.addEventListener('mouseleave', () => {
    target.removeAttribute('data-tip');
    view.hit(-1, -1, 0, null, hidden, t);
  });

  // Controls.
  const bar = html('div', 'font:11px sans-serif;color:#555;margin-top:3px;display:flex;gap:10px;align-items:center;flex-wrap:wrap');
  bar.className = 'ss-controls';
  const toggle = html('button', 'font:11px sans-serif;padding:1px 6px');
  toggle.className = 'ss-blend';
  const label = () => (toggle.textContent = blend === 'additive' ? 'additive colours (switch to alpha)' : 'alpha blending (switch to additive)');
  label();
  toggle.addEventListener('click', () => {
    blend = blend === 'additive' ? 'alpha' : 'additive';
    label();
    update();
  });
  const slider = html('input', 'width:120px');
  slider.className = 'ss-opacity';
  slider.type = 'range';
  slider.min = '0.05';
  slider.max = '1';
  slider.step = '0.05';
  slider.value = '1';
  slider.addEventListener('input', () => {
    opacity = Number(slider.value);
    update();
  });
  const op = html('span', '', 'opacity');
  const hint = html('span', 'color:#888', 'Ctrl/⌘ + wheel zooms time · drag pans · double-click resets · click a lane to hide its bundles');
  hint.className = 'ss-hint';
  bar.append(toggle, op, slider, windowText, hint);
  img.replaceWith(box);
  root.append(bar);
  update();
  // The download: the frame as it is now (zoomed axis and plot), a canvas
  // plot as an image in its place.
  return {
    svg: () => {
      const copy = frame.cloneNode(true);
      copy.removeAttribute('style');
      const url = view.picture && view.picture();
      if (url) {
        const im = document.createElementNS(NS, 'image');
        for (const [k, v] of [['x', sp.px], ['y', sp.py], ['width', sp.pw], ['height', sp.ph]]) im.setAttribute(k, String(v));
        im.setAttribute('preserveAspectRatio', 'none');
        im.setAttribute('href', url);
        const bg = copy.querySelector(':scope > rect');
        if (bg) bg.after(im);
        else copy.prepend(im);
      }
      return '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(copy);
    },
  };
}

// svgPlot: Go's vector plot, restyled in place.
function svgPlot(frame, sp) {
  const plot = frame.querySelector('svg.ss-plot');
  if (!plot) return null;
  const zoomG = plot.querySelector('.ss-zoom');
  const ground = plot.querySelector('.ss-ground');
  const intervals = [...plot.querySelectorAll('.ss-interval')];
  const curves = plot.querySelector('.ss-curves');
  const bundles = [...plot.querySelectorAll('.ss-bundle')];
  const paths = [...plot.querySelectorAll('.ss-bundle path')];
  // A bundle's text shows when the pointer is near one of its curves (the
  // plot carries it then), not anywhere in the box around them.
  for (const b of bundles) {
    b.setAttribute('data-bundle-tip', b.getAttribute('data-tip') || '');
    b.removeAttribute('data-tip');
  }
  // The zoom stretches time only: strokes keep their width.
  for (const p of paths) p.style.vectorEffect = 'non-scaling-stroke';
  let lit = null;
  return {
    target: plot,
    draw({ blend, opacity, t, hidden }) {
      const add = blend === 'additive';
      const colours = add ? sp.groundAdd : sp.groundAlpha;
      if (ground) ground.setAttribute('fill', colours[0]);
      for (const r of intervals) r.setAttribute('fill', colours[1 + Number(r.getAttribute('data-class'))]);
      curves.style.mixBlendMode = add ? 'plus-lighter' : 'normal';
      curves.setAttribute('stroke-opacity', String(Math.min(1, (add ? sp.opAdd : sp.opAlpha) * opacity)));
      if (t.k === 1 && t.x === 0) zoomG.removeAttribute('transform');
      else zoomG.setAttribute('transform', `translate(${t.x},0) scale(${t.k},1)`);
      for (const b of bundles) {
        const off = hidden.has(Number(b.getAttribute('data-from'))) || hidden.has(Number(b.getAttribute('data-to')));
        b.style.display = off ? 'none' : '';
      }
      for (const p of paths) {
        const off = hidden.has(Number(p.getAttribute('data-from'))) || hidden.has(Number(p.getAttribute('data-to')));
        p.style.display = off ? 'none' : '';
      }
    },
    hit(sx, sy, r, e) {
      if (lit) {
        lit.removeAttribute('stroke-width');
        lit = null;
      }
      if (!e) return { tip: null, region: -1 };
      // The region under the pointer: the topmost interval (inner ones are
      // drawn over the ones they lie in).
      let region = -1;
      for (const el of document.elementsFromPoint(e.clientX, e.clientY)) {
        if (el.classList && el.classList.contains('ss-interval') && plot.contains(el)) {
          region = Number(el.getAttribute('data-class'));
          break;
        }
      }
      // The bundle whose path is under the pointer or a few px away.
      for (const [dx, dy] of [[0, 0], [1, 0], [-1, 0], [0, 1], [0, -1], [2, 2], [-2, -2], [2, -2], [-2, 2], [3, 0], [-3, 0], [0, 3], [0, -3]]) {
        for (const el of document.elementsFromPoint(e.clientX + dx, e.clientY + dy)) {
          const b = el.closest && el.closest('.ss-bundle');
          if (b && plot.contains(b) && b.style.display !== 'none') {
            lit = b;
            b.setAttribute('stroke-width', '2');
            return { tip: b.getAttribute('data-bundle-tip'), region };
          }
        }
      }
      return { tip: null, region };
    },
  };
}

// canvasPlot: Go's PNG layers composited on a canvas over the frame's plot
// area, the curves of the static picture's blend taken from it
// (curvesFromStatic); hover and hidden lanes use the heaviest routes'
// polylines (hover names the heaviest bundle within a few px of the
// pointer). The root is data-live-pending until the layers and the routes
// are read, then the box data-painted.
function canvasPlot(root, box, frame, sp, img) {
  const H = Number(frame.getAttribute('height'));
  const W = Number(frame.getAttribute('width'));
  const dpr = window.devicePixelRatio || 1;
  const cv = html('canvas', `position:absolute;left:${(100 * sp.px) / W}%;top:${(100 * sp.py) / H}%;width:${(100 * sp.pw) / W}%;height:${(100 * sp.ph) / H}%`);
  cv.className = 'ss-canvas';
  cv.width = Math.round(sp.pw * dpr);
  cv.height = Math.round(sp.ph * dpr);
  box.append(cv);
  const ctx = cv.getContext('2d');
  const layers = {};
  // The routes, heaviest first: polylines (route r's points are
  // pts[2·rs[r]…2·rs[r+1])), lanes and hover text.
  let pts = new Float32Array(0);
  let rs = [0];
  let rFrom = [], rTo = [];
  let text = () => null;
  let last = null;
  let lit = -1;
  const load = async () => {
    const layer = (b64) => (b64 ? image(b64) : null);
    const [get, ga, gl, ca, cl] = await Promise.all([unpackArrays(sp.bin), image(sp.imgGroundAdd), image(sp.imgGroundAlpha), layer(sp.imgCurvesAdd), layer(sp.imgCurvesAlpha)]);
    ({ pts, rs } = polylines(get(sp.rx), get(sp.ry), get(sp.rn)));
    rFrom = get(sp.rFrom);
    rTo = get(sp.rTo);
    text = routeTexts(sp, get);
    Object.assign(layers, {
      ga, gl,
      ca: ca || (await curvesFromStatic(img, sp.staticPlot, ga, true)),
      cl: cl || (await curvesFromStatic(img, sp.staticPlot, gl, false)),
    });
    if (last) paint(last);
    box.setAttribute('data-painted', '1');
  };
  pendingUntil(root, load());
  // Route r's polyline as the view shows it (time zoomed by t).
  const route = (r, t) => {
    ctx.beginPath();
    for (let j = rs[r]; j < rs[r + 1]; j++) {
      const x = pts[2 * j] * t.k + t.x;
      const y = pts[2 * j + 1];
      if (j === rs[r]) ctx.moveTo(x, y);
      else ctx.lineTo(x, y);
    }
  };
  const paint = (s) => {
    last = s;
    if (!layers.ga) return;
    const { blend, opacity, t, hidden } = s;
    const add = blend === 'additive';
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.globalCompositeOperation = 'source-over';
    ctx.globalAlpha = 1;
    ctx.fillStyle = add ? sp.groundAdd[0] : sp.groundAlpha[0];
    ctx.fillRect(0, 0, sp.pw, sp.ph);
    ctx.setTransform(dpr * t.k, 0, 0, dpr, dpr * t.x, 0);
    ctx.imageSmoothingEnabled = t.k < 2;
    ctx.drawImage(add ? layers.ga : layers.gl, 0, 0, sp.pw, sp.ph);
    ctx.globalCompositeOperation = add ? 'lighter' : 'source-over';
    ctx.globalAlpha = opacity;
    ctx.drawImage(add ? layers.ca : layers.cl, 0, 0, sp.pw, sp.ph);
    ctx.globalCompositeOperation = 'source-over';
    ctx.globalAlpha = 1;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    // Hidden lanes: their heaviest bundles painted over in the ground.
    if (hidden.size) {
      ctx.strokeStyle = add ? sp.groundAdd[0] : sp.groundAlpha[0];
      ctx.lineWidth = 3;
      for (let r = 0; r + 1 < rs.length; r++) {
        if (hidden.has(rFrom[r]) || hidden.has(rTo[r])) {
          route(r, t);
          ctx.stroke();
        }
      }
    }
    if (lit >= 0) {
      route(lit, t);
      ctx.strokeStyle = add ? '#ffffff' : '#222222';
      ctx.lineWidth = 1.5;
      ctx.stroke();
    }
  };
  return {
    target: cv,
    draw: paint,
    picture: () => cv.toDataURL('image/png'),
    hit(px, py, r, e, hidden, t) {
      // The heaviest bundle (routes come heaviest first) passing within r
      // px of the pointer as the view shows it.
      let best = -1;
      const r2 = r * r;
      if (e) {
        for (let k = 0; k + 1 < rs.length && best < 0; k++) {
          if (hidden.has(rFrom[k]) || hidden.has(rTo[k])) continue;
          for (let j = rs[k]; j + 1 < rs[k + 1]; j++) {
            const ax = pts[2 * j] * t.k + t.x, ay = pts[2 * j + 1];
            const bx = pts[2 * j + 2] * t.k + t.x, by = pts[2 * j + 3];
            const dx = bx - ax, dy = by - ay;
            const l2 = dx * dx + dy * dy;
            const u = l2 > 0 ? Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / l2)) : 0;
            const ex = ax + u * dx - px, ey = ay + u * dy - py;
            if (ex * ex + ey * ey <= r2) {
              best = k;
              break;
            }
          }
        }
      }
      if (best !== lit) {
        lit = best;
        if (last) paint(last);
      }
      return { tip: best >= 0 ? text(best) : null, region: -1 };
    },
  };
}

/**
 * The routes' hover polylines from their interior points (X, Y in tenths
 * of a px, N[r] of them for route r), sampled as Go's curves pass
 * them: the first point, then each piece of bundle.InteriorQuads (from the
 * midpoint of edges k, k+1 through point k+1 to the midpoint of edges
 * k+1, k+2) at quarters; a route of two points is their segment. Route r's
 * points are pts[2·rs[r]…2·rs[r+1]).
 */
export function polylines(X, Y, N) {
  const out = [];
  const rs = [0];
  let s = 0;
  for (let r = 0; r < N.length; r++) {
    const m = N[r];
    const x = (k) => X[s + k] / 10;
    const y = (k) => Y[s + k] / 10;
    out.push(x(0), y(0));
    if (m === 2) out.push(x(1), y(1));
    for (let k = 0; k + 2 < m; k++) {
      const x0 = (x(k) + x(k + 1)) / 2, y0 = (y(k) + y(k + 1)) / 2;
      const x1 = (x(k + 1) + x(k + 2)) / 2, y1 = (y(k + 1) + y(k + 2)) / 2;
      for (let q = 1; q <= 4; q++) {
        const t = q / 4, u = 1 - t;
        out.push(u * u * x0 + 2 * u * t * x(k + 1) + t * t * x1, u * u * y0 + 2 * u * t * y(k + 1) + t * t * y1);
      }
    }
    s += m;
    rs.push(out.length / 2);
  }
  return { pts: Float32Array.from(out), rs };
}

const BYTE_UNITS = ['B', 'kB', 'MB', 'GB', 'TB', 'PB', 'EB'];

/** The digits v with dec decimals: pointed(-150, 2) is "-1.50" (Go's pointed). */
export function pointed(v, dec) {
  const sign = v < 0 ? '-' : '';
  const s = String(Math.abs(v));
  if (!dec) return sign + s;
  const d = s.padStart(dec + 1, '0');
  return sign + d.slice(0, -dec) + '.' + d.slice(-dec);
}

/**
 * Route r's hover text from the spec's numbers, as Go's hoverText writes
 * it (Go's routeText): "N messages, B, P→Q, t0–t1 s" (see hoverSpec in
 * timeline_spec.go); or Go's own text when the spec carries it (rText).
 */
function routeTexts(sp, get) {
  if (sp.rText) return (r) => sp.rText[r];
  const msgs = get(sp.rMsgs), byt = get(sp.rBytes), t0 = get(sp.rT0), dur = get(sp.rDur);
  const from = get(sp.rFrom), to = get(sp.rTo);
  const lanes = sp.laneNames;
  return (r) => {
    let s = msgs[r] === 1 ? '1 message' : fmt(msgs[r]) + ' messages';
    if (byt[r] > 0) {
      const c = byt[r] - 1;
      s += ', ' + pointed(Math.floor(c / 32), (c >> 3) & 3) + ' ' + BYTE_UNITS[c & 7];
    }
    return s + ', ' + lanes[from[r]] + '→' + lanes[to[r]] + ', ' + pointed(t0[r], sp.tDec) + '–' + pointed(t0[r] + dur[r], sp.tDec) + ' s';
  };
}

/**
 * The curves layer of the blend the static picture shows, from the pixels
 * of its plot (rect in its pixels) over the ground layer of that blend
 * (an image of the layer's size): Go drew each pixel as g + (1 − g)·light
 * per channel (additive; the layer is the light, which the canvas adds,
 * 'lighter'), or g·(1 − cov) + colour·cov (alpha; the layer is the colour
 * with the coverage as alpha, and as no curve colour has blue, cov is
 * 1 − blue/g's blue).
 */
async function curvesFromStatic(img, rect, ground, add) {
  const w = ground.naturalWidth, h = ground.naturalHeight;
  const v = (await imagePixels(img, rect, w, h)).data;
  const g = (await imagePixels(ground, [0, 0, w, h])).data;
  const cv = html('canvas');
  cv.width = w;
  cv.height = h;
  const ctx = cv.getContext('2d');
  const out = ctx.createImageData(w, h);
  const o = out.data;
  for (let i = 0; i < o.length; i += 4) {
    if (add) {
      for (let c = 0; c < 3; c++) o[i + c] = g[i + c] < 255 ? Math.round((255 * Math.max(0, v[i + c] - g[i + c])) / (255 - g[i + c])) : 0;
      o[i + 3] = 255;
      continue;
    }
    const cov = g[i + 2] > 0 ? Math.max(0, 1 - v[i + 2] / g[i + 2]) : 0;
    if (cov <= 0) continue;
    for (let c = 0; c < 2; c++) o[i + c] = Math.round((v[i + c] - g[i + c] * (1 - cov)) / cov);
    o[i + 3] = Math.round(255 * cov);
  }
  ctx.putImageData(out, 0, 0);
  return cv;
}
