"""LoRA fine-tuning of the QUD model on decomposition steps (issue 8), on the CPU.

    python -m models.train qud_sft --out models/artifacts/qud-lora              # Gemma 3 270M, the default
    python -m models.train qud_sft --base ~/models/llama-3.2-1b-instruct-q4_k_m.gguf --out /tmp/my-lora

The base GGUF (default: the embedded Gemma 3 270M from models.default_qud) is dequantized into a Hugging Face
model by transformers (`gguf_file=`, needs the `gguf` package), so training sees the very weights llama.cpp
runs. peft adds LoRA to every linear layer of the decoder; the loss is on the target tokens only (the step the
model writes and its newline), and the 262k-wide output head is computed on those positions only. The data are
the train split's gold steps in the prompt style "tuned" (models.train.qud_data). Training stops after
`--steps` or at `--budget-s` of wall time, whichever comes first, with a linear learning-rate decay planned over
`--steps`. The result is written as a GGUF LoRA adapter (models.train.lora_gguf) that llama.cpp applies on top
of the base GGUF, plus `train.json` (settings, loss curve, timings).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from pathlib import Path

TARGET_MODULES = ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj")


def register(sub) -> None:
    p = sub.add_parser("qud_sft", help="LoRA-fine-tune the QUD model on the train split's gold steps (CPU)")
    p.add_argument("--out", required=True, help="folder for adapter.gguf and train.json")
    p.add_argument("--base", help="base GGUF (default: the embedded Gemma 3 270M)")
    p.add_argument("--data", help="JSONL of qud_data pairs (default: build from the train personas, ~2 min)")
    p.add_argument("--variants", type=int, default=2,
                   help="without --data: slot-swapped copies per train question (models.train.qud_data)")
    p.add_argument("--rank", type=int, default=8)
    p.add_argument("--alpha", type=float, default=16.0)
    p.add_argument("--lr", type=float, default=5e-4)
    p.add_argument("--batch", type=int, default=8, help="pairs per optimizer step")
    p.add_argument("--steps", type=int, default=400)
    p.add_argument("--warmup", type=int, default=20)
    p.add_argument("--budget-s", type=float, default=6000.0, help="wall-time limit of the training loop")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--dtype", choices=("bf16", "f32"), default="bf16",
                   help="frozen base weights (bf16: ~3x faster matmuls on CPUs with AMX/AVX512-BF16); LoRA stays f32")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--hf-cache", help="file to keep the dequantized weights in (loads faster next time)")
    p.add_argument("--init", help="an adapter.gguf to go on training from (same rank and modules)")
    p.add_argument("--measure", type=int, default=0, help="only time this many steps and print the estimate")
    p.set_defaults(run=run)


# --- model ------------------------------------------------------------------------------------------


def load_base(gguf: Path, cache: Path | None = None):
    """The base GGUF as a float32 Hugging Face causal LM (dequantized by transformers, ~1-3 min).

    `cache`: a file to keep the dequantized weights in (torch.save; transformers will not save a model it
    loaded from GGUF), so that repeated runs load in seconds.
    """
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM

    if cache is not None and cache.is_file():
        saved = torch.load(cache, weights_only=True)
        config = AutoConfig.for_model(**saved["config"])
        model = AutoModelForCausalLM.from_config(config, dtype=torch.float32)
        model.load_state_dict(saved["state"])
        return model
    model = AutoModelForCausalLM.from_pretrained(gguf.parent, gguf_file=gguf.name, dtype=torch.float32)
    model.config.quantization_config = None
    if hasattr(model, "hf_quantizer"):
        model.hf_quantizer = None
    if cache is not None:
        config = {k: v for k, v in model.config.to_dict().items() if k != "quantization_config"}
        torch.save({"config": config, "state": model.state_dict()}, cache)
    return model


def non_embedding_params(model) -> int:
    return sum(p.numel() for n, p in model.named_parameters() if "embed_tokens" not in n and "lm_head" not in n)


def add_lora(model, rank: int, alpha: float):
    from peft import LoraConfig, get_peft_model

    config = LoraConfig(r=rank, lora_alpha=alpha, lora_dropout=0.0, target_modules=list(TARGET_MODULES), bias="none")
    return get_peft_model(model, config)


# --- data -------------------------------------------------------------------------------------------


def tokenize_pairs(pairs: list[dict], gguf: Path) -> list[tuple[list[int], int]]:
    """Token ids of prompt + target and where the target starts, with llama.cpp's own tokenizer.

    The prompt is tokenized as the decoder does it (with BOS, alone); the target is tokenized separately
    and appended, since at inference the model writes it token by token after the prompt.
    """
    from models.llm import GGUFModel

    llm = GGUFModel(gguf, n_ctx=256, n_threads=1)
    try:
        llm.load()
        add_bos = bool(llm._lib.llama_vocab_get_add_bos(llm._vocab))
        rows = []
        for pair in pairs:
            prompt = llm.tokenize(pair["prompt"], add_bos=add_bos)
            target = llm.tokenize(pair["target"], add_bos=False)
            rows.append((prompt + target, len(prompt)))
        return rows
    finally:
        llm.close()


def batch_tensors(rows: list[tuple[list[int], int]], pad: int):
    """input_ids, attention_mask (right padding), and (row, position) of each predicted target token."""
    import torch

    width = max(len(ids) for ids, _ in rows)
    ids = torch.full((len(rows), width), pad, dtype=torch.long)
    mask = torch.zeros((len(rows), width), dtype=torch.long)
    rows_at, positions, labels = [], [], []
    for r, (tokens, start) in enumerate(rows):
        ids[r, : len(tokens)] = torch.tensor(tokens)
        mask[r, : len(tokens)] = 1
        for t in range(start, len(tokens)):  # the hidden state at t-1 predicts token t
            rows_at.append(r)
            positions.append(t - 1)
            labels.append(tokens[t])
    return ids, mask, torch.tensor(rows_at), torch.tensor(positions), torch.tensor(labels)


def step_loss(model, rows, pad: int):
    """Mean cross-entropy over the target tokens; the output head runs on those positions only."""
    import torch.nn.functional as F

    ids, mask, rows_at, positions, labels = batch_tensors(rows, pad)
    base = model.get_base_model()
    hidden = base.model(input_ids=ids, attention_mask=mask).last_hidden_state
    picked = hidden[rows_at, positions]
    logits = base.lm_head(picked)
    softcap = getattr(base.config, "final_logit_softcapping", None)
    if softcap:
        logits = softcap * (logits / softcap).tanh()
    return F.cross_entropy(logits.float(), labels), len(labels)


# --- cost -------------------------------------------------------------------------------------------


def cost_estimate(rows, steps: int, batch: int, params: int, head: int) -> dict:
    """FLOPs of the planned run: 6 x tokens x non-embedding parameters, plus 6 x head on target tokens."""
    tokens = sum(len(ids) for ids, _ in rows) / len(rows)
    targets = sum(len(ids) - start for ids, start in rows) / len(rows)
    examples = steps * batch
    body = 6 * examples * tokens * params
    head_flops = 6 * examples * targets * head
    return {"examples": examples, "mean_tokens": round(tokens, 1), "mean_target_tokens": round(targets, 1),
            "non_embedding_params": params, "head_params": head, "flops_body": body, "flops_head": head_flops,
            "flops_total": body + head_flops}


# --- run --------------------------------------------------------------------------------------------


def run(args: argparse.Namespace) -> None:
    import torch

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = random.Random(args.seed)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    gguf = _base_gguf(args)
    rows = _training_rows(args, gguf)
    model, params, head, pad = _model_to_train(args, gguf)
    estimate = cost_estimate(rows, args.steps, args.batch, params, head)
    print("estimate:", json.dumps(estimate), flush=True)

    loop = _Loop(args, model, rows, pad, gguf, out, estimate)
    for step in range(args.measure or args.steps):
        if time.perf_counter() - loop.started > args.budget_s:
            print(f"budget of {args.budget_s:.0f}s reached after {step} steps", flush=True)
            break
        seconds = loop.step(step, loop.next_batch(rng))
        loop.record(step, seconds)
        if not args.measure and loop.steps_done % 50 == 0:
            loop.checkpoint()
    loop_seconds = time.perf_counter() - loop.started
    if args.measure:
        per_step = loop_seconds / max(1, loop.steps_done)
        print(f"measured {per_step:.1f}s per step of {args.batch}; {args.steps} steps would take "
              f"{per_step * args.steps / 60:.0f} min", flush=True)
        return
    loop.finish(loop_seconds)
    print(f"wrote {out / 'adapter.gguf'} after {loop.steps_done} steps in {loop_seconds / 60:.1f} min", flush=True)


def _base_gguf(args: argparse.Namespace) -> Path:
    if args.base:
        return Path(args.base).expanduser()
    from models.default_qud import ensure_default_model

    return ensure_default_model()


def _training_rows(args: argparse.Namespace, gguf: Path) -> list[tuple[list[int], int]]:
    """The tokenized pairs of `--data`, or of the train split's gold steps (with `--variants` copies)."""
    from models.train.qud_data import step_pairs, train_records, varied_records

    started = time.perf_counter()
    if args.data:
        pairs = [json.loads(line) for line in Path(args.data).read_text(encoding="utf-8").splitlines() if line.strip()]
    else:
        pairs = step_pairs(varied_records(train_records(), args.variants))
    rows = tokenize_pairs(pairs, gguf)
    print(f"{len(rows)} pairs ({time.perf_counter() - started:.0f}s)", flush=True)
    return rows


def _model_to_train(args: argparse.Namespace, gguf: Path):
    """(model with LoRA in train mode, non-embedding params, head params, pad id): the base in `--dtype`, the
    LoRA weights in float32, from `--init` where given."""
    import torch

    loaded = time.perf_counter()
    model = load_base(gguf, Path(args.hf_cache) if args.hf_cache else None)
    params = non_embedding_params(model)
    head = model.lm_head.weight.numel()
    pad = model.config.pad_token_id or 0
    if args.dtype == "bf16":
        model = model.to(torch.bfloat16)
    model = add_lora(model, args.rank, args.alpha)
    for p in model.parameters():
        if p.requires_grad:
            p.data = p.data.float()
    if args.init:
        from models.train.lora_gguf import load_lora_gguf

        print(f"{load_lora_gguf(model, Path(args.init), gguf)} LoRA matrices from {args.init}", flush=True)
    model.train()
    print(f"base loaded in {time.perf_counter() - loaded:.0f}s; non-embedding params {params:,}; "
          f"LoRA params {sum(p.numel() for p in model.parameters() if p.requires_grad):,}", flush=True)
    return model, params, head, pad


def learning_rate(args: argparse.Namespace, step: int) -> float:
    """Linear warm-up over `--warmup` steps, then a linear decay over the planned `--steps` (to 5% at least)."""
    if step < args.warmup:
        return args.lr * (step + 1) / args.warmup
    return args.lr * max(0.05, 1 - (step - args.warmup) / max(1, args.steps - args.warmup))


class _Loop:
    """The training loop's state: the optimizer, the batches still to come in this epoch, the loss curve."""

    def __init__(self, args: argparse.Namespace, model, rows: list[tuple[list[int], int]], pad: int, gguf: Path,
                 out: Path, estimate: dict):
        import torch

        self.args, self.model, self.rows, self.pad = args, model, rows, pad
        self.gguf, self.out, self.estimate = gguf, out, estimate
        self.trainable = [p for p in model.parameters() if p.requires_grad]
        self.optimizer = torch.optim.AdamW(self.trainable, lr=args.lr, weight_decay=0.0)
        self.order: list[int] = []
        self.curve: list[dict] = []
        self.seen_tokens = 0
        self.steps_done = 0
        self.started = time.perf_counter()
        self.window: list[float] = []   # losses since the last point of the curve

    def next_batch(self, rng: random.Random) -> list[int]:
        batch, rows = self.args.batch, self.rows
        if len(self.order) < batch:  # a new epoch, shuffled, batches of similar length (less padding)
            epoch = list(range(len(rows)))
            rng.shuffle(epoch)
            chunks = [sorted(epoch[i:i + batch * 16], key=lambda j: len(rows[j][0]))
                      for i in range(0, len(epoch), batch * 16)]
            batches = [c[i:i + batch] for c in chunks for i in range(0, len(c), batch)]
            rng.shuffle(batches)
            self.order.extend(j for b in batches for j in b)
        chosen, self.order = self.order[:batch], self.order[batch:]
        return chosen

    def step(self, step: int, chosen: list[int]) -> float:
        """One optimizer step on the rows `chosen`; its seconds."""
        import torch

        for group in self.optimizer.param_groups:
            group["lr"] = learning_rate(self.args, step)
        t0 = time.perf_counter()
        loss, _ = step_loss(self.model, [self.rows[j] for j in chosen], self.pad)
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.trainable, 1.0)
        self.optimizer.step()
        seconds = time.perf_counter() - t0
        self.steps_done = step + 1
        self.seen_tokens += sum(len(self.rows[j][0]) for j in chosen)
        self.window.append(loss.item())
        return seconds

    def record(self, step: int, seconds: float) -> None:
        """A point of the loss curve (and a printed line) on the first step and every 10th, every step when
        measuring."""
        done = self.steps_done
        if self.args.measure or done % 10 == 0 or done == 1:
            mean = sum(self.window) / len(self.window)
            self.window = []
            elapsed = time.perf_counter() - self.started
            self.curve.append({"step": done, "loss": round(mean, 4), "seconds": round(elapsed, 1),
                               "lr": learning_rate(self.args, step)})
            print(f"step {done}: loss {mean:.4f} ({seconds:.1f}s this step, {elapsed:.0f}s total)", flush=True)

    def checkpoint(self) -> None:
        """save() every 50 steps, so that a cut-short run still leaves an adapter and train.json."""
        try:
            self.save()
        except Exception as exc:  # a checkpoint that cannot be written must not end the run
            print(f"checkpoint at step {self.steps_done} not written: {exc!r}", flush=True)

    def finish(self, loop_seconds: float) -> None:
        if self.window:
            self.curve.append({"step": self.steps_done, "loss": round(sum(self.window) / len(self.window), 4),
                               "seconds": round(loop_seconds, 1), "lr": learning_rate(self.args, self.steps_done - 1)})
        self.save()

    def save(self) -> None:
        """The adapter and train.json as of now."""
        from models.train.lora_gguf import write_lora_gguf

        args, gguf = self.args, self.gguf
        write_lora_gguf(self.model, self.out / "adapter.gguf", args.alpha, gguf)
        report = {
            "base": str(gguf), "base_name": gguf.name, "pairs": len(self.rows), "rank": args.rank, "alpha": args.alpha,
            "lr": args.lr, "batch": args.batch, "steps_planned": args.steps, "steps_done": self.steps_done,
            "warmup": args.warmup, "init": args.init, "threads": args.threads, "dtype": args.dtype, "seed": args.seed,
            "target_modules": list(TARGET_MODULES), "loop_seconds": round(time.perf_counter() - self.started, 1),
            "tokens_seen": self.seen_tokens, "estimate": self.estimate,
            "epochs": round(self.steps_done * args.batch / len(self.rows), 3), "curve": self.curve,
        }
        (self.out / "train.json").write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
