"""The paper's step syntax: one operator call per tree node, parsed into data and printed back.

    call = parse_call('FILTER(l=QUD("songs with date"), filter=lambda attr: attr["start_date"].year == 2023)')
    call.operator                     # "FILTER"
    call.get("l")                     # Qud(question="songs with date")
    call.quds()                       # [Qud("songs with date")]   (order of appearance, lambdas included)
    format_call(call)                 # the same text, canonical spacing

`app.engine.checking.validate_call` checks a parsed call against the operator's signature.

Parsing uses Python's `ast` module only to read the text; nothing is evaluated. Argument values are
literals (strings, numbers, booleans, None, lists), `QUD("...")` sub-questions, lambdas (kept as their
source text and checked by `app.engine.expr`) and dotted function names (`len`, `date.fromisoformat`).
Positional arguments are accepted and named by the operator's signature; the printer always names them.
"""

from __future__ import annotations

import ast
import json
import math
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Union

from app.engine.signatures import SIGNATURES

MAX_STEP_CHARS = 20_000
MAX_STEP_NODES = 2_000


class StepSyntaxError(ValueError):
    """A step that cannot be read as one operator call. The message says where and why."""


@dataclass(frozen=True)
class Qud:
    """A sub-question, `QUD("...")`: its subtree is the node's child at the same position."""

    question: str


@dataclass(frozen=True)
class FuncRef:
    """A whitelisted function by name: `len`, `float`, `date.fromisoformat`."""

    name: str


@dataclass(frozen=True)
class Lambda:
    """A lambda, kept as its source text; `app.engine.expr` checks and compiles it."""

    source: str

    @cached_property
    def quds(self) -> tuple[Qud, ...]:
        """`QUD("...")` calls inside the lambda body, in order of appearance."""
        try:
            tree = ast.parse(self.source, mode="eval")
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return ()
        return tuple(Qud(q) for q in _qud_calls(tree))


Value = Union[str, int, float, bool, None, Qud, Lambda, FuncRef, tuple]


@dataclass(frozen=True)
class Call:
    """One operator call: the operator's name and its arguments in order, all named."""

    operator: str
    args: tuple[tuple[str, Value], ...]

    def get(self, name: str, default: Any = None) -> Any:
        for key, value in self.args:
            if key == name:
                return value
        return default

    def has(self, name: str) -> bool:
        return any(key == name for key, _ in self.args)

    def quds(self) -> list[Qud]:
        """Every sub-question in the step, in order of appearance (the children's order)."""
        found: list[Qud] = []
        for _, value in self.args:
            _collect_quds(value, found)
        return found

    def __str__(self) -> str:
        return format_call(self)


def _collect_quds(value: Value, found: list[Qud]) -> None:
    if isinstance(value, Qud):
        found.append(value)
    elif isinstance(value, Lambda):
        found.extend(value.quds)
    elif isinstance(value, tuple):
        for v in value:
            _collect_quds(v, found)


def _qud_calls(tree: ast.AST) -> list[str]:
    calls = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "QUD"
        and len(node.args) == 1
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ]
    calls.sort(key=lambda n: (n.lineno, n.col_offset))
    return [n.args[0].value for n in calls]  # type: ignore[attr-defined]


# --- parsing -------------------------------------------------------------------------------


def parse_call(text: str) -> Call:
    """Read one step like `ARGMAX(l=QUD("..."), arg_attr_name="n")`. Raises StepSyntaxError."""
    if not isinstance(text, str):
        raise StepSyntaxError(f"a step must be text, not {type(text).__name__}")
    text = text.strip()
    if not text:
        raise StepSyntaxError("empty step")
    if len(text) > MAX_STEP_CHARS:
        raise StepSyntaxError(f"step too long: {len(text)} characters (at most {MAX_STEP_CHARS})")
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as exc:
        raise StepSyntaxError(f"not an operator call: {exc.msg} at line {exc.lineno}, column {exc.offset}") from None
    except (ValueError, RecursionError, MemoryError) as exc:
        raise StepSyntaxError(f"not an operator call: {type(exc).__name__}: {exc}") from None
    count = sum(1 for _ in ast.walk(tree))
    if count > MAX_STEP_NODES:
        raise StepSyntaxError(f"step too complex: {count} syntax nodes (at most {MAX_STEP_NODES})")
    node = tree.body
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
        raise StepSyntaxError("a step must be one operator call like FILTER(l=QUD(\"...\"), filter=...)")
    operator = node.func.id
    spec = SIGNATURES.get(operator)
    args: list[tuple[str, Value]] = []
    for index, arg in enumerate(node.args):
        if isinstance(arg, ast.Starred):
            raise StepSyntaxError(f"{operator}: *arguments are not allowed")
        if spec is None:
            raise StepSyntaxError(f"unknown operator {operator!r}: positional arguments cannot be named")
        if index >= len(spec.params):
            raise StepSyntaxError(f"{operator}: too many positional arguments (expects {spec.usage})")
        args.append((spec.params[index].name, _value(arg, text, spec.params[index].name)))
    for kw in node.keywords:
        if kw.arg is None:
            raise StepSyntaxError(f"{operator}: **arguments are not allowed")
        if any(name == kw.arg for name, _ in args):
            raise StepSyntaxError(f"{operator}: argument {kw.arg!r} given twice")
        args.append((kw.arg, _value(kw.value, text, kw.arg)))
    return Call(operator, tuple(args))


def _value(node: ast.AST, text: str, where: str) -> Value:
    if isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, float) and not math.isfinite(value):
            raise StepSyntaxError(f"argument {where!r}: number out of range")
        if value is None or isinstance(value, (str, bool, int, float)):
            return value
        raise StepSyntaxError(f"argument {where!r}: {type(value).__name__} literals are not allowed")
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
        inner = node.operand.value
        if isinstance(inner, (int, float)) and not isinstance(inner, bool) and math.isfinite(inner):
            return -inner
    if isinstance(node, (ast.List, ast.Tuple)):
        return tuple(_value(elt, text, where) for elt in node.elts)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "QUD":
        if (
            len(node.args) == 1
            and not node.keywords
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            return Qud(node.args[0].value)
        raise StepSyntaxError(f"argument {where!r}: QUD takes exactly one string, like QUD(\"songs I listened to\")")
    if isinstance(node, ast.Lambda):
        source = ast.get_source_segment(text, node)
        if source is None:
            raise StepSyntaxError(f"argument {where!r}: cannot locate the lambda's text")
        return Lambda(source.strip())
    dotted = _dotted_name(node)
    if dotted is not None:
        return FuncRef(dotted)
    raise StepSyntaxError(
        f"argument {where!r}: {type(node).__name__} is not allowed here "
        f"(use a literal, QUD(\"...\"), a lambda or a function name) at column {getattr(node, 'col_offset', 0) + 1}"
    )


def _dotted_name(node: ast.AST) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


# --- printing ------------------------------------------------------------------------------


def format_call(call: Call) -> str:
    """The canonical text of a call: `OP(name=value, ...)`; parse_call(format_call(c)) == c."""
    return f"{call.operator}({', '.join(f'{name}={format_value(value)}' for name, value in call.args)})"


def format_value(value: Value) -> str:
    if isinstance(value, Qud):
        return f"QUD({_string(value.question)})"
    if isinstance(value, Lambda):
        return value.source
    if isinstance(value, FuncRef):
        return value.name
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, tuple):
        return "[" + ", ".join(format_value(v) for v in value) + "]"
    if value is None or isinstance(value, (bool, int, float)):
        return repr(value)
    raise TypeError(f"cannot print {type(value).__name__} in a step")


def _string(text: str) -> str:
    # JSON string escapes are all valid Python escapes, and double quotes match the paper's style.
    return json.dumps(text, ensure_ascii=False)
