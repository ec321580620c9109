"""Malicious and malformed step arguments are rejected, and none of them runs anything.

Proof that nothing ran: during validation and evaluation, os.system, subprocess.Popen, open, eval,
exec, code compilation and imports of os/subprocess/sys/shutil/builtins/importlib are replaced by
tripwires that record any call; the tests run in an empty folder that must stay empty; and a
comparison counts how often the interpreter touched the item at all.
"""

from __future__ import annotations

import ast
import builtins
import os
import subprocess
import time
from contextlib import contextmanager
from datetime import date, datetime, timezone

import pytest

from app.engine.compare import EvalError
from app.engine.expr import EvalContext, ExprError, compile_condition, compile_converter, compile_function
from app.engine.checking import validate_call
from app.engine.syntax import FuncRef, Lambda, StepSyntaxError, parse_call
from app.engine.values import Item

FORBIDDEN_MODULES = {"os", "subprocess", "sys", "shutil", "builtins", "importlib", "ctypes", "pickle"}

ATTACKS = [
    # imports and dunders
    'lambda attr: __import__("os").system("touch PWNED")',
    "lambda attr: attr.__class__.__mro__[1].__subclasses__()",
    "lambda attr: ().__class__.__bases__[0].__subclasses__()",
    'lambda attr: attr["start"].__class__.__init__.__globals__["sys"]',
    "lambda attr: datetime.now.__globals__",
    "lambda attr: date.today.__self__",
    "lambda attr: attr.get.__func__",
    'lambda attr: attr["_private"]',
    'lambda attr: getattr(attr, "__class__")',
    "lambda attr: type(attr)",
    "lambda attr: globals()",
    "lambda attr: vars()",
    "lambda attr: breakpoint()",
    # files, processes, code
    'lambda attr: open("PWNED", "w").write("x")',
    'lambda attr: eval("1 + 1")',
    'lambda attr: exec("import os")',
    'lambda attr: compile("1", "f", "eval")',
    'lambda attr: os.system("touch PWNED")',
    'lambda attr: subprocess.run(["touch", "PWNED"])',
    # syntax the language leaves out
    "lambda attr: (y := 5)",
    'lambda attr: f"{attr.__class__}"',
    """lambda attr: f"{open('PWNED', 'w')}" """,
    'lambda attr, x=__import__("os"): x.system("touch PWNED")',
    "lambda attr, *rest: rest",
    "lambda attr: (lambda: 1)()",
    "lambda attr: [*attr]",
    "lambda attr: {**attr}",
    "lambda attr: {k: 1 for k in attr}",
    "lambda attr: [x for x in attr for y in attr for z in attr]",
    "lambda attr: (yield 1)",
    'lambda attr: attr["title"].format(attr)',
    'lambda attr: "{0.__class__}".format(attr)',
    'lambda attr: "%s" % attr',
    "lambda attr: attr is attr",
    "lambda attr: ~attr",
    "lambda attr: 1 << 100000",
    # resource bombs
    "lambda attr: [x for x in range(10**9)]",
    'lambda attr: [[1] * 100000 for a in "a" * 100000 for b in "b" * 100000]',
    'lambda attr: [[a] * 100000 for a in "a" * 100000 for b in "b" * 100000]',
    'lambda attr: "x" * 10**9',
    "lambda attr: [0] * 10**9",
    "lambda attr: 2 ** 10 ** 10",
    "lambda attr: 9 ** 9 ** 9",
    "lambda attr: 10 ** 200",
    'lambda attr: ("a" * 50000).replace("a", "b" * 1000)',
    'lambda attr: ",".join(["x" * 90000, "y" * 90000])',
    'lambda attr: sum(len(s * 1000) for s in ["a" * 90] * 5000)',
    "lambda attr: " + "1 + " * 3000 + "1",
    "lambda attr: " + "(" * 500 + "1" + ")" * 500,
    'lambda attr: "' + "a" * 3000 + '"',
    "lambda attr: " + "9" * 200,
]

CONDITION_ATTACKS = [
    "__import__('os').system('touch PWNED')",
    "i1.__dict__ == i2.__dict__",
    "i1.start.__class__ is i2",
    "open('PWNED', 'w')",
    "lambda i1, i2: True",
    "i1.x == i2.x; import os",
    "[x for x in range(10**9)]",
]

TYPE_ATTACKS = ["__import__", "eval", "os.system", "open", "lambda v: open('PWNED', 'w')", "lambda v: v.__class__", "type"]


class Tripwires:
    def __init__(self) -> None:
        self.calls: list[str] = []

    def recorder(self, name: str, original=None, allow=None):
        def record(*args, **kwargs):
            if allow is not None and allow(*args, **kwargs):
                return original(*args, **kwargs)
            self.calls.append(name)
            raise RuntimeError(f"tripwire: {name}")

        return record


@contextmanager
def tripwired():
    wires = Tripwires()
    real_import, real_compile = builtins.__import__, builtins.compile
    saved = (os.system, subprocess.Popen, builtins.open, builtins.eval, builtins.exec, builtins.compile, builtins.__import__)
    os.system = wires.recorder("os.system")
    subprocess.Popen = wires.recorder("subprocess.Popen")  # type: ignore[misc]
    builtins.open = wires.recorder("open")
    builtins.eval = wires.recorder("eval")
    builtins.exec = wires.recorder("exec")
    # ast.parse compiles to an AST only; any other compile() is a code object and is refused
    builtins.compile = wires.recorder(
        "compile", real_compile, allow=lambda *a, **k: bool((a[3] if len(a) > 3 else k.get("flags", 0)) & ast.PyCF_ONLY_AST)
    )
    builtins.__import__ = wires.recorder(
        "__import__", real_import, allow=lambda name, *a, **k: name.split(".")[0] not in FORBIDDEN_MODULES
    )
    try:
        yield wires
    finally:
        (os.system, subprocess.Popen, builtins.open, builtins.eval, builtins.exec, builtins.compile, builtins.__import__) = saved


class CountingItem(Item):
    """An item that counts attribute reads, to show that rejected expressions never ran."""

    __slots__ = ()
    reads = 0

    def get(self, key, default=None):
        CountingItem.reads += 1
        return super().get(key, default)


def _attempt(kind: str, text: str, item: Item) -> str:
    """'rejected: ...' at validation, 'failed: ...' at evaluation; anything else is a test failure."""
    ctx = EvalContext(reference_date=date(2024, 5, 1), deadline=time.monotonic() + 20)
    try:
        if kind == "lambda":
            problems = validate_call(parse_call(f'FILTER(l=QUD("x"), filter={text})'))
            fn = compile_function(Lambda(text)) if not problems else None
        elif kind == "condition":
            problems = validate_call(parse_call(f'JOIN(l1=QUD("a"), l2=QUD("b"), condition={text!r})'))
            fn = compile_condition(text) if not problems else None
        else:
            problems = validate_call(parse_call(f'EXTRACT(l=QUD("x"), attr_names=["a"], attr_types=[{text}])'))
            fn = compile_converter(Lambda(text) if text.startswith("lambda") else FuncRef(text)) if not problems else None
    except (StepSyntaxError, ExprError) as exc:
        return f"rejected: {exc}"
    if problems:
        return "rejected: " + "; ".join(problems)
    bound = fn.bind(ctx)
    try:
        value = bound(item, item) if kind == "condition" else bound(item)
    except EvalError as exc:
        return f"failed: {exc}"
    return f"RAN: {value!r}"[:200]


ITEM = CountingItem({"id": "e1", "start": datetime(2024, 3, 1, 19, tzinfo=timezone.utc), "title": "Dinner"}, ["e1"])


@pytest.mark.parametrize("text", ATTACKS)
def test_lambda_attacks_are_rejected_and_nothing_runs(text, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with tripwired() as wires:
        outcome = _attempt("lambda", text, ITEM)
    assert outcome.startswith(("rejected: ", "failed: ")), outcome
    assert wires.calls == []
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("text", CONDITION_ATTACKS)
def test_condition_attacks_are_rejected(text, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with tripwired() as wires:
        outcome = _attempt("condition", text, ITEM)
    assert outcome.startswith(("rejected: ", "failed: ")), outcome
    assert wires.calls == []
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("text", TYPE_ATTACKS)
def test_attr_types_attacks_are_rejected(text, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with tripwired() as wires:
        outcome = _attempt("types", text, ITEM)
    assert outcome.startswith("rejected: "), outcome
    assert wires.calls == []


def test_statically_refused_attacks_never_touch_the_item():
    """Everything outside the whitelist is refused before evaluation: the item is never read."""
    static = [t for t in ATTACKS if "range(" not in t and "**" not in t and "*" not in t.split(":", 1)[1]
              and "replace" not in t and "join" not in t and "%" not in t]
    CountingItem.reads = 0
    for text in static:
        assert _attempt("lambda", text, ITEM).startswith("rejected: "), text
    assert CountingItem.reads == 0


@pytest.mark.parametrize(
    "text, message",
    [
        ('lambda attr: __import__("os")', "names starting with '_' are not allowed: '__import__'"),
        ("lambda attr: attr.__class__", "names starting with '_' are not allowed: '__class__'"),
        ('lambda attr: open("f")', "function 'open' is not allowed"),
        ("lambda attr: (y := 5)", "assignment expressions (:=) are not allowed"),
        ('lambda attr: f"{attr}"', "f-strings are not allowed"),
        ("lambda attr, x=1: x", "lambda parameters must be plain names (no defaults"),
        ("lambda attr: (lambda: 1)()", "nested lambdas are not allowed"),
        ('lambda attr: attr["t"].format(1)', "method 'format' is not allowed"),
        ("lambda attr: [x for x in attr for y in attr for z in attr]", "at most 2 `for` clauses"),
        ("lambda attr: attr is 3", "`is` can only test against None"),
        ("lambda attr: " + "1 + " * 3000 + "1", "too long"),
        ("lambda attr: " + "1 + " * 300 + "1", "too complex"),
    ],
)
def test_rejections_say_what_was_not_allowed(text, message):
    with pytest.raises(ExprError) as info:
        compile_function(Lambda(text))
    assert message in str(info.value)


@pytest.mark.parametrize(
    "text, message",
    [
        ("lambda attr: 2 ** 10 ** 10", "exponent too large"),
        ("lambda attr: 10 ** 200", "exponent too large"),
        ("lambda attr: 1000 ** 60", "number too large"),
        ('lambda attr: "x" * 10**9', "repetition too long"),
        ('lambda attr: [[a] * 100000 for a in "a" * 100000 for b in "b" * 100000]', "too much work"),
        ('lambda attr: [[1] * 100000 for a in "a" * 100000 for b in "b" * 100000]', "list too long"),
        ('lambda attr: ("a" * 50000).replace("a", "b" * 1000)', "text too long after replace()"),
        ('lambda attr: "%s" % attr', "cannot compute str % CountingItem"),
    ],
)
def test_runtime_limits_name_the_limit(text, message):
    fn = compile_function(Lambda(text)).bind(EvalContext(reference_date=date(2024, 5, 1)))
    with pytest.raises(EvalError) as info:
        fn(ITEM)
    assert message in str(info.value)


def test_attack_counts():
    assert len(ATTACKS) + len(CONDITION_ATTACKS) + len(TYPE_ATTACKS) >= 60
