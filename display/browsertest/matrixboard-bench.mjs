// Timings of the live matrix board in headless Chromium (issue 12's
// browser targets), printed, never asserted: the machine is shared.
//
//   node matrixboard-bench.mjs
//
// Boards: Paper1296 (5,184 cells as SVG, with its forwarding table) from
// matrixboard-samples.ipynb and KAry(36) (46,656 cells on a canvas) from
// matrixboard-bench.ipynb, both written by sdk/internal/samples. For
// each: the time from setting the page to a live board (the spec inflated,
// parsed and drawn), and the runtime's own time (data-update-ms: sums,
// scales, histogram, cells, bars) for a histogram brush, a time brush, a
// job click and, where the table was shipped, a route click; the median of
// five rounds.
import { launchChromium } from './chromium.mjs';
import { dragBins } from './matrixboard-util.mjs';
import { samples, showOutput } from './page.mjs';

const ROUNDS = 5;
const boards = [
  ...samples('matrixboard-samples.ipynb').filter((s) => s.sample.name === 'paper1296'),
  ...samples('matrixboard-bench.ipynb', ['-bench']),
];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const browser = await launchChromium();
const rows = [];
for (const { sample, html } of boards) {
  const times = { live: [], histogram: [], time: [], job: [], route: [] };
  for (let r = 0; r < ROUNDS; r++) {
    const { page, root, t0, close } = await showOutput(browser, html, { viewport: { width: 1400, height: 1000 }, title: sample.name, timeout: 60000 });
    times.live.push(Date.now() - t0);
    const ms = async () => Number(await root.getAttribute('data-update-ms'));
    await dragBins(page, root.locator('svg.ss-histogram'), sample.hist.range[0], sample.hist.range[1]);
    times.histogram.push(await ms());
    await dragBins(page, root.locator('svg.ss-timechart'), 2, 4);
    times.time.push(await ms());
    if (sample.job) {
      const row = root.locator(`tr.ss-job[data-job="${sample.job.id}"]`);
      await row.scrollIntoViewIfNeeded();
      await row.click();
      times.job.push(await ms());
      await row.click();
    }
    if (sample.routes) {
      const bar = root.locator(`rect.ss-bar[data-header="${sample.routes.src}"]`).first();
      await bar.scrollIntoViewIfNeeded();
      await bar.click();
      times.route.push(await ms());
    }
    await close();
  }
  const fmt = (xs) => (xs.length ? `${median(xs).toFixed(1)} ms` : '—');
  rows.push([sample.name, `${sample.cells} cells`, fmt(times.live), fmt(times.histogram), fmt(times.time), fmt(times.job), fmt(times.route)]);
}
await browser.close();

const head = ['board', 'size', 'live', 'histogram brush', 'time brush', 'job click', 'route click'];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (r) => r.map((c, i) => c.padEnd(widths[i])).join('  ');
console.log(line(head));
for (const r of rows) console.log(line(r));
console.log(`(medians of ${ROUNDS}; live is wall-clock from setting the page, the others the runtime's data-update-ms)`);
