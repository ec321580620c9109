"""RETRIEVE and EXTRACT: the two operators that touch the data, behind the Retriever/Extractor protocols."""

from __future__ import annotations

from typing import Any

from app.engine.operators import OpContext, OperatorError, items_of, operator
from app.engine.values import Item


@operator("RETRIEVE")
def retrieve(ctx: OpContext, args: dict[str, Any]) -> tuple:
    """All events matching `query`, as the retriever finds them (baseline: `app.engine.retrieve`)."""
    if ctx.store is None:
        raise OperatorError("RETRIEVE needs an event store")
    ctx.check_cancel()
    items = ctx.retriever.retrieve(args["query"], ctx.store, ctx.reference_date)
    for problem in getattr(ctx.retriever, "last_problems", None) or ():
        ctx.warn(f"RETRIEVE: {problem}")
    if any(not isinstance(i, Item) for i in items):
        raise OperatorError("the retriever returned something other than events")
    return tuple(items)


@operator("EXTRACT")
def extract(ctx: OpContext, args: dict[str, Any]) -> tuple:
    """Each event with the values of `attr_names` added, converted by `attr_types`.

    Events are never dropped: an attribute that cannot be found or converted is None on that event, and
    the warnings say for how many events, per attribute. The input events are not changed.
    """
    rows = items_of(args["l"], "EXTRACT")
    names = tuple(args["attr_names"])
    types = args.get("attr_types")
    ctx.check_cancel()
    out = ctx.extractor.extract(rows, names, types)
    if len(out) != len(rows):
        raise OperatorError(f"the extractor returned {len(out)} items for {len(rows)} events")
    for name in names:
        missing = sum(1 for item in out if item.attrs.get(name) is None)
        if missing and rows:
            reasons = getattr(ctx.extractor, "last_reasons", None) or {}
            reason = reasons.get(name, "")
            ctx.warn(
                f"EXTRACT: no value for {name!r} in {missing} of {len(rows)} events"
                + (f" ({reason})" if reason else "")
                + "; they keep the value None"
            )
    return tuple(out)
