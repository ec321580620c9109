"""Dev-split figures for RETRIEVE and EXTRACT, and threshold choice (no torch needed: runs the ONNX artifacts).

    cases = [(query, gold_ids, store), ...]
    stages = retrieve_stage_metrics(retriever, cases)      # recall/precision after pool, patterns, events, dedupe
    best = choose_thresholds(retriever, cases, grid)       # max precision with recall >= target

Recall and precision are micro-averaged over all queries (sums of hits over sums of gold / kept events), and
also macro-averaged (mean per query). After de-duplication an item counts as correct when any of its events
is gold, and a gold event counts as found when some kept item contains it.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import replace
from typing import Any, Iterable, Sequence

import numpy as np

STAGES = ("pool", "after_patterns", "after_events", "after_dedupe")


class CachedCrossEncoder:
    """Memoises a cross-encoder's probabilities by (query, text), so threshold sweeps re-run cheaply."""

    def __init__(self, inner: Any):
        self.inner = inner
        self._patterns: dict[tuple[str, str], np.ndarray] = {}
        self._events: dict[tuple[str, str], float] = {}

    @property
    def thresholds(self) -> dict:
        return self.inner.thresholds

    def pattern_probs(self, query: str, texts: Sequence[str]) -> np.ndarray:
        todo = [t for t in dict.fromkeys(texts) if (query, t) not in self._patterns]
        if todo:
            for t, row in zip(todo, self.inner.pattern_probs(query, todo)):
                self._patterns[(query, t)] = row
        return np.array([self._patterns[(query, t)] for t in texts], dtype=np.float32).reshape(len(texts), 3)

    def event_probs(self, query: str, texts: Sequence[str]) -> np.ndarray:
        todo = [t for t in dict.fromkeys(texts) if (query, t) not in self._events]
        if todo:
            for t, p in zip(todo, self.inner.event_probs(query, todo)):
                self._events[(query, t)] = float(p)
        return np.array([self._events[(query, t)] for t in texts], dtype=np.float32)

    def close(self) -> None:
        self.inner.close()


def _ratio(a: float, b: float) -> float:
    return a / b if b else 1.0


class _Tally:
    """Micro sums and per-query (macro) values for one stage."""

    def __init__(self) -> None:
        self.correct = self.kept = self.found = self.gold = 0
        self.per_query: list[tuple[float, float]] = []

    def add(self, correct: int, kept: int, found: int, gold: int) -> None:
        self.correct += correct
        self.kept += kept
        self.found += found
        self.gold += gold
        self.per_query.append((_ratio(found, gold), _ratio(correct, kept)))

    def figures(self) -> dict[str, float]:
        return {
            "recall_micro": round(_ratio(self.found, self.gold), 4),
            "precision_micro": round(_ratio(self.correct, self.kept), 4),
            "recall_macro": round(float(np.mean([r for r, _ in self.per_query])), 4) if self.per_query else 1.0,
            "precision_macro": round(float(np.mean([p for _, p in self.per_query])), 4) if self.per_query else 1.0,
            "kept": self.kept,
        }


def retrieve_stage_metrics(retriever: Any, cases: Iterable[tuple[str, set[str], Any, Any]]) -> dict[str, Any]:
    """Run the retriever on each (query, gold ids, store, reference date); figures per stage plus timing."""
    tallies = {s: _Tally() for s in STAGES}
    seconds: list[float] = []
    for query, gold, store, reference in cases:
        clock = time.perf_counter()
        retriever.retrieve(query, store, reference)
        seconds.append(time.perf_counter() - clock)
        trace = retriever.last_trace
        for stage in STAGES[:3]:
            kept = set(getattr(trace, stage))
            hits = len(kept & gold)
            tallies[stage].add(hits, len(kept), hits, len(gold))
        groups = [set(g) for g in trace.groups]
        correct = sum(1 for g in groups if g & gold)
        found = len(gold & set().union(*groups)) if groups else 0
        tallies["after_dedupe"].add(correct, len(groups), found, len(gold))
    out: dict[str, Any] = {"queries": len(seconds), "seconds_mean": round(float(np.mean(seconds)), 4) if seconds else 0.0}
    out.update({stage: tallies[stage].figures() for stage in STAGES})
    return out


class _FrozenPools:
    """Memoises each query's pool, the events read and the patterns, so a threshold sweep re-runs only the
    decisions (the thresholds decide which sources are read: reads and patterns are kept by their event ids)."""

    def __init__(self, retriever: Any):
        import app.retrieve.pipeline as pipeline

        self.pipeline = pipeline
        self.retriever = retriever
        self.pools: dict[str, list[Any]] = {}
        self.reads: dict[tuple, list[Any]] = {}
        self.patterns: dict[tuple, Any] = {}
        self.original_pool = retriever.pool
        self.original_read = retriever.read
        self.original_mine = pipeline.value_patterns

    def __enter__(self) -> "_FrozenPools":
        def pool(query, store, index, trace, **options):   # options: the pipeline's check=
            key = f"{id(store)}:{query}"
            if key not in self.pools:
                self.pools[key] = self.original_pool(query, store, index, trace, **options)
            trace.pool = [e.id for e in self.pools[key]]
            return self.pools[key]

        def read(store, heads, **options):   # options: the pipeline's check= and count=
            key = (id(store), tuple(h.id for h in heads))
            if key not in self.reads:
                self.reads[key] = self.original_read(store, heads, **options)
            return self.reads[key]

        def mine(events, **kwargs):
            key = (tuple(e.id for e in events), kwargs.get("min_count"), kwargs.get("max_per_source"))
            if key not in self.patterns:
                self.patterns[key] = self.original_mine(events, **kwargs)
            return self.patterns[key]

        self.retriever.pool = pool
        self.retriever.read = read
        self.pipeline.value_patterns = mine
        return self

    def __exit__(self, *exc: object) -> None:
        self.retriever.pool = self.original_pool
        self.retriever.read = self.original_read
        self.pipeline.value_patterns = self.original_mine


def choose_thresholds(
    retriever: Any,
    cases: Sequence[tuple[str, set[str], Any, Any]],
    grid: dict[str, Sequence[float]],
    *,
    recall_target: float = 0.95,
    average: str = "micro",
    log: Any = None,
) -> tuple[Any, dict[str, Any]]:
    """Try every combination in `grid` (fields of RetrieveThresholds); keep the one with the best precision
    after de-duplication among those reaching `recall_target` recall (else the best recall-weighted F2, so
    that a target out of reach does not buy the last point of recall with all of the precision).

    `average`: "micro" (sums over queries: a 9,000-song query outweighs a 9-appointment one) or "macro" (the
    mean per query, as the bench scores questions). The retriever's cross-encoder should be a
    CachedCrossEncoder; pools and patterns are computed once."""
    if average not in ("micro", "macro"):
        raise ValueError(f"average must be 'micro' or 'macro', not {average!r}")
    recall_key, precision_key = f"recall_{average}", f"precision_{average}"
    base = retriever.thresholds
    names = list(grid)
    best: tuple[tuple, Any, dict] | None = None
    # the sweep scores the kept events without de-duplication (it only merges what is kept, and is the slow
    # part on pools of 20,000 songs); the chosen thresholds get their full figures, de-duplication included
    dedupe, retriever.dedupe = getattr(retriever, "dedupe", False), False
    with _FrozenPools(retriever):
        for combo in itertools.product(*(grid[n] for n in names)):
            retriever._thresholds = replace(base, **dict(zip(names, combo)))
            figures = retrieve_stage_metrics(retriever, cases)
            final = figures["after_dedupe"]
            recall, precision = final[recall_key], final[precision_key]
            if log is not None:
                log(f"  {dict(zip(names, combo))}: recall {recall} precision {precision} ({average})")
            reached = recall >= recall_target
            score = (reached, precision if reached else f_beta(recall, precision, 2.0), recall)
            if best is None or score > best[0]:
                best = (score, retriever._thresholds, figures)
        assert best is not None
        retriever._thresholds = best[1]
        retriever.dedupe = dedupe
        figures = retrieve_stage_metrics(retriever, cases) if dedupe else best[2]
    return best[1], figures


def f_beta(recall: float, precision: float, beta: float) -> float:
    """F-beta: beta > 1 weighs recall higher (F2: recall counts four times as much as precision).

    >>> round(f_beta(0.9, 0.5, 2.0), 4)
    0.7759
    """
    if recall <= 0.0 and precision <= 0.0:
        return 0.0
    b2 = beta * beta
    return (1 + b2) * precision * recall / (b2 * precision + recall)


def time_retrieve_extract(
    retriever: Any, extractor: Any, store: Any, query: str, reference: Any, keys: Sequence[str], *, candidates: int = 1000
) -> dict[str, Any]:
    """Wall time of RETRIEVE (pool cut to `candidates` events) plus EXTRACT of `keys` on what it returns.

    The pool is the query's SPLADE pool, best first, cut at `candidates`; index sync is excluded (it happens
    at import time)."""

    retriever.index_for(store)  # sync outside the clock
    saved = retriever.thresholds
    retriever._thresholds = replace(saved, max_pool=candidates)
    try:
        clock = time.perf_counter()
        items = retriever.retrieve(query, store, reference)
        retrieve_s = time.perf_counter() - clock
        clock = time.perf_counter()
        extractor.extract(items, list(keys), None)
        extract_s = time.perf_counter() - clock
    finally:
        retriever._thresholds = saved
    trace = retriever.last_trace
    return {
        "query": query, "candidates": len(trace.pool), "kept": len(items), "event_ce_calls": trace.event_ce_calls,
        "patterns": len(trace.patterns), "retrieve_s": round(retrieve_s, 3), "extract_s": round(extract_s, 3),
        "total_s": round(retrieve_s + extract_s, 3), "extract_modes": dict(getattr(extractor, "last_modes", {})),
        "stage_s": {k: round(v, 3) for k, v in trace.seconds.items()},
    }
