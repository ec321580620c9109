"""`lifelens bench --stage extract`: EXTRACT accuracy on a split's labelled (event, key, value) cases.

The cases are those of the extractor's training recipe (`bench.extract_eval.extract_cases`: per canonical
kind of the persona's life, up to `per_kind` events, each store observation asked every known key and one
key it lacks), built on the bench's own persona stores. The extractor is the one the app runs for the chosen
operator size, told the person's people as the store knows them (`app.extract.people_of`). Cases are
classified with the label sets of the default extractor artifact, so every size is scored on the same cases:

- existing: the gold value is written in the event (a person may be named by first name);
- inferred: a closed-set value the text does not contain ("italian" from "pizza oven"), or people the event
            names only through the appended people list ("Call Mum & Dad" -> the parents' full names);
- none:     the event has no value for the key (the extractor must say nothing).

    report = run_extract_stage("dev", operators="small")
    print(extract_markdown(report))
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

PER_KIND = 25   # the recipe's dev setting


@dataclass
class BenchPersona:
    """What `extract_cases` reads: the persona's store, canonical timeline, id mapper and people."""

    persona_id: str
    store: Any
    timeline: Any
    mapper: Any
    people: list[str]


@dataclass
class ExtractStageReport:
    split: str
    operators: str
    personas: list[str] = field(default_factory=list)
    cases: int = 0
    figures: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0   # wall time of the whole stage, cases included

    def to_json(self) -> dict[str, Any]:
        return {"stage": "extract", "split": self.split, "operators": self.operators, "personas": self.personas,
                "cases": self.cases, "seconds": round(self.seconds, 1), **self.figures}


def key_labels_for_scoring() -> dict[str, list[str]]:
    """The closed label sets of the default extractor artifact (the same classification for every size)."""
    from models.extractor import SIZES
    from models.runtime import artifact_dir

    config = json.loads((artifact_dir(SIZES["default"]) / "config.json").read_text())
    return config["key_labels"]


def score_store(extractor: Any, persona: BenchPersona, key_labels: dict[str, list[str]], *,
                per_kind: int = PER_KIND) -> tuple[int, dict[str, Any]]:
    """(cases, figures) of one persona's store."""
    from bench.extract_eval import extract_cases, score_extractor

    cases = extract_cases(persona, per_kind=per_kind)
    return len(cases), score_extractor(extractor, cases, key_labels, use_case_people=False)


def merge_figures(parts: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Micro-average several personas' figures (accuracies weighted by their case counts)."""
    out: dict[str, Any] = {}
    for kind in ("existing", "inferred", "none"):
        n = sum(p[kind]["n"] for p in parts)
        right = sum((p[kind]["accuracy"] or 0.0) * p[kind]["n"] for p in parts)
        out[kind] = {"accuracy": round(right / n, 4) if n else None, "n": n}
    events = sum(p["events"] for p in parts)
    seconds = sum(p["seconds"] for p in parts)
    out["events"] = events
    out["seconds"] = round(seconds, 3)
    out["seconds_per_1000_events"] = round(1000 * seconds / events, 3) if events else None
    out["per_persona"] = parts
    return out


def run_extract_stage(
    split: str,
    *,
    operators: str | None = None,
    personas: list[str] | None = None,
    cache: Path | None = None,
    per_kind: int = PER_KIND,
    say: Callable[[str], None] = lambda text: None,
) -> ExtractStageReport:
    from app.extract import make_extractor
    from app.people import owner_and_people, people_book
    from app.persona.generate import timeline_for
    from app.persona.splits import PERSONAS
    from app.persona.storeids import StoreIdMapper
    from app.persona.stores import persona_store
    from app.retrieve import operator_size

    started = time.perf_counter()
    size = operator_size(operators)
    report = ExtractStageReport(split=split, operators=size)
    key_labels = key_labels_for_scoring()
    parts = []
    for persona_id in personas or PERSONAS[split]:
        say(f"{persona_id}: preparing the event store")
        store = persona_store(persona_id, cache=cache, say=say)
        try:
            timeline = timeline_for(persona_id)
            from bench.extract_eval import persona_people

            persona = BenchPersona(persona_id, store, timeline, StoreIdMapper(store, timeline), persona_people(timeline))
            owner, people = owner_and_people(store) if size != "lexical" else (None, [])
            extractor = make_extractor(size, people=people, owner=owner, relations=people_book(store))
            try:
                say(f"{persona_id}: scoring EXTRACT ({size})")
                n, figures = score_store(extractor, persona, key_labels, per_kind=per_kind)
            finally:
                if hasattr(extractor, "close"):
                    extractor.close()
        finally:
            store.close()
        report.personas.append(persona_id)
        report.cases += n
        parts.append({"persona": persona_id, "cases": n, **figures})
        say(f"{persona_id}: {n} cases, existing {figures['existing']}, inferred {figures['inferred']}, "
            f"none {figures['none']}, {figures['seconds_per_1000_events']} s per 1,000 events")
    report.figures = merge_figures(parts)
    report.seconds = time.perf_counter() - started
    return report


def extract_markdown(report: ExtractStageReport) -> str:
    f = report.figures
    lines = [
        f"### Lifelens bench: EXTRACT stage, split `{report.split}`, operators `{report.operators}`, "
        f"personas {', '.join(report.personas)}, {report.cases} cases",
        "",
        "| keys | cases scored | accuracy |",
        "| --- | ---: | ---: |",
    ]
    labels = {"existing": "existing in the event",
              "inferred": "inferred (not in the text: a closed-set label, or a person named only in the people list)",
              "none": "absent (must answer nothing)"}
    for kind, label in labels.items():
        acc = f[kind]["accuracy"]
        lines.append(f"| {label} | {f[kind]['n']} | {'-' if acc is None else f'{acc:.3f}'} |")
    per_1000 = f.get("seconds_per_1000_events")
    lines += ["", f"EXTRACT time per 1,000 events: {'-' if per_1000 is None else f'{per_1000:.3f}'} s "
              f"({f['events']} events in {f['seconds']:.1f} s; cases grouped by key and source, one extract call each).",
              "", "| key | " + " | ".join(p["persona"] for p in f["per_persona"]) + " |",
              "| --- |" + " ---: |" * len(f["per_persona"])]
    keys = sorted({k for p in f["per_persona"] for k in p["per_key"]})
    for key in keys:
        lines.append(f"| {key} | " + " | ".join(str(p["per_key"].get(key, "-")) for p in f["per_persona"]) + " |")
    return "\n".join(lines) + "\n"
