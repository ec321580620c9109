"""Running an operator tree: plan (check and compile every step), then execute bottom-up.

    answer = execute(tree, store, reference_date=date(2024, 5, 1))

Planning is separate from running (as in sqlglot's planner/executor): every node's step is validated
and its lambdas, JOIN condition and attr_types compiled before anything touches the data, so a bad
step fails fast with its node named and nothing half-run. Execution visits children first; identical
subtrees run once (results are immutable, so sharing them is safe), and with `reuse` (an
app.retrieve.cache.ResultCache) once across runs over the same data: a tree the person edited runs again only
the steps that changed and those above them. Each node's report records its
result size, time, error, warnings, provenance (event ids) and a preview. A failing node stops its
ancestors ("not run") and the answer's error names the node and its step.

"Today" is `reference_date` (the date the question is asked about), never the machine's clock.
"""

from __future__ import annotations

import json
import logging
import time as _clock
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from typing import Any, Callable

from app.answer import Answer, AnswerStatus, Failure, FailureKind, NodeReport
from app.engine.compare import EvalError
from app.engine.expr import EvalContext, ExprError, compile_condition, compile_converter, compile_function
from app.engine.extract import Extractor, KeyAliasExtractor
from app.engine.operators import REGISTRY, Cancelled, MissingAttribute, OpContext, OperatorError, TimeLimitReached
from app.engine.phrasing import answer_sentence, answer_value, nothing_found_sentence
from app.engine.units import in_asked_unit
from app.engine.retrieve import KeywordRetriever, Retriever
from app.engine.signatures import SIGNATURES
from app.engine.checking import validate_call
from app.engine.syntax import Lambda, Qud
from app.engine.tree import Node
from app.engine.values import Scalar, merge_ids, preview, result_ids, result_size

log = logging.getLogger(__name__)

TIME_LIMIT = 120.0  # seconds per question, checked inside long loops


@dataclass
class PlannedNode:
    node: Node
    children: list["PlannedNode"]
    compiled: dict[str, Any] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return not self.problems and all(c.valid for c in self.children)


def plan(tree: Node) -> PlannedNode:
    """Check every node and compile its expressions; problems are kept per node, nothing runs."""
    call = tree.call
    problems = validate_call(call)
    quds = call.quds()
    if len(tree.children) < len(quds):
        missing = ", ".join(repr(q.question) for q in quds[len(tree.children):])
        problems.append(f"sub-question(s) not decomposed: {missing}")
    elif len(tree.children) > len(quds):
        problems.append(f"{len(tree.children)} children for {len(quds)} sub-question(s)")
    compiled: dict[str, Any] = {}
    if not problems:
        spec = SIGNATURES[call.operator]
        for name, value in call.args:
            kind = spec.param(name).kind  # type: ignore[union-attr]
            try:
                if kind == "function":
                    compiled[name] = compile_function(value)
                elif kind == "condition":
                    compiled[name] = compile_condition(value)
                elif kind == "types":
                    compiled[name] = [compile_converter(v) for v in (value if isinstance(value, tuple) else (value,))]
            except ExprError as exc:  # validate_call compiled them too; kept for safety
                problems.append(f"{name}: {exc}")
    return PlannedNode(tree, [plan(c) for c in tree.children], compiled, problems)


def cancel_check(cancel: Any) -> Callable[[], bool] | None:
    """A no-argument check from what callers pass as `cancel`: a callable, a threading.Event, or an object with
    `.cancelled` (the UI's CancelToken); None stays None."""
    if cancel is None:
        return None
    if hasattr(cancel, "cancelled"):
        return lambda: bool(cancel.cancelled)
    if hasattr(cancel, "is_set"):
        return cancel.is_set
    if callable(cancel):
        return cancel
    raise TypeError("cancel must be a callable, a threading.Event or an object with .cancelled")


class _Run:
    def __init__(self, store: Any, reference: date | datetime, retriever: Retriever, extractor: Extractor,
                 cancel: Callable[[], bool] | None, time_limit: float,
                 count: Callable[[str, int, int, str], None] | None = None, reuse: Any = None):
        self.store = store
        # results of earlier runs over this store as it is now and this "today", by subtree
        self.reuse = reuse
        self.reuse_scope = (*reuse.scope(store), repr(reference)) if reuse is not None else None
        self.reused = 0
        self.reference = reference
        self.reference_date = reference.date() if isinstance(reference, datetime) else reference
        self.retriever = retriever
        self.extractor = extractor
        self.cancel = cancel
        self.count = count
        self.deadline = _clock.monotonic() + time_limit
        self.cache: dict[str, tuple[Any, NodeReport]] = {}
        self.first_error: str | None = None
        self.timed_out = False

    def run(self, p: PlannedNode, root: bool = False) -> tuple[Any, NodeReport]:
        key = json.dumps(p.node.to_json(), sort_keys=True)
        if key in self.cache:
            result, report = self.cache[key]
            return result, report
        # the root always runs: the answer's sentence reads its children's results from this run's cache
        kept = self.reuse.get((*self.reuse_scope, key)) if self.reuse is not None and not root else None
        if kept is not None:
            result, report = kept[0], _reused(kept[1])
            self.reused += 1
            self.cache[key] = (result, report)
            return result, report
        child_results, child_reports = [], []
        for child in p.children:
            r, rep = self.run(child)
            child_results.append(r)
            child_reports.append(rep)
        node = p.node
        t0 = _clock.perf_counter()
        result: Any = None
        warnings: list[str] = []
        if p.problems:
            error, failure = "invalid step: " + "; ".join(p.problems), Failure(FailureKind.INVALID_STEP)
        elif any(rep.error for rep in child_reports):
            error, failure = "not run: a sub-question failed", Failure(FailureKind.NOT_RUN)
        else:
            result, error, failure, warnings = self._apply(p, child_results)
        seconds = _clock.perf_counter() - t0
        if failure is not None and failure.kind is not FailureKind.NOT_RUN and self.first_error is None:
            self.first_error = f"{node.call.operator} (“{node.question}”) failed: {error} [step: {node.step}]"
        report = NodeReport(
            operator=node.call.operator,
            question=node.question,
            step=node.step,
            size=None if error else result_size(result),
            seconds=seconds,
            error=error,
            children=tuple(child_reports),
            event_ids=() if error else result_ids(result),
            preview=() if error else preview(result),
            warnings=tuple(warnings),
            failure=failure,
        )
        if error:
            result = None
        elif self.reuse is not None and not self.timed_out:
            self.reuse.put((*self.reuse_scope, key), (result, report), size=max(1, result_size(result) or 0))
        self.cache[key] = (result, report)
        return result, report

    def _apply(self, p: PlannedNode, child_results: list[Any]) -> tuple[Any, str | None, Failure | None, list[str]]:
        """The node's operator on its children's results: (result, error, failure, warnings). A cancel goes up."""
        node = p.node
        ctx = self._context(node, [])
        try:
            if self.cancel is not None and self.cancel():
                raise Cancelled("cancelled")
            if _clock.monotonic() > self.deadline:
                raise TimeLimitReached("time limit reached")
            args, referenced = self._arguments(p, child_results)
            result = REGISTRY[node.call.operator](ctx, args)
            if referenced and isinstance(result, Scalar):
                # a value computed with sub-results named inside its function (`lambda l: l > QUD("b")`) comes
                # from their events too
                ids = merge_ids(result.ids, *(result_ids(r) for r in referenced if r is not None))
                result = Scalar(result.value, ids, result.unit, result.details)
            return result, None, None, ctx.warnings
        except Cancelled:
            raise
        except (OperatorError, EvalError) as exc:
            # a lambda that stopped at the deadline fails as an EvalError: the clock, not the text, says why
            timed_out = isinstance(exc, TimeLimitReached) or _clock.monotonic() > self.deadline
            self.timed_out |= timed_out
            return None, str(exc), _failure_of(exc, timed_out), ctx.warnings
        except Exception as exc:  # a bug in an operator: report it on the node, keep the app alive
            log.exception("operator %s failed on step %s", node.call.operator, node.step)
            return None, f"internal error: {type(exc).__name__}: {exc}", Failure(FailureKind.INTERNAL), ctx.warnings

    def inputs_of(self, p: PlannedNode) -> list[Any]:
        """The results of `p`'s children, as the node was given them (the answer's sentence reads an arg-max's
        runner-ups from its input)."""
        return [self.cache[json.dumps(c.node.to_json(), sort_keys=True)][0] for c in p.children]

    def _context(self, node: Node, warnings: list[str]) -> OpContext:
        ctx = OpContext(
            store=self.store,
            reference_date=self.reference_date,
            eval=self._eval_context(()),
            retriever=self.retriever,
            extractor=self.extractor,
            question=node.question,
            warnings=warnings,
            cancel=self.cancel,
            deadline=self.deadline,
            count=self.count,
        )
        return ctx

    def _eval_context(self, quds: tuple) -> EvalContext:
        now = self.reference if isinstance(self.reference, datetime) else None
        return EvalContext(reference_date=self.reference_date, now=now, quds=quds, deadline=self.deadline)

    def _arguments(self, p: PlannedNode, child_results: list[Any]) -> tuple[dict[str, Any], list[Any]]:
        """The operator's arguments (sub-results in place of QUD(...), bound functions, plain values) and the
        sub-results that its functions name."""
        spec = SIGNATURES[p.node.call.operator]
        args: dict[str, Any] = {}
        referenced: list[Any] = []
        position = 0
        for name, value in p.node.call.args:
            kind = spec.param(name).kind  # type: ignore[union-attr]
            if kind == "input":
                assert isinstance(value, Qud)
                args[name] = child_results[position]
                position += 1
            elif kind == "function":
                quds = value.quds if isinstance(value, Lambda) else ()
                referenced.extend(child_results[position : position + len(quds)])
                values = tuple(_qud_value(r) for r in child_results[position : position + len(quds)])
                position += len(quds)
                args[name] = p.compiled[name].bind(self._eval_context(values))
            elif kind == "condition":
                args[name] = p.compiled[name]
            elif kind == "types":
                args[name] = [c.bind(self._eval_context(())) for c in p.compiled[name]]
            elif kind == "text_list":
                args[name] = (value,) if isinstance(value, str) else tuple(value)
            else:
                args[name] = value
        return args, referenced


def _unrun(p: PlannedNode) -> tuple[NodeReport, str | None]:
    """Reports for a tree that will not run: invalid nodes say why, the others say they did not run."""
    children = [_unrun(c) for c in p.children]
    node = p.node
    first = None
    if p.problems:
        error, failure = "invalid step: " + "; ".join(p.problems), Failure(FailureKind.INVALID_STEP)
        first = f"{node.call.operator} (“{node.question}”) failed: {error} [step: {node.step}]"
    else:
        error, failure = "not run: the tree has invalid steps", Failure(FailureKind.NOT_RUN)
    for _, child_first in children:
        first = first or child_first
    report = NodeReport(node.call.operator, node.question, node.step, None, 0.0, error, tuple(r for r, _ in children),
                        failure=failure)
    return report, first


def _reused(report: NodeReport) -> NodeReport:
    """`report` and those below it as kept from an earlier run: nothing of them ran now."""
    return replace(report, seconds=0.0, reused=True, children=tuple(_reused(c) for c in report.children))


def _failure_of(exc: Exception, timed_out: bool) -> Failure:
    """The typed failure of an operator or lambda error."""
    if isinstance(exc, MissingAttribute):
        return Failure(FailureKind.MISSING_ATTRIBUTE, exc.attribute, exc.sources)
    return Failure(FailureKind.TIME_LIMIT if timed_out else FailureKind.FAILED)


def _qud_value(result: Any) -> Any:
    """What `QUD("...")` (or `QUD("...").result`) means inside a lambda: the scalar, or the list of rows."""
    return result.value if isinstance(result, Scalar) else result


def execute(
    tree: Node,
    store: Any,
    reference_date: date | datetime,
    retriever: Retriever | None = None,
    extractor: Extractor | None = None,
    cancel: Any = None,
    *,
    time_limit: float = TIME_LIMIT,
    count: Callable[[str, int, int, str], None] | None = None,
    reuse: Any = None,
) -> Answer:
    """Plan and run `tree` against `store`; "today" is `reference_date`. Never raises on bad trees or data:
    problems come back in `Answer.error` and on the nodes of `Answer.tree`. Cancelling gives error "cancelled".
    `count(stage, done, total, unit)` receives live counts between the same chunks of work where `cancel` is
    looked at ("reading", 12400, 35136, "events"); it must not block. `reuse` (app.retrieve.cache.ResultCache)
    keeps each step's result for later runs with the same retriever and extractor, and gives back those kept
    (their reports say `reused`; `timings["steps_reused"]` counts them)."""
    if not isinstance(reference_date, date):
        raise TypeError("reference_date must be a date (the day the question is asked about)")
    started = _clock.perf_counter()
    planned = plan(tree)
    planned_at = _clock.perf_counter()
    if not planned.valid:
        report, error = _unrun(planned)
        timings = {"plan": planned_at - started, "execute": 0.0, "total": _clock.perf_counter() - started}
        return Answer(tree.question, None, f"I could not answer this: {error}", report, (), timings, error,
                      AnswerStatus.FAILED)
    run = _Run(store, reference_date, retriever or KeywordRetriever(), extractor or KeyAliasExtractor(),
               cancel_check(cancel), time_limit, count, reuse)
    try:
        result, report = run.run(planned, root=True)
    except Cancelled:
        done = _clock.perf_counter()
        return Answer(tree.question, None, "The question was cancelled.", None, (),
                      {"plan": planned_at - started, "execute": done - planned_at, "total": done - started}, "cancelled",
                      AnswerStatus.CANCELLED)
    done = _clock.perf_counter()
    timings = {"plan": planned_at - started, "execute": done - planned_at, "total": done - started}
    if reuse is not None:
        timings["steps_reused"] = run.reused
    if report.error:
        error = run.first_error or report.error
        if run.timed_out:
            return Answer(tree.question, None, f"The question ran past its time limit ({time_limit:.0f} s): {error}",
                          report, (), timings, error, AnswerStatus.TIMED_OUT)
        return Answer(tree.question, None, f"I could not answer this: {error}", report, (), timings, error,
                      AnswerStatus.FAILED)
    result = in_asked_unit(tree.question, result)  # "how many hours": the seconds of the data as hours
    ids = result_ids(result)
    value = answer_value(tree.call, result)
    if value == []:
        value = None
    if ids:
        text = answer_sentence(tree.question, tree.call, result, report, run.inputs_of(planned))
        return Answer(tree.question, value, text, report, ids, timings)
    # The tree ran and its events ran out somewhere: a count or a sum is 0, a yes/no is no, an arg-max has nothing
    # to compare; the sentence says which step lost them.
    status = AnswerStatus.NONE_FOUND if value is None else AnswerStatus.ANSWERED
    text = nothing_found_sentence(tree.question, tree.call, result, report)
    return Answer(tree.question, value, text, report, (), timings, None, status)
