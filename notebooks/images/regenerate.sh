#!/usr/bin/env bash
# Regenerates the README's pictures from the notebooks: executes every
# notebook headless, opens the results untrusted in JupyterLab 4 from
# Superstep's environment (./install.sh makes it) in headless Chromium, and
# screenshots them there (display/browsertest/lab.test.mjs):
#
#   jupyterlab.png   JupyterLab with the heartbeat notebook open
#   first-look.png   the tour's table, live bar chart (a bar hovered) and
#                    progress bar
#
#   notebooks/images/regenerate.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
venv="${SUPERSTEP_VENV:-${SUPERSTEP_HOME:-$HOME/.local/share/superstep}/venv}"
export PATH="$venv/bin:$PATH"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for nb in notebooks/*.ipynb; do
  jupyter nbconvert --to notebook --execute --ExecutePreprocessor.timeout=1800 --output-dir "$out" "$nb" 2>&1 | grep -v 'listening on' || true
done
(cd display/browsertest && npm ci --no-audit --no-fund --loglevel=error)
SUPERSTEP_NB_OUT="$out" SUPERSTEP_VENV="$venv" \
  SUPERSTEP_LAB_SCREENSHOT="$PWD/notebooks/images/jupyterlab.png" \
  SUPERSTEP_FIRST_LOOK_SCREENSHOT="$PWD/notebooks/images/first-look.png" \
  node --test --test-name-pattern='00-tour|01-heartbeats' display/browsertest/lab.test.mjs
echo "wrote notebooks/images/jupyterlab.png and notebooks/images/first-look.png"
