"""SPLADE-tiny at run time: the committed int8 artifact, its hash, its terms, and parity with PyTorch."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from models.splade import SpladeEncoder, dot
from tests.models.artifact_checks import check_artifact_hashes

ROOT = Path(__file__).resolve().parents[2]
TEXTS = ["football match with friends", "Dinner at Luigi's: the pizza oven", "songs I listened to while running"]


@pytest.fixture(scope="module")
def encoder():
    enc = SpladeEncoder(threads=1)
    yield enc
    enc.close()


def test_artifact_hash_matches_card_and_config():
    check_artifact_hashes("splade-tiny")


def test_lazy_load_and_close():
    enc = SpladeEncoder()
    assert not enc.model.loaded
    enc.encode(["hello"])
    assert enc.model.loaded
    enc.close()
    assert not enc.model.loaded
    assert enc.encode(["hello"])[0]  # loads again after close


def test_top_terms_are_the_words_and_their_expansions(encoder):
    football, dinner, songs = encoder.encode(TEXTS)
    assert [t for t, _ in encoder.terms(football)[:3]] == ["football", "friends", "match"]
    top_dinner = [t for t, _ in encoder.terms(dinner)[:12]]
    assert {"pizza", "oven", "dinner", "restaurant"} <= set(top_dinner)
    top_songs = [t for t, _ in encoder.terms(songs)[:10]]
    assert {"song", "songs", "music", "running"} <= set(top_songs)
    assert all(len(v) <= encoder.top_k for v in (football, dinner, songs))
    assert all(w >= encoder.min_weight for v in (football, dinner, songs) for w in v.values())


def test_batch_order_and_padding_barely_change_vectors(encoder):
    # int8 dynamic quantization scales activations per batch, so batching moves weights a little, never the terms
    together = encoder.weights(TEXTS)
    alone = np.stack([encoder.weights([t])[0] for t in TEXTS])
    np.testing.assert_allclose(together, alone, atol=0.12)
    for a, b in zip(together, alone):
        assert set(np.argsort(-a)[:3]) == set(np.argsort(-b)[:3])
        assert float(a @ b / np.linalg.norm(a) / np.linalg.norm(b)) > 0.998


def test_related_texts_score_higher(encoder):
    query, running, pizza = encoder.encode(["running workout", "workout | running | workout_type: running", TEXTS[1]])
    assert dot(query, running) > 5 * max(dot(query, pizza), 0.1)


def test_runtime_imports_no_torch():
    code = (
        "import sys; sys.modules['torch'] = None; sys.modules['transformers'] = None\n"
        "from models.splade import SpladeEncoder\n"
        "v = SpladeEncoder().encode(['football'])[0]\n"
        "assert v and 'torch' not in [m for m in sys.modules if sys.modules[m] is not None]\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_int8_onnx_matches_pytorch():
    torch = pytest.importorskip("torch")
    from transformers import AutoTokenizer

    from models.train.base_weights import fetch
    from models.train.nets import SpladeNet

    base = fetch("splade")
    net = SpladeNet(base).eval()
    tok = AutoTokenizer.from_pretrained(base)
    batch = tok(TEXTS, return_tensors="pt", padding=True)
    with torch.no_grad():
        reference = net(batch["input_ids"], batch["attention_mask"], batch["token_type_ids"]).numpy()
    quantized = SpladeEncoder().weights(TEXTS)
    for ref, got in zip(reference, quantized):
        cosine = float(ref @ got / np.linalg.norm(ref) / np.linalg.norm(got))
        assert cosine > 0.99
        assert np.abs(ref - got).max() < 0.35
        assert set(np.argsort(-ref)[:3]) == set(np.argsort(-got)[:3])
