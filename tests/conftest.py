"""Test-wide setup: Qt renders offscreen, and a test that makes Qt warn fails (as qutebrowser does).

Expected Qt messages are declared per test with pytest-qt's marker:
    @pytest.mark.qt_log_ignore(r"^QPainter::begin")
"""

import os

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# Qt's offscreen plugin says this for every top-level window; it is about the plugin, not our code.
HARMLESS_QT_MESSAGES = ("This plugin does not support propagateSizeHints()",)


@pytest.fixture(autouse=True)
def fail_on_qt_warning(request):
    """Fail the test when Qt logged a warning (or worse) that nobody declared as expected."""
    capture = getattr(request.node, "qt_log_capture", None)  # pytest-qt's recorder, started before fixtures
    yield
    if capture is None:
        return
    from pytestqt.qt_compat import qt_api

    unexpected = [
        rec for rec in capture.records
        if rec.type in (qt_api.QtCore.QtMsgType.QtWarningMsg, qt_api.QtCore.QtMsgType.QtCriticalMsg,
                        qt_api.QtCore.QtMsgType.QtFatalMsg)
        and not rec.ignored and rec.message not in HARMLESS_QT_MESSAGES
    ]
    if unexpected:
        pytest.fail("Qt warned:\n" + "\n".join(f"  {rec.type_name}: {rec.message}" for rec in unexpected),
                    pytrace=False)
