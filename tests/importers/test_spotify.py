"""Spotify importer: real account-data and extended-history samples, and generated bad or overlapping files."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest

from importers.base import home_zone

from importers.discover import iter_input_files
from importers.spotify import SpotifyImporter
from tests.importers.fixtures_tabular import (
    empty_file,
    import_into,
    needs_real_exports,
    real_export,
    spotify_account_file,
    spotify_account_rows,
    spotify_extended_file,
    spotify_extended_rows,
    truncated_copy,
)

UTC = timezone.utc

# file -> (music, podcast) events; counted from the files with json.load, podcasts by their layout
REAL_COUNTS = {
    "jonasmika_StreamingHistory5_with_podcasts.json": (4404, 25),  # 25 rows of the show 'Gemischtes Hack'
    "koito_Streaming_History_Audio_test.json": (39, 0),
    "listenbrainz_Streaming_History_Audio_2023.json": (5, 0),
    "listenbrainz_endsong_0.json": (5, 0),
    "nplotter_StreamingHistory2.json": (8905, 0),
    "za1nab_StreamingHistory_music_1.json": (2482, 0),
    "za1nab_StreamingHistory_podcast_0.json": (0, 140),
}


def _first(store, source):
    return next(store.events(source=source, limit=1))


def _by_position(store, position, source="music_stream"):
    return next(e for e in store.events(source=source) if e.position == position)


@needs_real_exports
@pytest.mark.parametrize("name", sorted(REAL_COUNTS))
def test_real_export_counts(tmp_path, name):
    path = real_export("spotify", name)
    store, summary = import_into(tmp_path, [path])
    music, podcasts = REAL_COUNTS[name]
    assert summary.errors == []
    assert [f.importer for f in summary.files] == ["spotify"]
    assert (store.count("music_stream"), store.count("podcast_stream")) == (music, podcasts)
    assert summary.added == music + podcasts


@needs_real_exports
def test_real_account_data_fields(tmp_path):
    store, _ = import_into(tmp_path, [real_export("spotify", "jonasmika_StreamingHistory5_with_podcasts.json")])
    first = _by_position(store, "row 1")
    # {"endTime": "2022-03-25 23:30", "artistName": "Nines", "trackName": "Fire In the Booth", "msPlayed": 29570}
    assert first.title == "Nines - Fire In the Booth"
    assert dict(first.data) == {"artist": "Nines", "track": "Fire In the Booth", "ms_played": 29570}
    assert first.end == datetime(2022, 3, 25, 23, 30, tzinfo=UTC)
    assert first.start == datetime(2022, 3, 25, 23, 29, 30, 430000, tzinfo=UTC)
    assert first.type == "spotify_account"
    assert first.tz == home_zone()[1]  # bare UTC instants are shown in the person's zone
    show = [e for e in store.events(source="podcast_stream")]
    assert {e.data["show"] for e in show} == {"Gemischtes Hack"}
    longest = max(show, key=lambda e: e.data["ms_played"])
    assert (longest.data["episode"], longest.data["ms_played"]) == ("#146 OKKANER LAMBO", 2703034)
    # Umlauts survive: '#180 NUSSIGE GRÜßE' is an episode of the show
    assert any(e.data["episode"] == "#180 NUSSIGE GRÜßE" for e in show)


@needs_real_exports
def test_real_podcast_file_fields(tmp_path):
    store, _ = import_into(tmp_path, [real_export("spotify", "za1nab_StreamingHistory_podcast_0.json")])
    first = _by_position(store, "row 1", "podcast_stream")
    assert dict(first.data) == {"show": "Tea With GenZ", "episode": "Stan Culture", "ms_played": 1366726}
    assert first.end == datetime(2024, 8, 17, 15, 38, tzinfo=UTC)
    assert first.title == "Tea With GenZ - Stan Culture"


@needs_real_exports
def test_real_extended_history_fields(tmp_path):
    store, _ = import_into(tmp_path, [real_export("spotify", "koito_Streaming_History_Audio_test.json")])
    first = _by_position(store, "row 1")
    assert first.end == datetime(2025, 4, 28, 21, 4, 35, tzinfo=UTC)  # ts is when the stream ended
    assert first.start == datetime(2025, 4, 28, 21, 4, 33, 397000, tzinfo=UTC)  # ... ms_played 1603 earlier
    assert dict(first.data) == {
        "artist": "fripSide",
        "track": "only my railgun",
        "album": "infinite synthesis",
        "ms_played": 1603,
        "platform": "windows",
        "shuffle": False,
        "skipped": True,
        "reason_start": "clickrow",
        "reason_end": "endplay",
        "uri": "spotify:track:3aJ2aJz5xL03hpaqdPS7Ah",
        "country": "US",
    }
    assert first.type == "spotify_extended"
    assert "infinite synthesis" in first.text
    assert [e.id for e in store.events(text="比翼の羽根")] != []


@needs_real_exports
def test_real_endsong_zero_play_and_null_skipped(tmp_path):
    store, _ = import_into(tmp_path, [real_export("spotify", "listenbrainz_endsong_0.json")])
    zero = _by_position(store, "row 3")  # Noura Mint Seymali - Ghlana, ms_played 0, skipped null
    assert zero.title == "Noura Mint Seymali - Ghlana"
    assert zero.data["ms_played"] == 0 and zero.start == zero.end
    assert "skipped" not in zero.data and "country" not in zero.data  # null and "" are left out
    oldest = _first(store, "music_stream")
    assert (oldest.title, oldest.start.year) == ("Spoon - I Turn My Camera On", 2010)


def test_extended_podcast_and_audiobook_rows(tmp_path):
    rows = spotify_extended_rows(0, 3)
    rows[1].update(master_metadata_track_name=None, master_metadata_album_artist_name=None,
                   master_metadata_album_album_name=None, spotify_track_uri=None,
                   episode_name="Folge 12: Pilze", episode_show_name="Waldgeflüster",
                   spotify_episode_uri="spotify:episode:0000000000000000000012")
    rows[2].update(master_metadata_track_name=None, master_metadata_album_artist_name=None,
                   master_metadata_album_album_name=None, spotify_track_uri=None,
                   audiobook_title="Der Zauberberg", audiobook_uri="spotify:show:zb",
                   audiobook_chapter_uri="spotify:episode:zb-3", audiobook_chapter_title="Kapitel 3")
    path = spotify_extended_file(tmp_path, "Streaming_History_Audio_2023.json", rows)
    store, summary = import_into(tmp_path, [path])
    assert summary.errors == []
    (episode,) = store.events(source="podcast_stream")
    assert episode.title == "Waldgeflüster - Folge 12: Pilze"
    assert dict(episode.data) == {"show": "Waldgeflüster", "episode": "Folge 12: Pilze", "ms_played": rows[1]["ms_played"],
                                  "platform": "android", "uri": "spotify:episode:0000000000000000000012"}
    (book,) = store.events(source="audiobook_stream")
    assert dict(book.data) == {"audiobook": "Der Zauberberg", "chapter": "Kapitel 3", "ms_played": rows[2]["ms_played"]}
    assert store.count("music_stream") == 1


def test_empty_file_is_reported_by_name(tmp_path):
    path = empty_file(tmp_path, "StreamingHistory_music_3.json")
    store, summary = import_into(tmp_path, [path])
    (error,) = summary.errors
    assert error.file == str(path) and error.position == "file" and "empty" in error.message
    assert store.count() == 0


def test_json_that_is_not_streaming_history_is_not_claimed(tmp_path):
    path = tmp_path / "StreamingHistory_music_0.json"
    path.write_text('[{"date": "2023-01-01", "song": "x"}]')
    (file,) = iter_input_files([path])
    assert SpotifyImporter().detect(file) is False
    named_otherwise = spotify_account_file(tmp_path, "playlist.json", spotify_account_rows(0, 2))
    (file,) = iter_input_files([named_otherwise])
    assert SpotifyImporter().detect(file) is False  # name and content must both fit


def test_truncated_download_keeps_complete_rows_and_names_the_break(tmp_path):
    full = spotify_account_file(tmp_path, "full.json", spotify_account_rows(0, 100))
    cut = truncated_copy(full, tmp_path, "StreamingHistory_music_0.json", cut_after='"trackName" : "Song 4')  # row 5
    store, summary = import_into(tmp_path, [cut])
    (error,) = summary.errors
    assert (error.file, error.position) == (str(cut), "row 5")
    assert "download" in error.message
    assert store.count() == 4
    assert [e.data["track"] for e in store.events()] == ["Song 0", "Song 1", "Song 2", "Song 3"]


def test_bad_rows_are_errors_with_their_row_and_the_rest_imports(tmp_path):
    rows = spotify_account_rows(0, 5)
    rows[1]["endTime"] = "2023-13-45 99:99"
    rows[3]["msPlayed"] = "lots"
    path = spotify_account_file(tmp_path, "StreamingHistory_music_0.json", rows)
    store, summary = import_into(tmp_path, [path])
    assert [(e.file, e.position) for e in summary.errors] == [(str(path), "row 2"), (str(path), "row 4")]
    assert "endTime '2023-13-45 99:99' is not a date" in summary.errors[0].message
    assert "msPlayed 'lots'" in summary.errors[1].message
    assert store.count() == 3


def test_reimport_adds_nothing_and_overlapping_chunks_add_only_new_rows(tmp_path):
    first = spotify_account_file(tmp_path, "StreamingHistory_music_0.json", spotify_account_rows(0, 60))
    # The next download repeats the last 10 rows of the previous chunk (same minute boundary) and adds 40.
    second_dir = tmp_path / "later"
    second_dir.mkdir()
    second = spotify_account_file(second_dir, "StreamingHistory_music_0.json", spotify_account_rows(50, 50))
    store, summary = import_into(tmp_path, [first])
    assert summary.added == 60
    _, again = import_into(tmp_path, [first], store)
    assert (again.added, again.skipped) == (0, 60)
    _, overlap = import_into(tmp_path, [second], store)
    assert (overlap.added, overlap.skipped) == (40, 10)
    assert store.count() == 100


def test_extended_overlap_dedupes_on_ts_uri_and_ms(tmp_path):
    a = spotify_extended_file(tmp_path, "Streaming_History_Audio_2022-2023_0.json", spotify_extended_rows(0, 30))
    b = spotify_extended_file(tmp_path, "Streaming_History_Audio_2023_1.json", spotify_extended_rows(20, 30))
    store, summary = import_into(tmp_path, [a, b])
    assert [(f.added, f.skipped) for f in summary.files] == [(30, 0), (20, 10)]
    assert store.count("music_stream") == 50


def test_byte_order_mark_is_tolerated(tmp_path):
    path = spotify_account_file(tmp_path, "StreamingHistory_music_0.json", spotify_account_rows(0, 3))
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    store, summary = import_into(tmp_path, [path])
    assert summary.errors == [] and store.count() == 3


def _read_both_ways(path, monkeypatch):
    """The records of `path` read whole (orjson) and row by row (as files above the size bound are)."""
    import importers.spotify as spotify

    (file,) = list(iter_input_files([path]))
    whole = list(SpotifyImporter().read(file))
    monkeypatch.setattr(spotify, "WHOLE_FILE_MAX_BYTES", 0)
    streamed = list(SpotifyImporter().read(file))
    monkeypatch.undo()
    return whole, streamed


def test_files_read_whole_and_streamed_give_identical_records(tmp_path, monkeypatch):
    rows = spotify_extended_rows(0, 40)
    rows[3]["ms_played"] = "lots"
    rows[4]["master_metadata_album_album_name"] = ""  # left out of data
    rows[5]["ms_played"] = 1234.0
    rows[6] = ["not", "a", "row"]
    path = spotify_extended_file(tmp_path, "Streaming_History_Audio_2024_0.json", rows)
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    whole, streamed = _read_both_ways(path, monkeypatch)
    assert whole == streamed
    assert [type(r).__name__ for r in whole].count("Event") == 38
    assert [(r.position, r.message) for r in whole if type(r).__name__ == "RecordError"] == [
        ("row 4", "ms_played 'lots' is not a number of milliseconds"),
        ("row 7", "expected an object with stream fields, found list"),
    ]
    fifth, sixth = whole[4], whole[5]
    assert "album" not in fifth.data and sixth.data["ms_played"] == 1234


def test_rows_with_wrong_field_types_are_read_whole_and_match_streaming(tmp_path, monkeypatch):
    """Every row an object: the file is decoded at once into the fields used, bad values still named per row."""
    import importers.spotify as spotify

    rows = spotify_extended_rows(0, 12)
    rows[1]["ts"] = 1700000000  # not a string
    rows[2]["ms_played"] = -5
    rows[3]["ms_played"] = 10**30  # more than a week: no play, and past what a timedelta holds
    rows[4]["unexpected_field"] = {"nested": [1, 2]}  # unknown fields are skipped
    del rows[5]["platform"]
    path = spotify_extended_file(tmp_path, "Streaming_History_Audio_2024_2.json", rows)
    (file,) = list(iter_input_files([path]))

    def no_streaming(*args):
        raise AssertionError("a file of objects must not need streaming")

    monkeypatch.setattr(spotify, "_stream_rows", no_streaming)
    whole = list(SpotifyImporter().read(file))
    monkeypatch.undo()
    _, streamed = _read_both_ways(path, monkeypatch)
    assert whole == streamed
    assert [(r.position, r.message) for r in whole if type(r).__name__ == "RecordError"] == [
        ("row 2", "ts 1700000000 is not a date and time"),
        ("row 3", "ms_played -5 is not a number of milliseconds"),
        ("row 4", "ms_played 1000000000000000000000000000000 is more than a week; not one play"),
    ]
    assert "platform" not in whole[5].data and whole[4].data["platform"] == rows[4]["platform"]


def test_a_broken_file_is_streamed_to_find_where_it_breaks(tmp_path, monkeypatch):
    full = spotify_extended_file(tmp_path, "full.json", spotify_extended_rows(0, 20))
    cut = truncated_copy(full, tmp_path, "Streaming_History_Audio_2024_1.json", cut_after='"Track 9"')  # row 10
    whole, streamed = _read_both_ways(cut, monkeypatch)
    assert whole == streamed
    assert len(whole) == 10 and [r.position for r in whole[:9]] == [f"row {i}" for i in range(1, 10)]
    assert whole[9].position == "row 10" and "download" in whole[9].message


@needs_real_exports
@pytest.mark.parametrize("name", sorted(REAL_COUNTS))
def test_real_exports_read_whole_and_streamed_alike(tmp_path, monkeypatch, name):
    whole, streamed = _read_both_ways(real_export("spotify", name), monkeypatch)
    assert whole == streamed
    assert len(whole) == sum(REAL_COUNTS[name])


# --- issue 20: one bad row is a record error, never an exception or a value the store cannot hold ----------


def test_names_that_are_not_text_are_row_errors_in_both_layouts(tmp_path, monkeypatch):
    """A fuzzed export put {"a": 1} where a track or artist name belongs: it reached SQLite as a dict."""
    rows = spotify_extended_rows(0, 6)
    rows[1]["master_metadata_track_name"] = {"a": 1}
    rows[2]["master_metadata_album_artist_name"] = ["x"]
    rows[3]["platform"] = {"os": "android"}
    path = spotify_extended_file(tmp_path, "Streaming_History_Audio_2024_3.json", rows)
    whole, streamed = _read_both_ways(path, monkeypatch)
    assert whole == streamed
    errors = [(r.position, r.message) for r in whole if type(r).__name__ == "RecordError"]
    assert [p for p, _ in errors] == ["row 2", "row 3", "row 4"]
    assert "master_metadata_track_name" in errors[0][1] and "wrong type" in errors[0][1]
    assert all(type(v) in (str, int, float, bool) for r in whole if type(r).__name__ == "Event" for v in r.data.values())

    account = spotify_account_rows(0, 4)
    account[1]["artistName"] = {"a": 1}
    account[2]["trackName"] = [1, 2]
    path = spotify_account_file(tmp_path, "StreamingHistory0.json", account)  # the pre-2023 name: podcast pass too
    store, summary = import_into(tmp_path, [path])
    assert [(e.position, e.message) for e in summary.errors] == [
        ("row 2", "artistName is an object, not text"),
        ("row 3", "trackName is a list, not text"),
    ]
    assert store.count() == 2


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("ms_played", 2**64, "is more than a week"),
        ("ms_played", 1e300, "is more than a week"),
        ("ts", "0001-01-01T00:00:00Z", "ts 0001-01-01 is outside the years 1900-2100"),
        ("ts", "9999-12-31T23:59:59Z", "ts 9999-12-31 is outside the years 1900-2100"),
    ],
)
def test_values_past_c_ints_and_dates_near_year_1_or_9999_are_row_errors(tmp_path, field, value, message):
    rows = spotify_extended_rows(0, 3)
    rows[1][field] = value
    path = spotify_extended_file(tmp_path, "Streaming_History_Audio_2024_4.json", rows)
    store, summary = import_into(tmp_path, [path])
    (error,) = summary.errors
    assert error.position == "row 2" and message in error.message
    assert store.count() == 2


@needs_real_exports
def test_a_non_utf8_byte_names_its_row_and_the_other_rows_import(tmp_path, monkeypatch):
    """msgspec raises UnicodeDecodeError (not its DecodeError) for such a byte: it escaped the importer."""
    path = real_export("spotify", "koito_Streaming_History_Audio_test.json")
    data = path.read_bytes()
    at = data.index(b'"master_metadata_track_name"', len(data) // 2)
    at = data.index(b'"', at + 29) + 2  # inside row 21's track name
    bad = tmp_path / "Streaming_History_Audio_2025.json"
    bad.write_bytes(data[:at] + b"\xff" + data[at:])
    whole, streamed = _read_both_ways(bad, monkeypatch)
    assert whole == streamed
    (error,) = [r for r in whole if type(r).__name__ == "RecordError"]
    assert error.file == str(bad) and error.position == "row 21" and "not UTF-8" in error.message and "0xFF" in error.message
    assert len(whole) == 39


def test_100000_nested_brackets_are_a_quick_row_error(tmp_path):
    """One row with 100,000 nested '[' (200 KB): MemoryError after 23 s and 7.9 GB before."""
    import resource
    import time

    text = json.dumps(spotify_extended_rows(0, 3), indent=1).encode()
    at = text.index(b'"master_metadata_track_name": ', 300) + len(b'"master_metadata_track_name": ')
    end = text.index(b",", at)
    closed = tmp_path / "Streaming_History_Audio_2024_5.json"
    closed.write_bytes(text[:at] + b"[" * 100_000 + b"]" * 100_000 + text[end:])
    unclosed = tmp_path / "later" / "Streaming_History_Audio_2024_5.json"
    unclosed.parent.mkdir()
    unclosed.write_bytes(text[:at] + b"[" * 100_000 + text[end:])
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    (file,) = iter_input_files([closed])
    records = list(SpotifyImporter().read(file))
    (cut,) = iter_input_files([unclosed])
    cut_records = list(SpotifyImporter().read(cut))
    assert time.perf_counter() - started < 2
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 200 * 1024  # KB: under 200 MB more
    assert [type(r).__name__ for r in records] == ["Event", "RecordError", "Event"]
    assert records[1].position == "row 2" and "nests 100001 levels deep" in records[1].message
    assert [type(r).__name__ for r in cut_records] == ["Event", "RecordError"]
    assert cut_records[1].position == "row 2" and "download" in cut_records[1].message
