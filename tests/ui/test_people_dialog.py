"""File > People: the person marks who is who; the people book is saved in the open store."""

from __future__ import annotations

from app.people import people_book
from app.ui import dialogs
from tests.retrieve.helpers import at, event, import_events

ME = "Kim Ode <kim@ode.org>"


def fill(store):
    import_events(store, [
        event("m1", "mail", "Hi", {"from_name": "Eva Ode", "to": [ME]}, at(1, 9), None),
        event("m2", "mail", "Re: Hi", {"from_name": "Kim Ode", "to": ["Eva Ode <eva@ode.org>", "Tom Lee <t@l.org>"]},
              at(1, 10), None),
    ])


def test_people_are_marked_and_added_and_saved(qtbot, window_factory, monkeypatch):
    window = window_factory()
    fill(window.store)
    dialog = window.open_people()
    assert [dialog.table.item(r, 0).text() for r in range(dialog.table.rowCount())] == ["Eva Ode", "Tom Lee"]
    assert dialog.book() == {}
    dialog.set_relation("Eva Ode", "mother")
    row = dialog.add_person()
    dialog.table.item(row, 0).setText("Mia  Ode")
    dialog.table.cellWidget(row, 1).setCurrentText("daughter")
    dialog.accept()
    assert people_book(window.store) == {"Eva Ode": "mother", "Mia Ode": "daughter"}
    assert "People saved" in window.status_label.text()

    # opened again: the book is shown; a name without a last name is refused and nothing is lost
    errors = []
    monkeypatch.setattr(dialogs, "show_error", lambda parent, title, text: errors.append(text))
    dialog = window.open_people()
    assert dialog.book() == {"Eva Ode": "mother", "Mia Ode": "daughter"}
    row = dialog.add_person()
    dialog.table.item(row, 0).setText("Jon")
    dialog.table.cellWidget(row, 1).setCurrentText("father")
    dialog.accept()
    assert errors == ["The people book was not saved: people book: 'Jon' is not a full name (first and last name)"]
    assert people_book(window.store) == {"Eva Ode": "mother", "Mia Ode": "daughter"}
