"""JOIN: all pairs (i1, i2) that satisfy a condition, found without a full cross product.

The condition's AST is split at its top-level `and`s into conjuncts:

- `f(i1) == g(i2)`                 equality: hash partitioning (many-to-many: every pair in a bucket)
- `f(i1) < <= > >= g(i2)`          range: sorted index + binary search (a band or sort-merge join)
- `f(i1) op 3`, `g(i2) op ...`     one side only: filters that side before joining
- anything else (or, i1 and i2 on one side, function calls over both): checked per candidate pair

Either side is written in any order (`i2.x >= i1.y` is the same as `i1.y <= i2.x`). For intervals the
usual overlap `i1.start <= i2.end and i2.start <= i1.end` bounds different attributes of i2 on each
side; the planner derives a two-sided bound on one attribute from the other through the spread of
`end - start` on the indexed side, bucketed by powers of two so that a few long intervals do not widen
the search for the many short ones. Containment (`i2.start >= i1.start and i2.end <= i1.end`) works
the same way. Only a condition with no usable equality or range predicate falls back to a nested loop,
refused above MAX_NESTED pairs, and the node's warnings say so.

Candidates are always verified against every conjunct, so the index only prunes and never changes
the result: the output equals the nested loop's, in (l1 order, l2 order). Values are brought into one
comparable form per conjunct by the rules of `app.engine.compare` (aware vs naive, date vs datetime,
ISO text vs dates). Items without a value for a join attribute (None or missing) match nothing, as in
SQL; they are counted in the warnings. In the parts checked per pair, `==` and `!=` with a missing
value are false (so `i1.k == i2.k or ...` never pairs two events that both lack k), and ordering a
missing value fails that pair, counted in the warnings. Merged items hold all keys of both sides (l1's value wins where
both have a key) and the ids of both.
"""

from __future__ import annotations

import ast
import math
import operator
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any, Callable, Iterator, Sequence

from app.engine.builtins import to_date, to_datetime, to_time
from app.engine.compare import EvalError
from app.engine.expr import CompiledFunction, EvalContext, compile_expression
from app.engine.values import DERIVED, MISSING, Item, merge_items

MAX_NESTED = 4_000_000     # pairs a nested loop may test
MAX_PAIRS = 2_000_000      # pairs a join may return
MAX_CANDIDATES = 8_000_000  # index candidates a join may test against the rest of its condition

_OPS = {ast.Eq: "==", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}
_FLIP = {"==": "==", "<": ">", "<=": ">=", ">": "<", ">=": "<="}
_PY = {"==": operator.eq, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


class JoinError(Exception):
    """The join cannot run (incomparable attributes, too many pairs)."""


@dataclass
class Conjunct:
    op: str                     # "==", "<", "<=", ">", ">=" (i1 side op i2 side) or "" for residual/filter
    left: ast.AST | None        # expression over i1 only
    right: ast.AST | None       # expression over i2 only
    node: ast.AST               # the whole comparison (for residuals and messages)
    side: str = ""              # "i1"/"i2" for one-sided filters


@dataclass
class Analysis:
    keys: list[Conjunct] = field(default_factory=list)      # equalities
    ranges: list[Conjunct] = field(default_factory=list)    # < <= > >=
    filters: list[Conjunct] = field(default_factory=list)   # one side only
    residual: list[Conjunct] = field(default_factory=list)  # checked per pair


def _params(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and n.id in ("i1", "i2")}


def _conjuncts(node: ast.AST) -> list[ast.AST]:
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
        return [c for v in node.values for c in _conjuncts(v)]
    if isinstance(node, ast.Compare) and len(node.ops) > 1:  # a <= b <= c  ->  a <= b and b <= c
        operands = [node.left] + node.comparators
        return [ast.Compare(left=operands[i], ops=[op], comparators=[operands[i + 1]]) for i, op in enumerate(node.ops)]
    return [node]


def analyse(tree: ast.AST) -> Analysis:
    """Sort the condition's conjuncts into keys, ranges, one-sided filters and residuals."""
    result = Analysis()
    for node in _conjuncts(tree):
        used = _params(node)
        if len(used) == 1:
            result.filters.append(Conjunct("", None, None, node, side=next(iter(used))))
            continue
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _OPS:
            a, b, op = node.left, node.comparators[0], _OPS[type(node.ops[0])]
            pa, pb = _params(a), _params(b)
            if pa == {"i2"} and pb == {"i1"}:
                a, b, op = b, a, _FLIP[op]
                pa, pb = pb, pa
            if pa == {"i1"} and pb == {"i2"}:
                conj = Conjunct(op, a, b, node)
                (result.keys if op == "==" else result.ranges).append(conj)
                continue
        result.residual.append(Conjunct("", None, None, node))
    return result


def explain(condition: CompiledFunction) -> str:
    """How the join will run, in words (for the CLI and tests)."""
    a = analyse(condition.tree)  # type: ignore[arg-type]
    parts = []
    if a.keys:
        parts.append(f"hash on {len(a.keys)} equality key(s)")
    if a.ranges:
        parts.append(f"sorted index over {len(a.ranges)} range predicate(s)")
    if a.filters:
        parts.append(f"{len(a.filters)} one-sided filter(s)")
    if a.residual:
        parts.append(f"{len(a.residual)} predicate(s) checked per pair")
    if not a.keys and not a.ranges:
        parts.append("nested loop (no equality or range predicate between i1 and i2)")
    return "; ".join(parts)


# --- values per side ---------------------------------------------------------------------------


def _side_values(rows: Sequence[Any], node: ast.AST, param: str, ctx: EvalContext, failures: list[str]) -> list[Any]:
    """The expression's value for each row (None where it has none or fails)."""
    key = None
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == param:
        key = node.attr
    elif (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == param
          and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str)):
        key = node.slice.value
    if key is not None and not key.startswith("_"):
        return _column(rows, key)
    fn = compile_expression(node, ("i1", "i2")).bind(ctx)
    out = []
    for row in rows:
        try:
            out.append(fn(row, None) if param == "i1" else fn(None, row))
        except EvalError as exc:
            out.append(None)
            if len(failures) < 3:
                failures.append(str(exc))
    return out


def _column(rows: Sequence[Any], key: str) -> list[Any]:
    """row.get(key) for every row, in bulk (derived keys like start_datetime computed only where absent)."""
    attrs = [row.attrs for row in rows]
    if key in ("start_datetime", "datetime", "timestamp"):  # the common case, without a call per row
        values = [a[key] if key in a else a.get("start", MISSING) for a in attrs]
    elif key == "end_datetime":
        values = [a[key] if key in a else (a.get("end") or a.get("start", MISSING)) for a in attrs]
    else:
        values = [a.get(key, MISSING) for a in attrs]
    derive = DERIVED.get(key)
    if derive is not None and any(v is MISSING for v in values):
        values = [derive(a) if v is MISSING else v for a, v in zip(attrs, values)]
    return [None if v is MISSING else v for v in values]


def _kind(v: Any) -> str:
    if isinstance(v, bool) or isinstance(v, (int, float)):
        return "num"
    if isinstance(v, datetime):
        return "aware" if v.utcoffset() is not None else "naive"
    if isinstance(v, date):
        return "date"
    if isinstance(v, time):
        return "time"
    if isinstance(v, str):
        return "str"
    if isinstance(v, timedelta):
        return "delta"
    return "other"


_TYPE_KINDS = {int: "num", float: "num", bool: "num", date: "date", time: "time", str: "str", timedelta: "delta"}


def kinds_of(values: list[Any]) -> set[str]:
    """The kinds of the non-None values (one pass over types; datetimes split into aware/naive)."""
    kinds: set[str] = set()
    for t in set(map(type, values)):
        if t is type(None):
            continue
        if t is datetime:
            kinds.update("aware" if aware else "naive" for aware in {v.tzinfo is not None for v in values if type(v) is datetime})
        else:
            kinds.add(_TYPE_KINDS.get(t) or next((_kind(v) for v in values if type(v) is t), "other"))
    return kinds


def _parse_all(values: list[Any], target: str) -> list[Any]:
    convert = {"date": to_date, "datetime": to_datetime, "time": to_time}[target]
    out = []
    for v in values:
        if isinstance(v, str):
            try:
                v = convert(v)
            except EvalError:
                v = None
        out.append(v)
    return out


def coerce_sides(lv: list[Any], rv: list[Any], what: str) -> tuple[list[Any], list[Any], bool, str, str]:
    """Bring both sides of one conjunct into one comparable domain (rules of app.engine.compare).

    Returns (left, right, indexable, left kinds, right kinds). Not indexable: a side mixes aware and naive datetimes, which
    have no single order; such a conjunct is checked per pair instead. Raises JoinError when the
    sides can never be compared (numbers vs text).
    """
    lk, rk = kinds_of(lv), kinds_of(rv)
    both = lk | rk
    temporal = both & {"aware", "naive", "date"}
    if "str" in both and (temporal or "time" in both):
        target = "date" if "date" in both else ("time" if "time" in both else "datetime")
        lv, rv = _parse_all(lv, target), _parse_all(rv, target)
        lk, rk = kinds_of(lv), kinds_of(rv)
        both = lk | rk
    if "date" in both and both & {"aware", "naive"}:
        lv = [v.date() if isinstance(v, datetime) else v for v in lv]
        rv = [v.date() if isinstance(v, datetime) else v for v in rv]
        return lv, rv, True, "date", "date"
    if {"aware", "naive"} <= both:
        if {"aware", "naive"} <= lk or {"aware", "naive"} <= rk:
            return lv, rv, False, "", ""
        wall = lambda vs: [v.replace(tzinfo=None) if isinstance(v, datetime) else v for v in vs]  # noqa: E731
        return (wall(lv) if "aware" in lk else lv), (wall(rv) if "aware" in rk else rv), True, "naive", "naive"
    if "time" in both:
        strip = lambda vs: [v.replace(tzinfo=None) if isinstance(v, time) else v for v in vs]  # noqa: E731
        return strip(lv), strip(rv), True, "time", "time"
    families = {_family(k) for k in lk | rk}
    if len(families) > 1:
        raise JoinError(f"the condition compares {' with '.join(sorted(families))} values in `{what}`")
    return lv, rv, True, ",".join(sorted(lk)), ",".join(sorted(rk))


def _family(kind: str) -> str:
    return {"aware": "date/time", "naive": "date/time", "date": "date/time", "time": "time-of-day",
            "num": "number", "str": "text", "delta": "duration"}.get(kind, "other")


# --- the join ---------------------------------------------------------------------------------


@dataclass
class _Range:
    """A bound on the indexed side: `rv[j] op lv[i]` for query row i and indexed row j."""

    lv: list[Any]     # query side values
    rv: list[Any]     # indexed side values
    op: str           # ">", ">=", "<", "<="
    atom: str         # identity of the indexed expression (bounds on the same atom combine)


def join(
    left: Sequence[Any],
    right: Sequence[Any],
    condition: CompiledFunction,
    ctx: EvalContext,
    warn: Callable[[str], None],
    check: Callable[[], None] | None = None,
) -> tuple[Item, ...]:
    """The pairs of `left` x `right` satisfying `condition`, merged, in (left, right) order.

    `warn` receives the notes for the node's warnings; `check` (if given) is called every 65,536
    candidate pairs and may raise to stop (cancel, time limit)."""
    analysis = analyse(condition.tree)  # type: ignore[arg-type]
    left_ok = _apply_filters(left, analysis.filters, "i1", ctx, warn)
    right_ok = _apply_filters(right, analysis.filters, "i2", ctx, warn)
    index = _index_conditions(analysis, left, right, left_ok, right_ok, ctx, warn)
    check_pair = _residual_checker(index.residual, ctx)
    li = [i for i in range(len(left)) if left_ok[i]]
    ri = [j for j in range(len(right)) if right_ok[j]]
    pairs = _candidate_pairs(li, ri, index, warn)
    matched = _matching_pairs(pairs, left, right, check_pair, warn, check)
    return tuple(_merge(left[i], right[j]) for i, j in sorted(matched))


@dataclass
class _JoinIndex:
    """What the candidate pairs are looked up by: the equalities' values per side, the ranges (lv, rv, op
    i1-side vs i2-side, atom of each side), and the conjuncts left to test on each candidate pair."""

    keys_l: list[list[Any]] = field(default_factory=list)
    keys_r: list[list[Any]] = field(default_factory=list)
    ranges: list[tuple[list[Any], list[Any], str, str, str]] = field(default_factory=list)
    residual: list[ast.AST] = field(default_factory=list)


def _index_conditions(analysis: Analysis, left: Sequence[Any], right: Sequence[Any], left_ok: list[bool],
                      right_ok: list[bool], ctx: EvalContext, warn: Callable[[str], None]) -> _JoinIndex:
    """Each side's values of the equalities and ranges; one whose sides cannot be compared for an index is left
    to test per pair. An item without a value matches nothing (its `_ok` flag is cleared, with a warning)."""
    index = _JoinIndex(residual=[c.node for c in analysis.residual])
    failures: list[str] = []
    for conj in analysis.keys + analysis.ranges:
        what = ast.unparse(conj.node)
        lv = _side_values(left, conj.left, "i1", ctx, failures)  # type: ignore[arg-type]
        rv = _side_values(right, conj.right, "i2", ctx, failures)  # type: ignore[arg-type]
        lv, rv, indexable, lkind, rkind = coerce_sides(lv, rv, what)
        if not indexable:
            index.residual.append(conj.node)
            continue
        _exclude_missing(lv, left_ok, "l1", what, warn)
        _exclude_missing(rv, right_ok, "l2", what, warn)
        if conj.op == "==":
            index.keys_l.append(lv)
            index.keys_r.append(rv)
        else:
            atom_l = ast.dump(conj.left) + lkind  # type: ignore[arg-type]
            atom_r = ast.dump(conj.right) + rkind  # type: ignore[arg-type]
            index.ranges.append((lv, rv, conj.op, atom_l, atom_r))
    if failures:
        warn(f"JOIN: some join values could not be computed ({'; '.join(failures)}); those items match nothing")
    return index


def _candidate_pairs(li: list[int], ri: list[int], index: _JoinIndex,
                     warn: Callable[[str], None]) -> Iterator[tuple[int, int]]:
    """The (left, right) positions that satisfy the indexed conditions, as a stream; every pair of `li` x `ri`
    when nothing can be indexed (within MAX_NESTED)."""
    if not index.keys_l and not index.ranges:
        if len(li) * len(ri) > MAX_NESTED:
            raise JoinError(
                f"the condition has no equality or range between i1 and i2 to index, and {len(li)} x {len(ri)} "
                f"pairs exceed the nested-loop limit ({MAX_NESTED})"
            )
        warn(f"JOIN: condition not analysable for an index; nested loop over {len(li)} x {len(ri)} pairs")
        return ((i, j) for i in li for j in ri)
    if len(li) >= len(ri):
        # Index the larger side (l1): fewer, cheaper queries. Bounds become bounds on i1.
        swapped = [_Range(rv, lv, op, atom_l) for lv, rv, op, atom_l, _ in index.ranges]
        return ((i, j) for j, i in _indexed_pairs(ri, li, index.keys_r, index.keys_l, swapped))
    bounds = [_Range(lv, rv, _FLIP[op], atom_r) for lv, rv, op, _, atom_r in index.ranges]
    return _indexed_pairs(li, ri, index.keys_l, index.keys_r, bounds)


def _matching_pairs(pairs: Iterator[tuple[int, int]], left: Sequence[Any], right: Sequence[Any],
                    check_pair: Callable[[Any, Any], bool] | None, warn: Callable[[str], None],
                    check: Callable[[], None] | None) -> list[tuple[int, int]]:
    """The candidate pairs that pass the conjuncts not indexed; a pair the condition fails on is left out (one
    warning counts them). Raises JoinError past MAX_CANDIDATES candidates or MAX_PAIRS matches."""
    out: list[tuple[int, int]] = []
    errors = 0
    first_error = ""
    # Candidates stream in: a condition that matches nearly everything stops at the limits below, not when
    # memory runs out (an equality on a podcast's show with a time range made 24 GB of candidates).
    for n, (i, j) in enumerate(pairs):
        if check is not None and not n & 0xFFFF:
            check()
        if n >= MAX_CANDIDATES:
            raise JoinError(
                f"the join tests more than {MAX_CANDIDATES} candidate pairs; make the condition more selective"
            )
        if check_pair is not None:
            try:
                if not check_pair(left[i], right[j]):
                    continue
            except EvalError as exc:
                errors += 1
                first_error = first_error or str(exc)
                continue
        out.append((i, j))
        if len(out) > MAX_PAIRS:
            raise JoinError(f"the join returns more than {MAX_PAIRS} pairs; make the condition more selective")
    if errors:
        warn(f"JOIN: the condition failed on {errors} candidate pair(s) (first: {first_error}); they are not in the result")
    return out


def _merge(a: Any, b: Any) -> Item:
    if not isinstance(a, Item) or not isinstance(b, Item):
        raise JoinError("JOIN needs events on both sides, not groups")
    return merge_items(a, b)


def _apply_filters(rows: Sequence[Any], filters: list[Conjunct], side: str, ctx: EvalContext, warn: Callable[[str], None]) -> list[bool]:
    ok = [True] * len(rows)
    for conj in filters:
        if conj.side != side:
            continue
        fn = compile_expression(conj.node, ("i1", "i2")).bind(ctx)
        failed = 0
        first = ""
        for k, row in enumerate(rows):
            if not ok[k]:
                continue
            try:
                ok[k] = bool(fn(row, None) if side == "i1" else fn(None, row))
            except EvalError as exc:
                ok[k] = False
                failed += 1
                first = first or str(exc)
        if failed:
            warn(f"JOIN: `{ast.unparse(conj.node)}` failed on {failed} of {len(rows)} items of l{side[1]} ({first}); they match nothing")
    return ok


def _exclude_missing(values: list[Any], ok: list[bool], name: str, what: str, warn: Callable[[str], None]) -> None:
    missing = 0
    for k, v in enumerate(values):
        if v is None and ok[k]:
            ok[k] = False
            missing += 1
    if missing:
        warn(f"JOIN: {missing} of {len(values)} items of {name} have no value for `{what}`; they match nothing")


def _residual_checker(nodes: list[ast.AST], ctx: EvalContext) -> Callable[[Any, Any], bool] | None:
    if not nodes:
        return None
    node = nodes[0] if len(nodes) == 1 else ast.BoolOp(op=ast.And(), values=list(nodes))
    return compile_expression(node, ("i1", "i2")).bind(ctx)


def _indexed_pairs(
    li: list[int], ri: list[int], keys_l: list[list[Any]], keys_r: list[list[Any]], ranges: list[_Range]
) -> Iterator[tuple[int, int]]:
    """Candidate pairs from hash buckets and range indexes, verified on every key and range (generated)."""
    if keys_l:
        buckets: dict[tuple, list[int]] = {}
        for j in ri:
            buckets.setdefault(tuple(_hashable(k[j]) for k in keys_r), []).append(j)
        groups = []
        for i in li:
            bucket = buckets.get(tuple(_hashable(k[i]) for k in keys_l))
            if bucket:
                groups.append(([i], bucket))
        # one range index per bucket, queried by all left items of the same key
        by_bucket: dict[int, tuple[list[int], list[int]]] = {}
        for lefts, bucket in groups:
            entry = by_bucket.setdefault(id(bucket), ([], bucket))
            entry[0].extend(lefts)
        parts = by_bucket.values()
    else:
        parts = [(li, ri)]
    for lefts, rights in parts:
        if not ranges:
            yield from ((i, j) for i in lefts for j in rights)
            continue
        yield from _range_pairs(lefts, rights, ranges)


def _hashable(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_hashable(x) for x in v)
    if isinstance(v, dict):
        return tuple(sorted((k, _hashable(x)) for k, x in v.items()))
    if isinstance(v, set):
        return frozenset(v)
    return v


def _range_pairs(lefts: list[int], rights: list[int], ranges: list[_Range]) -> Iterator[tuple[int, int]]:
    index = _RangeIndex.build(rights, ranges)
    checks = [(r.lv, r.rv, _PY[r.op]) for r in ranges]
    for i in lefts:
        found = index.candidates(i)
        for lv, rv, test in checks:
            bound = lv[i]
            found = [j for j in found if test(rv[j], bound)]
        yield from ((i, j) for j in found)


class _RangeIndex:
    """Right rows sorted by one attribute, split into buckets by the spread to a second attribute."""

    def __init__(self) -> None:
        self.buckets: list[tuple[list[Any], list[int], list[Callable[[int], tuple[Any, Any]]]]] = []

    @classmethod
    def build(cls, rights: list[int], ranges: list[_Range]) -> "_RangeIndex":
        atoms: dict[str, list[_Range]] = {}
        for r in ranges:
            atoms.setdefault(r.atom, []).append(r)
        best = None
        for atom, rs in atoms.items():
            lower = [r for r in rs if r.op in (">", ">=")]
            upper = [r for r in rs if r.op in ("<", "<=")]
            score = 3 if lower and upper else 1
            derived: list[tuple[_Range, str]] = []
            if score < 3:
                for other, ors in atoms.items():
                    if other == atom:
                        continue
                    for r in ors:
                        kind = "upper" if r.op in ("<", "<=") else "lower"
                        if (kind == "lower" and not lower) or (kind == "upper" and not upper):
                            derived.append((r, kind))
                if derived:
                    score = 2
            if best is None or score > best[0]:
                best = (score, rs[0].rv, lower, upper, derived)
        index = cls()
        _, key_values, lower, upper, derived = best  # type: ignore[misc]
        # Bucket by spread (other - key) so derived bounds stay tight: spread in [lo, hi] per bucket.
        spreads_by: dict[int, list[int]] = {}
        usable = []
        for r, kind in derived:
            try:
                spreads = {j: r.rv[j] - key_values[j] for j in rights}
            except TypeError:
                continue
            usable.append((r, kind, spreads))
        if usable:
            r0, _, spreads0 = usable[0]
            for j, cls_ in zip(rights, _spread_classes([spreads0[j] for j in rights])):
                spreads_by.setdefault(cls_, []).append(j)
        else:
            spreads_by[0] = list(rights)
        for members in spreads_by.values():
            members.sort(key=key_values.__getitem__)
            keys = [key_values[j] for j in members]
            bounds = []
            for r in lower:
                bounds.append(_direct(r, "lower"))
            for r in upper:
                bounds.append(_direct(r, "upper"))
            for r, kind, spreads in usable:
                values = [spreads[j] for j in members]
                bounds.append(_derived(r, kind, min(values), max(values)))
            index.buckets.append((keys, members, bounds))
        return index

    def candidates(self, i: int) -> list[int]:
        out: list[int] = []
        for keys, members, bounds in self.buckets:
            lo_pos, hi_pos = 0, len(keys)
            for bound in bounds:
                kind, value, strict = bound(i)
                if value is None:
                    continue
                try:
                    if kind == "lower":
                        lo_pos = max(lo_pos, (bisect_right if strict else bisect_left)(keys, value))
                    else:
                        hi_pos = min(hi_pos, (bisect_left if strict else bisect_right)(keys, value))
                except TypeError:
                    continue
            if lo_pos < hi_pos:
                out.extend(members[lo_pos:hi_pos])
        return out


def _direct(r: _Range, kind: str) -> Callable[[int], tuple[str, Any, bool]]:
    strict = r.op in (">", "<")
    lv = r.lv
    return lambda i: (kind, lv[i], strict)


def _derived(r: _Range, kind: str, lo: Any, hi: Any) -> Callable[[int], tuple[str, Any, bool]]:
    """A bound on other = key + spread, spread in [lo, hi], turned into a bound on key (never strict)."""
    lv = r.lv

    def bound(i: int) -> tuple[str, Any, bool]:
        try:
            # other >= L  ->  key >= L - hi ;  other <= U  ->  key <= U - lo
            value = lv[i] - hi if kind == "lower" else lv[i] - lo
        except (TypeError, OverflowError):
            return (kind, None, False)
        return (kind, value, False)

    return bound


def _spread_classes(spreads: list[Any]) -> list[int]:
    if spreads and all(type(x) is timedelta for x in spreads):
        secs = [x.days * 86400 + x.seconds for x in spreads]
        return [s.bit_length() if s > 1 else 0 for s in secs]
    return [_spread_class(x) for x in spreads]


def _spread_class(spread: Any) -> int:
    if isinstance(spread, timedelta):
        spread = spread.total_seconds()
    if not isinstance(spread, (int, float)) or spread <= 1:
        return 0
    return int(math.log2(spread)) + 1
