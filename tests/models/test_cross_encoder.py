"""The committed cross-encoders: hashes, parity with the PyTorch model's recorded logits, sensible scores."""

from __future__ import annotations

import json

import numpy as np
import pytest

from models.cross_encoder import SIZES, CrossEncoder, softmax
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
    pairs = reference["pairs"]
    ce = CrossEncoder.for_size(size, threads=1)
    got_events = ce._logits(pairs[0][0], [pairs[0][1]], "event_logits")
    rows_p, rows_e = [], []
    for query, text in pairs:
        rows_p.append(ce._logits(query, [text], "pattern_logits")[0])
        rows_e.append(ce._logits(query, [text], "event_logits")[0])
    # int8 weights and activations move logits (up to ~0.75 measured on MiniLM, a probability by up to 0.23 on an
    # out-of-domain pair); the decisions stay put
    np.testing.assert_allclose(np.array(rows_p), np.array(reference["pattern_logits"]), atol=1.0)
    np.testing.assert_allclose(np.array(rows_e), np.array(reference["event_logits"]), atol=1.0)
    np.testing.assert_allclose(softmax(np.array(rows_p)), softmax(np.array(reference["pattern_logits"])), atol=0.25)
    np.testing.assert_allclose(softmax(np.array(rows_e)), softmax(np.array(reference["event_logits"])), atol=0.25)
    assert [int(np.argmax(r)) for r in rows_e] == [int(np.argmax(r)) for r in reference["event_logits"]]
    assert [int(np.argmax(r)) for r in rows_p] == [int(np.argmax(r)) for r in reference["pattern_logits"]]
    assert np.allclose(got_events[0], rows_e[0])
    ce.close()


def test_scores_rank_the_obvious_pairs(size):
    ce = CrossEncoder.for_size(size, threads=1)
    keep = ce.event_probs("football games", [
        "workout | Saturday 2023-05-06 afternoon | Soccer, 90 min | workout_type: soccer",
        "music stream | Saturday 2023-05-06 afternoon | Adele - Hello | artist: Adele | track: Hello",
    ])
    assert keep[0] > 0.5 > keep[1]
    patterns = ce.pattern_probs("songs by Adele", ["music stream | artist: Adele | e.g. Adele - Hello; Adele - Skyfall",
                                                   "online purchase | e.g. Pizza stone; Leather Belt"])
    assert patterns.shape == (2, 3)
    np.testing.assert_allclose(patterns.sum(axis=1), 1.0, atol=1e-5)
    assert patterns[0, 2] > patterns[1, 2]     # the artist's songs are more relevant than purchases
    assert patterns[1, 0] > patterns[1, 2]     # purchases are irrelevant to songs
    ce.close()


def test_thresholds_come_with_the_artifact(size):
    thresholds = CrossEncoder.for_size(size).thresholds
    assert set(thresholds) >= {"relevant", "irrelevant", "keep", "pool_min_score"}
    assert all(0.0 <= thresholds[k] <= 1.0 for k in ("relevant", "keep"))
    # above 1.0 no probability reaches it: the recall-first choice never drops a whole source unread
    assert 0.0 <= thresholds["irrelevant"] <= 1.01


def test_softmax_rows():
    np.testing.assert_allclose(softmax(np.array([[0.0, 0.0], [1000.0, 0.0]])), [[0.5, 0.5], [1.0, 0.0]])


def test_a_check_is_called_before_each_batch_and_changes_nothing():
    ce = CrossEncoder.for_size("small", threads=1)
    texts = [f"music stream | Band {i} - Song number {i % 7}" for i in range(70)]  # 3 batches of 32
    looks: list[int] = []
    with_check = ce.event_probs("songs I played", texts, check=lambda: looks.append(1))
    assert looks == [1, 1, 1]
    assert np.array_equal(with_check, ce.event_probs("songs I played", texts))

    class Stop(Exception):
        pass

    def stop_at_the_second():
        if looks.append(1) or len(looks) > 4:
            raise Stop

    with pytest.raises(Stop):
        ce.pattern_probs("songs I played", texts, check=stop_at_the_second)
    ce.close()
