"""app/qud/frames.py: a yes/no question about whether something happened is a count tested for at least one."""

from __future__ import annotations

import pytest

from app.answer import AnswerStatus
from app.engine.syntax import FuncRef, Lambda, parse_call
from app.engine.tree import Node
from app.qud.frames import as_yes_no, count_question
from app.qud.pipeline import ask
from app.store import EventStore
from models.llm import FakeLLM

from .test_pipeline import TODAY, store_path  # noqa: F401  (the fixture: three hikes and a run in April 2024)


@pytest.mark.parametrize("question, count", [
    ("Did I go hiking in 2023?", "How many times did I go hiking in 2023?"),
    ("have i ever been to Lisbon", "How many times have i ever been to Lisbon"),
    ("Was I at the dentist in May?", "How many times was I at the dentist in May?"),
    ("do we ever order pizza on fridays?", "How many times do we ever order pizza on fridays?"),
])
def test_a_question_about_whether_something_happened_asks_for_its_count(question, count):
    assert count_question(question) == count


@pytest.mark.parametrize("question", [
    "How often did I hike?", "Did I run more in 2022 than in 2023?", "Did I listen to Air or Beck more?",
    "Which artist did I listen to most?", "did I?", "Have I spent less on Amazon this year?",
])
def test_other_questions_are_not_yes_no_counts(question):
    assert count_question(question) is None


def test_the_root_count_becomes_a_test_of_at_least_one_and_nothing_else_changes():
    child = Node("my hikes", parse_call('RETRIEVE(query="I went hiking")'))
    count = Node("How many times did I hike?", parse_call('APPLY(l=QUD("my hikes"), fct=len)'), (child,))
    framed = as_yes_no(count, "Did I hike?")
    assert framed.question == "Did I hike?" and framed.children == (child,)
    assert framed.call.get("fct") == Lambda("lambda l: len(l) > 0") and framed.call.get("l") == count.call.get("l")
    total = Node("q", parse_call('SUM(l=QUD("my hikes"), attr_name="distance_km")'), (child,))
    assert as_yes_no(total, "Did I hike?") is None
    assert count.call.get("fct") == FuncRef("len")  # the count tree is not changed


def test_a_yes_no_question_is_answered_yes_or_no_through_the_count_tree(store_path):  # noqa: F811
    with EventStore.open(store_path, read_only=True) as store:
        yes = ask("Did I go hiking?", store, TODAY, llm=FakeLLM(
            [' APPLY(l=QUD("my hikes"), fct=len)', ' RETRIEVE(query="I went hiking")']))
        no = ask("Did I go swimming?", store, TODAY, llm=FakeLLM(
            [' APPLY(l=QUD("my swims"), fct=len)', ' RETRIEVE(query="I went swimming")']))
    assert (yes.value, yes.status, yes.tree.step) == ("yes", AnswerStatus.ANSWERED, "APPLY(l=QUD(\"my hikes\"), fct=lambda l: len(l) > 0)")
    assert len(yes.evidence_ids) == 3 and yes.tree.question == "Did I go hiking?"
    assert (no.value, no.status) == ("no", AnswerStatus.ANSWERED)
    assert no.text == "No. No events matched “my swims”."


def test_the_frame_can_be_switched_off(store_path, monkeypatch):  # noqa: F811
    monkeypatch.setenv("LIFELENS_QUD_RULES_OFF", "yes_no_frame")
    with EventStore.open(store_path, read_only=True) as store:
        answer = ask("Did I go hiking?", store, TODAY, llm=FakeLLM(
            [' APPLY(l=QUD("my hikes"), fct=len)', ' RETRIEVE(query="I went hiking")']))
    assert answer.value == 3  # the model's own tree, as written
