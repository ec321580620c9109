"""What a tree that ran over nothing answers, and how every outcome is told apart by a typed status.

A count or a sum over no events is 0, a yes/no over none is "no", an arg-max over none has nothing to give; each
says which step lost the events. A cancel, the time limit and a failing step never read as "nothing found".
"""

from __future__ import annotations

import threading

from app.answer import AnswerStatus
from app.engine import Node, execute

from .conftest import REFERENCE


def T(question, step, *children):
    return Node.from_json({"question": question, "step": step, "children": [c.to_json() for c in children]})


def swims(filter_text='attr["workout_type"] == "swimming"', question="swims"):
    return T(question, f'FILTER(l=QUD("workouts with type"), filter=lambda attr: {filter_text})',
             T("workouts with type", 'EXTRACT(l=QUD("workouts"), attr_names=["workout_type"])',
               T("workouts", 'RETRIEVE(query="workout")')))


def test_a_count_over_events_none_of_which_match_is_zero_and_names_the_filter(life_store):
    answer = execute(T("how often did I swim?", 'APPLY(l=QUD("swims"), fct=len)', swims()), life_store, REFERENCE)
    assert (answer.value, answer.status, answer.error, answer.evidence_ids) == (0, AnswerStatus.ANSWERED, None, ())
    workouts = len(next(n for n in answer.tree.walk() if n.operator == "RETRIEVE").event_ids)
    assert workouts == 5
    assert answer.text == (f"0 swims. {workouts} events were found for “workouts with type”; "
                           "none of them passed the filter for “swims”.")


def test_a_count_over_a_retrieve_that_found_nothing_names_the_query(life_store):
    tree = T("how many cooking classes?", 'APPLY(l=QUD("cooking classes"), fct=len)',
             T("cooking classes", 'RETRIEVE(query="zzyzx cooking class")'))
    answer = execute(tree, life_store, REFERENCE)
    assert (answer.value, answer.status) == (0, AnswerStatus.ANSWERED)
    assert answer.text == "0 cooking classes. No events matched “cooking classes”."


def test_a_sum_over_nothing_is_zero(life_store):
    tree = T("how far did I swim?", 'SUM(l=QUD("swims with distance"), attr_name="distance_km")',
             T("swims with distance", 'EXTRACT(l=QUD("swims"), attr_names=["distance_km"])', swims()))
    answer = execute(tree, life_store, REFERENCE)
    assert (answer.value, answer.status, answer.error) == (0, AnswerStatus.ANSWERED, None)
    assert answer.text.startswith("In total 0 km for swims. ") and "passed the filter for “swims”" in answer.text


def test_an_arg_max_over_nothing_has_no_value_and_says_so(life_store):
    tree = T("longest swim?", 'ARGMAX(l=QUD("swims with duration"), arg_attr_name="duration_s", val_attr_name="start_date")',
             T("swims with duration", 'EXTRACT(l=QUD("swims"), attr_names=["duration_s", "start_date"])', swims()))
    answer = execute(tree, life_store, REFERENCE)
    assert (answer.value, answer.status, answer.error) == (None, AnswerStatus.NONE_FOUND, None)
    assert answer.text.startswith("None: there was nothing to take it from. ")
    assert answer.status.ran


def test_a_yes_no_question_answers_yes_or_no(life_store):
    def asked(filter_text):
        tree = T("did I go swimming?", 'APPLY(l=QUD("swims"), fct=lambda l: len(l) > 0)', swims(filter_text))
        return execute(tree, life_store, REFERENCE)

    no = asked('attr["workout_type"] == "swimming"')
    assert (no.value, no.status, no.text.split(".")[0]) == ("no", AnswerStatus.ANSWERED, "No")
    yes = asked('attr["workout_type"] == "soccer"')
    assert (yes.value, yes.status, yes.text) == ("yes", AnswerStatus.ANSWERED, "Yes (from 2 events).")


def test_a_comparison_of_two_counts_answers_yes_or_no(life_store):
    tree = T("did I run more often than I played soccer?",
             'APPLY(l=QUD("runs"), fct=lambda l: len(l) > len(QUD("soccer games")))',
             swims('attr["workout_type"] == "running"', "runs"), swims('attr["workout_type"] == "soccer"', "soccer games"))
    answer = execute(tree, life_store, REFERENCE)
    assert (answer.value, answer.error) == ("yes", None)  # three runs, two soccer games


def test_a_failing_step_is_a_failure_not_nothing_found(life_store):
    tree = T("how often?", 'APPLY(l=QUD("swims"), fct=len)',
             T("swims", 'FILTER(l=QUD("workouts"), filter=lambda attr: attr["no_such_key"] > 3)',
               T("workouts", 'RETRIEVE(query="workout")')))
    answer = execute(tree, life_store, REFERENCE)
    assert answer.status is AnswerStatus.FAILED and answer.value is None and not answer.status.ran
    assert answer.error and "FILTER" in answer.error


def test_the_time_limit_is_its_own_status(life_store):
    answer = execute(T("how often?", 'APPLY(l=QUD("swims"), fct=len)', swims()), life_store, REFERENCE, time_limit=0.0)
    assert (answer.status, answer.value) == (AnswerStatus.TIMED_OUT, None)
    assert answer.text.startswith("The question ran past its time limit")


def test_a_cancel_is_its_own_status(life_store):
    cancel = threading.Event()
    cancel.set()
    answer = execute(T("how often?", 'APPLY(l=QUD("swims"), fct=len)', swims()), life_store, REFERENCE, cancel=cancel)
    assert (answer.status, answer.value, answer.error) == (AnswerStatus.CANCELLED, None, "cancelled")


def test_a_status_survives_json_and_old_answers_get_one(life_store):
    from app.answer import Answer

    answer = execute(T("how often did I swim?", 'APPLY(l=QUD("swims"), fct=len)', swims()), life_store, REFERENCE)
    assert Answer.from_json(answer.to_json()).status is AnswerStatus.ANSWERED
    old = {k: v for k, v in answer.to_json().items() if k != "status"}
    assert Answer.from_json({**old, "error": "cancelled"}).status is AnswerStatus.CANCELLED
    assert Answer.from_json({**old, "error": "FILTER failed"}).status is AnswerStatus.FAILED
