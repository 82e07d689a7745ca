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

const ARRAY_TYPES = { u8: Uint8Array, u16: Uint16Array, u32: Uint32Array, i32: Int32Array, f32: Float32Array, f64: Float64Array };

/** An array of an arrayPack: [offset, length, type, form] in buf (see Go's arrayRef). */
function packedArray(buf, [off, n, type, form]) {
  const T = ARRAY_TYPES[type];
  if (!form) return new T(buf, off, n);
  const w = T.BYTES_PER_ELEMENT;
  const stored = new Uint8Array(buf, off, n * w);
  let bytes = stored.slice();
  if (form.includes('p')) {
    // Byte planes: value i's byte k is stored at k·n + i.
    for (let k = 0; k < w; k++) for (let i = 0; i < n; i++) bytes[i * w + k] = stored[k * n + i];
  }
  const a = new T(bytes.buffer);
  // Differences: the typed array wraps as Go's did.
  if (form.includes('d')) for (let i = 1; i < n; i++) a[i] += a[i - 1];
  return a;
}

/**
 * A spec's typed arrays (Go's arrayPack): its "bin" field, the base64 of
 * one zlib stream of their bytes, inflated. It resolves to get(ref), the
 * array an arrayRef [offset, length, type, form] names, or null for no
 * ref.
 */
export async function unpackArrays(b64) {
  const stream = new Blob([b64bytes(b64)]).stream().pipeThrough(new DecompressionStream('deflate'));
  const buf = await new Response(stream).arrayBuffer();
  return (ref) => (ref ? packedArray(buf, ref) : null);
}

/**
 * The class of each of values by steps, [value, class] pairs ascending
 * (Go's classSteps): that of the last pair whose value is at most it.
 */
export function classesOf(values, steps) {
  const out = new Int32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    let lo = 0, hi = steps.length; // the first pair past values[i]
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (steps[mid][0] <= values[i]) lo = mid + 1;
      else hi = mid;
    }
    out[i] = lo > 0 ? steps[lo - 1][1] : 0;
  }
  return out;
}

/**
 * Marks root data-live-pending (as while its spec is read) until done, a
 * promise of the rest of its view (arrays unpacked, layers decoded),
 * settles; if it fails, root gets data-live-error.
 */
export function pendingUntil(root, done) {
  root.setAttribute('data-live-pending', '1');
  done
    .catch((e) => root.setAttribute('data-live-error', String((e && e.message) || e)))
    .finally(() => root.removeAttribute('data-live-pending'));
}

/** The pixels of img (decoded first) in the rectangle [x, y, w, h], drawn at w × h px. */
export async function imagePixels(img, [x, y, w, h], W = w, H = h) {
  await img.decode();
  const cv = document.createElement('canvas');
  cv.width = W;
  cv.height = H;
  const ctx = cv.getContext('2d', { willReadFrequently: true });
  ctx.drawImage(img, x, y, w, h, 0, 0, W, H);
  return ctx.getImageData(0, 0, W, H);
}

/**
 * The picture's frame (Go's SVG: title, legend, caption) with a canvas laid
 * over its plot area of w × h px, top px down; both scale down together.
 * It returns null when the frame holds no SVG.
 */
export function canvasOverFrame(frameSVG, className, w, h, top) {
  const box = html('div', 'position:relative;max-width:100%');
  box.className = className;
  const frame = svgFromText(frameSVG);
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

// The SVG elements a picture may hold: what Go's views write, and the
// plain drawing elements around them. Anything else (script,
// foreignObject, iframe, animations that set attributes) is dropped, so a
// spec from an untrusted notebook cannot run code or reach the network.
const SVG_ELEMENTS = new Set([
  'svg', 'g', 'path', 'rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon', 'text', 'tspan',
  'title', 'desc', 'defs', 'clipPath', 'mask', 'pattern', 'linearGradient', 'radialGradient', 'stop',
  'marker', 'symbol', 'use', 'image', 'style',
]);

/** Whether an attribute may stay on a sanitized SVG element. */
function safeAttribute(el, name, value) {
  const n = name.toLowerCase();
  if (n.startsWith('on')) return false;
  const v = value.replace(/[\s\u0000-\u001f]+/g, '').toLowerCase();
  if (v.includes('javascript:') || v.includes('@import')) return false;
  if (n === 'href' || n === 'xlink:href') {
    return v.startsWith('#') || (el.localName === 'image' && v.startsWith('data:image/'));
  }
  // url(#id) points inside the picture; any other url() would fetch.
  return !/url\((?!['"]?#)/.test(v);
}

/**
 * The SVG element of an SVG document's text, sanitized (SVG_ELEMENTS and
 * safeAttribute) and ready to insert, or null when the text holds no SVG.
 * Every view inserts its spec's SVG through it, never through innerHTML.
 */
export function svgFromText(text) {
  if (typeof text !== 'string' || !text) return null;
  const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
  const svg = doc.documentElement;
  if (!svg || svg.localName !== 'svg' || svg.namespaceURI !== 'http://www.w3.org/2000/svg') return null;
  const walk = (el) => {
    for (const child of [...el.children]) {
      if (!SVG_ELEMENTS.has(child.localName) || child.namespaceURI !== svg.namespaceURI) {
        child.remove();
        continue;
      }
      walk(child);
    }
    for (const a of [...el.attributes]) {
      if (!safeAttribute(el, a.name, a.value)) el.removeAttribute(a.name);
    }
    if (el.localName === 'style' && !safeAttribute(el, 'style', el.textContent)) el.textContent = '';
  };
  walk(svg);
  return document.importNode(svg, true);
}
