#!/usr/bin/env bash
# Superstep set-up: builds the Go (Superstep) Jupyter kernel, makes a Python
# environment with JupyterLab 4 and Notebook 7 from PyPI (pinned with hashes
# in lab/requirements.txt), installs the kernel and Superstep's JupyterLab
# extension (lab/) there, and starts JupyterLab on the bundled notebooks.
#
#   ./install.sh                  install, then start JupyterLab in notebooks/
#   ./install.sh --notebook       the same with Notebook 7
#   ./install.sh -- ARGS          pass ARGS to the server; they win over
#                                 install.sh's defaults (e.g. -- --port 8899
#                                 --ip 0.0.0.0 --no-browser --ServerApp.root_dir=...)
#   ./install.sh --venv DIR       the environment's folder
#                                 (default ~/.local/share/superstep/venv)
#   ./install.sh --into-current   install the kernel and the extension into the
#                                 Jupyter you already have (the jupyter on PATH),
#                                 and nothing else
#   ./install.sh --no-start       install only
#   ./install.sh --test           install with the test tools, then run every test
#
# Safe to run again: it redoes only what changed.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"
mode=start
front=lab
venv=""
jupyter_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --no-start) mode=install ;;
    --test) mode=test ;;
    --into-current) mode=current ;;
    --notebook) front=notebook ;;
    --lab) front=lab ;;
    --venv) [ $# -gt 1 ] || { echo "install.sh: --venv needs a folder" >&2; exit 2; }; venv="$2"; shift ;;
    --venv=*) venv="${1#--venv=}" ;;
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --) shift; jupyter_args=("$@"); break ;;
    *) echo "install.sh: unknown option '$1': options for Jupyter go after -- (e.g. ./install.sh -- --port 8899); try --help" >&2; exit 2 ;;
  esac
  shift
done
if [ "${#jupyter_args[@]}" -gt 0 ] && [ "$mode" != start ]; then
  echo "install.sh: server options (after --) only apply when it starts Jupyter, not with --no-start, --test or --into-current" >&2; exit 2
fi
if [ "$mode" = current ] && [ -n "$venv" ]; then
  echo "install.sh: --into-current installs into the active environment; --venv names Superstep's own" >&2; exit 2
fi

say() { printf '\033[1;34m==>\033[0m %s\n' "$*"; }
die() { printf '\033[1;31minstall.sh:\033[0m %s\n' "$*" >&2; exit 1; }

home="${SUPERSTEP_HOME:-$HOME/.local/share/superstep}"
venv="${venv:-$home/venv}"
case "$venv" in /*) ;; *) venv="$PWD/$venv" ;; esac

# --- Go ---------------------------------------------------------------------
if ! command -v go >/dev/null 2>&1 && [ -x /usr/local/go/bin/go ]; then
  export PATH="/usr/local/go/bin:$PATH"
fi
command -v go >/dev/null 2>&1 || die "Go is not installed. Superstep needs Go $(sed -n 's/^go //p' go.mod) or newer: see https://go.dev/doc/install, then run ./install.sh again."
need_go="$(sed -n 's/^go \([0-9.]*\).*/\1/p' go.mod)"
have_go="$(go env GOVERSION | sed 's/^go//; s/[^0-9.].*//')"
if [ "$(printf '%s\n%s\n' "$need_go" "$have_go" | sort -V | head -n1)" != "$need_go" ]; then
  die "Go $have_go is too old: Superstep needs Go $need_go or newer (see https://go.dev/doc/install)."
fi
export PATH="$(go env GOPATH)/bin:$PATH"

# --- Debian packages: what PyPI does not carry ----------------------------------
# Open MPI and the OTF2 library: notebook 05 traces a real mpirun with the
# PMPI shim (sdk/trace/mpishim) and Open MPI's pml_monitoring.
packages=(openmpi-bin libopenmpi-dev libopen-trace-format2-dev otf2-tools python3-otf2)
if [ "$mode" = test ]; then
  # OTF v1's reference library and otfprint: the OTF reader's tests write
  # traces with the one and check them against the other.
  packages+=(chromium nodejs npm graphviz ibsim-utils opensm infiniband-diags libopen-trace-format-dev otf-trace)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# npm and nodejs may come from elsewhere (nvm, a tarball): accept them on PATH.
if [ "${#missing[@]}" -gt 0 ]; then
  keep=()
  for p in "${missing[@]}"; do
    case "$p" in
      nodejs) command -v node >/dev/null 2>&1 || keep+=("$p") ;;
      npm) command -v npm >/dev/null 2>&1 || keep+=("$p") ;;
      *) keep+=("$p") ;;
    esac
  done
  missing=("${keep[@]+"${keep[@]}"}")
fi
# The Python that makes the environment: python3 on PATH, 3.10 or newer,
# with its venv module (Debian's needs python3-venv).
python="${SUPERSTEP_PYTHON:-python3}"
if [ "$mode" != current ] && [ ! -x "$venv/bin/python" ]; then
  command -v "$python" >/dev/null 2>&1 || die "python3 is not installed: Superstep's Jupyter environment needs Python 3.10 or newer"
  "$python" -c 'import sys; sys.exit(sys.version_info < (3, 10))' ||
    die "$("$python" --version 2>&1) is too old: Superstep's Jupyter environment needs Python 3.10 or newer (set SUPERSTEP_PYTHON to another)"
  if ! "$python" -c 'import ensurepip, venv' 2>/dev/null; then
    [ "$(command -v "$python")" = /usr/bin/python3 ] || die "$python has no venv module: install it, or set SUPERSTEP_PYTHON to a Python that has"
    missing+=(python3-venv)
  fi
fi
if [ "${#missing[@]}" -gt 0 ]; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || die "missing Debian packages: ${missing[*]}. Install them as root: apt-get install ${missing[*]}"
    sudo=sudo
  fi
  say "installing Debian packages: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# --- the kernel -----------------------------------------------------------------
say "building the kernel into $home/bin"
go build -o "$home/bin/superstep-kernel" ./sdk/cmd/superstep-kernel
# The MPI rank of sdk.RunMPI: the one program that links Open MPI; the
# kernel finds it beside itself.
go build -o "$home/bin/superstep-worker" ./sdk/bsp/mpi/cmd/superstep-worker

# --- the Python environment -------------------------------------------------------
# The stamp of files: the environment keeps the stamp of what it was made
# from (.superstep-lock, .superstep-lab), so work is redone only on change.
stamp_of() { cat "$@" | sha256sum | cut -d' ' -f1; }
if [ "$mode" = current ]; then
  jupyter="$(command -v jupyter || true)"
  [ -n "$jupyter" ] || die "--into-current: there is no jupyter on PATH; activate the environment that has JupyterLab first"
  # The environment's Python: the one jupyter's script runs with.
  py="$(sed -n '1s/^#! *//p' "$jupyter" | cut -d' ' -f1)"
  [ -x "$py" ] && "$py" -c 'import jupyterlab' 2>/dev/null || py="$(dirname "$jupyter")/python"
  "$py" -c 'import jupyterlab' 2>/dev/null || die "--into-current: $jupyter has no JupyterLab in its Python ($py); pip install jupyterlab there first"
  "$py" -c 'import jupyterlab, sys; sys.exit(int(jupyterlab.__version__.split(".")[0]) < 4)' ||
    die "--into-current: the extension needs JupyterLab 4 or newer; $jupyter has $("$py" -c 'import jupyterlab; print(jupyterlab.__version__)')"
  say "installing Superstep's JupyterLab extension into $("$py" -c 'import sys; print(sys.prefix)')"
  "$py" -m pip install --quiet --disable-pip-version-check --no-deps "$here/lab" || die "pip could not install lab/ into $py's environment"
else
  lock=lab/requirements.txt
  [ "$mode" = test ] && lock=lab/requirements-test.txt
  if [ ! -x "$venv/bin/python" ]; then
    say "making the Python environment $venv"
    "$python" -m venv "$venv" || die "could not make the environment $venv with $python -m venv"
  fi
  py="$venv/bin/python"
  jupyter="$venv/bin/jupyter"
  if [ "$(cat "$venv/.superstep-lock" 2>/dev/null)" != "$(stamp_of "$lock")" ]; then
    say "installing JupyterLab 4 and Notebook 7 into $venv ($lock, hashes checked)"
    "$py" -m pip install --quiet --disable-pip-version-check --require-hashes -r "$lock" || die "pip install -r $lock failed"
    stamp_of "$lock" > "$venv/.superstep-lock"
  fi
  ext=(lab/pyproject.toml lab/superstep_lab/*.py lab/superstep_lab/labextension/package.json)
  if [ "$(cat "$venv/.superstep-lab" 2>/dev/null)" != "$(stamp_of "${ext[@]}")" ]; then
    say "installing Superstep's JupyterLab extension (lab/) into $venv"
    "$py" -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation "$here/lab" || die "pip could not install lab/"
    stamp_of "${ext[@]}" > "$venv/.superstep-lab"
  fi
  # The settings a Go user wants (lab/overrides.json): tabs as gofmt writes
  # them, inserted by Tab and not drawn as arrows.
  mkdir -p "$venv/share/jupyter/lab/settings"
  cp lab/overrides.json "$venv/share/jupyter/lab/settings/overrides.json"
  # nbconvert's HTML exports with the extension's preprocessor
  # (lab/superstep_lab/nbconvert.py): sanitizing, a view is its PNG.
  mkdir -p "$venv/etc/jupyter"
  cp lab/jupyter-config/jupyter_nbconvert_config.json "$venv/etc/jupyter/jupyter_nbconvert_config.json"
fi

# Jupyter's commands are scripts beside its Python: the environment's first
# on PATH, so that `jupyter X` runs the environment's jupyter-X.
export PATH="$(dirname "$jupyter"):$PATH"
spec="$(mktemp -d)"
trap 'rm -rf "$spec"' EXIT
cp kernel/kernelspec/logo-* "$spec/"
cat > "$spec/kernel.json" <<JSON
{
  "argv": ["$home/bin/superstep-kernel", "{connection_file}"],
  "display_name": "Go (Superstep)",
  "language": "go",
  "interrupt_mode": "message",
  "env": {"SUPERSTEP_SRC": "$here"},
  "metadata": {"debugger": false}
}
JSON
jupyter kernelspec install --sys-prefix --replace --name superstep "$spec" >/dev/null 2>&1 || die "jupyter kernelspec install failed"
# An earlier install.sh registered the kernel for the user, which would
# shadow the environment's: remove it if it is ours.
user_spec="$(jupyter --data-dir)/kernels/superstep/kernel.json"
if [ -f "$user_spec" ] && grep -q "\"$home/bin/superstep-kernel\"" "$user_spec"; then
  rm -rf "$(dirname "$user_spec")"
fi
jupyter kernelspec list | grep '^ *superstep ' >/dev/null || die "the kernelspec superstep did not register"
say "kernel registered: $(jupyter kernelspec list | grep '^ *superstep ' | sed 's/^ *//')"
jupyter labextension list 2>&1 | grep -q 'superstep-lab.*enabled.*OK' || die "JupyterLab does not list the extension superstep-lab as enabled"

case "$mode" in
  current) say "done: restart your JupyterLab or Notebook and pick the kernel Go (Superstep)" ;;
  install) say "done. Start JupyterLab with: $venv/bin/jupyter lab $here/notebooks" ;;
  test) PATH="$venv/bin:$PATH" SUPERSTEP_VENV="$venv" exec bash "$here/.ci/test.sh" ;;
  start)
    # install.sh's defaults as a configuration file: any option the user
    # gives on the command line wins over them.
    config="$home/jupyter_server_config.json"
    "$py" -c 'import json, os, sys; json.dump({"ServerApp": {"root_dir": sys.argv[1], "allow_root": os.getuid() == 0}}, open(sys.argv[2], "w"))' \
      "$here/notebooks" "$config"
    say "starting $([ "$front" = lab ] && echo JupyterLab || echo Notebook 7) on $here/notebooks (Ctrl-C stops it)"
    exec "$venv/bin/jupyter" "$front" --config="$config" "${jupyter_args[@]+"${jupyter_args[@]}"}"
    ;;
esac
