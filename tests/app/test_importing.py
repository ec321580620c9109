"""The import pipeline end to end: detection, summaries, cancel, unrecognised files, and kill -9."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from app.importing import CancelToken, import_paths
from app.store import EventStore
from importers.base import FileError
from bench.import_bench import ROWS_PER_FILE, write_spotify

ROOT = Path(__file__).resolve().parents[2]


def test_zip_of_an_export_imports_and_reimport_adds_nothing(tmp_path):
    export = tmp_path / "export"
    write_spotify(export, 300)
    archive = tmp_path / "my_spotify_data.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for f in export.rglob("*.json"):
            zf.write(f, f.relative_to(export).as_posix())
    with EventStore.open(tmp_path / "s.sqlite") as store:
        first = import_paths(store, [archive])
        again = import_paths(store, [archive])
        assert (first.added, first.skipped, first.errors) == (300, 0, [])
        assert (again.added, again.skipped) == (0, 300)
        assert store.count("music_stream") == 300
        (event,) = store.events(limit=1)
        assert event.file.startswith(f"{archive}!Spotify Extended Streaming History/")


def test_unrecognised_and_empty_files_are_reported_and_others_still_import(tmp_path):
    write_spotify(tmp_path / "export", 20)
    (tmp_path / "export" / "empty.json").write_bytes(b"")
    (tmp_path / "export" / "budget.csv").write_text("Month,Rent,Food\nJan,900,300\n")
    (tmp_path / "export" / "photo.json").write_bytes(b"R\xff&e\xfe\x00\x01" * 10)
    with EventStore.open(tmp_path / "s.sqlite") as store:
        summary = import_paths(store, [tmp_path / "export"])
        by_name = {Path(f.file).name: f for f in summary.files}
        assert by_name["empty.json"].status == "unrecognised"
        assert "empty file" in by_name["empty.json"].errors[0].message
        assert by_name["budget.csv"].status == "unrecognised"
        assert by_name["budget.csv"].errors[0].file.endswith("budget.csv")
        assert "not an export Lifelens reads" in by_name["budget.csv"].errors[0].message
        # Bytes that are no text are named as such, not quoted as replacement characters.
        assert by_name["photo.json"].errors[0].message == ("not an export Lifelens reads (binary data, not text: a "
                                                           "picture, a program or a damaged file?); skipped")
        assert summary.added == 20
        assert {e.file for e in store.import_errors(summary.run_id)} == {
            str(tmp_path / "export" / "empty.json"), str(tmp_path / "export" / "budget.csv"),
            str(tmp_path / "export" / "photo.json")}


def test_cancel_keeps_finished_files_and_rolls_back_the_current_one(tmp_path):
    write_spotify(tmp_path / "export", 3 * ROWS_PER_FILE)
    token = CancelToken()
    seen: list[str] = []

    def progress(name: str, done: int, total: int) -> None:
        if name not in seen:
            seen.append(name)
        if len(seen) == 2 and done > total // 2:
            token.cancel()  # half-way through the second file

    with EventStore.open(tmp_path / "s.sqlite") as store:
        summary = import_paths(store, [tmp_path / "export"], progress=progress, cancel=token)
        assert summary.cancelled
        assert [f.status for f in summary.files] == ["done", "cancelled"]
        assert store.count() == ROWS_PER_FILE
        rest = import_paths(store, [tmp_path / "export"])
        assert (rest.added, rest.skipped) == (2 * ROWS_PER_FILE, ROWS_PER_FILE)


def test_kill_9_mid_import_leaves_a_consistent_store_and_rerun_completes(tmp_path):
    rows = 8 * ROWS_PER_FILE
    write_spotify(tmp_path / "export", rows)
    db = tmp_path / "s.sqlite"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "--db", str(db), "import", "--quiet", str(tmp_path / "export")],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        done_files = 0
        while time.monotonic() < deadline and done_files < 2:
            time.sleep(0.05)
            if db.exists():
                try:
                    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1) as conn:
                        done_files = conn.execute("SELECT count(*) FROM import_files WHERE status='done'").fetchone()[0]
                except sqlite3.OperationalError:
                    pass
        assert child.poll() is None, "the import finished before it could be killed; make the input larger"
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.wait()

    with EventStore.open(db) as store:
        store.check()
        stored = store.count()
        assert stored % ROWS_PER_FILE == 0 and ROWS_PER_FILE * 2 <= stored < rows  # only whole files
        with sqlite3.connect(db) as conn:
            statuses = dict(conn.execute("SELECT status, count(*) FROM import_runs GROUP BY status").fetchall())
        assert statuses == {"interrupted": 1}
        summary = import_paths(store, [tmp_path / "export"])
        assert (summary.added, summary.skipped) == (rows - stored, stored)
        assert store.count() == rows
        store.check()


def test_cli_import_sources_and_events(tmp_path, capsys):
    from app.cli import main

    write_spotify(tmp_path / "export", 50)
    db = str(tmp_path / "s.sqlite")
    assert main(["--db", db, "import", "--quiet", str(tmp_path / "export")]) == 0
    assert "50 events added" in capsys.readouterr().out
    assert main(["--db", db, "sources", "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert (row["source"], row["count"]) == ("music_stream", 50)
    assert main(["--db", db, "events", "--source", "music_stream", "--limit", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3 and json.loads(lines[0])["source"] == "music_stream"
    assert main(["--db", str(tmp_path / "missing.sqlite"), "sources"]) == 2
    assert "import something first" in capsys.readouterr().err


def test_bare_utc_exports_are_shown_in_the_home_zone_and_keep_their_instant(tmp_path):
    write_spotify(tmp_path / "export", 5)
    with EventStore.open(tmp_path / "utc.sqlite") as utc_store, EventStore.open(tmp_path / "home.sqlite") as home:
        import_paths(utc_store, [tmp_path / "export"], home_zone="UTC")
        import_paths(home, [tmp_path / "export"], home_zone="America/Los_Angeles")
        (a,), (b,) = utc_store.events(limit=1), home.events(limit=1)
        assert a.id == b.id and a.start == b.start and a.end == b.end  # same instant, same event
        assert (b.tz, b.start.utcoffset().total_seconds()) == ("America/Los_Angeles", -8 * 3600)  # January
        assert b.start.hour == (a.start.hour - 8) % 24


def test_home_zone_comes_from_the_environment_when_not_given(tmp_path, monkeypatch):
    monkeypatch.setenv("LIFELENS_TZ", "Asia/Tokyo")
    write_spotify(tmp_path / "export", 1)
    with EventStore.open(tmp_path / "s.sqlite") as store:
        import_paths(store, [tmp_path / "export"])
        (event,) = store.events()
        assert event.tz == "Asia/Tokyo" and event.start.utcoffset().total_seconds() == 9 * 3600


def test_next_file_read_ahead_keeps_progress_order_counts_and_failures(tmp_path, monkeypatch):
    """Each file's first records are read while the one before commits; nothing else may show it."""
    from importers.spotify import SpotifyImporter

    write_spotify(tmp_path / "export", 3 * ROWS_PER_FILE + 10)
    order: list[str] = []

    def progress(name: str, done: int, total: int) -> None:
        if not order or order[-1] != name:
            order.append(name)

    with EventStore.open(tmp_path / "s.sqlite") as store:
        summary = import_paths(store, [tmp_path / "export"], progress=progress)
        assert [f.added for f in summary.files] == [ROWS_PER_FILE] * 3 + [10]
        assert order == [f.file for f in summary.files]  # one file after the other, never interleaved
        store.check()

    read = SpotifyImporter.read

    def failing_read(self, file):
        for n, record in enumerate(read(self, file)):
            if n == 3 and file.name.endswith("_001.json"):
                raise RuntimeError("importer bug")  # inside the records read ahead
            yield record

    monkeypatch.setattr(SpotifyImporter, "read", failing_read)
    with EventStore.open(tmp_path / "t.sqlite") as store:
        summary = import_paths(store, [tmp_path / "export"])
        # The failing file keeps its 3 records before the bug; the files after it are read all the same.
        assert [f.added for f in summary.files] == [ROWS_PER_FILE, 3, ROWS_PER_FILE, 10]
        (error,) = summary.errors
        assert isinstance(error, FileError) and error.cause == "RuntimeError"
        assert error.file == summary.files[1].file and error.position == "after row 3"
        assert "importer bug" in error.message and "records before it are kept" in error.message
        assert store.count() == 2 * ROWS_PER_FILE + 13
        (stored,) = store.import_errors(summary.run_id)  # the store keeps file, place and message
        assert (stored.file, stored.position, stored.message) == (error.file, error.position, error.message)
        with sqlite3.connect(tmp_path / "t.sqlite") as conn:
            files = conn.execute("SELECT status, errors FROM import_files ORDER BY id").fetchall()
            runs = conn.execute("SELECT status FROM import_runs").fetchall()
        assert (files, runs) == ([("done", 0), ("done", 1), ("done", 0), ("done", 0)], [("done",)])


def test_a_file_parsed_whole_reports_progress_as_its_rows_are_stored(tmp_path):
    """A Spotify chunk is read in one go; its progress must follow the rows stored, not jump to the end."""
    write_spotify(tmp_path / "export", ROWS_PER_FILE)
    (path,) = (tmp_path / "export").rglob("*.json")
    reports: list[tuple[int, int]] = []

    def progress(name: str, done: int, total: int) -> None:
        reports.append((done, total))

    with EventStore.open(tmp_path / "s.sqlite") as store:
        summary = import_paths(store, [path], progress=progress)
        assert summary.added == ROWS_PER_FILE
    size = path.stat().st_size
    assert all(total == size for _, total in reports)
    dones = [done for done, _ in reports]
    assert dones == sorted(dones) and dones[-1] == size
    # Several steps before the end: one per 2,048 rows, each the share of the rows turned into events.
    partial = [d for d in dones if 0 < d < size]
    assert len(set(partial)) >= ROWS_PER_FILE // 2048 - 1
    assert partial[0] <= size * 2048 // ROWS_PER_FILE + 1
