"""A small interpreter for the expressions inside steps: lambdas, JOIN conditions, attr_types.

The text is parsed with `ast`, checked against the whitelist in `app.engine.builtins`, and compiled
ONCE into a tree of Python closures; running it calls those closures. Nothing is passed to eval,
exec or compile(); there is no attribute access outside the whitelist (and never to names starting
with "_"), no imports, no assignment, no f-strings, no nested lambdas. Work is bounded: source length
and node count at compile time; a step budget for loops, size limits on built strings and lists, an
integer size limit and a deadline at run time.

    fn = compile_function(Lambda('lambda attr: attr["start_time"].hour >= 18'))
    run = fn.bind(EvalContext(reference_date=date(2024, 5, 1)))
    run(item)                                   # True / False, or raises EvalError

    cond = compile_condition("i1.start <= i2.end and i2.start <= i1.end")
    cond.bind(ctx)(left_item, right_item)

A rejected expression raises ExprError with what was not allowed; a failure on one input raises
EvalError (the operator counts and reports those per item).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from datetime import date, datetime, time
from typing import Any, Callable

from app.engine import builtins as B
from app.engine.compare import EvalError
from app.engine.compiler import WRAPPED_ERRORS, Closure, ExprError, Frame, check_name, Compiler, dotted_name
from app.engine.syntax import FuncRef, Lambda

__all__ = [
    "EvalContext", "EvalError", "ExprError", "CompiledFunction",
    "compile_function", "compile_condition", "compile_converter", "compile_expression",
]

MAX_SOURCE = 4_000
MAX_NODES = 400


@dataclass
class EvalContext:
    """What an expression may know beyond its arguments.

    reference_date: "today" for date.today(); never the machine's clock
    now:            datetime.now(); by default the end of the reference day (naive wall time)
    quds:           values of the QUD("...") calls inside the expression, in order of appearance
    deadline:       time.monotonic() value after which loops stop with EvalError
    """

    reference_date: date
    now: datetime | None = None
    quds: tuple = ()
    deadline: float | None = None
    cache: dict = field(default_factory=dict, repr=False)  # values of constant sub-expressions

    def __post_init__(self) -> None:
        if isinstance(self.reference_date, datetime):
            self.now = self.now or self.reference_date
            self.reference_date = self.reference_date.date()
        if self.now is None:
            self.now = datetime.combine(self.reference_date, time(23, 59, 59))


@dataclass
class CompiledFunction:
    """A checked, compiled expression with `len(params)` arguments; `bind(ctx)` gives a Python callable."""

    source: str
    params: tuple[str, ...]
    body: Closure = field(repr=False)
    n_quds: int = 0
    tree: ast.AST | None = field(default=None, repr=False)

    def bind(self, ctx: EvalContext) -> Callable[..., Any]:
        body = self.body
        if len(self.params) == 2:
            def run2(a: Any, b: Any) -> Any:
                try:
                    return body(Frame(ctx, a, b))
                except EvalError:
                    raise
                except WRAPPED_ERRORS as exc:
                    raise EvalError(f"{type(exc).__name__}: {exc}") from None
                except (RecursionError, MemoryError):
                    raise EvalError("expression too complex to evaluate") from None
            return run2

        def run1(a: Any) -> Any:
            try:
                return body(Frame(ctx, a))
            except EvalError:
                raise
            except WRAPPED_ERRORS as exc:
                raise EvalError(f"{type(exc).__name__}: {exc}") from None
            except (RecursionError, MemoryError):
                raise EvalError("expression too complex to evaluate") from None
        return run1


# --- public entry points --------------------------------------------------------------------


def _parse(source: str, what: str) -> ast.Expression:
    if not isinstance(source, str):
        raise ExprError(f"{what} must be text")
    if len(source) > MAX_SOURCE:
        raise ExprError(f"{what} too long: {len(source)} characters (limit {MAX_SOURCE})")
    if "\x00" in source:
        raise ExprError(f"{what} contains a NUL character")
    try:
        tree = ast.parse(source.strip(), mode="eval")
    except SyntaxError as exc:
        raise ExprError(f"{what} is not a valid expression: {exc.msg} (column {exc.offset})") from None
    except (ValueError, RecursionError, MemoryError) as exc:
        raise ExprError(f"{what} cannot be read: {type(exc).__name__}") from None
    count = sum(1 for _ in ast.walk(tree))
    if count > MAX_NODES:
        raise ExprError(f"{what} too complex: {count} syntax nodes (limit {MAX_NODES})")
    return tree


def compile_function(value: Lambda | FuncRef | str, arity: int = 1) -> CompiledFunction:
    """A lambda with `arity` plain parameters, or a whitelisted function name (`len`)."""
    if isinstance(value, FuncRef):
        return _function_ref(value.name, arity)
    source = value.source if isinstance(value, Lambda) else value
    tree = _parse(source, "lambda")
    node = tree.body
    if not isinstance(node, ast.Lambda):
        if isinstance(node, (ast.Name, ast.Attribute)):
            dotted = dotted_name(node)
            if dotted:
                return _function_ref(dotted, arity)
        raise ExprError("expected a lambda like `lambda attr: ...` or a function name like `len`")
    args = node.args
    if args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs or args.defaults or args.kw_defaults:
        raise ExprError("lambda parameters must be plain names (no defaults, *args, **kwargs)")
    params = tuple(a.arg for a in args.args)
    if len(params) != arity:
        raise ExprError(f"the lambda must take exactly {arity} parameter(s), it takes {len(params)}")
    for p in params:
        check_name(p)
        if p in B.FUNCTIONS or p == "QUD":
            raise ExprError(f"parameter name {p!r} hides a function")
    compiler = Compiler(params, node)
    body = _guarded(compiler.compile, node.body)
    return CompiledFunction(source.strip(), params, body, compiler.n_quds, node.body)


def compile_condition(source: str) -> CompiledFunction:
    """A JOIN condition over `i1` (an item of l1) and `i2` (an item of l2)."""
    tree = _parse(source, "condition")
    if isinstance(tree.body, ast.Lambda):
        raise ExprError("a JOIN condition is an expression over i1 and i2, not a lambda")
    compiler = Compiler(("i1", "i2"), tree.body, allow_qud=False, sql_nulls=True)
    body = _guarded(compiler.compile, tree.body)
    return CompiledFunction(source.strip(), ("i1", "i2"), body, 0, tree.body)


def compile_expression(node: ast.AST, params: tuple[str, ...], source: str = "") -> CompiledFunction:
    """Compile part of an already checked JOIN condition (the planner compiles sides and residuals)."""
    compiler = Compiler(params, node, allow_qud=False, sql_nulls=True)
    return CompiledFunction(source, params, compiler.compile(node), 0, node)


def compile_converter(value: FuncRef | Lambda | str) -> CompiledFunction:
    """One attr_types entry: a known converter name (`date.fromisoformat`, `float`, `list`) or a lambda."""
    if isinstance(value, str):
        value = FuncRef(value)
    if isinstance(value, Lambda):
        return compile_function(value)
    convert = B.CONVERTERS.get(value.name)
    if convert is None:
        raise ExprError(f"unknown type {value.name!r} (allowed: {', '.join(B.CONVERTERS)})")
    return CompiledFunction(value.name, ("value",), lambda fr: None if fr.p0 is None else convert(fr.p0))


def _guarded(compile_node: Callable[[ast.AST], Closure], node: ast.AST) -> Closure:
    try:
        return compile_node(node)
    except RecursionError:
        raise ExprError("expression nested too deeply") from None


def _function_ref(name: str, arity: int) -> CompiledFunction:
    for part in name.split("."):
        check_name(part)
    spec = B.FUNCTIONS.get(name)
    if spec is None:
        raise ExprError(f"function {name!r} is not allowed (allowed: {', '.join(sorted(B.FUNCTIONS))})")
    if not spec.min_args <= arity <= spec.max_args or spec.context:
        raise ExprError(f"function {name!r} cannot be applied to {arity} value(s)")
    impl = spec.impl
    if arity == 2:
        body: Closure = (lambda fr: impl(fr, fr.p0, fr.p1)) if spec.frame else (lambda fr: impl(fr.p0, fr.p1))
    else:
        body = (lambda fr: impl(fr, fr.p0)) if spec.frame else (lambda fr: impl(fr.p0))
    return CompiledFunction(name, ("x", "y")[:arity], body)
