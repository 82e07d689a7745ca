// Shared helpers of the display runtime.
import { create } from 'd3-selection';

export const NS = 'http://www.w3.org/2000/svg';
export const INK = '#222222';
export const MUTED = '#666666';

let uidCounter = 0;
/** A document-unique id prefix for patterns inside one live display. */
export function uid(root) {
  return (root.id || 'ss') + '-' + (++uidCounter);
}

/**
 * The hover tooltip of a display: it shows the data-tip of the nearest
 * element under the pointer that has one.
 */
export function tooltip(root) {
  // Absolute in the display, not fixed: a transformed ancestor (JupyterLab's
  // output area) would make a fixed tooltip land far from the pointer.
  if (getComputedStyle(root).position === 'static') root.style.position = 'relative';
  const tip = document.createElement('div');
  tip.className = 'superstep-tip';
  tip.style.cssText =
    'position:absolute;pointer-events:none;background:rgba(20,20,20,.88);color:#fff;' +
    'font:12px sans-serif;padding:3px 6px;border-radius:3px;display:none;z-index:1000;white-space:pre';
  root.appendChild(tip);
  root.addEventListener('mousemove', (ev) => {
    const el = ev.target.closest ? ev.target.closest('[data-tip]') : null;
    if (!el || !root.contains(el)) {
      tip.style.display = 'none';
      return;
    }
    tip.textContent = el.getAttribute('data-tip');
    const r = root.getBoundingClientRect();
    tip.style.left = ev.clientX - r.left + 12 + 'px';
    tip.style.top = ev.clientY - r.top + 12 + 'px';
    tip.style.display = 'block';
  });
  root.addEventListener('mouseleave', () => {
    tip.style.display = 'none';
  });
  return tip;
}

let measureCtx = null;

/** The width in px of s set in font (a CSS font), measured on a canvas. */
export function measureText(s, font) {
  if (!measureCtx) measureCtx = document.createElement('canvas').getContext('2d');
  measureCtx.font = font;
  return measureCtx.measureText(s).width;
}

/** s, shortened with an ellipsis to fit width px in font ('' if nothing does). */
export function fitWidth(s, width, font) {
  if (measureText(s, font) <= width) return s;
  const cs = [...s];
  let lo = 0, hi = cs.length - 1; // the longest prefix that fits with '…'
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (measureText(cs.slice(0, mid).join('') + '…', font) <= width) lo = mid;
    else hi = mid - 1;
  }
  return lo >= 2 ? cs.slice(0, lo).join('') + '…' : '';
}

/**
 * Formats a number as Go's display.FormatNumber does: integers and values
 * of 1000 or more with thousands separators, others with 3 significant digits.
 */
export function fmt(v) {
  if (v == null || !isFinite(v)) return String(v);
  if (Number.isInteger(v) || Math.abs(v) >= 1000) return Math.round(v).toLocaleString('en-US');
  return String(Number(v.toPrecision(3)));
}

/** A new <svg> of the given size that scales down to its container. */
export function newSVG(width, height) {
  return attrs(create('svg'), {
    xmlns: NS, width, height, viewBox: `0 0 ${width} ${height}`, 'font-family': 'sans-serif', 'font-size': 11,
    style: 'max-width:100%;height:auto;display:block',
  });
}

/** Adds the in-traffic hatch pattern (as display.hatchPattern) and returns its id. */
export function hatch(svg, id) {
  const p = add(svg.append('defs'), 'pattern', { id, patternUnits: 'userSpaceOnUse', width: 4, height: 4, patternTransform: 'rotate(45)' });
  rect(p, 0, 0, 4, 4, 'rgba(0,0,0,0.12)');
  add(p, 'line', { x1: 0, y1: 0, x2: 0, y2: 4, stroke: 'rgba(0,0,0,0.45)', 'stroke-width': 1.6 });
  return id;
}

/** Sets attributes of the d3 selection el; returns it. */
function attrs(el, a) {
  for (const k in a) el.attr(k, a[k]);
  return el;
}

/** Appends a tag with attributes to the d3 selection g; returns it. */
export function add(g, tag, a) {
  return attrs(g.append(tag), a);
}

/** Appends a rect. */
export function rect(g, x, y, width, height, fill, attrs) {
  return add(g, 'rect', Object.assign({ x, y, width, height, fill }, attrs));
}

/** Writes a <text>. */
export function text(g, x, y, s, attrs) {
  return add(g, 'text', Object.assign({ x, y }, attrs)).text(s);
}

/**
 * The legend of in (hatched) and out traffic at (x, y), then note; as in
 * display.drawTrend and display.drawChord.
 */
export function legend(g, x, y, hid, note) {
  const small = { 'font-size': 10, fill: MUTED };
  rect(g, x, y - 9, 10, 10, '#999');
  text(g, x + 13, y, 'out', small);
  rect(g, x + 40, y - 9, 10, 10, '#999');
  rect(g, x + 40, y - 9, 10, 10, `url(#${hid})`);
  text(g, x + 53, y, 'in' + note, small);
}

/** Mixes a "#rrggbb" colour with black, as display.darken. */
export function darken(hex, f) {
  const n = parseInt(hex.slice(1), 16);
  if (hex.length !== 7 || isNaN(n)) return hex;
  const k = 1 - f;
  const c = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((x) => Math.floor(x * k + 0.5));
  return '#' + c.map((x) => x.toString(16).padStart(2, '0')).join('');
}

/** A small HTML element with inline style. */
export function html(tag, style, textContent) {
  const el = document.createElement(tag);
  if (style) el.style.cssText = style;
  if (textContent != null) el.textContent = textContent;
  return el;
}

/** The style of a row of controls under a view. */
export const BAR = 'font:12px sans-serif;color:#444;margin:4px 0;display:flex;align-items:center;gap:6px';

export const BUTTON =
  'font:inherit;padding:2px 8px;border:1px solid #888;border-radius:3px;background:#fff;color:#222;cursor:pointer';

/** The caption above a view in a dashboard. */
export function caption(s) {
  return html('div', 'font:10px sans-serif;letter-spacing:.6px;color:#888;text-transform:uppercase;margin:2px 0 4px', s);
}

/** The rules that change what a live view's SVG shows (a saved picture carries them too). */
export const PICTURE_STYLE = '.ss-pt{fill:transparent}.ss-hidden{display:none}';

/** The style rules of live displays (hover feedback), added once per document. */
export function ensureStyle() {
  if (document.getElementById('superstep-style')) return;
  const st = document.createElement('style');
  st.id = 'superstep-style';
  st.textContent =
    '.ss-ribbon:hover{fill-opacity:.92;stroke-opacity:1}.ss-pt:hover{fill:rgba(0,0,0,.12)}' +
    '.ss-tile{cursor:pointer}.ss-tile:hover>rect{stroke:#222;stroke-width:1.5}' + PICTURE_STYLE +
    '.superstep-display button:disabled{opacity:.4;cursor:default}';
  document.head.appendChild(st);
}

/** A base64 string (a spec's packed array) as bytes; '' or none as no bytes. */
export function b64bytes(s) {
  const b = atob(s || '');
  const u = new Uint8Array(b.length);
  for (let i = 0; i < b.length; i++) u[i] = b.charCodeAt(i);
  return u;
}

/** A base64 little-endian array of T (a typed-array constructor). */
export const b64array = (s, T) => new T(b64bytes(s).buffer);

/**
 * The picture's frame (Go's SVG: title, legend, caption) with a canvas laid
 * over its plot area of w × h px, top px down; both scale down together.
 * It returns null when the frame holds no SVG.
 */
export function canvasOverFrame(frameSVG, className, w, h, top) {
  const box = html('div', 'position:relative;max-width:100%');
  box.className = className;
  const holder = html('div');
  holder.innerHTML = frameSVG;
  const frame = holder.querySelector('svg');
  if (!frame) return null;
  const H = Number(frame.getAttribute('height'));
  box.style.width = w + 'px';
  frame.style.cssText = 'width:100%;height:auto;display:block';
  const dpr = window.devicePixelRatio || 1;
  const cv = html('canvas', `position:absolute;left:0;top:${(100 * top) / H}%;width:100%;height:${(100 * h) / H}%`);
  cv.className = 'ss-canvas';
  cv.width = Math.round(w * dpr);
  cv.height = Math.round(h * dpr);
  box.append(frame, cv);
  return { box, frame, cv, ctx: cv.getContext('2d'), dpr };
}
