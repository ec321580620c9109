"""`lifelens bench`: the full pipeline on the persona benchmark, scored as in the ReQAP paper.

For each persona of a split, its exports are generated and imported once into a cached event store
(`app.persona.stores.persona_store`); each question of the split's templates is then answered by one of:

- `qud`      the product path: recursive QUD with the local model, then the operator engine (`app.qud.pipeline.ask`)
- `one-shot` the whole tree in one generation (the paper's ablation), then the engine
- `gold`     the gold tree through the engine: the upper bound that a perfect QUD reaches
- `rag`      the paper's RAG baseline: the top-k events by BM25 into the language model, which answers directly
- `codegen`  the paper's CodeGen baseline: the language model writes one SQLite SELECT over a read-only view of
             the store (bench.qa.codegen), whose result is the answer

The engine modes run with the operator models chosen by `operators` (small / default / lexical,
`app.operators.operator_models`), made once per persona store. Scores: Hit@1 and Relaxed Hit@1
(bench.qa.metrics), overall and per category; stage figures: tree validity, RETRIEVE recall and precision
per stage (pool, after patterns, after events, after de-duplication; bench.qa.stages) against the gold ids
of the question's gold RETRIEVE queries, RETRIEVE and EXTRACT time per 1,000 events; per-question time
(median, p95) and peak memory. The EXTRACT accuracy stage is `bench.qa.extract_stage`.

    report = run_bench("dev", mode="gold", limit=20, operators="small")
    print(markdown(report))
"""

from __future__ import annotations

import json
import resource
import statistics
import time
from collections import defaultdict
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from app.answer import Answer, AnswerStatus, NodeReport
from bench.qa.metrics import hit_at_1, relaxed_hit_at_1
from bench.qa.stages import STAGES, mean_stage_figures, per_1000

MODES = ("qud", "one-shot", "gold", "rag", "codegen")
ENGINE_MODES = ("qud", "one-shot", "gold")  # the modes that run operator trees through the engine


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
    retrieve_stages: dict | None = None   # recall/precision/size per RETRIEVE stage (bench.qa.stages)
    status: str | None = None             # app.answer.AnswerStatus: answered, none_found, failed, ...
    rules: list[str] = field(default_factory=list)  # the QUD rules that acted (app.qud.decompose.Trace.acted)
    tree: dict | None = None  # the executed tree without previews and ids: question, step, size, error, children


@dataclass
class BenchReport:
    split: str
    mode: str
    operators: str | None = None          # RETRIEVE/EXTRACT models of the engine modes (small/default/lexical)
    results: list[QuestionResult] = field(default_factory=list)
    peak_rss_mb: float = 0.0
    index_seconds: float = 0.0            # SPLADE index sync before the questions (not in their times)
    retrieve_calls: int = 0
    retrieve_seconds: float = 0.0         # RETRIEVE calls, without index sync
    retrieve_candidates: int = 0          # pool sizes (model retriever) or events returned (lexical)
    extract_calls: int = 0
    extract_seconds: float = 0.0
    extract_events: int = 0

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
            "operators": self.operators,
            "tree_executes": _mean(float(r.tree_ok) for r in rs) if self.mode in ENGINE_MODES else None,
            "answers_given": _mean(float(r.status in ("answered", "none_found")) for r in rs),
            "gold_equivalent": (_mean(float(r.gold_equivalent) for r in rs)
                                if rs and all(r.gold_equivalent is not None for r in rs) else None),
            "retrieve_recall": _mean(recalls) if recalls else None,
            "retrieve_precision": _mean(precisions) if precisions else None,
            "retrieve_stages": mean_stage_figures(r.retrieve_stages for r in rs),
            "retrieve_calls": self.retrieve_calls,
            "retrieve_seconds_per_1000_candidates": per_1000(self.retrieve_seconds, self.retrieve_candidates),
            "retrieve_candidates_mean": round(self.retrieve_candidates / self.retrieve_calls, 1) if self.retrieve_calls else None,
            "extract_calls": self.extract_calls,
            "extract_seconds_per_1000_events": per_1000(self.extract_seconds, self.extract_events),
            "index_seconds": round(self.index_seconds, 1),
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


def answer_question(record: dict, store: Any, mode: str, llm: Any, *, retriever: Any = None, extractor: Any = None,
                    sandbox: Any = None, trace: Any = None) -> tuple[Answer, float | None]:
    """One question through the chosen path; returns the answer and the QUD seconds (if any). `retriever` and
    `extractor` are the operator models of the engine modes (None: the engine's lexical baselines); `sandbox`
    is the codegen mode's SqlSandbox; `trace` (a Trace, qud mode) receives the model calls and the rules that
    acted."""
    reference = date.fromisoformat(record["reference_date"])
    models = {"retriever": retriever, "extractor": extractor}
    if mode == "gold":
        from app.engine import execute
        from app.engine.tree import Node

        return execute(Node.from_json(record["tree"]), store, reference, **models), None
    if mode == "rag":
        from bench.qa.rag import rag_answer

        return rag_answer(record["question"], store, reference, llm), None
    if mode == "codegen":
        from bench.qa.codegen import codegen_answer

        return codegen_answer(record["question"], store, reference, llm, sandbox=sandbox), None
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
        answer = execute(tree, store, reference, **models)
        return replace(answer, timings={**answer.timings, "qud": qud_seconds}), qud_seconds
    answer = ask(record["question"], store, reference, llm=llm, trace=trace, **models)
    return answer, answer.timings.get("qud")


def run_bench(
    split: str,
    *,
    mode: str = "qud",
    limit: int | None = None,
    personas: list[str] | None = None,
    llm: Any = None,
    cache: Path | None = None,
    operators: str | None = None,
    ids: set[str] | None = None,
    say: Callable[[str], None] = lambda text: None,
) -> BenchReport:
    """`operators`: the RETRIEVE/EXTRACT models of the engine modes, "small" | "default" | "lexical" (default:
    `app.retrieve.operator_size()`); made once per persona store and closed after it. `ids`: only these
    questions (of the first `limit`)."""
    from app.persona.questions import questions_for
    from app.persona.splits import PERSONAS, templates_in
    from app.persona.generate import timeline_for
    from app.persona.storeids import StoreIdMapper
    from app.persona.stores import persona_store
    from app.retrieve import operator_size

    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}; one of {MODES}")
    if llm is None and mode != "gold":
        from app.qud.pipeline import default_llm

        llm = default_llm()
    size = operator_size(operators) if mode in ENGINE_MODES else None
    report = BenchReport(split=split, mode=mode, operators=size)
    templates = templates_in(split)
    budget = limit
    for persona_id in personas or PERSONAS[split]:
        if budget is not None and budget <= 0:
            break
        records = questions_for(persona_id, templates)
        if budget is not None:
            records = records[:budget]
            budget -= len(records)
        if ids is not None:
            records = [r for r in records if r["id"] in ids]
        if not records:
            continue
        say(f"{persona_id}: preparing the event store")
        store = persona_store(persona_id, cache=cache, say=say)
        mapper = StoreIdMapper(store, timeline_for(persona_id))

        def gold_of(record: dict) -> tuple[set[str], set[str]]:
            retrieve = record.get("retrieve") or {"": record["evidence"]}
            wanted = sorted({i for compact in retrieve.values() for i in _expand(compact)})
            return set(mapper.store_ids(_expand(record["evidence"]))), set(mapper.store_ids(wanted))

        with store_models(store, mode, size, label=persona_id, say=say) as models:
            report.index_seconds += models.index_seconds
            bench_records(report, persona_id, store, records, gold_of, llm=llm, retriever=models.retriever,
                          extractor=models.extractor, sandbox=models.sandbox, say=say)
    report.peak_rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return report


@dataclass
class StoreModels:
    """What the questions of one store are answered with: the operator models of the engine modes (None: the
    engine's lexical baselines) or the codegen mode's sandbox, and the seconds the SPLADE index sync took."""

    retriever: Any = None
    extractor: Any = None
    sandbox: Any = None
    index_seconds: float = 0.0


@contextmanager
def store_models(store: Any, mode: str, size: str | None, *, label: str,
                 say: Callable[[str], None] = lambda text: None) -> Iterator[StoreModels]:
    """The models for `store` (operator models of `size`, their SPLADE index synced once, outside the question
    times; or a SqlSandbox for codegen), closed with the store when the block ends."""
    models = StoreModels()
    try:
        if size is not None:
            from app.operators import operator_models

            models.retriever, models.extractor = operator_models(store, size)
            if hasattr(models.retriever, "index_for"):
                say(f"{label}: syncing the SPLADE index")
                clock = time.perf_counter()
                models.retriever.index_for(store)
                models.index_seconds = time.perf_counter() - clock
        elif mode == "codegen":
            from bench.qa.codegen import SqlSandbox

            models.sandbox = SqlSandbox(store.path)
        yield models
    finally:
        for model in (models.retriever, models.extractor, models.sandbox):
            if hasattr(model, "close"):
                model.close()
        store.close()


def bench_records(
    report: BenchReport,
    persona_id: str,
    store: Any,
    records: list[dict],
    gold_of: Callable[[dict], tuple[set[str], set[str]]],
    *,
    llm: Any = None,
    retriever: Any = None,
    extractor: Any = None,
    sandbox: Any = None,
    say: Callable[[str], None] = lambda text: None,
) -> None:
    """Answer and score `records` on one store, adding to `report`. `gold_of(record)` gives the store ids of
    the answer's evidence and of the relevant events of the gold RETRIEVE queries (the RETRIEVE stage gold)."""
    from bench.qa.stages import RecordingExtractor, RecordingRetriever

    mode = report.mode
    recorder = RecordingRetriever(retriever) if retriever is not None else None
    extract_recorder = RecordingExtractor(extractor) if extractor is not None else None
    for record in records:
        _, retrieve_gold = gold_of(record)
        started = time.perf_counter()
        answer, qud_seconds, error, trace = _answer_or_crash(record, store, mode, llm, retriever=recorder,
                                                             extractor=extract_recorder, sandbox=sandbox)
        seconds = time.perf_counter() - started
        stages = _take_operator_calls(report, recorder, extract_recorder, retrieve_gold)
        result = _question_result(record, persona_id, mode, answer, error, retrieve_gold, stages, trace,
                                  seconds=seconds, qud_seconds=qud_seconds)
        if mode in ("qud", "one-shot"):
            result.gold_equivalent = answer is not None and gives_gold_answer(  # unrecorded: not a stage figure
                answer, record, store, retriever=retriever, extractor=extractor)
        report.results.append(result)
        say(f"  {'HIT ' if result.hit else 'miss'} {seconds:6.1f}s  {record['question']}  -> {result.predicted!r}"
            f" (gold {record['answer']!r})")


def _answer_or_crash(record: dict, store: Any, mode: str, llm: Any, *, retriever: Any, extractor: Any,
                     sandbox: Any) -> tuple[Answer | None, float | None, str | None, Any]:
    """(answer, QUD seconds, error, trace) of one question; a crash is a miss with its reason (no answer), never
    the end of the run."""
    from app.qud.decompose import Trace

    trace = Trace()
    try:
        answer, qud_seconds = answer_question(record, store, mode, llm, retriever=retriever,
                                              extractor=extractor, sandbox=sandbox, trace=trace)
        error = answer.error
    except Exception as exc:
        answer, qud_seconds, error = None, None, f"{type(exc).__name__}: {exc}"
    return answer, qud_seconds, error, trace


def _take_operator_calls(report: BenchReport, recorder: Any, extract_recorder: Any,
                         retrieve_gold: set[str]) -> dict | None:
    """Add the RETRIEVE and EXTRACT calls the recorders saw for one question to the report's operator figures;
    the question's RETRIEVE stage figures (None without a recorded retriever)."""
    from bench.qa.stages import retrieve_stage_figures

    stages = None
    if recorder is not None:
        calls = recorder.take()
        stages = retrieve_stage_figures(calls, retrieve_gold, staged=recorder.staged)
        report.retrieve_calls += len(calls)
        report.retrieve_seconds += sum(c.seconds for c in calls)
        report.retrieve_candidates += sum(c.candidates for c in calls)
    if extract_recorder is not None:
        calls = extract_recorder.take()
        report.extract_calls += len(calls)
        report.extract_seconds += sum(c.seconds for c in calls)
        report.extract_events += sum(c.events for c in calls)
    return stages


def _question_result(record: dict, persona_id: str, mode: str, answer: Answer | None, error: str | None,
                     retrieve_gold: set[str], stages: dict | None, trace: Any, *, seconds: float,
                     qud_seconds: float | None) -> QuestionResult:
    """One question scored: Hit@1, Relaxed Hit@1, and for the engine modes the tree's RETRIEVE recall and
    precision."""
    predicted = scored_value(answer)
    tree = answer.tree if answer is not None else None
    has_tree = mode in ENGINE_MODES
    recall, precision = recall_precision(retrieved_ids(tree), retrieve_gold) if has_tree else (None, None)
    return QuestionResult(
        id=record["id"], persona=persona_id, categories=list(record["categories"]),
        question=record["question"], gold=record["answer"], predicted=_plain(predicted),
        hit=hit_at_1(predicted, record["answers"]), relaxed=relaxed_hit_at_1(predicted, record["answers"]),
        seconds=round(seconds, 3), tree_ok=bool(tree is not None and not _tree_failed(tree)),
        error=error, retrieve_recall=recall, retrieve_precision=precision,
        qud_seconds=round(qud_seconds, 3) if qud_seconds is not None else None,
        retrieve_stages=stages, status=answer.status.value if answer is not None else "failed",
        rules=sorted(trace.acted), tree=tree_outline(tree),
    )


def tree_outline(report) -> dict | None:
    """An executed tree as its questions, steps, sizes and errors (what a reader needs to see why it missed)."""
    if report is None:
        return None
    return {"question": report.question, "step": report.step, "size": report.size, "error": report.error,
            "children": [tree_outline(c) for c in report.children]}


def scored_value(answer: Answer | None) -> Any:
    """The value a question is scored on: the answer's value, and "none" for a tree that ran and found nothing
    to give a value from (an arg-max over no events), so that it matches a gold "none"."""
    if answer is None:
        return None
    if answer.status is AnswerStatus.NONE_FOUND and answer.value is None:
        return "none"
    return answer.value


def gives_gold_answer(answer: Answer, record: dict, store: Any, *, retriever: Any = None, extractor: Any = None) -> bool:
    """The paper's tree equivalence, judged by its effect: the tree's answer equals the gold tree's answer on the
    same store (both run by the same engine with the same operator models), so trees that differ only in
    wording still count."""
    from app.engine import execute
    from app.engine.tree import Node

    if answer.tree is None or not answer.status.ran:
        return False
    gold = execute(Node.from_json(record["tree"]), store, date.fromisoformat(record["reference_date"]),
                   retriever=retriever, extractor=extractor)
    return gold.status.ran and hit_at_1(scored_value(answer), [scored_value(gold)]) == 1.0


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
        f"### Lifelens bench: split `{s['split']}`, mode `{s['mode']}`"
        + (f", operators `{s['operators']}`" if s["operators"] else "") + f", {s['questions']} questions",
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
    lines.append(f"| answers given (the tree ran to its end; a count of 0 and a 'none' are answers) | {s['answers_given']:.3f} |")
    if s["gold_equivalent"] is not None:
        lines.append(f"| trees equivalent to the gold tree (same answer on the store) | {s['gold_equivalent']:.3f} |")
    if s["retrieve_recall"] is not None:
        lines.append(f"| RETRIEVE recall (events of the tree's RETRIEVE nodes vs gold ids) | {s['retrieve_recall']:.3f} |")
        lines.append(f"| RETRIEVE precision (events) | {s['retrieve_precision']:.3f} |")
    if s["retrieve_seconds_per_1000_candidates"] is not None:
        what = "pool events" if "pool" in s["retrieve_stages"] else "events returned"
        lines.append(f"| RETRIEVE time per 1,000 candidates ({what}; {s['retrieve_calls']} calls, "
                     f"mean {s['retrieve_candidates_mean']} candidates) (s) | {s['retrieve_seconds_per_1000_candidates']:.3f} |")
    if s["extract_seconds_per_1000_events"] is not None:
        lines.append(f"| EXTRACT time per 1,000 events ({s['extract_calls']} calls) (s) | {s['extract_seconds_per_1000_events']:.3f} |")
    if s["index_seconds"]:
        lines.append(f"| SPLADE index sync before the questions (s) | {s['index_seconds']:.1f} |")
    lines.append(f"| time per question, median / p95 (s) | {_fmt(s['seconds_median'])} / {_fmt(s['seconds_p95'])} |")
    if s["qud_seconds_median"] is not None:
        lines.append(f"| QUD time per question, median / p95 (s) | {_fmt(s['qud_seconds_median'])} / {_fmt(s['qud_seconds_p95'])} |")
    lines.append(f"| peak memory (MB) | {s['peak_rss_mb']} |")
    if s["retrieve_stages"]:
        names = {"pool": "pool", "after_patterns": "after patterns", "after_events": "after events",
                 "final": "after de-duplication (final)" if "pool" in s["retrieve_stages"] else "final"}
        lines += ["", "RETRIEVE per stage: per question, the union of its RETRIEVE calls against the gold ids of its "
                  "gold RETRIEVE queries; averaged over questions (final: items, correct when one of their events is gold). "
                  "Micro: sums of found / gold and correct / kept over all questions.",
                  "", "| RETRIEVE stage | questions | recall | precision | recall (micro) | precision (micro) | mean size |",
                  "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
        for stage in STAGES:
            if stage in s["retrieve_stages"]:
                v = s["retrieve_stages"][stage]
                lines.append(f"| {names[stage]} | {v['questions']} | {v['recall']:.3f} | {v['precision']:.3f} | "
                             f"{v['recall_micro']:.3f} | {v['precision_micro']:.3f} | {v['size_mean']} |")
    return "\n".join(lines) + "\n"


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"
