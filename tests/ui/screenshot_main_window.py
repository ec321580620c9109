"""Run by test_screenshot.py under a real X server: the demo persona, a demo question, a grab of the window.

    DISPLAY=:5 QT_QPA_PLATFORM=xcb python -m tests.ui.screenshot_main_window OUT.png

The demo persona's store is built as the app builds it (app.ui.launch.build_demo_store); the question and
its operator tree come from the persona's question bank (the QUD's part is the gold tree, so no language
model is needed) and run through the real engine. Prints one line of JSON and writes OUT.png.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

DEMO_TEMPLATE = "join.artist_during_workout"  # "Which artist did I listen to most when running?"


def main(out: Path) -> int:
    from PySide6.QtCore import QEventLoop, QTimer
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from app.persona.demo import DEMO_PERSONA
    from app.persona.questions import questions_for
    from app.ui.launch import build_demo_store, demo_store_path
    from app.ui.main_window import MainWindow
    from app.ui.settings import AppSettings

    from .fakes import TreeAnswerer

    app = QApplication([sys.argv[0]])
    settings = AppSettings()
    settings.welcomed = True
    store_path = build_demo_store(demo_store_path(), lambda text: print(text, file=sys.stderr))
    demo = questions_for(DEMO_PERSONA, templates=[DEMO_TEMPLATE])[0]
    window = MainWindow(settings, store_path, lambda path, s: TreeAnswerer(path, demo["tree"]))
    window.show()
    if not QTest.qWaitForWindowExposed(window, 10_000):
        print(json.dumps({"error": "window never exposed"}))
        return 1
    loop = QEventLoop()
    window.answered.connect(loop.quit)
    QTimer.singleShot(120_000, loop.quit)
    window.question_pane.line.setText(demo["question"])
    window.answering.ask(demo["question"])
    loop.exec()
    QTest.qWait(500)  # let the last repaints land on the X server
    pixmap = window.screen().grabWindow(window.winId())
    saved = pixmap.save(str(out), "PNG")
    answer = window.last_answer
    print(json.dumps({
        "saved": saved, "width": pixmap.width(), "height": pixmap.height(), "platform": app.platformName(),
        "question": demo["question"], "gold": demo["answer"], "value": answer.value if answer else None,
        "headline": window.answer_pane.headline.text(), "evidence_rows": window.event_model.rowCount(),
        "tree_nodes": sum(1 for _ in answer.tree.walk()) if answer and answer.tree else 0,
    }))
    window.close()
    return 0 if saved else 1


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
