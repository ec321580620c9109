"""Measuring the QUD: single-step accuracy on held-out examples, and whole questions (time, validity).

    python -m bench.qud_measure steps --limit 40            # leave-one-example-out, one step at a time
    python -m bench.qud_measure questions                   # bench/qud_measure_questions.txt, recursive
    python -m bench.qud_measure questions --one-shot        # the same questions, whole tree in one generation
    python -m bench.qud_measure questions --json out.json   # per-question records
    python -m bench.qud_measure speed                       # load time, prompt tokens/s, ms per generated token

Options: --model PATH (a GGUF; default: the configured QUD model), --threads N, --style auto|above|plain|dialog|tuned.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from datetime import date
from pathlib import Path

from app.engine.syntax import StepSyntaxError, format_call, parse_call
from app.qud.decompose import DecompositionError, QudConfig, Trace, decompose, decompose_one_shot
from app.qud.examples import load_examples, step_examples
from app.qud.grammar import step_grammar
from app.qud.prompt import PROMPT_STYLES, compact_step, expand_call, step_prompt
from app.qud.select import ExampleSelector
from app.qud.validate import Needs, step_problems

QUESTIONS_FILE = Path(__file__).with_name("qud_measure_questions.txt")


def read_questions(path: Path = QUESTIONS_FILE) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def _model(args):
    """The chosen QUD model as the app loads it (the default comes with its adapter); `--style auto` becomes the
    model's own prompt style."""
    from models.default_qud import qud_model

    model = qud_model(args.model, n_threads=args.threads)
    started = time.perf_counter()
    model.load()
    if args.style == "auto":
        args.style = getattr(model, "prompt_style", None) or "above"
    print(f"model {model.path.name}: loaded in {time.perf_counter() - started:.2f} s, {model.n_threads} threads, "
          f"style {args.style}")
    return model


def measure_steps(args) -> int:
    """Each example held out in turn: its gold steps are predicted from the other examples."""
    model = _model(args)
    examples = load_examples()
    records = []
    for held_out in examples:
        selector = ExampleSelector([e for e in examples if e is not held_out], mode=args.selection)
        previous = None
        for gold in step_examples(held_out):
            if args.limit and len(records) >= args.limit:
                break
            path = [q for q, _ in gold.above]
            chosen = selector.select(gold.question, path, previous=previous, needs=gold.needs)
            previous = chosen
            prompt = step_prompt(gold.question, gold.above, gold.needs, chosen, style=args.style)
            needs = Needs(frozenset(n.strip() for n in gold.needs.split(",") if n.strip()))
            out = model.complete(prompt, grammar=step_grammar(("RETRIEVE",) if needs else ()), max_tokens=120, stop=["\n"])
            text = out.text.strip()
            try:
                call = expand_call(parse_call(text))
                problems = step_problems(call, gold.question, needs, path=path, depth=gold.depth)
            except StepSyntaxError as exc:
                call, problems = None, [str(exc)]
            gold_call = parse_call(gold.step)
            record = {
                "question": gold.question, "gold": compact_step(gold.step), "output": text,
                "operator_ok": call is not None and call.operator == gold_call.operator,
                "exact": call is not None and compact_step(call) == compact_step(gold_call),
                "valid": not problems, "seconds": out.seconds, "prompt_tokens": out.prompt_tokens,
                "evaluated_tokens": out.evaluated_tokens, "generated_tokens": out.generated_tokens,
            }
            records.append(record)
            if args.verbose:
                mark = "=" if record["exact"] else ("~" if record["operator_ok"] else "x")
                print(f"{mark} {out.seconds:5.2f}s ev={out.evaluated_tokens:4d} {gold.question[:40]!r:42} {text[:100]}")
        if args.limit and len(records) >= args.limit:
            break
    n = len(records)
    print(f"steps: {n}, style {args.style}")
    print(f"  operator right {sum(r['operator_ok'] for r in records) / n:.2f}, exact {sum(r['exact'] for r in records) / n:.2f}, "
          f"valid {sum(r['valid'] for r in records) / n:.2f}")
    secs = [r["seconds"] for r in records]
    print(f"  seconds per step: median {statistics.median(secs):.2f}, p95 {percentile(secs, 0.95):.2f}; "
          f"evaluated prompt tokens: mean {statistics.mean(r['evaluated_tokens'] for r in records):.0f} "
          f"of {statistics.mean(r['prompt_tokens'] for r in records):.0f}; "
          f"generated: mean {statistics.mean(r['generated_tokens'] for r in records):.1f}")
    if args.json:
        Path(args.json).write_text(json.dumps(records, indent=2))
    return 0


def measure_questions(args) -> int:
    model = _model(args)
    questions = read_questions(Path(args.questions)) if args.questions else read_questions()
    config = QudConfig(selection=args.selection, cues=not args.no_cues, style=args.style)
    records = []
    for question in questions:
        trace = Trace()
        started = time.perf_counter()
        try:
            if args.one_shot:
                tree = decompose_one_shot(question, date.today(), model, config=config, trace=trace)
            else:
                tree = decompose(question, date.today(), model, config=config, trace=trace)
            error = None
        except DecompositionError as exc:
            tree, error = None, str(exc)
        seconds = time.perf_counter() - started
        record = {
            "question": question, "ok": tree is not None, "seconds": seconds, "calls": trace.calls,
            "rejected": trace.rejected, "tree": tree.to_json() if tree else None, "error": error,
            "evaluated_tokens": sum(s.evaluated_tokens for s in trace.steps),
            "generated_tokens": sum(s.generated_tokens for s in trace.steps),
            "decode_calls": sum(s.decode_calls for s in trace.steps),
        }
        records.append(record)
        status = "valid" if tree else "FAILED"
        print(f"{status:7} {seconds:6.2f}s calls={trace.calls:2d} rejected={trace.rejected:2d} "
              f"eval={record['evaluated_tokens']:5d} gen={record['generated_tokens']:4d} "
              f"decodes={record['decode_calls']:4d}  {question}")
        if args.verbose:
            print("    " + (tree.render().replace("\n", "\n    ") if tree else error))
    secs = [r["seconds"] for r in records]
    n = len(records)
    mode = "one-shot" if args.one_shot else (
        f"recursive (style {args.style}, selection {args.selection}{', no cues' if args.no_cues else ''})")
    print(f"{mode}: {n} questions, valid trees {sum(r['ok'] for r in records)}/{n} "
          f"({sum(r['ok'] for r in records) / n:.0%}); seconds per question median {statistics.median(secs):.2f}, "
          f"p95 {percentile(secs, 0.95):.2f}, mean {statistics.mean(secs):.2f}; model calls mean "
          f"{statistics.mean(r['calls'] for r in records):.1f}; per question: evaluated prompt tokens "
          f"{statistics.mean(r['evaluated_tokens'] for r in records):.0f}, generated tokens "
          f"{statistics.mean(r['generated_tokens'] for r in records):.0f} in "
          f"{statistics.mean(r['decode_calls'] for r in records):.0f} decode calls")
    if args.json:
        Path(args.json).write_text(json.dumps(records, indent=2))
    return 0


def measure_speed(args) -> int:
    """Raw llama.cpp costs on this machine: the numbers behind the QUD's time per question."""
    from models.default_qud import qud_model_path
    from models.llm import GGUFModel

    model = GGUFModel(qud_model_path(args.model), n_threads=args.threads)
    started = time.perf_counter()
    model.load()
    print(f"model {model.path.name}: loaded in {time.perf_counter() - started:.2f} s, {model.n_threads} threads")
    from app.qud.prompt import INSTRUCTION

    prompt = (INSTRUCTION * 3)[:1600]
    tokens = model.tokenize(prompt, add_bos=True)
    rates = []
    for _ in range(3):
        model._forget_cache()
        started = time.perf_counter()
        model._prefill(tokens)
        rates.append(len(tokens) / (time.perf_counter() - started))
    print(f"prompt evaluation: {len(tokens)} tokens at {statistics.median(rates):.0f} tokens/s (median of 3)")
    position = len(tokens)
    started = time.perf_counter()
    for i in range(32):
        model._decode([tokens[i]], position + i, all_logits=True)
        model._cached.append(tokens[i])
    print(f"one token at a time: {(time.perf_counter() - started) / 32 * 1000:.1f} ms per token (32 tokens)")
    model._truncate_cache(position)
    started = time.perf_counter()
    for i in range(8):
        model._decode(tokens[i * 8: i * 8 + 8], position + i * 8, all_logits=True)
    print(f"eight at a time (a draft checked): {(time.perf_counter() - started) / 8 * 1000:.1f} ms per batch of 8")
    model.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.qud_measure", description=__doc__.split("\n")[0])
    parser.add_argument("what", choices=("steps", "questions", "speed"))
    parser.add_argument("--model", help="GGUF file (default: the configured QUD model)")
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--style", default="auto", choices=("auto", *PROMPT_STYLES),
                        help="prompt layout; auto: the model's own (tuned for the fine-tuned adapter, else above)")
    parser.add_argument("--selection", default="question", choices=("step", "path", "question"))
    parser.add_argument("--no-cues", action="store_true", help="do not narrow the first step by cue words")
    parser.add_argument("--limit", type=int, default=0, help="steps: stop after this many")
    parser.add_argument("--questions", help="questions file (one per line)")
    parser.add_argument("--one-shot", action="store_true")
    parser.add_argument("--json", help="write per-item records here")
    parser.add_argument("--verbose", "-v", action="store_true")
    args = parser.parse_args(argv)
    return {"steps": measure_steps, "questions": measure_questions, "speed": measure_speed}[args.what](args)


if __name__ == "__main__":
    sys.exit(main())
