"""Training a recipe's network on another machine (a lent GPU) while the data and the export stay here.

The recipes build their examples from persona stores that only this machine has; the training loop is the
part a GPU speeds up. So a recipe can stop after its examples (`--save-examples PACK`), the loop runs where
the GPU is (`python -m models.train fit PACK --base DIR --out STATE --device cuda`), and the recipe runs again
with `--load-state STATE`: it rebuilds the same examples' figures, loads the trained weights instead of
training, and exports, chooses thresholds and writes the card as usual.

A pack is JSON (examples and the TrainConfig), gzipped, or xz-compressed when its name ends in .xz (a quarter of
the size: what travels to a lent machine is limited), never pickle: nothing read here is executed. The state
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
import lzma
from dataclasses import asdict
from pathlib import Path
from typing import Any, Callable, Sequence

KINDS = ("cross_encoder", "extractor")


def save_pack(path: Path, kind: str, examples: Sequence[Any], config: Any, *, n_labels: int = 0,
              meta: dict[str, Any] | None = None) -> None:
    """`meta`: what the recipe's card says of its data (cases, example kinds); `fit` keeps it beside the state."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}; one of {KINDS}")
    pack = {"kind": kind, "config": asdict(config), "n_labels": n_labels, "meta": meta or {},
            "examples": [_example_json(e) for e in examples]}
    with _open(path, "wt") as handle:
        json.dump(pack, handle)


def _open(path: Path, mode: str):
    opener = lzma.open if str(path).endswith(".xz") else gzip.open
    return opener(path, mode, encoding="utf-8")


def pack_meta(paths: Path | Sequence[Path]) -> dict[str, Any]:
    """The data figures of one pack, or of several summed (cases, examples)."""
    total: dict[str, Any] = {"packs": [], "cases": 0, "examples": 0}
    for path in [paths] if isinstance(paths, Path) else paths:
        with _open(path, "rt") as handle:
            pack = json.load(handle)
        meta = pack.get("meta", {})
        total["packs"].append({"pack": Path(path).name, **meta, "examples": len(pack["examples"])})
        total["cases"] += meta.get("cases", 0)
        total["examples"] += len(pack["examples"])
    return total


def read_pack(path: Path) -> tuple[str, list[Any], Any, int]:
    from models.train.trainer import ExtractExample, PairExample, TrainConfig

    with _open(path, "rt") as handle:
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


def fit_pack(paths: Path | Sequence[Path], base_dir: Path, *, device: str, log: Callable[[str], None] = print,
             batch_size: int | None = None, lr: float | None = None, budget_s: float | None = None,
             fit_budget: bool = False) -> Any:
    """Train from one pack, or from several of one kind (their examples together, the first one's settings), on
    `device`; `batch_size`, `lr` and `budget_s` replace the pack's (a GPU wants larger batches than the 16 that
    suit two CPU cores); `fit_budget`: as many steps as the measured speed fits in the budget, the schedule
    shortened to end there."""
    from dataclasses import replace

    paths = [paths] if isinstance(paths, Path) else list(paths)
    kind, examples, config, n_labels = read_pack(paths[0])
    for more in paths[1:]:
        other_kind, other_examples, _, other_labels = read_pack(more)
        if (other_kind, other_labels) != (kind, n_labels):
            raise ValueError(f"{more}: a {other_kind} pack with {other_labels} labels does not go with {paths[0]} "
                             f"({kind}, {n_labels} labels)")
        examples.extend(other_examples)
    config = replace(config, device=device, batch_size=batch_size or config.batch_size, lr=lr or config.lr,
                     budget_s=budget_s or config.budget_s, fit_budget=fit_budget)
    log(f"{', '.join(map(str, paths))}: {kind}, {len(examples)} examples, {config.epochs} epoch(s), "
        f"batch {config.batch_size}, lr {config.lr:g}, on {device}")
    return _train(kind, base_dir, examples, config, n_labels, log)


def _train(kind: str, base_dir: Path, examples: Sequence[Any], config: Any, n_labels: int,
           log: Callable[[str], None]) -> Any:
    from models.train.trainer import train_cross_encoder, train_extractor

    if kind == "cross_encoder":
        return train_cross_encoder(base_dir, examples, config, log)
    return train_extractor(base_dir, examples, n_labels, config, log)


def save_state(net: Any, path: Path, meta: dict[str, Any] | None = None) -> None:
    """The trained parameters to `path`, and `meta` (the pack's, how it was trained) to `path` + ".json"."""
    import torch

    trained = {name: p.detach().cpu() for name, p in net.named_parameters() if p.requires_grad}
    torch.save(trained, path)
    if meta is not None:
        Path(f"{path}.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")


def state_meta(path: Path) -> dict[str, Any]:
    """What `fit` wrote beside a state: the pack's meta, its examples, and the training that ran."""
    side = Path(f"{path}.json")
    if not side.is_file():
        raise ValueError(f"{path}: no {side.name} beside it (written by `python -m models.train fit`)")
    return json.loads(side.read_text(encoding="utf-8"))


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
                     log: Callable[[str], None], *, n_labels: int = 0, meta: dict[str, Any] | None = None) -> Any | None:
    """What a recipe does at its training step: train here, write a pack and stop (None), or load a state."""
    if getattr(args, "save_examples", None):
        save_pack(Path(args.save_examples), kind, examples, config, n_labels=n_labels, meta=meta)
        log(f"wrote {len(examples)} examples to {args.save_examples}; train with `python -m models.train fit`, "
            f"then run this recipe again with --load-state")
        return None
    if getattr(args, "load_state", None):
        log(f"trained weights from {args.load_state}")
        return load_state(kind, base_dir, config, Path(args.load_state), n_labels=n_labels)
    return _train(kind, base_dir, examples, config, n_labels, log)


def register(sub: Any) -> None:
    p = sub.add_parser("fit", help="train a recipe's network from a pack written by --save-examples (on a GPU)")
    p.add_argument("pack", type=Path, nargs="+", help="one pack, or several of one kind trained together")
    p.add_argument("--base", type=Path, required=True, help="the base weights folder (models.train.base_weights)")
    p.add_argument("--out", type=Path, required=True, help="where the trained parameters go (torch file)")
    p.add_argument("--device", default="cuda")
    p.add_argument("--batch-size", type=int, help="instead of the pack's batch size")
    p.add_argument("--lr", type=float, help="instead of the pack's learning rate")
    p.add_argument("--budget-s", type=float, help="instead of the pack's time budget")
    p.add_argument("--fit-budget", action="store_true",
                   help="fewer steps when the measured speed does not fit them all in the budget (the schedule ends)")
    p.add_argument("--log", type=Path, help="also write the progress to this file")
    p.set_defaults(run=run_fit)


def run_fit(args: argparse.Namespace) -> None:
    handle = open(args.log, "a", encoding="utf-8") if args.log else None

    def log(message: str) -> None:
        if handle is not None:
            handle.write(message + "\n")
            handle.flush()
        if handle is None or "step" not in message or message.startswith("time budget"):
            print(message, flush=True)

    import time

    started = time.perf_counter()
    steps: list[str] = []
    net = fit_pack(args.pack, args.base, device=args.device, log=lambda m: (steps.append(m), log(m)),
                   batch_size=args.batch_size, lr=args.lr, budget_s=args.budget_s, fit_budget=args.fit_budget)
    meta = {**pack_meta(args.pack), "device": args.device, "batch_size": args.batch_size, "lr": args.lr,
            "train_seconds": round(time.perf_counter() - started, 1),
            "last_step": next((m for m in reversed(steps) if m.startswith("step ")), "")}
    save_state(net, args.out, meta)
    log(f"wrote {args.out}")


def add_offload_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--save-examples", metavar="PACK",
                   help="write the training examples and settings to PACK (gzipped JSON) and stop, for `fit` elsewhere")
    p.add_argument("--load-state", metavar="STATE", help="use parameters trained by `fit` instead of training here")


def _example_json(example: Any) -> dict[str, Any]:
    data = asdict(example)
    if "spans" in data:
        data["spans"] = [list(s) for s in data["spans"]]
    return data
