"""The committed extractors: hashes, parity with the PyTorch model's recorded logits, label sets."""

from __future__ import annotations

import json

import numpy as np
import pytest

from models.extractor import SIZES, Extractor
from models.runtime import artifact_dir
from tests.models.artifact_checks import check_artifact_hashes


@pytest.fixture(scope="module", params=sorted(SIZES))
def size(request):
    return request.param


def test_artifact_hash_matches_card_and_config(size):
    check_artifact_hashes(SIZES[size])


def test_int8_matches_the_pytorch_logits_recorded_at_export(size):
    config = json.loads((artifact_dir(SIZES[size]) / "config.json").read_text())
    reference = config["reference"]
    extractor = Extractor.for_size(size, threads=1)
    for n, (key, text) in enumerate(reference["inputs"]):
        feeds, _ = extractor._encode(key, [text])
        mode, _, label = extractor.model.run(feeds, ["mode_logits", "tag_logits", "label_logits"])
        np.testing.assert_allclose(mode[0], reference["mode_logits"][n], atol=0.6)
        np.testing.assert_allclose(label[0], reference["label_logits"][n], atol=0.8)
        assert int(np.argmax(mode[0])) == int(np.argmax(reference["mode_logits"][n]))
    extractor.close()


def test_label_sets_and_answers(size):
    extractor = Extractor.for_size(size, threads=1)
    assert "italian" in extractor.labels
    assert "italian" in [extractor.labels[i] for i in extractor.allowed_labels("cuisine")]
    assert extractor.allowed_labels("participants") is None  # an open key: spans or nothing
    assert 0.5 <= extractor.none_threshold < 1.0
    texts = ["music stream | Hozier - Work Song | artist: Hozier | track: Work Song",
             "mail | Friday 2023-05-12 evening | Dinner? | body: I fired up the pizza oven, come over at 8"]
    for key in ("artist", "participants", "place"):
        for text, value in zip(texts, extractor.extract(key, texts, people=["Anna Berg"])):
            values = value if isinstance(value, list) else [value]
            # spans are exact substrings of what the model read
            assert all(v is None or v in text or v == "Anna Berg" for v in values)
    cuisines = extractor.extract("cuisine", texts)
    allowed = {extractor.labels[i] for i in extractor.allowed_labels("cuisine")}
    assert all(c is None or c in allowed for c in cuisines)
    extractor.close()


def test_a_check_is_called_before_each_batch_and_changes_nothing():
    from models.extractor import Extractor

    extractor = Extractor.for_size("small", threads=1)
    texts = [f"Dinner at Trattoria {i} with Anna, pizza and pasta" for i in range(40)]  # 2 batches of 32
    looks: list[int] = []
    with_check = extractor.extract("cuisine", texts, check=lambda: looks.append(1))
    assert looks == [1, 1]
    assert with_check == extractor.extract("cuisine", texts)
    extractor.close()
