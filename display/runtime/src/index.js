// Superstep display runtime: turns static pictures into live ones.
//
// Every live display embeds this bundle and then calls
// superstep.live(id, kind, spec). The display's static <img> (correct on its
// own) is replaced by a live view drawn from spec, whose geometry Go computed
// (display/*.go). Defining the runtime twice is harmless: the version guard
// keeps the first definition of this version.
import { svgView } from './svg.js';
import { trendChart, pager } from './trend.js';
import { chordChart, chordsView, frameSlider } from './chord.js';
import { treemapChart } from './treemap.js';
import { dashboardView } from './dashboard.js';
import { drawingView } from './drawing.js';
import { tooltip, ensureStyle, html } from './util.js';

const VERSION = 3;

function trendView(root, img, sp) {
  let pg = null;
  const chart = trendChart(root, sp, { onPage: () => pg && pg.update() });
  pg = pager(chart, sp);
  const box = html('div', 'max-width:100%');
  box.append(chart.node, pg);
  img.replaceWith(box);
  return true;
}

function chordView(root, img, sp) {
  const chart = chordChart(root, sp);
  const box = html('div', 'max-width:100%');
  box.append(chart.node);
  if (sp.frames.length > 1) box.append(frameSlider(sp, (f) => chart.setFrame(f, true)));
  img.replaceWith(box);
  return true;
}

function treemapView(root, img, sp) {
  const chart = treemapChart(root, sp);
  img.replaceWith(chart.node);
  return true;
}

// Views that draw from a spec get the tooltip and style here; the generic
// svg view sets up its own tooltip.
function withTooltip(view) {
  return (root, img, spec) => {
    ensureStyle();
    // A white ground, as the static picture has, also in dark themes.
    root.style.cssText += ';background:#fff;color:#222;padding:4px';
    tooltip(root);
    return view(root, img, spec);
  };
}

(function install() {
  const ss = (window.superstep = window.superstep || {});
  if (ss.version === VERSION) return;
  ss.version = VERSION;
  ss.views = Object.assign(ss.views || {}, {
    svg: svgView,
    trend: withTooltip(trendView),
    chord: withTooltip(chordView),
    chords: withTooltip(chordsView),
    treemap: withTooltip(treemapView),
    dashboard: withTooltip(dashboardView),
    drawing: withTooltip(drawingView),
  });
  ss.live = function (id, kind, spec) {
    // The element just before the script (ids come from the content, so
    // two equal displays share one); else by id, for a front end that runs
    // the script elsewhere (Notebook 6 evaluates it in the head).
    const cs = document.currentScript;
    const prev = cs && cs.previousElementSibling;
    const root = prev && prev.id === id ? prev : document.getElementById(id);
    if (!root || root.getAttribute('data-live') === '1') return;
    const img = root.querySelector('img');
    const view = ss.views[kind] || ss.views.svg;
    try {
      if (img && view(root, img, spec)) root.setAttribute('data-live', '1');
    } catch (e) {
      // The static picture stays: it is correct on its own.
      root.setAttribute('data-live-error', String(e && e.stack ? e.message : e));
    }
  };
})();
