"""The event store: idempotent per-file transactions, tz-aware round trips, full-text search, removal."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from app.store import Cancelled, EventStore, StoreError
from importers.base import Event, RecordError

BERLIN = ZoneInfo("Europe/Berlin")


def make_event(i: int, *, source: str = "music_stream", start: datetime | None = None, text: str = "") -> Event:
    start = start or datetime(2024, 3, 1, 20, 0, tzinfo=timezone(timedelta(hours=1))) + timedelta(minutes=i)
    return Event(
        source=source,
        type="test",
        start=start,
        end=start + timedelta(minutes=3),
        title=f"Artist {i % 3} - Track {i}",
        text=text or f"Artist {i % 3} Track {i}",
        data={"artist": f"Artist {i % 3}", "track": f"Track {i}", "ms_played": 1000 * i},
        position=f"row {i}",
        key=f"key-{i}",
    )


@pytest.fixture
def store(tmp_path):
    with EventStore.open(tmp_path / "events.sqlite") as s:
        yield s


def import_events(store: EventStore, events, label="file.json"):
    run = store.begin_run([label])
    with store.file_import(run, label, "test") as writer:
        for e in events:
            writer.add(e)
    store.finish_run(run)
    return writer.result


def test_reimport_adds_nothing_and_overlap_adds_only_new(store):
    first = import_events(store, [make_event(i) for i in range(10)])
    assert (first.added, first.skipped) == (10, 0)
    again = import_events(store, [make_event(i) for i in range(10)])
    assert (again.added, again.skipped) == (0, 10)
    newer = import_events(store, [make_event(i) for i in range(5, 15)], label="newer.json")
    assert (newer.added, newer.skipped) == (5, 5)
    assert store.count() == 15


def test_times_come_back_in_original_offset_and_zone(store):
    winter = datetime(2024, 1, 15, 19, 30, tzinfo=BERLIN)
    fixed = datetime(2024, 1, 15, 8, 0, tzinfo=timezone(timedelta(hours=-7)))
    events = [
        Event("calendar", "test", winter, winter + timedelta(hours=2), "Dinner", "Dinner", {}, "line 1", "a", tz="Europe/Berlin"),
        Event("workout", "test", fixed, None, "Run", "Run", {}, "line 2", "b"),
    ]
    import_events(store, events)
    dinner, run = sorted(store.events(), key=lambda e: e.title)
    assert dinner.start == winter and dinner.start.hour == 19 and dinner.start.tzinfo == BERLIN
    assert dinner.end.hour == 21
    assert run.start.hour == 8 and run.start.utcoffset() == timedelta(hours=-7) and run.end is None


def test_naive_datetimes_are_refused():
    with pytest.raises(ValueError, match="timezone-aware"):
        make_event(0, start=datetime(2024, 1, 1, 12, 0))


def test_cancel_rolls_back_the_file_but_keeps_earlier_files(store):
    import_events(store, [make_event(i) for i in range(3)], label="first.json")
    run = store.begin_run(["second.json"])
    with store.file_import(run, "second.json", "test") as writer:
        for i in range(100, 3000):  # more than one batch is flushed before the cancel
            writer.add(make_event(i))
        raise Cancelled()
    assert writer.result.status == "cancelled"
    assert store.count() == 3


def test_a_bug_inside_a_file_import_rolls_back_and_propagates(store):
    run = store.begin_run(["x"])
    with pytest.raises(RuntimeError):
        with store.file_import(run, "x", "test") as writer:
            writer.add(make_event(1))
            raise RuntimeError("importer bug")
    assert store.count() == 0
    assert writer.result.status == "failed"


def test_record_errors_are_kept_with_file_and_position(store):
    run = store.begin_run(["f"])
    with store.file_import(run, "f", "test") as writer:
        writer.add(make_event(1))
        writer.add_error(RecordError("f", "row 7", "bad date '2024-13-01'"))
    assert store.import_errors(run) == [RecordError("f", "row 7", "bad date '2024-13-01'")]
    assert store.count() == 1


def test_full_text_search_ranks_and_filters(store):
    import_events(store, [
        make_event(1, text="dinner at Luigi's, pizza and pasta"),
        make_event(2, text="pizza delivery"),
        make_event(3, text="morning run in the park"),
        make_event(4, source="mail", text="Luigi's pizza pizza pizza"),
    ])
    hits = store.search("pizza")
    assert len(hits) == 3
    assert store.search("pizza", sources=["mail"])[0][0] == store.search("pizza")[0][0]
    assert [e.data["track"] for e in store.events(text="luigi pasta")] == ["Track 1"]
    assert store.search("!!! ''' ") == []  # no FTS syntax error on odd input


def test_how_a_source_writes_a_phrase(store):
    import_events(store, [
        make_event(1, text="Lunch at Mesón del Mar with Ines"),
        make_event(2, text="Coffee at Meson del Mar"),
        make_event(3, source="mail", text="maybe Lucky's Steakhouse? or the mar del plata"),
    ])
    # in any case, with or without its accents, as each event writes it
    assert store.written_forms("meson del mar", "music_stream") == {"mesón del mar", "meson del mar"}
    assert store.written_forms("meson del mar", "mail") == frozenset()             # of that source only
    assert store.written_forms("lucky's steakhouse", "mail") == {"lucky's steakhouse"}
    assert store.written_forms("del mar meson", "music_stream") == frozenset()     # the words in that order
    assert store.written_forms("' !", "mail") == frozenset()                       # no words: no FTS syntax error


def test_sources_summary_and_removal(store):
    import_events(store, [make_event(i) for i in range(4)] + [make_event(9, source="mail")])
    summary = {s.source: s for s in store.sources()}
    assert summary["music_stream"].count == 4 and summary["mail"].count == 1
    assert summary["music_stream"].first < summary["music_stream"].last
    assert store.remove_source("music_stream") == 4
    assert store.source_names() == ["mail"]
    (mail,) = store.events()
    assert [hit_id for hit_id, _ in store.search("Artist")] == [mail.id]
    store.check()  # full-text index follows deletions


def test_events_filters_by_time_and_refuses_naive_bounds(store):
    import_events(store, [make_event(i) for i in range(10)])
    since = datetime(2024, 3, 1, 19, 5, tzinfo=timezone.utc)  # = 20:05 at +01:00
    assert [e.data["track"] for e in store.events(since=since, limit=2)] == ["Track 5", "Track 6"]
    with pytest.raises(ValueError, match="naive"):
        list(store.events(since=datetime(2024, 3, 1)))


def test_get_returns_events_in_time_order_and_ignores_unknown_ids(store):
    import_events(store, [make_event(i) for i in range(5)])
    ids = [e.id for e in store.events()]
    got = store.get([ids[3], "nope", ids[1]])
    assert [e.id for e in got] == [ids[1], ids[3]]
    with pytest.raises(TypeError):
        got[0].data["artist"] = "changed"  # stored events are read-only


def test_a_file_that_is_not_a_store_is_a_known_error(tmp_path):
    bogus = tmp_path / "bogus.sqlite"
    bogus.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match="bogus.sqlite"):
        EventStore.open(bogus)


def test_a_newer_schema_is_refused(tmp_path):
    path = tmp_path / "new.sqlite"
    EventStore.open(path).close()
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version=99")
    conn.close()
    with pytest.raises(StoreError, match="newer Lifelens"):
        EventStore.open(path)


def test_batches_written_behind_are_all_searchable_and_a_failing_batch_rolls_back(store):
    from app.store import BATCH_SIZE, StoreBug

    import_events(store, [make_event(i, text=f"zebra{i}") for i in range(2 * BATCH_SIZE + 5)], label="big.json")
    assert store.count() == 2 * BATCH_SIZE + 5
    assert [len(store.search(f"zebra{i}")) for i in (0, BATCH_SIZE, 2 * BATCH_SIZE + 4)] == [1, 1, 1]
    store.check()  # the full-text index matches the table
    run = store.begin_run(["bad.json"])
    import app.store as store_module

    insert_rows = store_module._insert_rows

    def failing_insert(conn, batch):
        if any(row[8] == "Artist 0 - Track 10005" for row in batch):
            raise sqlite3.IntegrityError("simulated failure inside the batch written behind")
        return insert_rows(conn, batch)

    store_module._insert_rows = failing_insert
    try:
        with pytest.raises(StoreBug):
            with store.file_import(run, "bad.json", "test") as writer:
                for i in range(BATCH_SIZE + 1):
                    writer.add(make_event(10_000 + i))
    finally:
        store_module._insert_rows = insert_rows
    assert writer.result.status == "failed"
    assert store.count() == 2 * BATCH_SIZE + 5


def test_rows_written_in_multi_row_chunks_keep_ignore_semantics_and_full_text(store):
    from app.store import BATCH_SIZE

    import_events(store, [make_event(i, text=f"okapi{i}") for i in range(0, 3000, 3)], label="old.json")
    # One batch of BATCH_SIZE rows (one chunk), then 134 more (a chunk of 100 and 34 one by one). Every
    # third event is stored already; some repeat within a chunk or across chunks: the first copy stays.
    events = [make_event(i, text=f"okapi{i}") for i in range(BATCH_SIZE + 130)]
    events[10:10] = [make_event(1), make_event(BATCH_SIZE + 50, text="first copy"), make_event(BATCH_SIZE + 129)]
    events.insert(BATCH_SIZE + 40, make_event(BATCH_SIZE + 41, text=f"okapi{BATCH_SIZE + 41}"))
    assert len(events) == BATCH_SIZE + 134
    result = import_events(store, events, label="new.json")
    distinct_new = len(set(range(BATCH_SIZE + 130)) - set(range(0, 3000, 3)))
    assert distinct_new == 1420
    assert (result.added, result.skipped) == (distinct_new, len(events) - distinct_new)
    assert store.count() == 1000 + distinct_new
    assert [len(store.search(f"okapi{i}")) for i in (1, 2, BATCH_SIZE + 41, BATCH_SIZE + 128)] == [1, 1, 1, 1]
    assert store.search(f"okapi{BATCH_SIZE + 50}") == [] and len(store.search("first copy")) == 1
    assert [e.file for e in store.events(text=f"okapi{BATCH_SIZE + 41}")] == ["new.json"]
    assert [e.file for e in store.events(text="okapi3")] == ["old.json"]
    store.check()


@pytest.mark.parametrize(
    "zone, day",
    [
        ("Europe/Berlin", datetime(2024, 3, 31, tzinfo=timezone.utc)),  # spring forward at 01:00 UTC
        ("Europe/Berlin", datetime(2024, 10, 27, tzinfo=timezone.utc)),  # fall back at 01:00 UTC
        ("Australia/Lord_Howe", datetime(2024, 4, 6, tzinfo=timezone.utc)),  # half-hour change at 15:00 UTC
        ("Asia/Kolkata", datetime(1945, 10, 14, tzinfo=timezone.utc)),  # historical war-time change
    ],
)
def test_zone_offsets_remembered_per_hour_equal_exact_conversion_at_every_minute(zone, day):
    from app.store import ZoneOffsets

    offsets = ZoneOffsets(ZoneInfo(zone))
    instants = [day.timestamp() + 60 * m + s for m in range(-60, 2 * 1440) for s in (0, 59.5)]
    exact = [int(datetime.fromtimestamp(t, ZoneInfo(zone)).utcoffset().total_seconds()) for t in instants]
    assert [offsets.at(t) for t in instants] == exact
    assert len(set(exact)) == 2  # the day holds a change


def test_events_shown_in_a_zone_keep_the_instant_and_take_its_offset(store):
    from app.store import BATCH_SIZE

    utc = timezone.utc
    events = [make_event(i, start=datetime(2024, 3, 31, 0, 30, tzinfo=utc) + timedelta(minutes=i)) for i in range(90)]
    run = store.begin_run(["zone.json"])
    with store.file_import(run, "zone.json", "test") as writer:
        for event in events:
            writer.add(event, BERLIN, "Europe/Berlin")
    assert writer.result.added == 90 < BATCH_SIZE
    stored = {e.position: e for e in store.events()}
    before, after = stored["row 29"], stored["row 30"]  # 00:59 and 01:00 UTC: clocks jump from 02:00 to 03:00
    assert (before.start.isoformat(), after.start.isoformat()) == ("2024-03-31T01:59:00+01:00", "2024-03-31T03:00:00+02:00")
    assert before.end.isoformat() == "2024-03-31T03:02:00+02:00"  # ends after the change
    assert {e.tz for e in stored.values()} == {"Europe/Berlin"}
    assert all(stored[f"row {i}"].start == events[i].start for i in range(90))


def test_a_batch_of_long_texts_is_written_before_it_reaches_batch_size(store, monkeypatch):
    import app.store as store_module

    monkeypatch.setattr(store_module, "BATCH_BYTES", 5_000)
    batches: list[int] = []
    write = store_module.FileWriter._write
    monkeypatch.setattr(store_module.FileWriter, "_write", lambda self, batch: batches.append(len(batch)) or write(self, batch))
    result = import_events(store, [make_event(i, text=f"walrus{i} " + "x" * 990) for i in range(23)])
    assert batches == [5, 5, 5, 5, 3]  # each event holds ~1,000 text and ~55 data characters
    assert (result.added, store.count()) == (23, 23)
    assert [len(store.search(f"walrus{i}")) for i in (0, 22)] == [1, 1]
    store.check()


def test_a_new_store_gets_16k_pages_and_a_store_with_4k_pages_keeps_them_and_its_events(tmp_path):
    new = tmp_path / "new.sqlite"
    with EventStore.open(new) as s:
        import_events(s, [make_event(i) for i in range(3)])
        assert s._conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 64 * 1024 * 1024 // 16384
    conn = sqlite3.connect(new)
    assert conn.execute("PRAGMA page_size").fetchone()[0] == 16384
    conn.close()

    # A store made before the change: 4 KiB pages, WAL already on.
    old = tmp_path / "old.sqlite"
    conn = sqlite3.connect(old, isolation_level=None)
    conn.execute("PRAGMA page_size=4096")
    conn.execute("PRAGMA journal_mode=WAL")
    conn.close()
    with EventStore.open(old) as s:
        import_events(s, [make_event(i) for i in range(3)])
        assert s._conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 64 * 1024 * 1024 // 4096
    with EventStore.open(old) as s:
        assert s._conn.execute("PRAGMA page_size").fetchone()[0] == 4096
        assert (import_events(s, [make_event(i) for i in range(5)]).added, s.count()) == (2, 5)
        assert [e for e, _ in s.search("Track 4")] and s.check() is None
