#!/usr/bin/env bash
# Build the Linux installers from a checkout: a .deb, a .tar.gz of the unpacked bundle, and the bundle itself.
#
#   bash packaging/linux/build.sh           # reuses the last build when none of its inputs changed
#   bash packaging/linux/build.sh --force   # build again anyway
#
# Output (dist/installer/): lifelens_<version>_<arch>.deb, lifelens-<version>-linux-<machine>.tar.gz, the
# unpacked bundle lifelens-<version>-linux-<machine>/ and BUILD-INFO.json (input hash, sizes, build time).
#
# Environment:
#   PYTHON                 interpreter for the build venv (3.11+ with its libpython3.11.so; default python3)
#   LIFELENS_BUILD_DIR     scratch space (default build/installer): build venv, assembled GGUF, PyInstaller work
#   LIFELENS_DIST_DIR      output folder (default dist/installer)
#   LIFELENS_BUILD_CACHE   cache kept across checkouts (default ~/.cache/lifelens-build): the portable
#                          llama-cpp-python wheel, which takes 15+ minutes to compile on 2 cores
#   LIFELENS_LLAMA_WHEEL   use this llama-cpp-python wheel instead of building the portable one
#
# Needs: the package registry (pip) on the first run, a C/C++ compiler and cmake (llama.cpp), dpkg-deb, and the
# X libraries Qt's xcb plugin links against (it says which are missing). The app itself never needs a network.
set -euo pipefail
umask 022

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
FORCE=0
[[ "${1:-}" == "--force" ]] && FORCE=1

PYTHON=${PYTHON:-python3}
[[ "$PYTHON" == */* ]] && PYTHON=$(realpath -s "$PYTHON")   # the build runs from a staged copy (cd below)
[[ -n "${LIFELENS_LLAMA_WHEEL:-}" ]] && LIFELENS_LLAMA_WHEEL=$(realpath "$LIFELENS_LLAMA_WHEEL")
BUILD=$(realpath -m "${LIFELENS_BUILD_DIR:-build/installer}")
DIST=$(realpath -m "${LIFELENS_DIST_DIR:-dist/installer}")
CACHE=$(realpath -m "${LIFELENS_BUILD_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/lifelens-build}")
PYINSTALLER_VERSION=6.22.3
# Portable llama.cpp: no -march=native (the machine that builds is not the one that runs). On x86-64 this
# leaves AVX2/FMA/F16C/BMI2 on (CPUs since 2013-2015); mtmd (image input) is not built: the app has no use for it.
LLAMA_CMAKE_ARGS="-DGGML_NATIVE=OFF -DLLAVA_BUILD=OFF"

say() { printf '\n== %s\n' "$*"; }
first_wheel() { local f; for f in "$1"/llama_cpp_python-*.whl; do [[ -f "$f" ]] && { echo "$f"; return 0; }; done; return 0; }
die() { printf 'build.sh: %s\n' "$*" >&2; exit 1; }
START=$(date +%s)

# --- checks ----------------------------------------------------------------------------------
[[ "$(uname -s)" == Linux ]] || die "this script builds the Linux installer; see packaging/README.md for the others"
command -v dpkg-deb >/dev/null || die "dpkg-deb is missing (apt-get install dpkg)"
"$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' || die "$PYTHON: need Python >= 3.11"
PYVER=$("$PYTHON" -c 'import platform; print(platform.python_version())')
MACHINE=$(uname -m)
ARCH=$(dpkg --print-architecture)
GLIBC=$(getconf GNU_LIBC_VERSION | cut -d' ' -f2)

# The version, requirements and input hash of the sources in the current directory.
read_inputs() {
  VERSION=$("$PYTHON" packaging/prepare.py version)
  NAME="lifelens-$VERSION-linux-$MACHINE"
  DEB="lifelens_${VERSION}_${ARCH}.deb"
  REQS=$("$PYTHON" packaging/prepare.py requirements gui,models)
  LLAMA_VERSION=$(grep -oE '^llama-cpp-python==[0-9.]+' <<<"$REQS" | cut -d= -f3 || true)
  [[ -n "$LLAMA_VERSION" ]] || die "pyproject.toml must pin llama-cpp-python==X (the portable wheel is cached by version)"
  KEY="python $PYVER; glibc $GLIBC; pyinstaller $PYINSTALLER_VERSION; llama $LLAMA_VERSION $LLAMA_CMAKE_ARGS"
  KEY+="; wheel ${LIFELENS_LLAMA_WHEEL:-portable}"
  HASH=$("$PYTHON" packaging/prepare.py inputs-hash --extra "$KEY")
}
read_inputs

if [[ $FORCE == 0 && -f "$DIST/BUILD-INFO.json" && -f "$DIST/$DEB" && -f "$DIST/$NAME.tar.gz" && -x "$DIST/$NAME/lifelens" ]] &&
   "$PYTHON" -c 'import json,sys; sys.exit(json.load(open(sys.argv[1]))["inputs_hash"] != sys.argv[2])' "$DIST/BUILD-INFO.json" "$HASH"; then
  say "up to date: $DIST (inputs $HASH); --force builds again"
  exit 0
fi
mkdir -p "$BUILD" "$CACHE"

# --- a frozen copy of the sources: the build reads one state of them even while the checkout changes ------
SRC="$BUILD/src"
say "staging $("$PYTHON" packaging/prepare.py stage "$SRC") source files in $SRC"
cd "$SRC"
read_inputs

# --- build venv ------------------------------------------------------------------------------
VENV="$BUILD/venv"
if [[ ! -x "$VENV/bin/python" ]] || [[ "$("$VENV/bin/python" -c 'import platform; print(platform.python_version())')" != "$PYVER" ]]; then
  say "build venv ($PYTHON $PYVER)"
  rm -rf "$VENV"
  "$PYTHON" -m venv "$VENV"
fi
PIP=("$VENV/bin/python" -m pip --disable-pip-version-check -q)

# --- portable llama.cpp wheel ------------------------------------------------------------------
if [[ -n "${LIFELENS_LLAMA_WHEEL:-}" ]]; then
  LLAMA_WHEEL=$LIFELENS_LLAMA_WHEEL
else
  WHEEL_DIR="$CACHE/llama-cpp-python-$LLAMA_VERSION-$(printf '%s' "$PYVER $MACHINE $GLIBC $LLAMA_CMAKE_ARGS" | sha256sum | cut -c1-12)"
  LLAMA_WHEEL=$(first_wheel "$WHEEL_DIR")
  if [[ -z "$LLAMA_WHEEL" ]]; then
    say "compiling llama-cpp-python $LLAMA_VERSION portably ($LLAMA_CMAKE_ARGS); 15+ minutes on 2 cores, cached in $WHEEL_DIR"
    rm -rf "$WHEEL_DIR.tmp" && mkdir -p "$WHEEL_DIR.tmp"
    # --no-cache-dir: pip's own wheel cache is keyed on the source only and would hand back a -march=native build.
    CMAKE_ARGS="$LLAMA_CMAKE_ARGS" CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)} \
      "${PIP[@]}" wheel --no-deps --no-cache-dir --no-binary llama-cpp-python -w "$WHEEL_DIR.tmp" "llama-cpp-python==$LLAMA_VERSION"
    rm -rf "$WHEEL_DIR" && mv "$WHEEL_DIR.tmp" "$WHEEL_DIR"
    LLAMA_WHEEL=$(first_wheel "$WHEEL_DIR")
    [[ -n "$LLAMA_WHEEL" ]] || die "pip wheel made no llama-cpp-python wheel"
  fi
fi

# --- dependencies ------------------------------------------------------------------------------
STAMP="$REQS
$(basename "$LLAMA_WHEEL") $(sha256sum "$LLAMA_WHEEL" | cut -c1-16)
pyinstaller==$PYINSTALLER_VERSION"
if [[ "$(cat "$VENV/.lifelens-stamp" 2>/dev/null)" != "$STAMP" ]]; then
  say "installing the app's requirements into the build venv"
  grep -v '^llama-cpp-python' <<<"$REQS" >"$BUILD/requirements.txt"
  { "${PIP[@]}" install --force-reinstall --no-deps "$LLAMA_WHEEL" &&
    "${PIP[@]}" install "$LLAMA_WHEEL" -r "$BUILD/requirements.txt" "pyinstaller==$PYINSTALLER_VERSION"; } \
    >"$BUILD/pip.log" 2>&1 || { tail -30 "$BUILD/pip.log"; die "pip install failed (log: $BUILD/pip.log)"; }
  printf '%s' "$STAMP" >"$VENV/.lifelens-stamp"
fi

# --- the default QUD model, assembled once here so that first launch assembles nothing -----------------
say "assembling the default QUD model"
GGUF=$("$VENV/bin/python" packaging/prepare.py gguf "$BUILD/gguf")
echo "$GGUF"

# --- PyInstaller -------------------------------------------------------------------------------
say "PyInstaller $PYINSTALLER_VERSION (log: $BUILD/pyinstaller.log)"
rm -rf "$BUILD/pyi-dist"
if ! LIFELENS_GGUF="$GGUF" "$VENV/bin/pyinstaller" --noconfirm --log-level WARN \
      --workpath "$BUILD/pyi-work" --distpath "$BUILD/pyi-dist" packaging/lifelens.spec >"$BUILD/pyinstaller.log" 2>&1; then
  tail -40 "$BUILD/pyinstaller.log"
  die "PyInstaller failed"
fi
BUNDLE="$BUILD/pyi-dist/lifelens"

# Every library must be in the bundle or be one meant to come from the system (libc, GL/EGL, libxcb): Qt loads
# its plugins at run time, so a gap would only show on a person's machine. The answer also feeds the .deb's Depends.
"$VENV/bin/python" packaging/prepare.py check-bundle "$BUNDLE" >"$BUILD/deps.json" ||
  die "the bundle lacks libraries (listed above): install them on this machine, e.g. apt-get install libxcb-cursor0"
"$BUNDLE/lifelens" --version >/dev/null || die "the bundle does not start: $BUNDLE/lifelens --version"

# --- outputs -----------------------------------------------------------------------------------
say "packing $DIST"
rm -rf "$DIST" && mkdir -p "$DIST"
mv "$BUNDLE" "$DIST/$NAME"
tar -C "$DIST" -cf - "$NAME" | gzip -6 >"$DIST/$NAME.tar.gz"

DEBROOT="$BUILD/deb"
rm -rf "$DEBROOT" && mkdir -p "$DEBROOT/DEBIAN" "$DEBROOT/opt" "$DEBROOT/usr/bin" "$DEBROOT/usr/share/applications" \
  "$DEBROOT/usr/share/icons/hicolor/scalable/apps" "$DEBROOT/usr/share/doc/lifelens"
cp -al "$DIST/$NAME" "$DEBROOT/opt/lifelens"   # hard links: no second copy of 500 MB on disk
ln -s /opt/lifelens/lifelens "$DEBROOT/usr/bin/lifelens"
install -m 644 packaging/linux/lifelens.desktop "$DEBROOT/usr/share/applications/lifelens.desktop"
install -m 644 packaging/assets/lifelens.svg "$DEBROOT/usr/share/icons/hicolor/scalable/apps/lifelens.svg"
install -m 644 packaging/linux/copyright "$DEBROOT/usr/share/doc/lifelens/copyright"
SIZE_KB=$(du -sk --exclude=DEBIAN "$DEBROOT" | cut -f1)
"$PYTHON" packaging/prepare.py deb-control --version "$VERSION" --arch "$ARCH" --size-kb "$SIZE_KB" --glibc "$GLIBC" \
  --deps "$BUILD/deps.json" >"$DEBROOT/DEBIAN/control"
# No maintainer scripts at all: nothing runs as root at install time, and removing or purging the package
# never touches anybody's home directory (the person's data stays until they delete it in the app).
dpkg-deb --root-owner-group -Zzstd -z3 --build "$DEBROOT" "$DIST/$DEB" >/dev/null
rm -rf "$DEBROOT"

END=$(date +%s)
"$PYTHON" - "$DIST" "$NAME" "$DEB" "$HASH" "$KEY" $((END - START)) <<'EOF'
import json, os, sys, time
dist, name, deb, inputs_hash, key, seconds = sys.argv[1:]
def tree_bytes(path):
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(path) for f in fs
               if not os.path.islink(os.path.join(d, f)))
info = {
    "inputs_hash": inputs_hash, "key": key, "build_seconds": int(seconds),
    "built_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    "bundle": name, "deb": deb, "tarball": f"{name}.tar.gz", "sources": os.getcwd(),
    "bytes": {"deb": os.path.getsize(os.path.join(dist, deb)),
              "tarball": os.path.getsize(os.path.join(dist, f"{name}.tar.gz")),
              "unpacked": tree_bytes(os.path.join(dist, name))},
}
with open(os.path.join(dist, "BUILD-INFO.json"), "w") as f:
    json.dump(info, f, indent=2)
print(json.dumps(info, indent=2))
EOF
say "done in $((END - START)) s: $DIST"
