// Superstep's views in JupyterLab 4 and Notebook 7, as users install them:
// the servers of Superstep's Python environment ($SUPERSTEP_VENV, default
// ~/.local/share/superstep/venv, made by ./install.sh from
// lab/requirements*.txt) with Superstep's extension (lab/) in it.
//
// One server serves a temporary folder holding every executed notebook of
// $SUPERSTEP_NB_OUT (default /tmp/nbout; several folders separated by ':'),
// as a reader gets them: not signed by this server's notary (a data folder
// of this run only), so untrusted. Each notebook is opened in JupyterLab
// (/lab) and in Notebook 7 (/notebooks), and every view must turn live from
// the extension's renderer with no script of the output run; for each view
// that has hover targets, the test hovers the first one and expects the
// tooltip to show the text Go wrote (data-tip), and every view's download
// menu must give an SVG document. Any page error, console
// error, failed request or request leaving the server fails the test. Each
// notebook's line in the output counts views found, live, hovers checked
// and downloads.
//
// With $SUPERSTEP_LAB_SCREENSHOT set, a PNG of JupyterLab with
// 01-heartbeats.ipynb open is written there; with
// $SUPERSTEP_FIRST_LOOK_SCREENSHOT, the README's first look at 00-tour.
//
// Run: SUPERSTEP_NB_OUT=/tmp/nbout node --test lab.test.mjs

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { launchChromium } from './chromium.mjs';

const NB_OUT = process.env.SUPERSTEP_NB_OUT || '/tmp/nbout';
const SCREENSHOT = process.env.SUPERSTEP_LAB_SCREENSHOT || '';
const FIRST_LOOK = process.env.SUPERSTEP_FIRST_LOOK_SCREENSHOT || '';
const VENV = process.env.SUPERSTEP_VENV || path.join(os.homedir(), '.local/share/superstep/venv');
const JUPYTER = path.join(VENV, 'bin', 'jupyter');
const PAGE_OPTIONS = { viewport: { width: 1280, height: 860 }, deviceScaleFactor: 1 };
const NOTEBOOK_TIMEOUT = 90_000;
const OUTPUT = '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-OutputArea-output';
// Notebook 7.6.5's own page errors, raised on every page it serves (its
// file browser, an empty notebook) in an environment with nothing but
// Notebook 7 from PyPI: not Superstep's, so not counted.
const UPSTREAM = {
  'Notebook 7': [
    "page error: Cannot read properties of undefined (reading 'schema')",
    "page error: Command 'filebrowser:open-path' not registered.",
  ],
};

// ---------------------------------------------------------------------------
// The notebooks.

/** The executed notebooks: [{ name, file, views }], views counted in their outputs. */
function collectNotebooks(dirs) {
  const notebooks = [];
  for (const dir of dirs) {
    for (const name of fs.readdirSync(dir).filter((f) => f.endsWith('.ipynb')).sort()) {
      const file = path.join(dir, name);
      const nb = JSON.parse(fs.readFileSync(file, 'utf8'));
      let views = 0;
      for (const cell of nb.cells) {
        for (const out of cell.outputs || []) {
          let html = out.data && out.data['text/html'];
          if (!html || !out.data['application/vnd.superstep.view+json']) continue;
          if (Array.isArray(html)) html = html.join('');
          views += (html.match(/<div class="superstep-display"/g) || []).length;
        }
      }
      notebooks.push({ name, file, views });
    }
  }
  return notebooks;
}

const notebooks = collectNotebooks(NB_OUT.split(':').filter(Boolean));

// ---------------------------------------------------------------------------
// The server.

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let tmp;
let server;
let serverLog = '';
let base;
let token;
let browser;
let context;

/** Stops the server (SIGTERM: it shuts its kernels down), SIGKILL after 10 s. */
async function stopServer() {
  if (!server || server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((r) => server.once('exit', r));
  server.kill('SIGTERM');
  const killed = await Promise.race([exited.then(() => true), sleep(10_000).then(() => false)]);
  if (!killed) {
    server.kill('SIGKILL');
    await exited;
  }
}

// Last resort if the test process is ended before after() runs.
const killServer = () => {
  if (server && server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
};
process.on('exit', killServer);
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.once(sig, () => {
    killServer();
    process.exit(1);
  });
}

async function api(method, p) {
  const res = await fetch(`${base}${p}`, { method, headers: { Authorization: `token ${token}` } });
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status}`);
  return res.status === 204 ? null : res.json();
}

/** Ends every session (and its kernel) so that at most one kernel runs at a time. */
async function endSessions() {
  for (const s of await api('GET', '/api/sessions')) await api('DELETE', `/api/sessions/${s.id}`);
}

before(async () => {
  assert.ok(fs.existsSync(JUPYTER), `${JUPYTER} is missing: make the environment with ./install.sh (or set SUPERSTEP_VENV)`);
  assert.ok(notebooks.length > 0, `no executed notebooks in ${NB_OUT}`);

  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'superstep-lab-test-'));
  const root = path.join(tmp, 'notebooks');
  fs.mkdirSync(root);
  for (const nb of notebooks) fs.copyFileSync(nb.file, path.join(root, nb.name));
  fs.mkdirSync(path.join(tmp, 'notary'));

  const port = await freePort();
  token = randomBytes(16).toString('hex');
  base = `http://127.0.0.1:${port}`;
  const args = [
    'lab',
    '--ip=127.0.0.1',
    `--port=${port}`,
    '--port-retries=0',
    '--no-browser',
    `--IdentityProvider.token=${token}`,
    `--ServerApp.root_dir=${root}`,
    `--LabApp.user_settings_dir=${path.join(tmp, 'user-settings')}`,
    `--LabApp.workspaces_dir=${path.join(tmp, 'workspaces')}`,
    // A notary of this run only: nothing here was ever signed.
    `--NotebookNotary.data_dir=${path.join(tmp, 'notary')}`,
  ];
  if (process.getuid && process.getuid() === 0) args.push('--ServerApp.allow_root=True');
  server = spawn(JUPYTER, args, {
    cwd: tmp,
    env: {
      ...process.env,
      PATH: `${path.join(VENV, 'bin')}:${process.env.PATH}`,
      JUPYTER_RUNTIME_DIR: path.join(tmp, 'runtime'),
      JUPYTER_CONFIG_DIR: path.join(tmp, 'config'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout.on('data', (b) => (serverLog += b));
  server.stderr.on('data', (b) => (serverLog += b));

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the server exited:\n${serverLog}`);
    try {
      await api('GET', '/api/status');
      break;
    } catch (e) {
      if (Date.now() > deadline) throw new Error(`the server did not answer in 60 s:\n${serverLog}`);
      await sleep(200);
    }
  }

  browser = await launchChromium();
  context = await browser.newContext(PAGE_OPTIONS);
});

after(async () => {
  if (browser) await browser.close();
  await stopServer();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------
// Opening a notebook.

const FRONTS = {
  JupyterLab: (nb, n) => `${base}/lab/workspaces/t${n}/tree/${nb.name}?token=${token}`,
  'Notebook 7': (nb) => `${base}/notebooks/${nb.name}?token=${token}`,
};

/**
 * Opens nb in a fresh page of the front end and waits until its outputs
 * show nb.views views. Returns the page and the problems recorded on it:
 * page errors, console errors, failed requests and any request that leaves
 * the server (refused).
 */
let pages = 0;
async function openNotebook(front, nb) {
  const page = await context.newPage();
  const problems = [];
  const known = UPSTREAM[front] || [];
  page.on('pageerror', (e) => known.includes(`page error: ${e.message}`) || problems.push(`page error: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && problems.push(`console error: ${m.text()}`));
  page.on('response', (r) => r.status() >= 400 && problems.push(`HTTP ${r.status()}: ${r.url()}`));
  page.on('requestfailed', (r) => {
    // The front ends cancel their own polls (net::ERR_ABORTED) when they refresh them.
    const why = r.failure()?.errorText || '';
    if (why !== 'net::ERR_ABORTED') problems.push(`request failed (${why}): ${r.url().slice(0, 100)}`);
  });
  await page.route(/^(?!data:|about:|blob:)/, (route) => {
    const url = route.request().url();
    if (url.startsWith(base)) return route.continue();
    problems.push(`network request: ${url.slice(0, 100)}`);
    return route.abort();
  });
  const where = `${front} ${nb.name}`;
  await page.goto(FRONTS[front](nb, ++pages));
  await page
    .locator('.jp-NotebookPanel .jp-Cell')
    .first()
    .waitFor({ timeout: NOTEBOOK_TIMEOUT })
    .catch((e) => assert.fail(`${where}: no cell shown in ${NOTEBOOK_TIMEOUT / 1000} s (${e.message.split('\n')[0]}); problems: ${problems}`));
  await page
    .waitForFunction(([sel, n]) => document.querySelectorAll(`${sel} .superstep-display`).length >= n, [OUTPUT, nb.views], {
      timeout: NOTEBOOK_TIMEOUT,
    })
    .catch(async () => {
      const shown = await page.locator(`${OUTPUT} .superstep-display`).count();
      assert.fail(`${where}: ${shown} of ${nb.views} views shown after ${NOTEBOOK_TIMEOUT / 1000} s; problems: ${problems}`);
    });
  const count = await page.locator(`${OUTPUT} .superstep-display`).count();
  assert.equal(count, nb.views, `${where}: ${count} views shown, ${nb.views} in the notebook`);
  return { page, problems, where };
}

async function close(page) {
  await page.close();
  await endSessions();
}

/** Whether the server marks the notebook's code cells untrusted (as it sends them). */
async function untrusted(nb) {
  const model = await api('GET', `/api/contents/${encodeURIComponent(nb.name)}?content=1`);
  const code = model.content.cells.filter((c) => c.cell_type === 'code' && c.outputs.length > 0);
  return code.length > 0 && code.every((c) => c.metadata.trusted === false);
}

/** The element's box once it stops moving (the notebook scrolls smoothly). */
async function stableBox(locator) {
  let last = await locator.boundingBox();
  for (let i = 0; i < 40; i++) {
    await sleep(50);
    const b = await locator.boundingBox();
    if (b && last && b.x === last.x && b.y === last.y) return b;
    last = b;
  }
  return last;
}

/**
 * Checks every view of the open notebook: live from the extension, no
 * script in any output, and for each view with hover targets, the tooltip
 * of the first target that is on top. Returns the counts.
 */
async function checkViews(page, where) {
  await page
    .waitForFunction(
      (sel) =>
        [...document.querySelectorAll(`${sel} .superstep-display`)].every(
          (el) => el.getAttribute('data-live') === '1' || el.hasAttribute('data-live-error'),
        ),
      OUTPUT,
      { timeout: NOTEBOOK_TIMEOUT },
    )
    .catch(() => {}); // the assertions below say which view
  const views = page.locator(`${OUTPUT} .superstep-display`);
  const states = await views.evaluateAll((els) =>
    els.map((el) => ({
      id: el.id,
      kind: el.getAttribute('data-kind'),
      live: el.getAttribute('data-live'),
      error: el.getAttribute('data-live-error'),
      rendered: !!el.closest('.superstep-lab-output'),
    })),
  );
  const scripts = await page.locator(`${OUTPUT} script`).count();
  assert.equal(scripts, 0, `${where}: ${scripts} <script> elements in the outputs`);
  let hovers = 0, downloads = 0;
  for (const [d, s] of states.entries()) {
    const at = `${where}, view #${d} (${s.kind}, ${s.id})`;
    assert.ok(s.rendered, `${at}: not drawn by Superstep's renderer`);
    assert.equal(s.error, null, `${at}: the runtime failed: ${s.error}`);
    assert.equal(s.live, '1', `${at}: not live`);
    const view = views.nth(d);
    // The download menu gives the view as an SVG document.
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 15_000 }),
      (async () => {
        await view.locator('.ss-download').click();
        await view.locator('.ss-download-menu [data-format="svg"]').click();
      })(),
    ]);
    const svg = fs.readFileSync(await download.path(), 'utf8');
    assert.match(svg, /^(<\?xml[^>]*>\s*)?<svg[\s>]/, `${at}: the download is not an SVG document`);
    assert.ok(svg.length > 200, `${at}: the downloaded SVG is ${svg.length} bytes`);
    downloads++;
    // The first hover target that is on top where the pointer goes.
    const targets = view.locator('svg [data-tip]');
    const n = Math.min(await targets.count(), 20);
    for (let t = 0; t < n; t++) {
      const target = targets.nth(t);
      await target.scrollIntoViewIfNeeded();
      const b = await stableBox(target);
      if (!b || b.width < 2 || b.height < 2) continue;
      const [x, y] = [b.x + b.width / 2, b.y + b.height / 2];
      const onTop = await target.evaluate((el, [px, py]) => {
        const hit = document.elementFromPoint(px, py);
        return hit === el || el.contains(hit);
      }, [x, y]);
      if (!onTop) continue;
      await page.mouse.move(x, y);
      const want = await target.getAttribute('data-tip');
      const tip = view.locator('.superstep-tip');
      await tip.waitFor({ state: 'visible', timeout: 5000 });
      assert.equal(await tip.innerText(), want, `${at}: the tooltip says something else than Go's text`);
      // Where the tooltip is against where the pointer was on the target
      // (cells rendered late may have moved both since), or inside the
      // view, where some views place it to fit.
      const [tb, nb, vb] = [await tip.boundingBox(), await target.boundingBox(), await view.boundingBox()];
      const [px, py] = [x - b.x + nb.x, y - b.y + nb.y];
      const near = Math.abs(tb.x - px) < 60 && Math.abs(tb.y - py) < 60;
      const inside = tb.x >= vb.x - 1 && tb.y >= vb.y - 1 && tb.x + tb.width <= vb.x + vb.width + 1 && tb.y + tb.height <= vb.y + vb.height + 1;
      assert.ok(near || inside, `${at}: the tooltip is at ${JSON.stringify(tb)}, the pointer at ${px},${py}, the view at ${JSON.stringify(vb)}`);
      await page.mouse.move(0, 0);
      hovers++;
      break;
    }
  }
  return { found: states.length, live: states.filter((s) => s.live === '1').length, hovers, downloads };
}

for (const front of Object.keys(FRONTS)) {
  describe(`${front} from the environment, notebooks untrusted`, () => {
    for (const nb of notebooks) {
      test(`${nb.name}: every view live`, async () => {
        assert.ok(await untrusted(nb), `${nb.name}: the server does not mark it untrusted`);
        const { page, problems, where } = await openNotebook(front, nb);
        try {
          const n = await checkViews(page, where);
          console.log(`# ${where}: ${n.found} views found, ${n.live} live, ${n.hovers} hovers checked against Go's text, ${n.downloads} SVG downloads`);
          if (front === 'JupyterLab') {
            // gofmt's tabs are not drawn as arrows (lab/overrides.json).
            const arrows = await page.locator('.jp-NotebookPanel:not(.lm-mod-hidden) .cm-highlightTab').count();
            assert.equal(arrows, 0, `${where}: ${arrows} tabs drawn as arrows`);
          }
          assert.deepEqual(problems, [], `${where}: problems in the page`);
          if (SCREENSHOT && front === 'JupyterLab' && nb.name === '01-heartbeats.ipynb') {
            await page.locator(`${OUTPUT} .superstep-display`).first().scrollIntoViewIfNeeded();
            await page.screenshot({ path: SCREENSHOT });
          }
          if (FIRST_LOOK && front === 'JupyterLab' && nb.name === '00-tour.ipynb') await firstLook(page);
        } finally {
          await close(page);
        }
      });
    }
  });
}

describe('JupyterLab settings for Go (lab/overrides.json)', () => {
  test('Tab indents with a tab, no CDN, no news', async () => {
    const settings = await api('GET', '/lab/api/settings/@jupyterlab/codemirror-extension:plugin');
    // The server applies overrides.json to the schemas' defaults.
    const config = settings.schema.properties.defaultConfig.default;
    assert.equal(config.indentUnit, 'Tab');
    assert.equal(config.highlightWhitespace, false);
    const news = (await api('GET', '/lab/api/settings/@jupyterlab/apputils-extension:notification')).schema.properties;
    assert.equal(news.fetchNews.default, 'false');
    assert.equal(news.checkForUpdates.default, false);
  });
});

/**
 * The README's first look: the tour's table, its live bar chart with a
 * bar hovered (the tooltip showing), and the cell that prints and shows a
 * progress bar, as the trusted notebook shows them in the Lab.
 */
async function firstLook(page) {
  await page.setViewportSize({ width: 1100, height: 1500 });
  await page.waitForTimeout(500); // the Lab lays out again
  const panel = page.locator('.jp-NotebookPanel:not(.lm-mod-hidden)');
  const chart = panel.locator('.jp-OutputArea-output .superstep-display').first();
  await chart.scrollIntoViewIfNeeded();
  const cells = panel.locator('.jp-Cell');
  const n = await cells.count();
  let first = -1, last = -1;
  for (let i = 0; i < n; i++) {
    const text = await cells.nth(i).innerText();
    if (first < 0 && text.includes('display.Table(')) first = i;
    if (text.includes('NewProgress(')) last = i;
  }
  assert.ok(first >= 0 && last > first, 'the tour has no table cell or progress cell');
  await cells.nth(first).scrollIntoViewIfNeeded();
  await page.evaluate((el) => el.scrollIntoView({ block: 'start' }), await cells.nth(first).elementHandle());
  const bar = chart.locator('svg [data-tip]').first();
  const b = await bar.boundingBox();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 3);
  const top = (await cells.nth(first).boundingBox()).y;
  const end = await cells.nth(last).boundingBox();
  const box = await panel.boundingBox();
  fs.mkdirSync(path.dirname(path.resolve(FIRST_LOOK)), { recursive: true });
  await page.screenshot({
    path: FIRST_LOOK,
    clip: { x: box.x, y: Math.max(box.y, top - 4), width: box.width, height: Math.min(end.y + end.height, box.y + box.height) - Math.max(box.y, top - 4) },
  });
}
