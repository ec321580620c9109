"""SPLADE sparse encoder at run time (onnxruntime + tokenizers, no torch).

The exported graph (models/export.py) already computes SPLADE's term weights,
`max over tokens of log(1 + relu(mlm_logits))`, masked by the attention mask, so one call turns a batch of
texts into dense `[batch, vocab]` weights; here they become sparse `{term_id: weight}` vectors of the top-k
terms.

    encoder = SpladeEncoder()
    [vector] = encoder.encode(["football match with friends"])
    encoder.terms(vector)[:3]   # [('football', 2.3), ('friends', 2.2), ('match', 2.1)]
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from models.runtime import OnnxModel, artifact_dir, batches

SPLADE_ARTIFACT = "splade-tiny"
SparseVector = dict[int, float]


class SpladeEncoder:
    """Texts -> sparse term-weight vectors. Lazy: nothing is loaded until the first `encode`."""

    def __init__(
        self,
        folder: Path | str | None = None,
        *,
        max_length: int = 64,
        top_k: int = 48,
        min_weight: float = 0.05,
        batch_size: int = 1,
        threads: int | None = None,
    ):
        # One text a call: the graph's largest tensor is the [batch, tokens, vocab] logits (8 MB a text), and
        # onnxruntime's arena keeps its peak for good. Batches of 16 held 650 MB after indexing the demo; one
        # text a call holds 170 MB and indexes as fast (no padding).
        self.model = OnnxModel(folder or artifact_dir(SPLADE_ARTIFACT), threads=threads)
        self.max_length = max_length
        self.top_k = top_k
        self.min_weight = min_weight
        self.batch_size = batch_size

    def close(self) -> None:
        self.model.close()

    def weights(self, texts: Sequence[str], *, check: Callable[[], None] | None = None) -> np.ndarray:
        """Dense `[len(texts), vocab]` float32 weights, in the order of `texts`. `check`: called before each batch;
        it raises to stop."""
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))  # similar lengths pad less
        out: np.ndarray | None = None
        for part in batches(len(order), self.batch_size):
            if check is not None:
                check()
            idx = order[part]
            ids, mask, types = self.model.encode_texts([texts[i] for i in idx], max_length=self.max_length)
            (w,) = self.model.run({"input_ids": ids, "attention_mask": mask, "token_type_ids": types}, ["weights"])
            if out is None:
                out = np.zeros((len(texts), w.shape[1]), dtype=np.float32)
            out[idx] = w
        assert out is not None
        return out

    def encode(self, texts: Sequence[str], *, top_k: int | None = None,
               check: Callable[[], None] | None = None) -> list[SparseVector]:
        """Sparse vectors: at most `top_k` terms each, weights >= `min_weight`."""
        dense = self.weights(texts, check=check)
        return [self._sparsify(row, top_k or self.top_k) for row in dense]

    def _sparsify(self, row: np.ndarray, k: int) -> SparseVector:
        nonzero = np.flatnonzero(row >= self.min_weight)
        if len(nonzero) > k:
            nonzero = nonzero[np.argpartition(-row[nonzero], k - 1)[:k]]
        return {int(i): float(row[i]) for i in nonzero}

    def terms(self, vector: SparseVector) -> list[tuple[str, float]]:
        """The vector's terms as (token, weight), heaviest first; for explanations and tests."""
        tok = self.model.tokenizer
        return [(tok.id_to_token(i), round(w, 3)) for i, w in sorted(vector.items(), key=lambda kv: -kv[1])]


def dot(query: SparseVector, doc: SparseVector) -> float:
    if len(query) > len(doc):
        query, doc = doc, query
    return sum(w * doc[t] for t, w in query.items() if t in doc)
