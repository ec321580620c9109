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
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

SIZES = {
    # base weights, trainable top layers (None = all), learning rate, max tokens, examples by default
    "small": {"base": "splade", "layers": None, "lr": 2e-4, "max_length": 96, "examples": 6000, "max_event_ce": 1000,
              "feedback_docs": 5, "feedback_pool": 10000, "name_filter": True},
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
    """The recipes' sub-commands, in the order `--help` lists them."""
    _register_evaluate_extractor(sub)
    _register_timing(sub)
    _register_label_memory(sub)
    _register_cross_encoder_thresholds(sub)
    for name, run in (("cross_encoder", run_cross_encoder), ("extractor", run_extractor)):
        p = _training_parser(sub, name)
        if name == "extractor":
            _extractor_arguments(p)
        if name == "cross_encoder":
            _cross_encoder_arguments(p)
        p.set_defaults(run=run)


def _register_evaluate_extractor(sub: Any) -> None:
    p = sub.add_parser("evaluate_extractor", help="recompute an extractor artifact's DEV figures (no training)")
    p.add_argument("--size", choices=["small", "default"], default="default")
    p.add_argument("--log", help="also append results to this file")
    p.set_defaults(run=run_evaluate_extractor)


def _register_timing(sub: Any) -> None:
    p = sub.add_parser("timing", help="time RETRIEVE + EXTRACT over 1,000 candidate events of a DEV persona")
    p.add_argument("--size", choices=["small", "default"], default="default")
    p.add_argument("--query", action="append", help="RETRIEVE queries (default: a few dev ones)")
    p.add_argument("--log", help="also append results to this file")
    p.set_defaults(run=run_timing)


def _register_label_memory(sub: Any) -> None:
    p = sub.add_parser("label_memory", help="count the label memory (naive Bayes over event words) on TRAIN, "
                                            "choose its threshold on DEV with the extractor of --size")
    p.add_argument("--size", choices=["small", "default"], default="small")
    p.add_argument("--out", default=str(Path(__file__).resolve().parents[1] / "artifacts" / "label-memory"))
    p.add_argument("--per-kind", type=int, default=3000, help="train events per canonical kind and persona")
    p.add_argument("--train", nargs="*", help="TRAIN persona ids (default: the generator's split)")
    p.add_argument("--dev", nargs="*", help="DEV persona ids (default: the generator's split)")
    p.add_argument("--log", help="also append results to this file")
    p.set_defaults(run=run_label_memory)


def _register_cross_encoder_thresholds(sub: Any) -> None:
    p = sub.add_parser("cross_encoder_thresholds",
                       help="re-choose a cross-encoder artifact's RETRIEVE thresholds on DEV (no training)")
    p.add_argument("--size", choices=["small", "default"], default="small")
    p.add_argument("--out", help="the artifact folder (default: the committed one of --size)")
    p.add_argument("--log", help="also append results to this file")
    p.set_defaults(run=run_cross_encoder_thresholds)


def _training_parser(sub: Any, name: str) -> argparse.ArgumentParser:
    """The sub-command of a training recipe with the options both have: size, personas, examples, schedule,
    log, and training elsewhere (models/train/offload.py)."""
    from models.train.offload import add_offload_arguments

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
    add_offload_arguments(p)
    return p


def _extractor_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--per-kind", type=int, default=60, help="train events per canonical kind and persona")
    p.add_argument("--group-cap", type=int, default=0,
                   help="at most this many examples per (key, source, mode); 0: no cap")
    p.add_argument("--none-ratio", type=float,
                   help="with --group-cap: at most this many 'none' examples per span or label example")
    p.add_argument("--tag-weight", type=float, default=1.0,
                   help="weight of B and I tokens against O in the tag loss (1: unweighted)")


def _cross_encoder_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--events-per-case", type=int, default=12,
                   help="gold events and as many non-gold events per training query")
    p.add_argument("--hard-share", type=float, default=0.0,
                   help="share of the non-gold events taken from the sources that hold gold events")
    p.add_argument("--near-share", type=float, default=0.0,
                   help="share of the non-gold events that are the pool's best-ranked non-gold events")
    p.add_argument("--query-seeds", type=int, default=1,
                   help="draws of the template queries per persona (other artists, shows, wordings)")
    p.add_argument("--class-weights", action="store_true",
                   help="weigh each head's loss by the inverse square root of its label counts")
    p.add_argument("--dev-bench", action="store_true",
                   help="choose thresholds on the bench's DEV stores (all DEV personas, every RETRIEVE "
                        "leaf of the dev question bank), recall averaged per query")


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
    train_ids = tuple(getattr(args, "train", None) or train_ids)
    dev_ids = tuple(getattr(args, "dev", None) or dev_ids)
    log(f"personas: train {train_ids}, dev {dev_ids}")
    train = [persona_store(p, log) for p in train_ids]
    dev = [persona_store(p, log) for p in dev_ids]
    return log, train, dev


# --- cross-encoder -----------------------------------------------------------------------------------

def run_cross_encoder(args: argparse.Namespace) -> None:
    from models.export import export_artifact
    from models.train.base_weights import BASES, fetch
    from models.train.examples import cross_encoder_examples
    from models.train.nets import CrossEncoderNet
    from models.train.offload import train_or_offload
    from models.train.trainer import TrainConfig

    spec = SIZES[args.size]
    dev_bench = getattr(args, "dev_bench", False)
    log, train, dev = _setup(args)
    started = time.perf_counter()
    base = fetch(spec["base"])
    clock = time.perf_counter()
    if getattr(args, "load_state", None):   # trained elsewhere (`fit`): the data's figures come with the state
        from models.train.offload import load_state, state_meta

        meta = state_meta(Path(args.load_state))
        n_cases, n_examples = meta["cases"], meta["examples"]
        net = load_state("cross_encoder", base, TrainConfig(trainable_layers=spec["layers"]), Path(args.load_state))
        log(f"trained weights from {args.load_state}: {json.dumps(meta)}")
        clock -= meta.get("train_seconds", 0.0)
    else:
        cases = _retrieve_training_cases(train, getattr(args, "query_seeds", 1))
        examples = cross_encoder_examples(cases, events_per_case=getattr(args, "events_per_case", 12),
                                          hard_share=getattr(args, "hard_share", 0.0),
                                          near_share=getattr(args, "near_share", 0.0))
        examples = _balanced(examples, args.examples or spec["examples"])
        n_cases, n_examples = len(cases), len(examples)
        log(f"{n_cases} train queries -> {n_examples} examples "
            f"({sum(e.head == 'pattern' for e in examples)} pattern, {sum(e.head == 'event' for e in examples)} event)")
        weights = _class_weights(examples) if getattr(args, "class_weights", False) else {}
        if weights:
            log(f"class weights (inverse square root of the counts): {weights}")
        config = TrainConfig(epochs=args.epochs, lr=spec["lr"], max_length=spec["max_length"], budget_s=args.budget_s,
                             trainable_layers=spec["layers"], head_lr_factor=args.head_lr_factor, class_weights=weights)
        clock = time.perf_counter()
        net = train_or_offload("cross_encoder", args, base, examples, config, log, meta={"cases": n_cases})
        if net is None:
            return
    train_seconds = time.perf_counter() - clock
    out = Path(args.out)
    reference = _ce_reference(net, base, spec["max_length"])
    export_artifact(net, out, tokenizer_json=base / "tokenizer.json", outputs=CrossEncoderNet.OUTPUTS,
                    config={"kind": "cross_encoder", "size": args.size, "max_length": spec["max_length"],
                            "reference": reference})
    log(f"exported {out}")
    # thresholds on DEV, with the int8 model that ships
    dev, thresholds, figures = _ce_dev_thresholds(out, spec, dev, dev_bench, log)
    _card(out, args, spec, BASES[spec["base"]], train, dev, n_cases, n_examples, train_seconds,
          time.perf_counter() - started, {"dev retrieve figures (micro/macro, per stage)": figures,
                                          "thresholds": thresholds})


# RetrieveThresholds a size's spec fixes (the rest keep their defaults or are swept on DEV)
SPEC_THRESHOLDS = ("max_event_ce", "feedback_docs", "feedback_pool", "name_filter")
THRESHOLD_KEYS = ("pool_min_score", "relevant", "irrelevant", "keep", "min_count", "max_patterns", "max_event_ce",
                  "value_irrelevant", "bm25_pool", "feedback_docs", "feedback_weight", "feedback_pool", "name_filter")


def _ce_dev_thresholds(out: Path, spec: dict, dev: list, dev_bench: bool, log: Callable[[str], None]):
    """Choose the RETRIEVE thresholds of the artifact in `out` on DEV and write them (and the figures) into its
    config.json. `dev_bench`: every RETRIEVE leaf of the dev question bank on the bench's own stores of all DEV
    personas, recall averaged per query (as the bench scores); else a sample of `dev`'s leaves, micro recall.
    Returns (the DEV personas used, the thresholds, the figures)."""
    from app.retrieve.pipeline import ModelRetriever, RetrieveThresholds
    from models.cross_encoder import CrossEncoder
    from models.train.evaluate import CachedCrossEncoder, choose_thresholds
    from models.train.persona_data import retrieve_cases

    if dev_bench:
        from models.train.persona_data import bench_persona_store

        from app.persona.splits import PERSONAS

        dev = [bench_persona_store(p, log) for p in PERSONAS["dev"]]  # all of them, as the bench scores
        dev_cases = [(c.query, c.gold, ps.store, ps.reference_date)
                     for ps in dev for c in retrieve_cases(ps, templates=False)]
        # recall first: a source is dropped only when the model is all but sure (1.01: never)
        grid = {"relevant": [0.5], "irrelevant": [0.97, 0.995, 0.999, 1.01], "value_irrelevant": [0.97, 0.995, 0.999],
                "keep": [0.05, 0.1, 0.25, 0.5]}
        average = "macro"
    else:
        dev_cases = [(c.query, c.gold, ps.store, ps.reference_date)
                     for ps in dev for c in retrieve_cases(ps, templates=False, max_queries=DEV_QUERIES)]
        grid = {"relevant": [0.4, 0.6, 0.8], "irrelevant": [0.5, 0.7, 0.9], "keep": [0.2, 0.35, 0.5]}
        average = "micro"
    retriever = ModelRetriever(cross_encoder=CachedCrossEncoder(CrossEncoder(out, threads=1)),
                               thresholds=RetrieveThresholds(**{k: spec[k] for k in SPEC_THRESHOLDS if k in spec}))
    log(f"dev: {len(dev_cases)} queries; sweeping {grid} (recall first, {average})")
    chosen, figures = choose_thresholds(retriever, dev_cases, grid, average=average, log=log)
    retriever.close()
    log(f"dev: thresholds {chosen}; figures {json.dumps(figures)}")
    cfg_path = out / "config.json"
    cfg = json.loads(cfg_path.read_text())
    cfg["thresholds"] = {k: getattr(chosen, k) for k in THRESHOLD_KEYS}
    cfg["dev"] = figures
    cfg_path.write_text(json.dumps(cfg, indent=2) + "\n")
    return dev, cfg["thresholds"], figures


def run_cross_encoder_thresholds(args: argparse.Namespace) -> None:
    """Re-choose a committed cross-encoder's thresholds on DEV with the current pipeline (no training) and
    replace the dev figures of its card."""
    from models.cross_encoder import SIZES as CE_SIZES
    from models.runtime import artifact_dir

    log = _logger(args.log)
    out = Path(args.out) if args.out else artifact_dir(CE_SIZES[args.size])
    _, thresholds, figures = _ce_dev_thresholds(out, SIZES[args.size], [], True, log)
    replace_card_section(CARDS / f"{out.name}.md", "Dev figures",
                         f"Thresholds chosen with `python -m models.train cross_encoder_thresholds --size {args.size}`.\n\n"
                         + "```json\n" + json.dumps({"dev retrieve figures (micro/macro, per stage)": figures,
                                                      "thresholds": thresholds}, indent=1) + "\n```\n")


def replace_card_section(card: Path, heading: str, body: str) -> None:
    """Write `body` as the card's `## heading` section (appended when missing); the sections after it stay
    (the hand-written notes of a card survive a re-run of its evaluation)."""
    text = card.read_text(encoding="utf-8") if card.exists() else ""
    marker = f"## {heading}\n"
    head, found, rest = text.partition(marker)
    _, next_heading, tail = rest.partition("\n## ") if found else ("", "", "")
    after = "\n## " + tail if next_heading else ""
    if not found:
        head = head.rstrip("\n") + "\n\n" if head.strip() else ""
    card.write_text(head + marker + "\n" + body + after, encoding="utf-8")


def _class_weights(examples: list) -> dict[str, list[float]]:
    """Per head, loss weights (n_max / n_label) ** 0.5: relevant and partly patterns are rare next to the
    irrelevant ones even after balancing, and a head that learns "irrelevant" by default loses recall."""
    from models.train.nets import EVENT_LABELS, PATTERN_LABELS

    out: dict[str, list[float]] = {}
    for head, labels in (("pattern", PATTERN_LABELS), ("event", EVENT_LABELS)):
        counts = [sum(1 for e in examples if e.head == head and e.label == n) for n in range(len(labels))]
        if min(counts) > 0:
            out[head] = [round((max(counts) / c) ** 0.5, 3) for c in counts]
    return out


def _retrieve_training_cases(train: list, query_seeds: int) -> list:
    """RETRIEVE cases of the TRAIN personas: the question bank's leaves once, the template queries drawn
    `query_seeds` times (each draw picks other artists, shows, people and wordings); a query once per persona."""
    from models.train.persona_data import retrieve_cases

    cases = []
    for ps in train:
        seen: set[str] = set()
        for n in range(max(1, query_seeds)):
            for case in retrieve_cases(ps, seed=13 + n, bank=(n == 0), phrasings=2 if query_seeds > 1 else 1):
                if case.query not in seen:
                    seen.add(case.query)
                    cases.append(case)
    return cases


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
    from models.train.base_weights import BASES, fetch
    from models.train.persona_data import label_sets

    spec = SIZES[args.size]
    log, train, dev = _setup(args)
    started = time.perf_counter()
    key_labels = label_sets(train)
    labels = sorted({v for values in key_labels.values() for v in values})
    base = fetch(spec["base"])
    if getattr(args, "load_state", None):   # trained elsewhere (`fit`): the data's figures come with the state
        trained = _extractor_from_state(args, spec, base, labels, log)
    else:
        trained = _extractor_trained_here(args, spec, base, train, labels, key_labels, log)
        if trained is None:
            return
    out = Path(args.out)
    _export_extractor(trained.net, base, out, args.size, labels, key_labels)
    log(f"exported {out}")
    figures = _extractor_dev_figures(out, dev, key_labels, log)
    _card(out, args, spec, BASES[spec["base"]], train, dev, trained.cases, trained.examples, trained.seconds,
          time.perf_counter() - started, {"dev extract accuracy": figures, "example kinds": trained.counts})


@dataclass
class _TrainedExtractor:
    """The trained network and what the card says of its training: cases, examples, example kinds, seconds."""

    net: Any
    cases: int
    examples: int
    counts: Any
    seconds: float


def _extractor_from_state(args: argparse.Namespace, spec: dict, base: Path, labels: list,
                          log: Callable[[str], None]) -> _TrainedExtractor:
    """The network `fit` trained (--load-state), with the figures of its data and training kept beside it."""
    from models.train.offload import load_state, state_meta
    from models.train.trainer import TrainConfig

    clock = time.perf_counter()
    meta = state_meta(Path(args.load_state))
    n_cases, n_examples, counts = meta["cases"], meta["examples"], meta.get("counts") or meta.get("packs", {})
    net = load_state("extractor", base, TrainConfig(trainable_layers=spec["layers"]), Path(args.load_state),
                     n_labels=len(labels))
    log(f"trained weights from {args.load_state}: {json.dumps(meta)}")
    clock -= meta.get("train_seconds", 0.0)
    return _TrainedExtractor(net, n_cases, n_examples, counts, time.perf_counter() - clock)


def _extractor_trained_here(args: argparse.Namespace, spec: dict, base: Path, train: list, labels: list,
                            key_labels: dict, log: Callable[[str], None]) -> _TrainedExtractor | None:
    """Examples from the TRAIN personas' cases (capped, then a seeded sample of at most --examples), trained
    here; None where they were only written for `fit` (--save-examples)."""
    from models.train.examples import extractor_examples
    from models.train.offload import train_or_offload
    from models.train.persona_data import extract_cases
    from models.train.trainer import TrainConfig

    cases = [c for ps in train for c in extract_cases(ps, per_kind=getattr(args, "per_kind", 60))]
    examples, counts = extractor_examples(cases, labels, key_labels)
    if getattr(args, "group_cap", 0):
        from models.train.examples import cap_extractor_examples

        examples = cap_extractor_examples(examples, args.group_cap, none_ratio=args.none_ratio)
    wanted = args.examples or spec["examples"]
    rng = random.Random(13)
    if len(examples) > wanted:
        examples = rng.sample(examples, wanted)
    n_cases, n_examples = len(cases), len(examples)
    log(f"{n_cases} train cases {counts} -> {n_examples} examples, {len(labels)} labels")
    config = TrainConfig(epochs=args.epochs, lr=spec["lr"], max_length=128, budget_s=args.budget_s,
                         trainable_layers=spec["layers"], head_lr_factor=args.head_lr_factor,
                         tag_weight=args.tag_weight)
    clock = time.perf_counter()
    net = train_or_offload("extractor", args, base, examples, config, log, n_labels=len(labels),
                           meta={"cases": n_cases, "counts": counts, "labels": len(labels)})
    if net is None:
        return None
    return _TrainedExtractor(net, n_cases, n_examples, counts, time.perf_counter() - clock)


def _export_extractor(net: Any, base: Path, out: Path, size: str, labels: list, key_labels: dict) -> None:
    """The int8 ONNX artifact, its config holding the label sets and the PyTorch model's reference logits."""
    from models.export import export_artifact
    from models.train.nets import ExtractorNet

    reference = _extractor_reference(net, base)
    export_artifact(net, out, tokenizer_json=base / "tokenizer.json", outputs=ExtractorNet.OUTPUTS,
                    token_outputs=("tag_logits",),
                    config={"kind": "extractor", "size": size, "max_length": 128, "labels": labels,
                            "key_labels": key_labels, "reference": reference})


def _extractor_dev_figures(out: Path, dev: list, key_labels: dict, log: Callable[[str], None]) -> dict:
    """The exported artifact's EXTRACT accuracy on the DEV personas' cases, also written into its config."""
    from models.extractor import Extractor
    from models.train.persona_data import extract_cases

    dev_cases = [c for ps in dev for c in extract_cases(ps, per_kind=25)]
    figures = extract_accuracy(Extractor(out), dev_cases, key_labels)
    log(f"dev: {json.dumps(figures)}")
    cfg_path = out / "config.json"
    cfg = json.loads(cfg_path.read_text())
    cfg["dev"] = figures
    cfg_path.write_text(json.dumps(cfg, indent=2) + "\n")
    return figures


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
    replace_card_section(CARDS / f"{out.name}.md", "Dev figures",
                         "```json\n" + json.dumps({"dev extract accuracy": figures, "none_threshold": threshold},
                                                  indent=1) + "\n```\n")


from bench.extract_eval import extract_accuracy  # noqa: E402  (shared with the bench)

# Span keys whose values are the world's names (a city, a restaurant, a dish), kept when 2+ train personas share them.
VALUE_KEYS = ("city", "place", "dish", "product", "doctor", "artist", "track", "album", "series", "show")
MEMORY_THRESHOLDS = (0.5, 0.7, 0.9, 0.99, 0.999, 0.9999, 0.99999)


def run_label_memory(args: argparse.Namespace) -> None:
    """The label memory (models/label_memory.py): word/label counts of the TRAIN personas' closed-set cases, and
    the posterior at which the extractor takes the memory's label, chosen on DEV (mean of existing, inferred
    and none accuracy, as the none threshold)."""
    from models.extractor import SIZES as EXTRACTOR_SIZES
    from models.label_memory import FILE, count_labels, shared_values
    from models.runtime import artifact_dir
    from models.train.persona_data import extract_cases

    log, train, dev = _setup(args)
    started = time.perf_counter()
    examples = _labelled_events(train, args.per_kind)
    keys = count_labels(examples)
    log(f"{len(examples)} labelled train events: " + ", ".join(
        f"{k} {sum(v['docs'])} events / {len(v['counts'])} words" for k, v in keys.items()))
    values = shared_values(_persona_ids_by_value(train))
    log("values shared by 2+ train personas: " + ", ".join(f"{k} {len(v)}" for k, v in values.items()))
    extractor_folder = artifact_dir(EXTRACTOR_SIZES[args.size])
    key_labels = json.loads((extractor_folder / "config.json").read_text())["key_labels"]
    dev_cases = [c for ps in dev for c in extract_cases(ps, per_kind=25)]
    without, results = _memory_thresholds(extractor_folder, key_labels, dev_cases, keys, values, log)
    score, threshold, figures = max(results, key=lambda r: r[0])
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / FILE).write_text(json.dumps({"kind": "label_memory", "threshold": threshold, "keys": keys,
                                        "values": values}, separators=(",", ":")) + "\n")
    card = _label_memory_card(args, out / FILE, train, dev, len(examples), values, threshold, figures, without,
                              results, time.perf_counter() - started)
    (CARDS / "label-memory.md").write_text(card, encoding="utf-8")
    log(f"wrote {out / FILE} (threshold {threshold}) and {CARDS / 'label-memory.md'}")


def _labelled_events(train: list, per_kind: int) -> list[tuple[str, str, str]]:
    """(key, event text, label) of the train cases whose value is one of the key's closed set of labels."""
    from app.engine.values import Item
    from app.extract.model_extractor import item_text
    from models.train.persona_data import extract_cases, label_sets

    key_labels = label_sets(train)
    return [(c.key, item_text(Item.from_event(c.event)), c.value.lower())
            for ps in train for c in extract_cases(ps, per_kind=per_kind)
            if c.key in key_labels and isinstance(c.value, str) and c.value.lower() in key_labels[c.key]]


def _persona_ids_by_value(train: list) -> dict[str, dict[str, set[str]]]:
    """key -> value -> the train personas whose events have it, for the span keys of VALUE_KEYS."""
    seen: dict[str, dict[str, set[str]]] = {}
    for ps in train:
        for event in ps.timeline.events:
            for key in VALUE_KEYS:
                value = event.attrs.get(key)
                if isinstance(value, str) and value:
                    seen.setdefault(key, {}).setdefault(value, set()).add(ps.persona_id)
    return seen


def _memory_thresholds(extractor_folder: Path, key_labels: dict, dev_cases: list, keys: dict, values: dict,
                       log: Callable[[str], None]) -> tuple[dict, list[tuple[float, float, dict]]]:
    """The extractor's DEV figures without the memory, and (mean accuracy, threshold, figures) with it at each
    of MEMORY_THRESHOLDS."""
    from models.extractor import Extractor
    from models.label_memory import LabelMemory

    results = []
    without = extract_accuracy(Extractor(extractor_folder, memory=None), dev_cases, key_labels)
    log(f"dev without the memory: {json.dumps({k: without[k] for k in ('existing', 'inferred', 'none')})}")
    for threshold in MEMORY_THRESHOLDS:
        memory = LabelMemory(keys, threshold, values)
        figures = extract_accuracy(Extractor(extractor_folder, memory=memory), dev_cases, key_labels)
        score = sum(figures[k]["accuracy"] or 0.0 for k in ("existing", "inferred", "none")) / 3
        log(f"dev threshold {threshold}: mean {score:.4f} {json.dumps({k: figures[k] for k in ('existing', 'inferred', 'none')})}")
        results.append((score, threshold, figures))
    return without, results


def _label_memory_card(args, memory_file: Path, train, dev, n_examples: int, values: dict, threshold: float,
                       figures: dict, without: dict, results: list, seconds: float) -> str:
    from models.label_memory import FILE
    from models.runtime import sha256_file

    table = "\n".join(f"| {t} | {f['existing']['accuracy']} | {f['inferred']['accuracy']} | {f['none']['accuracy']} |"
                      for _, t, f in results)
    return f"""# label-memory

| | |
| --- | --- |
| artifact | `models/artifacts/label-memory/{FILE}` (word/label counts; `models/label_memory.py` reads it) |
| {FILE} sha256 | `{sha256_file(memory_file)}` |
| size | {memory_file.stat().st_size / 1e6:.2f} MB |
| model | multinomial naive Bayes per closed-set key over the lower-cased words and word pairs of the verbalized event (no numbers, no people list), smoothing 0.1, words seen fewer than twice left out; and per span key ({', '.join(VALUE_KEYS)}) the values 2+ train personas share ({', '.join(f'{k} {len(v)}' for k, v in values.items())}) |
| data | TRAIN personas {', '.join(p.persona_id for p in train)}: {n_examples} events with a closed-set value (up to {args.per_kind} per canonical kind and persona) |
| threshold | {threshold} (posterior at which the extractor takes the memory's label; chosen on DEV {', '.join(p.persona_id for p in dev)}) |
| wall time here | {seconds / 60:.1f} min (2 shared CPU cores) |
| made | {datetime.now(timezone.utc).strftime('%Y-%m-%d')} |

## Reproduce

```sh
.venv/bin/python -m models.train label_memory --size {args.size} --per-kind {args.per_kind} --train {' '.join(p.persona_id for p in train)} --dev {' '.join(p.persona_id for p in dev)}
```

Counting is deterministic for a given generator version (stores are pinned in the training cache).

## What it is for, and what it cannot do

The 2-layer extractor cannot remember which genre an artist plays or which cuisine a restaurant serves; counting
which words go with which label in the train personas' events does. Where the memory's posterior reaches the
threshold, the extractor answers a closed-set key (genre, cuisine, category, place_type, ...) with the memory's
label; elsewhere, and for "none", the extractor's own heads decide. For a one-value span key (a city, a place)
whose span is no known value while the text writes one, the known value the model gives the most weight is the
answer ("your reservation at Hotel Central, New York": New York). The memory knows only words and names seen in
training: a person's artists, cities or restaurants that no train persona has get the extractor's answer alone.
The threshold is chosen on DEV, so the DEV figures below are optimistic for it.

## Dev figures (the recipe's DEV cases, case people; {args.size} extractor)

Without the memory: existing {without['existing']['accuracy']}, inferred {without['inferred']['accuracy']}, none {without['none']['accuracy']}.

| threshold | existing | inferred | none |
| --- | ---: | ---: | ---: |
{table}

Per key at the chosen threshold:

```json
{json.dumps(figures['per_key'], indent=1)}
```
"""


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


def _cross_encoder_flags(args) -> str:
    """The cross-encoder options that differ from their defaults, for the card's reproduce command."""
    flags = []
    if getattr(args, "events_per_case", 12) != 12:
        flags.append(f"--events-per-case {args.events_per_case}")
    if getattr(args, "hard_share", 0.0):
        flags.append(f"--hard-share {args.hard_share:g}")
    if getattr(args, "near_share", 0.0):
        flags.append(f"--near-share {args.near_share:g}")
    if getattr(args, "query_seeds", 1) != 1:
        flags.append(f"--query-seeds {args.query_seeds}")
    if getattr(args, "class_weights", False):
        flags.append("--class-weights")
    if getattr(args, "dev_bench", False):
        flags.append("--dev-bench")
    return "".join(f" {f}" for f in flags)


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
        + f" --epochs {args.epochs:g} --budget-s {args.budget_s:.0f} --head-lr-factor {args.head_lr_factor:g}"
        + (f" --train {' '.join(p.persona_id for p in train)}" if getattr(args, "train", None) else "")
        + _cross_encoder_flags(args),
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
