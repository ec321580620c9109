"""Stage figures of the operator models: RETRIEVE recall/precision per stage and time per 1,000 events.

The engine sees the operator models through thin recording wrappers, so the bench learns what each RETRIEVE
and EXTRACT call did without changing the engine:

    retriever, extractor = RecordingRetriever(retriever), RecordingExtractor(extractor)
    answer = execute(tree, store, today, retriever=retriever, extractor=extractor)
    figures = retrieve_stage_figures(retriever.take(), gold_ids, staged=retriever.staged)

A tree has several RETRIEVE nodes; per question the ids of all its RETRIEVE calls are united per stage and
the union is scored against the question's gold ids (the relevant events of every gold RETRIEVE query).
Stages of the model retriever (app.retrieve.pipeline.ModelRetriever's trace): `pool` (SPLADE candidates),
`after_patterns`, `after_events`, and `final`: the returned items after de-duplication, where an item is
correct when any of its events is gold and a gold event is found when some item holds it. The lexical
retriever has only `final` (one event per item).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

STAGES = ("pool", "after_patterns", "after_events", "final")
TRACE_STAGES = STAGES[:3]


@dataclass(frozen=True)
class RetrieveCall:
    query: str
    seconds: float                           # wall time, without the SPLADE index sync
    candidates: int                          # pool size (model retriever) or events returned (lexical)
    stages: dict[str, tuple[str, ...]] | None  # ids after pool / patterns / events (model retriever only)
    groups: tuple[tuple[str, ...], ...]      # event ids of each returned item


@dataclass(frozen=True)
class ExtractCall:
    keys: tuple[str, ...]
    seconds: float
    events: int


def _check_for(inner: Any, method: str, check: Any) -> dict[str, Any]:
    """The engine's cancel/time check, passed on to the wrapped model when it takes one."""
    from app.engine.operators.sources import accepts_check

    return {"check": check} if check is not None and accepts_check(inner, method) else {}


class RecordingRetriever:
    """Wraps an engine Retriever; every `retrieve` call is recorded. Other attributes pass through."""

    def __init__(self, inner: Any):
        self.inner = inner
        self.calls: list[RetrieveCall] = []

    @property
    def staged(self) -> bool:
        """Whether the wrapped retriever reports its stages (the model pipeline does, the lexical one not)."""
        return hasattr(self.inner, "last_trace")

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def retrieve(self, query: str, store: Any, reference_date: Any, *, check: Any = None) -> list[Any]:
        clock = time.perf_counter()
        items = self.inner.retrieve(query, store, reference_date, **_check_for(self.inner, "retrieve", check))
        seconds = time.perf_counter() - clock
        trace = getattr(self.inner, "last_trace", None)
        groups = tuple(tuple(item.ids) for item in items)
        if trace is not None and trace.query == query:
            seconds -= trace.seconds.get("index_sync", 0.0)
            stages = {s: tuple(getattr(trace, s)) for s in TRACE_STAGES}
            candidates = len(trace.pool)
        else:
            stages = None
            candidates = sum(len(g) for g in groups)
        self.calls.append(RetrieveCall(query, max(seconds, 0.0), candidates, stages, groups))
        return items

    def take(self) -> list[RetrieveCall]:
        """The calls since the last take (one question's)."""
        calls, self.calls = self.calls, []
        return calls


class RecordingExtractor:
    """Wraps an engine Extractor; times every `extract` call and counts its events."""

    def __init__(self, inner: Any):
        self.inner = inner
        self.calls: list[ExtractCall] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def extract(self, items: Sequence[Any], attr_names: Sequence[str], attr_types: Any, *, check: Any = None) -> list[Any]:
        clock = time.perf_counter()
        out = self.inner.extract(items, attr_names, attr_types, **_check_for(self.inner, "extract", check))
        self.calls.append(ExtractCall(tuple(attr_names), time.perf_counter() - clock, len(items)))
        return out

    def take(self) -> list[ExtractCall]:
        calls, self.calls = self.calls, []
        return calls


def _figure(found: int, gold: int, correct: int, kept: int) -> dict[str, float]:
    """Recall and precision, plus the counts behind them (for micro averages over questions)."""
    return {
        "recall": round(found / gold, 4),
        "precision": round(correct / kept, 4) if kept else 0.0,
        "size": kept,
        "found": found,
        "gold": gold,
        "correct": correct,
    }


def retrieve_stage_figures(
    calls: Sequence[RetrieveCall], gold: set[str], *, staged: bool
) -> dict[str, dict[str, float]] | None:
    """Recall, precision and size per stage of the union of one question's RETRIEVE calls; None without gold.

    >>> call = RetrieveCall("q", 0.1, 4, {"pool": ("a", "b", "c", "d"), "after_patterns": ("a", "b", "c"),
    ...                     "after_events": ("a", "b")}, (("a", "x"), ("b",)))
    >>> retrieve_stage_figures([call], {"a", "c"}, staged=True)["final"]
    {'recall': 0.5, 'precision': 0.5, 'size': 2, 'found': 1, 'gold': 2, 'correct': 1}
    """
    if not gold:
        return None
    out: dict[str, dict[str, float]] = {}
    if staged:
        for stage in TRACE_STAGES:
            kept = set().union(*(c.stages[stage] for c in calls if c.stages)) if calls else set()
            hits = len(kept & gold)
            out[stage] = _figure(hits, len(gold), hits, len(kept))
    items = {frozenset(g) for c in calls for g in c.groups}
    found = len(gold & set().union(*items)) if items else 0
    correct = sum(1 for item in items if item & gold)
    out["final"] = _figure(found, len(gold), correct, len(items))
    return out


def mean_stage_figures(per_question: Iterable[dict[str, dict[str, float]] | None]) -> dict[str, dict[str, float]]:
    """Per stage, the macro average over questions (`recall`, `precision`) and the micro one (`recall_micro`,
    `precision_micro`: sums of found / gold and correct / kept over questions); questions without gold are
    left out."""
    rows = [q for q in per_question if q]
    out: dict[str, dict[str, float]] = {}
    for stage in STAGES:
        values = [q[stage] for q in rows if stage in q]
        if values:
            out[stage] = {
                "questions": len(values),
                "recall": round(sum(v["recall"] for v in values) / len(values), 4),
                "precision": round(sum(v["precision"] for v in values) / len(values), 4),
                "size_mean": round(sum(v["size"] for v in values) / len(values), 1),
            }
            if all("gold" in v for v in values):
                gold, kept = sum(v["gold"] for v in values), sum(v["size"] for v in values)
                out[stage]["recall_micro"] = round(sum(v["found"] for v in values) / gold, 4) if gold else 0.0
                out[stage]["precision_micro"] = round(sum(v["correct"] for v in values) / kept, 4) if kept else 0.0
    return out


def per_1000(seconds: float, events: int) -> float | None:
    """Seconds per 1,000 events, or None when no events were handled."""
    return round(1000.0 * seconds / events, 3) if events else None
