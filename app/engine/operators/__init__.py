"""The operator registry: one small documented function per operator, registered by name.

Each implementation takes the node's context and its prepared arguments and returns a new result
(a tuple of rows, or a Scalar); it never changes its inputs. Arguments arrive prepared by the executor:

    input      the child's result (tuple of Item/Group, or Scalar)
    text       str;  text_list: tuple of str
    function   a Python callable taking one row (or the whole list for APPLY), already bound to the
               question's EvalContext (reference date, QUD values)
    condition  the CompiledFunction (JOIN plans it)
    types      a list of bound converters, or None

`REGISTRY` maps each name in `app.engine.signatures.SIGNATURES` to its implementation; importing
this package checks that the two agree.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Callable

from app.engine.expr import EvalContext
from app.engine.signatures import SIGNATURES
from app.engine.values import Item, Scalar

Operator = Callable[["OpContext", dict[str, Any]], Any]
REGISTRY: dict[str, Operator] = {}


class OperatorError(Exception):
    """The node cannot produce a result; the executor reports it on the node."""


class Cancelled(Exception):
    """The person cancelled the question."""


class TimeLimitReached(OperatorError):
    """The question ran past its time limit; the node reports it as its error."""


class MissingAttribute(OperatorError):
    """An EXTRACT found `attribute` on none of its events, or only in passing: events of these `sources` do not
    carry it (the artist of a run). The QUD decomposes again with a JOIN of events that do (app.ask)."""

    def __init__(self, attribute: str, sources: tuple[str, ...], events: int, found: int = 0):
        self.attribute = attribute
        self.sources = sources
        where = f"any of the {events} events" if not found else f"{events - found} of the {events} events"
        super().__init__(f"no value for {attribute!r} in {where} ({', '.join(sources)}); these events do not carry it")


@dataclass
class OpContext:
    store: Any
    reference_date: date
    eval: EvalContext
    retriever: Any
    extractor: Any
    question: str = ""
    warnings: list[str] = field(default_factory=list)
    cancel: Callable[[], bool] | None = None
    deadline: float | None = None  # time.monotonic() after which the question stops
    count: Callable[[str, int, int, str], None] | None = None  # live counts for the person (see `tell`)

    def warn(self, message: str) -> None:
        if message not in self.warnings:
            self.warnings.append(message)

    def check_cancel(self) -> None:
        """Called between chunks of work: stops on cancel, or when the question's time is up."""
        if self.cancel is not None and self.cancel():
            raise Cancelled("cancelled")
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise TimeLimitReached("time limit reached")

    def tell(self, stage: str, done: int, total: int, unit: str = "") -> None:
        """A live count, between the same chunks of work as `check_cancel`: ("filtering", 4096, 35136, "items")
        reads "filtering 4,096 of 35,136 items" in the window. The receiver must not block (the UI's queues it)."""
        if self.count is not None:
            self.count(stage, done, total, unit)


def operator(name: str) -> Callable[[Operator], Operator]:
    if name not in SIGNATURES:
        raise KeyError(f"no signature for operator {name}")

    def register(fn: Operator) -> Operator:
        if name in REGISTRY:
            raise KeyError(f"operator {name} registered twice")
        REGISTRY[name] = fn
        return fn

    return register


def rows_of(result: Any, op: str, what: str = "l") -> tuple:
    if isinstance(result, Scalar):
        raise OperatorError(f"{op} needs a list of events or groups for {what!r}, got a single value ({result.value!r})")
    return result


def items_of(result: Any, op: str, what: str = "l") -> tuple:
    found = rows_of(result, op, what)
    if found and not isinstance(found[0], Item):
        raise OperatorError(f"{op} needs events for {what!r}, got groups (GROUP_BY result)")
    return found


class Failures:
    """Per-item failures of a lambda or a conversion: counted, summarised, never silent.

    When every item fails the node fails (an empty result would hide the mistake)."""

    def __init__(self, what: str, consequence: str):
        self.what = what
        self.consequence = consequence
        self.count = 0
        self.messages: Counter[str] = Counter()
        self.first_ids: tuple[str, ...] = ()

    def add(self, row: Any, exc: Exception) -> None:
        self.count += 1
        self.messages[str(exc)] += 1
        if not self.first_ids:
            self.first_ids = tuple(getattr(row, "ids", ())[:3])

    def summary(self) -> str:
        top = "; ".join(f"{m} (x{n})" if n > 1 else m for m, n in self.messages.most_common(3))
        return top

    def report(self, ctx: OpContext, total: int) -> None:
        if not self.count:
            return
        if self.count == total:
            raise OperatorError(f"{self.what} failed on all {total} items: {self.summary()}")
        first = f" (first: event {', '.join(self.first_ids)})" if self.first_ids else ""
        ctx.warn(f"{self.what} failed on {self.count} of {total} items, {self.consequence}: {self.summary()}{first}")


# Importing the implementations fills REGISTRY.
from app.engine.operators import aggregate, rows, sources  # noqa: E402,F401

_missing = set(SIGNATURES) - set(REGISTRY)
if _missing:
    raise ImportError(f"operators without implementation: {sorted(_missing)}")
