from PySide6.QtCore import QModelIndex, Qt

from app.answer import NodeReport
from PySide6.QtGui import QGuiApplication, QPalette

from app.ui.tree_model import OPERATOR_ROLE, REPORT_ROLE, OperatorTreeModel

LEAF_A = NodeReport("RETRIEVE", "my runs", 'RETRIEVE(query="my runs")', 12, 0.25, None, event_ids=("a", "b"))
LEAF_B = NodeReport("RETRIEVE", "songs", 'RETRIEVE(query="songs")', None, 0.0, "no index", event_ids=())
JOIN = NodeReport("JOIN", "songs while running", 'JOIN(l1=QUD("my runs"), l2=QUD("songs"), condition="...")',
                  None, 1.5, "input failed: songs", children=(LEAF_A, LEAF_B))
ROOT = NodeReport("ARGMAX", "Which artist while running?", 'ARGMAX(l=QUD("songs while running"), arg_attr_name="count")',
                  None, 0.001, "input failed", children=(JOIN,))


def test_operator_tree_model_structure(qtmodeltester):
    model = OperatorTreeModel()
    model.set_report(ROOT)
    qtmodeltester.check(model, force_py=True)
    root = model.index(0, 0)
    assert model.rowCount() == 1 and model.rowCount(root) == 1
    join = model.index(0, 0, root)
    assert model.parent(join) == root and model.parent(root) == QModelIndex()
    assert model.rowCount(join) == 2
    leaf_b = model.index(1, 0, join)
    # The sub-question first, the step in words as a quiet label; the operator code stays in the tooltip.
    assert [model.index(1, c, join).data() for c in range(4)] == ["songs", "find", "error", "<1 ms"]
    assert [model.index(0, c, join).data() for c in range(4)] == ["my runs", "find", "12", "250 ms"]
    assert [model.index(0, c, root).data() for c in range(4)] == ["songs while running", "match", "error", "1.5 s"]
    assert model.index(0, 1).data() == "the most" and model.index(0, 0).data(OPERATOR_ROLE) == "ARGMAX"
    assert model.headerData(0, Qt.Orientation.Horizontal) == "Question"
    quiet = model.index(0, 1, join).data(Qt.ItemDataRole.ForegroundRole).color()
    assert quiet == QGuiApplication.palette().color(QPalette.ColorRole.PlaceholderText)
    assert model.parent(leaf_b) == join
    assert model.report_at(leaf_b) is LEAF_B
    assert leaf_b.data(REPORT_ROLE) is LEAF_B
    assert leaf_b.data(Qt.ItemDataRole.ToolTipRole) == 'songs\n\nRETRIEVE(query="songs")\n\nError: no index'
    assert leaf_b.data(Qt.ItemDataRole.ForegroundRole) is not None
    assert model.index(0, 0, join).data(Qt.ItemDataRole.ForegroundRole) is None


def test_operator_tree_model_empty(qtmodeltester):
    model = OperatorTreeModel()
    qtmodeltester.check(model, force_py=True)
    model.set_report(ROOT)
    model.set_report(None)
    assert model.rowCount() == 0
    assert model.report_at(QModelIndex()) is None
