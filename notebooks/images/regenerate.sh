#!/usr/bin/env bash
# Regenerates the README's pictures from the notebooks: executes every
# notebook headless, opens the results in the project's JupyterLab (built by
# ./install.sh --lab or --test) in headless Chromium, trusted, and
# screenshots them there (display/browsertest/lab.test.mjs):
#
#   jupyterlab.png   the Lab with the heartbeat notebook open
#   first-look.png   the tour's table, live bar chart (a bar hovered) and
#                    progress bar
#
#   notebooks/images/regenerate.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
export PYDEVD_DISABLE_FILE_VALIDATION=1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for nb in notebooks/*.ipynb; do
  jupyter nbconvert --to notebook --execute --ExecutePreprocessor.timeout=1800 --output-dir "$out" "$nb" 2>&1 | grep -v 'listening on' || true
done
(cd display/browsertest && npm ci --no-audit --no-fund --loglevel=error)
SUPERSTEP_NB_OUT="$out" \
  SUPERSTEP_LAB_SCREENSHOT="$PWD/notebooks/images/jupyterlab.png" \
  SUPERSTEP_FIRST_LOOK_SCREENSHOT="$PWD/notebooks/images/first-look.png" \
  node --test display/browsertest/lab.test.mjs
echo "wrote notebooks/images/jupyterlab.png and notebooks/images/first-look.png"
