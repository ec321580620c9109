"""`lifelens bench`: scoring, stage figures and the report, on a real dev persona."""

from __future__ import annotations

import json

from app.answer import NodeReport
from app.bench.runner import markdown, recall_precision, retrieved_ids, run_bench


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


def test_gold_trees_on_a_dev_persona_are_scored_per_category(tmp_path):
    report = run_bench("dev", mode="gold", limit=4, personas=["p13"], cache=tmp_path)
    summary = report.summary()
    assert summary["questions"] == 4 and summary["tree_executes"] == 1.0
    assert 0.0 <= summary["hit_at_1"] <= summary["relaxed_hit_at_1"] <= 1.0
    assert sum(r.hit for r in report.results) == round(summary["hit_at_1"] * 4)
    assert all(r.retrieve_recall is not None for r in report.results)
    for category, figures in summary["per_category"].items():
        members = [r for r in report.results if category in r.categories]
        assert figures["questions"] == len(members)
    table = markdown(report)
    assert "| **all** | 4 |" in table and "RETRIEVE recall" in table
    json.dumps(report.to_json(), default=str)  # the JSON report is serialisable
