"""Training-time helpers (need torch): BIO tags from character ranges, balanced example sampling."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")

from models.extractor import Extractor, decode_spans  # noqa: E402
from models.runtime import artifact_dir  # noqa: E402
from models.train.recipes import _balanced, replace_card_section  # noqa: E402
from models.train.trainer import PairExample, extract_tags  # noqa: E402

TEXT = "calendar | Dinner at Trattoria Roma | people: Theresa Fischer, Anna Becker"


def test_tags_round_trip_through_decoding():
    extractor = Extractor(artifact_dir("splade-tiny"))
    feeds, spans = extractor._encode("participants", [TEXT])
    gold = [(TEXT.index("Trattoria Roma"), TEXT.index("Trattoria Roma") + len("Trattoria Roma")),
            (TEXT.index("Anna Becker"), TEXT.index("Anna Becker") + len("Anna Becker"))]
    tags = extract_tags(spans[0], gold, feeds["input_ids"].shape[1])
    assert tags[0] == -100 and tags[1] == -100          # [CLS] and the key are not tagged
    assert sorted(set(tags.tolist())) == [-100, 0, 1, 2]
    assert (tags == 1).sum() == 2
    decoded = decode_spans(tags.clip(min=0), spans[0], TEXT)
    assert decoded == ["Trattoria Roma", "Anna Becker"]


def test_balanced_takes_every_class_evenly():
    examples = ([PairExample("q", f"p{i}", "pattern", 0) for i in range(100)]
                + [PairExample("q", f"r{i}", "pattern", 2) for i in range(5)]
                + [PairExample("q", f"e{i}", "event", 1) for i in range(30)])
    chosen = _balanced(examples, 30)
    counts = {(h, l): sum(1 for e in chosen if (e.head, e.label) == (h, l)) for h, l in [("pattern", 0), ("pattern", 2), ("event", 1)]}
    assert counts == {("pattern", 0): 13, ("pattern", 2): 5, ("event", 1): 12}


def test_extractor_examples_are_capped_per_key_source_and_mode():
    from models.train.examples import cap_extractor_examples
    from models.train.trainer import ExtractExample

    songs = [ExtractExample("artist", f"music stream | Song {i} | artist: A{i}", 1, ((30, 32),)) for i in range(50)]
    dinners = [ExtractExample("cuisine", f"calendar | Dinner {i} | location: Luigi's", 2, (), 4) for i in range(6)]
    nones = [ExtractExample("track", f"calendar | Dinner {i}", 0) for i in range(40)]
    chosen = cap_extractor_examples(songs + dinners + nones, 10)
    assert [sum(e.mode == m for e in chosen) for m in (0, 1, 2)] == [10, 10, 6]
    assert len({e.segment for e in chosen if e.mode == 1}) == 10   # drawn without repeats
    # none examples at most 0.5 per span or label example
    chosen = cap_extractor_examples(songs + dinners + nones, 10, none_ratio=0.5)
    assert [sum(e.mode == m for e in chosen) for m in (0, 1, 2)] == [8, 10, 6]
    assert cap_extractor_examples(songs, 10) == cap_extractor_examples(songs, 10)   # seeded


def test_people_are_pointed_at_where_the_text_names_them():
    from models.train.examples import mention_spans

    people = ["Anna Berg", "Tobias Vogel", "Tom Lee", "Tom Kay"]
    segment = "calendar | Tobias's birthday with Tom | to: Anna Berg | people: Tobias Vogel, Tom Lee, Anna Berg, Tom Kay"
    def spans(value):
        return [segment[a:b] for a, b in mention_spans(segment, value, people)]
    assert spans("Tobias Vogel") == ["Tobias"]                        # the mention, not the list entry
    assert segment.index("Tobias") == mention_spans(segment, "Tobias Vogel", people)[0][0]
    assert spans(["Anna Berg", "Tobias Vogel"]) == ["Tobias", "Anna Berg"]   # a full name in the text stays
    assert mention_spans(segment, "Anna Berg", people)[0][0] < segment.index(" | people: ")
    assert spans("Tom Lee") == ["Tom Lee"]                            # two Toms: the list entry
    assert mention_spans(segment, "Tom Lee", people)[0][0] > segment.index(" | people: ")


def test_a_card_section_is_replaced_and_the_notes_after_it_stay(tmp_path):
    card = tmp_path / "extractor-small.md"
    card.write_text("# extractor-small\n\n## Dev figures\n\nold figures\n\n## Tried and not kept\n\nnotes\n")
    replace_card_section(card, "Dev figures", "new figures\n")
    assert card.read_text() == "# extractor-small\n\n## Dev figures\n\nnew figures\n\n## Tried and not kept\n\nnotes\n"
    replace_card_section(card, "Timing", "1 s\n")   # a section the card lacks is appended
    assert card.read_text().endswith("## Tried and not kept\n\nnotes\n\n## Timing\n\n1 s\n")
    fresh = tmp_path / "new.md"
    replace_card_section(fresh, "Dev figures", "x\n")
    assert fresh.read_text() == "## Dev figures\n\nx\n"
