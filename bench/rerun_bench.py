"""How long a tree the person edited takes to run again: the steps the edit left as they were kept from the last run
(the window's way, app.engine.execute's `reuse`), against every step run again (RETRIEVE results are kept either
way, app.retrieve.cache).

    python bench/rerun_bench.py --questions dev --limit 10
    python bench/rerun_bench.py --questions wild --limit 20 --json out/rerun.json

Per question, the window's answerer answers it, then runs two edits of its tree as the step dialog makes them
(app.ui.tree_edit): `top`, the root's sub-question reworded (only the root runs again), and `above search`, the
sub-question right above the first RETRIEVE reworded (every step above that search runs again, the search and its
siblings do not). Each
edit is run with the steps kept and with none kept (a cache that keeps nothing), in that order; the answers must
agree. Timings depend on what else the machine runs: they are reported, never asserted.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Sequence

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script from a source checkout
    sys.path.insert(0, str(ROOT))

from bench.answer_bench import load_questions, percentile, prepare_store, sync_index  # noqa: E402

EDITS = ("top", "above search")


def _edit(report: Any, which: str) -> dict | None:
    """The edited tree (JSON) for `which` edit of the executed tree `report`; None when the tree has no such node."""
    from app.ui.tree_edit import edited_tree

    node = report
    if which == "above search":
        above = [n for n in report.walk() if any(c.operator == "RETRIEVE" for c in n.children)]
        if not above:
            return None
        node = above[0]
    return edited_tree(report, node, f"{node.question} (edited)", node.step)


def run(questions: Sequence[Any], operators: str | None = None, say=print) -> list[dict]:
    from app.importing import CancelToken
    from app.retrieve import operator_size
    from app.retrieve.cache import ResultCache
    from app.store import EventStore
    from app.ui.answering import PipelineAnswerer, reference_date_for

    size = operator_size(operators)
    answerers: dict[str, PipelineAnswerer] = {}
    rows: list[dict] = []
    quiet = lambda text: None  # noqa: E731
    try:
        for q in questions:
            if q.dataset not in answerers:
                path = prepare_store(q.dataset, say=quiet)
                sync_index(path, size)
                answerers[q.dataset] = PipelineAnswerer(path, operator_size=size)
                answerers[q.dataset].load(quiet, CancelToken())
            answerer = answerers[q.dataset]
            reference = q.reference_date
            if reference is None:
                with EventStore.open(answerer.store_path, read_only=True) as store:
                    reference = reference_date_for(store)
            answer = answerer(q.question, reference, quiet, CancelToken())
            if answer.tree is None:
                continue
            for which in EDITS:
                tree = _edit(answer.tree, which)
                if tree is None:
                    continue
                kept = answerer.steps
                timed = {}
                for label, steps in (("kept", kept), ("none kept", ResultCache(max_items=0))):
                    answerer.steps = steps
                    started = time.perf_counter()
                    rerun = answerer.run_tree(tree, reference, quiet, CancelToken())
                    timed[label] = (time.perf_counter() - started, rerun)
                answerer.steps = kept
                (with_s, with_a), (without_s, without_a) = timed["kept"], timed["none kept"]
                row = {"id": q.id, "edit": which, "kept_s": round(with_s, 3), "none_kept_s": round(without_s, 3),
                       "steps_kept": with_a.timings.get("steps_reused", 0),
                       "same_answer": with_a.value == without_a.value and with_a.status == without_a.status}
                rows.append(row)
                say(f"{q.id:40.40} {which:12} kept {with_s:7.3f} s ({row['steps_kept']} steps)   "
                    f"none kept {without_s:7.3f} s   same answer: {row['same_answer']}")
    finally:
        for answerer in answerers.values():
            answerer.close()
    return rows


def summary(rows: list[dict]) -> str:
    lines = []
    for which in EDITS:
        some = [r for r in rows if r["edit"] == which]
        if not some:
            continue
        kept, none = [r["kept_s"] for r in some], [r["none_kept_s"] for r in some]
        lines.append(f"{which}: {len(some)} edits; kept median {statistics.median(kept):.3f} s, p95 "
                     f"{percentile(kept, 0.95):.3f} s; none kept median {statistics.median(none):.3f} s, p95 "
                     f"{percentile(none, 0.95):.3f} s; same answers {sum(r['same_answer'] for r in some)}/{len(some)}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--questions", default="dev", help="dev, wild or a FILE (as bench/answer_bench.py)")
    parser.add_argument("--limit", type=int, default=10)
    parser.add_argument("--operators", choices=("lexical", "small", "default"))
    parser.add_argument("--json", type=Path, help="write the rows and the summary here")
    args = parser.parse_args(argv)
    rows = run(load_questions(args.questions, limit=args.limit), args.operators)
    text = summary(rows)
    print(text)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"rows": rows, "summary": text}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
