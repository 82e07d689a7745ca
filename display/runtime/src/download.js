// The download menu of every live view: a small button at its top right
// that offers the view as it is now (frame, filters, zoom) as SVG or PNG.
//
// The SVG is the view's own: a view may return { svg() } (the drawing
// builds a vector picture from its data); otherwise the view's <svg>
// elements are placed as they sit on the page, with its text (titles,
// statistics) as <text> and any canvas as an image. The PNG is that SVG
// drawn at 2 pixels per px.
import { NS, PICTURE_STYLE, html } from './util.js';

const SCALE = 2;
const GUTTER = 26; // px right of the view for the button

/** Adds the menu to root; made is what the view returned. */
export function downloadMenu(root, kind, made) {
  // The button sits in a gutter right of the view, never over it: the
  // display is as wide as the view (not the notebook) plus the gutter.
  const cs = getComputedStyle(root);
  if (cs.position === 'static') root.style.position = 'relative';
  if (cs.display === 'block') root.style.display = 'inline-block';
  root.style.maxWidth = '100%';
  root.style.paddingRight = parseFloat(cs.paddingRight || '0') + GUTTER + 'px';
  const button = html('button',
    'position:absolute;top:2px;right:1px;z-index:5;font:13px sans-serif;line-height:1;padding:2px 5px;' +
    'border:1px solid #bbb;border-radius:3px;background:rgba(255,255,255,.9);color:#444;cursor:pointer;opacity:.55');
  button.className = 'ss-download';
  button.textContent = '⤓';
  button.title = 'Download this picture';
  button.setAttribute('aria-label', 'Download this picture');
  const menu = html('div',
    'position:absolute;top:24px;right:1px;z-index:6;background:#fff;border:1px solid #bbb;border-radius:3px;' +
    'box-shadow:0 2px 6px rgba(0,0,0,.15);font:12px sans-serif;display:none');
  menu.className = 'ss-download-menu';
  const item = (label, format) => {
    const a = html('button', 'display:block;width:100%;text-align:left;border:0;background:none;padding:4px 12px;cursor:pointer;color:#222;font:inherit');
    a.textContent = label;
    a.setAttribute('data-format', format);
    a.onclick = async (e) => {
      e.stopPropagation();
      menu.style.display = 'none';
      const svg = pictureSVG(root, made);
      const name = 'superstep-' + kind;
      if (format === 'svg') save(new Blob([svg], { type: 'image/svg+xml' }), name + '.svg');
      else save(await toPNG(svg), name + '.png');
    };
    return a;
  };
  menu.append(item('Download SVG', 'svg'), item('Download PNG (2×)', 'png'));
  button.onclick = (e) => {
    e.stopPropagation();
    menu.style.display = menu.style.display === 'none' ? 'block' : 'none';
  };
  button.onmouseenter = () => (button.style.opacity = '1');
  button.onmouseleave = () => (button.style.opacity = '.55');
  document.addEventListener('click', () => (menu.style.display = 'none'));
  root.append(button, menu);
}

/** The SVG document of the view as it is now. */
export function pictureSVG(root, made) {
  if (made && typeof made.svg === 'function') return made.svg();
  return snapshot(root);
}

/** Places the view's SVGs, text and canvases in one SVG document. */
function snapshot(root) {
  const box = root.getBoundingClientRect();
  const out = document.createElementNS(NS, 'svg');
  out.setAttribute('xmlns', NS);
  const w = Math.ceil(box.width), h = Math.ceil(box.height);
  out.setAttribute('width', w);
  out.setAttribute('height', h);
  out.setAttribute('viewBox', `0 0 ${w} ${h}`);
  out.setAttribute('font-family', 'sans-serif');
  const style = document.createElementNS(NS, 'style');
  style.textContent = PICTURE_STYLE;
  out.append(style);
  const ground = document.createElementNS(NS, 'rect');
  ground.setAttribute('width', w);
  ground.setAttribute('height', h);
  ground.setAttribute('fill', '#ffffff');
  out.append(ground);
  const skip = (el) => el.closest('.ss-download, .ss-download-menu, .superstep-tip, button, input, select, .ss-hint');
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
  };
  // The outermost <svg>s (nested ones travel inside them).
  for (const s of root.querySelectorAll('svg')) {
    if (skip(s) || !visible(s) || (s.parentElement && s.parentElement.closest('svg'))) continue;
    const r = s.getBoundingClientRect();
    const copy = s.cloneNode(true);
    copy.removeAttribute('style');
    copy.setAttribute('x', r.left - box.left);
    copy.setAttribute('y', r.top - box.top);
    copy.setAttribute('width', r.width);
    copy.setAttribute('height', r.height);
    if (!copy.getAttribute('viewBox') && s.viewBox && s.viewBox.baseVal && s.viewBox.baseVal.width) {
      const v = s.viewBox.baseVal;
      copy.setAttribute('viewBox', `${v.x} ${v.y} ${v.width} ${v.height}`);
    }
    out.append(copy);
  }
  for (const c of root.querySelectorAll('canvas')) {
    if (skip(c) || !visible(c)) continue;
    const r = c.getBoundingClientRect();
    const im = document.createElementNS(NS, 'image');
    im.setAttribute('x', r.left - box.left);
    im.setAttribute('y', r.top - box.top);
    im.setAttribute('width', r.width);
    im.setAttribute('height', r.height);
    im.setAttribute('href', c.toDataURL('image/png'));
    out.append(im);
  }
  // HTML text: every text node, line by line as the page wrapped it (its
  // words grouped by the line box they sit in), at its place.
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    const el = t.parentElement;
    if (!el || !t.textContent.trim() || el.closest('svg') || skip(el) || !visible(el)) continue;
    const st = getComputedStyle(el);
    const upper = st.textTransform === 'uppercase';
    const lines = [];
    const text = t.textContent;
    for (const m of text.matchAll(/\S+/g)) {
      const range = document.createRange();
      range.setStart(t, m.index);
      range.setEnd(t, m.index + m[0].length);
      const r = range.getBoundingClientRect();
      if (!r.width) continue;
      const line = lines.find((l) => Math.abs(l.top - r.top) < r.height / 2);
      if (line) {
        line.words.push(m[0]);
        line.right = r.right;
      } else lines.push({ top: r.top, bottom: r.bottom, left: r.left, right: r.right, words: [m[0]] });
    }
    for (const l of lines) {
      const tx = document.createElementNS(NS, 'text');
      tx.setAttribute('x', l.left - box.left);
      tx.setAttribute('y', l.bottom - box.top - (l.bottom - l.top) * 0.22);
      tx.setAttribute('font-size', st.fontSize);
      tx.setAttribute('font-weight', st.fontWeight);
      tx.setAttribute('fill', st.color);
      tx.setAttribute('textLength', l.right - l.left);
      tx.setAttribute('lengthAdjust', 'spacingAndGlyphs');
      const s = l.words.join(' ');
      tx.textContent = upper ? s.toUpperCase() : s;
      out.append(tx);
    }
  }
  return '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(out);
}

/** Draws an SVG document at SCALE pixels per px; resolves to a PNG blob. */
export function toPNG(svg) {
  return new Promise((resolve, reject) => {
    const im = new Image();
    im.onload = () => {
      const cv = document.createElement('canvas');
      cv.width = Math.round(im.width * SCALE);
      cv.height = Math.round(im.height * SCALE);
      const ctx = cv.getContext('2d');
      ctx.scale(SCALE, SCALE);
      ctx.drawImage(im, 0, 0);
      cv.toBlob((b) => (b ? resolve(b) : reject(new Error('toBlob failed'))), 'image/png');
    };
    im.onerror = () => reject(new Error('the SVG did not load as an image'));
    im.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(svg);
  });
}

function save(blob, name) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}
