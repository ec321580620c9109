"""Validation of a parsed step: every argument of the call against its operator's signature.

    validate_call(parse_call('FILTER(l=QUD("x"), filter=lambda attr: open("f"))'))
    # ["filter: function 'open' is not allowed"]

Lambdas, JOIN conditions and converters are compiled by `app.engine.expr`, whose checker reads the syntax's
types; so the validation lives here, above both, and `app.engine.syntax` stays free of the checker.
"""

from __future__ import annotations

from typing import Any, Callable

from app.engine import expr
from app.engine.signatures import SIGNATURES
from app.engine.syntax import Call, FuncRef, Lambda, Qud, Value, format_value


def validate_call(call: Call) -> list[str]:
    """Problems with the call, each naming the argument; empty when the call is fine.

    Lambdas, JOIN conditions and attr_types are compiled by the expression checker, so anything
    outside the whitelist (dunders, imports, unknown functions, comprehension bombs...) shows up here.
    """
    spec = SIGNATURES.get(call.operator)
    if spec is None:
        return [f"unknown operator {call.operator!r} (known: {', '.join(SIGNATURES)})"]
    problems: list[str] = []
    for name, value in call.args:
        param = spec.param(name)
        if param is None:
            problems.append(f"{call.operator} has no argument {name!r} (expects {spec.usage})")
            continue
        problem = _check_kind(param.kind, value)
        if problem:
            problems.append(f"{name}: {problem}")
    for param in spec.params:
        if param.required and not call.has(param.name):
            problems.append(f"missing argument {param.name!r} ({spec.usage})")
    names, types = call.get("attr_names"), call.get("attr_types")
    if isinstance(names, tuple) and isinstance(types, tuple) and len(names) != len(types):
        problems.append(f"attr_types: {len(types)} types for {len(names)} attr_names")
    return problems


def _check_kind(kind: str, value: Value) -> str | None:
    if kind == "input":
        return None if isinstance(value, Qud) else f"expected QUD(\"...\"), got {format_value(value)}"
    if kind == "text":
        if isinstance(value, str) and value.strip():
            return None
        return f"expected a non-empty string, got {format_value(value)}"
    if kind == "text_list":
        if isinstance(value, str):
            value = (value,)
        if not isinstance(value, tuple) or not value or not all(isinstance(v, str) and v.strip() for v in value):
            return f"expected a list of attribute names, got {format_value(value)}"
        return None
    if kind == "function":
        if not isinstance(value, (Lambda, FuncRef)):
            return f"expected a lambda or a function name, got {format_value(value)}"
        return _compile_problem(expr.compile_function, value)
    if kind == "condition":
        if not isinstance(value, str):
            return f"expected a condition string over i1 and i2, got {format_value(value)}"
        return _compile_problem(expr.compile_condition, value)
    if kind == "types":
        if not isinstance(value, tuple):
            value = (value,)
        for item in value:
            if not isinstance(item, (FuncRef, Lambda)):
                return f"expected converters like [date.fromisoformat, float], got {format_value(item)}"
            problem = _compile_problem(expr.compile_converter, item)
            if problem:
                return problem
        return None
    return f"unknown parameter kind {kind!r}"


def _compile_problem(compile: Callable[[Any], Any], value: Any) -> str | None:
    """What the expression checker finds wrong with `value`, or None when it compiles."""
    try:
        compile(value)
    except expr.ExprError as exc:
        return str(exc)
    return None
