"""The hand-written in-context examples (resources/qud/examples.txt) and the step examples cut from them.

The file holds one block per question: `Q:`, `categories:`, `sources:` and the operator tree, one step
per line, children indented by two spaces under their parent in the order of its `QUD("...")` calls:

    Q: How far was my longest run?
    categories: ordering
    sources: workout
    MAX(l=QUD("my runs with distance"), attr_name="distance_km")
      EXTRACT(l=QUD("my runs"), attr_names=["distance_km"], attr_types=[float])
        RETRIEVE(query="I went running")

Each tree yields one `StepExample` per node (parents first): the sub-question, the steps above it and the
step written for it. The prompt shows step examples; BM25 picks them (`app.qud.select`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from app.engine.checking import validate_call
from app.engine.syntax import StepSyntaxError, parse_call
from app.engine.tree import Node
from app.paths import resource_dir
from app.qud.validate import Needs, child_needs

RESOURCES = resource_dir("qud")
EXAMPLES_FILE = RESOURCES / "examples.txt"
CATEGORIES = ("ordering", "grouping", "temporal", "aggregation", "join", "multi-source")


class ExampleError(ValueError):
    """A malformed example block; the message names the file and line."""


@dataclass(frozen=True)
class Example:
    question: str
    categories: tuple[str, ...]
    sources: tuple[str, ...]
    tree: Node
    line: int  # where the block starts in the file


@dataclass(frozen=True)
class StepExample:
    """One decomposition step of an example: input sub-question, the steps above it, the output step."""

    example: Example
    question: str                          # the sub-question this step answers
    above: tuple[tuple[str, str], ...]     # (question, step) of the ancestors, root first
    step: str                              # the step written for `question`
    depth: int                             # 0 for the root step
    needs: str = ""                        # attributes this step's result must carry (see app.qud.validate)

    @property
    def root_question(self) -> str:
        return self.example.question


def parse_examples(text: str, name: str = "examples.txt") -> list[Example]:
    examples: list[Example] = []
    block: list[tuple[int, str]] = []
    for number, raw in enumerate(text.splitlines() + [""], start=1):
        line = raw.rstrip()
        if line.lstrip().startswith("#"):
            continue
        if line.strip():
            block.append((number, line))
        elif block:
            examples.append(_parse_block(block, name))
            block = []
    return examples


def _parse_block(block: list[tuple[int, str]], name: str) -> Example:
    start = block[0][0]
    header: dict[str, str] = {}
    steps: list[tuple[int, int, str]] = []  # (line, depth, step)
    for number, line in block:
        key, sep, value = line.partition(":")
        if not steps and sep and key in ("Q", "categories", "sources"):
            header[key] = value.strip()
            continue
        stripped = line.lstrip(" ")
        indent = len(line) - len(stripped)
        if indent % 2:
            raise ExampleError(f"{name}:{number}: indent by multiples of two spaces")
        steps.append((number, indent // 2, stripped))
    for key in ("Q", "categories", "sources"):
        if key not in header:
            raise ExampleError(f"{name}:{start}: block lacks the line '{key}: ...'")
    if not steps:
        raise ExampleError(f"{name}:{start}: block has no steps")
    categories = tuple(c.strip() for c in header["categories"].split(",") if c.strip())
    unknown = [c for c in categories if c not in CATEGORIES]
    if unknown:
        raise ExampleError(f"{name}:{start}: unknown categories {unknown} (known: {', '.join(CATEGORIES)})")
    sources = tuple(s.strip() for s in header["sources"].split(",") if s.strip())
    tree, rest = _build(steps, 0, 0, header["Q"], name)
    if rest != len(steps):
        raise ExampleError(f"{name}:{steps[rest][0]}: step is not under the root step")
    problems = tree.problems()
    if problems:
        raise ExampleError(f"{name}:{start}: {problems[0]}")
    return Example(header["Q"], categories, sources, tree, start)


def _build(steps: list[tuple[int, int, str]], index: int, depth: int, question: str, name: str) -> tuple[Node, int]:
    number, d, text = steps[index]
    if d != depth:
        raise ExampleError(f"{name}:{number}: expected indent {2 * depth}, found {2 * d}")
    try:
        call = parse_call(text)
    except StepSyntaxError as exc:
        raise ExampleError(f"{name}:{number}: {exc}") from None
    problems = validate_call(call)
    if problems:
        raise ExampleError(f"{name}:{number}: {problems[0]}")
    children: list[Node] = []
    index += 1
    for qud in call.quds():
        if index >= len(steps) or steps[index][1] != depth + 1:
            raise ExampleError(f"{name}:{number}: no step for QUD({qud.question!r}) indented below")
        child, index = _build(steps, index, depth + 1, qud.question, name)
        children.append(child)
    if index < len(steps) and steps[index][1] > depth:
        raise ExampleError(f"{name}:{steps[index][0]}: more children than QUD(...) calls in line {number}")
    return Node(question, call, tuple(children)), index


def step_examples(example: Example) -> list[StepExample]:
    found: list[StepExample] = []

    def visit(node: Node, above: tuple[tuple[str, str], ...], needs: Needs) -> None:
        found.append(StepExample(example, node.question, above, node.step, len(above), needs.text()))
        for child, child_need in zip(node.children, child_needs(node.call, needs)):
            visit(child, above + ((node.question, node.step),), child_need)

    visit(example.tree, (), Needs())
    return found


@lru_cache(maxsize=4)
def load_examples(path: Path = EXAMPLES_FILE) -> tuple[Example, ...]:
    return tuple(parse_examples(path.read_text(encoding="utf-8"), path.name))


def all_step_examples(examples: tuple[Example, ...] | None = None) -> list[StepExample]:
    return [s for e in (examples if examples is not None else load_examples()) for s in step_examples(e)]
