"""The expression compiler: a checked Python AST turned into a tree of closures (no eval/exec/compile).

Each supported AST node type has one method that checks it against the whitelist in
`app.engine.builtins` and returns a closure `f(frame) -> value`. Anything without a method is
refused with a message naming it (`_REFUSED`). Sub-expressions that depend on no parameter are
computed once per question (`_once_per_context`). The public entry points are in `app.engine.expr`.
"""

from __future__ import annotations

import ast
import time as _clock
from typing import Any, Callable

from app.engine import builtins as B
from app.engine.compare import COMPARATORS, EvalError, contains, type_name
from app.engine.values import MISSING, Group, Item

MAX_CONSTANT_TEXT = 2_000
MAX_GENERATORS = 2


class ExprError(ValueError):
    """An expression the engine refuses to run; the message says what is not allowed."""


class Frame:
    """The state of one evaluation: arguments, comprehension variables, remaining steps."""

    __slots__ = ("p0", "p1", "vars", "steps", "ctx")

    def __init__(self, ctx: Any, p0: Any = None, p1: Any = None):
        self.ctx = ctx
        self.p0 = p0
        self.p1 = p1
        self.vars: dict[str, Any] | None = None
        self.steps = B.STEP_BUDGET


Closure = Callable[[Frame], Any]
WRAPPED_ERRORS = (TypeError, ValueError, ArithmeticError, KeyError, IndexError, AttributeError, OverflowError)


def check_name(name: str) -> None:
    if name.startswith("_"):
        raise ExprError(f"names starting with '_' are not allowed: {name!r}")


def dotted_name(node: ast.AST) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


# --- the compiler ------------------------------------------------------------------------------

_COMPARE_SYMBOLS = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}
_CLASS_NAMES = {"date", "datetime", "time", "timedelta", "relativedelta"}


class Compiler:
    def __init__(self, params: tuple[str, ...], root: ast.AST, allow_qud: bool = True, sql_nulls: bool = False):
        self.params = {name: i for i, name in enumerate(params)}
        self.sql_nulls = sql_nulls  # JOIN conditions: a missing value is never equal (or unequal) to anything
        self.locals: list[set[str]] = []
        self.allow_qud = allow_qud
        quds = sorted(
            (n for n in ast.walk(root) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "QUD"),
            key=lambda n: (n.lineno, n.col_offset),
        )
        self.qud_index = {id(n): i for i, n in enumerate(quds)}
        self.n_quds = len(quds)

    def compile(self, node: ast.AST) -> Closure:
        handler = getattr(self, f"_{type(node).__name__}", None)
        if handler is None:
            raise ExprError(_REFUSED.get(type(node).__name__, f"{type(node).__name__} is not allowed in an expression"))
        closure = handler(node)
        if isinstance(node, _FOLDABLE) and self._constant(node):
            return _once_per_context(closure)
        return closure

    def _constant(self, node: ast.AST) -> bool:
        """True when the value depends on no parameter or loop variable (only on the context)."""
        bound = set(self.params).union(*self.locals)
        return not any(isinstance(n, ast.Name) and n.id in bound for n in ast.walk(node))

    # literals and names

    def _Constant(self, node: ast.Constant) -> Closure:
        value = node.value
        if isinstance(value, str) and len(value) > MAX_CONSTANT_TEXT:
            raise ExprError(f"text constant too long ({len(value)} characters, limit {MAX_CONSTANT_TEXT})")
        if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > B.MAX_INT_BITS:
            raise ExprError("number constant too large")
        if value is not None and not isinstance(value, (str, int, float, bool)):
            raise ExprError(f"{type(value).__name__} constants are not allowed")
        return lambda fr: value

    def _Name(self, node: ast.Name) -> Closure:
        name = node.id
        check_name(name)
        for scope in reversed(self.locals):
            if name in scope:
                return lambda fr: fr.vars[name]  # type: ignore[index]
        slot = self.params.get(name)
        if slot == 0:
            return lambda fr: fr.p0
        if slot == 1:
            return lambda fr: fr.p1
        if name in B.FUNCTIONS or name in _CLASS_NAMES:
            raise ExprError(f"{name!r} can only be called here, like {name}(...)")
        known = ", ".join(self.params) or "none"
        raise ExprError(f"name {name!r} is not defined (the parameters are: {known})")

    def _List(self, node: ast.List) -> Closure:
        parts = self._elements(node.elts)
        return lambda fr: [p(fr) for p in parts]

    def _Tuple(self, node: ast.Tuple) -> Closure:
        parts = self._elements(node.elts)
        return lambda fr: tuple(p(fr) for p in parts)

    def _Set(self, node: ast.Set) -> Closure:
        parts = self._elements(node.elts)
        return lambda fr: {p(fr) for p in parts}

    def _Dict(self, node: ast.Dict) -> Closure:
        if any(k is None for k in node.keys):
            raise ExprError("**unpacking is not allowed")
        keys = self._elements(node.keys)  # type: ignore[arg-type]
        values = self._elements(node.values)
        return lambda fr: {k(fr): v(fr) for k, v in zip(keys, values)}

    def _elements(self, elts: list[ast.expr]) -> list[Closure]:
        for e in elts:
            if isinstance(e, ast.Starred):
                raise ExprError("*unpacking is not allowed")
        return [self.compile(e) for e in elts]

    # operators

    def _BoolOp(self, node: ast.BoolOp) -> Closure:
        parts = [self.compile(v) for v in node.values]
        if isinstance(node.op, ast.And):
            if len(parts) == 2:
                a, b = parts
                return lambda fr: a(fr) and b(fr)

            def all_of(fr: Frame) -> Any:
                value: Any = True
                for p in parts:
                    value = p(fr)
                    if not value:
                        return value
                return value
            return all_of
        if len(parts) == 2:
            a, b = parts
            return lambda fr: a(fr) or b(fr)

        def any_of(fr: Frame) -> Any:
            value: Any = False
            for p in parts:
                value = p(fr)
                if value:
                    return value
            return value
        return any_of

    def _UnaryOp(self, node: ast.UnaryOp) -> Closure:
        operand = self.compile(node.operand)
        if isinstance(node.op, ast.Not):
            return lambda fr: not operand(fr)
        if isinstance(node.op, ast.USub):
            return lambda fr: B.negate(operand(fr))
        if isinstance(node.op, ast.UAdd):
            return lambda fr: B.plus(operand(fr))
        raise ExprError("the ~ operator is not allowed")

    def _BinOp(self, node: ast.BinOp) -> Closure:
        op = B.BINARY.get(type(node.op).__name__)
        if op is None:
            raise ExprError(f"the {type(node.op).__name__} operator is not allowed (use + - * / // % **)")
        left, right = self.compile(node.left), self.compile(node.right)
        if isinstance(node.op, (ast.Add, ast.Mult)):  # may build strings/lists: count them
            charged = B.charged
            return lambda fr: charged(fr, op(left(fr), right(fr)))
        return lambda fr: op(left(fr), right(fr))

    def _Compare(self, node: ast.Compare) -> Closure:
        operands = [self.compile(node.left)] + [self.compile(c) for c in node.comparators]
        tests = [self._comparison(op, node, i) for i, op in enumerate(node.ops)]
        if len(tests) == 1:
            test, (a, b) = tests[0], operands
            return lambda fr: test(a(fr), b(fr))

        def chain(fr: Frame) -> bool:
            left = operands[0](fr)
            for i, test in enumerate(tests):
                right = operands[i + 1](fr)
                if not test(left, right):
                    return False
                left = right
            return True
        return chain

    def _comparison(self, op: ast.cmpop, node: ast.Compare, i: int) -> Callable[[Any, Any], bool]:
        symbol = _COMPARE_SYMBOLS.get(type(op))
        if symbol in ("==", "!=") and self.sql_nulls:
            test = COMPARATORS[symbol]
            return lambda a, b: a is not None and b is not None and test(a, b)
        if symbol:
            return COMPARATORS[symbol]
        if isinstance(op, ast.In):
            return lambda a, b: contains(b, a)
        if isinstance(op, ast.NotIn):
            return lambda a, b: not contains(b, a)
        # `is` only against None: identity of other values means nothing here.
        operands = [node.left] + node.comparators
        if not any(isinstance(x, ast.Constant) and x.value is None for x in operands[i : i + 2]):
            raise ExprError("`is` can only test against None (use == otherwise)")
        if isinstance(op, ast.Is):
            return lambda a, b: a is b
        return lambda a, b: a is not b

    def _IfExp(self, node: ast.IfExp) -> Closure:
        test, body, orelse = self.compile(node.test), self.compile(node.body), self.compile(node.orelse)
        return lambda fr: body(fr) if test(fr) else orelse(fr)

    # access

    def _Subscript(self, node: ast.Subscript) -> Closure:
        target = self.compile(node.value)
        if isinstance(node.slice, ast.Slice):
            parts = [self.compile(p) if p is not None else (lambda fr: None) for p in (node.slice.lower, node.slice.upper, node.slice.step)]
            lo, hi, st = parts

            def sliced(fr: Frame) -> Any:
                obj = target(fr)
                if not isinstance(obj, (str, list, tuple)):
                    raise EvalError(f"cannot slice {type_name(obj)}")
                return obj[lo(fr):hi(fr):st(fr)]
            return sliced
        if isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
            key = node.slice.value
            check_name(key)

            def by_key(fr: Frame) -> Any:
                obj = target(fr)
                if type(obj) is Item:
                    value = obj.attrs.get(key, MISSING)
                    if value is MISSING:
                        value = obj.get(key)
                        if value is MISSING:
                            raise EvalError(f"the event has no attribute {key!r}")
                    return value
                return _subscript(obj, key)
            return by_key
        index = self.compile(node.slice)
        return lambda fr: _subscript(target(fr), index(fr))

    def _Attribute(self, node: ast.Attribute) -> Closure:
        name = node.attr
        check_name(name)
        if isinstance(node.value, ast.Call) and name == "result" and _is_qud(node.value):
            return self.compile(node.value)
        dotted = dotted_name(node)
        if dotted and (dotted in B.FUNCTIONS or dotted.split(".")[0] in _CLASS_NAMES):
            raise ExprError(f"{dotted!r} is not allowed here (only calls like date.fromisoformat(...) are)")
        target = self.compile(node.value)

        def attribute(fr: Frame) -> Any:
            obj = target(fr)
            t = type(obj)
            if t is Item or t is Group or isinstance(obj, (Item, Group)):
                value = obj.get(name)
                if value is MISSING:
                    raise EvalError(f"the {'group' if isinstance(obj, Group) else 'event'} has no attribute {name!r}")
                return value
            allowed = B.PROPERTIES.get(t)
            if allowed is not None and name in allowed:
                return getattr(obj, name)
            raise EvalError(f"{type_name(obj)} has no attribute {name!r} that expressions may use")
        return attribute

    def _Call(self, node: ast.Call) -> Closure:
        if _is_qud(node):
            if not self.allow_qud:
                raise ExprError("QUD(...) is not allowed here")
            if len(node.args) != 1 or node.keywords or not isinstance(node.args[0], ast.Constant) or not isinstance(node.args[0].value, str):
                raise ExprError('QUD takes exactly one string, like QUD("my first day at work")')
            i = self.qud_index[id(node)]
            return lambda fr: fr.ctx.quds[i]
        for a in node.args:
            if isinstance(a, ast.Starred):
                raise ExprError("*arguments are not allowed")
        for k in node.keywords:
            if k.arg is None:
                raise ExprError("**arguments are not allowed")
            check_name(k.arg)
        dotted = dotted_name(node.func)
        if dotted is not None:
            parts = dotted.split(".")
            for part in parts:
                check_name(part)
            local = parts[0] in self.params or any(parts[0] in scope for scope in self.locals)
            if not local and (len(parts) == 1 or parts[0] in _CLASS_NAMES):
                return self._function_call(dotted, node)
        if isinstance(node.func, ast.Attribute):
            return self._method_call(node)
        if isinstance(node.func, ast.Lambda):
            raise ExprError("nested lambdas are not allowed")
        raise ExprError("only whitelisted functions and methods can be called")

    def _function_call(self, name: str, node: ast.Call) -> Closure:
        spec = B.FUNCTIONS.get(name)
        if spec is None:
            raise ExprError(f"function {name!r} is not allowed (allowed: {', '.join(sorted(B.FUNCTIONS))})")
        if not spec.min_args <= len(node.args) <= spec.max_args:
            raise ExprError(f"{name}() takes {spec.min_args}..{spec.max_args} positional argument(s), got {len(node.args)}")
        for k in node.keywords:
            if k.arg not in spec.keywords:
                raise ExprError(f"{name}() does not take the keyword {k.arg!r}")
        args = [self.compile(a) for a in node.args]
        keywords = [(k.arg, self.compile(k.value)) for k in node.keywords]
        impl = spec.impl
        charged = B.charged
        if spec.context:
            return lambda fr: impl(fr.ctx)
        if not keywords and not spec.frame and len(args) == 1:
            (a,) = args
            return lambda fr: charged(fr, impl(a(fr)))
        frame = spec.frame

        def call(fr: Frame) -> Any:
            values = [a(fr) for a in args]
            kw = {k: v(fr) for k, v in keywords}  # type: ignore[misc]
            return charged(fr, impl(fr, *values, **kw) if frame else impl(*values, **kw))
        return call

    def _method_call(self, node: ast.Call) -> Closure:
        func = node.func
        assert isinstance(func, ast.Attribute)
        name = func.attr
        check_name(name)
        impls = B.METHODS.get(name)
        if impls is None:
            raise ExprError(f"method {name!r} is not allowed (allowed: {', '.join(sorted(B.METHODS))})")
        if node.keywords:
            raise ExprError(f"keyword arguments to .{name}() are not allowed")
        if len(node.args) > 3:
            raise ExprError(f".{name}() takes at most 3 arguments")
        target = self.compile(func.value)
        args = [self.compile(a) for a in node.args]
        charged = B.charged

        def method(fr: Frame) -> Any:
            obj = target(fr)
            impl = impls.get(type(obj))
            if impl is None:
                impl = next((impls[base] for base in type(obj).__mro__ if base in impls), None)
                if impl is None:
                    raise EvalError(f"{type_name(obj)} has no method {name!r}")
            return charged(fr, impl(obj, *[a(fr) for a in args]))
        return method

    # comprehensions (bounded: at most two `for`, every iteration costs a step)

    def _ListComp(self, node: ast.ListComp) -> Closure:
        return self._comprehension(node, list)

    def _SetComp(self, node: ast.SetComp) -> Closure:
        return self._comprehension(node, set)

    def _GeneratorExp(self, node: ast.GeneratorExp) -> Closure:
        return self._comprehension(node, list)

    def _comprehension(self, node: Any, build: type) -> Closure:
        if len(node.generators) > MAX_GENERATORS:
            raise ExprError(f"at most {MAX_GENERATORS} `for` clauses in a comprehension")
        loops = []
        names: set[str] = set()
        self.locals.append(names)
        try:
            for gen in node.generators:
                if gen.is_async:
                    raise ExprError("async comprehensions are not allowed")
                iterable = self.compile(gen.iter)
                targets = _targets(gen.target)
                names.update(targets)
                conditions = [self.compile(c) for c in gen.ifs]
                loops.append((iterable, targets, conditions))
            element = self.compile(node.elt)
        finally:
            self.locals.pop()
        bound = tuple(names)

        def run(fr: Frame) -> Any:
            if fr.vars is None:
                fr.vars = {}
            saved = {n: fr.vars.get(n, MISSING) for n in bound}
            out: list[Any] = []
            try:
                _loop(fr, loops, 0, element, out)
            finally:
                for n, v in saved.items():
                    if v is MISSING:
                        fr.vars.pop(n, None)
                    else:
                        fr.vars[n] = v
            return build(out) if build is not list else out
        return run


_FOLDABLE = (
    ast.Call, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.IfExp, ast.Subscript, ast.Attribute,
    ast.List, ast.Tuple, ast.Set, ast.Dict, ast.ListComp, ast.SetComp, ast.GeneratorExp,
)


def _once_per_context(closure: Closure) -> Closure:
    """`date.today() - relativedelta(months=6)` is computed once per question, not once per item."""
    token = object()

    def cached(fr: Frame) -> Any:
        cache = fr.ctx.cache
        try:
            return cache[token]
        except KeyError:
            value = cache[token] = closure(fr)
            return value
    return cached


def _loop(fr: Frame, loops: list, depth: int, element: Closure, out: list) -> None:
    iterable, targets, conditions = loops[depth]
    values = iterable(fr)
    if isinstance(values, Group):
        values = values.items
    if not isinstance(values, (list, tuple, set, frozenset, str)):
        raise EvalError(f"cannot iterate over {type_name(values)}")
    env = fr.vars
    last = depth == len(loops) - 1
    for value in values:
        fr.steps -= 1
        if fr.steps < 0:
            raise EvalError(f"too much work: more than {B.STEP_BUDGET} steps for one item")
        if not fr.steps & 1023 and fr.ctx.deadline is not None and _clock.monotonic() > fr.ctx.deadline:
            raise EvalError("time limit reached")
        if len(targets) == 1:
            env[targets[0]] = value  # type: ignore[index]
        else:
            if not isinstance(value, (tuple, list)) or len(value) != len(targets):
                raise EvalError(f"cannot unpack {type_name(value)} into {len(targets)} names")
            for t, v in zip(targets, value):
                env[t] = v  # type: ignore[index]
        if conditions and not all(c(fr) for c in conditions):
            continue
        if last:
            out.append(element(fr))
            if len(out) > B.MAX_ITEMS:
                raise EvalError(f"list too long (limit {B.MAX_ITEMS})")
        else:
            _loop(fr, loops, depth + 1, element, out)


def _targets(target: ast.AST) -> list[str]:
    if isinstance(target, ast.Name):
        check_name(target.id)
        return [target.id]
    if isinstance(target, ast.Tuple) and all(isinstance(e, ast.Name) for e in target.elts) and len(target.elts) <= 4:
        for e in target.elts:
            check_name(e.id)  # type: ignore[attr-defined]
        return [e.id for e in target.elts]  # type: ignore[attr-defined]
    raise ExprError("a comprehension may only bind plain names")


def _is_qud(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "QUD"


def _subscript(obj: Any, key: Any) -> Any:
    t = type(obj)
    if t is Item or t is Group or isinstance(obj, (Item, Group)):
        t = Group if isinstance(obj, Group) else Item
        if isinstance(key, str):
            if key.startswith("_"):
                raise EvalError(f"attribute names starting with '_' are not allowed: {key!r}")
            value = obj.get(key)
            if value is MISSING:
                raise EvalError(f"the {'event' if t is Item else 'group'} has no attribute {key!r}")
            return value
        if t is Group and isinstance(key, int):
            return obj.items[key]
        raise EvalError(f"cannot index an event with {type_name(key)}")
    if t in (list, tuple, str):
        if not isinstance(key, int) or isinstance(key, bool):
            raise EvalError(f"list indices must be integers, not {type_name(key)}")
        return obj[key]
    if t is dict:
        return obj[key]
    raise EvalError(f"cannot index {type_name(obj)}")


_REFUSED = {
    "Lambda": "nested lambdas are not allowed",
    "NamedExpr": "assignment expressions (:=) are not allowed",
    "JoinedStr": "f-strings are not allowed",
    "FormattedValue": "f-strings are not allowed",
    "DictComp": "dict comprehensions are not allowed",
    "Await": "await is not allowed",
    "Yield": "yield is not allowed",
    "YieldFrom": "yield is not allowed",
    "Starred": "*unpacking is not allowed",
    "Slice": "slices are only allowed inside [...]",
}
