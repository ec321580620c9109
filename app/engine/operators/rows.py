"""Operators over lists of rows: FILTER, MAP, APPLY, UNNEST, GROUP_BY, JOIN."""

from __future__ import annotations

from typing import Any

from app.engine import join as join_module
from app.engine.compare import EvalError
from app.engine.operators import Failures, OpContext, OperatorError, items_of, operator, rows_of
from app.engine.values import MISSING, Group, Item, Scalar, merge_ids

_CHECK_EVERY = 4096


@operator("FILTER")
def filter_rows(ctx: OpContext, args: dict[str, Any]) -> tuple:
    """The rows for which `filter` is true (Python truthiness).

    A row on which the lambda fails (missing attribute, bad comparison) is left out and counted in the
    node's warnings; if it fails on every row, the node fails instead of returning a silent empty list.
    """
    rows = rows_of(args["l"], "FILTER")
    test = args["filter"]
    failures = Failures("the filter", "which were left out")
    kept = []
    for n, row in enumerate(rows):
        if not n % _CHECK_EVERY:
            ctx.check_cancel()
            ctx.tell("filtering", n, len(rows), "items")
        try:
            if test(row):
                kept.append(row)
        except EvalError as exc:
            failures.add(row, exc)
    failures.report(ctx, len(rows))
    return tuple(kept)


@operator("MAP")
def map_rows(ctx: OpContext, args: dict[str, Any]) -> tuple:
    """Each row with the function's value stored under `res_name` (default "map_result").

    Rows are new objects; the input rows keep their attributes. A failure stores None for that row and
    is counted in the warnings (all rows failing fails the node).
    """
    rows = rows_of(args["l"], "MAP")
    fct = args["fct"]
    name = args.get("res_name") or "map_result"
    failures = Failures("the function", f"which got {name}=None")
    out = []
    for n, row in enumerate(rows):
        if not n % _CHECK_EVERY:
            ctx.check_cancel()
            ctx.tell("working through", n, len(rows), "items")
        try:
            value = fct(row)
        except EvalError as exc:
            failures.add(row, exc)
            value = None
        out.append(row.with_attrs({name: _plain(value, row)}))
    failures.report(ctx, len(rows))
    return tuple(out)


def _plain(value: Any, row: Any) -> Any:
    if isinstance(value, (Item, Group)):
        raise OperatorError("MAP must produce a value per row, not an event or group")
    return value


@operator("APPLY")
def apply_list(ctx: OpContext, args: dict[str, Any]) -> Any:
    """One value from the whole list: `fct=len` counts, `lambda l: ...` computes anything.

    The provenance is every row's ids. On an empty list the function still runs (len -> 0); if it fails
    there (max of nothing), the value is None with a warning, never an exception. A function that returns
    rows (a slice, a sorted list of events) gives rows. Over a single value (a count, a sum) the function gets
    that value, which keeps its ids and unit: `lambda l: l / 7` is a weekly rate.
    """
    if isinstance(args["l"], Scalar):
        single = args["l"]
        if single.value is None:
            return single
        try:
            return Scalar(args["fct"](single.value), single.ids, single.unit)
        except EvalError as exc:
            raise OperatorError(f"the function failed on the value {single.value!r}: {exc}") from None
    rows = rows_of(args["l"], "APPLY")
    try:
        value = args["fct"](rows)
    except EvalError as exc:
        if not rows:
            ctx.warn(f"APPLY on an empty list: {exc}; the value is None")
            return Scalar(None, ())
        raise OperatorError(f"the function failed: {exc}") from None
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, (Item, Group)) for v in value):
        return tuple(value)
    if isinstance(value, (Item, Group)):
        return (value,)
    return Scalar(value, merge_ids(*(r.ids for r in rows)))


@operator("UNNEST")
def unnest(ctx: OpContext, args: dict[str, Any]) -> tuple:
    """One row per element of the list in `nested_attr_name`, the element stored in `unnested_attr_name`.

    A single (non-list) value counts as a one-element list. A row whose list is empty, None or missing
    produces no row (as SQL's UNNEST); those rows are counted in the warnings.
    """
    rows = items_of(args["l"], "UNNEST")
    nested, unnested = args["nested_attr_name"], args["unnested_attr_name"]
    out = []
    empty = 0
    for row in rows:
        value = row.get(nested)
        if value is MISSING or value is None:
            empty += 1
            continue
        elements = value if isinstance(value, (list, tuple, set, frozenset)) else (value,)
        if not elements:
            empty += 1
        for element in elements:
            out.append(row.with_attrs({unnested: element}))
    if empty:
        if empty == len(rows):
            raise OperatorError(f"no item has values in {nested!r} to unnest ({empty} items)")
        ctx.warn(f"UNNEST: {empty} of {len(rows)} items have no values in {nested!r} and produce no rows")
    return tuple(out)


def group_key(value: Any) -> Any:
    """A hashable key that keeps the value's type: True and 1 are different groups, dates stay dates."""
    if isinstance(value, bool):
        return (bool, value)
    if isinstance(value, (list, tuple)):
        return (tuple, tuple(group_key(v) for v in value))
    if isinstance(value, (set, frozenset)):
        return (frozenset, frozenset(group_key(v) for v in value))
    if isinstance(value, dict):
        return (dict, tuple(sorted((k, group_key(v)) for k, v in value.items())))
    return value


@operator("GROUP_BY")
def group_by(ctx: OpContext, args: dict[str, Any]) -> tuple:
    """Groups of rows sharing the values of `attr_names` (hash-based, one pass, groups in order of first
    appearance). Keys keep their types: a date key stays a date, 2023 stays an int. Rows without a value
    for a key go to the group whose key is None, counted in the warnings.
    """
    rows = items_of(args["l"], "GROUP_BY")
    names = args["attr_names"]
    groups: dict[tuple, tuple[dict[str, Any], list[Item]]] = {}
    missing = {name: 0 for name in names}
    for n, row in enumerate(rows):
        if not n % _CHECK_EVERY:
            ctx.check_cancel()
            ctx.tell("grouping", n, len(rows), "items")
        values = []
        for name in names:
            v = row.get(name)
            if v is MISSING or v is None:
                missing[name] += 1
                v = None
            values.append(v)
        key = tuple(group_key(v) for v in values)
        entry = groups.get(key)
        if entry is None:
            groups[key] = ({name: v for name, v in zip(names, values)}, [row])
        else:
            entry[1].append(row)
    for name, count in missing.items():
        if count == len(rows) and rows:
            raise OperatorError(f"no item has a value for {name!r} to group by ({count} items); EXTRACT it first")
        if count:
            ctx.warn(f"GROUP_BY: {count} of {len(rows)} items have no value for {name!r}; they form the group {name}=None")
    return tuple(Group(attrs, members) for attrs, members in groups.values())


@operator("JOIN")
def join_rows(ctx: OpContext, args: dict[str, Any]) -> tuple:
    """All pairs (i1, i2) satisfying `condition`, merged; see `app.engine.join` for the algorithm."""
    left = items_of(args["l1"], "JOIN", "l1")
    right = items_of(args["l2"], "JOIN", "l2")
    ctx.check_cancel()
    try:
        return join_module.join(left, right, args["condition"], ctx.eval, ctx.warn, ctx.check_cancel)
    except join_module.JoinError as exc:
        raise OperatorError(str(exc)) from None
