// Superstep display runtime: turns static pictures into live ones.
//
// A notebook holds this bundle once (the kernel adds it to the first live
// display of a session, display.Carrier). Every live display then calls
// superstep.live(id, kind, spec, script), or, if the runtime has not loaded
// yet, queues the call in window.superstepPending, which the runtime runs
// when it loads. The display's static PNG <img> (correct on its own) is
// replaced by a live view drawn from spec, whose geometry Go computed
// (display/*.go), with a menu to download it as SVG or PNG. Defining the
// runtime twice is harmless: the version guard keeps the first definition
// of this version.
import { svgView } from './svg.js';
import { trendChart, pager } from './trend.js';
import { chordChart, chordsView, frameSlider } from './chord.js';
import { treemapChart } from './treemap.js';
import { dashboardView } from './dashboard.js';
import { drawingView } from './drawing.js';
import { matrixboardView } from './matrixboard.js';
import { ringgraphView } from './ringgraph.js';
import { senderreceiverView } from './senderreceiver.js';
import { chordlinesView } from './chordlines.js';
import { timelineView } from './timeline.js';
import { matrixView } from './matrix.js';
import { animateView } from './animate.js';
import { tooltip, ensureStyle, html } from './util.js';
import { downloadMenu } from './download.js';

// 7: the animated run (animate.js).
const VERSION = 7;

/** The JSON in a base64 zlib stream (display.packSpec). */
async function inflate(b64) {
  const bin = atob(b64);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate'));
  return JSON.parse(await new Response(stream).text());
}

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
    matrixboard: withTooltip(matrixboardView),
    ringgraph: withTooltip(ringgraphView),
    senderreceiver: withTooltip(senderreceiverView),
    chordlines: withTooltip(chordlinesView),
    timeline: withTooltip(timelineView),
    matrix: withTooltip(matrixView),
    animate: withTooltip(animateView),
  });
  ss.live = function (id, kind, spec, script) {
    // The element just before the script (ids come from the content, so
    // two equal displays share one); else by id, for a front end that runs
    // the script elsewhere (Notebook 6 evaluates it in the head).
    const prev = script && script.previousElementSibling;
    const root = prev && prev.id === id ? prev : document.getElementById(id);
    if (!root || root.getAttribute('data-live') === '1' || root.hasAttribute('data-live-pending')) return;
    if (spec && typeof spec.deflate === 'string') {
      // A big spec is stored compressed (display.packSpec).
      root.setAttribute('data-live-pending', '1');
      inflate(spec.deflate)
        .then((sp) => {
          root.removeAttribute('data-live-pending');
          show(root, kind, sp);
        })
        .catch((e) => {
          root.removeAttribute('data-live-pending');
          root.setAttribute('data-live-error', 'cannot read the spec: ' + (e && e.message ? e.message : e));
        });
      return;
    }
    show(root, kind, spec);
  };
  function show(root, kind, spec) {
    const img = root.querySelector('img');
    const view = ss.views[kind] || ss.views.svg;
    try {
      const made = img && view(root, img, spec);
      if (made) {
        root.setAttribute('data-live', '1');
        downloadMenu(root, kind, made);
      }
    } catch (e) {
      // The static picture stays: it is correct on its own.
      root.setAttribute('data-live-error', String(e && e.stack ? e.message : e));
    }
  }
  // Displays shown before the runtime loaded.
  const pending = window.superstepPending || [];
  window.superstepPending = [];
  for (const args of pending) ss.live.apply(ss, args);
})();
