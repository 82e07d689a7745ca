// The views, and mount: how a display turns live. The page runtime
// (index.js, for pages that run scripts: a notebook exported to HTML, a
// saved view) and Superstep's JupyterLab extension (lab/) both mount
// displays through it.
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

/** The view of each kind of display. */
export const VIEWS = {
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
};

/**
 * Turns the display root (a .superstep-display holding its static <img>)
 * live from its spec: data-live="1" when it is, data-live-error (the
 * static picture stays, correct on its own) when it cannot be. A big spec
 * is stored compressed (display.packSpec) and read first, meanwhile the
 * root is data-live-pending. The promise settles when the root is live or
 * failed; it never rejects.
 */
export async function mount(root, kind, spec, views = VIEWS) {
  if (!root || root.getAttribute('data-live') === '1' || root.hasAttribute('data-live-pending')) return;
  if (spec && typeof spec.deflate === 'string') {
    root.setAttribute('data-live-pending', '1');
    try {
      spec = await inflate(spec.deflate);
    } catch (e) {
      root.setAttribute('data-live-error', 'cannot read the spec: ' + (e && e.message ? e.message : e));
      return;
    } finally {
      root.removeAttribute('data-live-pending');
    }
  }
  const img = root.querySelector('img');
  const view = views[kind] || views.svg;
  try {
    const made = img && view(root, img, spec);
    if (made) {
      root.setAttribute('data-live', '1');
      downloadMenu(root, kind, made);
    }
  } catch (e) {
    root.setAttribute('data-live-error', String(e && e.stack ? e.message : e));
  }
}
