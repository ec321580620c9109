"""RETRIEVE stage figures and operator timing of the bench, on small real stores built here."""

from __future__ import annotations

from datetime import date

import numpy as np
import pytest

from app.engine.extract import KeyAliasExtractor
from app.engine.retrieve import KeywordRetriever
from app.engine.values import Item
from app.retrieve.pipeline import ModelRetriever, RetrieveThresholds, RetrieveTrace
from app.store import EventStore
from bench.qa.runner import BenchReport, bench_records, markdown
from bench.qa.stages import (RecordingExtractor, RecordingRetriever, RetrieveCall, mean_stage_figures, per_1000,
                              retrieve_stage_figures)

TODAY = date(2024, 4, 1)


def ids_by_title(store: EventStore) -> dict[str, str]:
    return {e.title: e.id for e in store.events()}


class ScriptedRetriever:
    """A retriever with the model pipeline's trace, whose stages are written by the test."""

    def __init__(self, store: EventStore, script: dict[str, dict[str, list[str]]]):
        self.store, self.script = store, script
        self.last_trace = RetrieveTrace()
        self.last_problems: list[str] = []
        self.closed = False

    def retrieve(self, query, store, reference_date):
        stages = self.script[query]
        self.last_trace = RetrieveTrace(query=query, pool=stages["pool"], after_patterns=stages["after_patterns"],
                                        after_events=stages["after_events"], seconds={"index_sync": 5.0})
        return [Item.from_event(e) for e in store.get(stages["after_events"])]


def test_stage_union_over_several_retrieve_calls_is_scored_against_gold():
    calls = [
        RetrieveCall("songs", 0.2, 5, {"pool": ("a", "b", "c", "x", "y"), "after_patterns": ("a", "b", "x"),
                                       "after_events": ("a", "b")}, (("a",), ("b",))),
        RetrieveCall("workouts", 0.1, 3, {"pool": ("w", "v", "a"), "after_patterns": ("w", "v"),
                                          "after_events": ("w",)}, (("w", "c"),)),
    ]
    gold = {"a", "b", "c", "w", "z"}
    figures = retrieve_stage_figures(calls, gold, staged=True)
    # pool union {a,b,c,x,y,w,v}: 4 of 5 gold found, 4 of 7 kept are gold
    assert figures["pool"] == {"recall": 0.8, "precision": round(4 / 7, 4), "size": 7, "found": 4, "gold": 5, "correct": 4}
    assert figures["after_patterns"] == {"recall": 0.6, "precision": 0.6, "size": 5, "found": 3, "gold": 5, "correct": 3}
    assert figures["after_events"] == {"recall": 0.6, "precision": 1.0, "size": 3, "found": 3, "gold": 5, "correct": 3}
    # final: items {a}, {b}, {w, c}; gold found a, b, w, c; all 3 items correct
    assert figures["final"] == {"recall": 0.8, "precision": 1.0, "size": 3, "found": 4, "gold": 5, "correct": 3}
    assert list(retrieve_stage_figures(calls, gold, staged=False)) == ["final"]
    assert retrieve_stage_figures(calls, set(), staged=True) is None
    nothing = retrieve_stage_figures([], {"a"}, staged=True)
    assert nothing["pool"] == {"recall": 0.0, "precision": 0.0, "size": 0, "found": 0, "gold": 1, "correct": 0}
    assert nothing["final"]["recall"] == 0.0


def test_mean_over_questions_and_time_per_thousand():
    q1 = {"final": {"recall": 1.0, "precision": 0.5, "size": 4, "found": 2, "gold": 2, "correct": 2}}
    q2 = {"final": {"recall": 0.5, "precision": 1.0, "size": 2, "found": 4, "gold": 8, "correct": 2}}
    assert mean_stage_figures([q1, None, q2]) == {
        "final": {"questions": 2, "recall": 0.75, "precision": 0.75, "size_mean": 3.0,
                  "recall_micro": 0.6, "precision_micro": round(4 / 6, 4)}}
    assert per_1000(0.5, 250) == 2.0 and per_1000(1.0, 0) is None


def test_a_gold_tree_with_two_retrieve_nodes_is_recorded_through_the_engine(store):
    t = ids_by_title(store)
    songs = [t["Daft Punk - One More Time"], t["Daft Punk - Digital Love"], t["Adele - Hello"]]
    script = {
        "songs by Daft Punk": {"pool": songs, "after_patterns": songs, "after_events": songs[:2]},
        "football": {"pool": [t["Soccer, 90 min"], t["Running, 30 min"], t["Football with the team"]],
                     "after_patterns": [t["Soccer, 90 min"], t["Football with the team"]],
                     "after_events": [t["Soccer, 90 min"]]},
    }
    inner = ScriptedRetriever(store, script)
    record = {
        "id": "q1", "categories": ["join"], "question": "How many songs and games?", "answer": 6, "answers": [6],
        "reference_date": TODAY.isoformat(),
        "tree": {"question": "How many songs and games?", "step": 'APPLY(l=QUD("pairs"), fct=len)', "children": [
            {"question": "pairs", "step": 'JOIN(l1=QUD("songs with artist"), l2=QUD("football"), condition="i1.id != i2.id")',
             "children": [
                 {"question": "songs with artist",
                  "step": 'EXTRACT(l=QUD("songs by Daft Punk"), attr_names=["artist"], attr_types=[str])',
                  "children": [{"question": "songs by Daft Punk", "step": 'RETRIEVE(query="songs by Daft Punk")',
                                "children": []}]},
                 {"question": "football", "step": 'RETRIEVE(query="football")', "children": []}]}]},
    }
    gold = {t["Daft Punk - One More Time"], t["Daft Punk - Digital Love"], t["Daft Punk - Aerodynamic"],
            t["Soccer, 90 min"], t["Football with the team"]}
    report = BenchReport(split="dev", mode="gold", operators="small")
    bench_records(report, "test", store, [record], lambda r: (gold, gold), retriever=inner,
                  extractor=KeyAliasExtractor())
    result = report.results[0]
    assert result.error is None and result.predicted == 2 and result.tree_ok  # 2 songs x 1 game
    stages = result.retrieve_stages
    assert stages["pool"] == {"recall": 0.8, "precision": round(4 / 6, 4), "size": 6, "found": 4, "gold": 5, "correct": 4}
    assert stages["after_patterns"] == {"recall": 0.8, "precision": 0.8, "size": 5, "found": 4, "gold": 5, "correct": 4}
    assert stages["after_events"] == {"recall": 0.6, "precision": 1.0, "size": 3, "found": 3, "gold": 5, "correct": 3}
    assert stages["final"] == {"recall": 0.6, "precision": 1.0, "size": 3, "found": 3, "gold": 5, "correct": 3}
    summary = report.summary()
    assert summary["retrieve_calls"] == 2 and report.retrieve_candidates == 6  # pool sizes 3 + 3
    assert report.extract_calls == 1 and report.extract_events == 2  # EXTRACT read the 2 kept songs
    assert summary["retrieve_seconds_per_1000_candidates"] is not None
    assert report.retrieve_seconds < 5.0  # the trace's 5 s of index sync are not RETRIEVE time
    assert summary["retrieve_stages"]["after_events"] == {"questions": 1, "recall": 0.6, "precision": 1.0,
                                                          "size_mean": 3.0, "recall_micro": 0.6, "precision_micro": 1.0}
    table = markdown(report)
    assert "operators `small`" in table and "| after events | 1 | 0.600 | 1.000 | 0.600 | 1.000 | 3.0 |" in table
    assert "| after de-duplication (final) | 1 | 0.600 | 1.000 | 0.600 | 1.000 | 3.0 |" in table


class FakeCrossEncoder:
    """Sources named in `relevant` are relevant as a whole; every other source is irrelevant."""

    thresholds: dict = {}

    def __init__(self, relevant):
        self.relevant = set(relevant)

    def pattern_probs(self, query, texts):
        return np.array([[0.05, 0.15, 0.8] if t.split(" | ")[0].replace(" ", "_") in self.relevant
                         else [0.9, 0.05, 0.05] for t in texts], dtype=np.float32)

    def event_probs(self, query, texts):
        return np.zeros(len(texts), dtype=np.float32)

    def close(self):
        pass


def test_the_model_retriever_trace_feeds_every_stage(store):
    """The real pipeline (SPLADE pool, patterns, de-duplication) behind the recorder, with a scripted
    cross-encoder: the soccer workout and its calendar entry are one item after de-duplication."""
    t = ids_by_title(store)
    retriever = ModelRetriever(cross_encoder=FakeCrossEncoder({"workout", "calendar"}),
                               thresholds=RetrieveThresholds(min_count=2, feedback_docs=0))
    recorder = RecordingRetriever(retriever)
    assert recorder.staged and not RecordingRetriever(KeywordRetriever()).staged
    items = recorder.retrieve("football", store, TODAY)
    assert recorder.last_problems == []  # other attributes pass through to the wrapped retriever
    [call] = recorder.take()
    assert recorder.take() == []
    assert call.candidates == len(retriever.last_trace.pool) and call.stages["pool"] == tuple(retriever.last_trace.pool)
    assert set(call.stages["after_events"]) <= set(call.stages["after_patterns"]) <= set(call.stages["pool"])
    assert [len(i.ids) for i in items] == [2] and call.groups == (items[0].ids,)
    gold = {t["Soccer, 90 min"], t["Football with the team"]}
    figures = retrieve_stage_figures([call], gold, staged=True)
    assert figures["final"] == {"recall": 1.0, "precision": 1.0, "size": 1, "found": 2, "gold": 2, "correct": 1}
    assert figures["after_events"] == {"recall": 1.0, "precision": 1.0, "size": 2, "found": 2, "gold": 2, "correct": 2}
    assert figures["pool"]["recall"] == 1.0 and figures["pool"]["size"] == call.candidates
    retriever.close()


def test_the_extract_recorder_times_calls_and_counts_events(store):
    recorder = RecordingExtractor(KeyAliasExtractor())
    items = [Item.from_event(e) for e in store.events(source="music_stream")]
    out = recorder.extract(items, ["artist"], None)
    assert [i.attrs["artist"] for i in out].count("Daft Punk") == 5
    [call] = recorder.take()
    assert call.keys == ("artist",) and call.events == 7 and call.seconds >= 0.0
    assert recorder.last_reasons == {}  # passes through
