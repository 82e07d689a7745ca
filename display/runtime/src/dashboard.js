// The dashboard (GiViP's Figure 1): aggregation panel, cluster view, trend
// view and frame view, linked by one frame slider, a level switch and the
// cluster view's filters.
import { trendChart, pager } from './trend.js';
import { chordChart, frameSlider } from './chord.js';
import { treemapChart } from './treemap.js';
import { html, caption, fmt, BUTTON } from './util.js';

export function dashboardView(root, img, sp) {
  const box = html('div', 'font:12px sans-serif;color:#222;max-width:100%');
  const cols = html('div', 'display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start');
  const left = html('div', `width:${sp.layout.leftWidth}px;max-width:100%`);
  const mid = html('div', 'max-width:100%');
  const right = html('div', 'max-width:100%');
  box.className = 'ss-dashboard';
  box.append(html('div', 'font:bold 16px sans-serif;margin:0 0 6px', sp.title), cols);
  cols.append(left, mid, right);

  // The aggregation panel: statistics and the level switch.
  const stats = html('table', 'border-collapse:collapse;width:100%;margin-bottom:8px');
  const values = sp.stats.map((s) => {
    const tr = stats.insertRow();
    const td = html('td', 'text-align:right;font-weight:bold;padding:1px 0', s.value);
    td.className = 'ss-stat';
    td.setAttribute('data-label', s.label);
    tr.append(html('td', 'color:#666;padding:1px 0', s.label), td);
    return td;
  });
  const filterNote = html('div', 'color:#666;margin:-4px 0 8px;display:none',
    'Filtered: totals of the units shown; the other figures are of the whole job.');
  filterNote.className = 'ss-filter-note';
  const levels = html('div', 'display:flex;gap:2px;margin-bottom:10px');
  const buttons = sp.levels.map((l, i) => {
    const b = html('button', BUTTON + ';flex:1', l.name);
    b.className = 'ss-level';
    b.setAttribute('data-level', l.name);
    b.onclick = () => setLevel(i);
    levels.append(b);
    return b;
  });

  const state = { level: -1, frame: sp.selected, filtered: new Set() };
  const hidden = (u) => state.filtered.has(u.id) || u.parents.some((p) => state.filtered.has(p));
  const tree = treemapChart(root, sp.tree, (filtered) => {
    state.filtered = filtered;
    if (state.trend) {
      state.trend.setHidden(hidden);
      state.chord.setHidden(hidden);
    }
    showTotals();
  });
  left.append(caption('aggregation'), stats, filterNote, levels, caption('cluster view · click to filter'), tree.node);
  const trendCap = caption('');
  const chordCap = caption('');
  const trendBox = html('div');
  const chordBox = html('div');
  mid.append(trendCap, trendBox);
  right.append(chordCap, chordBox);

  // A statistic that totals a trend panel follows the filter: the sum of
  // the panel's outgoing values over the units shown, of the whole.
  function showTotals() {
    const lv = sp.levels[Math.max(0, state.level)];
    const on = state.filtered.size > 0 && lv;
    filterNote.style.display = on ? '' : 'none';
    sp.stats.forEach((s, i) => {
      if (!on || s.sums < 0) {
        values[i].textContent = s.value;
        return;
      }
      let sum = 0;
      lv.trend.units.forEach((u, k) => {
        if (hidden(u)) return;
        for (const v of lv.trend.panels[s.sums].out[k] || []) sum += Number(v) || 0;
      });
      values[i].textContent = `${s.bytes ? bytes(sum) : fmt(Math.round(sum))} of ${s.value}`;
    });
  }

  // One slider drives the chord's frame and the trend's marker.
  function setFrame(f) {
    state.frame = f;
    state.chord.setFrame(f, true);
    state.trend.showFrame(f);
    state.trend.setMarker(f);
  }

  // The level switch swaps the trend and the chord; frame and filters stay.
  function setLevel(i) {
    if (i === state.level) return;
    state.level = i;
    const lv = sp.levels[i];
    buttons.forEach((b, k) => {
      b.style.background = k === i ? '#444' : '#fff';
      b.style.color = k === i ? '#fff' : '#222';
      b.setAttribute('aria-pressed', String(k === i));
    });
    root.setAttribute('data-level', lv.name);
    trendCap.textContent = 'trend view · ' + lv.name;
    chordCap.textContent = 'frame view · ' + lv.name;
    state.frame = Math.max(0, Math.min(lv.chord.frames.length - 1, state.frame));
    const at = Object.assign({}, lv.chord, { selected: state.frame });
    let pg = null;
    state.trend = trendChart(root, lv.trend, { onPage: () => pg && pg.update() });
    pg = pager(state.trend, lv.trend);
    state.chord = chordChart(root, at);
    trendBox.replaceChildren(state.trend.node, pg, frameSlider(at, setFrame));
    chordBox.replaceChildren(state.chord.node);
    state.trend.setHidden(hidden);
    state.chord.setHidden(hidden);
    state.trend.showFrame(state.frame);
    state.trend.setMarker(state.frame);
    showTotals();
  }

  img.replaceWith(box);
  if (sp.levels.length) setLevel(0);
  return true;
}

/** Formats a byte count as Go's display.FormatBytes does. */
function bytes(v) {
  if (Math.round(v) < 1000) return `${Math.round(v)} B`;
  const prefixes = ['kB', 'MB', 'GB', 'TB', 'PB', 'EB'];
  let p = 0;
  v /= 1000;
  while (v >= 999.5 && p < prefixes.length - 1) {
    v /= 1000;
    p++;
  }
  const dec = v >= 99.95 ? 0 : v >= 9.995 ? 1 : 2;
  return `${v.toFixed(dec)} ${prefixes[p]}`;
}
