"""Import what a person dropped into the event store: discover files, detect formats, stream, store.

Progress is reported in bytes read per file (every importer streams from `InputFile.open()`, so
wrapping that stream measures all of them alike). Cancelling rolls back the file in progress; files
already finished stay imported.

    summary = import_paths(store, ["~/Downloads/takeout.zip"], progress=print_progress)
"""

from __future__ import annotations

import io
import threading
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Callable, Iterable

from app.store import Cancelled, EventStore, FileResult
from importers import importer_for
from importers.base import Event, InputFile, RecordError, current_home_zone, home_zone
from importers.discover import iter_input_files

# progress(file_display, bytes_done, bytes_total)
ProgressCallback = Callable[[str, int, int], None]


@dataclass
class ImportSummary:
    run_id: int
    files: list[FileResult] = field(default_factory=list)
    cancelled: bool = False

    @property
    def added(self) -> int:
        return sum(f.added for f in self.files)

    @property
    def skipped(self) -> int:
        return sum(f.skipped for f in self.files)

    @property
    def errors(self) -> list[RecordError]:
        return [e for f in self.files for e in f.errors]


class CancelToken:
    """Set from any thread; checked between records."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()


class _CountingStream(io.RawIOBase):
    def __init__(self, raw: IO[bytes], on_read: Callable[[int], None]):
        self._raw = raw
        self._on_read = on_read

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        data = self._raw.read(len(buffer))
        n = len(data)
        buffer[:n] = data
        if n:
            self._on_read(n)
        return n

    def close(self) -> None:
        if not self.closed:
            self._raw.close()
        super().close()


def _counting(file: InputFile, on_read: Callable[[int], None]) -> InputFile:
    def opener() -> IO[bytes]:
        return io.BufferedReader(_CountingStream(file.open(), on_read), buffer_size=1 << 16)

    return replace(file, opener=opener)


def import_paths(
    store: EventStore,
    paths: Iterable[str | Path],
    *,
    progress: ProgressCallback | None = None,
    cancel: CancelToken | None = None,
    on_file_done: Callable[[FileResult], None] | None = None,
    home_zone: str | None = None,
) -> ImportSummary:
    """Import `paths`; `home_zone` (IANA name) is the person's zone, else $LIFELENS_TZ, else this computer's."""
    token = current_home_zone.set(home_zone)
    try:
        return _import_paths(store, [str(p) for p in paths], progress, cancel, on_file_done)
    finally:
        current_home_zone.reset(token)


def _import_paths(store, paths, progress, cancel, on_file_done) -> ImportSummary:
    run_id = store.begin_run(paths)
    summary = ImportSummary(run_id=run_id)
    status = "done"
    try:
        for item in iter_input_files(paths):
            if cancel is not None and cancel.cancelled:
                summary.cancelled = True
                status = "cancelled"
                break
            if isinstance(item, RecordError):
                result = store.record_unrecognised(run_id, item)
            else:
                result = import_file(store, run_id, item, progress=progress, cancel=cancel)
                if result.status == "cancelled":
                    summary.cancelled = True
                    status = "cancelled"
            summary.files.append(result)
            if on_file_done is not None:
                on_file_done(result)
            if summary.cancelled:
                break
    except BaseException:
        store.finish_run(run_id, "interrupted")
        raise
    store.finish_run(run_id, status)
    return summary


def import_file(
    store: EventStore,
    run_id: int,
    file: InputFile,
    *,
    progress: ProgressCallback | None = None,
    cancel: CancelToken | None = None,
) -> FileResult:
    if file.size == 0:
        return store.record_unrecognised(run_id, RecordError(file.display, "file", "empty file (0 bytes)"))
    try:
        importer = importer_for(file)
    except OSError as exc:
        return store.record_unrecognised(run_id, RecordError(file.display, "file", f"cannot read: {exc}"))
    if importer is None:
        hint = file.head_text(80).splitlines()[0][:60] if file.size else ""
        return store.record_unrecognised(
            run_id, RecordError(file.display, "file", f"not an export Lifelens reads (starts with {hint!r}); skipped")
        )

    done = 0

    def on_read(n: int) -> None:
        nonlocal done
        done += n
        if progress is not None:
            progress(file.display, min(done, file.size), file.size)

    counted = _counting(file, on_read)
    # Exports with bare UTC instants are shown in the person's zone (the stored instant is unchanged).
    zone, zone_name = home_zone() if getattr(importer, "zone_unknown", False) else (None, None)
    with store.file_import(run_id, file.display, importer.name) as writer:
        try:
            for record in importer.read(counted):
                if cancel is not None and cancel.cancelled:
                    raise Cancelled()
                if isinstance(record, Event):
                    if zone is not None and record.tz is None:
                        writer.add(record, zone, zone_name)  # shown in the person's zone; same instant
                    else:
                        writer.add(record)
                else:
                    writer.add_error(record)
        except (OSError, EOFError) as exc:
            # The stream itself broke (truncated zip member, I/O error): keep what was read so far.
            writer.add_error(RecordError(file.display, f"after byte {done}", f"file ends or breaks here: {exc}"))
    if progress is not None:
        progress(file.display, file.size, file.size)
    return writer.result
