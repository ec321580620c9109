"""models.train.qud_wording: new QUD training records (wordings, yes/no, comparisons, zero answers) whose trees
run to their gold answers, built from train personas and train templates only."""

from __future__ import annotations

import copy
from datetime import date

import pytest

from app.engine import Node, execute
from app.engine.values import Item
from app.persona.splits import PERSONAS, template_split
from models.train import qud_wording as w
from tests.engine.conftest import REFERENCE, at, build_store, workout

WT = {"wt": "running", "wt_query": "I went running", "wt_verb": "go running", "wt_noun": "runs", "wt_one": "run",
      "wt_dist_verb": "run", "wt_gerund": "running"}


def run_count_record(year: int, answer: int, n: int) -> dict:
    """A record of the train template count.wtype.year with its gold tree, as the question bank writes it."""
    retrieve = {"question": "I went running", "step": 'RETRIEVE(query="I went running")', "children": []}
    extract = {"question": "I went running with date",
               "step": 'EXTRACT(l=QUD("I went running"), attr_names=["start_datetime"], attr_types=[datetime.fromtimestamp])',
               "children": [retrieve]}
    flt = {"question": f"I went running in {year}",
           "step": f'FILTER(l=QUD("I went running with date"), filter=lambda attr: attr["start_datetime"].year == {year})',
           "children": [extract]}
    question = f"How many times did I go running in {year}?"
    tree = {"question": question, "step": f'APPLY(l=QUD("I went running in {year}"), fct=len)', "children": [flt]}
    return {"id": f"p01:count.wtype.year:{n}", "persona": "p01", "split": "train", "template": "count.wtype.year",
            "question": question, "paraphrases": [question, f"How often did I go running during {year}?"],
            "reference_date": REFERENCE.isoformat(), "answer": answer, "answers": [answer], "answer_type": "number",
            "evidence": [], "retrieve": {"I went running": []}, "tree": tree, "slots": {**WT, "year": year}}


class Runs:
    """RETRIEVE("I went running") -> the store's running workouts (a perfect retriever for this small store)."""

    def retrieve(self, query, store, reference_date):
        assert query == "I went running"
        return [Item.from_event(e) for e in store.events() if (e.data or {}).get("workout_type") == "running"]


@pytest.fixture()
def run_store(tmp_path):
    """Three runs in 2023, one in 2022, a swim in 2023, nothing before 2022."""
    runs = [workout(start, 40, "running", "HKWorkoutActivityTypeRunning", 6.0)
            for start in (at(2023, 3, 1, 7), at(2023, 6, 5, 7), at(2023, 9, 9, 18), at(2022, 5, 1, 8))]
    store = build_store(tmp_path / "events.sqlite", [*runs, workout(at(2023, 7, 7, 9), 30, "swimming",
                                                                      "HKWorkoutActivityTypeSwimming", 1.0)])
    yield store
    store.close()


def value_of(record: dict, store) -> object:
    answer = execute(Node.from_json(record["tree"]), store, REFERENCE, retriever=Runs())
    assert answer.error is None, answer.error
    return answer.value


def test_yes_no_trees_answer_yes_for_a_count_above_zero_and_no_for_a_zero(run_store):
    from bench.qa.metrics import hit_at_1

    y2023 = run_count_record(2023, 3, 0)
    zeros = w.zero_records([y2023], texts_of=lambda pid: "", years_of=lambda pid: {2022, 2023})
    assert [z["slots"]["year"] for z in zeros] == [zeros[0]["slots"]["year"]] and zeros[0]["slots"]["year"] < 2022
    assert value_of(zeros[0], run_store) == 0 and zeros[0]["answer"] == 0
    yes, no = w.yesno_records([y2023, *zeros])
    assert yes["answer"] == "yes" and no["answer"] == "no"
    for record in (yes, no):
        assert record["tree"]["step"].startswith('APPLY(l=QUD("I went running in ')
        assert record["tree"]["step"].endswith("fct=lambda l: len(l) > 0)")
        assert Node.from_json(record["tree"]).problems() == []
        assert hit_at_1(value_of(record, run_store), record["answers"]) == 1.0
    assert (value_of(yes, run_store), value_of(no, run_store)) == ("yes", "no")
    assert all(q.lower().startswith(("did i", "in 2", "quick check")) for q in [yes["question"], *yes["paraphrases"]])


def test_comparisons_of_two_years_answer_from_the_two_gold_counts(run_store):
    from bench.qa.metrics import hit_at_1

    records = w.compare_records([run_count_record(2023, 3, 0), run_count_record(2022, 1, 1)])
    assert len(records) == 3
    answers = sorted(str(r["answer"]) for r in records)
    assert answers == ["2023", "no", "yes"]
    for record in records:
        tree = Node.from_json(record["tree"])
        assert tree.problems() == []
        assert [c.question for c in tree.children] == [q.question for q in tree.call.quds()]
        assert hit_at_1(value_of(record, run_store), record["answers"]) == 1.0
    # a tie says nothing about "more": no comparison
    assert w.compare_records([run_count_record(2023, 3, 0), run_count_record(2021, 3, 1)]) == []


@pytest.fixture(scope="module")
def p01_records():
    from app.persona.questions import questions_for

    return questions_for("p01", split="train")


def test_wordings_keep_the_gold_tree_and_only_use_train_personas_and_templates(p01_records):
    made = w.generate(p01_records)
    kinds = {r["kind"] for r in made}
    assert kinds == set(w.KINDS)
    assert {r["persona"] for r in made} <= set(PERSONAS["train"])
    assert all(template_split(r["template"]) == "train" for r in made)
    by_id = {r["id"]: r for r in p01_records}
    wordings = [r for r in made if r["kind"] == "wording"]
    assert len(wordings) > 100
    for record in wordings:
        source = by_id[record["id"].removesuffix("+wording")]
        assert dict(record["tree"], question="") == dict(source["tree"], question="")
        assert record["answers"] == source["answers"]
        assert record["question"] not in [source["question"], *source["paraphrases"]]
        assert "{" not in record["question"] and all("{" not in p for p in record["paraphrases"])


def test_a_dev_or_test_persona_is_refused(p01_records):
    dev = copy.deepcopy(p01_records[0])
    dev["persona"] = PERSONAS["dev"][0]
    with pytest.raises(ValueError, match="train"):
        w.generate([*p01_records[:3], dev])


def test_every_train_template_has_at_least_six_patterns():
    from app.persona.splits import templates_in

    train = set(templates_in("train"))
    assert set(w.PATTERNS) <= train
    assert all(len(set(w.PATTERNS[t])) >= 6 for t in train)
    assert len({p for ps in w.PATTERNS.values() for p in ps}) >= 600


def test_the_check_rejects_a_record_whose_gold_answer_is_wrong(p01_records):
    picked = [r for r in w.yesno_records(p01_records) if r["template"] == "count.doctor.year"][:1]
    picked += [r for r in w.zero_records(p01_records) if r["template"] == "count.haircut.year"][:1]
    assert len(picked) == 2
    wrong = dict(picked[0], answer="no", answers=["no"])
    kept, rejected = w.check_records([*picked, wrong], say=lambda text: None)
    assert [r["id"] for r in kept] == [r["id"] for r in picked]
    assert len(rejected) == 1 and "gold ['no']" in rejected[0]["check"]


def test_a_song_comparison_needs_both_songs_named():
    # p03 has track records whose slots lack the track; they once gave "did i listen to None by SZA more ..."
    from app.persona.questions import questions_for

    made = w.compare_records(questions_for("p03", split="train"))
    texts = [t for r in made for t in [r["question"], *r["paraphrases"]]]
    assert any(" by Bonobo" in t for t in texts)
    assert not [t for t in texts if "None" in t]
