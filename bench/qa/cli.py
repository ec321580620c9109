"""`lifelens bench`: score the pipeline on the persona benchmark (JSON + Markdown)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("bench", help="run the persona benchmark: Hit@1, Relaxed Hit@1, per category and stage")
    p.add_argument("--set", dest="question_set", choices=("templates", "wild", "wild2", "wild3", "wild4", "wild5",
                                                                 "wild6", "wild7"),
                   default="templates",
                   help="templates: the persona generator's question bank of --split; wild: the questions written "
                        "without the templates (bench/wild/), over the dev personas and data of another shape; "
                        "wild2 .. wild7: later such sets by other writers (bench/wild2/ .. bench/wild7/), over the "
                        "test personas and the other-shape data")
    p.add_argument("--split", choices=("train", "dev", "test"), default="dev")
    p.add_argument("--limit", type=int, help="at most this many questions")
    p.add_argument("--every", type=int, default=1, metavar="N",
                   help="with --set wild: every N-th question (a sample across all datasets, for a quicker figure)")
    p.add_argument("--mode", choices=("qud", "one-shot", "gold", "rag", "codegen"), default="qud",
                   help="qud: the product path; one-shot: whole tree in one generation; gold: gold trees through "
                        "the engine; rag: top-k events into the model (baseline); codegen: the model writes one "
                        "SQL SELECT over a read-only view of the store (baseline)")
    p.add_argument("--stage", choices=("answers", "extract"), default="answers",
                   help="answers: answer the questions (--mode); extract: EXTRACT accuracy on the split's "
                        "labelled (event, key, value) cases, no questions")
    p.add_argument("--operators", choices=("small", "default", "lexical"),
                   help="RETRIEVE/EXTRACT models of the engine modes and the extract stage "
                        "(default: $LIFELENS_OPERATOR_MODELS or 'small')")
    p.add_argument("--persona", action="append", help="only this persona (repeatable; with --set wild: a dataset)")
    p.add_argument("--qud-model", help="a GGUF file instead of the default model")
    p.add_argument("--rule-off", action="append", default=[], metavar="NAME",
                   help="switch off one rule of the decomposition (repeatable), to measure what it earns; "
                        "names: app.qud.decompose.RULES")
    p.add_argument("--rule-on", action="append", default=[], metavar="NAME",
                   help="switch on one rule that is off by default (repeatable; app.qud.decompose."
                        "RULES_OFF_BY_DEFAULT), to measure it: run with it on, then --ablate that report with it on")
    p.add_argument("--ablate", type=Path, metavar="REPORT",
                   help="a JSON report of this set, split and mode (--out of an earlier run): answer again, each rule "
                        "switched off in turn, only the questions where that rule acted, and print the table of what "
                        "each rule earns (bench.qa.ablation)")
    p.add_argument("--ablate-max", type=int, default=60, metavar="N",
                   help="with --ablate: rules that acted on more questions than this are listed, not rerun")
    p.add_argument("--out", type=Path, help="write the JSON report here (the Markdown table goes next to it)")
    p.add_argument("--cache", type=Path, help="where persona stores are kept (default ~/.cache/lifelens-bench)")
    p.set_defaults(func=cmd_bench)


def cmd_bench(args: argparse.Namespace) -> int:
    import os

    from app.qud.decompose import RULES
    from bench.qa.runner import markdown, run_bench

    unknown = sorted(set(args.rule_off + args.rule_on) - set(RULES))
    if unknown:
        print(f"lifelens bench: unknown rule(s) {', '.join(unknown)}; known: {', '.join(RULES)}", file=sys.stderr)
        return 2
    if args.rule_off:  # read by every QudConfig made in this process
        os.environ["LIFELENS_QUD_RULES_OFF"] = ",".join(args.rule_off)
    if args.rule_on:
        os.environ["LIFELENS_QUD_RULES_ON"] = ",".join(args.rule_on)

    say = lambda text: print(text, file=sys.stderr, flush=True)  # noqa: E731
    if args.stage == "extract":
        from bench.qa.extract_stage import extract_markdown, run_extract_stage

        extract_report = run_extract_stage(args.split, operators=args.operators, personas=args.persona,
                                           cache=args.cache, say=say)
        _write(args.out, extract_report.to_json(), extract_markdown(extract_report))
        return 0
    if args.question_set != "templates" and args.mode == "gold":
        print("lifelens bench: the wild set has no gold trees; use --mode qud, one-shot, rag or codegen", file=sys.stderr)
        return 2
    llm = None
    if args.mode != "gold":
        from app.qud.pipeline import default_llm

        llm = default_llm(args.qud_model)
    if args.ablate is not None:
        return _ablate(args, llm, say)
    if args.question_set != "templates":
        from bench.qa.wild import SETS, run_wild, wild_markdown

        wild = run_wild(mode=args.mode, operators=args.operators, llm=llm, limit=args.limit, datasets=args.persona,
                        every=args.every, cache=args.cache, folder=SETS[args.question_set], say=say)
        _write(args.out, wild.to_json(), wild_markdown(wild))
        return 0
    report = run_bench(args.split, mode=args.mode, limit=args.limit, personas=args.persona, llm=llm,
                       cache=args.cache, operators=args.operators, say=say)
    _write(args.out, report.to_json(), markdown(report))
    return 0


def _ablate(args: argparse.Namespace, llm, say) -> int:
    import os

    from app.qud.decompose import RULES
    from bench.qa.ablation import ablation, ablation_markdown

    try:
        questions = json.loads(args.ablate.read_text(encoding="utf-8"))["questions"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"lifelens bench: --ablate {args.ablate}: not a bench report ({exc})", file=sys.stderr)
        return 2
    if args.mode != "qud" or args.rule_off:
        print("lifelens bench: --ablate reruns the qud mode with every rule on but one", file=sys.stderr)
        return 2

    def rerun(rule: str, ids: set[str]) -> dict[str, tuple[float, float]]:
        os.environ["LIFELENS_QUD_RULES_OFF"] = rule
        try:
            if args.question_set != "templates":
                from bench.qa.wild import SETS, run_wild

                report = run_wild(mode="qud", operators=args.operators, llm=llm, datasets=args.persona, ids=ids,
                                  cache=args.cache, folder=SETS[args.question_set], say=say)
            else:
                from bench.qa.runner import run_bench

                report = run_bench(args.split, mode="qud", personas=args.persona, llm=llm, cache=args.cache,
                                   operators=args.operators, ids=ids, say=say)
        finally:
            os.environ.pop("LIFELENS_QUD_RULES_OFF", None)
        return {r.id: (r.hit, r.relaxed) for r in report.results}

    rows = ablation(questions, rerun, RULES, max_questions=args.ablate_max, say=say)
    table = ablation_markdown(rows, len(questions), sum(q["hit"] for q in questions))
    payload = {"report": str(args.ablate), "rows": [row.__dict__ for row in rows]}
    _write(args.out, payload, table)
    return 0


def _write(out: Path | None, data: dict, table: str) -> None:
    if out:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(data, indent=1, default=str))
        out.with_suffix(".md").write_text(table)
    print(table)
