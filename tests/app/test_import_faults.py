"""Importing never dies on one bad file: each cause found by the fuzz harness (issue 20) as a regression test.

A file that cannot be read is a FileError naming it and the next file is read; a bug in an importer ends
only that file's reading (its records before are kept); a second import into a store that is importing
says so plainly; nothing reaches the person as a traceback.
"""

from __future__ import annotations

import json
import os
import sqlite3
import struct
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

import app.store as store_module
from app.cli import main
from app.importing import import_paths
from app.store import EventStore, StoreError
from bench.import_bench import ROWS_PER_FILE, write_spotify
from importers.base import FileError

ROOT = Path(__file__).resolve().parents[2]

ENDSONG = [
    {"ts": "2023-05-01T10:00:00Z", "ms_played": 200000, "master_metadata_track_name": "One More Time",
     "master_metadata_album_artist_name": "Daft Punk", "master_metadata_album_album_name": "Discovery",
     "spotify_track_uri": "spotify:track:0DiWol3AO6WpXZgp0goxAV", "platform": "android", "conn_country": "DE"},
    {"ts": "2023-05-01T10:04:00Z", "ms_played": 180000, "master_metadata_track_name": "Aerodynamic",
     "master_metadata_album_artist_name": "Daft Punk", "master_metadata_album_album_name": "Discovery",
     "spotify_track_uri": "spotify:track:1DiWol3AO6WpXZgp0goxAV", "platform": "android", "conn_country": "DE"},
]


def test_a_bad_netflix_file_before_spotify_history_does_not_stop_the_spotify_import(tmp_path, monkeypatch):
    """The issue's first example: a Duration of 99999999999:00:00 in a file read before endsong_0.json."""
    export = tmp_path / "export"
    export.mkdir()
    (export / "ViewingActivity.csv").write_text(
        "Profile Name,Start Time,Duration,Attributes,Title,Supplemental Video Type,Device Type,Bookmark,Latest Bookmark,Country\n"
        "Eva,2023-05-01 20:00:00,99999999999:00:00,,Dark: Season 1: Secrets,,TV,00:40:00,00:40:00,DE (Germany)\n"
        "Eva,2023-05-02 20:00:00,00:45:00,,Dark: Season 1: Lies,,TV,00:45:00,00:45:00,DE (Germany)\n"
    )
    (export / "endsong_0.json").write_text(json.dumps(ENDSONG))
    with EventStore.open(tmp_path / "s.sqlite") as store:
        summary = import_paths(store, [export])
        assert [Path(f.file).name for f in summary.files] == ["ViewingActivity.csv", "endsong_0.json"]
        assert store.count("music_stream") == 2
        assert store.count("tvseries_stream") >= 1  # the good row of the bad file is kept

    # Whatever the Netflix reader does with the row, an exception it does not expect ends only its file.
    from importers.netflix import ViewingActivityImporter

    def broken(self, file):
        raise OverflowError("Python int too large to convert to C int")
        yield  # a generator

    monkeypatch.setattr(ViewingActivityImporter, "read", broken)
    with EventStore.open(tmp_path / "t.sqlite") as store:
        summary = import_paths(store, [export])
        netflix, spotify = summary.files
        (error,) = netflix.errors
        assert isinstance(error, FileError) and error.cause == "OverflowError" and error.position == "start of file"
        assert "OverflowError: Python int too large" in error.message
        assert (spotify.status, spotify.added) == ("done", 2)


def test_a_file_that_is_only_a_byte_order_mark_is_a_file_error(tmp_path):
    (tmp_path / "bom.json").write_bytes(b"\xef\xbb\xbf")
    (tmp_path / "bom_lines.csv").write_bytes(b"\xef\xbb\xbf\r\n  \r\n")
    with EventStore.open(tmp_path / "s.sqlite") as store:
        summary = import_paths(store, [tmp_path / "bom.json", tmp_path / "bom_lines.csv"])
        assert [f.status for f in summary.files] == ["unrecognised", "unrecognised"]
        assert all("holds no data (only a byte-order mark" in e.message for e in summary.errors)


def test_a_detector_that_raises_is_a_file_error_and_the_next_file_is_read(tmp_path, monkeypatch):
    import importers

    (tmp_path / "a.json").write_text("[1]")
    (tmp_path / "endsong_0.json").write_text(json.dumps(ENDSONG))
    real = importers.importer_for

    def importer_for(file):
        if file.name == "a.json":
            raise IndexError("list index out of range")
        return real(file)

    monkeypatch.setattr("app.importing.importer_for", importer_for)
    with EventStore.open(tmp_path / "s.sqlite") as store:
        summary = import_paths(store, [tmp_path / "a.json", tmp_path / "endsong_0.json"])
        (error,) = summary.errors
        assert error.cause == "IndexError" and "cannot tell which export this is" in error.message
        assert summary.added == 2


def test_an_encrypted_zip_member_is_a_file_error_and_the_others_import(tmp_path):
    archive = tmp_path / "my_spotify_data.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("MyData/secret.json", "[]")
        zf.writestr("MyData/endsong_0.json", json.dumps(ENDSONG))
    _mark_encrypted(archive, "MyData/secret.json")
    with zipfile.ZipFile(archive) as zf:  # as a zip made with a password reads
        assert zf.getinfo("MyData/secret.json").flag_bits & 1
    with EventStore.open(tmp_path / "s.sqlite") as store:
        summary = import_paths(store, [archive])
        (error,) = summary.errors
        assert error.file == f"{archive}!MyData/secret.json" and "encrypted" in error.message
        assert summary.added == 2


def _mark_encrypted(archive: Path, member: str) -> None:
    """Set the 'encrypted' flag of `member` in its local header and its central directory entry."""
    data = bytearray(archive.read_bytes())
    name = member.encode()
    for signature, flag_at, name_len_at, name_at in ((b"PK\x03\x04", 6, 26, 30), (b"PK\x01\x02", 8, 28, 46)):
        start = 0
        while (start := data.find(signature, start)) >= 0:
            (length,) = struct.unpack_from("<H", data, start + name_len_at)
            if data[start + name_at : start + name_at + length] == name:
                data[start + flag_at] |= 1
            start += 4
    archive.write_bytes(bytes(data))


def test_an_unrecognised_file_quotes_its_start_escaped(tmp_path):
    (tmp_path / "notes.txt").write_bytes(b"\x1b[2J\x1b]0;owned\x07 hello\r\nmore")
    with EventStore.open(tmp_path / "s.sqlite") as store:
        (error,) = import_paths(store, [tmp_path / "notes.txt"]).errors
        assert "\x1b" not in error.message and "\x07" not in error.message
        assert "\\x1b[2J\\x1b]0;owned\\x07 hello" in error.message


def test_a_store_failure_on_one_file_rolls_it_back_and_the_next_file_is_read(tmp_path, monkeypatch):
    write_spotify(tmp_path / "export", 2 * ROWS_PER_FILE)
    real = store_module._insert_rows
    calls = []

    def insert_rows(conn, batch):
        calls.append(len(batch))
        if len(calls) == 2:
            raise sqlite3.InterfaceError("Error binding parameter 9: type 'dict' is not supported")
        return real(conn, batch)

    monkeypatch.setattr(store_module, "_insert_rows", insert_rows)
    with EventStore.open(tmp_path / "s.sqlite") as store:
        summary = import_paths(store, [tmp_path / "export"])
        first, second = summary.files
        assert (first.status, first.added) == ("failed", 0)
        (error,) = first.errors
        assert error.cause == "StoreBug" and "nothing of this file was kept" in error.message
        assert (second.status, second.added) == ("done", ROWS_PER_FILE)
        assert store.count() == ROWS_PER_FILE
        assert [e.message for e in store.import_errors(summary.run_id)] == [error.message]
        with sqlite3.connect(tmp_path / "s.sqlite") as conn:
            assert conn.execute("SELECT status, errors FROM import_files ORDER BY id").fetchall() == [("failed", 1), ("done", 0)]


def test_symlinks_out_of_a_dropped_folder_are_not_followed(tmp_path):
    secret = tmp_path / "outside" / "id_rsa"
    secret.parent.mkdir()
    secret.write_text("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n")
    export = tmp_path / "export"
    export.mkdir()
    (export / "endsong_0.json").write_text(json.dumps(ENDSONG))
    (export / "key.json").symlink_to(secret)
    (export / "outside_dir").symlink_to(secret.parent, target_is_directory=True)
    (export / "endsong_1.json").symlink_to(export / "endsong_0.json")  # inside: read (and adds nothing new)
    (export / "dangling.json").symlink_to(tmp_path / "nowhere.json")
    with EventStore.open(tmp_path / "s.sqlite") as store:
        summary = import_paths(store, [export])
        notes = {Path(e.file).name: e.message for e in summary.errors}
        assert set(notes) == {"key.json", "outside_dir", "dangling.json"}
        assert all("outside the dropped folder" in m for m in notes.values())
        assert not any("OPENSSH" in e.message or "b3Blbn" in e.message for e in summary.errors)
        assert (summary.added, summary.skipped) == (2, 2)


def test_a_second_import_into_a_store_that_is_importing_says_so_plainly(tmp_path, monkeypatch, capsys):
    """Two processes: the first imports 8 files; the second, started meanwhile, is told another import runs."""
    write_spotify(tmp_path / "export", 8 * ROWS_PER_FILE)
    (tmp_path / "more").mkdir()
    (tmp_path / "more" / "endsong_0.json").write_text(json.dumps(ENDSONG))
    db = tmp_path / "s.sqlite"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    first = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "--db", str(db), "import", "--quiet", str(tmp_path / "export")],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not _files_done(db):
            time.sleep(0.05)
        assert first.poll() is None, "the first import finished too soon; make it larger"
        monkeypatch.setattr(store_module, "IMPORT_WAIT_S", 0.2)
        assert main(["--db", str(db), "import", "--quiet", str(tmp_path / "more")]) == 2
        err = capsys.readouterr().err
        assert f"another import is running into {db}" in err and "Traceback" not in err
        with EventStore.open(db, read_only=True) as store:  # reading meanwhile works
            assert store.count() >= 0
    finally:
        out, err = first.communicate(timeout=300)
    assert first.returncode == 0, err
    assert "Traceback" not in err and "OperationalError" not in err
    with EventStore.open(db) as store:
        assert store.count() == 8 * ROWS_PER_FILE
        with sqlite3.connect(db) as conn:
            assert conn.execute("SELECT status FROM import_runs").fetchall() == [("done",)]
    assert main(["--db", str(db), "import", "--quiet", str(tmp_path / "more")]) == 0  # once it is done


def _files_done(db: Path) -> bool:
    if not db.exists():
        return False
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1) as conn:
            return conn.execute("SELECT count(*) FROM import_files WHERE status='done'").fetchone()[0] >= 1
    except sqlite3.OperationalError:
        return False


def test_another_writer_holding_the_store_is_a_store_error_not_a_raw_sqlite_error(tmp_path, monkeypatch):
    """Two connections: one holds a write transaction; the other's writes wait, then raise StoreError."""
    monkeypatch.setattr(store_module, "BUSY_TIMEOUT_S", 0.2)
    db = tmp_path / "s.sqlite"
    with EventStore.open(db) as first, EventStore.open(db) as second:
        run = first.begin_run(["a"])
        with first.file_import(run, "a", "test"):
            with pytest.raises(StoreError, match="the store is busy"):
                second.begin_run(["b"])
            with pytest.raises(StoreError, match="the store is busy"):
                with second.file_import(run, "b", "test"):
                    pass
        first.finish_run(run)
        assert second.begin_run(["b"]) == run + 1  # once the first is done


def test_opening_a_store_while_it_imports_keeps_the_running_import_running(tmp_path):
    db = tmp_path / "s.sqlite"
    with EventStore.open(db) as importer:
        with importer.import_lock():
            run = importer.begin_run(["a"])
            with EventStore.open(db) as window:  # the window opening the store meanwhile
                pass
            with sqlite3.connect(db) as conn:
                assert conn.execute("SELECT status FROM import_runs WHERE id=?", (run,)).fetchone() == ("running",)
        with EventStore.open(db):  # no import holds the lock: the run left 'running' was killed
            pass
        with sqlite3.connect(db) as conn:
            assert conn.execute("SELECT status FROM import_runs WHERE id=?", (run,)).fetchone() == ("interrupted",)


def test_cli_import_of_a_folder_of_broken_files_prints_no_traceback(tmp_path, capsys):
    export = tmp_path / "export"
    export.mkdir()
    (export / "endsong_0.json").write_text(json.dumps(ENDSONG))
    (export / "endsong_1.json").write_text('[{"ts": "9999-12-31T23:59:59Z", "ms_played": 1e400,' + "[" * 100_000)
    (export / "bom.ics").write_bytes(b"\xef\xbb\xbf")
    rc = main(["--db", str(tmp_path / "s.sqlite"), "import", str(export)])
    out, err = capsys.readouterr()
    assert rc == 0 and "Traceback" not in out + err
    assert "2 events added" in out


def test_a_mail_dated_in_year_9999_at_minus_12_hours_leaves_the_store_readable(tmp_path, capsys):
    """Issue 20, cause 2: the mail imported 'successfully' and every later read failed with year 10000."""
    mbox = tmp_path / "All mail.mbox"
    mbox.write_bytes(
        b"From a@example.org Fri Dec 31 20:00:00 9999\n"
        b"From: Ada <a@example.org>\nTo: me@example.org\nSubject: From the future\n"
        b"Date: Fri, 31 Dec 9999 20:00:00 -1200\nMessage-ID: <future@example.org>\n\nHello\n\n"
        b"From b@example.org Mon May  6 10:00:00 2024\n"
        b"From: Bob <b@example.org>\nTo: me@example.org\nSubject: Lunch\n"
        b"Date: Mon, 6 May 2024 10:00:00 +0200\nMessage-ID: <lunch@example.org>\n\nLunch?\n"
    )
    db = str(tmp_path / "s.sqlite")
    assert main(["--db", db, "import", "--quiet", str(mbox)]) == 0
    assert "1 events added" in capsys.readouterr().out
    for command in (["sources"], ["events"], ["errors"]):
        assert main(["--db", db, *command]) == 0
    out = capsys.readouterr().out
    assert "Lunch" in out and "From the future" not in out.split("\n", 1)[0]
    assert "message 1" in out  # the error names the place of the refused mail


def test_spotify_rows_with_swapped_types_and_huge_values_keep_the_good_rows(tmp_path):
    """Issue 20: a dict for a track name reached SQLite; ms_played too big for C; a year-9999 ts."""
    good = ENDSONG[0]
    rows = [
        good,
        {**ENDSONG[1], "master_metadata_track_name": {"a": 1}},
        {**ENDSONG[1], "ts": "2023-05-02T10:00:00Z", "ms_played": 2**70},
        {**ENDSONG[1], "ts": "9999-12-31T23:59:59Z"},
        {**ENDSONG[1], "ts": "2023-05-03T10:00:00Z", "master_metadata_album_artist_name": ["Daft", "Punk"]},
        {**ENDSONG[1], "ts": "2023-05-04T10:00:00Z"},
    ]
    (tmp_path / "endsong_0.json").write_text(json.dumps(rows))
    with EventStore.open(tmp_path / "s.sqlite") as store:
        summary = import_paths(store, [tmp_path / "endsong_0.json"])
        (result,) = summary.files
        assert result.status == "done" and store.count() == result.added >= 2
        assert not any(getattr(e, "cause", None) for e in result.errors)  # no bug caught by the net
        assert all(e.position.startswith("row ") for e in result.errors)
        stored = list(store.events())
        assert {e.start.year for e in stored} == {2023}
        assert all(isinstance(e.title, str) for e in stored)


def test_cli_import_prints_odd_file_names_escaped(tmp_path, capsys):
    export = tmp_path / "export"
    export.mkdir()
    (export / "endsong_0\x1b[2J.json").write_text(json.dumps(ENDSONG))
    assert main(["--db", str(tmp_path / "s.sqlite"), "import", str(export)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "endsong_0\\x1b[2J.json" in out and "2 events added" in out


def test_the_import_lock_is_held_by_one_and_leaves_no_file_behind(tmp_path):
    from app.store import ImportLock

    db = tmp_path / "s.sqlite"
    first, second = ImportLock(db), ImportLock(tmp_path / "." / "s.sqlite")  # one store, two spellings
    assert first.path == second.path
    assert first.acquire(wait=0) and first.path.exists()
    assert not second.acquire(wait=0.1)
    first.release()
    assert not first.path.exists()
    assert second.acquire(wait=0)
    second.release()
    (tmp_path / "endsong_0.json").write_text(json.dumps(ENDSONG))
    with EventStore.open(db) as store:
        assert import_paths(store, [tmp_path / "endsong_0.json"]).added == 2
    assert not first.path.exists()
