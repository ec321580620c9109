from app.answer import NodeReport
from app.ui.report_tree import build_items


def test_items_know_parent_and_row():
    a = NodeReport("RETRIEVE", "a", "RETRIEVE(query=\"a\")", 1, 0.0, None)
    b = NodeReport("RETRIEVE", "b", "RETRIEVE(query=\"b\")", 2, 0.0, None)
    join = NodeReport("JOIN", "ab", "JOIN(...)", 3, 0.0, None, children=(a, b))
    root = build_items(join)
    assert root.report is None and len(root.children) == 1
    top = root.children[0]
    assert top.report is join and top.parent is root and top.row == 0
    assert [(c.report.question, c.row, c.parent is top) for c in top.children] == [("a", 0, True), ("b", 1, True)]
    assert [i.report.question for i in top.walk()] == ["ab", "a", "b"]
    assert build_items(None).children == []
