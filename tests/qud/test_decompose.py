"""Recursive decomposition with a scripted model: tree building, retries, limits, the one-shot variant."""

from __future__ import annotations

import re
from datetime import date

import pytest

from app.engine.signatures import SIGNATURES
from app.engine.tree import Node
from app.qud.decompose import Cancelled, DecompositionError, QudConfig, Trace, decompose, decompose_one_shot
from app.qud.grammar import grounded_phrases, grounded_values, step_grammar, tree_grammar
from app.qud.occasions import activity_records
from tests.fakes import FakeLLM

TODAY = date(2024, 5, 1)
_INPUT = re.compile(r'Input: QUD\("([^"]*)"\)(?:\nNeeds: [^\n]*)?\nOutput:$')


def by_input(script: dict[str, list[str]]) -> FakeLLM:
    """A fake model that answers the prompt's current input from `script` (one entry per call, in order)."""

    def answer(prompt: str) -> str:
        question = _INPUT.search(prompt).group(1)
        outputs = script[question]
        return outputs.pop(0) if len(outputs) > 1 else outputs[0]

    return FakeLLM(answer)


HIKE = {
    "How far was my longest hike?": [' MAX(l=QUD("my hikes with distance"), attr_name="distance_km")'],
    "my hikes with distance": [' EXTRACT(l=QUD("my hikes"), attr_names=["distance_km"])'],
    "my hikes": [' RETRIEVE(query="I went hiking")'],
}


def test_builds_the_tree_step_by_step():
    llm = by_input({k: list(v) for k, v in HIKE.items()})
    trace = Trace()
    tree = decompose("How far was my longest hike?", TODAY, llm, trace=trace)
    # as the model wrote it, with the workouts of the search kept (rule activity_records, tested on its own)
    assert tree.to_json() == activity_records(Node.from_json({
        "question": "How far was my longest hike?",
        "step": 'MAX(l=QUD("my hikes with distance"), attr_name="distance_km")',
        "children": [{
            "question": "my hikes with distance",
            "step": 'EXTRACT(l=QUD("my hikes"), attr_names=["distance_km"], attr_types=[float])',
            "children": [{"question": "my hikes", "step": 'RETRIEVE(query="I went hiking")', "children": []}],
        }],
    })).to_json()
    # "longest", asked without which/what/who, narrows the first step to MAX; a step that must carry distance_km
    # cannot RETRIEVE (the strings and numbers of lambdas come from the questions)
    not_max = tuple(op for op in SIGNATURES if op != "MAX")
    root = "How far was my longest hike?"
    assert [(c[1], c[2]) for c in llm.calls] == [
        (step_grammar(not_max, grounded_values(root), grounded_phrases(root)), 0.0),
        (step_grammar(tuple(op for op in SIGNATURES if op not in ("EXTRACT", "JOIN", "FILTER", "UNNEST", "MAP")),
                      grounded_values(root), grounded_phrases(root)), 0.0),   # "... with ...": no aggregate
        (step_grammar((), grounded_values(root), grounded_phrases(root)), 0.0),
    ]
    assert trace.calls == 3 and trace.rejected == 0
    assert [s.depth for s in trace.steps] == [0, 1, 2]
    # the decoder may not repeat the question or one above it as a sub-question
    assert llm.forbidden[1] == (
        'QUD("How far was my longest hike?")', 'QUD("my hikes with distance")', 'QUD("my hikes with distance ')


def test_prompt_has_eight_examples_the_path_and_needs():
    llm = by_input({k: list(v) for k, v in HIKE.items()})
    decompose("How far was my longest hike?", TODAY, llm)
    prompt = llm.calls[1][0]
    assert prompt.count("\nOutput: ") == 8  # eight examples, each with its step
    assert prompt.endswith(
        'Above: MAX(l=QUD("my hikes with distance"), attr_name="distance_km")\n'
        'Input: QUD("my hikes with distance")\nNeeds: distance_km\nOutput:'
    )
    root_prompt = llm.calls[0][0]
    assert root_prompt.endswith('\n\nInput: QUD("How far was my longest hike?")\nOutput:')
    # the most similar example is the last one before the question
    last_example = root_prompt.split("\n\n")[-2]
    assert last_example.startswith('Input: QUD("How far was my longest run?")')


def test_an_invalid_step_is_retried_at_a_higher_temperature():
    script = {k: list(v) for k, v in HIKE.items()}
    script["my hikes with distance"] = [
        ' APPLY(l=QUD("my hikes"), fct=len)',                        # cannot carry distance_km
        ' EXTRACT(l=QUD("my hikes", attr_names=["distance_km"])',      # does not parse
        ' EXTRACT(l=QUD("my hikes"), attr_names=["distance_km"])',
    ]
    llm = by_input(script)
    trace = Trace()
    tree = decompose("How far was my longest hike?", TODAY, llm, trace=trace)
    assert [n.operator for n in tree.walk()] == ["MAX", "EXTRACT", "FILTER", "RETRIEVE"]
    assert [c[2] for c in llm.calls] == [0.0, 0.0, 0.7, 1.0, 0.0]
    assert "step ::= max\n" in llm.calls[0][1]
    assert trace.rejected == 2
    assert trace.steps[1].problems == ["APPLY gives one value, but attributes distance_km are needed above"]
    assert trace.steps[2].problems[0].startswith("syntax: not an operator call")


def test_a_retrieve_that_must_carry_attributes_becomes_extract_over_it():
    script = {k: list(v) for k, v in HIKE.items()}
    script["my hikes with distance"] = [' RETRIEVE(query="I went hiking")']  # distance_km is needed above
    llm = by_input(script)
    trace = Trace()
    tree = decompose("How far was my longest hike?", TODAY, llm, trace=trace)
    # the validator's remedy is applied without another model call
    assert tree.to_json()["children"] == [activity_records(Node.from_json({
        "question": "my hikes with distance",
        "step": 'EXTRACT(l=QUD("I went hiking"), attr_names=["distance_km"], attr_types=[float])',
        "children": [{"question": "I went hiking", "step": 'RETRIEVE(query="I went hiking")', "children": []}],
    })).to_json()]
    assert trace.calls == 2 and trace.rejected == 1
    assert trace.steps[1].problems == ["RETRIEVE gives only fixed columns, but distance_km is needed above (EXTRACT it)"]


def test_an_extract_that_leaves_needed_attributes_below_it_extracts_them_too(monkeypatch):
    monkeypatch.setenv("LIFELENS_QUD_RULES_ON", "widen_extract")   # off by default
    script = {
        "Which workout had my highest heart rate in 2020?": [
            ' ARGMAX(l=QUD("my workouts in 2020"), arg_attr_name="heart_rate_max", val_attr_name="workout_type")'],
        "my workouts in 2020": [' FILTER(l=QUD("my workouts with date"), filter=lambda attr: attr["start_datetime"].year == 2020)'],
        # workout_type is needed above, but this step extracts only heart_rate_max
        "my workouts with date": [' EXTRACT(l=QUD("my workouts"), attr_names=["heart_rate_max"])'],
        "my workouts": [' RETRIEVE(query="I did a workout")'],
    }
    llm = by_input(script)
    trace = Trace()
    tree = decompose("Which workout had my highest heart rate in 2020?", TODAY, llm, trace=trace)
    steps = [n.step for n in tree.walk()]
    assert steps[2] == ('EXTRACT(l=QUD("my workouts"), attr_names=["heart_rate_max", "workout_type"], '
                        'attr_types=[float, str])')
    assert steps[3] == 'RETRIEVE(query="I did a workout")'  # allowed: nothing is needed below the EXTRACT
    assert trace.calls == 4 and trace.rejected == 0


def test_a_retrieve_with_other_problems_is_not_patched(monkeypatch):
    monkeypatch.setenv("LIFELENS_QUD_RULES_ON", "new_topic")   # off by default
    script = {k: list(v) for k, v in HIKE.items()}
    # needs distance_km AND brings in a topic the question never mentions: retried, not patched
    script["my hikes with distance"] = [
        ' RETRIEVE(query="I went swimming")',
        ' EXTRACT(l=QUD("my hikes"), attr_names=["distance_km"])',
    ]
    llm = by_input(script)
    trace = Trace()
    tree = decompose("How far was my longest hike?", TODAY, llm, trace=trace)
    assert [n.step for n in tree.walk()][1] == 'EXTRACT(l=QUD("my hikes"), attr_names=["distance_km"], attr_types=[float])'
    problems = trace.steps[1].problems
    assert [p.split(" ")[:3] for p in problems] == [["'I", "went", "swimming'"], ["RETRIEVE", "gives", "only"]]


def test_a_failing_sub_question_sends_the_step_above_back():
    script = {
        "How often did I hike?": [
            ' APPLY(l=QUD("my hikes with count"), fct=len)',
            ' APPLY(l=QUD("my hikes"), fct=len)',
        ],
        "my hikes with count": [' APPLY(l=QUD("How often did I hike?"), fct=len)'],  # repeats the question above
        "my hikes": [' RETRIEVE(query="I went hiking")'],
    }
    llm = by_input(script)
    trace = Trace()
    tree = decompose("How often did I hike?", TODAY, llm, trace=trace)
    assert tree.step == 'APPLY(l=QUD("my hikes"), fct=len)'
    assert [s.question for s in trace.steps] == [
        "How often did I hike?", "my hikes with count", "my hikes with count", "my hikes with count",
        "How often did I hike?", "my hikes"]
    assert trace.steps[1].problems == ["sub-question 'How often did I hike?' repeats a question above it"]


def test_a_repeated_sub_question_ends_with_a_clear_message():
    llm = by_input({
        "How often did I run?": [' APPLY(l=QUD("my runs"), fct=len)'],
        "my runs": [' FILTER(l=QUD("my runs"), filter=lambda attr: attr["year"] == 2023)'],
    })
    with pytest.raises(DecompositionError) as info:
        decompose("How often did I run?", TODAY, llm)
    message = str(info.value)
    assert message.startswith("could not decompose 'How often did I run?' into a valid operator tree after 12 model calls")
    assert "sub-question 'my runs' repeats a question above it" in message
    assert info.value.trace.calls == 12


def test_the_depth_limit_stops_with_a_clear_message():
    def deeper(prompt: str) -> str:
        question = _INPUT.search(prompt).group(1)
        level = int(question.split()[-1]) if question.startswith("level") else 0
        return f' FILTER(l=QUD("level {level + 1}"), filter=lambda attr: attr["year"] > 2000)'

    llm = FakeLLM(deeper)
    with pytest.raises(DecompositionError) as info:
        decompose("How often?", TODAY, llm, config=QudConfig(max_depth=3, temperatures=(0.0,)))
    assert "depth limit: a step at depth 3 would exceed the limit of 3 levels" in str(info.value)
    # at the last level only RETRIEVE is offered to the model
    last_grammar = llm.calls[-1][1]
    assert "step ::= retrieve\n" in last_grammar


def test_the_call_budget_ends_the_search():
    llm = FakeLLM(lambda prompt: " nonsense")
    with pytest.raises(DecompositionError, match=r"gave up after 5 model calls \(limit 5\)"):
        decompose("How often did I run?", TODAY, llm, config=QudConfig(max_calls=5, temperatures=(0.0,) * 10))


def test_cancel_stops_between_model_calls():
    llm = by_input({k: list(v) for k, v in HIKE.items()})
    asked = []

    def cancel() -> bool:
        asked.append(1)
        return len(asked) > 1

    with pytest.raises(Cancelled):
        decompose("How far was my longest hike?", TODAY, llm, cancel=cancel)
    assert len(llm.calls) == 1


def test_cue_words_narrow_the_first_attempts_only():
    llm = FakeLLM(lambda prompt: " nonsense")
    with pytest.raises(DecompositionError):
        decompose("Which artist did I listen to most?", TODAY, llm)
    assert ["step ::= argmax\n" in grammar for _, grammar, _ in llm.calls[:3]] == [True, True, False]
    assert "step ::= retrieve | extract | join" in llm.calls[2][1]
    llm = FakeLLM(lambda prompt: " nonsense")
    with pytest.raises(DecompositionError):
        decompose("Which artist did I listen to most?", TODAY, llm, config=QudConfig(cues=False))
    assert all("step ::= retrieve | extract | join" in grammar for _, grammar, _ in llm.calls)


def test_empty_question():
    with pytest.raises(DecompositionError, match="the question is empty"):
        decompose("   ", TODAY, FakeLLM([]))


def test_one_shot_builds_the_whole_tree_from_one_generation():
    text = (
        ' MAX(l=QUD("my hikes with distance"), attr_name="distance_km")\n'
        'Input: QUD("my hikes with distance")\nOutput: EXTRACT(l=QUD("my hikes"), attr_names=["distance_km"])\n'
        'Input: QUD("my hikes")\nOutput: RETRIEVE(query="I went hiking")\n'
    )
    llm = FakeLLM([text])
    tree = decompose_one_shot("How far was my longest hike?", TODAY, llm)
    assert tree.render() == (
        'MAX(l=QUD("my hikes with distance"), attr_name="distance_km")\n'
        '  EXTRACT(l=QUD("my hikes"), attr_names=["distance_km"], attr_types=[float])\n'
        '    RETRIEVE(query="I went hiking")'
    )
    prompt, grammar, _ = llm.calls[0]
    root = "How far was my longest hike?"
    assert grammar == tree_grammar(12, grounded_values(root), grounded_phrases(root))
    assert prompt.count("\nEND\n") == 8
    assert prompt.endswith('Question: How far was my longest hike?\nInput: QUD("How far was my longest hike?")\nOutput:')


def test_one_shot_incomplete_or_invalid_trees_are_errors():
    incomplete = ' MAX(l=QUD("my hikes with distance"), attr_name="distance_km")\n'
    with pytest.raises(DecompositionError, match="not a complete tree: no step for sub-question 'my hikes with distance'"):
        decompose_one_shot("How far was my longest hike?", TODAY, FakeLLM([incomplete]))
    underived = ' MAX(l=QUD("my hikes"), attr_name="distance_km")\nInput: QUD("my hikes")\nOutput: RETRIEVE(query="hikes")\n'
    with pytest.raises(DecompositionError, match="attribute 'distance_km' is not derivable"):
        decompose_one_shot("How far was my longest hike?", TODAY, FakeLLM([underived]))


def test_an_operator_that_led_nowhere_is_not_offered_again():
    def answer(prompt: str) -> str:
        question = _INPUT.search(prompt).group(1)
        if question == "How far was my longest hike?":
            return ' MAX(l=QUD("my hikes with distance"), attr_name="distance_km")'
        if question == "my hikes":
            return ' RETRIEVE(query="I went hiking")'
        grammar = llm.calls[-1][1]
        if "| unnest" in grammar.split("step ::= ")[1].split("\n")[0]:  # copies the input as its own input
            return ' UNNEST(l=QUD("my hikes with distance"), nested_attr_name="labels", unnested_attr_name="label")'
        return ' EXTRACT(l=QUD("my hikes"), attr_names=["distance_km"])'

    llm = FakeLLM(answer)
    trace = Trace()
    tree = decompose("How far was my longest hike?", TODAY, llm, trace=trace)
    assert [n.operator for n in tree.walk()] == ["MAX", "EXTRACT", "FILTER", "RETRIEVE"]
    assert trace.steps[1].problems == ["sub-question 'my hikes with distance' repeats a question above it"]
    assert "| unnest" not in llm.calls[2][1].split("step ::= ")[1].split("\n")[0]


def test_a_sub_question_about_another_topic_is_rejected(monkeypatch):
    monkeypatch.setenv("LIFELENS_QUD_RULES_ON", "new_topic")   # off by default
    llm = by_input({
        "How many times did I go swimming?": [' APPLY(l=QUD("my runs"), fct=len)', ' APPLY(l=QUD("my swims"), fct=len)'],
        "my swims": [' RETRIEVE(query="I went swimming")'],
    })
    trace = Trace()
    tree = decompose("How many times did I go swimming?", TODAY, llm, trace=trace)
    assert tree.step == 'APPLY(l=QUD("my swims"), fct=len)'
    assert trace.steps[0].problems == ["'my runs' brings in runs, which the question does not mention"]


KEEP_SPECIFICS = QudConfig(keep_specifics=True)   # the drops_specific guard is off by default (QudConfig)


def test_a_step_that_drops_a_specific_is_retried_and_accepted_on_the_last_try():
    question = "What did I spend online in November 2022?"
    year_only = (' SUM(l=QUD("my purchases in 2022 with total"), attr_name="total")')
    script = {
        question: [year_only, ' SUM(l=QUD("my purchases in November 2022 with total"), attr_name="total")'],
        "my purchases in November 2022 with total": [
            ' FILTER(l=QUD("my purchases with total"), filter=lambda attr: attr["start_datetime"].year == 2022 and '
            'attr["start_datetime"].month == 11)'],
        "my purchases with total": [' EXTRACT(l=QUD("my purchases"), attr_names=["total"])'],
        "my purchases": [' RETRIEVE(query="I bought something online")'],
    }
    trace = Trace()
    tree = decompose(question, TODAY, by_input(script), trace=trace, config=KEEP_SPECIFICS)
    assert trace.steps[0].problems == [
        "the step drops november of its question: use it in the step or keep it in a sub-question"]
    assert "month == 11" in tree.children[0].step

    # a model that only ever drops the month: steered on the first tries, accepted on the last one
    stubborn = {**script, question: [year_only] * 3, "my purchases in 2022 with total": [
        ' FILTER(l=QUD("my purchases with total"), filter=lambda attr: attr["start_datetime"].year == 2022)']}
    trace = Trace()
    tree = decompose(question, TODAY, by_input(stubborn), trace=trace, config=KEEP_SPECIFICS)
    assert tree.step == year_only.strip()
    assert [bool(s.problems) for s in trace.steps[:3]] == [True, True, False]


def test_a_retry_may_not_write_the_sub_question_that_dropped_a_specific_again():
    question = "Which Mitski song did I play most?"
    lost = ' ARGMAX(l=QUD("number of plays per song"), arg_attr_name="count", val_attr_name="track")'
    script = {
        question: [lost, ' ARGMAX(l=QUD("number of plays per song by Mitski"), arg_attr_name="count", '
                         'val_attr_name="track")'],
        "number of plays per song by Mitski": [' MAP(l=QUD("songs by Mitski grouped by song"), fct=len, res_name="count")'],
        "songs by Mitski grouped by song": [' GROUP_BY(l=QUD("songs by Mitski with track"), attr_names=["track"])'],
        "songs by Mitski with track": [' EXTRACT(l=QUD("songs by Mitski"), attr_names=["track"])'],
        "songs by Mitski": [' RETRIEVE(query="I listened to songs by Mitski")'],
    }
    llm = by_input(script)
    tree = decompose(question, TODAY, llm, config=KEEP_SPECIFICS)
    assert "by Mitski" in tree.step
    assert 'QUD("number of plays per song")' not in llm.forbidden[0]
    assert 'QUD("number of plays per song")' in llm.forbidden[1]   # the retry of the root step


def test_a_retry_may_not_have_the_person_send_the_mails_they_got():
    question = "How many mails has Markus sent me?"
    script = {
        question: [' APPLY(l=QUD("I sent an email to Markus"), fct=len)', ' APPLY(l=QUD("emails from Markus"), fct=len)'],
        "emails from Markus": [' RETRIEVE(query="emails from Markus")'],
    }
    llm = by_input(script)
    trace = Trace()
    tree = decompose(question, TODAY, llm, trace=trace)
    assert tree.step == 'APPLY(l=QUD("emails from Markus"), fct=len)'
    assert trace.steps[0].problems == [
        "'I sent an email to Markus' has me send the mails, but the question asks for mails I got"]
    assert "I sent " not in llm.forbidden[0]
    assert {"I sent ", "I send ", "I emailed ", "I wrote "} <= set(llm.forbidden[1])   # the retry of the root step


def test_rules_off_by_default_can_be_switched_on_and_off_wins(monkeypatch):
    from app.qud.decompose import RULES_OFF_BY_DEFAULT, QudConfig, rules_off_from_environment

    monkeypatch.delenv("LIFELENS_QUD_RULES_OFF", raising=False)
    monkeypatch.delenv("LIFELENS_QUD_RULES_ON", raising=False)
    assert rules_off_from_environment() == RULES_OFF_BY_DEFAULT == {"widen_extract", "impossible_test", "new_topic",
                                                                    "ruled_out_kinds"}
    assert not QudConfig().on("new_topic") and QudConfig().on("keep_names")
    monkeypatch.setenv("LIFELENS_QUD_RULES_ON", "new_topic, widen_extract")
    monkeypatch.setenv("LIFELENS_QUD_RULES_OFF", "widen_extract,keep_names")
    assert rules_off_from_environment() == {"impossible_test", "widen_extract", "keep_names", "ruled_out_kinds"}
    monkeypatch.setenv("LIFELENS_QUD_RULES_ON", "no_such_rule")
    with pytest.raises(ValueError, match="LIFELENS_QUD_RULES_ON: unknown rule"):
        rules_off_from_environment()


def test_a_year_test_the_question_does_not_ask_for_is_left_out_of_the_filter():
    question = "How many km did I hike on Madeira?"
    script = {
        question: [' SUM(l=QUD("my hikes on Madeira"), attr_name="distance_km")'],
        "my hikes on Madeira": [
            ' FILTER(l=QUD("my hikes with distance"), filter=lambda attr: "madeira" in attr["text"].lower() and '
            'attr["start_datetime"].year == 20)'],
        "my hikes with distance": [
            ' FILTER(l=QUD("my hikes with date and distance"), filter=lambda attr: attr["start_datetime"].year == '
            'date.today().year)'],
        "my hikes with date and distance": [' EXTRACT(l=QUD("my hikes"), attr_names=["distance_km"])'],
        "my hikes": [' RETRIEVE(query="I went hiking")'],
    }
    llm = by_input(script)
    trace = Trace()
    tree = decompose(question, TODAY, llm, trace=trace)
    # the year test left out, the text test kept; a filter of nothing but a year gives its sub-question's events
    assert tree.children[0].step == 'FILTER(l=QUD("my hikes with distance"), filter=lambda attr: "madeira" in ' \
                                    'attr["text"].lower())'
    distance = tree.children[0].children[0]
    assert distance.question == "my hikes with distance"
    assert distance.step == 'EXTRACT(l=QUD("my hikes"), attr_names=["distance_km"], attr_types=[float])'
    assert trace.steps[1].problems == ["the filter tests a year, but the question names none"]
    assert {"unasked_year"} <= trace.acted and trace.calls == 5   # no step asked again
    # asked with a year, the model's test stands
    dated = decompose("How many km did I hike on Madeira in 2020?", TODAY, by_input({
        "How many km did I hike on Madeira in 2020?": [' SUM(l=QUD("my hikes on Madeira in 2020"), '
                                                       'attr_name="distance_km")'],
        "my hikes on Madeira in 2020": [' FILTER(l=QUD("my hikes with distance"), filter=lambda attr: "madeira" in '
                                        'attr["text"].lower() and attr["start_datetime"].year == 2020)'],
        "my hikes with distance": [' EXTRACT(l=QUD("my hikes"), attr_names=["distance_km", "start_datetime"])'],
        "my hikes": [' RETRIEVE(query="I went hiking")']}))
    assert dated.children[0].step.endswith('attr["start_datetime"].year == 2020)')
