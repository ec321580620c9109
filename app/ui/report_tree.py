"""The executed operator tree with parent links, as a Qt tree model needs it. Plain Python, no Qt.

`NodeReport` (app/answer.py) is a frozen tree that only knows its children; a QAbstractItemModel
must also answer "who is my parent, and which row am I in it". `ReportItem` adds exactly that.

    root = build_items(answer.tree)      # an invisible root whose only child is the tree's root
    root.children[0].report.operator     # 'GROUP_BY'
    root.children[0].children[1].parent is root.children[0]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator


@dataclass(eq=False)
class ReportItem:
    report: Any  # NodeReport, or None for the invisible root
    parent: "ReportItem | None" = None
    row: int = 0
    children: list["ReportItem"] = field(default_factory=list)

    def walk(self) -> Iterator["ReportItem"]:
        yield self
        for child in self.children:
            yield from child.walk()


def build_items(report: Any | None) -> ReportItem:
    root = ReportItem(report=None)
    if report is not None:
        _attach(root, report, 0)
    return root


def _attach(parent: ReportItem, report: Any, row: int) -> None:
    item = ReportItem(report=report, parent=parent, row=row)
    parent.children.append(item)
    for i, child in enumerate(report.children):
        _attach(item, child, i)
