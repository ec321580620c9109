"""Fine-tuning loops for the cross-encoder and the extractor (torch; training time only).

Inputs are tokenised with the same code the run-time wrappers use (`models.runtime.OnnxModel.encode_pairs`,
`models.extractor.Extractor._encode`), so training and inference see identical token sequences.

    net = train_cross_encoder(base_dir, examples, TrainConfig(epochs=2, lr=5e-5, budget_s=1200), log=print)

Cost on 2 CPU cores, roughly: forward+backward is 6 x (non-embedding parameters) FLOPs per token; MiniLM-L6 has
~11M, so 64 tokens cost ~4 GFLOP and ~10-20 examples/s train here; the 2-layer SPLADE-tiny encoder ~0.4M (30x less).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

import numpy as np
import torch
from torch import nn

from models.extractor import Extractor
from models.runtime import OnnxModel
from models.train.nets import CrossEncoderNet, ExtractorNet


@dataclass(frozen=True)
class PairExample:
    """A cross-encoder example: `head` is 'pattern' (label 0..2) or 'event' (label 0..1)."""

    query: str
    text: str
    head: str
    label: int


@dataclass(frozen=True)
class ExtractExample:
    """An extractor example. `spans` are character ranges of the value inside `segment` (mode 1);
    `label` indexes the label vocabulary (mode 2), else -1."""

    key: str
    segment: str
    mode: int
    spans: tuple[tuple[int, int], ...] = ()
    label: int = -1


@dataclass
class TrainConfig:
    epochs: float = 2.0
    lr: float = 5e-5
    batch_size: int = 16
    max_length: int = 96
    weight_decay: float = 0.01
    warmup: float = 0.05
    budget_s: float = 1200.0      # stop (and keep what was learned) when the wall time passes this
    seed: int = 13
    threads: int = 1                      # one thread: on shared cores two spin against each other (4x slower here)
    trainable_layers: int | None = None   # None: the whole encoder (word embeddings stay frozen)
    head_lr_factor: float = 10.0
    class_weights: dict[str, list[float]] = field(default_factory=dict)
    tag_weight: float = 1.0   # extractor: weight of B and I tokens against O in the tag loss (most tokens are O)
    device: str = "cpu"       # "cuda" where a GPU is lent (models/train/offload.py); the export runs on CPU
    fit_budget: bool = False  # shorten the run, once its speed is measured, so its schedule ends within budget_s


def _schedule(optimizer: torch.optim.Optimizer, plan: dict[str, int], warmup: float) -> torch.optim.lr_scheduler.LambdaLR:
    """Linear warm-up, then linear decay to zero at plan["total"] (which `_fit_budget` may lower on the way)."""
    warm = max(1, int(plan["total"] * warmup))

    def factor(step: int) -> float:
        if step < warm:
            return (step + 1) / warm
        return max(0.0, (plan["total"] - step) / max(1, plan["total"] - warm))

    return torch.optim.lr_scheduler.LambdaLR(optimizer, factor)


_SPEED_STEPS = 50   # steps timed before a run is fitted to its budget


def _fit_budget(plan: dict[str, int], step: int, elapsed: float, config: "TrainConfig",
                log: Callable[[str], None]) -> None:
    """With `fit_budget`, after the first steps: fewer steps when all of them would not end within the budget, so
    that the learning rate still decays to zero (a run cut by the budget stops at a high rate)."""
    if not config.fit_budget or step + 1 != _SPEED_STEPS:
        return
    fits = int(config.budget_s * 0.95 / (elapsed / _SPEED_STEPS))
    if fits < plan["total"]:
        log(f"{elapsed / _SPEED_STEPS * 1000:.1f} ms per step: {fits} of {plan['total']} steps fit in "
            f"{config.budget_s:.0f}s ({fits * config.batch_size / plan['examples']:.2f} epochs)")
        plan["total"] = max(fits, step + 2)


def _optimizer(net: nn.Module, config: TrainConfig) -> torch.optim.Optimizer:
    """AdamW; the freshly initialised heads learn `head_lr_factor` times faster than the pre-trained encoder."""
    groups: dict[tuple[bool, bool], list] = {}
    for name, param in net.named_parameters():
        if not param.requires_grad:
            continue
        head = not name.startswith("encoder.")
        decay = not (param.ndim < 2 or "LayerNorm" in name)
        groups.setdefault((head, decay), []).append(param)
    return torch.optim.AdamW(
        [
            {"params": params, "weight_decay": config.weight_decay if decay else 0.0,
             "lr": config.lr * (config.head_lr_factor if head else 1.0)}
            for (head, decay), params in groups.items()
        ],
        lr=config.lr,
    )


def _steps(n: int, config: TrainConfig) -> int:
    return max(1, math.ceil(n * config.epochs / config.batch_size))


def _batches(n: int, config: TrainConfig, rng: random.Random):
    """Shuffled index batches for `epochs` passes (a fractional last epoch is cut short)."""
    total = _steps(n, config)
    order: list[int] = []
    for _ in range(total):
        if len(order) < config.batch_size:
            fresh = list(range(n))
            rng.shuffle(fresh)
            order.extend(fresh)
        yield order[: config.batch_size]
        del order[: config.batch_size]


def train_cross_encoder(
    base_dir: Path, examples: Sequence[PairExample], config: TrainConfig, log: Callable[[str], None] = print
) -> CrossEncoderNet:
    torch.manual_seed(config.seed)
    torch.set_num_threads(config.threads)
    rng = random.Random(config.seed)
    tok = OnnxModel(base_dir)  # tokenizer only; no session is opened
    device = torch.device(config.device)
    net = CrossEncoderNet(base_dir, trainable_layers=config.trainable_layers).to(device)
    net.train()
    loop = _Loop(net, len(examples), config, log)
    weights = {h: torch.tensor(w, device=device) for h, w in config.class_weights.items()}
    losses = {"pattern": nn.CrossEntropyLoss(weight=weights.get("pattern")),
              "event": nn.CrossEntropyLoss(weight=weights.get("event"))}
    for step, idx in loop.batches(rng):
        batch = [examples[i] for i in idx]
        ids, mask, types = tok.encode_pairs([e.query for e in batch], [e.text for e in batch], max_length=config.max_length)
        pattern_logits, event_logits = net(*(torch.from_numpy(a).to(device) for a in (ids, mask, types)))
        loss = torch.zeros((), device=device)
        for head, logits in (("pattern", pattern_logits), ("event", event_logits)):
            rows = [n for n, e in enumerate(batch) if e.head == head]
            if rows:
                labels = torch.tensor([batch[n].label for n in rows], device=device)
                loss = loss + losses[head](logits[rows], labels) * len(rows) / len(batch)
        if not loop.step(step, loss):
            break
    net.eval()
    return net.cpu()


class _Loop:
    """What both training loops share: AdamW with warm-up and linear decay over the planned steps, clipped
    gradients, a running loss in the log every 20 steps, and the stop at the wall-time budget."""

    def __init__(self, net: nn.Module, n_examples: int, config: TrainConfig, log: Callable[[str], None]):
        self.net, self.config, self.log = net, config, log
        self.optimizer = _optimizer(net, config)
        self.plan = {"total": _steps(n_examples, config), "examples": n_examples}
        self.scheduler = _schedule(self.optimizer, self.plan, config.warmup)
        self.running = 0.0
        self.started = 0.0

    def batches(self, rng: random.Random):
        """(step, example indices) until the plan's last step (`_fit_budget` may bring it closer); the wall
        time counts from the first batch."""
        self.started = time.perf_counter()
        for step, idx in enumerate(_batches(self.plan["examples"], self.config, rng)):
            if step >= self.plan["total"]:
                return
            yield step, idx

    def step(self, step: int, loss: torch.Tensor) -> bool:
        """One optimiser step on `loss`; False once the time budget is spent."""
        config, plan = self.config, self.plan
        self.optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.net.parameters(), 1.0)
        self.optimizer.step()
        self.scheduler.step()
        self.running = 0.98 * self.running + 0.02 * loss.item() if step else loss.item()
        elapsed = time.perf_counter() - self.started
        _fit_budget(plan, step, elapsed, config, self.log)
        if step % 20 == 0 or step == plan["total"] - 1:
            self.log(f"step {step + 1}/{plan['total']} loss {self.running:.4f} elapsed {elapsed:.0f}s")
        if elapsed > config.budget_s:
            self.log(f"time budget {config.budget_s:.0f}s reached at step {step + 1}/{plan['total']}")
            return False
        return True


def extract_tags(spans: Sequence[tuple[int, int, int]], gold: Sequence[tuple[int, int]], width: int) -> np.ndarray:
    """BIO tags (0=O, 1=B, 2=I) for one row from gold character ranges; -100 (ignored) outside the text.

    A token overlapping a gold range is part of the value; the first such token is B, the rest I.
    """
    tags = np.full(width, -100, dtype=np.int64)
    for position, _, _ in spans:
        tags[position] = 0
    for g_start, g_end in gold:
        inside = [position for position, start, end in spans if start < g_end and end > g_start]
        for n, position in enumerate(inside):
            tags[position] = 1 if n == 0 else 2
    return tags


def train_extractor(
    base_dir: Path,
    examples: Sequence[ExtractExample],
    n_labels: int,
    config: TrainConfig,
    log: Callable[[str], None] = print,
) -> ExtractorNet:
    torch.manual_seed(config.seed)
    torch.set_num_threads(config.threads)
    rng = random.Random(config.seed)
    device = torch.device(config.device)
    rows = _ExtractRows(base_dir, examples, config.max_length, device)
    net = ExtractorNet(base_dir, n_labels, trainable_layers=config.trainable_layers).to(device)
    net.train()
    loop = _Loop(net, len(examples), config, log)
    loss_of = _ExtractLoss(config, device)
    for step, idx in loop.batches(rng):
        batch = [examples[i] for i in idx]
        inputs, spans_rows, width = rows.batch(idx)
        outputs = net(inputs["input_ids"], inputs["attention_mask"], inputs["token_type_ids"])
        if not loop.step(step, loss_of(outputs, batch, spans_rows, width)):
            break
    net.eval()
    return net.cpu()


class _ExtractRows:
    """The extractor's input tensors for a batch of examples, tokenised as the run-time wrapper does."""

    def __init__(self, base_dir: Path, examples: Sequence[ExtractExample], max_length: int, device: torch.device):
        self.examples, self.device = examples, device
        self.encoder = Extractor(base_dir)  # its tokenizer and _encode only
        self.encoder.model._config = {"max_length": max_length}
        self.encoded: dict[int, tuple[dict[str, np.ndarray], list]] = {}

    def batch(self, idx: list[int]) -> tuple[dict[str, torch.Tensor], list, int]:
        """(padded inputs, each row's token spans, width) of the examples at `idx`."""
        # one key per row: encode row by row with its own key (once per example: later epochs reuse it), then pad
        feeds_rows, spans_rows = [], []
        for i in idx:
            if i not in self.encoded:
                feeds, spans = self.encoder._encode(self.examples[i].key, [self.examples[i].segment])
                self.encoded[i] = (feeds, spans[0])
            feeds_rows.append(self.encoded[i][0])
            spans_rows.append(self.encoded[i][1])
        width = max(f["input_ids"].shape[1] for f in feeds_rows)
        inputs = {
            name: torch.from_numpy(np.concatenate([np.pad(f[name], ((0, 0), (0, width - f[name].shape[1])))
                                                   for f in feeds_rows])).to(self.device)
            for name in ("input_ids", "attention_mask", "token_type_ids")
        }
        return inputs, spans_rows, width


class _ExtractLoss:
    """The extractor's loss on a batch: its mode, plus the BIO tags of span rows and the label of label rows."""

    def __init__(self, config: TrainConfig, device: torch.device):
        self.device = device
        self.mode_loss = nn.CrossEntropyLoss()
        tag_weights = torch.tensor([1.0, config.tag_weight, config.tag_weight], device=device)
        self.tag_loss = nn.CrossEntropyLoss(weight=tag_weights, ignore_index=-100)
        self.label_loss = nn.CrossEntropyLoss()

    def __call__(self, outputs, batch: list[ExtractExample], spans_rows: list, width: int) -> torch.Tensor:
        mode_logits, tag_logits, label_logits = outputs
        device = self.device
        modes = torch.tensor([e.mode for e in batch], device=device)
        loss = self.mode_loss(mode_logits, modes)
        span_rows = [n for n, e in enumerate(batch) if e.mode == 1]
        if span_rows:
            tags = torch.from_numpy(np.stack([extract_tags(spans_rows[n], batch[n].spans, width)
                                              for n in span_rows])).to(device)
            loss = loss + self.tag_loss(tag_logits[span_rows].reshape(-1, 3), tags.reshape(-1))
        label_rows = [n for n, e in enumerate(batch) if e.mode == 2 and e.label >= 0]
        if label_rows:
            loss = loss + self.label_loss(label_logits[label_rows],
                                          torch.tensor([batch[n].label for n in label_rows], device=device))
        return loss
