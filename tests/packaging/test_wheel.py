"""The wheel (`pip wheel .`): it carries what the app reads at run time (resources/, the ONNX models) and none
of the lab (models/train, bench/), and the app installed from it finds its resources on its own."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# What a checkout builds the wheel from; bench/ and tests/ are copied too, to show the wheel leaves them out.
SOURCES = ("pyproject.toml", "README.md", "app", "importers", "models", "resources", "bench", "tests")

pytestmark = pytest.mark.slow  # about 6 s: setuptools copies 70 MB of models


def _link_or_copy(src: str, dst: str) -> None:
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path]:
    """A wheel built from a copy of the checkout (the checkout's own build/ may hold files of older builds),
    and the copy."""
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    src.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, src / name, ignore=ignore, copy_function=_link_or_copy)
        else:
            shutil.copy2(path, src / name)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w",
                    str(tmp / "out"), str(src)], check=True, capture_output=True, text=True, timeout=300)
    [wheel] = (tmp / "out").glob("lifelens-*.whl")
    return wheel, src


def test_the_wheel_carries_the_resources_and_models_but_not_the_lab(built):
    wheel, src = built
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"resources/qud/step.gbnf", "resources/qud/examples.txt"} <= names
    personas = {p.relative_to(src).as_posix() for p in (src / "resources" / "persona").glob("*.json")}
    assert personas and personas <= names
    onnx = {p.relative_to(src).as_posix() for p in (src / "models" / "artifacts").glob("*/model.onnx")}
    assert len(onnx) >= 5 and onnx <= names
    assert "app/cli.py" in names and "importers/base.py" in names and "models/extractor.py" in names
    lab = sorted(n for n in names if n.startswith(("models/train/", "bench/", "app/bench/", "tests/"))
                 or n.endswith(("extract_eval.py", "measure.py", "measure_questions.txt")))
    assert lab == []


def test_the_installed_wheel_reads_its_resources_and_leaves_the_bench_to_a_checkout(built, tmp_path):
    wheel, _ = built
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)   # a pure wheel installs as its files under site-packages
    code = ("import sys; sys.path.insert(0, sys.argv[1])\n"
            "import app, app.paths\n"
            "from app.qud.examples import load_examples\n"
            "from app.qud.grammar import GRAMMAR_FILE\n"
            "from app.persona.resources import load\n"
            "print(app.__file__); print(app.paths.resource_dir()); print(GRAMMAR_FILE.read_text()[:20]);"
            "print(len(load_examples()), len(load('music')))\n"
            "from app import cli; sys.exit(cli.main(['bench', '--split', 'dev']))")
    # Run outside the checkout, so that nothing is found there; dependencies come from this environment.
    done = subprocess.run([sys.executable, "-c", code, str(site)], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)
    out = done.stdout.splitlines()
    assert Path(out[0]).is_relative_to(site) and Path(out[1]) == site / "resources"
    assert out[2].strip()
    examples, genres = map(int, out[3].split())
    assert examples > 10 and genres > 0
    # The benchmark is the lab's, not the wheel's: the command is listed and says where it runs.
    assert done.returncode == 2 and "it runs from a checkout" in done.stderr
