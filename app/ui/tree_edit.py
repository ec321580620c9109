"""Editing one step of an executed tree, to run the tree again: a wrong decomposition is fixed where it went
wrong instead of rephrasing the question blindly. Plain Python, no Qt.

    tree = edited_tree(answer.tree, node, "runs in 2023", 'RETRIEVE(query="runs in 2023")')
    problems = tree_problems(tree)       # [] when the engine will run it
    answerer.run_tree(tree, reference_date, progress, cancel)

A node is found by identity in the executed tree (NodeReport), never by equality: two equal subtrees are two
places. A changed sub-question is changed in the step above it too (its `QUD("...")`), and a RETRIEVE whose
query was its sub-question searches for the new one.
"""

from __future__ import annotations

from typing import Any

from app.engine.syntax import Qud, format_value


class EditError(ValueError):
    """An edit that cannot be made; the message is for the person."""


def tree_json(report: Any) -> dict[str, Any]:
    """The executable tree ({"question", "step", "children"}) of an executed one."""
    return {"question": report.question, "step": report.step, "children": [tree_json(c) for c in report.children]}


def _qud(question: str) -> str:
    return format_value(Qud(question))  # as format_call writes it


def edited_tree(root: Any, target: Any, question: str, step: str) -> dict[str, Any]:
    """The tree of `root` with the node `target` (an object in it) given `question` and `step`."""
    question, step = question.strip(), step.strip()
    if not question:
        raise EditError("The sub-question is empty.")
    if not step:
        raise EditError("The step is empty.")
    tree = tree_json(root)
    if root is target:
        tree.update(question=question, step=_retrieve_follows(root, question, step))
        return tree
    path = _path_to(root, target)
    if path is None:
        raise EditError("That step is not part of this answer's tree.")
    parent_json = tree
    for index in path[:-1]:
        parent_json = parent_json["children"][index]
    if question != target.question:
        # The step above names its sub-questions: rename there too, or the child would no longer belong to it.
        old, new = _qud(target.question), _qud(question)
        if old not in parent_json["step"]:
            raise EditError("The step above asks this sub-question in a form that cannot be changed here; "
                            "edit that step instead.")
        parent_json["step"] = parent_json["step"].replace(old, new, 1)
    parent_json["children"][path[-1]].update(question=question, step=_retrieve_follows(target, question, step))
    return tree


def _retrieve_follows(node: Any, question: str, step: str) -> str:
    """A RETRIEVE whose query was its sub-question, with only the sub-question changed, searches for the new one."""
    old_query = f"RETRIEVE(query={format_value(node.question)})"
    if question != node.question and step == node.step == old_query:
        return f"RETRIEVE(query={format_value(question)})"
    return step


def _path_to(root: Any, target: Any) -> list[int] | None:
    for index, child in enumerate(root.children):
        if child is target:
            return [index]
        below = _path_to(child, target)
        if below is not None:
            return [index] + below
    return None


def tree_problems(tree: dict[str, Any]) -> list[str]:
    """What keeps the engine from running `tree` (a step that does not parse, a sub-question without its
    step), in the engine's words; [] when it will run."""
    from app.engine import Node, TreeError

    try:
        node = Node.from_json(tree)
    except TreeError as exc:
        return [str(exc)]
    return node.problems()
