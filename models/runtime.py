"""The run-time side of every ONNX model: a lazily opened onnxruntime session plus its tokenizer.

Only onnxruntime, tokenizers and numpy are imported here (never torch), so the app runs without the
training tools. An artifact is a folder holding `model.onnx`, `tokenizer.json` and `config.json`:

    model = OnnxModel(artifact_dir("cross_encoder-default"))
    ids, mask, types = model.encode_pairs(["songs while running"], ["music stream: Daft Punk"], max_length=96)
    outputs = model.run({"input_ids": ids, "attention_mask": mask, "token_type_ids": types})
    model.close()

Nothing is read from disk until the first call; `close()` frees the session and a later call opens it again.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

ARTIFACTS_DIR = Path(__file__).resolve().parent / "artifacts"


class ModelMissing(Exception):
    """An artifact folder or one of its files is not there (a person can act on this: reinstall)."""


def artifact_dir(name: str) -> Path:
    """The folder of a committed artifact, e.g. `artifact_dir("splade-tiny")`."""
    return ARTIFACTS_DIR / name


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def default_threads() -> int:
    """Threads for one session: $LIFELENS_ONNX_THREADS, else the core count (at most 4)."""
    env = os.environ.get("LIFELENS_ONNX_THREADS")
    if env and env.isdigit() and int(env) > 0:
        return int(env)
    return max(1, min(4, os.cpu_count() or 1))


class OnnxModel:
    """One exported model: `model.onnx` + `tokenizer.json` + `config.json` in `folder`."""

    def __init__(self, folder: Path | str, *, threads: int | None = None):
        self.folder = Path(folder)
        self.threads = threads
        self._session: Any = None
        self._tokenizer: Any = None
        self._config: dict[str, Any] | None = None
        self._lock = threading.Lock()

    # --- lazy loading ---------------------------------------------------------------------------

    def _require(self, name: str) -> Path:
        path = self.folder / name
        if not path.is_file():
            raise ModelMissing(f"{path}: model file missing (the artifact folder is incomplete)")
        return path

    @property
    def config(self) -> dict[str, Any]:
        if self._config is None:
            self._config = json.loads(self._require("config.json").read_text(encoding="utf-8"))
        return self._config

    @property
    def tokenizer(self) -> Any:
        if self._tokenizer is None:
            from tokenizers import Tokenizer

            with self._lock:
                if self._tokenizer is None:
                    tok = Tokenizer.from_file(str(self._require("tokenizer.json")))
                    tok.no_padding()
                    tok.no_truncation()
                    self._tokenizer = tok
        return self._tokenizer

    @property
    def session(self) -> Any:
        if self._session is None:
            import onnxruntime as ort

            with self._lock:
                if self._session is None:
                    options = ort.SessionOptions()
                    options.intra_op_num_threads = self.threads or default_threads()
                    options.inter_op_num_threads = 1
                    # no busy-waiting between ops: on a laptop's shared cores spinning threads slow everyone
                    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
                    options.log_severity_level = 3
                    self._session = ort.InferenceSession(
                        str(self._require("model.onnx")), options, providers=["CPUExecutionProvider"]
                    )
        return self._session

    @property
    def loaded(self) -> bool:
        return self._session is not None

    def close(self) -> None:
        """Free the session; the next call loads it again."""
        with self._lock:
            self._session = None
            self._tokenizer = None

    def __enter__(self) -> "OnnxModel":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- tokenising ------------------------------------------------------------------------------

    def encode_texts(self, texts: Sequence[str], *, max_length: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Single texts -> padded (input_ids, attention_mask, token_type_ids), truncated to max_length."""
        encodings = self.tokenizer.encode_batch(list(texts))
        rows = [(e.ids[: max_length - 1] + e.ids[-1:]) if len(e.ids) > max_length else e.ids for e in encodings]
        return _pad(rows, [[0] * len(r) for r in rows])

    def encode_pairs(
        self, firsts: Sequence[str], seconds: Sequence[str], *, max_length: int, first_max: int = 32
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Pairs -> [CLS] first [SEP] second [SEP]; the first text keeps at most `first_max` tokens."""
        tok = self.tokenizer
        first_ids = [e.ids[1:-1][:first_max] for e in tok.encode_batch(list(firsts))]
        second_ids = [e.ids[1:-1] for e in tok.encode_batch(list(seconds))]
        cls_id, sep_id = self.special_ids
        rows, types = [], []
        for a, b in zip(first_ids, second_ids):
            room = max(1, max_length - len(a) - 3)
            b = b[:room]
            rows.append([cls_id, *a, sep_id, *b, sep_id])
            types.append([0] * (len(a) + 2) + [1] * (len(b) + 1))
        return _pad(rows, types)

    @property
    def special_ids(self) -> tuple[int, int]:
        tok = self.tokenizer
        return tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")

    # --- running ---------------------------------------------------------------------------------

    def run(self, feeds: Mapping[str, np.ndarray], outputs: Sequence[str] | None = None) -> list[np.ndarray]:
        names = {i.name for i in self.session.get_inputs()}
        return self.session.run(list(outputs) if outputs else None, {k: v for k, v in feeds.items() if k in names})


def _pad(rows: list[list[int]], types: list[list[int]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    width = max((len(r) for r in rows), default=1)
    ids = np.zeros((len(rows), width), dtype=np.int64)
    mask = np.zeros((len(rows), width), dtype=np.int64)
    type_ids = np.zeros((len(rows), width), dtype=np.int64)
    for i, (row, typ) in enumerate(zip(rows, types)):
        ids[i, : len(row)] = row
        mask[i, : len(row)] = 1
        type_ids[i, : len(typ)] = typ
    return ids, mask, type_ids


def batches(count: int, size: int) -> list[slice]:
    return [slice(i, min(count, i + size)) for i in range(0, count, size)]
