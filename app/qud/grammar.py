"""The GBNF grammar every QUD step is decoded under (resources/qud/step.gbnf plus generated rules).

The static file holds the operator syntax; this module appends `step` (the operators allowed at this step)
and `attr` (every known attribute name), so the model can only write calls that parse, with argument names
in the right order and attribute names that exist.

    text = step_grammar()                         # all operators
    text = step_grammar(exclude=("RETRIEVE",))    # a step that must deliver attributes cannot be a leaf
    text = tree_grammar()                         # a whole tree in one generation (the one-shot ablation)
"""

from __future__ import annotations

import json
from functools import lru_cache

from app.engine.signatures import SIGNATURES
from app.qud.examples import RESOURCES

GRAMMAR_FILE = RESOURCES / "step.gbnf"
RULE_OF = {name: name.lower().replace("_", "-") for name in SIGNATURES}


@lru_cache(maxsize=1)
def _base() -> str:
    return GRAMMAR_FILE.read_text(encoding="utf-8")


def _literal(text: str) -> str:
    return json.dumps(text)  # GBNF string literals use the same escapes as JSON for plain names


def _attr_rule() -> str:
    from app.qud.vocabulary import attribute_names

    return "attr ::= " + " | ".join(_literal(n) for n in attribute_names()) + "\n"


@lru_cache(maxsize=32)
def step_grammar(exclude: tuple[str, ...] = ()) -> str:
    operators = [op for op in SIGNATURES if op not in exclude]
    if not operators:
        raise ValueError("no operator left for this step")
    step = "step ::= " + " | ".join(RULE_OF[op] for op in operators) + "\n"
    return _base() + "\n" + step + _attr_rule()


@lru_cache(maxsize=1)
def tree_grammar(max_steps: int = 12) -> str:
    """Several steps, one per line, each `Step N: QUD("...") => CALL` (the one-shot format)."""
    base = _base().replace('root ::= " " step "\\n"', "")
    lines = f'root ::= " " step "\\n" (tree-step){{0,{max_steps - 1}}} "END\\n"\n'
    lines += 'tree-step ::= "Input: QUD(\\"" phrase "\\")\\nOutput: " step "\\n"\n'
    step = "step ::= " + " | ".join(RULE_OF[op] for op in SIGNATURES) + "\n"
    return base + "\n" + lines + step + _attr_rule()
