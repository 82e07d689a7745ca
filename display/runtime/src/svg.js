// The generic view (views.SVG): inline the SVG from the spec, so hover
// and styling work.
import { tooltip } from './util.js';

export function svgView(root, img, sp) {
  const holder = document.createElement('div');
  holder.innerHTML = (sp && sp.svg) || '';
  const svg = holder.querySelector('svg');
  if (!svg) return false;
  svg.style.maxWidth = '100%';
  svg.style.height = 'auto';
  img.replaceWith(svg);
  tooltip(root);
  return true;
}
