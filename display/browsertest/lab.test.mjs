// Superstep's JupyterLab (lab/, README.md "JupyterLab") in headless Chromium.
//
// Starts lab/main.py on a free loopback port with a token, serving a
// temporary folder that holds every executed notebook of $SUPERSTEP_NB_OUT
// (default /tmp/nbout; several folders separated by ':') twice:
//
//   untrusted/  as written: the Lab sanitizes the displays' HTML, and every
//               .superstep-display shows its static <img> (a decoded picture,
//               naturalWidth > 0), not live.
//   trusted/    signed for the server's notary: every .superstep-display
//               turns live (data-live="1") and the page has no error.
//
// The Lab must be built (./install.sh --lab or --test, or npm ci && npx
// webpack in lab/). With $SUPERSTEP_LAB_SCREENSHOT set, a PNG of the Lab
// with the trusted 01-heartbeats.ipynb open is written there.
//
// Run: SUPERSTEP_NB_OUT=/tmp/nbout node --test lab.test.mjs

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { launchChromium } from './chromium.mjs';

const NB_OUT = process.env.SUPERSTEP_NB_OUT || '/tmp/nbout';
const SCREENSHOT = process.env.SUPERSTEP_LAB_SCREENSHOT || '';
const FIRST_LOOK = process.env.SUPERSTEP_FIRST_LOOK_SCREENSHOT || '';
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const LAB = path.join(REPO, 'lab');
const PYTHON = process.env.SUPERSTEP_PYTHON || '/usr/bin/python3'; // Debian's, with jupyterlab_server
const PAGE_OPTIONS = { viewport: { width: 1280, height: 860 }, deviceScaleFactor: 1 };
const NOTEBOOK_TIMEOUT = 60_000;
// jupyter-server 1.x has no /api/me (JupyterLab 3.6 asks for it): a 404 that
// changes nothing.
const HARMLESS = [/\/api\/me\b/];
const harmless = (text) => HARMLESS.some((re) => re.test(text));

// ---------------------------------------------------------------------------
// The notebooks.

/** The executed notebooks: [{ name, file, displays }], displays counted in their HTML outputs. */
function collectNotebooks(dirs) {
  const notebooks = [];
  for (const dir of dirs) {
    for (const name of fs.readdirSync(dir).filter((f) => f.endsWith('.ipynb')).sort()) {
      const file = path.join(dir, name);
      const nb = JSON.parse(fs.readFileSync(file, 'utf8'));
      let displays = 0;
      for (const cell of nb.cells) {
        for (const out of cell.outputs || []) {
          let html = out.data && out.data['text/html'];
          if (!html) continue;
          if (Array.isArray(html)) html = html.join('');
          displays += (html.match(/<[a-z]+\s[^>]*class="superstep-display["\s]/g) || []).length;
        }
      }
      notebooks.push({ name, file, displays });
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
  assert.ok(
    fs.existsSync(path.join(LAB, 'build', 'bundle.js')),
    'lab/build is missing: build the Lab with ./install.sh --lab (or npm ci && npx webpack in lab/)',
  );
  assert.ok(notebooks.length > 0, `no executed notebooks in ${NB_OUT}`);

  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'superstep-lab-test-'));
  const root = path.join(tmp, 'notebooks');
  const notary = path.join(tmp, 'notary');
  for (const d of ['untrusted', 'trusted']) fs.mkdirSync(path.join(root, d), { recursive: true });
  fs.mkdirSync(notary);
  for (const nb of notebooks) {
    fs.copyFileSync(nb.file, path.join(root, 'trusted', nb.name));
    // Trust follows the content, not the path: the untrusted copies differ
    // from the signed ones by a metadata field.
    const copy = JSON.parse(fs.readFileSync(nb.file, 'utf8'));
    copy.metadata.superstep_lab_test = 'untrusted';
    fs.writeFileSync(path.join(root, 'untrusted', nb.name), JSON.stringify(copy, null, 1) + '\n');
  }
  // Sign the trusted copies with the notary the server checks them with (a
  // secret and a signature database of this run only).
  execFileSync(PYTHON, [
    '-c',
    'import sys, nbformat\n' +
      'from nbformat.sign import NotebookNotary\n' +
      'notary = NotebookNotary(data_dir=sys.argv[1])\n' +
      'for f in sys.argv[2:]:\n' +
      '    notary.sign(nbformat.read(f, as_version=4))\n',
    notary,
    ...notebooks.map((nb) => path.join(root, 'trusted', nb.name)),
  ]);

  const port = await freePort();
  token = randomBytes(16).toString('hex');
  base = `http://127.0.0.1:${port}`;
  const args = [
    path.join(LAB, 'main.py'),
    '--ip=127.0.0.1',
    `--port=${port}`,
    '--port-retries=0',
    '--no-browser',
    `--ServerApp.token=${token}`,
    `--ServerApp.root_dir=${root}`,
    `--SuperstepLab.user_settings_dir=${path.join(tmp, 'user-settings')}`,
    `--SuperstepLab.workspaces_dir=${path.join(tmp, 'workspaces')}`,
    `--NotebookNotary.data_dir=${notary}`,
  ];
  if (process.getuid && process.getuid() === 0) args.push('--ServerApp.allow_root=True');
  server = spawn(PYTHON, args, {
    cwd: tmp,
    env: {
      ...process.env,
      JUPYTER_RUNTIME_DIR: path.join(tmp, 'runtime'),
      PYDEVD_DISABLE_FILE_VALIDATION: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout.on('data', (b) => (serverLog += b));
  server.stderr.on('data', (b) => (serverLog += b));

  const deadline = Date.now() + 30_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the Lab server exited:\n${serverLog}`);
    try {
      await api('GET', '/api/status');
      break;
    } catch (e) {
      if (Date.now() > deadline) throw new Error(`the Lab server did not answer in 30 s:\n${serverLog}`);
      await sleep(200);
    }
  }

  browser = await launchChromium();
  context = await browser.newContext(PAGE_OPTIONS);
  // Only the Lab's own server: no CDN, no news.
  await context.route(/^(?!data:|about:|blob:)/, (route) =>
    route.request().url().startsWith(base) ? route.continue() : route.abort(),
  );
});

after(async () => {
  if (browser) await browser.close();
  await stopServer();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------
// Opening a notebook in the Lab.

/**
 * Opens folder/name in a fresh Lab page (a reset workspace) and waits until
 * the Lab has started and the notebook shows its displays. Returns the page
 * and the problems recorded on it.
 */
let pages = 0;
async function openNotebook(folder, nb) {
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !harmless(m.text()) && !harmless(m.location().url || '')) {
      problems.push(`console error: ${m.text()}`);
    }
  });
  page.on('response', (r) => {
    if (r.status() >= 400 && !harmless(r.url())) problems.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  page.on('requestfailed', (r) => {
    // The Lab cancels its own polls (net::ERR_ABORTED) when it refreshes them.
    const why = r.failure()?.errorText || '';
    if (!harmless(r.url()) && why !== 'net::ERR_ABORTED') problems.push(`request failed (${why}): ${r.url().slice(0, 100)}`);
  });
  const where = `${folder}/${nb.name}`;
  // A workspace of its own: nothing restored from another page.
  await page.goto(`${base}/lab/workspaces/t${++pages}/tree/${folder}/${nb.name}?token=${token}`);
  await page.waitForSelector('body[data-superstep-lab="ready"]', { state: 'attached', timeout: NOTEBOOK_TIMEOUT });
  const panel = page.locator('.jp-NotebookPanel:not(.lm-mod-hidden)');
  await panel.locator('.jp-Cell').first().waitFor({ timeout: NOTEBOOK_TIMEOUT });
  await page.waitForFunction(
    (n) => document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .superstep-display').length >= n,
    nb.displays,
    { timeout: NOTEBOOK_TIMEOUT },
  );
  assert.equal(await page.locator('.jp-NotebookPanel').count(), 1, `${where}: more than one notebook open`);
  const count = await panel.locator('.superstep-display').count();
  assert.equal(count, nb.displays, `${where}: ${count} displays in the Lab, ${nb.displays} in the notebook`);
  return { page, problems, where };
}

async function close(page) {
  await page.close();
  await endSessions();
}

describe('JupyterLab (lab/)', () => {
  test('the Lab page and its settings are served', async () => {
    const html = await (await fetch(`${base}/lab?token=${token}`)).text();
    assert.match(html, /<title>JupyterLab \(Superstep\)<\/title>/);
    const config = JSON.parse(html.match(/id="jupyter-config-data"[^>]*>([^<]*)</)[1]);
    assert.ok(
      JSON.stringify(config.disabledExtensions).includes('@jupyterlab/apputils-extension:announcements'),
      'the news announcements are not disabled',
    );
  });

  for (const nb of notebooks) {
    test(`untrusted ${nb.name}: every display shows its static picture`, async () => {
      const { page, problems, where } = await openNotebook('untrusted', nb);
      try {
        await page.waitForFunction(
          () =>
            [...document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .superstep-display img')].every(
              (img) => img.complete,
            ),
          null,
          { timeout: NOTEBOOK_TIMEOUT },
        );
        const states = await page
          .locator('.jp-NotebookPanel:not(.lm-mod-hidden) .superstep-display')
          .evaluateAll((els) =>
            els.map((el) => ({
              id: el.id,
              live: el.getAttribute('data-live'),
              scripts: el.querySelectorAll('script').length,
              imgs: [...el.querySelectorAll('img')].map((img) => img.naturalWidth),
            })),
          );
        for (const [d, s] of states.entries()) {
          const at = `${where}, display #${d} (id ${s.id})`;
          assert.equal(s.live, null, `${at}: live in an untrusted notebook`);
          assert.equal(s.scripts, 0, `${at}: a <script> survived the sanitizer`);
          assert.ok(s.imgs.length >= 1, `${at}: no <img>`);
          assert.ok(s.imgs.every((w) => w > 0), `${at}: a picture did not decode (naturalWidth ${s.imgs})`);
        }
        assert.deepEqual(problems, [], `${where}: problems in the Lab`);
      } finally {
        await close(page);
      }
    });
  }

  for (const nb of notebooks) {
    test(`trusted ${nb.name}: every display turns live`, async () => {
      const { page, problems, where } = await openNotebook('trusted', nb);
      try {
        await page
          .waitForFunction(
            () =>
              [...document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .superstep-display')].every(
                (el) => el.getAttribute('data-live') === '1' || el.hasAttribute('data-live-error'),
              ),
            null,
            { timeout: NOTEBOOK_TIMEOUT },
          )
          .catch(() => {}); // the assertions below say which display
        const states = await page
          .locator('.jp-NotebookPanel:not(.lm-mod-hidden) .superstep-display')
          .evaluateAll((els) =>
            els.map((el) => ({
              id: el.id,
              live: el.getAttribute('data-live'),
              error: el.getAttribute('data-live-error'),
            })),
          );
        for (const [d, s] of states.entries()) {
          const at = `${where}, display #${d} (id ${s.id})`;
          assert.equal(s.error, null, `${at}: the runtime failed: ${s.error}`);
          assert.equal(s.live, '1', `${at}: not live (data-live=${JSON.stringify(s.live)}); did the notebook load trusted?`);
        }
        // gofmt's tabs are not drawn as arrows (lab/superstep.css).
        const arrows = await page
          .locator('.jp-NotebookPanel:not(.lm-mod-hidden) .cm-tab')
          .evaluateAll((els) => els.filter((el) => getComputedStyle(el).backgroundImage !== 'none').length);
        assert.equal(arrows, 0, `${where}: ${arrows} tabs drawn as arrows`);
        assert.deepEqual(problems, [], `${where}: problems in the Lab`);
        if (SCREENSHOT && nb.name === '01-heartbeats.ipynb') {
          await page.locator('.superstep-display').first().scrollIntoViewIfNeeded();
          await page.screenshot({ path: SCREENSHOT });
        }
        // A tooltip shows beside the pointer (a fixed-position one landed
        // hundreds of px away: the Lab's output area is transformed).
        const tipped = page.locator('.jp-NotebookPanel:not(.lm-mod-hidden) .superstep-display svg [data-tip]').first();
        if ((await tipped.count()) === 1) {
          await tipped.scrollIntoViewIfNeeded();
          const b = await tipped.boundingBox();
          const [x, y] = [b.x + b.width / 2, b.y + b.height / 2];
          await page.mouse.move(x, y);
          const tip = page.locator('.jp-NotebookPanel:not(.lm-mod-hidden) .superstep-tip:visible').first();
          const t = await tip.boundingBox();
          assert.ok(t && Math.abs(t.x - x) < 40 && Math.abs(t.y - y) < 40, `${where}: the tooltip is at ${JSON.stringify(t)}, the pointer at ${x},${y}`);
          await page.mouse.move(0, 0);
        }
        if (FIRST_LOOK && nb.name === '00-tour.ipynb') await firstLook(page);
      } finally {
        await close(page);
      }
    });
  }
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
  const chart = panel.locator('.superstep-display').first();
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
