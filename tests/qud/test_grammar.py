"""The step grammar, checked by llama.cpp's own GBNF sampler over the real model's vocabulary."""

from __future__ import annotations

import pytest

from app.engine.signatures import SIGNATURES
from app.engine.checking import validate_call
from app.engine.syntax import parse_call
from app.qud.examples import load_examples, step_examples
from app.qud.grammar import grounded_phrases, grounded_values, planning_words, step_grammar, tree_grammar
from app.qud.prompt import compact_step, tree_block
from app.qud.vocabulary import attribute_names


def test_grammar_accepts_every_step_of_every_example(default_llm):
    grammar = step_grammar()
    checked = 0
    for example in load_examples():
        for step in step_examples(example):
            text = compact_step(step.step)
            ok, reason = default_llm.grammar_accepts(grammar, f" {text}\n")
            assert ok, f"{example.question}: {text}: {reason}"
            assert validate_call(parse_call(text)) == []
            checked += 1
    assert checked == 242


def test_grounded_grammar_accepts_every_example_step_with_its_own_question(default_llm):
    for example in load_examples():
        grammar = step_grammar((), grounded_values(example.question), grounded_phrases(example.question))
        for step in step_examples(example):
            ok, reason = default_llm.grammar_accepts(grammar, f" {compact_step(step.step)}\n")
            assert ok, f"{step.question}: {step.step}: {reason}"


def test_grounded_grammar_rejects_values_copied_from_elsewhere(default_llm):
    grammar = step_grammar((), grounded_values("How much did I spend online in 2022?"))
    good = ' FILTER(l=QUD("my purchases with total"), filter=lambda attr: attr["year"] == 2022)\n'
    assert default_llm.grammar_accepts(grammar, good) == (True, "")
    for bad in (
        ' FILTER(l=QUD("my purchases with total"), filter=lambda attr: attr["year"] == 2023)\n',
        ' FILTER(l=QUD("my purchases with total"), filter=lambda attr: attr["category"] == "Books")\n',
    ):
        ok, reason = default_llm.grammar_accepts(grammar, bad)
        assert not ok and reason.startswith("rejected at byte"), bad
    # the free grammar takes both
    assert default_llm.grammar_accepts(step_grammar(), ' SUM(l=QUD("x"), attr_name="total")\n') == (True, "")


def test_a_bracket_in_a_sub_question_is_closed_where_it_opens(default_llm):
    question = "How many pizzas did I order from Luigi's (Mitte) in 2023?"
    grammar = step_grammar((), grounded_values(question), grounded_phrases(question))
    closed = ' APPLY(l=QUD("I ordered pizza from Luigi\'s (Mitte) in 2023"), fct=len)\n'
    assert default_llm.grammar_accepts(grammar, closed) == (True, "")
    for lone in (' APPLY(l=QUD("I ordered pizza), from (Mitte) 2023"), fct=len)\n',
                 ' APPLY(l=QUD("I ordered pizza (from Mitte"), fct=len)\n'):
        ok, reason = default_llm.grammar_accepts(grammar, lone)
        assert not ok and reason.startswith("rejected at byte"), lone


def test_grounded_phrases_keep_sub_questions_on_the_question_topic(default_llm):
    question = "Which artist did I listen to most in 2024?"
    grammar = step_grammar((), grounded_values(question), grounded_phrases(question))
    good = ' ARGMAX(l=QUD("number of songs per artist in 2024"), arg_attr_name="count", val_attr_name="artist")\n'
    assert default_llm.grammar_accepts(grammar, good) == (True, "")
    copied = ' ARGMAX(l=QUD("number of songs per artist while running"), arg_attr_name="count", val_attr_name="artist")\n'
    ok, reason = default_llm.grammar_accepts(grammar, copied)
    assert not ok and reason.startswith("rejected at byte")
    assert default_llm.grammar_accepts(step_grammar(), copied) == (True, "")


def test_a_join_for_an_attribute_the_events_lacked_names_the_source_that_carries_it(default_llm):
    from app.qud.validate import carrier_phrases, source_words

    question = "Which artist did I listen to most when running?"
    without = source_words("I went running", ("workout",))
    assert {"running", "jogging", "workout", "cycling"} <= set(without) and "music" not in without
    assert carrier_phrases("artist") == ("I listened to music",)
    assert carrier_phrases("cuisine") == ()   # inferred from text: no source carries it
    only_join = tuple(op for op in SIGNATURES if op != "JOIN")
    grammar = step_grammar(only_join, grounded_values(question), grounded_phrases(question), without,
                           carrier_phrases("artist"))
    condition = 'condition="i1.start_datetime >= i2.start_datetime and i1.end_datetime <= i2.end_datetime")\n'
    good = ' JOIN(l1=QUD("I listened to music with artist, start and end"), l2=QUD("I went running with start and end"), '
    assert default_llm.grammar_accepts(grammar, good + condition) == (True, "")
    for bad in ('I went for a jog with artist', 'I went for a workout with artist', 'I went for a trip with artist',
                'I listened to music while running'):
        text = f' JOIN(l1=QUD("{bad}"), l2=QUD("I went running with start and end"), '
        ok, reason = default_llm.grammar_accepts(grammar, text + condition)
        assert not ok and reason.startswith("rejected at byte"), bad
    ok, _ = default_llm.grammar_accepts(grammar, ' EXTRACT(l=QUD("I went running"), attr_names=["artist"])\n')
    assert not ok


def test_planning_words_name_no_topic():
    words = planning_words()
    assert {"my", "songs", "with", "per", "grouped", "number", "Amazon", "distance", "total"} <= words
    assert not {"running", "cycling", "2023", "Taylor", "taylor", "dentist", "wedding", "December"} & words
    cycling = set(grounded_phrases("How far did I cycle in 2022?"))
    assert {"bike", "rides", "cycling", "2022", "cycle"} <= cycling and "running" not in cycling


def test_grounded_values_words_numbers_and_known_ones():
    words, numbers = grounded_values("How often did I go to the gym on Mondays in 2023?")
    assert {"Mondays", "mondays", "Monday", "gym", "Gym", "strength", "training", "Sunday"} <= set(words)
    assert {"2023", "0", "31", "60", "3600000"} <= set(numbers) and "2022" not in numbers
    assert "32" not in numbers


def test_tree_grammar_accepts_whole_examples(default_llm):
    grammar = tree_grammar()
    checked = 0
    for example in load_examples():
        block = tree_block(example)
        continuation = block.split("Output:", 1)[1]  # what the model writes after the first "Output:"
        if continuation.count("Output:") + 1 > 12:
            continue
        ok, reason = default_llm.grammar_accepts(grammar, continuation)
        assert ok, f"{example.question}: {reason}"
        checked += 1
    assert checked == 59


@pytest.mark.parametrize(
    "text",
    [
        ' FOO(l=QUD("my runs"))\n',                                                    # unknown operator
        ' SUM(attr_name="total", l=QUD("my purchases"))\n',                            # arguments out of order
        ' SUM(l=QUD("my purchases"), attr_name="totl")\n',                             # unknown attribute
        ' SUM(l=QUD("my purchases"), attr_name="total")',                              # no newline: incomplete
        ' RETRIEVE(query="a "quoted" word")\n',                                        # quote inside a string
        ' EXTRACT(l=QUD("my runs"), attr_names=[])\n',                                 # empty attribute list
        ' EXTRACT(l=QUD("my runs"), attr_names=["distance_km"], attr_types=[eval])\n',  # attr_types are added later
        ' APPLY(l=QUD("my runs"), fct=print)\n',                                       # function not allowed
        ' FILTER(l=QUD("my runs"), filter=lambda attr: __import__("os"))\n',           # no arbitrary code
        ' FILTER(l=QUD("my runs"), filter=lambda x: x["year"] == 2023)\n',             # the lambda's argument is attr
        ' JOIN(l1=QUD("songs"), l2=QUD("runs"), condition="i1.start_date == i3.start_date")\n',
        ' RETRIEVE(query="I went running") RETRIEVE(query="again")\n',               # one call per step
        ' MAP(l=QUD("songs grouped by artist"), fct=len)\n',                          # res_name is required here
    ],
)
def test_grammar_rejects_malformed_steps(default_llm, text):
    ok, reason = default_llm.grammar_accepts(step_grammar(), text)
    assert not ok, text
    assert reason.startswith(("rejected at byte", "incomplete"))


def test_a_step_that_must_deliver_attributes_cannot_retrieve(default_llm):
    text = ' RETRIEVE(query="I went running")\n'
    assert default_llm.grammar_accepts(step_grammar(), text) == (True, "")
    ok, reason = default_llm.grammar_accepts(step_grammar(("RETRIEVE",)), text)
    assert not ok and reason.startswith("rejected at byte 0")  # " RET" is one token


def test_attribute_names_cover_keys_and_examples():
    names = set(attribute_names())
    assert {"total", "artist", "ms_played", "workout_type", "attendees", "labels"} <= names  # source keys
    assert {"start_datetime", "start_date", "weekday", "year", "hour", "title"} <= names     # fixed columns
    assert {"count", "hours", "ms_total", "recipient", "attendee"} <= names                 # result names
    assert {"cuisine", "destination", "participants", "city", "doctor_type"} <= names        # life-event keys
    assert "totl" not in names
    lengths = [len(n) for n in attribute_names()]
    assert lengths == sorted(lengths, reverse=True)


def test_attribute_names_cover_every_key_the_extractor_learns():
    from bench.extract_eval import EXTRACT_KEYS

    assert set(EXTRACT_KEYS) <= set(attribute_names())


@pytest.fixture(scope="module")
def train_gold_trees():
    """Gold trees of three train personas, once per paraphrase (what the fine-tuned model learns)."""
    from app.persona.questions import questions_for
    from app.persona.splits import PERSONAS, templates_in
    from models.train.qud_data import record_trees

    return {pid: [tree for record in questions_for(pid, templates_in("train")) for tree in record_trees(record)]
            for pid in PERSONAS["train"][:3]}


def test_grammar_accepts_every_step_of_the_train_gold_trees(default_llm, train_gold_trees):
    """A step the fine-tuned model was trained to write must be one the decoder can write."""
    from models.train.qud_data import tree_steps

    grammar = step_grammar()
    targets = {step["target"] for trees in train_gold_trees.values() for tree in trees for step in tree_steps(tree)}
    assert len(targets) > 900
    for target in sorted(targets):
        ok, reason = default_llm.grammar_accepts(grammar, target)
        assert ok, f"{target.strip()}: {reason}"


def test_grounded_grammar_accepts_nearly_every_train_step_with_its_question(default_llm, train_gold_trees):
    """Grounding keeps literals and sub-question words to the question's own (plus planning and canonical event
    words); a gold step it refuses is a paraphrase gap ("before noon" -> "in the morning"), and rare."""
    from models.train.qud_data import tree_steps

    refused = []
    total = 0
    for tree in train_gold_trees["p01"]:
        grammar = step_grammar((), grounded_values(tree.question), grounded_phrases(tree.question))
        for step in tree_steps(tree):
            total += 1
            ok, _ = default_llm.grammar_accepts(grammar, step["target"])
            if not ok:
                refused.append(step["target"])
    assert total > 600
    assert len(refused) / total < 0.03, refused[:10]


@pytest.mark.parametrize(
    "question, step",
    [
        ("How many times did I go hiking in the last six months?",      # a number written as a word
         ' FILTER(l=QUD("I went hiking with date"), filter=lambda attr: attr["start_date"] >= '
         'date.today() - relativedelta(months=6))\n'),
        ("When is Justin's birthday?", ' RETRIEVE(query="Justin\'s birthday")\n'),
        ("How often did I play Ms. Jackson by OutKast?", ' RETRIEVE(query="I listened to Ms. Jackson by OutKast")\n'),
        ("Which songs did I hear most in summer 2022?",                  # a set of months
         ' FILTER(l=QUD("I listened to music with date"), filter=lambda attr: attr["start_datetime"].year == 2022 '
         'and attr["start_datetime"].month in (6, 7, 8))\n'),
        ("Top artist last month?",                                       # month arithmetic against today
         ' FILTER(l=QUD("I listened to music with date and artist"), filter=lambda attr: attr["start_date"].year * '
         '12 + attr["start_date"].month == date.today().year * 12 + date.today().month - 1)\n'),
        ("On which weekday do I see the doctor?",
         ' MAP(l=QUD("I had a doctor\'s appointment with date"), fct=lambda attr: attr["start_datetime"]'
         '.strftime("%A"), res_name="weekday")\n'),
        ("How many days did I travel in 2022?",
         ' MAP(l=QUD("I went on a trip in 2022"), fct=lambda attr: (attr["end_date"] - attr["start_date"]).days + 1, '
         'res_name="days")\n'),
        ("Which songs did I play in the two hours after running?",
         ' JOIN(l1=QUD("I listened to music with song and start"), l2=QUD("I went running with end"), condition='
         '"i1.start_datetime >= i2.end_datetime and i1.start_datetime <= i2.end_datetime + timedelta(hours=2)")\n'),
        ("How many songs did I play since I moved to Austin?",           # a value from a sub-question
         ' FILTER(l=QUD("I listened to music with date"), filter=lambda attr: attr["start_date"] >= '
         'QUD("the date I moved to Austin"))\n'),
    ],
)
def test_grammar_writes_the_operator_language_of_the_gold_trees(default_llm, question, step):
    assert default_llm.grammar_accepts(step_grammar(), step) == (True, "")
    grounded = step_grammar((), grounded_values(question), grounded_phrases(question))
    assert default_llm.grammar_accepts(grounded, step) == (True, ""), question
