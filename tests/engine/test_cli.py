"""`lifelens run-tree` on the test store."""

from __future__ import annotations

import json

import pytest

from app.cli import main

from .test_end_to_end import ICL1_DAY_WITH_MOST_MUSIC, ICL2_BOTH_PARENTS_EVENING


def test_run_tree_prints_answer_tree_and_evidence(life_store, tmp_path, capsys):
    tree_file = tmp_path / "tree.json"
    tree_file.write_text(json.dumps(ICL1_DAY_WITH_MOST_MUSIC), encoding="utf-8")
    rc = main(["--db", str(life_store.path), "run-tree", str(tree_file), "--reference-date", "2024-05-01"])
    out = capsys.readouterr().out.splitlines()
    assert rc == 0
    assert out[0] == "Question: On which day did I listen to music the most?"
    assert out[1] == ("Answer:   The day with the most instances you listened to music was 2024-03-03 (5), then "
                      "2024-03-01 (4) and 2024-03-02 (3).")
    assert out[2] == 'Value:    "2024-03-03"'
    assert out[3] == "Tree:"
    assert [line.split()[:3] for line in out[4:9]] == [
        ["ARGMAX", "1", "row"], ["MAP", "3", "rows"], ["GROUP_BY", "3", "rows"], ["EXTRACT", "12", "rows"], ["RETRIEVE", "12", "rows"],
    ]
    assert out[4].endswith('ARGMAX(l=QUD("number of songs I listened per day?"), arg_attr_name="num_songs", val_attr_name="start_date")')
    assert out[9].startswith("Evidence (5 events): ") and len(out[9].split(": ")[1].split()) == 5
    assert out[10].startswith("Timings:  plan ")


def test_run_tree_json_and_inline(life_store, capsys):
    rc = main(["--db", str(life_store.path), "run-tree", json.dumps(ICL2_BOTH_PARENTS_EVENING), "--json",
               "--reference-date", "2024-05-01", "--with-events"])
    data = json.loads(capsys.readouterr().out)
    assert rc == 0
    assert set(data) == {"question", "answer", "answer_text", "status", "tree", "evidence", "timings", "error"}
    assert (data["answer"], data["error"], data["status"]) == (2, None, "answered")
    assert sorted(e["title"] for e in data["evidence"]) == ["Call with Dad", "Dinner with Mum", "Drinks with Dad", "Theatre with Mum"]
    assert data["tree"]["operator"] == "APPLY" and data["tree"]["children"][0]["operator"] == "FILTER"


def test_run_tree_reports_bad_input(life_store, tmp_path, capsys):
    rc = main(["--db", str(life_store.path), "run-tree", '{"question": "q", "step": "FILTER("}'])
    assert rc == 2
    assert "root.step: not an operator call" in capsys.readouterr().err
    rc = main(["--db", str(life_store.path), "run-tree", str(tmp_path / "missing.json")])
    assert rc == 2
    assert "cannot read" in capsys.readouterr().err
    rc = main(["--db", str(life_store.path), "run-tree", json.dumps(ICL1_DAY_WITH_MOST_MUSIC), "--reference-date", "May 1"])
    assert rc == 2


def test_run_tree_failing_node_exits_1(life_store, capsys):
    tree = {"question": "q", "step": 'SUM(l=QUD("songs"), attr_name="price")',
            "children": [{"question": "songs", "step": 'RETRIEVE(query="songs")', "children": []}]}
    rc = main(["--db", str(life_store.path), "run-tree", json.dumps(tree), "--reference-date", "2024-05-01"])
    out = capsys.readouterr().out
    assert rc == 1
    assert "Error:    SUM (“q”) failed: no item has a value for 'price' (12 items); EXTRACT or MAP it first" in out
    assert "  x no item has a value for 'price'" in out


def test_run_tree_on_a_very_deep_tree_or_json_is_a_clear_error(life_store, tmp_path, capsys):
    """Issue 20: a 2,000-deep operator tree and 100,000-deep JSON ended in RecursionError."""
    leaf = json.dumps({"question": "songs", "step": 'RETRIEVE(query="songs")', "children": []})
    node = json.dumps({"question": "q", "step": 'APPLY(l=QUD("q"), fct=len)', "children": ["CHILD"]})
    before, after = node.split('"CHILD"')
    (tmp_path / "deep.json").write_text(before * 2000 + leaf + after * 2000, encoding="utf-8")
    assert main(["--db", str(life_store.path), "run-tree", str(tmp_path / "deep.json")]) == 2
    err = capsys.readouterr().err
    assert "JSON nested 4002 levels deep; a tree may be at most 64 nodes deep" in err and "Recursion" not in err
    assert main(["--db", str(life_store.path), "run-tree", "{" + '"a":[' * 100_000]) == 2
    assert "a tree may be at most 64 nodes deep" in capsys.readouterr().err
    (tmp_path / "latin1.json").write_bytes('{"question": "Caf\xe9"}'.encode("latin-1"))
    assert main(["--db", str(life_store.path), "run-tree", str(tmp_path / "latin1.json")]) == 2
    assert "is not UTF-8 text" in capsys.readouterr().err


def test_a_tree_just_within_the_depth_limit_is_read():
    from app.engine.tree import MAX_TREE_DEPTH, Node, TreeError

    def chain(depth):
        tree = {"question": "songs", "step": 'RETRIEVE(query="songs")', "children": []}
        for _ in range(depth - 1):
            tree = {"question": "q", "step": 'APPLY(l=QUD("songs"), fct=len)', "children": [tree]}
        return tree

    assert len(list(Node.from_json(json.dumps(chain(MAX_TREE_DEPTH))).walk())) == MAX_TREE_DEPTH
    with pytest.raises(TreeError, match="deeper than 64 nodes"):
        Node.from_json(chain(MAX_TREE_DEPTH + 1))
