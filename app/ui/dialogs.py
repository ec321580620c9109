"""The one path for messages to the person: confirmations, errors, notes. Tests replace `confirm`."""

from __future__ import annotations

import logging

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QWidget

log = logging.getLogger(__name__)


def confirm(parent: QWidget | None, title: str, text: str, action: str = "OK") -> bool:
    box = QMessageBox(QMessageBox.Icon.Warning, title, text, QMessageBox.StandardButton.Cancel, parent)
    ok = box.addButton(action, QMessageBox.ButtonRole.AcceptRole)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    box.exec()
    return box.clickedButton() is ok


def show_error(parent: QWidget | None, title: str, text: str) -> None:
    log.warning("%s: %s", title, text)
    QMessageBox.warning(parent, title, text)


def about_box(parent: QWidget | None, text: str) -> QMessageBox:
    """Help > About: the app's version and the versions of its models (as `lifelens --version`)."""
    box = QMessageBox(QMessageBox.Icon.Information, "About Lifelens", text, QMessageBox.StandardButton.Close, parent)
    box.setTextFormat(Qt.TextFormat.PlainText)
    return box
