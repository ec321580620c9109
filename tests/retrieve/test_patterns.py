"""Pattern mining over a candidate pool, and the labels patterns get for training."""

from __future__ import annotations

from app.retrieve.patterns import mine_patterns, pattern_labels
from tests.retrieve.helpers import small_life, stored


def test_one_pattern_per_source_then_frequent_values():
    pool = [stored(e) for e in small_life()]
    patterns = mine_patterns(pool, min_count=2)
    heads = [(p.source, p.key, p.value, len(p)) for p in patterns]
    assert heads == [
        ("music_stream", None, None, 7),
        ("workout", None, None, 2),
        ("calendar", None, None, 1),
        ("mail", None, None, 1),
        ("online_purchase", None, None, 1),
        ("music_stream", "artist", "Daft Punk", 5),
        ("music_stream", "artist", "Adele", 2),
    ]
    # ms_played is the same on every song but is a measurement; tracks occur once each
    assert patterns[5].examples == ("Daft Punk - One More Time", "Daft Punk - Digital Love")
    assert patterns[5].text() == "music stream | artist: Daft Punk | e.g. Daft Punk - One More Time; Daft Punk - Digital Love"


def test_min_count_and_share_drop_rare_values():
    pool = [stored(e) for e in small_life()]
    assert [(p.key, p.value) for p in mine_patterns(pool, min_count=3) if p.key] == [("artist", "Daft Punk")]
    assert [p.key for p in mine_patterns(pool, min_count=2, min_share=0.5) if p.key] == ["artist"]


def test_labels_from_gold_ids():
    pool = [stored(e) for e in small_life()]
    patterns = mine_patterns(pool, min_count=2)
    daft = {e.id for e in pool if e.data.get("artist") == "Daft Punk"}
    assert pattern_labels(patterns, daft) == [
        "partly", "irrelevant", "irrelevant", "irrelevant", "irrelevant", "relevant", "irrelevant"]
    four_of_five = set(list(daft)[:4])
    assert pattern_labels(patterns[5:6], four_of_five) == ["partly"]
    assert pattern_labels(patterns[5:6], four_of_five, tolerance=0.2) == ["relevant"]
