"""Operator trees: a node holds the sub-question that produced it, one operator call, and its children.

The JSON shape (gold trees, QUD output, `lifelens run-tree` input):

    {"question": "How often did I run?",
     "step": "APPLY(l=QUD(\\"I went running\\"), fct=len)",
     "children": [{"question": "I went running", "step": "RETRIEVE(query=\\"I went running\\")", "children": []}]}

Every `QUD("...")` in a step is a sub-question; its subtree is the child at the same position (order of
appearance, lambdas included). A tree under construction by the QUD stage may have fewer children
than sub-questions; `problems()` lists what is still open, and the executor refuses such trees.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterator

from app.engine.checking import validate_call
from app.engine.syntax import Call, StepSyntaxError, format_call, parse_call


class TreeError(ValueError):
    """A tree JSON that cannot be read; the message names the node by its path (root.children[1])."""


MAX_TREE_DEPTH = 64  # nodes from the root down; QUD trees are 2-5 deep
MAX_JSON_DEPTH = 2 * MAX_TREE_DEPTH + 8  # each level is an object and its children list


@dataclass(frozen=True)
class Node:
    question: str
    call: Call
    children: tuple["Node", ...] = ()

    @property
    def step(self) -> str:
        return format_call(self.call)

    @property
    def operator(self) -> str:
        return self.call.operator

    @classmethod
    def from_step(cls, question: str, step: str, children: tuple["Node", ...] = ()) -> "Node":
        return cls(question, parse_call(step), tuple(children))

    @classmethod
    def from_json(cls, obj: Any, _path: str = "root") -> "Node":
        """From the dict shape above, or its JSON text; a tree deeper than MAX_TREE_DEPTH is a TreeError."""
        if isinstance(obj, (str, bytes)):
            depth = _json_depth(obj if isinstance(obj, str) else obj.decode("utf-8", "replace"))
            if depth > MAX_JSON_DEPTH:
                raise TreeError(f"{_path}: JSON nested {depth} levels deep; a tree may be at most {MAX_TREE_DEPTH} nodes deep")
            try:
                obj = json.loads(obj)
            except (json.JSONDecodeError, UnicodeDecodeError) as exc:
                raise TreeError(f"{_path}: not JSON: {exc}") from None
            except RecursionError:
                raise TreeError(f"{_path}: JSON nested too deep to read") from None
        if _path.count(".children[") >= MAX_TREE_DEPTH:
            raise TreeError(f"{_path}: the tree is deeper than {MAX_TREE_DEPTH} nodes")
        if not isinstance(obj, dict):
            raise TreeError(f"{_path}: a node must be an object with question, step, children")
        unknown = set(obj) - {"question", "step", "children"}
        if unknown:
            raise TreeError(f"{_path}: unknown keys {sorted(unknown)}")
        question, step = obj.get("question", ""), obj.get("step")
        if not isinstance(question, str):
            raise TreeError(f"{_path}.question: must be a string")
        if not isinstance(step, str):
            raise TreeError(f"{_path}.step: missing or not a string")
        try:
            call = parse_call(step)
        except StepSyntaxError as exc:
            raise TreeError(f"{_path}.step: {exc}") from None
        raw_children = obj.get("children", [])
        if not isinstance(raw_children, list):
            raise TreeError(f"{_path}.children: must be a list")
        children = tuple(cls.from_json(c, f"{_path}.children[{i}]") for i, c in enumerate(raw_children))
        return cls(question, call, children)

    def to_json(self) -> dict[str, Any]:
        return {"question": self.question, "step": self.step, "children": [c.to_json() for c in self.children]}

    def dumps(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, indent=indent)

    def walk(self) -> Iterator["Node"]:
        """This node and all below it, parents first."""
        yield self
        for child in self.children:
            yield from child.walk()

    def with_calls(self, rewrite: Callable[["Node"], Call | None]) -> "Node | None":
        """A copy with each node's call replaced by `rewrite(node)` where it gives one (the node's children are those
        already rewritten); None when no call changed. Subtrees with no change are the same objects."""
        changed = False

        def walk(node: Node) -> Node:
            nonlocal changed
            children = tuple(walk(child) for child in node.children)
            call = rewrite(node)
            if call is not None and call != node.call:
                changed = True
            else:
                call = node.call
            if call is node.call and all(new is old for new, old in zip(children, node.children)):
                return node
            return Node(node.question, call, children)

        result = walk(self)
        return result if changed else None

    def with_child(self, index: int, child: "Node") -> "Node":
        """A copy with child `index` set (appended when index == len(children)): for building trees step by step."""
        children = list(self.children)
        if index == len(children):
            children.append(child)
        else:
            children[index] = child
        return replace(self, children=tuple(children))

    def open_questions(self) -> list[str]:
        """Sub-questions of this node that have no child yet."""
        return [q.question for q in self.call.quds()[len(self.children):]]

    def problems(self, _path: str = "root") -> list[str]:
        """Everything that keeps the tree from running, each prefixed by the node's path."""
        found = [f"{_path} ({self.call.operator}): {p}" for p in validate_call(self.call)]
        quds = self.call.quds()
        if len(self.children) < len(quds):
            missing = ", ".join(repr(q.question) for q in quds[len(self.children):])
            found.append(f"{_path}: sub-question(s) not decomposed yet: {missing}")
        elif len(self.children) > len(quds):
            found.append(f"{_path}: {len(self.children)} children for {len(quds)} sub-question(s)")
        for i, (qud, child) in enumerate(zip(quds, self.children)):
            if child.question.strip() != qud.question.strip():
                found.append(f"{_path}.children[{i}]: question {child.question!r} does not match QUD({qud.question!r})")
        for i, child in enumerate(self.children):
            found.extend(child.problems(f"{_path}.children[{i}]"))
        return found

    def render(self, indent: str = "  ") -> str:
        """The tree as indented text, one step per line (an EXPLAIN)."""
        lines: list[str] = []

        def visit(node: Node, depth: int) -> None:
            lines.append(f"{indent * depth}{node.step}")
            for child in node.children:
                visit(child, depth + 1)

        visit(self, 0)
        return "\n".join(lines)


def _json_depth(text: str) -> int:
    """The deepest nesting of [ and { in JSON `text`, strings skipped; linear, no recursion.

        >>> _json_depth('{"a": [1, {"b": "[[["}]}')
        3
    """
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest
