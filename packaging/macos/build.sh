#!/usr/bin/env bash
# Build the macOS installer (written for GitHub's macos-14 runner, Apple Silicon; NOT built or run on the Linux
# machine where the Linux recipe was developed): dist/installer/Lifelens-<version>-macos-<arch>.dmg holding
# Lifelens.app and a link to /Applications, plus the .app itself.
#
#   bash packaging/macos/build.sh
#
# Needs: Python 3.11 from python.org or actions/setup-python (a framework build), Xcode command line tools
# and cmake (llama.cpp is compiled here with Metal), the package registry. Signing: PyInstaller signs ad hoc;
# set CODESIGN_IDENTITY="Developer ID Application: ..." to sign for distribution (notarize afterwards with
# `xcrun notarytool submit --wait` and `xcrun stapler staple`); an unsigned app opens with right-click > Open.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
PYTHON=${PYTHON:-python3}
BUILD="$ROOT/build/installer"
DIST="$ROOT/dist/installer"
PYINSTALLER_VERSION=6.22.3
# No -mcpu=native; llama-cpp-python turns Metal on for Apple targets by itself. No mtmd (image input).
LLAMA_CMAKE_ARGS="-DGGML_NATIVE=OFF -DLLAVA_BUILD=OFF"
START=$(date +%s)

VERSION=$("$PYTHON" packaging/prepare.py version)
ARCH=$(uname -m)
REQS=$("$PYTHON" packaging/prepare.py requirements gui,models)
LLAMA_VERSION=$(grep -oE '^llama-cpp-python==[0-9.]+' <<<"$REQS" | cut -d= -f3)
mkdir -p "$BUILD" "$DIST"

VENV="$BUILD/venv"
[[ -x "$VENV/bin/python" ]] || "$PYTHON" -m venv "$VENV"
PIP=("$VENV/bin/python" -m pip --disable-pip-version-check -q)

echo "== llama-cpp-python $LLAMA_VERSION ($LLAMA_CMAKE_ARGS)"
WHEEL=$(ls "$BUILD"/wheels/llama_cpp_python-*.whl 2>/dev/null | head -1 || true)
if [[ -z "$WHEEL" ]]; then
  CMAKE_ARGS="$LLAMA_CMAKE_ARGS" "${PIP[@]}" wheel --no-deps --no-cache-dir --no-binary llama-cpp-python \
    -w "$BUILD/wheels" "llama-cpp-python==$LLAMA_VERSION"
  WHEEL=$(ls "$BUILD"/wheels/llama_cpp_python-*.whl | head -1)
fi

echo "== requirements"
grep -v '^llama-cpp-python' <<<"$REQS" >"$BUILD/requirements.txt"
"${PIP[@]}" install "$WHEEL" -r "$BUILD/requirements.txt" "pyinstaller==$PYINSTALLER_VERSION" pillow

echo "== default QUD model and icon"
export LIFELENS_GGUF=$("$VENV/bin/python" packaging/prepare.py gguf "$BUILD/gguf")
export LIFELENS_ICON=$("$VENV/bin/python" packaging/prepare.py icon "$BUILD/lifelens.png")

echo "== PyInstaller"
rm -rf "$BUILD/pyi-dist"
"$VENV/bin/pyinstaller" --noconfirm --log-level WARN --workpath "$BUILD/pyi-work" --distpath "$BUILD/pyi-dist" \
  packaging/lifelens.spec
APP="$BUILD/pyi-dist/Lifelens.app"
"$APP/Contents/MacOS/lifelens" --version
if [[ -n "${CODESIGN_IDENTITY:-}" ]]; then
  codesign --force --deep --options runtime --timestamp -s "$CODESIGN_IDENTITY" "$APP"
fi

echo "== packing $DIST"
rm -rf "$DIST/Lifelens.app" "$BUILD/dmg"
mkdir -p "$BUILD/dmg"
cp -R "$APP" "$BUILD/dmg/"
ln -s /Applications "$BUILD/dmg/Applications"
DMG="$DIST/Lifelens-$VERSION-macos-$ARCH.dmg"
rm -f "$DMG"
hdiutil create -volname "Lifelens $VERSION" -srcfolder "$BUILD/dmg" -ov -format UDZO "$DMG"
mv "$APP" "$DIST/Lifelens.app"
rm -rf "$BUILD/dmg"
ls -l "$DIST"
echo "== done in $(( $(date +%s) - START )) s"
