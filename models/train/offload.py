"""Training a recipe's network on another machine (a lent GPU) while the data and the export stay here.

The recipes build their examples from persona stores that only this machine has; the training loop is the
part a GPU speeds up. So a recipe can stop after its examples (`--save-examples PACK`), the loop runs where
the GPU is (`python -m models.train fit PACK --base DIR --out STATE --device cuda`), and the recipe runs again
with `--load-state STATE`: it rebuilds the same examples' figures, loads the trained weights instead of
training, and exports, chooses thresholds and writes the card as usual.

A pack is gzipped JSON (examples and the TrainConfig), never pickle: nothing read here is executed. The state
holds only the parameters that were trained (the frozen word embeddings come from the base weights again).

    save_pack(path, "cross_encoder", examples, config)            # then stop
    net = fit_pack(path, base_dir, device="cuda")                  # on the GPU machine
    save_state(net, state_path)
    net = load_state("cross_encoder", base_dir, config, state_path)   # back here, then export
"""

from __future__ import annotations

import argparse
import gzip
import json
from dataclasses import asdict
from pathlib import Path
from typing import Any, Callable, Sequence

KINDS = ("cross_encoder", "extractor")


def save_pack(path: Path, kind: str, examples: Sequence[Any], config: Any, *, n_labels: int = 0) -> None:
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}; one of {KINDS}")
    pack = {"kind": kind, "config": asdict(config), "n_labels": n_labels,
            "examples": [_example_json(e) for e in examples]}
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        json.dump(pack, handle)


def read_pack(path: Path) -> tuple[str, list[Any], Any, int]:
    from models.train.trainer import ExtractExample, PairExample, TrainConfig

    with gzip.open(path, "rt", encoding="utf-8") as handle:
        pack = json.load(handle)
    kind = pack["kind"]
    if kind == "cross_encoder":
        examples = [PairExample(**e) for e in pack["examples"]]
    elif kind == "extractor":
        examples = [ExtractExample(e["key"], e["segment"], e["mode"], tuple(tuple(s) for s in e["spans"]), e["label"])
                    for e in pack["examples"]]
    else:
        raise ValueError(f"{path}: unknown kind {kind!r}; one of {KINDS}")
    return kind, examples, TrainConfig(**pack["config"]), int(pack["n_labels"])


def fit_pack(path: Path, base_dir: Path, *, device: str, log: Callable[[str], None] = print) -> Any:
    from dataclasses import replace

    from models.train.trainer import train_cross_encoder, train_extractor

    kind, examples, config, n_labels = read_pack(path)
    config = replace(config, device=device)
    log(f"{path}: {kind}, {len(examples)} examples, {config.epochs} epoch(s), batch {config.batch_size}, on {device}")
    if kind == "cross_encoder":
        return train_cross_encoder(base_dir, examples, config, log)
    return train_extractor(base_dir, examples, n_labels, config, log)


def save_state(net: Any, path: Path) -> None:
    import torch

    trained = {name: p.detach().cpu() for name, p in net.named_parameters() if p.requires_grad}
    torch.save(trained, path)


def load_state(kind: str, base_dir: Path, config: Any, path: Path, *, n_labels: int = 0) -> Any:
    """The recipe's network with the trained parameters of `path`; every trainable parameter must be there."""
    import torch

    from models.train.nets import CrossEncoderNet, ExtractorNet

    net = (CrossEncoderNet(base_dir, trainable_layers=config.trainable_layers) if kind == "cross_encoder"
           else ExtractorNet(base_dir, n_labels, trainable_layers=config.trainable_layers))
    trained = torch.load(path, map_location="cpu", weights_only=True)
    wanted = {name for name, p in net.named_parameters() if p.requires_grad}
    if set(trained) != wanted:
        missing, extra = sorted(wanted - set(trained)), sorted(set(trained) - wanted)
        raise ValueError(f"{path}: not a trained {kind} of this recipe (missing {missing[:3]}, unexpected {extra[:3]})")
    net.load_state_dict(trained, strict=False)
    net.eval()
    return net


def train_or_offload(kind: str, args: argparse.Namespace, base_dir: Path, examples: Sequence[Any], config: Any,
                     log: Callable[[str], None], *, n_labels: int = 0) -> Any | None:
    """What a recipe does at its training step: train here, write a pack and stop (None), or load a state."""
    from models.train.trainer import train_cross_encoder, train_extractor

    if getattr(args, "save_examples", None):
        save_pack(Path(args.save_examples), kind, examples, config, n_labels=n_labels)
        log(f"wrote {len(examples)} examples to {args.save_examples}; train with `python -m models.train fit`, "
            f"then run this recipe again with --load-state")
        return None
    if getattr(args, "load_state", None):
        log(f"trained weights from {args.load_state}")
        return load_state(kind, base_dir, config, Path(args.load_state), n_labels=n_labels)
    if kind == "cross_encoder":
        return train_cross_encoder(base_dir, examples, config, log)
    return train_extractor(base_dir, examples, n_labels, config, log)


def register(sub: Any) -> None:
    p = sub.add_parser("fit", help="train a recipe's network from a pack written by --save-examples (on a GPU)")
    p.add_argument("pack", type=Path)
    p.add_argument("--base", type=Path, required=True, help="the base weights folder (models.train.base_weights)")
    p.add_argument("--out", type=Path, required=True, help="where the trained parameters go (torch file)")
    p.add_argument("--device", default="cuda")
    p.set_defaults(run=run_fit)


def run_fit(args: argparse.Namespace) -> None:
    net = fit_pack(args.pack, args.base, device=args.device)
    save_state(net, args.out)
    print(f"wrote {args.out}")


def add_offload_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--save-examples", metavar="PACK",
                   help="write the training examples and settings to PACK (gzipped JSON) and stop, for `fit` elsewhere")
    p.add_argument("--load-state", metavar="STATE", help="use parameters trained by `fit` instead of training here")


def _example_json(example: Any) -> dict[str, Any]:
    data = asdict(example)
    if "spans" in data:
        data["spans"] = [list(s) for s in data["spans"]]
    return data
