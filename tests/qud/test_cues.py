"""The cue words that narrow a step's operators must never rule out what the gold trees do."""

from __future__ import annotations

from app.qud.cues import step_operators


def test_cues_point_to_the_operators_of_their_wording():
    assert step_operators("Which artist did I listen to most in 2023?", root=True) == ("ARGMAX",)
    assert step_operators("When did I last listen to J. Cole?", root=True) == ("MAX", "ARGMAX")
    # "the last calendar year" is a period, not the latest event
    assert step_operators("Hours spent on series during the last calendar year?", root=True) is None
    assert step_operators("songs in 2023 grouped by artist", root=False) == ("GROUP_BY",)
    assert "MAP" in step_operators("I sent an email with weekday", root=False)
    # a superlative without a question word asks for the value; with one, perhaps for the item
    assert step_operators("My longest hike in km?", root=True) == ("MAX",)
    assert step_operators("Lowest heart rate in my runs during 2021?", root=True) == ("MIN",)
    assert step_operators("What was my biggest music day?", root=True) == ("MAX", "ARGMAX")
    # a bill is a sum; which month had the highest bill is still an arg-max
    assert step_operators("What was my online shopping bill in May 2021?", root=True) == ("SUM",)
    assert step_operators("Which month had my highest online spending during 2022?", root=True) == ("ARGMAX",)


def test_no_step_of_the_train_gold_trees_is_ruled_out_by_its_cue():
    from app.persona.questions import questions_for
    from app.persona.splits import templates_in
    from models.train.qud_data import record_trees

    steps, excluded = 0, []
    for record in questions_for("p01", templates_in("train")):
        for tree in record_trees(record):
            for depth, node in enumerate(tree.walk()):
                steps += 1
                allowed = step_operators(node.question, root=depth == 0)
                if allowed is not None and node.operator not in allowed:
                    excluded.append((node.question, node.operator))
    assert steps > 1500
    assert excluded == []
