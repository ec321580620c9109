"""Run by test_screenshot.py under a real X server: import an export, ask a question, grab the window.

    DISPLAY=:5 QT_QPA_PLATFORM=xcb python -m tests.ui.screenshot_main_window OUT.png EXPORT_DIR

Prints one line of JSON (window size, answer headline) and writes OUT.png.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

QUESTION = "How often did I listen to each artist?"


def main(out: Path, export_dir: Path) -> int:
    from PySide6.QtCore import QEventLoop, QTimer
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from app.importing import import_paths
    from app.paths import db_path
    from app.store import EventStore
    from app.ui.main_window import MainWindow
    from app.ui.settings import AppSettings

    from .fakes import TreeAnswerer, write_spotify

    app = QApplication([sys.argv[0]])
    settings = AppSettings()
    settings.welcomed = True
    store_path = db_path()
    with EventStore.open(store_path) as store:
        import_paths(store, [write_spotify(export_dir, 40)])
    window = MainWindow(settings, store_path, lambda path, s: TreeAnswerer(path))
    window.show()
    if not QTest.qWaitForWindowExposed(window, 10_000):
        print(json.dumps({"error": "window never exposed"}))
        return 1
    loop = QEventLoop()
    window.answered.connect(loop.quit)
    QTimer.singleShot(30_000, loop.quit)
    window.question_pane.line.setText(QUESTION)
    window.ask(QUESTION)
    loop.exec()
    QTest.qWait(500)  # let the last repaints land on the X server
    pixmap = window.screen().grabWindow(window.winId())
    saved = pixmap.save(str(out), "PNG")
    print(json.dumps({"saved": saved, "width": pixmap.width(), "height": pixmap.height(),
                      "platform": app.platformName(), "headline": window.answer_pane.headline.text()}))
    window.close()
    return 0 if saved else 1


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2])))
