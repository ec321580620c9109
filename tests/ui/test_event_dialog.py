from datetime import datetime, timedelta, timezone
from types import MappingProxyType

from PySide6.QtCore import Qt

from app.store import StoredEvent
from app.ui import event_dialog
from app.ui.event_dialog import EventDialog, provenance_text

TZ = timezone(timedelta(hours=1))


def mail_event(file: str) -> StoredEvent:
    return StoredEvent(
        id="m1", source="mail", type="mbox", start=datetime(2024, 3, 2, 9, 15, tzinfo=TZ), end=None, tz=None,
        title="Flight to Lisbon", text="Flight to Lisbon <b>booked</b>",
        data=MappingProxyType({"from": "air@x.org", "from_name": "Air X", "to": ["me@x.org"], "cc": [],
                               "subject": "Flight to Lisbon", "body": "Your flight is <b>booked</b>.\nSeat 12A",
                               "labels": ["Inbox"], "message_id": "<f@x>"}),
        file=file, position="message 3 at byte 1234", run_id=1)


def test_a_mail_from_a_zip_shows_headers_body_and_opens_the_zip_folder(qtbot, tmp_path, monkeypatch):
    archive = tmp_path / "takeout.zip"
    archive.write_bytes(b"PK")
    event = mail_event(f"{archive}!Takeout/Mail/All mail.mbox")
    dialog = EventDialog(event)
    qtbot.addWidget(dialog)
    lines = dialog.body.toPlainText().splitlines()
    assert lines[:11] == ["Flight to Lisbon", "Source", "Mail (mbox)", "Start", "2024-03-02 09:15:00+01:00",
                          "From name", "Air X", "From", "air@x.org", "To", "me@x.org"]
    # The body is shown as text: markup in a mail is not interpreted.
    assert lines[-2:] == ["Your flight is <b>booked</b>.", "Seat 12A"]
    assert provenance_text(event) == f"From Takeout/Mail/All mail.mbox inside {archive}, message 3 at byte 1234."
    opened = []
    monkeypatch.setattr(event_dialog, "open_url", lambda url: opened.append(url.toLocalFile()))
    qtbot.mouseClick(dialog.open_folder_button, Qt.MouseButton.LeftButton)
    assert opened == [str(tmp_path)]


def test_open_folder_is_off_when_the_folder_is_gone(qtbot, tmp_path):
    dialog = EventDialog(mail_event(str(tmp_path / "gone" / "x.mbox")))
    qtbot.addWidget(dialog)
    assert not dialog.open_folder_button.isEnabled()
