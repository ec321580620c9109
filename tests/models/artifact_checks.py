"""Shared checks for committed ONNX artifacts: the sha256 in the model card and config.json match the file."""

from __future__ import annotations

import json
import re
from pathlib import Path

from models.runtime import artifact_dir, sha256_file

CARDS = Path(__file__).resolve().parents[2] / "models" / "cards"


def card_sha256(name: str) -> str:
    text = (CARDS / f"{name}.md").read_text(encoding="utf-8")
    match = re.search(r"sha256[^`\n]*`([0-9a-f]{64})`", text)
    assert match, f"{name}.md names no sha256"
    return match.group(1)


def check_artifact_hashes(name: str) -> None:
    folder = artifact_dir(name)
    actual = sha256_file(folder / "model.onnx")
    assert card_sha256(name) == actual
    assert json.loads((folder / "config.json").read_text())["sha256"] == actual
