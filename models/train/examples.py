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
from dataclasses import dataclass, field
from typing import Any, Sequence

from app.retrieve.patterns import mine_patterns, pattern_labels
from app.retrieve.verbalize import verbalize_event
from bench.extract_eval import ExtractCase, classify_case, find_spans  # shared with the bench (no torch)
from models.train.nets import PATTERN_LABELS
from models.train.trainer import ExtractExample, PairExample


@dataclass
class RetrieveCase:
    query: str
    gold: set[str]                 # store event ids that the query must return
    pool: list[Any]                # StoredEvents of the SPLADE pool (what the pipeline will see)
    extra_gold: list[Any] = field(default_factory=list)  # gold events the pool missed (still teach the CE)


def cross_encoder_examples(
    cases: Sequence[RetrieveCase], *, events_per_case: int = 12, min_count: int = 3, max_patterns: int = 100,
    seed: int = 13, hard_share: float = 0.0, near_share: float = 0.0,
) -> list[PairExample]:
    """`near_share`: the share of each case's negative events that are the best-ranked non-gold events of its
    pool (the pool is in SPLADE order): the near misses the sparse retriever cannot tell apart, such as mails
    from another friend for "emails from Markus" or the song "Swimming Pools" for "I went swimming".
    `hard_share`: the share drawn from the sources that hold its gold events (the events the event
    cross-encoder really reads: a source with gold is judged `partly` and its events go on to it); the rest
    spread over all sources of the pool."""
    rng = random.Random(seed)
    examples: list[PairExample] = []
    for case in cases:
        patterns = mine_patterns(case.pool, min_count=min_count, max_per_source=max_patterns)
        for pattern, label in zip(patterns, pattern_labels(patterns, case.gold)):
            examples.append(PairExample(case.query, pattern.text(), "pattern", PATTERN_LABELS.index(label)))
        positives = [e for e in case.pool if e.id in case.gold] + list(case.extra_gold)
        negatives = [e for e in case.pool if e.id not in case.gold]
        near = negatives[: int(round(near_share * events_per_case))]
        near_ids = {e.id for e in near}
        gold_sources = {e.source for e in positives}
        hard = [e for e in negatives if e.source in gold_sources and e.id not in near_ids]
        n_hard = min(len(hard), int(round(hard_share * events_per_case)))
        hard_ids = {e.id for e in _per_source(hard, n_hard, rng)} if n_hard else set()
        rest = [e for e in negatives if e.id not in hard_ids and e.id not in near_ids]
        chosen = (rng.sample(positives, min(events_per_case, len(positives)))
                  + near
                  + [e for e in negatives if e.id in hard_ids]
                  + _per_source(rest, events_per_case - len(near) - len(hard_ids), rng))
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
            examples.append(ExtractExample(case.key, segment, 1, tuple(mention_spans(segment, case.value, case.people))))
        elif kind == "label":
            examples.append(ExtractExample(case.key, segment, 2, (), index[case.value.lower()]))
    return examples, counts


def mention_spans(segment: str, value: Any, people: Sequence[str]) -> list[tuple[int, int]]:
    """Where the model should point for `value`: like `find_spans`, but a person of the people list whose
    first name (unique among the people) is written in the event text is pointed at there ("Tobias" in
    "Tobias's birthday", not "Tobias Vogel" in the list): a mention is what a small encoder can tag, and the
    extractor maps it back to the full name (`models.extractor.resolve_people`).

    >>> s = "calendar | Tobias's birthday | people: Anna Berg, Tobias Vogel"
    >>> [s[a:b] for a, b in mention_spans(s, ["Tobias Vogel", "Anna Berg"], ["Anna Berg", "Tobias Vogel"])]
    ['Tobias', 'Anna Berg']
    """
    import re

    from app.retrieve.verbalize import format_value

    text_end = segment.find(" | people: ")
    firsts = [p.split(" ")[0] for p in people]
    spans: list[tuple[int, int]] = []
    for v in value if isinstance(value, (list, tuple)) else [value]:
        name = format_value(v).strip()
        first = name.split(" ")[0]
        if text_end >= 0 and name in people and firsts.count(first) == 1:
            found = re.search(r"(?<!\w)" + re.escape(first) + r"(?!\w)", segment[:text_end])
            if found and not re.search(r"(?<!\w)" + re.escape(name) + r"(?!\w)", segment[:text_end]):
                spans.append(found.span())
                continue
        spans.extend(find_spans(segment, v))
    return sorted(set(spans))


def cap_extractor_examples(
    examples: Sequence[ExtractExample], cap: int, *, none_ratio: float | None = None, seed: int = 13
) -> list[ExtractExample]:
    """At most `cap` examples per (key, source, mode), drawn at random, in a shuffled order; with `none_ratio`,
    at most that many `none` examples per span or label example (an absent key is asked of every event).

    Songs and purchases give hundreds of look-up-like examples per persona ("artist" of a music stream); the
    keys of meetings, parties and doctor visits give tens. Capping the big groups spends the training steps
    on the rare, hard ones. The source is the first field of the verbalized event ("music stream | ...").
    """
    rng = random.Random(seed)
    groups: dict[tuple[str, str, int], list[ExtractExample]] = {}
    for e in examples:
        groups.setdefault((e.key, e.segment.split(" | ", 1)[0], e.mode), []).append(e)
    chosen: list[ExtractExample] = []
    for members in groups.values():
        chosen.extend(rng.sample(members, min(cap, len(members))))
    if none_ratio is not None:
        nones = [e for e in chosen if e.mode == 0]
        chosen = [e for e in chosen if e.mode != 0]
        chosen += rng.sample(nones, min(len(nones), int(none_ratio * len(chosen))))
    rng.shuffle(chosen)
    return chosen
