// The zoom factor of a wheel event, shared by the views that zoom with
// Ctrl/⌘ + wheel: a mouse wheel's notch zooms by NOTCH (Chromium gives a
// notch as 100 px, Firefox as 3 lines), and a touchpad pinch, which the
// browser sends as Ctrl + wheel with small fractional px deltas, zooms as
// the fingers spread (the factor exp(−Δ/100) the browser's own pinch zoom
// uses), not a notch per event.

/** The zoom of one wheel notch. */
export const NOTCH = 1.25;

/** The factor by which the wheel event e multiplies the zoom. */
export function wheelFactor(e) {
  const d = e.deltaY;
  if (e.deltaMode === 1) return Math.pow(NOTCH, -d / 3);
  if (e.deltaMode === 2) return Math.pow(NOTCH, -d);
  if (e.ctrlKey && !Number.isInteger(d) && Math.abs(d) < 50) return Math.exp(-d / 100);
  return Math.pow(NOTCH, -d / 100);
}
