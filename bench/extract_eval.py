"""Labelled EXTRACT cases from the persona generator and their scoring, shared by the training recipes
(`python -m models.train evaluate_extractor`) and the bench (`lifelens bench --stage extract`). No PyTorch.

A case is one store event, one key and the gold value taken from the canonical event the store event
observes (None: the event says nothing about the key). Each case is scored as one of:

- existing: the gold value is written in the verbalized event (a person may be named by first name);
- inferred: a closed-set value (cuisine, genre, ...) that the event's text does not contain ("italian" from
  "fired up the pizza oven"), or people named only in the people list appended to the event;
- none:     the event has no value for the key; the extractor must answer nothing.

    cases = extract_cases(persona, per_kind=25)          # persona: .store .timeline .mapper .persona_id .people
    figures = extract_accuracy(model, cases, key_labels)  # {"existing": {"accuracy": .., "n": ..}, ...}
"""

from __future__ import annotations

import random
import re
import time
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from app.retrieve.verbalize import format_value
from models.extractor import extractor_input

# Keys the extractor learns, and the keys among them answered by a closed set of labels.
EXTRACT_KEYS = ("participants", "cuisine", "place", "activity", "dish", "host", "workout_type", "artist", "track",
                "album", "genre", "product", "category", "doctor_type", "doctor", "series", "show", "person",
                "holiday", "place_type", "city")
LABEL_KEYS = ("cuisine", "activity", "genre", "category", "doctor_type", "workout_type", "holiday", "place_type")
KINDS = ("existing", "inferred", "none")


@dataclass
class ExtractCase:
    event: Any                     # a StoredEvent
    key: str
    value: Any                     # gold value (None: the event says nothing about the key)
    people: Sequence[str] = ()


def persona_people(timeline: Any) -> list[str]:
    """Full names of the persona's people (self, family, friends, colleagues, kids, partner)."""
    p = timeline.p
    people = [p.me, p.mother, p.father, *p.siblings, *p.friends, *p.colleagues, *p.kids]
    if getattr(p, "partner", None):
        people.append(p.partner)
    return [x.full_name for x in people if x is not None]


def find_spans(segment: str, value: Any) -> list[tuple[int, int]]:
    """Character ranges of the value in the segment (each list element separately), case-insensitive,
    on word boundaries; for a list, every element found; for a scalar, its first occurrence."""
    values = value if isinstance(value, (list, tuple)) else [value]
    spans: list[tuple[int, int]] = []
    for v in values:
        text = format_value(v).strip()
        if not text:
            continue
        match = re.search(r"(?<!\w)" + re.escape(text) + r"(?!\w)", segment, flags=re.IGNORECASE)
        if match:
            spans.append((match.start(), match.end()))
        elif not isinstance(value, (list, tuple)):
            return []
    return sorted(spans)


def classify_case(case: ExtractCase, key_labels: dict[str, list[str]]) -> tuple[str, str]:
    """(segment, kind) where kind is 'span', 'label', 'none', or 'skip' (a value no mode can produce)."""
    from app.engine.values import Item
    from app.extract.model_extractor import item_text

    segment = extractor_input(item_text(Item.from_event(case.event)), case.people)
    if case.value is None or case.value == [] or case.value == "":
        return segment, "none"
    labels = key_labels.get(case.key)
    if labels and isinstance(case.value, str) and case.value.lower() in labels:
        return segment, "label"  # a closed-set key is always answered by a label, written in the text or not
    if find_spans(segment, case.value):
        return segment, "span"
    return segment, "skip"


def scored_kind(case: ExtractCase, key_labels: dict[str, list[str]]) -> str:
    """existing / inferred / none for scoring, or 'skip' for a value no extractor mode can produce.

    Existing means written in the event itself: every value whole, or a person by their first name ("Tobias's
    birthday" for Tobias Vogel). A person found only in the people list appended to the event ("Call Mum &
    Dad" -> the parents' names) is inferred: the event does not contain it."""
    segment, kind = classify_case(case, key_labels)
    text = segment.split(" | people: ")[0]
    if kind == "label":
        return "existing" if find_spans(text, case.value) else "inferred"
    if kind == "span":
        return "existing" if written_in(text, case.value, case.people) else "inferred"
    return kind


def written_in(text: str, value: Any, people: Sequence[str] = ()) -> bool:
    """Every element of the value is in the text, whole or (one of the people) by their first name."""
    for v in value if isinstance(value, (list, tuple)) else [value]:
        name = format_value(v).strip()
        if not (find_spans(text, name) or (name in people and find_spans(text, name.split(" ")[0]))):
            return False
    return True


def label_sets(personas: Iterable[Any]) -> dict[str, list[str]]:
    """Closed label sets per key, lower-cased, from the canonical events of the given personas."""
    values: dict[str, set[str]] = {k: set() for k in LABEL_KEYS}
    for ps in personas:
        for event in ps.timeline.events:
            for key in LABEL_KEYS:
                v = event.attrs.get(key)
                if isinstance(v, str) and v:
                    values[key].add(v.lower())
    return {k: sorted(v) for k, v in values.items() if v}


def extract_cases(ps: Any, *, per_kind: int = 60, seed: int = 13) -> list[ExtractCase]:
    """Per canonical kind, up to `per_kind` events; every observation in the store, asked every known key
    of the canonical event, and one key it does not have (gold None). `ps` has .persona_id, .timeline,
    .mapper (StoreIdMapper), .store and .people."""
    rng = random.Random(f"{seed}-{ps.persona_id}-extract")
    people = ps.people
    by_kind: dict[str, list[Any]] = {}
    for event in ps.timeline.events:
        if event.obs:
            by_kind.setdefault(event.kind, []).append(event)
    cases: list[ExtractCase] = []
    for kind, events in sorted(by_kind.items()):
        for canon in rng.sample(events, min(per_kind, len(events))):
            ids = ps.mapper.store_ids([canon.id])
            if not ids:
                continue
            keys = [k for k in EXTRACT_KEYS if canon.attrs.get(k) not in (None, "", [])]
            absent = [k for k in EXTRACT_KEYS if k not in canon.attrs]
            for stored in ps.store.get(ids):
                for key in keys:
                    cases.append(ExtractCase(stored, key, canon.attrs[key], people))
                if absent:
                    cases.append(ExtractCase(stored, rng.choice(absent), None, people))
    return cases


def same_value(predicted: Any, gold: Any) -> bool:
    """The extractor's value equals the gold one (case-insensitive; lists as sets; None for no value)."""
    from app.engine.values import MISSING

    if gold is None:
        return predicted is None or predicted is MISSING
    if predicted is None or predicted is MISSING:
        return False

    def norm(v: Any) -> set[str]:
        items = v if isinstance(v, (list, tuple)) else [v]
        return {format_value(x).strip().lower().split(" <")[0] for x in items}

    return norm(predicted) == norm(gold)


def score_extractor(
    extractor: Any, cases: Sequence[ExtractCase], key_labels: dict[str, list[str]], *, use_case_people: bool = True
) -> dict[str, Any]:
    """Accuracy per kind of key, per key, and time per 1,000 events of any engine Extractor.

    Cases are grouped by (key, source) and each group goes through `extractor.extract(items, [key], None)` in
    one call, as an EXTRACT node reads one RETRIEVE's result. `use_case_people`: tell a model extractor the
    cases' people (the training recipe's setting); False keeps the extractor's own (the app's setting).
    The time counts only the extract calls."""
    from app.engine.values import Item

    tallies: dict[str, list[int]] = {k: [0, 0] for k in KINDS}
    per_key: dict[str, list[int]] = {}
    by_key: dict[tuple[str, str], list[ExtractCase]] = {}
    for case in cases:
        by_key.setdefault((case.key, case.event.source), []).append(case)
    seconds = 0.0
    events = 0
    for (key, _), group in sorted(by_key.items()):
        if use_case_people and hasattr(extractor, "people"):
            extractor.people = list(group[0].people)
        items = [Item.from_event(c.event) for c in group]
        clock = time.perf_counter()
        out = extractor.extract(items, [key], None)
        seconds += time.perf_counter() - clock
        events += len(items)
        for case, item in zip(group, out):
            kind = scored_kind(case, key_labels)
            if kind == "skip":
                continue
            ok = same_value(item.attrs.get(key), case.value)
            tallies[kind][0] += ok
            tallies[kind][1] += 1
            per_key.setdefault(key, [0, 0])
            per_key[key][0] += ok
            per_key[key][1] += 1
    return {
        **{k: {"accuracy": round(a / n, 4) if n else None, "n": n} for k, (a, n) in tallies.items()},
        "per_key": {k: round(a / n, 3) for k, (a, n) in sorted(per_key.items())},
        "events": events,
        "seconds": round(seconds, 3),
        "seconds_per_1000_events": round(1000 * seconds / events, 3) if events else None,
    }


def extract_accuracy(model: Any, cases: list, key_labels: dict[str, list[str]]) -> dict[str, Any]:
    """The training recipe's figures: the full EXTRACT (ModelExtractor: look-up shortcut, then `model`) per
    kind of key and per key, with the cases' people (no timing; see `score_extractor`)."""
    from app.extract.model_extractor import ModelExtractor

    figures = score_extractor(ModelExtractor(model=model), cases, key_labels)
    return {k: figures[k] for k in (*KINDS, "per_key")}
