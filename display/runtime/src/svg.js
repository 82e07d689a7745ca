// The generic view: inline the static SVG so hover and styling work.
import { decodeDataURL, tooltip } from './util.js';

export function svgView(root, img) {
  const holder = document.createElement('div');
  holder.innerHTML = decodeDataURL(img.getAttribute('src'));
  const svg = holder.querySelector('svg');
  if (!svg) return false;
  svg.style.maxWidth = '100%';
  svg.style.height = 'auto';
  img.replaceWith(svg);
  tooltip(root);
  return true;
}
