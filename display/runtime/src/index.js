// Superstep display runtime: turns static pictures into live ones.
//
// A notebook holds this bundle once (the kernel adds it to the first live
// display of a session, display.Carrier). Every live display then calls
// superstep.live(id, kind, spec, anchor), or, if the runtime has not loaded
// yet, queues the call in window.superstepPending, which the runtime runs
// when it loads. The display's static PNG <img> (correct on its own) is
// replaced by a live view drawn from spec, whose geometry Go computed
// (display/*.go), with a menu to download it as SVG or PNG. Defining the
// runtime twice is harmless: the version guard keeps the first definition
// of this version.
import { VIEWS, mount } from './live.js';

// 8: the spec in its own element (display.SpecMIME), mount shared with the
// JupyterLab extension.
const VERSION = 8;

(function install() {
  const ss = (window.superstep = window.superstep || {});
  if (ss.version === VERSION) return;
  ss.version = VERSION;
  ss.views = Object.assign(ss.views || {}, VIEWS);
  // anchor: the element right after the display's root (its spec).
  ss.live = function (id, kind, spec, anchor) {
    // The element just before the anchor (ids come from the content, so
    // two equal displays share one); else by id.
    const prev = anchor && anchor.previousElementSibling;
    const root = prev && prev.id === id ? prev : document.getElementById(id);
    mount(root, kind, spec, ss.views);
  };
  // Displays shown before the runtime loaded.
  const pending = window.superstepPending || [];
  window.superstepPending = [];
  for (const args of pending) ss.live.apply(ss, args);
})();
