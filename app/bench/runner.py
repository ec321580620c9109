"""`lifelens bench`: the full pipeline on the persona benchmark, scored as in the ReQAP paper.

For each persona of a split, its exports are generated and imported once into a cached event store
(`app.persona.stores.persona_store`); each question of the split's templates is then answered by one of:

- `qud`      the product path: recursive QUD with the local model, then the operator engine (`app.qud.pipeline.ask`)
- `one-shot` the whole tree in one generation (the paper's ablation), then the engine
- `gold`     the gold tree through the engine: the upper bound that a perfect QUD reaches
- `rag`      the paper's RAG baseline: the top-k events by BM25 into the language model, which answers directly

Scores: Hit@1 and Relaxed Hit@1 (app.bench.metrics), overall and per category; stage figures: tree
validity, RETRIEVE recall and precision of the union of RETRIEVE nodes against the gold event ids;
per-question time (median, p95) and peak memory.

    report = run_bench("dev", mode="gold", limit=20)
    print(markdown(report))
"""

from __future__ import annotations

import json
import resource
import statistics
import time
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any, Callable, Iterable

from app.answer import Answer, NodeReport
from app.bench.metrics import hit_at_1, relaxed_hit_at_1

MODES = ("qud", "one-shot", "gold", "rag")


@dataclass
class QuestionResult:
    id: str
    persona: str
    categories: list[str]
    question: str
    gold: Any
    predicted: Any
    hit: float
    relaxed: float
    seconds: float
    tree_ok: bool
    error: str | None
    retrieve_recall: float | None = None
    retrieve_precision: float | None = None
    qud_seconds: float | None = None
    gold_equivalent: bool | None = None   # the tree gives the gold tree's answer on this store (qud, one-shot)


@dataclass
class BenchReport:
    split: str
    mode: str
    results: list[QuestionResult] = field(default_factory=list)
    peak_rss_mb: float = 0.0

    def summary(self) -> dict[str, Any]:
        rs = self.results
        times = sorted(r.seconds for r in rs)
        qud_times = sorted(r.qud_seconds for r in rs if r.qud_seconds is not None)
        per_cat: dict[str, list[QuestionResult]] = defaultdict(list)
        for r in rs:
            for c in r.categories:
                per_cat[c].append(r)
        recalls = [r.retrieve_recall for r in rs if r.retrieve_recall is not None]
        precisions = [r.retrieve_precision for r in rs if r.retrieve_precision is not None]
        return {
            "split": self.split,
            "mode": self.mode,
            "questions": len(rs),
            "hit_at_1": _mean(r.hit for r in rs),
            "relaxed_hit_at_1": _mean(r.relaxed for r in rs),
            "tree_executes": None if self.mode == "rag" else _mean(float(r.tree_ok) for r in rs),
            "gold_equivalent": (_mean(float(r.gold_equivalent) for r in rs)
                                if rs and all(r.gold_equivalent is not None for r in rs) else None),
            "retrieve_recall": _mean(recalls) if recalls else None,
            "retrieve_precision": _mean(precisions) if precisions else None,
            "per_category": {
                c: {"questions": len(v), "hit_at_1": _mean(r.hit for r in v), "relaxed_hit_at_1": _mean(r.relaxed for r in v)}
                for c, v in sorted(per_cat.items())
            },
            "seconds_median": statistics.median(times) if times else None,
            "seconds_p95": _percentile(times, 0.95),
            "qud_seconds_median": statistics.median(qud_times) if qud_times else None,
            "qud_seconds_p95": _percentile(qud_times, 0.95),
            "peak_rss_mb": round(self.peak_rss_mb),
        }

    def to_json(self) -> dict[str, Any]:
        return {"summary": self.summary(), "questions": [r.__dict__ for r in self.results]}


def _mean(values: Iterable[float]) -> float:
    values = list(values)
    return round(sum(values) / len(values), 4) if values else 0.0


def _percentile(sorted_values: list[float], q: float) -> float | None:
    if not sorted_values:
        return None
    index = min(len(sorted_values) - 1, max(0, round(q * (len(sorted_values) - 1))))
    return sorted_values[index]


def retrieved_ids(report: NodeReport | None) -> set[str]:
    """The union of the event ids of every RETRIEVE node of an executed tree."""
    if report is None:
        return set()
    found: set[str] = set()
    stack = [report]
    while stack:
        node = stack.pop()
        if node.operator == "RETRIEVE":
            found.update(node.event_ids)
        stack.extend(node.children)
    return found


def recall_precision(predicted: set[str], gold: set[str]) -> tuple[float | None, float | None]:
    if not gold:
        return None, None
    hit = len(predicted & gold)
    return hit / len(gold), (hit / len(predicted) if predicted else 0.0)


def answer_question(record: dict, store: Any, mode: str, llm: Any) -> tuple[Answer, float | None]:
    """One question through the chosen path; returns the answer and the QUD seconds (if any)."""
    reference = date.fromisoformat(record["reference_date"])
    if mode == "gold":
        from app.engine import execute
        from app.engine.tree import Node

        return execute(Node.from_json(record["tree"]), store, reference), None
    if mode == "rag":
        from app.bench.rag import rag_answer

        return rag_answer(record["question"], store, reference, llm), None
    from app.qud.pipeline import ask

    if mode == "one-shot":
        from dataclasses import replace

        from app.engine import execute
        from app.qud.pipeline import DecompositionError, decompose_one_shot

        started = time.perf_counter()
        try:
            tree = decompose_one_shot(record["question"], reference, llm)
        except DecompositionError as exc:
            seconds = time.perf_counter() - started
            return Answer(record["question"], None, f"I could not understand the question: {exc}", None, (),
                          {"qud": seconds}, str(exc)), seconds
        qud_seconds = time.perf_counter() - started
        answer = execute(tree, store, reference)
        return replace(answer, timings={**answer.timings, "qud": qud_seconds}), qud_seconds
    answer = ask(record["question"], store, reference, llm=llm)
    return answer, answer.timings.get("qud")


def run_bench(
    split: str,
    *,
    mode: str = "qud",
    limit: int | None = None,
    personas: list[str] | None = None,
    llm: Any = None,
    cache: Path | None = None,
    say: Callable[[str], None] = lambda text: None,
) -> BenchReport:
    from app.persona.questions import questions_for
    from app.persona.splits import PERSONAS, templates_in
    from app.persona.generate import timeline_for
    from app.persona.storeids import StoreIdMapper
    from app.persona.stores import persona_store

    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}; one of {MODES}")
    if llm is None and mode != "gold":
        from app.qud.pipeline import default_llm

        llm = default_llm()
    report = BenchReport(split=split, mode=mode)
    templates = templates_in(split)
    budget = limit
    for persona_id in personas or PERSONAS[split]:
        if budget is not None and budget <= 0:
            break
        say(f"{persona_id}: preparing the event store")
        store = persona_store(persona_id, cache=cache, say=say)
        records = questions_for(persona_id, templates)
        mapper = StoreIdMapper(store, timeline_for(persona_id))
        if budget is not None:
            records = records[:budget]
            budget -= len(records)
        for record in records:
            gold_ids = set(mapper.store_ids(_expand(record["evidence"])))
            started = time.perf_counter()
            try:
                answer, qud_seconds = answer_question(record, store, mode, llm)
                error = answer.error
            except Exception as exc:  # a crash is a miss with its reason, never the end of the run
                answer, qud_seconds, error = None, None, f"{type(exc).__name__}: {exc}"
            seconds = time.perf_counter() - started
            predicted = answer.value if answer is not None else None
            tree = answer.tree if answer is not None else None
            recall, precision = recall_precision(retrieved_ids(tree), gold_ids) if mode != "rag" else (None, None)
            result = QuestionResult(
                id=record["id"], persona=persona_id, categories=list(record["categories"]),
                question=record["question"], gold=record["answer"], predicted=_plain(predicted),
                hit=hit_at_1(predicted, record["answers"]), relaxed=relaxed_hit_at_1(predicted, record["answers"]),
                seconds=round(seconds, 3), tree_ok=bool(tree is not None and not _tree_failed(tree)),
                error=error, retrieve_recall=recall, retrieve_precision=precision,
                qud_seconds=round(qud_seconds, 3) if qud_seconds is not None else None,
            )
            if mode in ("qud", "one-shot"):
                result.gold_equivalent = answer is not None and gives_gold_answer(answer, record, store)
            report.results.append(result)
            say(f"  {'HIT ' if result.hit else 'miss'} {seconds:6.1f}s  {record['question']}  -> {result.predicted!r}"
                f" (gold {record['answer']!r})")
        store.close()
    report.peak_rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return report


def gives_gold_answer(answer: Answer, record: dict, store: Any) -> bool:
    """The paper's tree equivalence, judged by its effect: the tree's answer equals the gold tree's answer on the
    same store (both run by the same engine), so trees that differ only in wording still count."""
    from app.engine import execute
    from app.engine.tree import Node

    if answer.tree is None or answer.value is None:
        return False
    gold = execute(Node.from_json(record["tree"]), store, date.fromisoformat(record["reference_date"]))
    return hit_at_1(answer.value, [gold.value]) == 1.0


def _expand(compact: list[str]) -> list[str]:
    from app.persona.questions import expand_ids

    return expand_ids(compact)


def _tree_failed(tree: NodeReport) -> bool:
    stack = [tree]
    while stack:
        node = stack.pop()
        if node.error:
            return True
        stack.extend(node.children)
    return False


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value, default=str))


def markdown(report: BenchReport) -> str:
    s = report.summary()
    lines = [
        f"### Lifelens bench: split `{s['split']}`, mode `{s['mode']}`, {s['questions']} questions",
        "",
        "| category | questions | Hit@1 | Relaxed Hit@1 |",
        "| --- | ---: | ---: | ---: |",
        f"| **all** | {s['questions']} | {s['hit_at_1']:.3f} | {s['relaxed_hit_at_1']:.3f} |",
    ]
    for cat, v in s["per_category"].items():
        lines.append(f"| {cat} | {v['questions']} | {v['hit_at_1']:.3f} | {v['relaxed_hit_at_1']:.3f} |")
    lines += ["", "| stage | value |", "| --- | ---: |"]
    if s["tree_executes"] is not None:  # RAG builds no tree
        lines.append(f"| trees that execute | {s['tree_executes']:.3f} |")
    if s["gold_equivalent"] is not None:
        lines.append(f"| trees equivalent to the gold tree (same answer on the store) | {s['gold_equivalent']:.3f} |")
    if s["retrieve_recall"] is not None:
        lines.append(f"| RETRIEVE recall (union of RETRIEVE nodes vs gold ids) | {s['retrieve_recall']:.3f} |")
        lines.append(f"| RETRIEVE precision | {s['retrieve_precision']:.3f} |")
    lines.append(f"| time per question, median / p95 (s) | {_fmt(s['seconds_median'])} / {_fmt(s['seconds_p95'])} |")
    if s["qud_seconds_median"] is not None:
        lines.append(f"| QUD time per question, median / p95 (s) | {_fmt(s['qud_seconds_median'])} / {_fmt(s['qud_seconds_p95'])} |")
    lines.append(f"| peak memory (MB) | {s['peak_rss_mb']} |")
    return "\n".join(lines) + "\n"


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"
