// The generic view (views.SVG): inline the SVG from the spec, so hover
// and styling work.
import { svgFromText, tooltip } from './util.js';

export function svgView(root, img, sp) {
  const svg = svgFromText(sp && sp.svg);
  if (!svg) return false;
  svg.style.maxWidth = '100%';
  svg.style.height = 'auto';
  img.replaceWith(svg);
  tooltip(root);
  return true;
}
