"""The operator engine (OTX): operator trees, their step syntax, and the executor.

    from app.engine import Node, execute
    tree = Node.from_json(json_text)
    answer = execute(tree, store, reference_date=date(2024, 5, 1))   # -> app.answer.Answer

Modules: syntax (parse/print one step), checking (validate it), tree (Node), expr + compiler + builtins + compare (the
expression interpreter and its whitelist), values (Item/Group/Scalar with provenance), operators
(one registry), join (the join planner), retrieve/extract (baselines behind Protocols), executor.
"""

from app.engine.checking import validate_call
from app.engine.syntax import Call, FuncRef, Lambda, Qud, StepSyntaxError, format_call, parse_call
from app.engine.tree import Node, TreeError


def execute(*args, **kwargs):
    """Run a tree; see `app.engine.executor.execute` (imported lazily to keep `app.engine.syntax` light)."""
    from app.engine.executor import execute as _execute

    return _execute(*args, **kwargs)


__all__ = [
    "Call", "FuncRef", "Lambda", "Qud", "StepSyntaxError", "format_call", "parse_call", "validate_call",
    "Node", "TreeError", "execute",
]
