// The message timeline (views.Timeline). Go bundled the curves and drew
// the pictures; this view makes them live. Small timelines (mode "svg")
// are Go's SVG, every message a path grouped by its route's bundle; large
// ones (mode "canvas") are the frame (SVG) over a canvas compositing Go's
// PNG layers: the ground and the curves of each blend. Both: Ctrl/⌘ +
// wheel (or click, then wheel) zooms about the pointer, dragging pans, a
// double click resets (data-view="k tx ty"); hovering a bundle shows the
// Go-formatted text; clicking a lane label hides the bundles to and from
// that lane (again: shows them); a button switches additive and alpha
// blending (data-blend) and a slider sets the opacity (data-opacity).
import { html, b64bytes } from './util.js';

function image(b64) {
  return new Promise((resolve, reject) => {
    const im = new Image();
    im.onload = () => resolve(im);
    im.onerror = () => reject(new Error('cannot decode a timeline layer'));
    im.src = 'data:image/png;base64,' + b64;
  });
}

export function timelineView(root, img, sp) {
  const box = html('div', 'position:relative;max-width:100%');
  box.className = 'ss-timeline';
  box.style.width = sp.w + 'px';
  const holder = html('div');
  holder.innerHTML = sp.svg;
  const frame = holder.querySelector('svg');
  if (!frame) return false;
  frame.style.cssText = 'width:100%;height:auto;display:block';
  box.append(frame);

  const hidden = new Set();
  let blend = sp.blend;
  let opacity = 1; // a multiplier of the picture's own opacity
  let t = { k: 1, x: 0, y: 0 };
  const view = sp.mode === 'canvas' ? canvasPlot(box, frame, sp) : svgPlot(frame, sp);
  if (!view) return false;

  const state = () => {
    root.setAttribute('data-blend', blend);
    root.setAttribute('data-opacity', String(opacity));
    root.setAttribute('data-view', t.k + ' ' + t.x + ' ' + t.y);
    root.setAttribute('data-hidden', [...hidden].sort((a, b) => a - b).join(' '));
  };
  const update = () => {
    state();
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

  // Zoom and pan: Ctrl/⌘ + wheel (or a plain wheel after a click into the
  // view) zooms about the pointer, dragging pans, a double click resets.
  // The transform maps plot px p to k·p + (x, y) and keeps the plot
  // covered.
  const target = view.target;
  let armed = false;
  const plotAt = (e) => {
    const b = target.getBoundingClientRect();
    return [((e.clientX - b.left) * sp.pw) / b.width, ((e.clientY - b.top) * sp.ph) / b.height];
  };
  const clamp = (k, x, y) => {
    k = Math.min(500, Math.max(1, k));
    return { k, x: Math.min(0, Math.max(sp.pw * (1 - k), x)), y: Math.min(0, Math.max(sp.ph * (1 - k), y)) };
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
      const [sx, sy] = plotAt(e);
      const k = t.k * Math.exp(-e.deltaY * (e.deltaMode ? 0.05 : 0.002));
      const c = clamp(k, 0, 0);
      setT(clamp(c.k, sx - ((sx - t.x) * c.k) / t.k, sy - ((sy - t.y) * c.k) / t.k));
    },
    { passive: false },
  );
  let drag = null;
  target.addEventListener('pointerdown', (e) => {
    armed = true;
    if (e.button === 0) drag = { x: e.clientX, y: e.clientY, t };
  });
  window.addEventListener('pointermove', (e) => {
    if (!drag) return;
    const b = target.getBoundingClientRect();
    const dx = ((e.clientX - drag.x) * sp.pw) / b.width;
    const dy = ((e.clientY - drag.y) * sp.ph) / b.height;
    if (dx || dy) setT(clamp(drag.t.k, drag.t.x + dx, drag.t.y + dy));
  });
  window.addEventListener('pointerup', () => (drag = null));
  target.addEventListener('pointerleave', () => (armed = false));
  target.addEventListener('dblclick', () => setT({ k: 1, x: 0, y: 0 }));
  target.style.cursor = 'grab';

  // Hover: the bundle under the pointer (within a few px).
  target.addEventListener('mousemove', (e) => {
    const b = target.getBoundingClientRect();
    const sx = ((e.clientX - b.left) * sp.pw) / b.width;
    const sy = ((e.clientY - b.top) * sp.ph) / b.height;
    const px = (sx - t.x) / t.k;
    const py = (sy - t.y) / t.k;
    const tip = view.hit(px, py, 4 / t.k, e, hidden);
    if (tip) target.setAttribute('data-tip', tip);
    else target.removeAttribute('data-tip');
  });
  target.addEventListener('mouseleave', () => {
    target.removeAttribute('data-tip');
    view.hit(-1, -1, 0, null, hidden);
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
  const hint = html('span', 'color:#888', 'Ctrl/⌘ + wheel zooms · drag pans · double-click resets · click a lane to hide its bundles');
  bar.append(toggle, op, slider, hint);
  img.replaceWith(box);
  root.append(bar);
  update();
  return { svg: () => '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(frame) };
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
      zoomG.setAttribute('transform', `translate(${t.x},${t.y}) scale(${t.k})`);
      curves.setAttribute('stroke-width', String(1 / t.k));
      for (const b of bundles) {
        const off = hidden.has(Number(b.getAttribute('data-from'))) || hidden.has(Number(b.getAttribute('data-to')));
        b.style.display = off ? 'none' : '';
      }
      for (const p of paths) {
        const off = hidden.has(Number(p.getAttribute('data-from'))) || hidden.has(Number(p.getAttribute('data-to')));
        p.style.display = off ? 'none' : '';
      }
    },
    hit(px, py, r, e) {
      if (lit) {
        lit.removeAttribute('stroke-width');
        lit = null;
      }
      if (!e) return null;
      // The bundle whose path is under the pointer or a few px away.
      for (const [dx, dy] of [[0, 0], [1, 0], [-1, 0], [0, 1], [0, -1], [2, 2], [-2, -2], [2, -2], [-2, 2], [3, 0], [-3, 0], [0, 3], [0, -3]]) {
        for (const el of document.elementsFromPoint(e.clientX + dx, e.clientY + dy)) {
          const b = el.closest && el.closest('.ss-bundle');
          if (b && plot.contains(b) && b.style.display !== 'none') {
            lit = b;
            b.setAttribute('stroke-width', '2');
            return b.getAttribute('data-bundle-tip');
          }
        }
      }
      return null;
    },
  };
}

// canvasPlot: Go's PNG layers composited on a canvas over the frame's plot
// area; hover and hidden lanes use the heaviest routes' polylines (hover
// names the heaviest bundle within a few px of the pointer).
function canvasPlot(box, frame, sp) {
  const H = Number(frame.getAttribute('height'));
  const W = Number(frame.getAttribute('width'));
  const dpr = window.devicePixelRatio || 1;
  const cv = html('canvas', `position:absolute;left:${(100 * sp.px) / W}%;top:${(100 * sp.py) / H}%;width:${(100 * sp.pw) / W}%;height:${(100 * sp.ph) / H}%`);
  cv.className = 'ss-canvas';
  cv.width = Math.round(sp.pw * dpr);
  cv.height = Math.round(sp.ph * dpr);
  box.append(cv);
  const ctx = cv.getContext('2d');
  const pts = new Uint16Array(b64bytes(sp.rp || '').buffer);
  const rs = sp.rs || [0];
  const layers = {};
  let last = null;
  let lit = -1;
  Promise.all([image(sp.imgGroundAdd), image(sp.imgGroundAlpha), image(sp.imgCurvesAdd), image(sp.imgCurvesAlpha)]).then(
    ([ga, gl, ca, cl]) => {
      Object.assign(layers, { ga, gl, ca, cl });
      if (last) paint(last);
      box.setAttribute('data-painted', '1');
    },
    (e) => box.setAttribute('data-live-error', String(e.message || e)),
  );
  const route = (r) => {
    ctx.beginPath();
    for (let j = rs[r]; j < rs[r + 1]; j++) {
      const x = pts[2 * j] / 10;
      const y = pts[2 * j + 1] / 10;
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
    ctx.setTransform(dpr * t.k, 0, 0, dpr * t.k, dpr * t.x, dpr * t.y);
    ctx.imageSmoothingEnabled = t.k < 2;
    ctx.drawImage(add ? layers.ga : layers.gl, 0, 0, sp.pw, sp.ph);
    ctx.globalCompositeOperation = add ? 'lighter' : 'source-over';
    ctx.globalAlpha = opacity;
    ctx.drawImage(add ? layers.ca : layers.cl, 0, 0, sp.pw, sp.ph);
    ctx.globalCompositeOperation = 'source-over';
    ctx.globalAlpha = 1;
    // Hidden lanes: their heaviest bundles painted over in the ground.
    if (hidden.size) {
      ctx.strokeStyle = add ? sp.groundAdd[0] : sp.groundAlpha[0];
      ctx.lineWidth = 3 / t.k;
      for (let r = 0; r + 1 < rs.length; r++) {
        if (hidden.has(sp.rFrom[r]) || hidden.has(sp.rTo[r])) {
          route(r);
          ctx.stroke();
        }
      }
    }
    if (lit >= 0) {
      route(lit);
      ctx.strokeStyle = add ? '#ffffff' : '#222222';
      ctx.lineWidth = 1.5 / t.k;
      ctx.stroke();
    }
  };
  return {
    target: cv,
    draw: paint,
    hit(px, py, r, e, hidden) {
      // The heaviest bundle (routes come heaviest first) passing within r.
      let best = -1;
      const r2 = r * r;
      if (e) {
        for (let k = 0; k + 1 < rs.length && best < 0; k++) {
          if (hidden.has(sp.rFrom[k]) || hidden.has(sp.rTo[k])) continue;
          for (let j = rs[k]; j + 1 < rs[k + 1]; j++) {
            const ax = pts[2 * j] / 10, ay = pts[2 * j + 1] / 10;
            const bx = pts[2 * j + 2] / 10, by = pts[2 * j + 3] / 10;
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
      return best >= 0 ? sp.rText[best] : null;
    },
  };
}
