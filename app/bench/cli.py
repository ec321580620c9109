"""`lifelens bench`: score the pipeline on the persona benchmark (JSON + Markdown)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("bench", help="run the persona benchmark: Hit@1, Relaxed Hit@1, per category and stage")
    p.add_argument("--split", choices=("train", "dev", "test"), default="dev")
    p.add_argument("--limit", type=int, help="at most this many questions")
    p.add_argument("--mode", choices=("qud", "one-shot", "gold", "rag"), default="qud",
                   help="qud: the product path; one-shot: whole tree in one generation; gold: gold trees through "
                        "the engine; rag: top-k events into the model (baseline)")
    p.add_argument("--persona", action="append", help="only this persona (repeatable)")
    p.add_argument("--qud-model", help="a GGUF file instead of the default model")
    p.add_argument("--out", type=Path, help="write the JSON report here (the Markdown table goes next to it)")
    p.add_argument("--cache", type=Path, help="where persona stores are kept (default ~/.cache/lifelens-bench)")
    p.set_defaults(func=cmd_bench)


def cmd_bench(args: argparse.Namespace) -> int:
    from app.bench.runner import markdown, run_bench

    llm = None
    if args.mode != "gold":
        from app.qud.pipeline import default_llm

        llm = default_llm(args.qud_model)
    report = run_bench(args.split, mode=args.mode, limit=args.limit, personas=args.persona, llm=llm,
                       cache=args.cache, say=lambda text: print(text, file=sys.stderr, flush=True))
    table = markdown(report)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report.to_json(), indent=1, default=str))
        args.out.with_suffix(".md").write_text(table)
    print(table)
    return 0
