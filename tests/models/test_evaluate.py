"""Threshold choice for RETRIEVE (models/train/evaluate.py): recall first, averaged per query when asked."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from app.retrieve.pipeline import RetrieveThresholds, RetrieveTrace
from models.train.evaluate import choose_thresholds, f_beta


@dataclass
class StubRetriever:
    """Two queries: "big" (100 candidates, 90 gold) and "small" (10 candidates, 2 gold). A low `keep` keeps
    every candidate; keep 0.5 keeps 88 of the big query's gold events and 1 of the small query's."""

    _thresholds: RetrieveThresholds = field(default_factory=RetrieveThresholds)
    dedupe: bool = True
    last_trace: RetrieveTrace = field(default_factory=RetrieveTrace)
    dedupe_seen: list = field(default_factory=list)

    @property
    def thresholds(self) -> RetrieveThresholds:
        return self._thresholds

    def pool(self, query, store, index, trace):  # replaced while the sweep runs
        return []

    @staticmethod
    def read(store, heads):  # replaced while the sweep runs
        return []

    def retrieve(self, query, store, reference):
        self.dedupe_seen.append(self.dedupe)
        pool = [f"{query}{i}" for i in range(100 if query == "big" else 10)]
        if self._thresholds.keep < 0.5:
            kept = pool
        else:
            kept = pool[:88] if query == "big" else pool[:1]
        self.last_trace = RetrieveTrace(query=query, pool=pool, after_patterns=pool, after_events=kept,
                                        groups=[(i,) for i in kept])
        return kept


CASES = [("big", {f"big{i}" for i in range(90)}, None, None), ("small", {"small0", "small1"}, None, None)]


def test_micro_recall_favours_the_big_query_and_macro_each_query():
    retriever = StubRetriever()
    chosen, figures = choose_thresholds(retriever, CASES, {"keep": [0.1, 0.5]}, average="micro")
    # micro: 89 of 92 gold events (0.967) at keep 0.5 with precision 1.0 beats keeping everything
    assert chosen.keep == 0.5
    assert figures["after_dedupe"]["recall_micro"] == round(89 / 92, 4)
    assert figures["after_dedupe"]["recall_macro"] == round((88 / 90 + 0.5) / 2, 4)
    retriever = StubRetriever()
    chosen, figures = choose_thresholds(retriever, CASES, {"keep": [0.1, 0.5]}, average="macro")
    # macro: the small query finds 1 of 2 at keep 0.5 (mean recall 0.739): only keep 0.1 reaches 0.95
    assert chosen.keep == 0.1
    assert figures["after_dedupe"]["recall_macro"] == 1.0
    assert figures["after_dedupe"]["precision_macro"] == round((0.9 + 0.2) / 2, 4)
    # the sweep runs without de-duplication, the chosen thresholds' figures with it
    assert retriever.dedupe_seen == [False] * 4 + [True] * 2 and retriever.dedupe is True


def test_out_of_reach_target_takes_the_best_f2_not_the_best_recall():
    retriever = StubRetriever()
    # target 1.0: neither reaches it under micro; F2 of keep 0.1 (recall 1, precision 92/110) is 0.9623,
    # of keep 0.5 (recall 0.967, precision 1) 0.9737
    chosen, _ = choose_thresholds(retriever, CASES, {"keep": [0.1, 0.5]}, recall_target=1.01, average="micro")
    assert chosen.keep == 0.5
    assert round(f_beta(1.0, 92 / 110, 2.0), 4) == 0.9623
    assert round(f_beta(89 / 92, 1.0, 2.0), 4) == 0.9737
    assert f_beta(0.0, 0.0, 2.0) == 0.0
    with pytest.raises(ValueError, match="average must be 'micro' or 'macro'"):
        choose_thresholds(retriever, CASES, {"keep": [0.1]}, average="median")


def test_frozen_pools_pass_the_pipelines_check_and_count_on():
    """The sweep memoises ModelRetriever.pool (called with check=) and .read (check= and count=): the events
    are read once for the same heads, again for other heads (other thresholds read other sources)."""
    from models.train.evaluate import _FrozenPools

    calls = []
    head, other = type("Head", (), {"id": "e1"})(), type("Head", (), {"id": "e2"})()

    class Retriever:
        def pool(self, query, store, index, trace, *, check=None):
            calls.append(("pool", query, check))
            return [head, other]

        @staticmethod
        def read(store, heads, *, check=None, count=None):
            calls.append(("read", tuple(h.id for h in heads), check, count))
            return list(heads)

    retriever = Retriever()
    trace = type("Trace", (), {})()
    with _FrozenPools(retriever):
        assert retriever.pool("q", "store", None, trace, check=print) == [head, other]
        assert retriever.pool("q", "store", None, trace, check=print) == [head, other]   # memoised
        assert retriever.read("store", [head], check=print, count=len) == [head]
        assert retriever.read("store", [head], check=print, count=len) == [head]         # memoised
        assert retriever.read("store", [head, other]) == [head, other]
    assert calls == [("pool", "q", print), ("read", ("e1",), print, len), ("read", ("e1", "e2"), None, None)]
    assert trace.pool == ["e1", "e2"]
