"""The people book: who is who to the owner, kept in the store, read by EXTRACT; `lifelens people`."""

from __future__ import annotations

import json

import pytest

from app.cli import main
from app.people import kin_named, owner_and_people, people_book, set_people_book
from app.store import EventStore
from tests.retrieve.helpers import at, event, import_events

ME = "Kim Ode <kim@ode.org>"


def small_store(path):
    store = EventStore.open(path)
    import_events(store, [
        event("m1", "mail", "Hi", {"from_name": "Eva Ode", "to": [ME]}, at(1, 9), None),
        event("m2", "mail", "Re: Hi", {"from_name": "Kim Ode", "to": ["Eva Ode <eva@ode.org>"]}, at(1, 10), None),
        event("c1", "calendar", "Call Mum & Dad", {"summary": "Call Mum & Dad"}, at(2, 18), 30),
    ])
    return store


def test_kinship_words_name_the_people_of_the_book():
    book = {"Eva Ode": "mother", "Jon Ode": "father", "Mia Ode": "daughter", "Ben Ode": "son", "Ann Lee": "friend"}
    assert kin_named("Call Mum & Dad", book) == ["Eva Ode", "Jon Ode"]
    assert kin_named("Weihnachten bei my parents'", book) == ["Eva Ode", "Jon Ode"]
    assert kin_named("Trick or treat with the kids", book) == ["Mia Ode", "Ben Ode"]
    assert kin_named("Call my sister", book) == []          # nobody in the book is a sister
    assert kin_named("Dinner with Jackson", book) == []     # "son" only as a word
    assert kin_named("Drinks with friends", book) == []     # friends are named by name, not by "friends"


def test_the_book_is_kept_in_the_store_and_checked(tmp_path):
    with small_store(tmp_path / "e.sqlite") as store:
        assert people_book(store) == {}
        assert owner_and_people(store) == ("Kim Ode", ["Eva Ode"])
        set_people_book(store, {"Eva Ode": "mother", "Mia  Ode": "daughter"})
        with pytest.raises(ValueError, match="'Mia' is not a full name"):
            set_people_book(store, {"Mia": "daughter"})
        with pytest.raises(ValueError, match="'Jon Ode' has relation 'dad'; choose one of mother, father"):
            set_people_book(store, {"Jon Ode": "dad"})
    with EventStore.open(tmp_path / "e.sqlite", read_only=True) as store:
        # kept, unchanged by the refused writes; a child who never mails is one of the people now
        assert people_book(store) == {"Eva Ode": "mother", "Mia Ode": "daughter"}
        assert owner_and_people(store) == ("Kim Ode", ["Eva Ode", "Mia Ode"])


def test_lifelens_people_sets_and_lists_the_book(tmp_path, capsys):
    small_store(tmp_path / "e.sqlite").close()
    db = ["--db", str(tmp_path / "e.sqlite")]
    assert main([*db, "people", "--set", "Eva Ode=mother", "--set", "Jon Ode=father"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines() == ["owner: Kim Ode", "  Eva Ode  (mother)", "  Jon Ode  (father)"]
    assert main([*db, "people", "--set", "Jon Ode=dad"]) == 2
    assert "'Jon Ode' has relation 'dad'" in capsys.readouterr().err
    assert main([*db, "people", "--unset", "Nobody Here"]) == 2
    assert "not in the people book" in capsys.readouterr().err
    assert main([*db, "people", "--unset", "Jon Ode", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"owner": "Kim Ode", "people": ["Eva Ode"], "book": {"Eva Ode": "mother"}}
