// What the matrix board's browser test and benchmark share besides page.mjs:
// a mouse drag over a chart's bins.

/**
 * Drags the mouse over the plot of chart (an svg with data-plot="l t w h"
 * and data-bins) from just after edge a to just before edge b, as a user
 * would.
 */
export async function dragBins(page, chart, a, b) {
  await chart.scrollIntoViewIfNeeded();
  const [l, t, w, h, n, vw] = await chart.evaluate((el) => [...el.getAttribute('data-plot').split(' ').map(Number), Number(el.getAttribute('data-bins')), el.viewBox.baseVal.width]);
  const box = await chart.boundingBox();
  const k = box.width / vw;
  const step = w / n;
  const X = (x) => box.x + k * x;
  const y = box.y + k * (t + h / 2);
  await page.mouse.move(X(l + (a + 0.2) * step), y);
  await page.mouse.down();
  await page.mouse.move(X(l + (a + b) * step / 2), y, { steps: 4 });
  await page.mouse.move(X(l + (b - 0.2) * step), y, { steps: 4 });
  await page.mouse.up();
}
