"""The RETRIEVE cross-encoder at run time (onnxruntime + tokenizers, no torch).

One encoder with two heads (models/train/nets.py::CrossEncoderNet), read as `[CLS] query [SEP] text [SEP]`:

- `pattern_probs(query, pattern_texts)` -> [n, 3] probabilities of (irrelevant, partly, relevant)
- `event_probs(query, event_texts)`     -> [n] probability that the event answers the query (keep)

    ce = CrossEncoder.for_size("default")
    ce.event_probs("football games", ["workout | soccer | workout_type: soccer", "music stream | ..."])
    # array([0.98, 0.01], dtype=float32)
    ce.close()
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from models.runtime import OnnxModel, artifact_dir, batches

PATTERN_LABELS = ("irrelevant", "partly", "relevant")
EVENT_LABELS = ("drop", "keep")
SIZES = {"small": "cross_encoder-small", "default": "cross_encoder-default"}


def softmax(logits: np.ndarray) -> np.ndarray:
    shifted = logits - logits.max(axis=-1, keepdims=True)
    exp = np.exp(shifted)
    return exp / exp.sum(axis=-1, keepdims=True)


class CrossEncoder:
    """Query/text pair classifier with a pattern head and an event head. Lazy; `close()` frees it."""

    def __init__(self, folder: Path | str, *, batch_size: int = 32, threads: int | None = None):
        self.model = OnnxModel(folder, threads=threads)
        self.batch_size = batch_size

    @classmethod
    def for_size(cls, size: str, **kwargs) -> "CrossEncoder":
        if size not in SIZES:
            raise ValueError(f"unknown cross-encoder size {size!r}; choose one of {sorted(SIZES)}")
        return cls(artifact_dir(SIZES[size]), **kwargs)

    @property
    def max_length(self) -> int:
        return int(self.model.config.get("max_length", 96))

    @property
    def thresholds(self) -> dict[str, float]:
        """Decision thresholds chosen on the dev split (written into config.json by the recipe)."""
        return dict(self.model.config.get("thresholds", {}))

    def close(self) -> None:
        self.model.close()

    def _logits(self, query: str, texts: Sequence[str], output: str,
                check: Callable[[], None] | None = None) -> np.ndarray:
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        result: np.ndarray | None = None
        for part in batches(len(order), self.batch_size):
            if check is not None:
                check()
            idx = order[part]
            ids, mask, types = self.model.encode_pairs(
                [query] * len(idx), [texts[i] for i in idx], max_length=self.max_length
            )
            (logits,) = self.model.run({"input_ids": ids, "attention_mask": mask, "token_type_ids": types}, [output])
            if result is None:
                result = np.zeros((len(texts), logits.shape[1]), dtype=np.float32)
            result[idx] = logits
        return result if result is not None else np.zeros((0, 0), dtype=np.float32)

    def pattern_probs(self, query: str, pattern_texts: Sequence[str], *,
                      check: Callable[[], None] | None = None) -> np.ndarray:
        """check: called before each batch; it raises to stop (a cancel, the question's time limit). The batches
        are what they are without it: the int8 model's outputs depend on what else is in a batch."""
        if not pattern_texts:
            return np.zeros((0, len(PATTERN_LABELS)), dtype=np.float32)
        return softmax(self._logits(query, pattern_texts, "pattern_logits", check))

    def event_probs(self, query: str, event_texts: Sequence[str], *,
                    check: Callable[[], None] | None = None) -> np.ndarray:
        if not event_texts:
            return np.zeros(0, dtype=np.float32)
        return softmax(self._logits(query, event_texts, "event_logits", check))[:, 1]
