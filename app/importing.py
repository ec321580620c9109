"""Import what a person dropped into the event store: discover files, detect formats, stream, store.

Progress is reported in bytes read per file (every importer streams from `InputFile.open()`, so
wrapping that stream measures all of them alike). Cancelling rolls back the file in progress; files
already finished stay imported.

Speed: events are written in batches by a thread behind the importer (app/store.py), and while a file's
last batches and its commit run in SQLite, a helper thread already parses the next file's first records
(`_RecordReader`). A file's progress is reported only once its own import has begun.

    summary = import_paths(store, ["~/Downloads/takeout.zip"], progress=print_progress)
"""

from __future__ import annotations

import contextvars
import io
import threading
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Any, Callable, Iterable, Iterator

from app.store import Cancelled, EventStore, FileResult
from importers import importer_for
from importers.base import Event, Importer, InputFile, Record, RecordError, current_home_zone, home_zone
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


def _counting(file: InputFile, progress: "_Progress") -> InputFile:
    def opener() -> IO[bytes]:
        return io.BufferedReader(_CountingStream(file.open(), progress.read), buffer_size=1 << 16)

    return replace(file, opener=opener, on_position=progress.position)


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
    items = iter(iter_input_files(paths))
    upcoming: _Opened | RecordError | _Failed | None = _NOT_YET  # the next file, once opened
    try:
        while True:
            if cancel is not None and cancel.cancelled:
                summary.cancelled = True
                status = "cancelled"
                break
            item, upcoming = (_open_next(items, progress) if upcoming is _NOT_YET else upcoming), _NOT_YET
            if item is None:
                break
            if isinstance(item, _Failed):
                raise item.error
            if isinstance(item, RecordError):
                result = store.record_unrecognised(run_id, item)
            else:

                def read_next() -> None:  # this file's records are all in: read the next while this one commits
                    nonlocal upcoming
                    try:
                        upcoming = _open_next(items, progress)
                    except BaseException as exc:  # raised once this file is stored, as without read-ahead
                        upcoming = _Failed(exc)

                result = _import_opened(store, run_id, item, progress=progress, cancel=cancel, records_done=read_next)
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
    finally:
        _close(upcoming)
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
    opened = _open(file, progress)
    if isinstance(opened, RecordError):
        return store.record_unrecognised(run_id, opened)
    return _import_opened(store, run_id, opened, progress=progress, cancel=cancel)


@dataclass
class _Opened:
    """A file whose importer is known and whose records are being read (ahead) by a `_RecordReader`."""

    file: InputFile
    importer: Importer
    reader: "_RecordReader"
    progress: "_Progress"


_NOT_YET: Any = object()  # the next file is not opened yet


@dataclass
class _Failed:
    """Finding or opening the next file failed while the previous one was still being imported."""

    error: BaseException


def _open_next(items: Iterator[InputFile | RecordError], progress: ProgressCallback | None) -> _Opened | RecordError | None:
    item = next(items, None)
    return item if item is None or isinstance(item, RecordError) else _open(item, progress)


def _open(file: InputFile, progress: ProgressCallback | None) -> _Opened | RecordError:
    """Detect `file`'s format and start reading its records; a RecordError when it is not one Lifelens reads."""
    if file.size == 0:
        return RecordError(file.display, "file", "empty file (0 bytes)")
    try:
        importer = importer_for(file)
    except OSError as exc:
        return RecordError(file.display, "file", f"cannot read: {exc}")
    if importer is None:
        hint = file.head_text(80).splitlines()[0][:60] if file.size else ""
        return RecordError(file.display, "file", f"not an export Lifelens reads (starts with {hint!r}); skipped")

    progress_of = _Progress(file, progress)
    reader = _RecordReader(importer, _counting(file, progress_of))
    return _Opened(file, importer, reader, progress_of)


class _Progress:
    """Bytes read of one file, reported once its import has begun (it may be read ahead before).

    A reader that parses the file whole reports positions instead (`InputFile.report_position`); while it
    does, those are the progress, not the bytes read (all of them before the first record).
    """

    def __init__(self, file: InputFile, progress: ProgressCallback | None):
        self._file = file
        self._progress = progress
        self._lock = threading.Lock()
        self._started = False
        self._position: int | None = None
        self._reported = 0
        self.done = 0

    def read(self, n: int) -> None:
        with self._lock:
            self.done += n
            if self._started and self._position is None:
                self._report()

    def position(self, byte: int | None) -> None:
        with self._lock:
            self._position = byte
            if self._started:
                self._report()

    def start(self) -> None:
        with self._lock:
            self._started = True
            if self.done:
                self._report()

    def _report(self) -> None:
        if self._progress is not None:
            done = self.done if self._position is None else self._position
            # Never backwards: a reader may peek at the head before it starts reporting positions.
            self._reported = max(self._reported, min(done, self._file.size))
            self._progress(self._file.display, self._reported, self._file.size)


def _close(item: object) -> None:
    if isinstance(item, _Opened):
        item.reader.close()


def _import_opened(
    store: EventStore,
    run_id: int,
    opened: _Opened,
    *,
    progress: ProgressCallback | None,
    cancel: CancelToken | None,
    records_done: Callable[[], None] | None = None,
) -> FileResult:
    file, importer = opened.file, opened.importer
    # Exports with bare UTC instants are shown in the person's zone (the stored instant is unchanged).
    zone, zone_name = home_zone() if getattr(importer, "zone_unknown", False) else (None, None)
    opened.progress.start()
    try:
        with store.file_import(run_id, file.display, importer.name) as writer:
            try:
                for record in opened.reader:
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
                writer.add_error(
                    RecordError(file.display, f"after byte {opened.progress.done}", f"file ends or breaks here: {exc}")
                )
            if records_done is not None:
                records_done()
    finally:
        opened.reader.close()
    if progress is not None:
        progress(file.display, file.size, file.size)
    return writer.result


READ_AHEAD_RECORDS = 500  # records of the next file read while the previous one commits


class _RecordReader:
    """An importer's records, the first `READ_AHEAD_RECORDS` of them read ahead in a helper thread.

    A file's last batches and its commit run in SQLite without the GIL, so meanwhile a helper thread
    starts parsing the next file (for a Spotify chunk: the whole JSON at once). The consumer then takes
    those records and goes on with the importer's generator itself, in its own thread: two threads
    parsing side by side would only contend for the GIL. Order and errors are kept: an exception
    from the importer comes after the records read before it.
    """

    def __init__(self, importer: Importer, file: InputFile):
        self._records = importer.read(file)
        self._head: list[Record] = []
        self._error: BaseException | None = None
        context = contextvars.copy_context()  # the import's home zone, for importers that read it
        self._thread = threading.Thread(target=context.run, args=(self._read_head,), name="lifelens-read", daemon=True)
        self._thread.start()

    def _read_head(self) -> None:
        head = self._head
        try:
            for record in self._records:
                head.append(record)
                if len(head) >= READ_AHEAD_RECORDS:
                    break  # the generator stays open; the consumer goes on with it
        except BaseException as exc:  # raised to the consumer after the records before it
            self._error = exc

    def __iter__(self) -> Iterator[Record]:
        self._thread.join()
        head, self._head = self._head, []
        yield from head
        if self._error is not None:
            raise self._error
        yield from self._records

    def close(self) -> None:
        """Stop reading: the consumer is done or gave up."""
        self._thread.join()
        close = getattr(self._records, "close", None)
        if close is not None:
            close()
