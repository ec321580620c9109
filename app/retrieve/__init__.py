"""RETRIEVE with models: the SPLADE side index, pattern mining, cross-encoders and de-duplication.

    retriever = make_retriever("default")     # "small" | "default" | "lexical" (the engine's keyword baseline)
    answer = app.engine.execute(tree, store, reference_date, retriever=retriever, extractor=make_extractor("default"))

The size is the "operator models" setting: "small" runs the cross-encoder fine-tuned from SPLADE-tiny's
2-layer encoder, "default" the one fine-tuned from MiniLM-L6; both use the SPLADE-tiny sparse index for the
candidate pool. `$LIFELENS_OPERATOR_MODELS` sets the default; without it "small" runs, because it answers
the dev split best (see DEFAULT_OPERATOR_SIZE).
"""

from __future__ import annotations

import os
from typing import Any

OPERATOR_SIZES = ("lexical", "small", "default")
# What runs when nothing is chosen: the choice with the best dev-split Hit@1 (`lifelens bench --split dev --mode
# gold --operators ...`; figures in models/cards/cross_encoder-small.md and cross_encoder-default.md).
DEFAULT_OPERATOR_SIZE = "small"
SIZE_ENV = "LIFELENS_OPERATOR_MODELS"


def operator_size(size: str | None = None) -> str:
    chosen = size or os.environ.get(SIZE_ENV) or DEFAULT_OPERATOR_SIZE
    if chosen not in OPERATOR_SIZES:
        raise ValueError(f"unknown operator model size {chosen!r}; choose one of {', '.join(OPERATOR_SIZES)}")
    return chosen


def make_retriever(size: str | None = None) -> Any:
    """A Retriever for the engine: the model pipeline, or the keyword baseline for "lexical"."""
    chosen = operator_size(size)
    if chosen == "lexical":
        from app.engine.retrieve import KeywordRetriever

        return KeywordRetriever()
    from app.retrieve.pipeline import ModelRetriever

    return ModelRetriever(chosen)
