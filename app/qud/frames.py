"""Question frames: the shape of an answer that English gives before any operator is chosen.

A yes/no question about whether something happened ("Did I go hiking in 2023?", "have i ever been to
Lisbon?") is answered by whether it happened at least once. The model is asked the count ("How many times did
I go hiking in 2023?"), which it decomposes well, and the tree's root count becomes a test of at least one, so
the tree that runs is still the whole, traceable computation. Questions that compare ("more than", "A or B",
"most") are not this frame.

    count_question("Did I go hiking in 2023?")     # "How many times did I go hiking in 2023?"
    count_question("How often did I hike?")        # None
    as_yes_no(count_tree, "Did I go hiking in 2023?")   # APPLY(l=QUD(...), fct=lambda l: len(l) > 0), or None
"""

from __future__ import annotations

import re

from app.engine.syntax import Call, FuncRef, Lambda
from app.engine.tree import Node

# an auxiliary verb, then the person: "did I", "have we", "was I", "do i"
_YES_NO = re.compile(r"^\s*(?:did|do|does|have|has|had|was|were|am)\s+(?:i|we)\b(?P<rest>.*)$", re.I)
# comparisons and choices are questions of another shape
_COMPARING = re.compile(r"\b(?:more|less|fewer|than|or|most|least|longer|shorter|either|neither|whether)\b", re.I)
AT_LEAST_ONCE = Lambda("lambda l: len(l) > 0")


def count_question(question: str) -> str | None:
    """The count a yes/no question about whether something happened asks for, or None for other questions."""
    match = _YES_NO.match(question)
    if match is None or _COMPARING.search(question) or not match.group("rest").strip(" ?.!"):
        return None
    body = question.strip()
    return "How many times " + body[0].lower() + body[1:]


def as_yes_no(count_tree: Node, question: str) -> Node | None:
    """The count tree with its root count turned into a test of at least one, asked as `question`; None when the
    root is no count of items (a sum, an arg-max), which this frame does not turn into a yes or a no."""
    call = count_tree.call
    if call.operator != "APPLY" or call.get("fct") != FuncRef("len"):
        return None
    tested = Call("APPLY", tuple((name, AT_LEAST_ONCE if name == "fct" else value) for name, value in call.args))
    return Node(question, tested, count_tree.children)
