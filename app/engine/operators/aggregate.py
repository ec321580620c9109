"""Aggregates: ARGMIN, ARGMAX, MIN, MAX, SUM, AVG.

Shared rules (the NULL rules of `app.engine.builtins`, applied to rows):
- Rows without a value for the attribute (missing or None) are skipped and counted in the warnings;
  if no row has one, the node fails ("EXTRACT it first") instead of answering from nothing.
- Empty input: SUM is 0, AVG/MIN/MAX/ARGMIN/ARGMAX are None; the provenance is then empty, so the
  answer says "I could not find ...".
- Ordering uses `app.engine.compare` (dates vs datetimes, aware vs naive handled deliberately).
- Ties: MIN/MAX keep the ids of every row holding the extreme value; ARGMIN/ARGMAX return every tied
  row's value (a list when more than one distinct value ties), `details["ties"]` says how many rows tied.
- Units: known attributes carry theirs ("ms_played" -> ms, "duration"/"duration_s" -> s, "distance_km"
  -> km, ...); money attributes take the rows' `currency`, with a warning if several currencies are mixed.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from app.engine.compare import EvalError, sort_key_order, type_name
from app.engine.operators import OpContext, OperatorError, operator, rows_of
from app.engine.values import MISSING, Group, Scalar, merge_ids

UNITS = {
    "ms_played": "ms", "duration_s": "s", "duration": "s", "duration_seconds": "s", "duration_min": "min",
    "duration_minutes": "min", "distance_km": "km", "distance": "km", "energy_kcal": "kcal", "calories": "kcal",
    "heart_rate_avg": "bpm", "heart_rate_min": "bpm", "heart_rate_max": "bpm",
}
_MONEY_WORDS = ("price", "amount", "cost", "spent", "total", "money", "paid")


def unit_of(ctx: OpContext, name: str, rows: list[Any]) -> str | None:
    if name in UNITS:
        return UNITS[name]
    if not any(word in name.lower() for word in _MONEY_WORDS):
        return None
    currencies = {c for c in (row.get("currency") for row in rows) if c not in (MISSING, None)}
    if len(currencies) > 1:
        ctx.warn(f"the values of {name!r} mix currencies ({', '.join(sorted(map(str, currencies)))}); no unit is given")
        return None
    return next(iter(currencies)) if currencies else None


def _values(ctx: OpContext, op: str, rows: tuple, name: str) -> tuple[list[Any], list[Any]]:
    present_rows, values = [], []
    for row in rows:
        v = row.get(name)
        if v is MISSING or v is None:
            continue
        present_rows.append(row)
        values.append(v)
    skipped = len(rows) - len(values)
    if rows and not values:
        raise OperatorError(f"no item has a value for {name!r} ({len(rows)} items); EXTRACT or MAP it first")
    if skipped:
        ctx.warn(f"{op}: {skipped} of {len(rows)} items have no value for {name!r}; they were skipped")
    return present_rows, values


def _ordered(op: str, values: list[Any]) -> list[Any]:
    try:
        keys = sort_key_order(values)
        if len({type(k) for k in keys} - {int, float, bool}) > 1:
            raise EvalError(f"values of different kinds: {', '.join(sorted({type_name(v) for v in values}))}")
        return keys
    except EvalError as exc:
        raise OperatorError(f"{op}: cannot order the values: {exc}") from None


def _extreme(ctx: OpContext, op: str, args: dict[str, Any], largest: bool, name: str,
             rows: list[Any] | None = None) -> tuple[list[Any], list[Any], Any]:
    rows = rows_of(args["l"], op) if rows is None else rows
    present, values = _values(ctx, op, rows, name)
    if not values:
        return [], [], None
    keys = _ordered(op, values)
    try:
        best = max(keys) if largest else min(keys)
    except TypeError as exc:
        raise OperatorError(f"{op}: cannot order the values: {exc}") from None
    winners = [i for i, k in enumerate(keys) if k == best]
    return [present[i] for i in winners], [values[i] for i in winners], values[winners[0]]


@operator("MIN")
def minimum(ctx: OpContext, args: dict[str, Any]) -> Scalar:
    """The smallest value of `attr_name`; provenance: every row holding it."""
    return _min_max(ctx, args, "MIN", largest=False)


@operator("MAX")
def maximum(ctx: OpContext, args: dict[str, Any]) -> Scalar:
    """The largest value of `attr_name`; provenance: every row holding it."""
    return _min_max(ctx, args, "MAX", largest=True)


def _min_max(ctx: OpContext, args: dict[str, Any], op: str, largest: bool) -> Scalar:
    name = args["attr_name"]
    winners, _, best = _extreme(ctx, op, args, largest, name)
    unit = unit_of(ctx, name, winners) if winners else UNITS.get(name)
    return Scalar(best, merge_ids(*(r.ids for r in winners)), unit, {"attr_name": name, "ties": len(winners)})


@operator("ARGMIN")
def argmin(ctx: OpContext, args: dict[str, Any]) -> Any:
    """The row(s) with the smallest `arg_attr_name`: their `val_attr_name` (all tied values), or the rows."""
    return _arg(ctx, args, "ARGMIN", largest=False)


@operator("ARGMAX")
def argmax(ctx: OpContext, args: dict[str, Any]) -> Any:
    """The row(s) with the largest `arg_attr_name`: their `val_attr_name` (all tied values), or the rows."""
    return _arg(ctx, args, "ARGMAX", largest=True)


def _arg(ctx: OpContext, args: dict[str, Any], op: str, largest: bool) -> Any:
    arg_name = args["arg_attr_name"]
    val_name = args.get("val_attr_name")
    rows = rows_of(args["l"], op)
    if val_name:
        # "which series": GROUP_BY's group of the items with no value for it names none, so it is no answer (an
        # item without one is still the item that won: "the destination of my latest trip" is then unknown)
        known = [row for row in rows if not (isinstance(row, Group) and row.get(val_name) is None)]
        if known and len(known) < len(rows):
            ctx.warn(f"{op}: the group of the items with no value for {val_name!r} is not among the answers")
            rows = known
    winners, _, best = _extreme(ctx, op, args, largest, arg_name, rows)
    if not val_name:
        return tuple(winners)
    details = {"arg_attr_name": arg_name, "arg_value": best, "val_attr_name": val_name, "ties": len(winners)}
    if not winners:
        return Scalar(None, (), None, details)
    found = []
    for row in winners:
        v = row.get(val_name)
        if v is MISSING:
            raise OperatorError(f"{op}: the winning item has no value for {val_name!r}; EXTRACT it first")
        if v not in found:
            found.append(v)
    value = found[0] if len(found) == 1 else found
    return Scalar(value, merge_ids(*(r.ids for r in winners)), None, details)


def _numbers(ctx: OpContext, op: str, args: dict[str, Any]) -> tuple[list[Any], list[Any], str]:
    name = args["attr_name"]
    rows = rows_of(args["l"], op)
    present, values = _values(ctx, op, rows, name)
    good_rows, good, bad = [], [], []
    for row, v in zip(present, values):
        if isinstance(v, (int, float, timedelta)):
            good_rows.append(row)
            good.append(v)
        else:
            bad.append(v)
    if bad:
        kinds = ", ".join(sorted({type_name(v) for v in bad}))
        if not good:
            raise OperatorError(f"{op}: the values of {name!r} are not numbers ({kinds}); convert them with attr_types")
        ctx.warn(f"{op}: {len(bad)} of {len(values)} values of {name!r} are not numbers ({kinds}); they were skipped")
    if good and any(isinstance(v, timedelta) for v in good) and not all(isinstance(v, timedelta) for v in good):
        raise OperatorError(f"{op}: {name!r} mixes durations and numbers")
    return good_rows, good, name


@operator("SUM")
def total(ctx: OpContext, args: dict[str, Any]) -> Scalar:
    """The sum of `attr_name` over the rows with a numeric (or duration) value; 0 for no rows."""
    rows, values, name = _numbers(ctx, "SUM", args)
    start: Any = timedelta(0) if values and isinstance(values[0], timedelta) else 0
    value = sum(values, start)
    return Scalar(value, merge_ids(*(r.ids for r in rows)), unit_of(ctx, name, rows), {"attr_name": name, "count": len(values)})


@operator("AVG")
def average(ctx: OpContext, args: dict[str, Any]) -> Scalar:
    """The mean of `attr_name` over the rows with a numeric (or duration) value; None for no rows."""
    rows, values, name = _numbers(ctx, "AVG", args)
    if not values:
        return Scalar(None, (), UNITS.get(name), {"attr_name": name, "count": 0})
    start: Any = timedelta(0) if isinstance(values[0], timedelta) else 0
    value = sum(values, start) / len(values)
    return Scalar(value, merge_ids(*(r.ids for r in rows)), unit_of(ctx, name, rows), {"attr_name": name, "count": len(values)})
