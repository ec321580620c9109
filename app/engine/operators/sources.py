"""RETRIEVE and EXTRACT: the two operators that touch the data, behind the Retriever/Extractor protocols."""

from __future__ import annotations

import inspect
from functools import lru_cache
from typing import Any, Callable

from app.engine.operators import MissingAttribute, OpContext, OperatorError, items_of, operator
from app.engine.values import Item
from app.sources import carrier_sources

# Values of an attribute that some sources carry as data, found on fewer than this share of events of which fewer
# than this share are of those sources, are strays (a song called "Running" among runs, an artist named in a mail):
# the bulk of the events are the wrong ones for the attribute.
STRAY_SHARE = 0.05


@lru_cache(maxsize=64)
def _takes_check(method_type: type, name: str) -> bool:
    return "check" in inspect.signature(getattr(method_type, name)).parameters


def accepts_check(obj: Any, name: str) -> bool:
    """Whether `obj.name` (a retriever's retrieve, an extractor's extract) takes the engine's `check=`."""
    return _takes_check(type(obj), name)


@lru_cache(maxsize=64)
def _takes_count(method_type: type, name: str) -> bool:
    return "count" in inspect.signature(getattr(method_type, name)).parameters


def _with_check(obj: Any, name: str, ctx: OpContext) -> Callable[..., Any]:
    """`obj.name`, given the context's cancel/time check when it takes one (`check=`: called between chunks of
    work, it raises to stop), so that a model reading 30,000 events stops when the question is cancelled; and,
    beside it, the live count when it takes one (`count=`: OpContext.tell's arguments)."""
    method = getattr(obj, name)
    extra: dict[str, Any] = {}
    if accepts_check(obj, name):
        extra["check"] = ctx.check_cancel
    if ctx.count is not None and _takes_count(type(obj), name):
        extra["count"] = ctx.tell
    return (lambda *args: method(*args, **extra)) if extra else method


@operator("RETRIEVE")
def retrieve(ctx: OpContext, args: dict[str, Any]) -> tuple:
    """All events matching `query`, as the retriever finds them (baseline: `app.engine.retrieve`)."""
    if ctx.store is None:
        raise OperatorError("RETRIEVE needs an event store")
    ctx.check_cancel()
    items = _with_check(ctx.retriever, "retrieve", ctx)(args["query"], ctx.store, ctx.reference_date)
    for problem in getattr(ctx.retriever, "last_problems", None) or ():
        ctx.warn(f"RETRIEVE: {problem}")
    if any(not isinstance(i, Item) for i in items):
        raise OperatorError("the retriever returned something other than events")
    return tuple(items)


@operator("EXTRACT")
def extract(ctx: OpContext, args: dict[str, Any]) -> tuple:
    """Each event with the values of `attr_names` added, converted by `attr_types`.

    Events are never dropped: an attribute that cannot be found or converted is None on that event, and
    the warnings say for how many events, per attribute. The input events are not changed. An attribute
    found on none of the events fails the node (the artist of a workout: these are the wrong events for it),
    as a lambda that fails on every item does; an empty result would hide the mistake. So does an attribute of
    another source's data found only on strays (the artist of 2 of 552 runs: two songs called "Running").
    """
    rows = items_of(args["l"], "EXTRACT")
    names = tuple(args["attr_names"])
    types = args.get("attr_types")
    ctx.check_cancel()
    out = _with_check(ctx.extractor, "extract", ctx)(rows, names, types)
    if len(out) != len(rows):
        raise OperatorError(f"the extractor returned {len(out)} items for {len(rows)} events")
    for name in names:
        missing = sum(1 for item in out if item.attrs.get(name) is None)
        if rows and (missing == len(rows) or _stray(name, rows, len(rows) - missing)):
            lacking = tuple(sorted({str(item.attrs.get("source")) for item in out if item.attrs.get(name) is None}))
            raise MissingAttribute(name, lacking, len(rows), len(rows) - missing)
        if missing and rows:
            reasons = getattr(ctx.extractor, "last_reasons", None) or {}
            reason = reasons.get(name, "")
            ctx.warn(
                f"EXTRACT: no value for {name!r} in {missing} of {len(rows)} events"
                + (f" ({reason})" if reason else "")
                + "; they keep the value None"
            )
    return tuple(out)


def _stray(name: str, rows: tuple[Item, ...], found: int) -> bool:
    carriers = carrier_sources(name)
    if not carriers:
        return False
    carrying = sum(1 for item in rows if item.attrs.get("source") in carriers)
    return found < STRAY_SHARE * len(rows) and carrying < STRAY_SHARE * len(rows)
