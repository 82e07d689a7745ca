// The treemap (GiViP's Cluster View): tiles from views.SquarifiedLayout;
// clicking a tile toggles it filtered (greyed, with everything inside it).
import { newSVG, text, add, rect } from './util.js';

const GREY = '#e3e3e3';

/** Draws the treemap spec sp; onToggle(filteredIds) is called after a click. */
export function treemapChart(root, sp, onToggle) {
  const svg = newSVG(sp.width, sp.height).attr('class', 'ss-treemap');
  const filtered = new Set();
  const tiles = sp.tiles.map((t, i) => {
    const g = add(svg, 'g', { class: 'ss-tile', 'data-id': t.id, 'data-tip': t.tip });
    const rects = [[rect(g, t.x, t.y, t.w, t.h, t.fill, { stroke: '#fff' }), t.fill]];
    const texts = [];
    if (t.leaf) {
      if (t.label) texts.push([text(g, t.x + 3, t.y + 12, t.label, { fill: t.ink }), t.ink]);
      if (t.sub) texts.push([text(g, t.x + 3, t.y + 24, t.sub, { fill: t.ink, 'font-size': 10 }), t.ink]);
    } else {
      if (t.header > 0) {
        rects.push([rect(g, t.x, t.y, t.w, t.header, t.head, { class: 'ss-tile-head' }), t.head]);
      }
      if (t.label) {
        texts.push([text(g, t.x + 3, t.y + 11, t.label, { fill: t.ink, 'font-size': 10, 'font-weight': 'bold' }), t.ink]);
      }
    }
    return { t, g, rects, texts };
  });
  // A tile looks filtered when it or any ancestor is.
  function isOff(i) {
    for (let k = i; k >= 0; k = sp.tiles[k].parent) if (filtered.has(sp.tiles[k].id)) return true;
    return false;
  }
  function paint() {
    tiles.forEach((tl, i) => {
      const off = isOff(i);
      tl.g.classed('ss-filtered', off).attr('data-filtered', off ? '1' : null);
      for (const [r, fill] of tl.rects) r.attr('fill', off ? GREY : fill).attr('fill-opacity', off && tl.t.leaf ? 0.7 : null);
      for (const [x, ink] of tl.texts) x.attr('fill', off ? '#999' : ink);
    });
  }
  tiles.forEach((tl) => {
    if (tl.t.parent < 0) return; // the root: filtering everything helps no one
    tl.g.on('click', (ev) => {
      ev.stopPropagation();
      const id = tl.t.id;
      if (filtered.has(id)) filtered.delete(id);
      else filtered.add(id);
      paint();
      if (onToggle) onToggle(filtered);
    });
  });
  return { node: svg.node(), filtered };
}
