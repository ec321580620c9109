"""`lifelens run-tree`: execute a hand-written (or saved) operator tree against the event store.

    lifelens run-tree tree.json --reference-date 2024-05-01
    lifelens run-tree '{"question": "...", "step": "RETRIEVE(query=\\"songs\\")", "children": []}' --json
    cat tree.json | lifelens run-tree -

Prints the answer, the tree with each node's result size, time, warnings and errors, and the evidence
event ids; `--json` prints `Answer.to_json()` instead (with the evidence events when --with-events).
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import date
from pathlib import Path

from app.answer import Answer, NodeReport


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("run-tree", help="execute an operator tree (JSON file, '-' for stdin, or inline JSON)")
    p.add_argument("tree", help="FILE.json, '-' for stdin, or the tree's JSON itself")
    p.add_argument(
        "--reference-date",
        help="the day the question is asked about: 'today' in the tree's lambdas (ISO date; default: today)",
    )
    p.add_argument("--json", action="store_true", help="print Answer.to_json()")
    p.add_argument("--with-events", action="store_true", help="with --json: include the evidence events, not only ids")
    p.add_argument("--evidence", type=int, default=20, help="evidence ids to print (default 20)")
    p.set_defaults(func=cmd_run_tree)


def load_tree_text(argument: str) -> str:
    if argument == "-":
        return sys.stdin.read()
    if argument.lstrip().startswith("{"):
        return argument
    return Path(argument).read_text(encoding="utf-8")


def cmd_run_tree(args: argparse.Namespace) -> int:
    from app.cli import _open_store
    from app.engine import execute
    from app.engine.tree import Node, TreeError

    try:
        text = load_tree_text(args.tree)
    except OSError as exc:
        print(f"lifelens run-tree: cannot read {args.tree}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except UnicodeDecodeError as exc:
        print(f"lifelens run-tree: {args.tree} is not UTF-8 text (byte {exc.start})", file=sys.stderr)
        return 2
    try:
        tree = Node.from_json(text)
    except TreeError as exc:
        print(f"lifelens run-tree: {args.tree if not args.tree.lstrip().startswith('{') else 'tree'}: {exc}", file=sys.stderr)
        return 2
    try:
        reference = date.fromisoformat(args.reference_date) if args.reference_date else date.today()
    except ValueError:
        print(f"lifelens run-tree: --reference-date {args.reference_date!r} is not an ISO date", file=sys.stderr)
        return 2
    with _open_store(args, read_only=True) as store:
        answer = execute(tree, store, reference)
        if args.json:
            print(json.dumps(answer.to_json(store if args.with_events else None), ensure_ascii=False, indent=2))
        else:
            print(render_answer(answer, evidence=args.evidence))
    return 0 if answer.error is None else 1


def render_answer(answer: Answer, evidence: int = 20) -> str:
    lines = [f"Question: {answer.question}", f"Answer:   {answer.text}"]
    lines.append(f"Value:    {json.dumps(answer.value, ensure_ascii=False)}")
    if answer.error:
        lines.append(f"Error:    {answer.error}")
    if answer.tree is not None:
        lines.append("Tree:")
        lines.extend(render_report(answer.tree, depth=1))
    ids = answer.evidence_ids
    shown = " ".join(ids[:evidence])
    more = f" ... and {len(ids) - evidence} more" if len(ids) > evidence else ""
    lines.append(f"Evidence ({len(ids)} events): {shown}{more}")
    timing = ", ".join(f"{k} {v:.3f} s" for k, v in answer.timings.items())
    lines.append(f"Timings:  {timing}")
    return "\n".join(lines)


def render_report(report: NodeReport, depth: int = 0) -> list[str]:
    pad = "  " * depth
    size = "failed" if report.error else f"{report.size} {'row' if report.size == 1 else 'rows'}"
    lines = [f"{pad}{report.operator:<8} {size:>10}  {report.seconds * 1000:8.1f} ms  {report.step}"]
    for warning in report.warnings:
        lines.append(f"{pad}  ! {warning}")
    if report.error:
        lines.append(f"{pad}  x {report.error}")
    for child in report.children:
        lines.extend(render_report(child, depth + 1))
    return lines
