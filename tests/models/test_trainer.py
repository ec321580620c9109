"""Training-time helpers (need torch): BIO tags from character ranges, balanced example sampling."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")

from models.extractor import Extractor, decode_spans  # noqa: E402
from models.runtime import artifact_dir  # noqa: E402
from models.train.recipes import _balanced  # noqa: E402
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
