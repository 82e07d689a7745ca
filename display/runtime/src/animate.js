// The animated vertex-program run (views.Animate). Go fitted the
// positions, coloured every distinct value, sampled the pulses and drew the
// frame (title, legend, caption) as SVG; this file plays the supersteps on
// a canvas laid over the frame's empty plot area, from the typed arrays of
// the spec (display/views/animate_spec.go).
//
// Playing, superstep s shows its values and states while its messages
// travel as dots from sender to receiver over the superstep's duration
// (requestAnimationFrame). Paused or stepped, a superstep shows its end
// state with its pulses at rest, as the static picture does: an orange line
// along each message's edge, its dot 70% of the way to the receiver.
// Controls: play/pause, step −1/+1, a scrub slider and a speed choice; with
// the view focused (it is focusable), space plays or pauses and ← / → step
// exactly one superstep. The trend strip (the job's heartbeat) marks the
// current superstep, and a click on a superstep of it jumps there. The
// current superstep is in data-step on the display, and data-playing says
// whether it plays. Hovering a vertex shows Go's hover text
// (AnimateData.tip) for the current superstep: the values travel as
// Float64 and are formatted as Go's strconv.FormatFloat(v, 'g', -1, 64).
import { quadtree } from 'd3-quadtree';
import { trendChart, pager } from './trend.js';
import { html, BAR, BUTTON, b64array, b64bytes, canvasOverFrame } from './util.js';

const BASE_MS = 900; // one superstep at 1×
const SPEEDS = [0.25, 0.5, 1, 2, 4];
const STATES = ['halted', 'woken', 'active'];

/** A base64 little-endian array of size-byte unsigned integers. */
const ints = (s, size) => b64array(s, [, Uint8Array, Uint16Array, , Uint32Array][size]);

/** x as Go's strconv.FormatFloat(x, 'g', -1, 64) (and so %v) writes it. */
export function goFloat(x) {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return '+Inf';
  if (x === -Infinity) return '-Inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const sign = x < 0 ? '-' : '';
  // The shortest digits that read back as x, as Go's shortest mode finds them.
  const [m, e] = Math.abs(x).toExponential().split('e');
  const digits = m.replace('.', '');
  const exp = Number(e);
  if (exp < -4 || exp >= 6) {
    // %e: d.ddde±XX, at least two exponent digits.
    const frac = digits.length > 1 ? '.' + digits.slice(1) : '';
    const ae = Math.abs(exp);
    return sign + digits[0] + frac + 'e' + (exp < 0 ? '-' : '+') + (ae < 10 ? '0' : '') + ae;
  }
  if (exp < 0) return sign + '0.' + '0'.repeat(-exp - 1) + digits;
  if (digits.length <= exp + 1) return sign + digits + '0'.repeat(exp + 1 - digits.length);
  return sign + digits.slice(0, exp + 1) + '.' + digits.slice(exp + 1);
}

export function animateView(root, img, sp) {
  const { w, h, r, n, steps } = sp;
  const st = sp.style;
  const IB = sp.ib;
  const xq = ints(sp.x, 2);
  const yq = ints(sp.y, 2);
  const X = new Float32Array(n);
  const Y = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    // Hundredths of a px, or (nodes beyond the frame) u/ps + po.
    X[i] = xq[i] / (sp.ps || 100) + (sp.po || 0);
    Y[i] = yq[i] / (sp.ps || 100) + (sp.po || 0);
  }
  const E = sp.e ? ints(sp.e, IB) : null;
  const vals = new Float64Array(b64bytes(sp.vals).buffer);
  const vcol = ints(sp.vcol, sp.vcb);
  // The value index of every vertex at every superstep.
  const VI = new [, Uint8Array, Uint16Array, , Uint32Array][sp.vb](n * steps);
  if (steps > 0) {
    VI.set(ints(sp.v0, sp.vb), 0);
    const cv = ints(sp.cv, IB);
    const ci = ints(sp.ci, sp.vb);
    let k = 0;
    for (let s = 1; s < steps; s++) {
      VI.copyWithin(s * n, (s - 1) * n, s * n);
      for (let j = 0; j < sp.cn[s]; j++, k++) VI[s * n + cv[k]] = ci[k];
    }
  }
  const ST = b64bytes(sp.st);
  const stateOf = (s, i) => (ST[(s * n + i) >> 2] >> (2 * ((s * n + i) & 3))) & 3;
  const offsets = (counts) => {
    const o = new Uint32Array(steps + 1);
    for (let s = 0; s < steps; s++) o[s + 1] = o[s] + counts[s];
    return o;
  };
  const mOff = offsets(sp.mn);
  const MV = ints(sp.mv, IB);
  const MS = ints(sp.ms, sp.mb);
  const MR = ints(sp.mr, sp.mb);
  const pOff = offsets(sp.pn);
  const PF = ints(sp.pf, IB);
  const PT = ints(sp.pt, IB);
  const G = sp.g ? ints(sp.g, sp.gb) : null;
  const gcol = (i) => sp.gcolors[Math.min(G[i], sp.gcolors.length - 1)];

  /** Go's hover text of vertex i at superstep s (AnimateData.tip). */
  function tip(i, s) {
    const v = vals[VI[s * n + i]];
    let sent = 0, recv = 0;
    // This superstep's message counts, by vertex: a binary search.
    let lo = mOff[s], hi = mOff[s + 1];
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (MV[mid] < i) lo = mid + 1;
      else hi = mid;
    }
    if (lo < mOff[s + 1] && MV[lo] === i) [sent, recv] = [MS[lo], MR[lo]];
    let t = ((sp.labels && sp.labels[i]) || 'vertex ' + i) + '\n' + sp.valueName + ' = ' + goFloat(v) + '\n' +
      STATES[stateOf(s, i)] + '\nsent ' + sent + ' · received ' + recv;
    if (G) t += '\n' + sp.groupName + ' ' + sp.gid[G[i]];
    return t;
  }

  // The frame, and the canvas over its plot area (both scale down together).
  const over = canvasOverFrame(sp.frame, 'ss-animate', w, h, sp.top);
  if (!over) return false;
  const { box, frame, cv, ctx, dpr } = over;
  const H = Number(frame.getAttribute('height'));
  const tree = quadtree(Array.from({ length: n }, (_, i) => i), (i) => X[i], (i) => Y[i]);

  let step = 0; // the superstep shown
  let t = 1; // how far its pulses have travelled (1: at rest)
  let playing = false;
  let hover = -1;

  // Geometry of one frame, shared by the canvas and the vector download.
  const ringR = r + 0.4 + st.ring / 2;
  const wokenW = Math.max(0.6, st.ring / 2);
  const fillR = r - st.outW / 2;

  function paint() {
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, w, h);
    if (E) {
      ctx.beginPath();
      for (let k = 0; k < E.length; k += 2) {
        ctx.moveTo(X[E[k]], Y[E[k]]);
        ctx.lineTo(X[E[k + 1]], Y[E[k + 1]]);
      }
      ctx.globalAlpha = sp.eo;
      ctx.lineWidth = st.edgeW;
      ctx.strokeStyle = st.edge;
      ctx.stroke();
      ctx.globalAlpha = 1;
    }
    if (steps === 0) return;
    const s = step;
    const p0 = pOff[s], p1 = pOff[s + 1];
    const rest = !playing;
    if (rest && p1 > p0) {
      ctx.beginPath();
      for (let k = p0; k < p1; k++) {
        ctx.moveTo(X[PF[k]], Y[PF[k]]);
        ctx.lineTo(X[PT[k]], Y[PT[k]]);
      }
      ctx.globalAlpha = 0.7;
      ctx.lineWidth = st.pulseW;
      ctx.strokeStyle = st.pulse;
      ctx.stroke();
      ctx.globalAlpha = 1;
    }
    // Vertices by fill colour, then their outlines by outline colour.
    const square = r * dpr < 1.5;
    const shape = (i, rr) => {
      if (square) ctx.rect(X[i] - rr, Y[i] - rr, 2 * rr, 2 * rr);
      else {
        ctx.moveTo(X[i] + rr, Y[i]);
        ctx.arc(X[i], Y[i], rr, 0, 2 * Math.PI);
      }
    };
    const buckets = new Map();
    const put = (key, i) => {
      let b = buckets.get(key);
      if (!b) buckets.set(key, (b = []));
      b.push(i);
    };
    for (let i = 0; i < n; i++) put(vcol[VI[s * n + i]], i);
    for (const [c, list] of buckets) {
      ctx.beginPath();
      for (const i of list) shape(i, fillR);
      ctx.fillStyle = sp.pal[c];
      ctx.fill();
    }
    if (!square && st.outW > 0) {
      ctx.lineWidth = st.outW;
      if (G) {
        buckets.clear();
        for (let i = 0; i < n; i++) put(gcol(i), i);
        for (const [c, list] of buckets) {
          ctx.beginPath();
          for (const i of list) shape(i, fillR);
          ctx.strokeStyle = c;
          ctx.stroke();
        }
      } else {
        ctx.beginPath();
        for (let i = 0; i < n; i++) shape(i, fillR);
        ctx.strokeStyle = st.outline;
        ctx.stroke();
      }
    }
    // Rings: active (dark) and woken (grey, thin).
    for (const [state, colour, lw] of st.wokenRing ? [[2, st.active, st.ring], [1, st.woken, wokenW]] : [[2, st.active, st.ring]]) {
      ctx.beginPath();
      for (let i = 0; i < n; i++) {
        if (stateOf(s, i) !== state) continue;
        ctx.moveTo(X[i] + ringR, Y[i]);
        ctx.arc(X[i], Y[i], ringR, 0, 2 * Math.PI);
      }
      ctx.lineWidth = lw;
      ctx.strokeStyle = colour;
      ctx.stroke();
    }
    // The pulses: travelling while playing, at rest otherwise.
    const at = rest ? st.at : t;
    if (p1 > p0) {
      ctx.beginPath();
      for (let k = p0; k < p1; k++) {
        const a = PF[k], b = PT[k];
        const px = X[a] + at * (X[b] - X[a]), py = Y[a] + at * (Y[b] - Y[a]);
        ctx.moveTo(px + st.dot, py);
        ctx.arc(px, py, st.dot, 0, 2 * Math.PI);
      }
      ctx.fillStyle = st.pulse;
      ctx.fill();
    }
    if (hover >= 0) {
      ctx.beginPath();
      ctx.arc(X[hover], Y[hover], ringR + 2, 0, 2 * Math.PI);
      ctx.lineWidth = 1.5;
      ctx.strokeStyle = '#e66101';
      ctx.stroke();
    }
  }

  // Controls.
  const bar = html('div', BAR);
  const button = (text, cls, title) => {
    const b = html('button', BUTTON, text);
    b.className = cls;
    b.title = title;
    b.setAttribute('aria-label', title);
    // A click keeps the keyboard on the view (space must not press the
    // button that has focus).
    b.addEventListener('mousedown', (e) => {
      e.preventDefault();
      root.focus();
    });
    return b;
  };
  const back = button('◀', 'ss-back', 'previous superstep (←)');
  const play = button('▶ play', 'ss-play', 'play or pause (space)');
  const fwd = button('▶', 'ss-forward', 'next superstep (→)');
  const scrub = html('input', 'flex:1;min-width:80px');
  scrub.type = 'range';
  scrub.className = 'ss-scrub';
  scrub.min = 0;
  scrub.max = Math.max(0, steps - 1);
  scrub.step = 1;
  scrub.value = 0;
  scrub.setAttribute('aria-label', 'superstep');
  const speed = html('select', 'font:inherit');
  speed.className = 'ss-speed';
  speed.title = 'speed';
  for (const x of SPEEDS) {
    const o = html('option', null, x + '×');
    o.value = x;
    if (x === 1) o.selected = true;
    speed.append(o);
  }
  speed.addEventListener('change', () => root.focus());
  const label = html('span', 'min-width:16em');
  label.className = 'ss-step-label';
  bar.append(back, play, fwd, scrub, speed);
  const labelRow = html('div', 'font:12px sans-serif;color:#222;margin:2px 0');
  labelRow.append(label);
  if (steps === 0) for (const c of [back, play, fwd, scrub, speed]) c.disabled = true;

  // The trend strip, linked.
  let chart = null;
  let pg = null;
  if (sp.trend) {
    chart = trendChart(root, sp.trend, { onPage: () => pg && pg.update() });
    chart.node.style.cursor = 'pointer';
    chart.node.addEventListener('click', (e) => {
      const el = e.target.closest && e.target.closest('[data-frame]');
      if (!el) return;
      pause();
      show(Number(el.getAttribute('data-frame')));
      root.focus();
    });
    if (chart.pages > 1) pg = pager(chart, sp.trend);
  }

  const hint = html('div', 'font:10px sans-serif;color:#888;margin-top:2px');
  hint.className = 'ss-hint';
  hint.textContent = 'space plays or pauses · ← → step one superstep (click the view first) · click the trend to jump';

  function refreshTip() {
    if (hover < 0) return;
    const text = tip(hover, step);
    cv.setAttribute('data-tip', text);
    const el = root.querySelector('.superstep-tip');
    if (el && el.style.display !== 'none') el.textContent = text;
  }

  /** Shows superstep s (its end state, unless playing). */
  function show(s) {
    if (steps === 0) return;
    step = Math.max(0, Math.min(steps - 1, s));
    root.setAttribute('data-step', String(step));
    scrub.value = step;
    label.textContent = 'superstep ' + step + ' (0–' + (steps - 1) + ') · ' + sp.stepText[step];
    back.disabled = step === 0;
    fwd.disabled = step === steps - 1;
    if (chart) {
      chart.showFrame(step);
      chart.setMarker(step);
    }
    refreshTip();
    paint();
  }

  let raf = 0;
  let last = 0;
  const duration = () => BASE_MS / Number(speed.value);
  function tick(now) {
    if (!playing) return;
    t += (now - last) / duration();
    last = now;
    if (t >= 1) {
      if (step >= steps - 1) {
        pause();
        return;
      }
      t = 0;
      show(step + 1);
    } else paint();
    raf = requestAnimationFrame(tick);
  }
  function setPlaying(on) {
    playing = on;
    root.setAttribute('data-playing', on ? '1' : '0');
    play.textContent = on ? '❚❚ pause' : '▶ play';
  }
  function start() {
    if (steps === 0) return;
    if (step >= steps - 1) step = 0;
    setPlaying(true);
    t = 0;
    last = performance.now();
    show(step);
    raf = requestAnimationFrame(tick);
  }
  function pause() {
    if (!playing) return;
    setPlaying(false);
    cancelAnimationFrame(raf);
    t = 1;
    paint();
  }
  const toggle = () => (playing ? pause() : start());
  const stepBy = (k) => {
    pause();
    show(step + k);
  };
  play.onclick = toggle;
  back.onclick = () => stepBy(-1);
  fwd.onclick = () => stepBy(1);
  scrub.addEventListener('input', () => {
    pause();
    show(Number(scrub.value));
  });

  root.tabIndex = 0;
  root.style.outlineOffset = '2px';
  root.addEventListener('keydown', (e) => {
    const tag = e.target && e.target.tagName;
    if (tag === 'SELECT') return;
    // The slider steps by one itself (an input event).
    if (tag === 'INPUT' && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) return;
    if (e.key === ' ' || e.key === 'Spacebar') toggle();
    else if (e.key === 'ArrowRight') stepBy(1);
    else if (e.key === 'ArrowLeft') stepBy(-1);
    else return;
    e.preventDefault();
  });

  // Hover: the nearest vertex within 6 px (plus its radius) of the pointer.
  const atPointer = (e) => {
    const b = cv.getBoundingClientRect();
    return [((e.clientX - b.left) * w) / b.width, ((e.clientY - b.top) * h) / b.height];
  };
  const hoverAt = (e) => {
    let i = -1;
    if (e && steps > 0) {
      const [px, py] = atPointer(e);
      const found = tree.find(px, py, 6 + r);
      if (found !== undefined) i = found;
    }
    if (i === hover) return;
    hover = i;
    if (i < 0) cv.removeAttribute('data-tip');
    else cv.setAttribute('data-tip', tip(i, step));
    if (!playing) paint();
  };
  cv.addEventListener('mousemove', hoverAt);
  cv.addEventListener('mouseleave', () => hoverAt(null));

  img.replaceWith(box);
  root.append(bar, labelRow);
  if (chart) root.append(chart.node);
  if (pg) root.append(pg);
  root.append(hint);
  setPlaying(false);
  root.setAttribute('data-step', String(sp.start || 0));
  show(sp.start || 0);
  paint();

  // The vector picture of the superstep shown (at rest), with the trend
  // under it, for the download menu.
  const svg = () => {
    const f = (v) => Math.round(v * 100) / 100;
    const parts = [`<svg x="0" y="${sp.top}" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" overflow="hidden">`];
    if (E) {
      const d = [];
      for (let k = 0; k < E.length; k += 2) d.push(`M${X[E[k]]} ${Y[E[k]]}L${X[E[k + 1]]} ${Y[E[k + 1]]}`);
      parts.push(`<path fill="none" stroke="${st.edge}" stroke-opacity="${sp.eo}" stroke-width="${st.edgeW}" d="${d.join('')}"/>`);
    }
    if (steps > 0) {
      const s = step;
      const p0 = pOff[s], p1 = pOff[s + 1];
      if (p1 > p0) {
        const d = [];
        for (let k = p0; k < p1; k++) d.push(`M${X[PF[k]]} ${Y[PF[k]]}L${X[PT[k]]} ${Y[PT[k]]}`);
        parts.push(`<path fill="none" stroke="${st.pulse}" stroke-opacity="0.7" stroke-width="${st.pulseW}" d="${d.join('')}"/>`);
      }
      for (let i = 0; i < n; i++) {
        const stroke = st.outW > 0 ? ` stroke="${G ? gcol(i) : st.outline}" stroke-width="${st.outW}"` : '';
        parts.push(`<circle class="ss-vertex" cx="${X[i]}" cy="${Y[i]}" r="${f(fillR)}" fill="${sp.pal[vcol[VI[s * n + i]]]}"${stroke}/>`);
        const state = stateOf(s, i);
        if (state === 2 || (state === 1 && st.wokenRing)) {
          parts.push(`<circle class="ss-ring" cx="${X[i]}" cy="${Y[i]}" r="${f(ringR)}" fill="none" stroke="${state === 2 ? st.active : st.woken}" stroke-width="${state === 2 ? st.ring : wokenW}"/>`);
        }
      }
      for (let k = p0; k < p1; k++) {
        const a = PF[k], b = PT[k];
        parts.push(`<circle class="ss-pulse" cx="${f(X[a] + st.at * (X[b] - X[a]))}" cy="${f(Y[a] + st.at * (Y[b] - Y[a]))}" r="${st.dot}" fill="${st.pulse}"/>`);
      }
    }
    parts.push('</svg>');
    const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
    parts.push(`<text x="4" y="${H + 14}" font-size="12" fill="#222">${esc(label.textContent)}</text>`);
    let total = H + 20;
    if (chart) {
      const tr = chart.node.cloneNode(true);
      tr.removeAttribute('style');
      tr.setAttribute('x', 0);
      tr.setAttribute('y', total);
      parts.push(new XMLSerializer().serializeToString(tr));
      total += Number(tr.getAttribute('height'));
    }
    const doc = sp.frame
      .replace(/<\/svg>\s*$/, parts.join('') + '</svg>')
      .replace(/^<svg([^>]*?) height="[^"]*"([^>]*?) viewBox="([^"]*)"/, (m, a, b, vb) => {
        const v = vb.split(' ');
        return `<svg${a} height="${total}"${b} viewBox="${v[0]} ${v[1]} ${v[2]} ${total}"`;
      });
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + doc;
  };
  return { svg };
}
