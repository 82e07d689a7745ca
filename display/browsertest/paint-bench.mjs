// First-paint timings of the big canvas views in headless Chromium, the
// browser targets of issues 8, 9 and 10, printed against their targets and
// never asserted: the machine is shared, and a timed unit test fails on a
// busy one (the browser tests only log what they see).
//
//   SUPERSTEP_SAMPLES=DIR node paint-bench.mjs [rounds]
//
// DIR is what `go run ./sdk/internal/samples DIR` writes (without it,
// the samples are written to a temporary directory first). Measured, the
// median of the rounds (3 by default):
//
//   matrix large      1,024×1,024 sparse heat matrix: from the output's
//                     first byte in the page to a live canvas and the next
//                     animation frame, by the page's clock (target 1 s);
//   senderreceiver    the FD4 trace's 1,024 units and 60,515 pairs: the
//   chordlines        runtime's own first paint (data-paint-ms, target 1 s)
//                     and its repaint from the accumulated light when the
//                     opacity slider moves (target 1 s);
//   timeline          the 2.2 M-message bundled timeline: from the output's
//                     first byte to its first painted canvas, by the
//                     page's clock (target 5 s).
//
// "In page" times start when the page begins to parse the output, as in a
// notebook when the output arrives; the wall clock from Playwright's
// setContent (which adds sending the page to the browser) is printed too.
import { launchChromium } from './chromium.mjs';
import { samples, showOutput } from './page.mjs';

const ROUNDS = Number(process.argv[2] ?? 3);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const pick = (file, want) => {
  const s = samples(file).find(want);
  if (!s) throw new Error(`${file}: no sample for ${want}`);
  return s;
};

const browser = await launchChromium();
const rows = [];

/** Opens html live in a fresh page; returns the page, its root and the ms it took. */
async function open(html, name, viewport) {
  const mark = '<script>window.__ssT0 = performance.now();</script>';
  const live = await showOutput(browser, html, { viewport, title: name, head: mark, timeout: 60000 });
  const err = await live.root.getAttribute('data-live-error');
  if (err !== null) throw new Error(`${name}: the runtime failed: ${err}`);
  return live;
}

{
  const s = pick('matrix-samples.ipynb', (x) => x.sample.kind === 'matrix' && x.sample.name === 'large');
  const ms = [];
  const wall = [];
  for (let r = 0; r < ROUNDS; r++) {
    const { page, t0, close } = await open(s.html, 'matrix', { width: 1200, height: 900 });
    await page.waitForFunction(() => document.querySelector('.superstep-display[data-live="1"]'), null, { timeout: 60000 });
    ms.push(await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(Math.round(performance.now() - window.__ssT0))))));
    wall.push(Date.now() - t0);
    await close();
  }
  rows.push(['matrix large, first live paint (in page)', median(ms), 1000]);
  rows.push(['  wall clock from setContent', median(wall), null]);
}

for (const kind of ['senderreceiver', 'chordlines']) {
  const s = pick('senderreceiver-samples.ipynb', (x) => x.sample.kind === kind && x.sample.mode === 'fd4');
  const first = [];
  const again = [];
  for (let r = 0; r < ROUNDS; r++) {
    const { page, root, close } = await open(s.html, 'curves', { width: 1000, height: 900 });
    first.push(Number(await root.getAttribute('data-paint-ms')));
    await page.waitForFunction((el) => el.getAttribute('data-ready') === '1', await root.elementHandle(), { timeout: 60000 });
    await root.locator('input.ss-opacity').fill('-1');
    again.push(Number(await root.getAttribute('data-paint-ms')));
    await close();
  }
  rows.push([`${kind} fd4, first paint`, median(first), 1000]);
  rows.push([`${kind} fd4, repaint`, median(again), 1000]);
}

{
  const s = pick('timeline-samples.ipynb', (x) => x.sample.mode === 'canvas');
  const ms = [];
  const wall = [];
  for (let r = 0; r < ROUNDS; r++) {
    const { page, t0, close } = await open(s.html, 'timeline', { width: 1100, height: 1000 });
    await page.waitForFunction(() => {
      const el = document.querySelector('.ss-timeline[data-painted="1"]');
      if (el && window.__ssPainted === undefined) window.__ssPainted = Math.round(performance.now() - window.__ssT0);
      return !!el;
    }, null, { timeout: 60000, polling: 'raf' });
    ms.push(await page.evaluate(() => window.__ssPainted));
    wall.push(Date.now() - t0);
    await close();
  }
  rows.push(['timeline 2.2 M messages, first paint (in page)', median(ms), 5000]);
  rows.push(['  wall clock from setContent', median(wall), null]);
}
await browser.close();

const w = Math.max(...rows.map((r) => r[0].length));
console.log(`${'view'.padEnd(w)}  ${'median'.padStart(8)}  ${'target'.padStart(8)}  ratio`);
for (const [name, ms, target] of rows) {
  const t = target === null ? ['—', ''] : [`${target} ms`, `${(ms / target).toFixed(2)}${ms > target ? '  over' : ''}`];
  console.log(`${name.padEnd(w)}  ${`${ms} ms`.padStart(8)}  ${t[0].padStart(8)}  ${t[1]}`);
}
console.log(`(medians of ${ROUNDS} rounds in headless Chromium; printed, not asserted)`);
