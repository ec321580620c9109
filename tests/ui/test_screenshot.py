"""One test under a real X server (Xvfb): the main window after answering a demo question, as pixels.

Builds the demo persona's store (about half a minute), so it is marked slow.

Xvfb comes from Debian's packages; the fixture installs it (and the libraries Qt's xcb plugin needs)
when missing, as root on the CI machine. The screenshot goes to tests/artifacts/main_window.png
(git-ignored) for a person to look at.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACT = ROOT / "tests" / "artifacts" / "main_window.png"
# Qt's xcb platform plugin loads these at run time (Qt 6.5+ needs xcb-cursor).
XCB_PACKAGES = ("xvfb", "libxcb-icccm4", "libxcb-keysyms1", "libxcb-cursor0", "libxkbcommon-x11-0",
                "libxcb-image0", "libxcb-render-util0", "libxcb-shape0", "libxcb-randr0", "libxcb-xkb1")


def _install_xvfb() -> None:
    if shutil.which("Xvfb") and _xcb_libraries_present():
        return
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        pytest.fail("Xvfb is missing and cannot be installed here (needs root and apt-get)")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    install = ["apt-get", "install", "-y", "-qq", "--no-install-recommends", *XCB_PACKAGES]
    if subprocess.run(install, env=env, capture_output=True).returncode != 0:
        subprocess.run(["apt-get", "update", "-qq"], env=env, check=True, capture_output=True)
        subprocess.run(install, env=env, check=True, capture_output=True)


def _xcb_libraries_present() -> bool:
    plugin = Path(__import__("PySide6").__file__).parent / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    if not plugin.exists() or not shutil.which("ldd"):
        return True  # not a Linux wheel layout we know: let Qt say what is missing
    return "not found" not in subprocess.run(["ldd", str(plugin)], capture_output=True, text=True).stdout


def _free_display() -> int:
    for number in range(90, 200):
        if not Path(f"/tmp/.X{number}-lock").exists() and not Path(f"/tmp/.X11-unix/X{number}").exists():
            return number
    pytest.fail("no free X display number between :90 and :199")


@pytest.fixture
def xvfb_display():
    _install_xvfb()
    number = _free_display()
    server = subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", "1400x900x24", "-nolisten", "tcp"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 15
        while not Path(f"/tmp/.X11-unix/X{number}").exists():
            if server.poll() is not None:
                pytest.fail(f"Xvfb :{number} exited: {server.stderr.read().decode(errors='replace')[-500:]}")
            if time.monotonic() > deadline:
                pytest.fail(f"Xvfb :{number} did not start within 15 s")
            time.sleep(0.05)
        yield f":{number}"
    finally:
        server.terminate()
        try:
            server.wait(5)
        except subprocess.TimeoutExpired:
            server.kill()


def pixel_variance(path: Path) -> tuple[float, int]:
    """Variance of grey values over a grid of pixels, and how many distinct greys there are."""
    from PySide6.QtGui import QImage, qGray

    image = QImage(str(path))
    assert not image.isNull(), f"{path} is not a readable image"
    greys = [qGray(image.pixel(x, y)) for y in range(0, image.height(), 4) for x in range(0, image.width(), 4)]
    mean = sum(greys) / len(greys)
    return sum((g - mean) ** 2 for g in greys) / len(greys), len(set(greys))


@pytest.mark.slow
def test_main_window_screenshot_under_xvfb(xvfb_display, private_dirs):
    data, config = private_dirs
    ARTIFACT.parent.mkdir(parents=True, exist_ok=True)
    ARTIFACT.unlink(missing_ok=True)
    env = dict(os.environ, DISPLAY=xvfb_display, QT_QPA_PLATFORM="xcb", LIFELENS_DATA_DIR=str(data),
               LIFELENS_CONFIG_DIR=str(config))
    done = subprocess.run([sys.executable, "-m", "tests.ui.screenshot_main_window", str(ARTIFACT)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["platform"] == "xcb" and report["saved"]
    assert report["question"] == "Which artist did I listen to most when running?"
    assert report["value"] == report["gold"]
    assert report["headline"].startswith(f"The artist with the most songs you listened to while running was "
                                         f"{report['gold']} (")
    assert report["tree_nodes"] == 8 and report["evidence_rows"] > 0
    assert report["width"] >= 1000 and report["height"] >= 700
    variance, greys = pixel_variance(ARTIFACT)
    assert variance > 300 and greys > 20, (variance, greys)
