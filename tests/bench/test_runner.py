"""`lifelens bench`: scoring, stage figures and the report, on a real dev persona."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import date

import pytest

from app.answer import NodeReport
from bench.qa.runner import gives_gold_answer, markdown, recall_precision, retrieved_ids, run_bench


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    """One generated and imported dev persona for the tests of this module."""
    return tmp_path_factory.mktemp("bench-cache")


def _node(op: str, ids: tuple[str, ...], *children: NodeReport) -> NodeReport:
    return NodeReport(operator=op, question="q", step=f"{op}(...)", size=len(ids), seconds=0.0, error=None,
                      children=children, event_ids=ids, preview=())


def test_retrieved_ids_are_the_union_of_retrieve_nodes_only():
    tree = _node("JOIN", ("a", "b", "c"), _node("RETRIEVE", ("a", "b")), _node("FILTER", ("c",), _node("RETRIEVE", ("c", "d"))))
    assert retrieved_ids(tree) == {"a", "b", "c", "d"}
    assert retrieved_ids(None) == set()


def test_recall_and_precision():
    assert recall_precision({"a", "b", "x"}, {"a", "b", "c", "d"}) == (0.5, 2 / 3)
    assert recall_precision(set(), {"a"}) == (0.0, 0.0)
    assert recall_precision({"a"}, set()) == (None, None)


def test_gold_trees_on_a_dev_persona_are_scored_per_category(cache):
    report = run_bench("dev", mode="gold", limit=4, personas=["p13"], cache=cache, operators="lexical")
    summary = report.summary()
    assert summary["questions"] == 4 and summary["tree_executes"] == 1.0 and summary["operators"] == "lexical"
    # the lexical retriever has one stage; every question has gold RETRIEVE ids and is scored
    assert list(summary["retrieve_stages"]) == ["final"] and summary["retrieve_stages"]["final"]["questions"] == 4
    assert summary["retrieve_calls"] >= 4 and summary["retrieve_seconds_per_1000_candidates"] > 0
    assert 0.0 <= summary["hit_at_1"] <= summary["relaxed_hit_at_1"] <= 1.0
    assert sum(r.hit for r in report.results) == round(summary["hit_at_1"] * 4)
    assert all(r.retrieve_recall is not None for r in report.results)
    for category, figures in summary["per_category"].items():
        members = [r for r in report.results if category in r.categories]
        assert figures["questions"] == len(members)
    table = markdown(report)
    assert "| **all** | 4 |" in table and "RETRIEVE recall" in table and "operators `lexical`" in table
    assert "| final | 4 |" in table
    json.dumps(report.to_json(), default=str)  # the JSON report is serialisable


def test_a_tree_is_equivalent_to_gold_when_it_gives_the_gold_trees_answer_on_the_store(cache):
    from app.engine import execute
    from app.engine.tree import Node
    from app.persona.questions import questions_for
    from app.persona.splits import templates_in
    from app.persona.stores import persona_store

    store = persona_store("p13", cache=cache)
    try:
        record = next(r for r in questions_for("p13", templates_in("dev")) if isinstance(r["answer"], (int, float)))
        same = execute(Node.from_json(record["tree"]), store, date.fromisoformat(record["reference_date"]))
        assert same.value is not None
        assert gives_gold_answer(same, record, store)
        assert not gives_gold_answer(replace(same, value=same.value + 1000), record, store)
        assert not gives_gold_answer(replace(same, tree=None), record, store)  # no tree: nothing to compare
    finally:
        store.close()
