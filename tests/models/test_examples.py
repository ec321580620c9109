"""Cross-encoder training examples (models/train/examples.py): hard negatives from the gold events' sources."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("torch")

from models.train.examples import RetrieveCase, cross_encoder_examples  # noqa: E402
from tests.retrieve.helpers import at, event, stored  # noqa: E402


def _pool():
    songs = [stored(event(f"s{i}", "music_stream", f"Band {i % 3} - Song {i}", {"artist": f"Band {i % 3}"}, at(1, 8, i)))
             for i in range(30)]
    mails = [stored(event(f"m{i}", "mail", f"Mail {i}", {"from_name": "Anna Berg"}, at(2, 9, i), None)) for i in range(30)]
    return songs, mails


def _event_texts(examples, label):
    return [e.text for e in examples if e.head == "event" and e.label == label]


def test_hard_share_takes_that_share_of_negatives_from_the_gold_sources():
    songs, mails = _pool()
    gold = {e.id for e in songs if e.data["artist"] == "Band 0"}  # 10 songs
    case = RetrieveCase("songs by Band 0", gold, songs + mails)
    plain = cross_encoder_examples([case], events_per_case=8)
    hard = cross_encoder_examples([case], events_per_case=8, hard_share=0.75)
    for examples in (plain, hard):
        assert len(_event_texts(examples, 1)) == 8
        assert all("Band 0" in t for t in _event_texts(examples, 1))
        assert len(_event_texts(examples, 0)) == 8
    # without hard negatives the 8 negatives spread evenly over both sources; with 0.75, 6 are other songs
    assert sum(t.startswith("music stream") for t in _event_texts(plain, 0)) == 4
    assert sum(t.startswith("music stream") for t in _event_texts(hard, 0)) == 6 + 1
    assert all("Band 0" not in t for t in _event_texts(hard, 0))
    # the 6 hard ones plus one song and one mail from the rest
    assert sum(t.startswith("mail") for t in _event_texts(hard, 0)) == 1
    # the pattern examples do not change (their order is shuffled with the rest)
    patterns = sorted((e.text, e.label) for e in plain if e.head == "pattern")
    assert patterns == sorted((e.text, e.label) for e in hard if e.head == "pattern") and len(patterns) == 5


def test_near_share_takes_the_best_ranked_negatives_of_the_pool():
    songs, mails = _pool()
    swimming = stored(event("s-pools", "music_stream", "Kendrick Lamar - Swimming Pools", {"artist": "Kendrick Lamar"},
                            at(3, 8)))
    swims = [stored(event(f"w{i}", "workout", "Swimming, 40 min", {"workout_type": "swimming"}, at(4, 7, i)))
             for i in range(10)]
    # the pool in SPLADE order: the workouts, then the song with "Swimming" in its title, then the rest
    case = RetrieveCase("I went swimming", {e.id for e in swims}, swims + [swimming] + mails[:3] + songs + mails[3:])
    for seed in range(5):
        negatives = _event_texts(cross_encoder_examples([case], events_per_case=8, near_share=0.5, seed=seed), 0)
        assert len(negatives) == 8
        assert any("Swimming Pools" in t for t in negatives)   # the best-ranked near misses are always in,
        assert sum(re.search(r"\| Mail 2\b", t) is not None for t in negatives) == 1   # the last of them too
    # without them the song is one of 63 negatives drawn at random
    plain = [_event_texts(cross_encoder_examples([case], events_per_case=8, seed=seed), 0) for seed in range(5)]
    assert sum(any("Swimming Pools" in t for t in negatives) for negatives in plain) < 5
