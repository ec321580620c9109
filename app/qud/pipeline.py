"""The QUD stage's entry points: the question model, and a question's operator tree.

    from app.qud.pipeline import decompose, default_llm
    tree = decompose("How much did I spend on Amazon in 2023?", date(2024, 5, 1))   # raises DecompositionError

Without `llm`, the configured QUD model (models.default_qud.qud_model_path: --qud-model, $LIFELENS_QUD_MODEL,
settings.json, else the embedded Gemma 3 270M) is loaded once per process. Asking a question, the tree and its
run together, is app.ask.ask (re-exported here as `ask` for older callers).
"""

from __future__ import annotations

from datetime import date
from typing import Any

from app.engine.tree import Node
from app.qud.decompose import DecompositionError
from app.qud.decompose import decompose as _decompose
from app.qud.decompose import decompose_one_shot as _decompose_one_shot

__all__ = ["ask", "decompose", "decompose_one_shot", "default_llm", "DecompositionError"]


def default_llm(model_path: str | None = None):
    """The process-wide QUD model (loaded lazily, once): `model_path` or the configured one (the embedded
    default comes with its fine-tuned LoRA adapter, "base" is the embedded model alone; models.default_qud)."""
    from models.default_qud import qud_model

    return qud_model(model_path)


def decompose(question: str, reference_date: date, llm=None, **kwargs) -> Node:
    """The operator tree for `question` (recursive decomposition). Raises DecompositionError."""
    return _decompose(question, reference_date, llm if llm is not None else default_llm(), **kwargs)


def decompose_one_shot(question: str, reference_date: date, llm=None, **kwargs) -> Node:
    """The whole tree in one generation (the paper's ablation). Raises DecompositionError."""
    return _decompose_one_shot(question, reference_date, llm if llm is not None else default_llm(), **kwargs)


def __getattr__(name: str) -> Any:
    """`ask` and `RERUNS` live in app.ask, above the QUD and the engine; imported from here, they still work."""
    if name in ("ask", "RERUNS"):
        from app import ask as asking

        return getattr(asking, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
