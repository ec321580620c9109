"""BM25 example selection: relevant examples, best last, stable across steps for the KV cache."""

from __future__ import annotations

from app.qud.select import ExampleSelector, default_selector, stem, terms


def test_stemming_and_terms():
    assert [stem(w) for w in "running runs songs skipped hikes hike parties 2023 17 rides".split()] == [
        "run", "run", "song", "skip", "hik", "hik", "party", "YEAR", "NUM", "rid"]
    assert terms("How many songs did I listen to in 2023?") == ["how", "many", "song", "listen", "YEAR"]


def test_root_step_examples_are_relevant_and_best_last():
    chosen = default_selector("step").select("Which artist did I listen to most in 2023?")
    assert len(chosen) == 8
    assert all(s.depth == 0 for s in chosen)
    assert chosen[-1].question == "Which artist did I listen to most while running?"
    assert sum("artist" in s.question for s in chosen) == 3
    assert len({s.example.question for s in chosen}) == 8


def test_deep_step_examples_match_the_sub_question_and_its_needs():
    chosen = default_selector("step").select(
        "my hikes with distance", ["How far was my longest hike?"], needs="distance_km")
    assert all(s.depth > 0 for s in chosen)
    assert chosen[-1].question == "my runs with distance"  # of "How far was my longest run?"
    assert chosen[-1].step == 'EXTRACT(l=QUD("my runs"), attr_names=["distance_km"], attr_types=[float])'
    assert sum(s.needs == "distance_km" for s in chosen) >= 4
    without_needs = default_selector("step").select("my hikes", ["How far was my longest hike?", "my hikes with distance"])
    assert without_needs[-1].step == 'RETRIEVE(query="I went hiking")'


def test_previous_examples_keep_their_place_when_still_relevant():
    selector = default_selector("step")
    first = selector.select("my bike rides in 2022 with distance", ["How far did I cycle in 2022?"], needs="distance_km")
    second = selector.select(
        "my bike rides with distance", ["How far did I cycle in 2022?", "my bike rides in 2022 with distance"],
        previous=first, needs="distance_km")
    fresh = selector.select(
        "my bike rides with distance", ["How far did I cycle in 2022?", "my bike rides in 2022 with distance"],
        needs="distance_km")
    assert len(second) == 8
    assert second[-1] == fresh[-1]            # the best one is still last
    shared = 0
    for a, b in zip(first, second):
        if a is not b:
            break
        shared += 1
    assert shared == 3                        # a common prefix: the KV cache keeps it ...
    assert first[3] is second[-1]             # ... up to the old example that is now the best, moved last
    assert {id(s) for s in second} <= {id(s) for s in selector.ranked(
        "my bike rides with distance", ["How far did I cycle in 2022?", "my bike rides in 2022 with distance"],
        limit=16, needs="distance_km", per_example=8)}


def test_one_shot_selects_whole_examples():
    chosen = default_selector().select_examples("How much did I spend on Amazon in 2022?")
    assert len(chosen) == 8
    assert chosen[-1].question == "How much did I spend on Amazon in 2023?"


def test_question_mode_keeps_seven_examples_for_the_whole_question():
    selector = ExampleSelector(mode="question")
    question = "Which artist did I listen to most in 2023?"
    root = selector.select(question)
    deeper = selector.select("number of songs per artist in 2023", [question], previous=root)
    assert root[-1].question == "Which artist did I listen to most while running?"
    assert deeper[-1].question == "songs in June 2023 grouped by artist"
    assert all(a is b for a, b in zip(root[:7], deeper[:7]))  # the same prefix: its KV cache is reused
    assert [s.question for s in root[:3]] == [
        "songs I listened to with artist",
        "Which artist did I listen to the longest in total?",
        "songs I listened to while running with artist",
    ]
    assert len({(s.question, s.step) for s in root}) == 8
    assert max(sum(s.example is e.example for s in root[:7]) for e in root) <= 2


def test_path_mode_follows_the_path():
    selector = ExampleSelector(mode="path")
    question = "How far did I cycle in 2022?"
    chosen = selector.select("my bike rides with distance", [question, "my bike rides in 2022 with distance"],
                             needs="distance_km")
    assert chosen[-1].question == "my bike rides with duration"
    assert sum("bike rides" in s.question for s in chosen) >= 4
