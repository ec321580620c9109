"""Pattern mining over a RETRIEVE candidate pool (ReQAP Section 3.2.1, step 2).

A pattern is a set of pool events that share something: every source present in the pool gets one
(`source="mail"`), and every key/value pair that occurs in at least `min_count` events of one source, and in at
least `min_share` of that source's pool events, gets one (`artist="Daft Punk"`, `workout_type="soccer"`).
The pattern cross-encoder then judges whole patterns at once instead of each event.

    patterns = mine_patterns(pool_events, min_count=5)
    patterns[0]   # Pattern(source='music_stream', key=None, value=None, event_ids=(...), examples=(...))

Only short scalar values are mined (strings up to 60 characters, ints, bools): bodies, numbers that are
measurements (durations, prices) and ids do not make patterns.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from app.retrieve.verbalize import SKIP_KEYS, verbalize_pattern
from app.sources import SOURCES

# Keys whose values are measurements or free text (each source spec's measure keys), and those left out of
# the texts: never a pattern.
NOT_PATTERN_KEYS = (SKIP_KEYS | frozenset({"text"})
                    | frozenset().union(*(spec.measure_keys for spec in SOURCES.values())))
MAX_VALUE_CHARS = 60


@dataclass(frozen=True)
class Pattern:
    """A set of pool events sharing a source (key None) or a source plus one key/value pair."""

    source: str
    key: str | None
    value: Any
    event_ids: tuple[str, ...]
    examples: tuple[str, ...] = ()

    @property
    def is_source(self) -> bool:
        return self.key is None

    def text(self) -> str:
        return verbalize_pattern(self.source, self.key, self.value, list(self.examples))

    def __len__(self) -> int:
        return len(self.event_ids)


def _patternable(key: str, value: Any) -> bool:
    if key in NOT_PATTERN_KEYS or key.endswith("_id"):
        return False
    if isinstance(value, bool):
        return True
    if isinstance(value, int):
        return key in ("season", "year")
    return isinstance(value, str) and 0 < len(value) <= MAX_VALUE_CHARS


def mine_patterns(events: Sequence[Any], *, examples: int = 2, **mining: Any) -> list[Pattern]:
    """Source patterns first (largest source first), then each source's frequent key/value patterns
    (`value_patterns`, which `mining` is passed to: min_count, min_share, max_per_source).

    `events` are StoredEvents (anything with id, source, title, data).
    """
    return source_patterns(events, examples=examples) + value_patterns(events, examples=examples, **mining)


def source_patterns(events: Sequence[Any], *, examples: int = 2) -> list[Pattern]:
    """One pattern per source, the largest source first: `events` need only id, source and title (an
    `EventHead` will do), so a pool can be judged by source before its events are read."""
    return [Pattern(source, None, None, tuple(e.id for e in members), _examples(members, examples))
            for source, members in _by_source(events)]


def value_patterns(
    events: Sequence[Any],
    *,
    min_count: int = 5,
    min_share: float = 0.02,
    max_per_source: int = 40,
    examples: int = 2,
) -> list[Pattern]:
    """Each source's frequent key/value patterns, sources in the order of `source_patterns`: at most
    `max_per_source` per source, the most frequent first; a pattern that covers the whole source adds nothing and
    is left out."""
    patterns: list[Pattern] = []
    for source, members in _by_source(events):
        # members per key/value in one pass (a pool holds up to 40,000 songs: no rescan per pattern)
        holders: dict[tuple[str, Any], list[Any]] = defaultdict(list)
        for event in members:
            for key, value in event.data.items():
                if _patternable(key, value):
                    holders[(key, value)].append(event)
        floor = max(min_count, int(min_share * len(members) + 0.999))
        frequent = [(kv, len(held)) for kv, held in holders.items() if floor <= len(held) < len(members)]
        frequent.sort(key=lambda item: (-item[1], item[0][0], str(item[0][1])))
        for (key, value), _ in frequent[:max_per_source]:
            chosen = holders[(key, value)]
            patterns.append(Pattern(source, key, value, tuple(e.id for e in chosen), _examples(chosen, examples)))
    return patterns


def _by_source(events: Sequence[Any]) -> list[tuple[str, list[Any]]]:
    """The events per source in their order, the largest source first."""
    by_source: dict[str, list[Any]] = defaultdict(list)
    for event in events:
        by_source[event.source].append(event)
    return sorted(by_source.items(), key=lambda kv: (-len(kv[1]), kv[0]))


def _examples(events: Sequence[Any], count: int) -> tuple[str, ...]:
    seen: list[str] = []
    for event in events:
        title = " ".join(str(event.title).split())
        if title and title not in seen:
            seen.append(title)
            if len(seen) == count:
                break
    return tuple(seen)


def pattern_labels(patterns: Iterable[Pattern], gold: set[str], *, tolerance: float = 0.0) -> list[str]:
    """Training labels: 'relevant' when all members are gold, 'irrelevant' when none is, else 'partly'.

    `tolerance` lets a pattern with a few stray members still count as all or nothing.
    """
    labels = []
    for pattern in patterns:
        share = sum(1 for i in pattern.event_ids if i in gold) / max(1, len(pattern))
        if share >= 1.0 - tolerance:
            labels.append("relevant")
        elif share <= tolerance:
            labels.append("irrelevant")
        else:
            labels.append("partly")
    return labels
