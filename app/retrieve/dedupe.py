"""De-duplication of RETRIEVE results (ReQAP Section 3.2.1, step 5).

The same real-world event can reach the store from several sources: a calendar entry for a football match,
the workout recorded during it, the mail that confirmed it. Two events are *the same* when they come from
different sources and their time spans overlap (a point event overlaps a span that contains it). Sameness is
closed over chains (connected components, not pairs): if A overlaps B and B overlaps C, all three merge,
even when A and C do not overlap. A component holds at most one event per source: a source records a
real-world event once, so two of its events are two events, even when a third bridges them (the order mail
at the time of two items of one Amazon order; two songs played during one run).

A merged item keeps every key/value (where two events disagree on a key, the event that starts first keeps
it and the others' values stay reachable under `<source>.<key>`), the union of the time spans, and the ids of
all its events as provenance.

    groups = overlap_components(events)     # [[e1, e4], [e2], ...], each in start order
    items = [merge_events(g) for g in groups]
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Sequence

from app.engine.values import Item


def _span(event: Any) -> tuple[datetime, datetime]:
    start = event.start
    end = event.end if event.end is not None and event.end >= start else start
    return start, end


def same_event(a: Any, b: Any) -> bool:
    """Different sources and overlapping (or touching-by-containment) time spans."""
    if a.source == b.source:
        return False
    a_start, a_end = _span(a)
    b_start, b_end = _span(b)
    if a_start == a_end or b_start == b_end:  # a point event: inside the other's span, ends included
        return a_start <= b_end and b_start <= a_end
    return a_start < b_end and b_start < a_end


def overlap_components(events: Sequence[Any]) -> list[list[Any]]:
    """Connected components of `same_event`, found with a sweep over start times (n log n + overlaps).

    Components come back in order of their first event; members in start order.
    """
    order = sorted(range(len(events)), key=lambda i: (_span(events[i])[0], events[i].id))
    parent = list(range(len(events)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    sources = [{e.source} for e in events]   # per root: the sources its component holds
    active: list[int] = []  # events whose span may still overlap a later start
    for i in order:
        start, _ = _span(events[i])
        active = [j for j in active if _span(events[j])[1] >= start]
        for j in active:
            if same_event(events[i], events[j]):
                root_i, root_j = find(i), find(j)
                if root_i != root_j and not sources[root_i] & sources[root_j]:
                    keep, gone = min(root_i, root_j), max(root_i, root_j)
                    parent[gone] = keep
                    sources[keep] |= sources[gone]
        active.append(i)
    groups: dict[int, list[Any]] = {}
    for i in order:
        groups.setdefault(find(i), []).append(events[i])
    return sorted(groups.values(), key=lambda g: (_span(g[0])[0], g[0].id))


def merge_events(group: Sequence[Any]) -> Item:
    """One Item for a component: all key/values, the union of the spans, all ids."""
    if len(group) == 1:
        return Item.from_event(group[0])
    items = [Item.from_event(e) for e in group]
    attrs: dict[str, Any] = dict(items[0].attrs)
    for event, item in zip(group[1:], items[1:]):
        for key, value in item.attrs.items():
            if key in ("id", "start", "end"):
                continue
            if key not in attrs:
                attrs[key] = value
            elif attrs[key] != value:
                attrs.setdefault(f"{event.source}.{key}", value)
    attrs["start"] = min(_span(e)[0] for e in group)
    attrs["end"] = max(_span(e)[1] for e in group)
    attrs["sources"] = sorted({e.source for e in group})
    return Item(attrs, [e.id for e in group])


def dedupe_events(events: Sequence[Any]) -> list[Item]:
    return [merge_events(g) for g in overlap_components(events)]
