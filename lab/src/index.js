// Superstep's views in JupyterLab 4 and Notebook 7: a MIME renderer for
// application/vnd.superstep.view+json (display.ViewMIME).
//
// The kernel sends every output that holds live views with that type beside
// its text/html, and the HTML holds the views: each a .superstep-display
// <div> with its static PNG, then its spec as JSON data (views.SpecMIME),
// then a call of the page runtime for front ends that run scripts (an
// exported HTML page). This renderer runs no script of the output: it reads
// the specs with an inert DOMParser, shows the HTML through JupyterLab's
// own sanitizer (what an untrusted notebook shows: the static pictures),
// and mounts each view live from its spec with the runtime's code bundled
// here (display/runtime/src). Views insert SVG only through svgFromText,
// which keeps drawing elements and drops scripts, event handlers and
// external references. So the renderer is safe, and a notebook's views are
// live whether or not it is trusted.
import { Widget } from '@lumino/widgets';
import { mount } from '../../display/runtime/src/live.js';

/** Superstep's view type (display.ViewMIME). */
export const VIEW_MIME = 'application/vnd.superstep.view+json';
/** The type of a view's spec element in the HTML (views.SpecMIME). */
const SPEC_MIME = 'application/vnd.superstep.spec+json';

/**
 * The views in an output's HTML, by display id: kind and spec text. The
 * HTML is parsed, never inserted: no script runs, no picture loads.
 */
export function viewsOf(html) {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const views = new Map();
  for (const el of doc.querySelectorAll(`script[type="${SPEC_MIME}"]`)) {
    const root = el.previousElementSibling;
    if (!root || !root.classList.contains('superstep-display') || !root.id || views.has(root.id)) continue;
    views.set(root.id, { kind: root.getAttribute('data-kind') || 'svg', spec: el.textContent });
  }
  return views;
}

/** Renders one output: its static pictures, then every view live. */
class ViewRenderer extends Widget {
  constructor(options) {
    super();
    this.sanitizer = options.sanitizer;
    this.whenAttached = null;
    this.addClass('superstep-lab-output');
  }

  /**
   * Resolves once the output is in the page: views measure their styles
   * and boxes. Lumino says when it attaches the widget; a notebook that
   * moves cells into the page itself does not, so each frame looks too.
   */
  attached() {
    if (this.node.isConnected) return Promise.resolve();
    return new Promise((resolve) => {
      const frame = () => (this.node.isConnected ? this.isAttached() : requestAnimationFrame(frame));
      this.whenAttached = resolve;
      requestAnimationFrame(frame);
    });
  }

  isAttached() {
    if (this.whenAttached) this.whenAttached();
    this.whenAttached = null;
  }

  onAfterAttach(msg) {
    super.onAfterAttach(msg);
    this.isAttached();
  }

  async renderModel(model) {
    let html = model.data['text/html'];
    if (Array.isArray(html)) html = html.join('');
    if (typeof html !== 'string') {
      this.node.textContent = 'A Superstep view without its HTML: nothing to show.';
      return;
    }
    const views = viewsOf(html);
    this.node.innerHTML = this.sanitizer.sanitize(html);
    // JupyterLab renders an output before it attaches it.
    await this.attached();
    const roots = [...this.node.querySelectorAll('.superstep-display')];
    await Promise.all(
      roots.map((root) => {
        // The sanitizer moves ids to data-jupyter-id.
        const id = root.id || root.getAttribute('data-jupyter-id');
        const view = views.get(id);
        if (!view) {
          root.setAttribute('data-live-error', 'no spec for this view in the output');
          return undefined;
        }
        root.id = id;
        root.setAttribute('data-kind', view.kind);
        let spec;
        try {
          spec = JSON.parse(view.spec);
        } catch (e) {
          root.setAttribute('data-live-error', `the spec is not JSON: ${e.message}`);
          return undefined;
        }
        return mount(root, view.kind, spec);
      }),
    );
  }
}

/** The MIME extension: safe, and preferred to the output's text/html. */
const extension = {
  id: 'superstep-lab:views',
  description: "Superstep's live views",
  rendererFactory: {
    safe: true,
    mimeTypes: [VIEW_MIME],
    defaultRank: 0,
    createRenderer: (options) => new ViewRenderer(options),
  },
  rank: 0,
  dataType: 'json',
};

export default extension;
