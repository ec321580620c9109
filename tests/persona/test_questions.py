"""The question bank: splits, categories, answers, gold trees in the engine's step syntax, and gold trees
that reproduce the gold answers when the engine runs them with perfect retrieval and extraction."""

from __future__ import annotations

from collections import Counter
from datetime import date

import pytest

from app.persona.biography import PERSONA_IDS
from app.persona.questions import CATEGORIES, all_templates, compact_ids, expand_ids, is_empty, questions_for
from app.persona.splits import PERSONAS, persona_split, template_split, templates_in
from app.persona.trees import walk


@pytest.fixture(scope="module")
def dev_questions():
    return questions_for("p13")


def test_personas_split_twelve_two_six_without_overlap():
    assert {k: len(v) for k, v in PERSONAS.items()} == {"train": 12, "dev": 2, "test": 6}
    assert sorted(PERSONAS["train"] + PERSONAS["dev"] + PERSONAS["test"]) == sorted(PERSONA_IDS)
    assert persona_split("p13") == "dev" and persona_split("p20") == "test"


def test_templates_are_many_disjoint_and_cover_every_category_in_every_split():
    templates = all_templates()
    assert len(templates) >= 150
    splits = {s: set(templates_in(s)) for s in ("train", "dev", "test")}
    assert splits["train"] | splits["dev"] | splits["test"] == set(templates)
    assert not (splits["train"] & splits["dev"] or splits["train"] & splits["test"] or splits["dev"] & splits["test"])
    for split, ids in splits.items():
        cats = Counter(c for t in ids for c in templates[t].categories)
        assert all(cats[c] >= 2 for c in CATEGORIES), (split, cats)
    assert all(len(t.paraphrases) >= 2 for t in templates.values())
    assert sum(1 for t in templates.values() if len(t.categories) >= 2) / len(templates) > 0.6  # most in several
    assert template_split("count.songs.year") == template_split("count.songs.year")  # stable


def test_dev_questions_have_answers_evidence_and_one_split(dev_questions):
    assert len(dev_questions) >= 25
    for r in dev_questions:
        assert r["split"] == "dev" and template_split(r["template"]) == "dev"
        assert not is_empty(r["answer"]) and r["answer"] in r["answers"] or r["answers"][0] == r["answer"]
        assert r["evidence"] and r["reference_date"] == "2024-04-06"
        assert r["question"] in r["paraphrases"]
        assert r["tree"]["question"] == r["question"]
        assert set(CATEGORIES) >= set(r["categories"])


def test_gold_trees_are_steps_the_engine_parses(dev_questions):
    from app.engine.checking import validate_call
    from app.engine.syntax import parse_call
    from app.engine.tree import Node

    for r in dev_questions:
        for node in walk(r["tree"]):
            call = parse_call(node["step"])
            assert validate_call(call) == [], (r["id"], node["step"])
            assert [q.question for q in call.quds()] == [c["question"] for c in node["children"]], node["step"]
        assert Node.from_json(r["tree"]).problems() == []


def test_compact_evidence_round_trips():
    ids = ["p13-music_stream-00001", "p13-music_stream-00002", "p13-music_stream-00003", "p13-meeting-00007",
           "p13-meeting-00009", "p13-meeting-00012/2"]
    compact = compact_ids(ids)
    assert compact == ["p13-meeting-00007", "p13-meeting-00009", "p13-meeting-00012/2", "p13-music_stream-00001..00003"]
    assert sorted(expand_ids(compact)) == sorted(ids)


def test_gold_trees_reproduce_gold_answers_with_oracle_retrieval(dev_questions, imported, generated):
    """Run every dev question's gold tree with the engine on the imported store, RETRIEVE and EXTRACT
    replaced by oracles: the engine's answer must be the gold answer."""
    from bench.qa.metrics import hit_at_1
    from app.engine import Node, execute
    from app.persona.oracle import Oracle
    from app.store import EventStore

    with EventStore.open(imported[0], read_only=True) as store:
        oracle = Oracle(store, generated.timeline)
        wrong = []
        for r in dev_questions:
            retriever = oracle.retriever(r)
            answer = execute(Node.from_json(r["tree"]), store, date.fromisoformat(r["reference_date"]),
                             retriever=retriever, extractor=oracle.extractor())
            if not hit_at_1(answer.value, r["answers"]):
                wrong.append((r["id"], r["answer"], answer.value, answer.error))
    assert wrong == []
