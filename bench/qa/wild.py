"""`lifelens bench --set wild`: questions written without the question templates, over data of two kinds.

The `wild` set (bench/wild/, see its README) measures how much the product fits its own benchmark: its questions
were written in plain words by writers who never read the templates, the QUD examples or the training trees; their
gold answers were computed by separate scripts that read the export files, never through project code. Half are
asked over the dev personas (p13, p14: the bench's cached stores), half over datasets of another shape made by
`bench/wild/other_shape.py` (diary-like mails, terse calendars without attendees, exports without optional fields),
which are generated and imported once into cached stores here. Nothing trains on it.

    report = run_wild(mode="qud", say=print)
    print(wild_markdown(report))
"""

from __future__ import annotations

import hashlib
import json
import resource
import shutil
import subprocess
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from app.answer import AnswerStatus
from bench.qa.metrics import hit_at_1, relaxed_hit_at_1
from bench.qa.runner import answer_question, scored_value, store_models, tree_outline

WILD_DIR = Path(__file__).resolve().parents[1] / "wild"
# later sets by other writers on the test personas and the other-shape data (bench/wild2/ .. bench/wild7/), each
# written after the rules the one before it checked, to check those that came after
WILD2_DIR = Path(__file__).resolve().parents[1] / "wild2"
WILD3_DIR = Path(__file__).resolve().parents[1] / "wild3"
WILD4_DIR = Path(__file__).resolve().parents[1] / "wild4"
WILD5_DIR = Path(__file__).resolve().parents[1] / "wild5"
WILD6_DIR = Path(__file__).resolve().parents[1] / "wild6"   # trips and their bookings
WILD7_DIR = Path(__file__).resolve().parents[1] / "wild7"   # series, films, podcasts and music
SETS = {"wild": WILD_DIR, "wild2": WILD2_DIR, "wild3": WILD3_DIR, "wild4": WILD4_DIR, "wild5": WILD5_DIR,
        "wild6": WILD6_DIR, "wild7": WILD7_DIR}
QUESTION_FILES = ("questions_personas.jsonl", "questions_other.jsonl")
GENERATOR = "other_shape.py"
WILD_MODES = ("qud", "one-shot", "rag", "codegen")


def load_questions(folder: Path = WILD_DIR) -> list[dict]:
    """Every question of the set in `folder`, in file order (wild's two files, or each writer's
    questions_*.jsonl). Raises FileNotFoundError when the set is not in this checkout."""
    records: list[dict] = []
    paths = [folder / name for name in QUESTION_FILES if (folder / name).exists()]
    for path in paths or sorted(folder.glob("questions_*.jsonl")):
        with path.open(encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                if line.strip():
                    try:
                        records.append(json.loads(line))
                    except json.JSONDecodeError as exc:
                        raise ValueError(f"{path}, line {number}: {exc}") from None
    if not records:
        raise FileNotFoundError(f"no questions in {folder} (the set lives in a source checkout: bench/)")
    return records


@dataclass
class WildResult:
    id: str
    dataset: str
    kind: str
    classes: list[str]
    question: str
    gold: Any
    predicted: Any
    status: str
    hit: float
    relaxed: float
    seconds: float
    qud_seconds: float | None
    error: str | None
    tree: dict | None = None  # the executed tree without previews and ids: question, step, size, error, children
    rules: list[str] = field(default_factory=list)  # the QUD rules that acted (app.qud.decompose.Trace.acted)


@dataclass
class WildReport:
    mode: str
    operators: str | None
    name: str = "wild"
    results: list[WildResult] = field(default_factory=list)
    peak_rss_mb: float = 0.0

    def summary(self) -> dict[str, Any]:
        rs = self.results

        def figures(group: list[WildResult]) -> dict[str, Any]:
            return {"questions": len(group), "hit_at_1": _mean(r.hit for r in group),
                    "relaxed_hit_at_1": _mean(r.relaxed for r in group)}

        by: dict[str, dict[str, list[WildResult]]] = {"half": defaultdict(list), "dataset": defaultdict(list),
                                                       "kind": defaultdict(list), "class": defaultdict(list)}
        for r in rs:
            by["half"]["personas" if r.dataset.startswith("p") else "other shape"].append(r)
            by["dataset"][r.dataset].append(r)
            by["kind"][r.kind].append(r)
            for c in r.classes:
                by["class"][c].append(r)
        qud = sorted(r.qud_seconds for r in rs if r.qud_seconds is not None)
        times = sorted(r.seconds for r in rs)
        return {
            "set": self.name, "mode": self.mode, "operators": self.operators, **figures(rs),
            "answers_given": _mean(float(AnswerStatus(r.status).ran) for r in rs),
            "trees_execute": _mean(float(AnswerStatus(r.status).ran) for r in rs),
            "statuses": dict(sorted(_count(r.status for r in rs).items())),
            "per": {name: {k: figures(v) for k, v in sorted(groups.items())} for name, groups in by.items()},
            "seconds_median": _percentile(times, 0.5), "seconds_p95": _percentile(times, 0.95),
            "qud_seconds_median": _percentile(qud, 0.5), "qud_seconds_p95": _percentile(qud, 0.95),
            "peak_rss_mb": round(self.peak_rss_mb),
        }

    def to_json(self) -> dict[str, Any]:
        return {"summary": self.summary(), "questions": [r.__dict__ for r in self.results]}


def _mean(values) -> float:
    values = list(values)
    return round(sum(values) / len(values), 4) if values else 0.0


def _count(values) -> dict[str, int]:
    counts: dict[str, int] = defaultdict(int)
    for v in values:
        counts[v] += 1
    return counts


def _percentile(sorted_values: list[float], q: float) -> float | None:
    if not sorted_values:
        return None
    return sorted_values[min(len(sorted_values) - 1, max(0, round(q * (len(sorted_values) - 1))))]


# --- the stores -----------------------------------------------------------------------------------------------


def wild_store(dataset: str, *, cache: Path | None = None, say: Callable[[str], None] = lambda text: None):
    """The event store a wild dataset's questions are asked over: a dev persona's cached bench store, or an
    other-shape dataset generated by bench/wild/other_shape.py and imported once (rebuilt when the generator
    changes)."""
    from app.persona.stores import default_cache, persona_store
    from app.store import EventStore

    cache = cache or default_cache()
    if dataset.startswith("p"):
        return persona_store(dataset, cache=cache, say=say)
    generator = WILD_DIR / GENERATOR   # every set's other-shape datasets come from the one generator
    stamp = hashlib.sha256(generator.read_bytes()).hexdigest()[:16]
    home = cache / "wild" / dataset
    path = home / "events.sqlite"
    if path.exists():
        with EventStore.open(path, read_only=True) as store:
            if store.meta("wild_stamp") == stamp and store.count() > 0:
                return EventStore.open(path)
    _build_other(dataset, home, generator, stamp, say)
    return EventStore.open(path)


def _build_other(dataset: str, home: Path, generator: Path, stamp: str, say: Callable[[str], None]) -> None:
    from app.importing import import_paths
    from app.store import EventStore

    exports = home / "exports"
    shutil.rmtree(exports, ignore_errors=True)
    exports.mkdir(parents=True)
    say(f"{dataset}: writing the other-shape exports")
    # the generator is lab code of its own, run as a program so that nothing of it enters the product
    subprocess.run([sys.executable, str(generator), "--out", str(exports)], check=True, stdout=subprocess.DEVNULL)
    data = exports / dataset
    manifest = json.loads((data / "manifest.json").read_text(encoding="utf-8"))
    building = home / "events.sqlite.building"
    for leftover in (building, Path(f"{building}-wal"), Path(f"{building}-shm")):
        leftover.unlink(missing_ok=True)
    say(f"{dataset}: importing")
    with EventStore.open(building) as store:
        inputs = [p for p in sorted(data.iterdir()) if p.name != "manifest.json"]
        import_paths(store, inputs, home_zone=manifest.get("time_zone"))
        store.set_meta("reference_date", manifest["reference_date"])
        store.set_meta("wild_stamp", stamp)
    path = home / "events.sqlite"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    shutil.move(str(building), str(path))


# --- the run --------------------------------------------------------------------------------------------------


def run_wild(*, mode: str = "qud", operators: str | None = None, llm: Any = None, limit: int | None = None,
             datasets: list[str] | None = None, every: int = 1, cache: Path | None = None, folder: Path = WILD_DIR,
             ids: set[str] | None = None, say: Callable[[str], None] = lambda text: None) -> WildReport:
    """Answer the wild questions (all, or `datasets`, every `every`-th of them, at most `limit`, only `ids`) and
    score them as the bench does."""
    from app.qud.decompose import Trace
    from app.retrieve import operator_size

    if mode not in WILD_MODES:
        raise ValueError(f"unknown mode {mode!r} for the wild set (it has no gold trees); one of {WILD_MODES}")
    if llm is None:
        from app.qud.pipeline import default_llm

        llm = default_llm()
    records = [r for r in load_questions(folder) if datasets is None or r["dataset"] in datasets][::every]
    records = records[:limit] if limit is not None else records
    records = [r for r in records if ids is None or r["id"] in ids]
    size = operator_size(operators) if mode in ("qud", "one-shot") else None
    report = WildReport(mode=mode, operators=size, name=next((n for n, f in SETS.items() if f == folder), folder.name))
    by_dataset: dict[str, list[dict]] = defaultdict(list)
    for record in records:
        by_dataset[record["dataset"]].append(record)
    for dataset, group in by_dataset.items():
        store = wild_store(dataset, cache=cache, say=say)
        with store_models(store, mode, size, label=dataset, say=say) as models:
            for record in group:
                started = time.perf_counter()
                trace = Trace()
                try:
                    answer, qud_seconds = answer_question(
                        record, store, mode, llm, retriever=models.retriever, extractor=models.extractor,
                        sandbox=models.sandbox, trace=trace)
                    status, error = answer.status.value, answer.error
                except Exception as exc:  # a crash is a miss with its reason, never the end of the run
                    answer, qud_seconds = None, None
                    status, error = AnswerStatus.FAILED.value, f"{type(exc).__name__}: {exc}"
                seconds = time.perf_counter() - started
                predicted = scored_value(answer)
                result = WildResult(
                    id=record["id"], dataset=dataset, kind=record.get("kind", "other"),
                    classes=list(record.get("classes", ())), question=record["question"], gold=record["answers"][0],
                    predicted=json.loads(json.dumps(predicted, default=str)), status=status,
                    hit=hit_at_1(predicted, record["answers"]), relaxed=relaxed_hit_at_1(predicted, record["answers"]),
                    seconds=round(seconds, 3), qud_seconds=round(qud_seconds, 3) if qud_seconds is not None else None,
                    error=error, tree=tree_outline(answer.tree if answer is not None else None),
                    rules=sorted(trace.acted),
                )
                report.results.append(result)
                say(f"  {'HIT ' if result.hit else 'miss'} {seconds:6.1f}s  {record['id']} {record['question']}  -> "
                    f"{result.predicted!r} (gold {result.gold!r})")
    report.peak_rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return report


def wild_markdown(report: WildReport) -> str:
    s = report.summary()
    lines = [
        f"### Lifelens bench: set `{s['set']}`, mode `{s['mode']}`" + (f", operators `{s['operators']}`" if s["operators"] else "")
        + f", {s['questions']} questions",
        "",
        f"Hit@1 {s['hit_at_1']:.3f}, Relaxed {s['relaxed_hit_at_1']:.3f}; trees that ran to the end "
        f"{s['trees_execute']:.3f}; statuses: " + ", ".join(f"{k} {v}" for k, v in s["statuses"].items()),
        "",
        "| by | group | questions | Hit@1 | Relaxed Hit@1 |",
        "| --- | --- | ---: | ---: | ---: |",
    ]
    for by, groups in s["per"].items():
        for name, v in groups.items():
            lines.append(f"| {by} | {name} | {v['questions']} | {v['hit_at_1']:.3f} | {v['relaxed_hit_at_1']:.3f} |")
    fmt = lambda v: "-" if v is None else f"{v:.2f}"  # noqa: E731
    lines += ["", f"Time per question median / p95: {fmt(s['seconds_median'])} / {fmt(s['seconds_p95'])} s; "
              f"QUD {fmt(s['qud_seconds_median'])} / {fmt(s['qud_seconds_p95'])} s; peak memory {s['peak_rss_mb']} MB."]
    return "\n".join(lines) + "\n"
