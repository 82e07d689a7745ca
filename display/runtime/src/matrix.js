// The heat matrix (views.Matrix). A small matrix comes as Go's SVG, one
// rect per non-zero cell with its hover text (data-tip), and is inlined. A
// large one comes as its frame (title, captions, labels, legend; SVG) and
// its non-zero cells row-major as typed arrays; the plot is drawn here on a
// canvas over the frame's empty plot area, one canvas pixel per plot px.
// Go chose every colour (a ramp entry per cell, from its value by Go's
// steps, the ramp as a hex table);
// this file pools the cells into pixels exactly as Go's matrixHeat.pool
// does (a pixel shows the largest of the cells it covers, the first in
// row-major order among equals), and hovering a pixel names its cell with
// the text Go's Tip writes (formatMatrixValue is FormatMatrixValue's rule).
import { svgFromText, unpackArrays, pendingUntil, classesOf } from './util.js';

/** 0 ≤ v < 999.5 with 2, 1 or 0 decimals, rounded half up in integers (Go's matrixFixed). */
function fixed(v) {
  let d = 0;
  let f = 1;
  if (v < 9.995) {
    d = 2;
    f = 100;
  } else if (v < 99.95) {
    d = 1;
    f = 10;
  }
  const n = Math.floor(v * f + 0.5);
  if (!d) return String(n);
  return Math.floor(n / f) + '.' + String(n % f).padStart(d, '0');
}

function groupDigits(n) {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Go's views.FormatMatrixValue: the number, then an SI prefix and the unit. */
export function formatMatrixValue(v, unit) {
  unit = unit || '';
  if (!isFinite(v) || v < 0) return String(v);
  let num;
  let prefix = '';
  if (v < 999.5) num = Number.isInteger(v) ? String(v) : fixed(v);
  else if (!unit) num = groupDigits(Math.floor(v + 0.5));
  else {
    const prefixes = ['k', 'M', 'G', 'T', 'P', 'E'];
    let p = 0;
    v /= 1000;
    while (v >= 999.5 && p < prefixes.length - 1) {
      v /= 1000;
      p++;
    }
    num = fixed(v);
    prefix = prefixes[p];
  }
  if (!unit && !prefix) return num;
  return num + ' ' + prefix + unit;
}

/** Go's cellRange: the pixels [a, b) that cell index i covers. */
function cellRange(i, s, limit) {
  const a = Math.floor(i * s);
  let b = Math.ceil((i + 1) * s);
  if (b > limit) b = limit;
  if (b <= a) b = a + 1;
  return [a, b];
}

export function matrixView(root, img, sp) {
  if (sp && typeof sp.svg === 'string') {
    const svg = svgFromText(sp.svg);
    if (!svg) return false;
    svg.style.cssText = 'max-width:100%;height:auto;display:block';
    img.replaceWith(svg);
    return true;
  }
  const { n, gw, gh, s } = sp;
  const ramp = new Uint8Array(768);
  for (let i = 0; i < 768; i++) ramp[i] = parseInt(sp.ramp.substr(2 * i, 2), 16);

  // The frame, and the canvas over its plot area (both scale down together).
  const box = document.createElement('div');
  box.style.cssText = `position:relative;max-width:100%;width:${sp.w}px`;
  box.className = 'ss-matrix';
  const frame = svgFromText(sp.frame);
  if (!frame) return false;
  frame.style.cssText = 'width:100%;height:auto;display:block';
  const cv = document.createElement('canvas');
  cv.className = 'ss-canvas';
  cv.width = gw;
  cv.height = gh;
  cv.style.cssText =
    `position:absolute;left:${(100 * sp.left) / sp.w}%;top:${(100 * sp.top) / sp.h}%;` +
    `width:${(100 * gw) / sp.w}%;height:${(100 * gh) / sp.h}%;image-rendering:pixelated`;
  box.append(frame, cv);
  const ctx = cv.getContext('2d');
  // Until the cells are read (the root is data-live-pending meanwhile),
  // the canvas shows the static picture's plot.
  if (img.complete && img.naturalWidth > 0) ctx.drawImage(img, sp.left, sp.top, gw, gh, 0, 0, gw, gh);

  // The cells, the pixel pool (as Go's) and the hover text.
  let win = null;
  let tipOf = null;
  const paint = (get) => {
    const rowStart = get(sp.rowStart);
    const col = get(sp.col);
    const val = get(sp.val);
    const ci = classesOf(val, sp.rampSteps);
    win = new Int32Array(gw * gh).fill(-1);
    for (let r = 0; r < n; r++) {
      const [y0, y1] = cellRange(r, s, gh);
      for (let k = rowStart[r]; k < rowStart[r + 1]; k++) {
        const [x0, x1] = cellRange(col[k], s, gw);
        const v = val[k];
        for (let y = y0; y < y1; y++) {
          const o = y * gw;
          for (let x = x0; x < x1; x++) {
            const w = win[o + x];
            if (w < 0 || v > val[w]) win[o + x] = k;
          }
        }
      }
    }
    const im = ctx.createImageData(gw, gh);
    const px = im.data;
    for (let i = 0; i < win.length; i++) {
      const k = win[i];
      const e = k < 0 ? -1 : ci[k];
      px[4 * i] = e < 0 ? 255 : ramp[3 * e];
      px[4 * i + 1] = e < 0 ? 255 : ramp[3 * e + 1];
      px[4 * i + 2] = e < 0 ? 255 : ramp[3 * e + 2];
      px[4 * i + 3] = 255;
    }
    ctx.putImageData(im, 0, 0);

    // The row of cell k: the last row whose start is ≤ k.
    const rowOf = (k) => {
      let lo = 0;
      let hi = n;
      while (hi - lo > 1) {
        const mid = (lo + hi) >> 1;
        if (rowStart[mid] <= k) lo = mid;
        else hi = mid;
      }
      return lo;
    };
    tipOf = (k) => {
      const r = rowOf(k);
      let t = `${sp.rows[r]} → ${sp.cols[col[k]]}: ${formatMatrixValue(val[k], sp.unit)}`;
      if (!sp.unit && sp.valueName) t += ' ' + sp.valueName;
      return t;
    };
  };
  pendingUntil(root, unpackArrays(sp.bin).then(paint));

  let hover = -2;
  const hoverAt = (e) => {
    let k = -1;
    if (e && win) {
      const b = cv.getBoundingClientRect();
      const x = Math.floor(((e.clientX - b.left) * gw) / b.width);
      const y = Math.floor(((e.clientY - b.top) * gh) / b.height);
      if (x >= 0 && y >= 0 && x < gw && y < gh) k = win[y * gw + x];
    }
    if (k === hover) return;
    hover = k;
    if (k < 0) cv.removeAttribute('data-tip');
    else cv.setAttribute('data-tip', tipOf(k));
  };
  // Before the display's tooltip handler (it reads data-tip as the event bubbles).
  cv.addEventListener('mousemove', hoverAt);
  cv.addEventListener('mouseleave', () => hoverAt(null));
  img.replaceWith(box);
  return true;
}
