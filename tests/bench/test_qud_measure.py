"""The measuring tool's helpers (the measurements themselves need minutes of model time)."""

from __future__ import annotations

from bench.qud_measure import percentile, read_questions


def test_the_measure_questions_are_twenty_and_not_examples():
    from app.qud.examples import load_examples

    questions = read_questions()
    assert len(questions) == 20
    assert not set(questions) & {e.question for e in load_examples()}


def test_percentile_picks_the_nearest_rank():
    values = [float(v) for v in range(1, 21)]
    assert percentile(values, 0.5) == 11.0
    assert percentile(values, 0.95) == 19.0
    assert percentile([3.0], 0.95) == 3.0
