"""De-duplication by connected components: if A is the same as B and B as C, all three merge.

Merging only pairs (as the reference implementation does) leaves A+B and C apart, or merges
differently depending on the order. Here sameness builds a graph and each connected component
becomes one item (union-find with path halving).

    merged = dedupe(items, same=lambda a, b: overlaps(a, b) and a.get("source") != b.get("source"))
    merged = dedupe(items, same, block=lambda i: i.get("start_date"))   # compare only within blocks

`block` (optional) limits comparisons to items with the same block key: n^2 within blocks instead
of over everything. A merged item holds every key (the earliest item's value wins where they
disagree), the union of the time spans (`start` = earliest, `end` = latest) and every id.
Items come back in order of their component's first member. Inputs are not changed.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Callable, Hashable, Sequence

from app.engine.values import Item, merge_ids


def components(items: Sequence[Any], same: Callable[[Any, Any], bool], block: Callable[[Any], Hashable] | None = None) -> list[list[int]]:
    """Index lists of the connected components of `same`, each sorted, in order of first member."""
    parent = list(range(len(items)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    blocks: dict[Hashable, list[int]] = {}
    if block is None:
        blocks[None] = list(range(len(items)))
    else:
        for i, item in enumerate(items):
            blocks.setdefault(block(item), []).append(i)
    for members in blocks.values():
        for x, i in enumerate(members):
            for j in members[x + 1 :]:
                if find(i) != find(j) and same(items[i], items[j]):
                    ri, rj = find(i), find(j)
                    parent[max(ri, rj)] = min(ri, rj)
    groups: dict[int, list[int]] = {}
    for i in range(len(items)):
        groups.setdefault(find(i), []).append(i)
    return sorted(groups.values(), key=lambda g: g[0])


def merge(group: Sequence[Item]) -> Item:
    """One item for a component (see the module docstring)."""
    if len(group) == 1:
        return group[0]
    ordered = sorted(group, key=lambda i: (_start(i) is None, _start(i) or 0.0, i.ids))
    attrs: dict[str, Any] = {}
    for item in ordered:
        for key, value in item.attrs.items():
            attrs.setdefault(key, value)
    starts = [i.attrs.get("start") for i in group if isinstance(i.attrs.get("start"), datetime)]
    ends = [i.attrs.get("end") or i.attrs.get("start") for i in group if isinstance(i.attrs.get("end") or i.attrs.get("start"), datetime)]
    if starts:
        attrs["start"] = min(starts)
    if ends:
        attrs["end"] = max(ends)
    return Item(attrs, merge_ids(*(i.ids for i in group)))


def _start(item: Item) -> float | None:
    start = item.attrs.get("start")
    return start.timestamp() if isinstance(start, datetime) else None


def dedupe(items: Sequence[Item], same: Callable[[Item, Item], bool], block: Callable[[Item], Hashable] | None = None) -> list[Item]:
    return [merge([items[i] for i in group]) for group in components(items, same, block)]
