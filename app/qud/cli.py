"""`lifelens ask`: decompose a question with the local QUD model, run the tree, print the answer.

    lifelens ask "How much did I spend on Amazon in 2023?"
    lifelens ask "How often did I run in May?" --reference-date 2024-06-01 --json
    lifelens ask "..." --qud-model ~/models/llama-3.2-1b-instruct-q4_k_m.gguf

Imports nothing. Prints the answer, the tree with each node's result size and time, the evidence events
(id, source, start, title) and the timings (qud = decomposition seconds). `--json` prints one object:
answer, answer_text, tree, operator_tree, evidence, timings, error.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import date


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("ask", help="answer a question about the imported events (local QUD model)")
    p.add_argument("question")
    p.add_argument("--db", default=argparse.SUPPRESS, help="event store file (as the global --db)")
    p.add_argument("--reference-date", help="'today' for relative expressions (ISO date; default: the real date)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--qud-model", help="a GGUF file to decompose with instead of the configured model")
    p.add_argument("--operators", choices=("small", "default", "lexical"),
                   help="RETRIEVE/EXTRACT models (default: $LIFELENS_OPERATOR_MODELS, else 'small'); "
                        "lexical: the keyword and key look-up baselines")
    p.add_argument("--evidence", type=int, default=20, help="evidence events to print (default 20)")
    p.add_argument("--verbose", "-v", action="store_true", help="print each decomposition step on stderr")
    p.set_defaults(func=cmd_ask)


def evidence_rows(store, ids, limit: int | None = None) -> list[dict]:
    events = store.get(list(ids)[:limit] if limit else list(ids))
    return [{"id": e.id, "source": e.source, "start": e.start.isoformat(), "title": e.title} for e in events]


def cmd_ask(args: argparse.Namespace) -> int:
    from app.ask import ask
    from app.cli import _open_store
    from app.engine.cli import render_report
    from app.qud.decompose import Trace
    from app.qud.pipeline import default_llm
    from models.default_qud import ModelUnavailable
    from models.llm import LLMError

    try:
        reference = date.fromisoformat(args.reference_date) if args.reference_date else date.today()
    except ValueError:
        print(f"lifelens ask: --reference-date {args.reference_date!r} is not a date (YYYY-MM-DD)", file=sys.stderr)
        return 2
    try:
        llm = default_llm(args.qud_model)
    except (ModelUnavailable, ModuleNotFoundError, FileNotFoundError) as exc:
        print(f"lifelens ask: {exc}", file=sys.stderr)
        return 2
    progress = (lambda message: print(message, file=sys.stderr)) if args.verbose else None
    trace = Trace()
    from app.operators import operator_models

    with _open_store(args, read_only=True) as store:
        retriever, extractor = operator_models(store, args.operators)
        try:
            answer = ask(args.question, store, reference, llm=llm, progress=progress, trace=trace,
                         retriever=retriever, extractor=extractor)
        except LLMError as exc:  # a file that is not a loadable GGUF: a message, not a traceback
            print(f"lifelens ask: {exc}", file=sys.stderr)
            return 2
        evidence = evidence_rows(store, answer.evidence_ids)
    operator_tree = _tree_json(answer.tree) if answer.tree is not None else None
    if args.json:
        out = answer.to_json()
        out["evidence"] = evidence
        out["operator_tree"] = operator_tree
        out["qud"] = {"model": getattr(llm, "name", "?"), "calls": trace.calls, "rejected_steps": trace.rejected}
        print(json.dumps(out, ensure_ascii=False, indent=2, default=str))
        return 0 if answer.error is None else 1
    print(f"Question: {answer.question}")
    print(f"Answer:   {answer.text}")
    if answer.value is not None:
        print(f"Value:    {json.dumps(answer.value, ensure_ascii=False, default=str)}")
    if answer.error:
        print(f"Error:    {answer.error}")
    if answer.tree is not None:
        print("Tree (operator, result size, time, step):")
        print("\n".join(render_report(answer.tree, depth=1)))
    print(f"Evidence ({len(evidence)} events):")
    for row in evidence[: args.evidence]:
        print(f"  {row['start'][:16]}  {row['source']:<17} {row['title'][:60]}  [{row['id']}]")
    if len(evidence) > args.evidence:
        print(f"  ... and {len(evidence) - args.evidence} more")
    print("Timings:  " + ", ".join(f"{k} {v:.2f} s" for k, v in answer.timings.items()))
    return 0 if answer.error is None else 1


def _tree_json(report) -> dict:
    """The operator tree (question, step, children) read back from the executed report."""
    return {"question": report.question, "step": report.step, "children": [_tree_json(c) for c in report.children]}
