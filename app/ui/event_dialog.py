"""One event in full: the mail with headers and body, the calendar entry with location, every stream field;
with the file and position it came from and a button that opens the file's folder."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QUrl, Slot
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QPushButton, QTextBrowser, QVBoxLayout, QWidget

from app.store import StoredEvent

from .presenting import event_document, original_location


def open_url(url: QUrl) -> bool:
    """Indirection so that tests can see what would be opened without starting a file manager."""
    return QDesktopServices.openUrl(url)


def event_html(event: StoredEvent) -> str:
    title, fields, body = event_document(event)
    rows = "".join(
        f"<tr><td style='color:#666;padding-right:12px;vertical-align:top'>{escape(k)}</td>"
        f"<td>{escape(v)}</td></tr>" for k, v in fields
    )
    html = f"<h3>{escape(title)}</h3><table>{rows}</table>"
    if body:
        html += f"<hr><pre style='white-space:pre-wrap;font-family:sans-serif'>{escape(body)}</pre>"
    return html


def provenance_text(event: StoredEvent) -> str:
    path, member = original_location(event.file)
    where = f"{member} inside {path}" if member else str(path)
    return f"From {where}, {event.position}."


class EventDialog(QDialog):
    def __init__(self, event: StoredEvent, parent: QWidget | None = None):
        super().__init__(parent)
        self.stored_event = event
        self.setWindowTitle(event.title[:80] or "Event")
        self.body = QTextBrowser()
        self.body.setOpenLinks(False)
        self.body.setHtml(event_html(event))
        self.provenance = QLabel(provenance_text(event))
        self.provenance.setWordWrap(True)
        self.open_folder_button = QPushButton("Open folder")
        path, _member = original_location(event.file)
        self.open_folder_button.setToolTip(f"Show {path.name} in its folder")
        self.open_folder_button.setEnabled(path.parent.exists())
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.addButton(self.open_folder_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        self.open_folder_button.clicked.connect(self.open_folder)
        layout = QVBoxLayout(self)
        layout.addWidget(self.body, 1)
        layout.addWidget(self.provenance)
        layout.addWidget(buttons)
        self.resize(680, 560)

    @Slot()
    def open_folder(self) -> None:
        """The folder of the original file; for a zip member, the folder of the zip."""
        path, _member = original_location(self.stored_event.file)
        open_url(QUrl.fromLocalFile(str(path.parent)))
