#!/usr/bin/env bash
# Superstep set-up: installs what is missing, builds the Go (Superstep)
# Jupyter kernel, registers it, and starts Jupyter on the bundled notebooks.
#
#   ./install.sh              install, then start Jupyter in notebooks/
#   ./install.sh -- ARGS      the same, passing ARGS to Jupyter
#                             (e.g. -- --port 8899 --ip 0.0.0.0 --no-browser)
#   ./install.sh --lab        install, build JupyterLab (lab/), start it in notebooks/
#   ./install.sh --lab -- ARGS  the same, passing ARGS to the Lab's server
#   ./install.sh --no-start   install only
#   ./install.sh --test       install with the test tools, then run every test
#
# Safe to run again: it only installs what is missing and rebuilds the kernel.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"
mode=start
jupyter_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --no-start) mode=install ;;
    --test) mode=test ;;
    --lab) mode=lab ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --) shift; jupyter_args=("$@"); break ;;
    *) echo "install.sh: unknown option '$1': options for Jupyter go after -- (e.g. ./install.sh -- --port 8899); try --help" >&2; exit 2 ;;
  esac
  shift
done
if [ "${#jupyter_args[@]}" -gt 0 ] && [ "$mode" != start ] && [ "$mode" != lab ]; then
  echo "install.sh: Jupyter options (after --) only apply when it starts Jupyter, not with --no-start or --test" >&2; exit 2
fi

export PYDEVD_DISABLE_FILE_VALIDATION=1 # quiet the Debian debugpy warning of every jupyter command

say() { printf '\033[1;34m==>\033[0m %s\n' "$*"; }
die() { printf '\033[1;31minstall.sh:\033[0m %s\n' "$*" >&2; exit 1; }

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

# --- Debian packages ----------------------------------------------------------
packages=(jupyter-client jupyter-notebook jupyter-nbconvert python3-nbclient python3-ipykernel)
# Open MPI and Debian's OTF2 library: notebook 05 traces a real mpirun with
# the PMPI shim (sdk/trace/mpishim) and Open MPI's pml_monitoring.
packages+=(openmpi-bin libopenmpi-dev libopen-trace-format2-dev otf2-tools python3-otf2)
if [ "$mode" = test ]; then
  packages+=(python3-jupyter-kernel-test chromium nodejs npm graphviz ibsim-utils opensm infiniband-diags)
fi
if [ "$mode" = test ] || [ "$mode" = lab ]; then
  packages+=(python3-jupyterlab-server python3-jupyter-server libjs-mathjax nodejs npm)
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
command -v jupyter >/dev/null 2>&1 || die "jupyter is not on PATH after installing jupyter-client"

# --- the kernel -----------------------------------------------------------------
home="${SUPERSTEP_HOME:-$HOME/.local/share/superstep}"
say "building the kernel into $home/bin"
go build -o "$home/bin/superstep-kernel" ./sdk/cmd/superstep-kernel
# The MPI rank of sdk.RunMPI: the one program that links Open MPI; the
# kernel finds it beside itself.
say "building the MPI worker into $home/bin"
go build -o "$home/bin/superstep-worker" ./sdk/bsp/mpi/cmd/superstep-worker

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
jupyter kernelspec install --user --replace --name superstep "$spec" >/dev/null
jupyter kernelspec list | grep '^ *superstep ' >/dev/null || die "the kernelspec superstep did not register"
say "kernel registered: $(jupyter kernelspec list | grep '^ *superstep ')"

# --- JupyterLab (lab/) ----------------------------------------------------------
# Built from the npm packages pinned in lab/package-lock.json; rebuilt only
# when the build is missing or older than the lock file or the sources.
if [ "$mode" = test ] || [ "$mode" = lab ]; then
  if [ ! -d lab/node_modules ] || [ lab/package-lock.json -nt lab/node_modules ]; then
    say "installing JupyterLab's npm packages into lab/node_modules"
    (cd lab && npm ci --no-audit --no-fund --loglevel=error) || die "npm ci in lab/ failed"
    touch lab/node_modules
  fi
  stale=""
  for f in lab/package-lock.json lab/package.json lab/index.js lab/superstep.css lab/webpack.config.js; do
    [ lab/build/bundle.js -nt "$f" ] || stale="$f"
  done
  if [ -n "$stale" ]; then
    say "building JupyterLab into lab/build"
    rm -rf lab/build
    (cd lab && npx --no-install webpack >/dev/null) || die "the JupyterLab build (webpack in lab/) failed"
  fi
fi

case "$mode" in
  install) say "done. Start Jupyter with: jupyter notebook $here/notebooks" ;;
  test) exec bash "$here/.ci/test.sh" ;;
  start)
    say "starting Jupyter on $here/notebooks (Ctrl-C stops it)"
    extra=()
    [ "$(id -u)" -eq 0 ] && extra+=(--allow-root)
    exec jupyter notebook --notebook-dir="$here/notebooks" "${extra[@]+"${extra[@]}"}" "${jupyter_args[@]+"${jupyter_args[@]}"}"
    ;;
  lab)
    say "starting JupyterLab on $here/notebooks (Ctrl-C stops it)"
    extra=()
    [ "$(id -u)" -eq 0 ] && extra+=(--ServerApp.allow_root=True)
    # Debian's python3: it has jupyterlab_server (a python3 earlier on PATH may not).
    exec /usr/bin/python3 "$here/lab/main.py" --ServerApp.root_dir="$here/notebooks" "${extra[@]+"${extra[@]}"}" "${jupyter_args[@]+"${jupyter_args[@]}"}"
    ;;
esac
