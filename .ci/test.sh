#!/usr/bin/env bash
# Runs every test of Superstep. install.sh --test calls it after installing
# the kernel and the test tools into Superstep's Python environment
# ($SUPERSTEP_VENV), whose bin/ is first on PATH: python, jupyter and
# papermill are the environment's.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
: "${SUPERSTEP_VENV:?run the tests with ./install.sh --test}"
out=.ci/out
rm -rf "$out" && mkdir -p "$out"
passed=0 failed=0 failures=()

step() {
  local name="$1"; shift
  printf '\n\033[1;34m=== %s\033[0m\n' "$name"
  local t0=$SECONDS
  if "$@"; then
    passed=$((passed + 1)); printf '\033[1;32m--- ok\033[0m %s (%ds)\n' "$name" $((SECONDS - t0))
  else
    failed=$((failed + 1)); failures+=("$name"); printf '\033[1;31m--- FAILED\033[0m %s\n' "$name"
  fi
}

gofmt_clean() {
  local bad; bad="$(gofmt -l $(git ls-files '*.go'))"
  [ -z "$bad" ] || { echo "gofmt would change:"; echo "$bad"; return 1; }
}

generated_up_to_date() {
  go generate ./... || return 1
  local changed; changed="$(git status --porcelain -- sdk display lab | grep -v '^??.*node_modules' || true)"
  [ -z "$changed" ] || { echo "go generate changed committed files; run it and commit:"; echo "$changed"; git diff --stat; return 1; }
}

protocol_suite() {
  # jupyter_kernel_test from PyPI (lab/requirements-test.txt).
  python kernel/testdata/test_protocol.py 2>&1 | tee "$out/protocol.log"
  local rc=${PIPESTATUS[0]}
  [ "$rc" -eq 0 ] || return "$rc"
  if grep -Eq 'skipped|SKIP' "$out/protocol.log"; then echo "jupyter_kernel_test skipped tests: every sample must be filled in"; return 1; fi
}

notebooks() {
  local nb rc=0
  # Every picture's SVG, for the picture linter's static check.
  mkdir -p "$out/figures"
  # Every cell runs, the ones tagged skip-execution too (they fail on
  # purpose; check_notebooks.py checks they do): no cell carries this tag.
  for nb in notebooks/*.ipynb; do
    echo "executing $nb"
    SUPERSTEP_FIGURE_SVG_DIR="$PWD/$out/figures" jupyter nbconvert --to notebook --execute --ExecutePreprocessor.timeout=1800 \
      --ExecutePreprocessor.skip_cells_with_tag=superstep-ci-runs-every-cell \
      --output-dir "$out" "$nb" 2>&1 | grep -v 'listening on' || true
    [ -f "$out/$(basename "$nb")" ] || { echo "$nb did not execute"; rc=1; }
  done
  [ "$rc" -eq 0 ] || return 1
  python .ci/check_notebooks.py "$out"/*.ipynb
}

rerun() {
  # A re-executed notebook stores the same outputs, but where a cell shows
  # a time it measured (tagged measured-time). The second run is
  # papermill's, as a user's scheduled run would be: it fails on any error
  # output, so it also checks that only cells tagged skip-execution fail.
  local nb rc=0 out2="$out/rerun" name
  mkdir -p "$out2"
  for nb in notebooks/*.ipynb; do
    name="$(basename "$nb" .ipynb)"
    echo "papermill $nb"
    papermill --no-progress-bar --cwd notebooks --execution-timeout 1800 "$nb" "$out2/$name.ipynb" >"$out2/$name.log" 2>&1 ||
      { echo "papermill failed on $nb:"; tail -n 30 "$out2/$name.log"; rc=1; }
  done
  [ "$rc" -eq 0 ] || return 1
  python .ci/check_rerun.py "$out" "$out2"
}

browser() {
  (cd display/browsertest && npm ci --no-audit --no-fund --loglevel=error) || return 1
  # display/browsertest/ holds display.test.mjs and lab.test.mjs (JupyterLab
  # 4 and Notebook 7 from $SUPERSTEP_VENV, with the extension of lab/).
  # The display samples are written once for every test file (each would
  # otherwise run the writer itself, at the same time as the others).
  go run ./sdk/internal/samples "$PWD/$out/samples" || return 1
  SUPERSTEP_SAMPLES="$PWD/$out/samples" SUPERSTEP_NB_OUT="$PWD/$out" SUPERSTEP_FIGURES="$PWD/$out/figures" SUPERSTEP_SCREENSHOT="$PWD/$out/bars.png" \
    SUPERSTEP_LAB_SCREENSHOT="$PWD/$out/jupyterlab.png" node --test display/browsertest/ || return 1
  # The big canvases' paint times against their targets (printed, not
  # asserted: the machine is shared).
  SUPERSTEP_SAMPLES="$PWD/$out/samples" node display/browsertest/paint-bench.mjs 3
}

infiniband_samples() {
  # A skip (a tool missing) is a failure here: install.sh --test installs them.
  local log; log="$(SUPERSTEP_IBSIM=1 go test ./topology/infiniband -run '^TestRegenerate$' -count=1 -v 2>&1)"
  local rc=$?
  printf '%s\n' "$log" | tail -n 20
  [ "$rc" -eq 0 ] || return "$rc"
  if printf '%s\n' "$log" | grep -q -- '--- SKIP'; then echo "TestRegenerate skipped"; return 1; fi
}

into_current() {
  # A user's own environment with nothing but JupyterLab from PyPI (its
  # version from the lock): install.sh --into-current puts the kernel and
  # the extension there, and nothing else.
  local env; env="$(mktemp -d)/env"
  python -m venv "$env" || return 1
  "$env/bin/pip" install --quiet --disable-pip-version-check "$(grep -o '^jupyterlab==[0-9.]*' lab/requirements.txt)" || return 1
  local before; before="$("$env/bin/pip" list --format=freeze | sort)"
  PATH="$env/bin:$PATH" ./install.sh --into-current || return 1
  local added; added="$(comm -13 <(echo "$before") <("$env/bin/pip" list --format=freeze | sort))"
  echo "packages added: $added"
  [ "$(echo "$added" | cut -d= -f1)" = "superstep-lab" ] || { echo "--into-current installed more than superstep-lab"; return 1; }
  "$env/bin/jupyter" labextension list 2>&1 | grep -q 'superstep-lab.*enabled.*OK' || { echo "the extension is not enabled in $env"; return 1; }
  "$env/bin/jupyter" kernelspec list | grep -q "^ *superstep *$env/share/jupyter/kernels/superstep" || { echo "the kernel is not in $env"; "$env/bin/jupyter" kernelspec list; return 1; }
  rm -rf "$(dirname "$env")"
}

benchmarks() {
  go test ./kernel -run '^$' -bench . -benchtime=200x 2>&1 | grep -v '^kernel:' &&
    go test ./algo/vertex -run '^$' -bench PageRankRatios -benchtime=3x &&
    # Issue 16: runs with and without the vertex record, and its bytes.
    go test ./algo/vertex -run '^$' -bench RecordRatios -benchtime=10x &&
    go test ./sdk/session -run '^$' -bench CellVsCompiled -benchtime=2x &&
    go test ./sdk/session -run '^$' -bench SoakSession -benchtime=1x &&
    # Issue 11: SFDP against Graphviz sfdp on random geometric graphs, side
    # by side in one run (printed, not asserted: the machine is shared).
    go run ./algo/layout/bench -gen rgg -n 30000 -runs 3
}

step "gofmt" gofmt_clean
step "go vet" go vet ./...
step "staticcheck (pinned)" go run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...
step "generated files are up to date" generated_up_to_date
step "go test" go test ./...
# Issue 12: the committed InfiniBand samples, rebuilt with ibsim, OpenSM and
# infiniband-diags, must match their checksums.
step "InfiniBand samples regenerate (ibsim, OpenSM)" infiniband_samples
step "install.sh --into-current into a fresh JupyterLab" into_current
step "jupyter_kernel_test against the installed kernel" protocol_suite
step "notebooks run headless" notebooks
step "notebooks re-run identically under papermill" rerun
step "displays in headless Chromium" browser
step "kernel benchmarks" benchmarks

echo
[ "$failed" -eq 0 ] || printf 'failed steps: %s\n' "${failures[*]}"
echo "steps: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
