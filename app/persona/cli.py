"""`lifelens persona ...`: generate personas' exports and their question banks.

    lifelens persona generate --persona p13 --out /tmp/personas          # /tmp/personas/p13/...
    lifelens persona generate --split dev --out /tmp/personas
    lifelens persona questions --split dev --out /tmp/dev.jsonl
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("persona", help="synthetic personas: exports and benchmark questions")
    sub = p.add_subparsers(dest="persona_command")

    g = sub.add_parser("generate", help="write a persona's exports (and canonical ground truth) into a folder")
    which = g.add_mutually_exclusive_group(required=True)
    which.add_argument("--persona", help="persona id, p01 .. p20, or a TRAIN persona in a style: p03~diary, p03~terse, p03~mixed")
    which.add_argument("--split", choices=("train", "dev", "test"), help="every persona of a split")
    g.add_argument("--out", required=True, help="folder; each persona gets a sub-folder named by its id")
    g.add_argument("--seed", type=int, default=0)
    g.add_argument("--no-canonical", action="store_true", help="exports only, no canonical/ folder")
    g.set_defaults(func=cmd_generate)

    q = sub.add_parser("questions", help="write the question bank of a split (or one persona) as JSON lines")
    which = q.add_mutually_exclusive_group(required=True)
    which.add_argument("--split", choices=("train", "dev", "test"))
    which.add_argument("--persona")
    q.add_argument("--out", required=True, help="FILE.jsonl")
    q.add_argument("--seed", type=int, default=0)
    q.set_defaults(func=cmd_questions)
    p.set_defaults(func=lambda args: (p.print_help(), 0)[1])


def _personas(args: argparse.Namespace) -> list[str]:
    from app.persona.splits import PERSONAS, persona_split

    if args.persona:
        persona_split(args.persona)  # raises for an unknown id
        return [args.persona]
    return list(PERSONAS[args.split])


def cmd_generate(args: argparse.Namespace) -> int:
    from app.persona.generate import generate_persona

    for pid in _personas(args):
        result = generate_persona(pid, Path(args.out) / pid, seed=args.seed, canonical=not args.no_canonical)
        counts = ", ".join(f"{k} {v}" for k, v in result.counts_by_source.items())
        print(f"{pid}: {sum(result.counts_by_source.values())} events ({counts}) in {result.seconds:.1f} s -> {result.out}")
    return 0


def cmd_questions(args: argparse.Namespace) -> int:
    from app.persona.questions import category_counts, questions_for, write_questions

    records = []
    for pid in _personas(args):
        started = time.perf_counter()
        found = questions_for(pid, seed=args.seed)
        records.extend(found)
        print(f"{pid}: {len(found)} questions in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    write_questions(records, Path(args.out))
    cats = ", ".join(f"{c} {n}" for c, n in category_counts(records).items())
    print(f"{len(records)} questions ({cats}) -> {args.out}")
    return 0
