"""Training elsewhere: a recipe's pack round-trips, `fit` trains from it, and the state loads back identically."""

from __future__ import annotations

import gzip
import json
from argparse import Namespace

import pytest

torch = pytest.importorskip("torch")

from models.train.base_weights import fetch  # noqa: E402
from models.train.offload import (fit_pack, load_state, pack_meta, read_pack, save_pack, save_state, state_meta,  # noqa: E402
                                  train_or_offload)
from models.train.trainer import ExtractExample, PairExample, TrainConfig  # noqa: E402

PAIRS = [PairExample("dinners with Anna", "calendar | Dinner with Anna at Luigi's", "event", 1),
         PairExample("dinners with Anna", "music stream | Song 2 | artist: Air", "event", 0),
         PairExample("dinners with Anna", "calendar | Dinner with", "pattern", 2),
         PairExample("dinners with Anna", "music stream | artist:", "pattern", 0)] * 3
EXTRACTS = [ExtractExample("cuisine", "calendar | Pizza at Luigi's", 2, (), 1),
            ExtractExample("location", "calendar | Pizza at Luigi's", 1, ((20, 27),)),
            ExtractExample("artist", "calendar | Pizza at Luigi's", 0)] * 3


def test_packs_round_trip_both_kinds(tmp_path):
    config = TrainConfig(epochs=1.5, lr=1e-4, batch_size=4, class_weights={"event": [1.0, 2.0]})
    save_pack(tmp_path / "ce.json.gz", "cross_encoder", PAIRS, config)
    save_pack(tmp_path / "ex.json.gz", "extractor", EXTRACTS, config, n_labels=5, meta={"cases": 4})
    assert read_pack(tmp_path / "ce.json.gz") == ("cross_encoder", PAIRS, config, 0)
    assert read_pack(tmp_path / "ex.json.gz") == ("extractor", EXTRACTS, config, 5)
    assert pack_meta(tmp_path / "ex.json.gz") == {"cases": 4, "examples": len(EXTRACTS), "packs": [
        {"pack": "ex.json.gz", "cases": 4, "examples": len(EXTRACTS)}]}
    with gzip.open(tmp_path / "ce.json.gz", "rt") as handle:   # plain data, no pickle
        assert json.load(handle)["examples"][0]["query"] == "dinners with Anna"
    save_pack(tmp_path / "ce.json.xz", "cross_encoder", PAIRS, config)     # xz by its name
    assert read_pack(tmp_path / "ce.json.xz") == read_pack(tmp_path / "ce.json.gz")
    assert (tmp_path / "ce.json.xz").read_bytes()[:6] == b"\xfd7zXZ\x00"


def test_a_pack_of_another_kind_is_refused(tmp_path):
    with pytest.raises(ValueError, match="unknown kind"):
        save_pack(tmp_path / "x.json.gz", "qud", PAIRS, TrainConfig())
    with gzip.open(tmp_path / "bad.json.gz", "wt") as handle:
        json.dump({"kind": "qud", "config": {}, "n_labels": 0, "examples": []}, handle)
    with pytest.raises(ValueError, match="bad.json.gz: unknown kind 'qud'"):
        read_pack(tmp_path / "bad.json.gz")


@pytest.mark.slow
def test_fit_then_load_gives_the_trained_network(tmp_path):
    from models.train.nets import CrossEncoderNet

    base = fetch("splade")
    config = TrainConfig(epochs=1, lr=1e-3, batch_size=4, max_length=32, budget_s=60)
    pack = tmp_path / "ce.json.gz"
    # a recipe asked to save its examples writes the pack and trains nothing
    assert train_or_offload("cross_encoder", Namespace(save_examples=str(pack)), base, PAIRS, config, print) is None
    net = fit_pack(pack, base, device="cpu", log=lambda _: None)
    save_pack(tmp_path / "ex.json.gz", "extractor", EXTRACTS, config, n_labels=5)
    with pytest.raises(ValueError, match="ex.json.gz: a extractor pack with 5 labels does not go with"):
        fit_pack([pack, tmp_path / "ex.json.gz"], base, device="cpu", log=lambda _: None)
    with pytest.raises(ValueError, match="no state.pt.json beside it"):
        save_state(net, tmp_path / "state.pt")
        state_meta(tmp_path / "state.pt")
    save_state(net, tmp_path / "state.pt", {"cases": 3, "examples": 12, "train_seconds": 1.5})
    assert state_meta(tmp_path / "state.pt")["cases"] == 3
    loaded = train_or_offload("cross_encoder", Namespace(load_state=str(tmp_path / "state.pt")), base, PAIRS,
                              config, print)
    ids = torch.tensor([[101, 7592, 102, 2000, 102]])
    ones, zeros = torch.ones_like(ids), torch.zeros_like(ids)
    with torch.no_grad():
        for trained, got in zip(net(ids, ones, zeros), loaded(ids, ones, zeros)):
            assert torch.equal(trained, got)
    # the encoder moved away from the base weights (it was trained, not just re-initialised)
    untouched = CrossEncoderNet(base).state_dict()
    name = "encoder.encoder.layer.1.output.dense.weight"
    assert not torch.equal(loaded.state_dict()[name], untouched[name])


def test_a_state_of_another_recipe_is_refused(tmp_path):
    base = fetch("splade")
    config = TrainConfig(trainable_layers=None)
    torch.save({"head.weight": torch.zeros(2, 2)}, tmp_path / "other.pt")
    with pytest.raises(ValueError, match="other.pt: not a trained cross_encoder"):
        load_state("cross_encoder", base, config, tmp_path / "other.pt")


@pytest.mark.slow
def test_a_run_fitted_to_its_budget_ends_its_schedule_within_it(tmp_path, monkeypatch):
    from types import SimpleNamespace

    import models.train.trainer as trainer

    # a clock on which every step takes 10 ms, so that a loaded machine does not change the plan (at 10 ms, 190
    # steps fit in 95% of 2 s)
    ticks = iter(range(10**6))
    monkeypatch.setattr(trainer, "time", SimpleNamespace(perf_counter=lambda: next(ticks) * 0.01))
    lines: list[str] = []
    config = TrainConfig(epochs=2000, lr=1e-4, batch_size=4, max_length=32, budget_s=2.0, fit_budget=True)
    trainer.train_cross_encoder(fetch("splade"), PAIRS, config, lines.append)
    fitted = [line for line in lines if "steps fit in 2s" in line]
    assert len(fitted) == 1                        # 6,000 steps do not fit in 2 s
    planned = int(fitted[0].split(": ")[1].split(" of ")[0])
    assert planned == 190
    assert lines[-1].startswith(f"step {planned}/{planned} ")      # ran to the end of the shortened schedule
    assert not any(line.startswith("time budget") for line in lines)
