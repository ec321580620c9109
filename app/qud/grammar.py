"""The GBNF grammar every QUD step is decoded under (resources/qud/step.gbnf plus generated rules).

The static file holds the operator syntax; this module appends `step` (the operators allowed at this step)
and `attr` (every known attribute name), so the model can only write calls that parse, with argument names
in the right order and attribute names that exist.

    text = step_grammar()                         # all operators
    text = step_grammar(exclude=("RETRIEVE",))    # a step that must deliver attributes cannot be a leaf
    text = step_grammar(values=grounded_values("songs I listened to in 2022"))
                                                  # strings and numbers only from the question
    text = tree_grammar()                         # a whole tree in one generation (the one-shot ablation)
"""

from __future__ import annotations

import json
import re
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


FREE_VALUES = 'string-body ::= [^"\\\\\\n]{1,60}\nint-body ::= [0-9]{1,8}\n'

# Values a step may use whatever the question says: days of the week, the workout types of the data
# contract, and the numbers behind hours, months, days and unit conversions.
KNOWN_WORDS = (
    "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday",
    "running", "walking", "cycling", "swimming", "soccer", "tennis", "yoga", "hiking", "strength training",
)
KNOWN_NUMBERS = tuple(str(n) for n in range(0, 32)) + ("60", "100", "1000", "3600", "60000", "3600000")
_WORD = re.compile(r"[A-Za-z0-9À-ſ][A-Za-z0-9À-ſ'&.-]*")


@lru_cache(maxsize=256)
def grounded_values(*questions: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(words, numbers) a step may write as literals: those of the questions plus the known ones.

    Words come as written, in lower case, capitalised, and without a plural s ("Mondays" -> "Monday").
    """
    words: set[str] = set()
    numbers: set[str] = set(KNOWN_NUMBERS)
    for question in questions:
        for raw in _WORD.findall(question):
            word = raw.strip(".'-")
            if not word:
                continue
            if word.isdigit():
                numbers.add(str(int(word)))
                continue
            for form in (word, word.lower(), word[:1].upper() + word[1:].lower()):
                words.add(form)
                if len(form) > 3 and form.endswith("s") and not form.endswith("ss"):
                    words.add(form[:-1])
    for known in KNOWN_WORDS:
        words.update(known.split())
    return tuple(sorted(words, key=lambda w: (-len(w), w))), tuple(sorted(numbers, key=lambda n: (-len(n), n)))


def _values_rules(values: tuple[tuple[str, ...], tuple[str, ...]] | None) -> str:
    if values is None:
        return FREE_VALUES
    words, numbers = values
    word_rule = "qword ::= " + " | ".join(_literal(w) for w in words) + "\n"
    return (
        'string-body ::= qword (" " qword){0,4}\n' + word_rule
        + "int-body ::= " + " | ".join(_literal(n) for n in numbers) + "\n"
    )


@lru_cache(maxsize=128)
def step_grammar(
    exclude: tuple[str, ...] = (), values: tuple[tuple[str, ...], tuple[str, ...]] | None = None
) -> str:
    """The grammar of one step: the operators not excluded; literals free, or only `values` (words, numbers)."""
    operators = [op for op in SIGNATURES if op not in exclude]
    if not operators:
        raise ValueError("no operator left for this step")
    step = "step ::= " + " | ".join(RULE_OF[op] for op in operators) + "\n"
    return _base() + "\n" + step + _attr_rule() + _values_rules(values)


@lru_cache(maxsize=64)
def tree_grammar(max_steps: int = 12, values: tuple[tuple[str, ...], tuple[str, ...]] | None = None) -> str:
    """Several steps, one per line, each `Step N: QUD("...") => CALL` (the one-shot format)."""
    base = _base().replace('root ::= " " step "\\n"', "")
    lines = f'root ::= " " step "\\n" (tree-step){{0,{max_steps - 1}}} "END\\n"\n'
    lines += 'tree-step ::= "Input: QUD(\\"" phrase "\\")\\nOutput: " step "\\n"\n'
    step = "step ::= " + " | ".join(RULE_OF[op] for op in SIGNATURES) + "\n"
    return base + "\n" + lines + step + _attr_rule() + _values_rules(values)
