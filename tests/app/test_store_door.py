"""The store's door: every value an importer hands over is checked; what the store holds always reads back.

Each bad value is a record error naming the file and the record's place; the good records of the same
file are stored; `lifelens sources`, `events`, `errors` and a RETRIEVE tree then read the store without
failing. A store written before the door (rows from year 10000, NaN in data) reads back too.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timedelta, timezone

import pytest

from app.cli import main
from app.store import EventStore
from importers.base import Event, RecordError

UTC = timezone.utc


def event(n: int, **changes) -> Event:
    start = datetime(2024, 3, 1, 20, 0, tzinfo=timezone(timedelta(hours=1))) + timedelta(minutes=n)
    fields = dict(
        source="music_stream", type="test", start=start, end=start + timedelta(minutes=3),
        title=f"Daft Punk - Track {n}", text=f"Daft Punk Track {n} song", data={"artist": "Daft Punk", "ms_played": 1000 * n},
        position=f"row {n}", key=f"key-{n}",
    )
    fields.update(changes)
    return Event(**fields)


def nested(depth: int) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


# (what is wrong, the event, words the record's error must hold)
BAD = [
    ("year 10000 in UTC", dict(start=datetime(9999, 12, 31, 20, 0, tzinfo=timezone(timedelta(hours=-12))), end=None), "outside 1900..2100"),
    ("year 1 with +14:00", dict(start=datetime(1, 1, 1, 0, 0, tzinfo=timezone(timedelta(hours=14))), end=None), "outside 1900..2100"),
    ("1899", dict(start=datetime(1899, 12, 31, 12, 0, tzinfo=UTC), end=None), "outside 1900..2100"),
    ("end in 2200", dict(end=datetime(2200, 1, 1, tzinfo=UTC)), "end 2200-01-01"),
    ("a dict for a title", dict(title={"a": 1}), "title is a dict, not text"),
    ("a list for a text", dict(text=["x"]), "text is a list, not text"),
    ("a number for a place", dict(position=17), "position is a int, not text"),
    ("a lone surrogate in a title", dict(title="Track \udc80"), "title holds a lone surrogate (\\udc80 at character 7)"),
    ("a lone surrogate in a zone", dict(tz="Europe/\ud800"), "zone holds a lone surrogate"),
    ("an integer past 64 bits", dict(data={"ms_played": 2**70}), "data.ms_played is 1180591620717411303424, beyond the 64-bit"),
    ("a huge integer", dict(data={"ms_played": 10**400}), "a number of 401 digits"),
    ("NaN", dict(data={"ms_played": float("nan")}), "data.ms_played is nan"),
    ("infinity in a list", dict(data={"plays": [1.0, float("-inf")]}), "data.plays[1] is -inf"),
    ("nesting 300 deep", dict(data={"x": nested(300)}), "nested deeper than 254 levels"),
    ("nesting 100,000 deep", dict(data={"x": nested(100_000)}), "nested deeper than 254 levels"),
    ("a key that is not text", dict(data={("a", 1): 1}), "has a key ('a', 1) that is not text"),
    ("a lone surrogate in data", dict(data={"artist": "A\ud83d"}), "data.artist holds a lone surrogate"),
    ("data that is a list", dict(data=[1, 2]), "data is a list"),
]


def test_every_kind_of_bad_value_is_a_record_error_and_the_store_reads_back(tmp_path, capsys):
    db = tmp_path / "s.sqlite"
    events = [event(0)] + [event(i + 1, **change) for i, (_, change, _) in enumerate(BAD)] + [event(99)]
    with EventStore.open(db) as store:
        run = store.begin_run(["bad.json"])
        with store.file_import(run, "bad.json", "test") as writer:
            for e in events:
                writer.add(e)
        store.finish_run(run)
        result = writer.result
        assert (result.status, result.added) == ("done", 2)  # the two good records around the bad ones
        assert len(result.errors) == len(BAD)
        for error, (what, change, words), e in zip(result.errors, BAD, events[1:]):
            assert error.file == "bad.json", what
            assert error.position == (e.position if isinstance(e.position, str) else repr(e.position)), what
            assert words in error.message and error.message.startswith("not stored: "), (what, error.message)
        assert [(e.file, e.position, e.message) for e in store.import_errors(run)] == [
            (e.file, e.position, e.message) for e in result.errors]
        assert [e.title for e in store.events()] == ["Daft Punk - Track 0", "Daft Punk - Track 99"]

    # Reading back through every door a person uses: the CLI's sources, events and errors, and a RETRIEVE tree.
    assert main(["--db", str(db), "sources", "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert (row["source"], row["count"]) == ("music_stream", 2)
    assert main(["--db", str(db), "events"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 2
    assert main(["--db", str(db), "errors"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == len(BAD)
    tree = {"question": "songs", "step": 'RETRIEVE(query="Daft Punk songs")', "children": []}
    assert main(["--db", str(db), "run-tree", json.dumps(tree), "--json", "--reference-date", "2024-05-01"]) == 0
    assert len(json.loads(capsys.readouterr().out)["evidence"]) == 2


def test_a_store_written_before_the_door_reads_back(tmp_path, capsys):
    """Rows an older Lifelens let in: year 10000, year 0, NaN and a broken JSON in data, a list for data."""
    db = tmp_path / "old.sqlite"
    with EventStore.open(db) as store:
        run = store.begin_run(["good.json"])
        with store.file_import(run, "good.json", "test") as writer:
            writer.add(event(1))
        store.finish_run(run)
    year_10000 = 253402300800.0 + 8 * 3600
    with sqlite3.connect(db) as conn:
        for n, (utc, offset, data) in enumerate([
            (year_10000, -12 * 3600, '{"ms_played": NaN}'),
            (-62135596800.0 - 86400, 0, "{not json"),
            (1e300, 0, "[1, 2]"),
        ]):
            conn.execute(
                "INSERT INTO events (id, source, type, start_utc, start_offset, end_utc, end_offset, tz, title, text,"
                " data, file, position, run_id) VALUES (?, 'mail', 'mbox', ?, ?, NULL, NULL, NULL, ?, 'x', ?, 'old.mbox', ?, 1)",
                (f"old{n}", utc, offset, f"Old {n}", data, f"message {n}"),
            )
    with EventStore.open(db, read_only=True) as store:
        events = list(store.events())
        assert len(events) == 4 and {e.source for e in events} == {"mail", "music_stream"}
        assert all(isinstance(e.start, datetime) and e.start.tzinfo is not None for e in events)
        by_title = {e.title: e for e in events}
        assert by_title["Old 0"].start.year == 9999 and by_title["Old 2"].start.year == 9999
        assert dict(by_title["Old 1"].data) == {"unreadable_data": "{not json"}
        assert dict(by_title["Old 2"].data) == {"value": [1, 2]}
        assert [s.source for s in store.sources()] == ["mail", "music_stream"]
        assert len(store.get([e.id for e in events])) == 4
    assert main(["--db", str(db), "sources"]) == 0
    assert "mail" in capsys.readouterr().out
    assert main(["--db", str(db), "events", "--source", "mail"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 3


def test_a_file_name_with_undecodable_bytes_is_stored_escaped(tmp_path):
    label = "Mail/inbox-\udcff.mbox"  # what os.fsdecode gives for a name with the byte 0xff
    with EventStore.open(tmp_path / "s.sqlite") as store:
        run = store.begin_run([label])
        with store.file_import(run, label, "test") as writer:
            writer.add(event(1))
            writer.add_error(RecordError(label, "message 2", "no date"))
        (stored,) = store.events()
        assert stored.file == "Mail/inbox-\\udcff.mbox"
        assert [e.file for e in store.import_errors(run)] == ["Mail/inbox-\\udcff.mbox"]


@pytest.mark.parametrize("value", ["\x1b[2J", "a\nb", "\ud800", "\u202e"])
def test_record_error_texts_are_printable(value):
    error = RecordError(f"f{value}.csv", f"row {value}", f"Title {value!s} is odd")
    assert error.file.isprintable() and error.position.isprintable() and error.message.isprintable()
    assert repr(value)[1:-1] in error.message


def test_a_damaged_store_is_a_plain_error_when_read_not_a_traceback(tmp_path, capsys):
    db = tmp_path / "s.sqlite"
    with EventStore.open(db) as store:
        run = store.begin_run(["a.json"])
        with store.file_import(run, "a.json", "test") as writer:
            for n in range(3000):
                writer.add(event(n, text="words " * 50))
        store.finish_run(run)
        store._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(db.read_bytes())
    page = 16384
    for at in range(3 * page, len(data) - page, 7 * page):  # garble pages past the schema
        data[at + 100 : at + 4000] = b"\xa5" * 3900
    db.write_bytes(bytes(data))
    assert main(["--db", str(db), "events"]) == 2
    err = capsys.readouterr().err
    assert "not a Lifelens event store or damaged" in err and "Traceback" not in err


def test_an_instant_near_year_1_or_9999_shown_in_the_home_zone_is_a_record_error(tmp_path):
    """Fuzz find (base code, app/store.py ZoneOffsets.at): 'date value out of range' ended the import."""
    from zoneinfo import ZoneInfo

    with EventStore.open(tmp_path / "s.sqlite") as store:
        run = store.begin_run(["endsong_0.json"])
        with store.file_import(run, "endsong_0.json", "test") as writer:
            for n, start in enumerate([datetime(9999, 12, 31, 23, 59, tzinfo=UTC), datetime(1, 1, 1, 0, 1, tzinfo=UTC)]):
                writer.add(event(n, start=start, end=None), ZoneInfo("Pacific/Kiritimati"), "Pacific/Kiritimati")
            writer.add(event(5), ZoneInfo("Pacific/Kiritimati"), "Pacific/Kiritimati")
        assert [e.position for e in writer.result.errors] == ["row 0", "row 1"]
        assert all("outside 1900..2100" in e.message for e in writer.result.errors)
        (stored,) = store.events()
        assert stored.tz == "Pacific/Kiritimati" and stored.start.utcoffset().total_seconds() == 14 * 3600
