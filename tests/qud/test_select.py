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
    path = ["How far did I cycle in 2022?", "my bike rides in 2022 with distance"]
    fresh = selector.select("my bike rides with distance", path, needs="distance_km")
    assert len(fresh) == 8
    # the same step again: everything is kept, so the whole prompt prefix is the same
    again = selector.select("my bike rides with distance", path, previous=fresh, needs="distance_km")
    assert all(a is b for a, b in zip(again, fresh))
    # a previous list that starts with examples still relevant here keeps them in front, the best stays last
    relevant = selector.ranked("my bike rides with distance", path, limit=16, needs="distance_km", per_example=8)
    previous = [relevant[5], relevant[3], selector.all_steps[0]]  # the third is about something else
    mixed = selector.select("my bike rides with distance", path, previous=previous, needs="distance_km")
    assert mixed[0] is relevant[5] and mixed[1] is relevant[3]
    assert selector.all_steps[0] not in mixed[2:7] or selector.all_steps[0] in fresh
    assert mixed[-1] is fresh[-1]
    assert len({(s.question, s.step) for s in mixed}) == 8


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
    assert deeper[-1].question == "number of episodes per series in 2023"  # same shape: "number of ... per ... in YEAR"
    assert all(a is b for a, b in zip(root[:7], deeper[:7]))  # the same prefix: its KV cache is reused
    assert [s.question for s in root[:3]] == [
        "songs I listened to with artist",
        "Which artist did I listen to the longest in total?",
        "songs I listened to",
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
