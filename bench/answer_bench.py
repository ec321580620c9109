"""Answer a fixed list of questions in one process, as the window does, and say where each answer's time goes.

    python bench/answer_bench.py --questions dev --limit 10
    python bench/answer_bench.py --questions wild --limit 14 --threads 1 --json out/wild-t1.json
    python bench/answer_bench.py --questions my_questions.jsonl --store ~/.local/share/Lifelens/events.sqlite
    python bench/answer_bench.py --questions dev --limit 10 --cancel-after 2    # how soon a cancel takes effect

Questions: `dev` (the dev split's template questions, over the dev personas' cached bench stores), `wild`
(bench/wild/, over the dev personas and the other-shape datasets), or a FILE: JSON lines
{"question": ..., "dataset": "p13", "reference_date": "2024-04-06"} (dataset and date optional: the demo
persona, and the store's own date), or plain lines, one question each. `--store PATH` asks them all over that
event store instead.

The answerer is the window's own (`app.ui.answering.PipelineAnswerer`): the question model is loaded once
before the first question, the operator models on the first question of a store, and every question then goes
through `app.qud.pipeline.ask`. Each store's SPLADE index is synced before its questions; the model load and
the index sync are reported apart, not in any question's time.

Per question: QUD calls and rejected steps, and the seconds of the QUD (decomposition), RETRIEVE, EXTRACT and
the rest (planning, the other operators, opening the store, making the operator models), the total, and the
process's peak RSS so far; with the question model's tokens (prompt, evaluated, generated) and its
prompt-evaluation vs generation seconds. Then per column: sum, median and p95. Hit@1 where the question has
gold answers. Timings depend on what else the machine runs: the report carries the load average before and
after, and the figures are reported, never asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import time
from dataclasses import asdict, dataclass, field
from datetime import date
from pathlib import Path
from typing import Any, Callable, Sequence

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script from a source checkout
    sys.path.insert(0, str(ROOT))

QUESTION_SETS = ("dev", "wild")
STAGES = ("qud", "retrieve", "extract", "other", "total")  # seconds columns; other = total - the three stages
COUNTS = ("qud_calls", "qud_rejected")


@dataclass(frozen=True)
class BenchQuestion:
    id: str
    dataset: str                   # the store it is asked over: a persona id, a wild dataset, or "store"
    question: str
    reference_date: date | None    # None: the store's pinned date (as the window takes it)
    answers: tuple = ()            # gold answers, when known (dev, wild)


@dataclass
class QuestionFigures:
    id: str
    dataset: str
    question: str
    status: str
    qud_calls: int          # steps written (each a model call, or replayed from an identical earlier one)
    qud_rejected: int
    qud: float
    retrieve: float
    extract: float
    other: float
    total: float
    peak_rss_mb: float
    model_calls: int = 0    # times the model ran
    prompt_tokens: int = 0
    evaluated_tokens: int = 0
    generated_tokens: int = 0
    prefill_seconds: float = 0.0
    generate_seconds: float = 0.0
    hit: float | None = None
    error: str | None = None
    steps_reused: int = 0   # steps of its tree kept from an earlier question's (the window's answerer keeps them)
    cancel_latency: float | None = None  # with --cancel-after: seconds from the cancel to the answer's return


@dataclass
class BenchRun:
    settings: dict[str, Any]
    load_seconds: float = 0.0
    index_seconds: dict[str, float] = field(default_factory=dict)
    questions: list[QuestionFigures] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        columns = (*COUNTS, *STAGES, "model_calls", "prompt_tokens", "evaluated_tokens", "generated_tokens", "prefill_seconds",
                   "generate_seconds")
        out: dict[str, Any] = {"questions": len(self.questions)}
        for name in columns:
            values = [getattr(q, name) for q in self.questions]
            out[name] = {"sum": _round(sum(values)), "median": _round(_median(values)),
                         "p95": _round(percentile(values, 0.95))}
        hits = [q.hit for q in self.questions if q.hit is not None]
        out["hit_at_1"] = round(sum(hits) / len(hits), 4) if hits else None
        latencies = [q.cancel_latency for q in self.questions if q.cancel_latency is not None]
        out["cancel_latency"] = ({"cancelled": len(latencies), "median": _round(_median(latencies)),
                                  "max": _round(max(latencies))} if latencies else None)
        out["statuses"] = {s: sum(q.status == s for q in self.questions) for s in sorted({q.status for q in self.questions})}
        out["peak_rss_mb"] = max((q.peak_rss_mb for q in self.questions), default=peak_rss_mb())
        return out

    def to_json(self) -> dict[str, Any]:
        return {"settings": self.settings, "load_seconds": _round(self.load_seconds),
                "index_seconds": {k: _round(v) for k, v in self.index_seconds.items()},
                "summary": self.summary(), "questions": [asdict(q) for q in self.questions]}


def _median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else 0.0


def percentile(values: Sequence[float], q: float) -> float:
    """The nearest-rank percentile (the bench runner's): p95 of 20 values is the 19th smallest."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def _round(value: float) -> float:
    return round(value, 3) if isinstance(value, float) else value


def peak_rss_mb() -> float:
    """The process's peak resident memory so far, in MB."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(peak / (1024 * 1024 if sys.platform == "darwin" else 1024), 1)  # bytes on macOS, KB elsewhere


# --- questions ---------------------------------------------------------------------------------------------


def load_questions(spec: str, *, limit: int | None = None) -> list[BenchQuestion]:
    """`dev`, `wild` or a file of questions (module docstring); the first `limit` of them."""
    if spec == "dev":
        questions = _dev_questions(limit)
    elif spec == "wild":
        from bench.qa.wild import load_questions as wild_questions

        questions = [BenchQuestion(r["id"], r["dataset"], r["question"], date.fromisoformat(r["reference_date"]),
                                   tuple(r.get("answers", ()))) for r in wild_questions()]
    else:
        questions = _file_questions(Path(spec))
    return questions[:limit] if limit is not None else questions


def _dev_questions(limit: int | None) -> list[BenchQuestion]:
    from app.persona.questions import questions_for
    from app.persona.splits import PERSONAS, templates_in

    questions: list[BenchQuestion] = []
    for persona in PERSONAS["dev"]:  # a persona's questions are made only when the limit reaches them
        if limit is not None and len(questions) >= limit:
            break
        questions += [BenchQuestion(r["id"], persona, r["question"], date.fromisoformat(r["reference_date"]),
                                    tuple(r.get("answers", ()))) for r in questions_for(persona, templates_in("dev"))]
    return questions


def _file_questions(path: Path) -> list[BenchQuestion]:
    from app.persona.splits import DEMO_PERSONA

    questions = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        record = json.loads(line) if line.startswith("{") else {"question": line}
        when = record.get("reference_date")
        questions.append(BenchQuestion(str(record.get("id", f"{path.stem}-{number}")),
                                       record.get("dataset", DEMO_PERSONA), record["question"],
                                       date.fromisoformat(when) if when else None, tuple(record.get("answers", ()))))
    return questions


# --- the run -----------------------------------------------------------------------------------------------


def prepare_store(dataset: str, *, cache: Path | None = None, say: Callable[[str], None] = print) -> Path:
    """The path of the cached event store a dataset's questions are asked over (built on first use)."""
    from bench.qa.wild import wild_store

    store = wild_store(dataset, cache=cache, say=say)
    try:
        return Path(store.path)
    finally:
        store.close()


def sync_index(store_path: Path, operators: str | None) -> float:
    """Bring the store's SPLADE side index up to date (the window does so after an import); its seconds."""
    from app.retrieve import make_retriever
    from app.store import EventStore

    retriever = make_retriever(operators)
    if not hasattr(retriever, "index_for"):
        return 0.0
    started = time.perf_counter()
    try:
        with EventStore.open(store_path, read_only=True) as store:
            retriever.index_for(store)
    finally:
        retriever.close()
    return time.perf_counter() - started


def run(questions: Sequence[BenchQuestion], store_for: Callable[[str], Path], *, qud_model: str = "default",
        operators: str | None = None, settings: dict[str, Any] | None = None, cancel_after: float | None = None,
        say: Callable[[str], None] = print) -> BenchRun:
    """Answer `questions` in order, one window answerer per store, the question model shared by all.
    `cancel_after`: cancel each question this many seconds after it starts, as the window's Cancel does."""
    from app.importing import CancelToken
    from app.qud.decompose import Trace
    from app.retrieve import operator_size
    from app.store import EventStore
    from app.ui.answering import PipelineAnswerer, reference_date_for
    from bench.qa.metrics import hit_at_1
    from bench.qa.runner import scored_value

    size = operator_size(operators)
    report = BenchRun(settings=dict(settings or {}, qud_model=qud_model, operators=size,
                                    load_average_before=_load_average()))
    answerers: dict[str, PipelineAnswerer] = {}  # per dataset; the question model is one for the process
    try:
        for q in questions:
            if q.dataset not in answerers:
                path = store_for(q.dataset)
                report.index_seconds[q.dataset] = sync_index(path, size)
                answerer = answerers[q.dataset] = PipelineAnswerer(path, qud_model=qud_model, operator_size=size)
                started = time.perf_counter()
                answerer.load(lambda text: None, CancelToken())  # once: the model is shared
                report.load_seconds += time.perf_counter() - started
            answerer = answerers[q.dataset]
            reference = q.reference_date
            if reference is None:
                with EventStore.open(answerer.store_path, read_only=True) as store:
                    reference = reference_date_for(store)
            figures, answer = _answer_one(answerer, q, reference, Trace(), cancel_after)
            if q.answers:
                figures.hit = hit_at_1(scored_value(answer), list(q.answers))
            report.questions.append(figures)
            say(format_row(figures))
    finally:
        for answerer in answerers.values():
            answerer.close()
    report.settings["load_average_after"] = _load_average()
    return report


def _answer_one(answerer: Any, q: BenchQuestion, reference: date, trace: Any,
                cancel_after: float | None = None) -> tuple[QuestionFigures, Any]:
    import threading

    from app.answer import AnswerStatus
    from app.importing import CancelToken

    model = answerer.model
    before = model.usage.copy() if hasattr(model, "usage") else None
    token = CancelToken()
    cancelled_at: list[float] = []

    def cancel() -> None:
        cancelled_at.append(time.perf_counter())
        token.cancel()

    timer = threading.Timer(cancel_after, cancel) if cancel_after is not None else None
    started = time.perf_counter()
    if timer is not None:
        timer.start()
    answer = None
    try:
        answer = answerer(q.question, reference, lambda text: None, token, trace=trace)
        status, error = answer.status.value, answer.error
    except Exception as exc:  # a crash is a figure with its reason, never the end of the run
        status, error = AnswerStatus.FAILED.value, f"{type(exc).__name__}: {exc}"
    returned = time.perf_counter()
    total = returned - started
    if timer is not None:
        timer.cancel()
        timer.join()
    latency = returned - cancelled_at[0] if cancelled_at and status == AnswerStatus.CANCELLED.value else None
    timings = answer.timings if answer is not None else {}
    stages = {name: float(timings.get(name, 0.0)) for name in ("qud", "retrieve", "extract")}
    used = (model.usage - before) if before is not None else None
    return QuestionFigures(
        id=q.id, dataset=q.dataset, question=q.question, status=status, qud_calls=trace.calls,
        qud_rejected=trace.rejected, **stages, other=max(0.0, total - sum(stages.values())), total=total,
        peak_rss_mb=peak_rss_mb(), error=error, cancel_latency=latency,
        model_calls=used.calls if used else 0, prompt_tokens=used.prompt_tokens if used else 0, evaluated_tokens=used.evaluated_tokens if used else 0,
        generated_tokens=used.generated_tokens if used else 0,
        prefill_seconds=used.prefill_seconds if used else 0.0, generate_seconds=used.generate_seconds if used else 0.0,
        steps_reused=int(timings.get("steps_reused", 0)),
    ), answer


def _load_average() -> list[float] | None:
    try:
        return [round(v, 2) for v in os.getloadavg()]
    except (AttributeError, OSError):  # Windows
        return None


# --- the report --------------------------------------------------------------------------------------------

HEADER = (f"{'id':<22} {'calls':>5} {'rej':>3} {'qud':>7} {'retr':>7} {'extr':>7} {'other':>7} {'total':>7} "
          f"{'rss MB':>7} {'hit':>4}  status / question")


def format_row(q: QuestionFigures) -> str:
    hit = "-" if q.hit is None else f"{q.hit:.0f}"
    return (f"{q.id[:22]:<22} {q.qud_calls:>5} {q.qud_rejected:>3} {q.qud:>7.2f} {q.retrieve:>7.2f} {q.extract:>7.2f} "
            f"{q.other:>7.2f} {q.total:>7.2f} {q.peak_rss_mb:>7.0f} {hit:>4}  {q.status}: {q.question}")


def format_summary(report: BenchRun) -> str:
    s = report.summary()
    lines = [f"{'':<22} {'calls':>5} {'rej':>3} {'qud':>7} {'retr':>7} {'extr':>7} {'other':>7} {'total':>7}"]
    for what in ("sum", "median", "p95"):
        lines.append(f"{what:<22} {s['qud_calls'][what]:>5g} {s['qud_rejected'][what]:>3g} "
                     + " ".join(f"{s[name][what]:>7.2f}" for name in STAGES))
    tokens = {name: s[name]["sum"] for name in ("prompt_tokens", "evaluated_tokens", "generated_tokens")}
    calls = s["model_calls"]["sum"] or 1
    lines += [
        "",
        f"questions {s['questions']}; statuses {s['statuses']}; Hit@1 "
        + ("-" if s["hit_at_1"] is None else f"{s['hit_at_1']:.3f}"),
        f"QUD: {s['qud_calls']['sum']} steps, {s['model_calls']['sum']} model calls (the rest replayed); per model "
        f"call {tokens['prompt_tokens'] / calls:.0f} prompt tokens ({tokens['evaluated_tokens'] / calls:.0f} "
        f"evaluated), {tokens['generated_tokens'] / calls:.1f} generated; prompt evaluation "
        f"{s['prefill_seconds']['sum']:.2f} s, generation {s['generate_seconds']['sum']:.2f} s in all",
        f"peak RSS {s['peak_rss_mb']:.0f} MB; question model load {report.load_seconds:.2f} s; index sync "
        + ", ".join(f"{k} {v:.1f} s" for k, v in report.index_seconds.items()),
        *([f"cancelled {s['cancel_latency']['cancelled']} questions {report.settings.get('cancel_after')} s in: "
           f"returned {s['cancel_latency']['median']:.3f} s after the cancel (median), {s['cancel_latency']['max']:.3f} s "
           f"at most"] if s["cancel_latency"] else []),
        f"load average before {report.settings.get('load_average_before')}, after "
        f"{report.settings.get('load_average_after')}; QUD threads {report.settings.get('threads') or 'following the load'}",
    ]
    return "\n".join(lines)


# --- the command -------------------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--questions", default="dev", metavar="dev|wild|FILE",
                        help="the question list (default: dev)")
    parser.add_argument("--limit", type=int, metavar="N", help="only the first N questions")
    parser.add_argument("--threads", type=int, metavar="N",
                        help="question model threads (sets $LIFELENS_QUD_THREADS; default: all cores)")
    parser.add_argument("--operators", choices=("small", "default", "lexical"),
                        help="RETRIEVE/EXTRACT models (default: $LIFELENS_OPERATOR_MODELS or 'small')")
    parser.add_argument("--qud-model", default="default", help="a GGUF file, 'base', or 'default' (the window's)")
    parser.add_argument("--store", type=Path, help="ask every question over this event store")
    parser.add_argument("--cache", type=Path, help="where bench stores are kept (default ~/.cache/lifelens-bench)")
    parser.add_argument("--json", type=Path, metavar="OUT", help="write every figure here as JSON")
    parser.add_argument("--cancel-after", type=float, metavar="S",
                        help="cancel each question S seconds after it starts and report how soon it returns")
    args = parser.parse_args(argv)
    if args.threads is not None:
        if args.threads < 1:
            parser.error("--threads must be at least 1")
        from models.llm import THREADS_ENV

        os.environ[THREADS_ENV] = str(args.threads)  # read when the model is made, below
    questions = load_questions(args.questions, limit=args.limit)
    if not questions:
        parser.error(f"no questions in {args.questions}")
    note = lambda text: print(text, file=sys.stderr, flush=True)  # noqa: E731

    def store_for(dataset: str) -> Path:
        return args.store if args.store is not None else prepare_store(dataset, cache=args.cache, say=note)

    settings = {"questions": args.questions, "limit": args.limit, "threads": args.threads,
                "store": str(args.store) if args.store else None, "cpu_count": os.cpu_count(),
                "cancel_after": args.cancel_after}
    print(HEADER, flush=True)
    report = run(questions, store_for, qud_model=args.qud_model, operators=args.operators, settings=settings,
                 cancel_after=args.cancel_after, say=lambda line: print(line, flush=True))
    print()
    print(format_summary(report))
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report.to_json(), indent=1, default=str), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
