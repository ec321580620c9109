"""The cross-encoder and extractor recipes: data from TRAIN personas, thresholds and figures on DEV.

    python -m models.train cross_encoder --size small   --out models/artifacts/cross_encoder-small
    python -m models.train cross_encoder --size default --out models/artifacts/cross_encoder-default
    python -m models.train extractor     --size small   --out models/artifacts/extractor-small
    python -m models.train extractor     --size default --out models/artifacts/extractor-default

Each run writes the int8 ONNX artifact (model.onnx, tokenizer.json, config.json with the chosen thresholds,
label sets and dev figures) and a model card `models/cards/<artifact>.md`. Runs are bounded by `--budget-s`
(wall time of the training loop) and plan their size first: examples x tokens x parameters.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

SIZES = {
    # base weights, trainable top layers (None = all), learning rate, max tokens, examples by default
    "small": {"base": "splade", "layers": None, "lr": 2e-4, "max_length": 96, "examples": 6000, "max_event_ce": 1000},
    "default": {"base": "minilm", "layers": 3, "lr": 6e-5, "max_length": 96, "examples": 3000, "max_event_ce": 300},
}
# How many of the generator's TRAIN / DEV personas a recipe uses by default (each costs ~5 CPU minutes to
# generate, import and index once). TEST personas are never generated here.
TRAIN_PERSONAS = 2
DEV_PERSONAS = 1
DEV_QUERIES = 60   # RETRIEVE leaves of the dev question bank used for thresholds (a seeded sample)
CARDS = Path(__file__).resolve().parents[1] / "cards"


def persona_split() -> tuple[tuple[str, ...], tuple[str, ...]]:
    from app.persona.splits import PERSONAS

    return tuple(PERSONAS["train"][:TRAIN_PERSONAS]), tuple(PERSONAS["dev"][:DEV_PERSONAS])


def register(sub: Any) -> None:
    p = sub.add_parser("evaluate_extractor", help="recompute an extractor artifact's DEV figures (no training)")
    p.add_argument("--size", choices=["small", "default"], default="default")
    p.add_argument("--log", help="also append results to this file")
    p.set_defaults(run=run_evaluate_extractor)
    p = sub.add_parser("timing", help="time RETRIEVE + EXTRACT over 1,000 candidate events of a DEV persona")
    p.add_argument("--size", choices=["small", "default"], default="default")
    p.add_argument("--query", action="append", help="RETRIEVE queries (default: a few dev ones)")
    p.add_argument("--log", help="also append results to this file")
    p.set_defaults(run=run_timing)
    for name, run in (("cross_encoder", run_cross_encoder), ("extractor", run_extractor)):
        p = sub.add_parser(name, help=f"train, export and evaluate the {name.replace('_', '-')}")
        p.add_argument("--size", choices=sorted(SIZES), default="default")
        p.add_argument("--out", required=True)
        p.add_argument("--train", nargs="*", help="TRAIN persona ids (default: the generator's split)")
        p.add_argument("--dev", nargs="*", help="DEV persona ids (default: the generator's split)")
        p.add_argument("--examples", type=int, help="training examples (default per size)")
        p.add_argument("--epochs", type=float, default=1.0)
        p.add_argument("--budget-s", type=float, default=1200.0)
        p.add_argument("--head-lr-factor", type=float, default=10.0, help="learning-rate multiplier of the new heads")
        p.add_argument("--log", help="also append progress to this file")
        p.set_defaults(run=run)


def _logger(path: str | None) -> Callable[[str], None]:
    def log(message: str) -> None:
        line = f"{datetime.now().strftime('%H:%M:%S')} {message}"
        print(line, flush=True)
        if path:
            with open(path, "a", encoding="utf-8") as handle:
                handle.write(line + "\n")

    return log


def _setup(args: argparse.Namespace):
    from models.train.persona_data import persona_store

    log = _logger(args.log)
    train_ids, dev_ids = persona_split()
    train_ids = tuple(args.train or train_ids)
    dev_ids = tuple(args.dev or dev_ids)
    log(f"personas: train {train_ids}, dev {dev_ids}")
    train = [persona_store(p, log) for p in train_ids]
    dev = [persona_store(p, log) for p in dev_ids]
    return log, train, dev


# --- cross-encoder -----------------------------------------------------------------------------------

def run_cross_encoder(args: argparse.Namespace) -> None:
    from models.cross_encoder import CrossEncoder
    from models.export import export_artifact
    from models.train.base_weights import BASES, fetch
    from models.train.evaluate import CachedCrossEncoder, choose_thresholds
    from models.train.examples import cross_encoder_examples
    from models.train.nets import CrossEncoderNet
    from models.train.persona_data import retrieve_cases
    from models.train.trainer import TrainConfig, train_cross_encoder
    from app.retrieve.pipeline import ModelRetriever, RetrieveThresholds

    spec = SIZES[args.size]
    log, train, dev = _setup(args)
    started = time.perf_counter()
    cases = [c for ps in train for c in retrieve_cases(ps)]
    examples = cross_encoder_examples(cases)
    wanted = args.examples or spec["examples"]
    examples = _balanced(examples, wanted)
    log(f"{len(cases)} train queries -> {len(examples)} examples "
        f"({sum(e.head == 'pattern' for e in examples)} pattern, {sum(e.head == 'event' for e in examples)} event)")
    base = fetch(spec["base"])
    config = TrainConfig(epochs=args.epochs, lr=spec["lr"], max_length=spec["max_length"], budget_s=args.budget_s,
                         trainable_layers=spec["layers"], head_lr_factor=args.head_lr_factor)
    clock = time.perf_counter()
    net = train_cross_encoder(base, examples, config, log)
    train_seconds = time.perf_counter() - clock
    out = Path(args.out)
    reference = _ce_reference(net, base, spec["max_length"])
    export_artifact(net, out, tokenizer_json=base / "tokenizer.json", outputs=CrossEncoderNet.OUTPUTS,
                    config={"kind": "cross_encoder", "size": args.size, "max_length": spec["max_length"],
                            "reference": reference})
    log(f"exported {out}")
    # thresholds on DEV, with the int8 model that ships
    dev_cases = [(c.query, c.gold, ps.store, ps.reference_date)
                 for ps in dev for c in retrieve_cases(ps, templates=False, max_queries=DEV_QUERIES)]
    retriever = ModelRetriever(cross_encoder=CachedCrossEncoder(CrossEncoder(out)),
                               thresholds=RetrieveThresholds(max_event_ce=spec["max_event_ce"]))
    grid = {"relevant": [0.4, 0.6, 0.8], "irrelevant": [0.5, 0.7, 0.9], "keep": [0.2, 0.35, 0.5]}
    log(f"dev: {len(dev_cases)} queries; sweeping {grid}")
    chosen, figures = choose_thresholds(retriever, dev_cases, grid, log=log)
    retriever.close()
    log(f"dev: thresholds {chosen}; figures {json.dumps(figures)}")
    cfg_path = out / "config.json"
    cfg = json.loads(cfg_path.read_text())
    cfg["thresholds"] = {k: getattr(chosen, k) for k in ("pool_min_score", "relevant", "irrelevant", "keep", "min_count",
                                                         "max_patterns", "max_event_ce")}
    cfg["dev"] = figures
    cfg_path.write_text(json.dumps(cfg, indent=2) + "\n")
    _card(out, args, spec, BASES[spec["base"]], train, dev, len(cases), len(examples), train_seconds,
          time.perf_counter() - started, {"dev retrieve figures (micro/macro, per stage)": figures,
                                          "thresholds": cfg["thresholds"]})


REFERENCE_PAIRS = [
    ("football games", "workout | Saturday 2023-05-06 afternoon | Soccer, 90 min | workout_type: soccer"),
    ("Italian food", "mail | Friday 2023-05-12 evening | Dinner? | body: I fired up the pizza oven, come over at 8"),
    ("songs by Adele", "music stream | e.g. Adele - Hello; Adele - Skyfall"),
    ("doctor appointments", "online purchase | Tuesday 2022-03-01 night | Pizza stone | product: Pizza stone"),
]
REFERENCE_EXTRACT = [
    ("cuisine", "mail | Friday 2023-05-12 evening | Dinner? | body: I fired up the pizza oven, come over at 8"),
    ("participants", "calendar | Sunday 2023-04-09 evening | Coffee with Anna and Tom | people: Anna Berg, Tom Lee"),
    ("artist", "music stream | Monday 2020-03-02 morning | Hozier - Work Song | artist: Hozier | track: Work Song"),
]


def _ce_reference(net: Any, base: Path, max_length: int) -> dict[str, Any]:
    """The PyTorch model's logits on fixed pairs, so tests can check the int8 ONNX model against them."""
    import torch

    from models.runtime import OnnxModel

    ids, mask, types = OnnxModel(base).encode_pairs([q for q, _ in REFERENCE_PAIRS], [t for _, t in REFERENCE_PAIRS],
                                                    max_length=max_length)
    with torch.no_grad():
        pattern, event = net(torch.from_numpy(ids), torch.from_numpy(mask), torch.from_numpy(types))
    return {"pairs": REFERENCE_PAIRS, "pattern_logits": pattern.tolist(), "event_logits": event.tolist()}


def _extractor_reference(net: Any, base: Path) -> dict[str, Any]:
    import numpy as np
    import torch

    from models.extractor import Extractor

    encoder = Extractor(base)
    encoder.model._config = {"max_length": 128}
    modes, labels = [], []
    for key, text in REFERENCE_EXTRACT:
        feeds, _ = encoder._encode(key, [text])
        with torch.no_grad():
            mode, _, label = net(*(torch.from_numpy(feeds[n]) for n in ("input_ids", "attention_mask", "token_type_ids")))
        modes.append(mode[0].tolist())
        labels.append(label[0].tolist())
    return {"inputs": REFERENCE_EXTRACT, "mode_logits": modes, "label_logits": labels,
            "label_argmax": [int(np.argmax(row)) for row in labels]}


def _balanced(examples: list, wanted: int) -> list:
    """At most `wanted` examples, as even as possible over (head, label): irrelevant patterns outnumber the
    others 20 to 1 in the raw data."""
    rng = random.Random(13)
    groups: dict[tuple[str, int], list] = {}
    for e in examples:
        groups.setdefault((e.head, e.label), []).append(e)
    for members in groups.values():
        rng.shuffle(members)
    chosen: list = []
    while len(chosen) < wanted and any(groups.values()):
        for members in groups.values():
            if members and len(chosen) < wanted:
                chosen.append(members.pop())
    rng.shuffle(chosen)
    return chosen


# --- extractor ---------------------------------------------------------------------------------------

def run_extractor(args: argparse.Namespace) -> None:
    from models.export import export_artifact
    from models.extractor import Extractor
    from models.train.base_weights import BASES, fetch
    from models.train.examples import extractor_examples
    from models.train.nets import ExtractorNet
    from models.train.persona_data import extract_cases, label_sets
    from models.train.trainer import TrainConfig, train_extractor

    spec = SIZES[args.size]
    log, train, dev = _setup(args)
    started = time.perf_counter()
    key_labels = label_sets(train)
    labels = sorted({v for values in key_labels.values() for v in values})
    cases = [c for ps in train for c in extract_cases(ps)]
    examples, counts = extractor_examples(cases, labels, key_labels)
    wanted = args.examples or spec["examples"]
    rng = random.Random(13)
    if len(examples) > wanted:
        examples = rng.sample(examples, wanted)
    log(f"{len(cases)} train cases {counts} -> {len(examples)} examples, {len(labels)} labels")
    base = fetch(spec["base"])
    config = TrainConfig(epochs=args.epochs, lr=spec["lr"], max_length=128, budget_s=args.budget_s,
                         trainable_layers=spec["layers"], head_lr_factor=args.head_lr_factor)
    clock = time.perf_counter()
    net = train_extractor(base, examples, len(labels), config, log)
    train_seconds = time.perf_counter() - clock
    out = Path(args.out)
    reference = _extractor_reference(net, base)
    export_artifact(net, out, tokenizer_json=base / "tokenizer.json", outputs=ExtractorNet.OUTPUTS,
                    token_outputs=("tag_logits",),
                    config={"kind": "extractor", "size": args.size, "max_length": 128, "labels": labels,
                            "key_labels": key_labels, "reference": reference})
    log(f"exported {out}")
    dev_cases = [c for ps in dev for c in extract_cases(ps, per_kind=25)]
    figures = extract_accuracy(Extractor(out), dev_cases, key_labels)
    log(f"dev: {json.dumps(figures)}")
    cfg_path = out / "config.json"
    cfg = json.loads(cfg_path.read_text())
    cfg["dev"] = figures
    cfg_path.write_text(json.dumps(cfg, indent=2) + "\n")
    _card(out, args, spec, BASES[spec["base"]], train, dev, len(cases), len(examples), train_seconds,
          time.perf_counter() - started, {"dev extract accuracy": figures, "example kinds": counts})


def run_evaluate_extractor(args: argparse.Namespace) -> None:
    from models.extractor import SIZES, Extractor
    from models.runtime import artifact_dir
    from models.train.persona_data import extract_cases, persona_store

    log = _logger(args.log)
    _, dev_ids = persona_split()
    dev = [persona_store(p, log) for p in dev_ids]
    out = artifact_dir(SIZES[args.size])
    cfg_path = out / "config.json"
    cfg = json.loads(cfg_path.read_text())
    dev_cases = [c for ps in dev for c in extract_cases(ps, per_kind=25)]
    model = Extractor(out)
    best = None
    for threshold in (0.5, 0.7, 0.85, 0.95):
        model.none_threshold = threshold
        figures = extract_accuracy(model, dev_cases, cfg["key_labels"])
        score = sum(figures[k]["accuracy"] or 0.0 for k in ("existing", "inferred", "none")) / 3
        log(f"dev {args.size} none_threshold {threshold}: mean {score:.4f} {json.dumps(figures)}")
        if best is None or score > best[0]:
            best = (score, threshold, figures)
    _, threshold, figures = best
    cfg["none_threshold"] = threshold
    cfg["dev"] = figures
    cfg_path.write_text(json.dumps(cfg, indent=2) + "\n")
    card = CARDS / f"{out.name}.md"
    text = card.read_text(encoding="utf-8")
    head, _, _ = text.partition("## Dev figures")
    card.write_text(head + "## Dev figures\n\n```json\n"
                    + json.dumps({"dev extract accuracy": figures, "none_threshold": threshold}, indent=1)
                    + "\n```\n", encoding="utf-8")


from models.extract_eval import extract_accuracy  # noqa: E402  (shared with the bench)


def _layers_text(layers: int | None) -> str:
    return "all (word embeddings frozen)" if layers is None else f"top {layers} (embeddings and lower layers frozen)"


# --- timing ------------------------------------------------------------------------------------------

TIMING_QUERIES = ("I went running", "emails from Johanna", "I bought something online", "Italian food")


def run_timing(args: argparse.Namespace) -> None:
    from app.extract.model_extractor import ModelExtractor
    from app.retrieve.pipeline import ModelRetriever
    from models.train.evaluate import time_retrieve_extract
    from models.train.persona_data import persona_store

    log = _logger(args.log)
    _, dev_ids = persona_split()
    ps = persona_store(dev_ids[0], log)
    retriever = ModelRetriever(args.size)
    extractor = ModelExtractor(args.size, people=ps.people)
    for query in args.query or TIMING_QUERIES:
        for _ in range(2):  # the first run loads the models; report the second
            result = time_retrieve_extract(retriever, extractor, ps.store, query, ps.reference_date,
                                           ["start_date", "cuisine"])
        log(f"timing {args.size} on {ps.persona_id}: {json.dumps(result)}")
    retriever.close()
    extractor.close()


# --- model card --------------------------------------------------------------------------------------

def _card(out: Path, args, spec, base, train, dev, n_cases, n_examples, train_seconds, total_seconds, figures) -> None:
    from models.runtime import sha256_file

    name = out.name
    size_mb = (out / "model.onnx").stat().st_size / 1e6
    lines = [
        f"# {name}",
        "",
        "| | |",
        "| --- | --- |",
        f"| artifact | `models/artifacts/{name}/` (`model.onnx`, `tokenizer.json`, `config.json`) |",
        f"| model.onnx sha256 | `{sha256_file(out / 'model.onnx')}` |",
        f"| size | {size_mb:.1f} MB (int8, dynamic quantization of MatMul/Gemm/Gather weights) |",
        f"| base weights | `{base.package}=={base.version}` ({base.member_prefix}), {base.license} |",
        f"| trained layers | {_layers_text(spec['layers'])} |",
        f"| data | TRAIN personas {', '.join(p.persona_id for p in train)}: {n_cases} cases -> {n_examples} examples; DEV personas {', '.join(p.persona_id for p in dev)} |",
        f"| steps | {args.epochs} epoch(s), batch 16, lr {spec['lr']}, max {spec['max_length'] if 'cross' in name else 128} tokens, AdamW, linear decay, budget {args.budget_s:.0f} s |",
        f"| wall time here | training {train_seconds / 60:.1f} min, whole recipe {total_seconds / 60:.1f} min (2 shared CPU cores) |",
        f"| made | {datetime.now(timezone.utc).strftime('%Y-%m-%d')} |",
        "",
        "## Reproduce",
        "",
        "```sh",
        ".venv/bin/pip install -e '.[train]'",
        f".venv/bin/python -m models.train {args.run.__name__.replace('run_', '')} --size {args.size} --out models/artifacts/{name}"
        + (f" --examples {args.examples}" if args.examples else "")
        + f" --epochs {args.epochs:g} --budget-s {args.budget_s:.0f} --head-lr-factor {args.head_lr_factor:g}",
        "```",
        "",
        "Training on CPU is deterministic for a given thread count, but a wall-time budget that cuts a run short",
        "makes the bytes depend on the machine's speed, and the data depend on the persona generator's version (stores are pinned in",
        "the training cache); the recorded sha256 is of the committed file.",
        "",
        "## Dev figures",
        "",
        "```json",
        json.dumps(figures, indent=1),
        "```",
        "",
    ]
    CARDS.mkdir(parents=True, exist_ok=True)
    (CARDS / f"{name}.md").write_text("\n".join(lines), encoding="utf-8")
