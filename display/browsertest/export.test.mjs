// Every executed notebook of $SUPERSTEP_NB_OUT (default /tmp/nbout; several
// folders separated by ':') exported with nbconvert, as public renderers
// and readers do, in headless Chromium:
//
//   --to html --sanitize-html  (nbviewer- and GitHub-like renderers) keeps
//        every display's static picture: one PNG output per
//        .superstep-display at its size (superstep-lab's preprocessor), no
//        <img> with an empty or stripped src, each decoding into a picture
//        with scripts off, no markup escaped into text.
//   --to html                  goes live offline: the notebook holds the
//        runtime once, every display turns live (data-live="1") with no
//        script error, and the only requests the page makes are those of
//        nbconvert's own template (require.js and MathJax: from
//        /usr/share/javascript with Debian's nbconvert, from a CDN with
//        upstream's; refused here), which no display needs.
//
// Run: SUPERSTEP_NB_OUT=/tmp/nbout node --test export.test.mjs

import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { htmlOf, outputPages } from './page.mjs';

const NB_OUT = process.env.SUPERSTEP_NB_OUT || '/tmp/nbout';
// nbconvert's lab template loads these itself (Debian's from
// /usr/share/javascript, upstream's from a CDN); Superstep's displays need
// neither.
const TEMPLATE_URLS = [/\/require(\.min)?\.js\b/, /\/requirejs\//, /\/mathjax\//i, /\/MathJax\.js\b/];

const notebooks = NB_OUT.split(':')
  .filter(Boolean)
  .flatMap((dir) =>
    fs.existsSync(dir)
      ? fs.readdirSync(dir).filter((f) => f.endsWith('.ipynb')).sort().map((f) => path.join(dir, f))
      : [],
  );

/** The number of live displays in a notebook's outputs. */
function displaysIn(file) {
  const nb = JSON.parse(fs.readFileSync(file, 'utf8'));
  let n = 0;
  for (const cell of nb.cells || []) {
    for (const out of cell.outputs || []) {
      const html = htmlOf(out);
      if (html) n += (html.match(/class="superstep-display"/g) || []).length;
    }
  }
  return n;
}

/** The number of image/png outputs of a notebook that are not views. */
function pngOutputs(file) {
  const nb = JSON.parse(fs.readFileSync(file, 'utf8'));
  let n = 0;
  for (const cell of nb.cells || []) {
    for (const out of cell.outputs || []) {
      if (out.data && out.data['image/png'] && !out.data['application/vnd.superstep.view+json']) n++;
    }
  }
  return n;
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'superstep-export-'));

/** Exports file with nbconvert and returns the HTML file's path. */
function exportHTML(file, sanitize) {
  const dir = path.join(tmp, sanitize ? 'sanitized' : 'plain');
  const args = ['nbconvert', '--to', 'html', '--output-dir', dir];
  if (sanitize) args.push('--sanitize-html');
  execFileSync('jupyter', [...args, file], { stdio: ['ignore', 'ignore', 'pipe'] });
  return path.join(dir, path.basename(file, '.ipynb') + '.html');
}

/**
 * The problems of an exported page: script errors, and requests other than
 * nbconvert's own template's.
 */
function exportProblems(page) {
  const problems = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('request', (r) => {
    const url = r.url();
    if (!url.startsWith('data:') && !url.startsWith('about:') && !url.startsWith('blob:') && !TEMPLATE_URLS.some((re) => re.test(url))) {
      problems.push(`request: ${url.slice(0, 100)}`);
    }
  });
  return problems;
}

// An export is a whole document, shown as it is.
const show = outputPages({ viewport: { width: 1100, height: 900 }, document: true });
after(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

test(`executed notebooks in ${NB_OUT}`, () => {
  assert.ok(notebooks.length > 0, `no *.ipynb in ${NB_OUT}`);
});

for (const file of notebooks) {
  const name = path.basename(file);
  const expected = displaysIn(file);

  describe(name, () => {
    // nbconvert 7 sanitizes text/html with bleach, which allows no <img>:
    // superstep-lab's preprocessor (superstep_lab/nbconvert.py, enabled by
    // its jupyter_nbconvert_config.json) shows each view as its own
    // image/png output instead, and Superstep's tables and progress bars
    // as their text.
    test(`nbconvert --sanitize-html keeps all ${expected} pictures`, async () => {
      const html = fs.readFileSync(exportHTML(file, true), 'utf8');
      const { page, close } = await show(html, { scripts: false });
      try {
        const s = await page.evaluate(async () => {
          const imgs = [...document.querySelectorAll('.jp-OutputArea-output img')];
          await Promise.all(imgs.map((i) => i.decode().catch(() => {})));
          return {
            scripts: document.querySelectorAll('.jp-OutputArea-output script').length,
            pictures: imgs.filter((i) => (i.getAttribute('src') || '').startsWith('data:image/png;base64,')).length,
            sized: imgs.filter((i) => Number(i.getAttribute('width')) > 0 && Number(i.getAttribute('height')) > 0).length,
            stripped: imgs.filter((i) => !i.getAttribute('src')).length,
            broken: imgs.filter((i) => !(i.complete && i.naturalWidth > 0)).map((i) => (i.getAttribute('src') || '').slice(0, 40)),
            escaped: [...document.querySelectorAll('.jp-OutputArea-output')]
              .map((o) => o.textContent)
              .filter((t) => /<(img|script|div|table|th)\b|superstep-/.test(t))
              .map((t) => t.slice(0, 80)),
          };
        });
        assert.equal(s.scripts, 0, 'a script survived sanitizing');
        assert.equal(s.pictures, expected + pngOutputs(file), 'one PNG picture per display, and every image/png output');
        assert.equal(s.sized, s.pictures, 'every picture keeps its display size');
        assert.equal(s.stripped, 0, 'an <img> lost its src');
        assert.deepEqual(s.broken, [], 'pictures that do not decode');
        assert.deepEqual(s.escaped, [], 'markup shown as text');
      } finally {
        await close();
      }
    });

    test('nbconvert --to html goes live offline', async () => {
      const out = exportHTML(file, false);
      const html = fs.readFileSync(out, 'utf8');
      const runtimes = (html.match(/window\.superstepPending=\[\]/g) || []).length;
      if (expected > 0) assert.equal(runtimes, 1, `the runtime is in the export ${runtimes} times, want once`);
      const { page, problems, close } = await show(html, { watch: exportProblems });
      try {
        const s = await page.evaluate(() =>
          [...document.querySelectorAll('.superstep-display')].map((el) => ({
            id: el.id,
            live: el.getAttribute('data-live'),
            error: el.getAttribute('data-live-error'),
          })),
        );
        assert.equal(s.length, expected, 'every display is in the export');
        for (const d of s) {
          assert.equal(d.error, null, `${d.id}: the runtime failed: ${d.error}`);
          assert.equal(d.live, '1', `${d.id}: not live`);
        }
        assert.deepEqual(problems, [], 'script errors or network requests of the displays');
      } finally {
        await close();
      }
    });
  });
}
