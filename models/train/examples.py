"""Training examples from labelled cases (the persona adapter makes the cases; see models/train/persona_data.py).

A `RetrieveCase` is one RETRIEVE call with its gold event ids; an `ExtractCase` is one event, one key and the
gold value. From them:

- `cross_encoder_examples`: every pattern of the case's SPLADE pool, labelled irrelevant/partly/relevant by
  its members' gold share, plus event examples: gold events (kept) and pool events that are not gold
  (dropped; hard negatives, sampled uniformly as in the paper);
- `extractor_examples`: span examples where the gold value is written in the verbalized event (character
  ranges found by a case-insensitive search), label examples for inferred values of closed-set keys, and
  `none` examples for keys an event cannot answer.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any, Sequence

from app.retrieve.patterns import mine_patterns, pattern_labels
from app.retrieve.verbalize import format_value, verbalize_event
from models.extractor import extractor_input
from models.train.nets import PATTERN_LABELS
from models.train.trainer import ExtractExample, PairExample


@dataclass
class RetrieveCase:
    query: str
    gold: set[str]                 # store event ids that the query must return
    pool: list[Any]                # StoredEvents of the SPLADE pool (what the pipeline will see)
    extra_gold: list[Any] = field(default_factory=list)  # gold events the pool missed (still teach the CE)


@dataclass
class ExtractCase:
    event: Any                     # a StoredEvent
    key: str
    value: Any                     # gold value (None: the event says nothing about the key)
    people: Sequence[str] = ()


def cross_encoder_examples(
    cases: Sequence[RetrieveCase], *, events_per_case: int = 12, min_count: int = 3, max_patterns: int = 100,
    seed: int = 13,
) -> list[PairExample]:
    rng = random.Random(seed)
    examples: list[PairExample] = []
    for case in cases:
        patterns = mine_patterns(case.pool, min_count=min_count, max_per_source=max_patterns)
        for pattern, label in zip(patterns, pattern_labels(patterns, case.gold)):
            examples.append(PairExample(case.query, pattern.text(), "pattern", PATTERN_LABELS.index(label)))
        positives = [e for e in case.pool if e.id in case.gold] + list(case.extra_gold)
        negatives = [e for e in case.pool if e.id not in case.gold]
        chosen = rng.sample(positives, min(events_per_case, len(positives))) + _per_source(negatives, events_per_case, rng)
        for event in chosen:
            label = 1 if event.id in case.gold else 0
            examples.append(PairExample(case.query, verbalize_event(event, with_time=True), "event", label))
    rng.shuffle(examples)
    return examples


def _per_source(events: Sequence[Any], count: int, rng: random.Random) -> list[Any]:
    """Up to `count` events spread over their sources (a pool of 40,000 songs and 30 mails gives both)."""
    by_source: dict[str, list[Any]] = {}
    for event in events:
        by_source.setdefault(event.source, []).append(event)
    for members in by_source.values():
        rng.shuffle(members)
    chosen: list[Any] = []
    while len(chosen) < count and any(by_source.values()):
        for members in by_source.values():
            if members and len(chosen) < count:
                chosen.append(members.pop())
    return chosen


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
    from app.extract.model_extractor import item_text
    from app.engine.values import Item

    segment = extractor_input(item_text(Item.from_event(case.event)), case.people)
    if case.value is None or case.value == [] or case.value == "":
        return segment, "none"
    labels = key_labels.get(case.key)
    if labels and isinstance(case.value, str) and case.value.lower() in labels:
        return segment, "label"  # a closed-set key is always answered by a label, written in the text or not
    if find_spans(segment, case.value):
        return segment, "span"
    return segment, "skip"


def extractor_examples(
    cases: Sequence[ExtractCase], labels: list[str], key_labels: dict[str, list[str]]
) -> tuple[list[ExtractExample], dict[str, int]]:
    """Examples and how many of each kind; cases no mode can answer are counted under 'skip'."""
    index = {name: i for i, name in enumerate(labels)}
    examples: list[ExtractExample] = []
    counts = {"span": 0, "label": 0, "none": 0, "skip": 0}
    for case in cases:
        segment, kind = classify_case(case, key_labels)
        counts[kind] += 1
        if kind == "none":
            examples.append(ExtractExample(case.key, segment, 0))
        elif kind == "span":
            examples.append(ExtractExample(case.key, segment, 1, tuple(find_spans(segment, case.value))))
        elif kind == "label":
            examples.append(ExtractExample(case.key, segment, 2, (), index[case.value.lower()]))
    return examples, counts
