"""Import what a person dropped into the event store: discover files, detect formats, stream, store.

Progress is reported in bytes read per file (every importer streams from `InputFile.open()`, so
wrapping that stream measures all of them alike). Cancelling rolls back the file in progress; files
already finished stay imported.

Speed: events are written in batches by a thread behind the importer (app/store.py), and while a file's
last batches and its commit run in SQLite, a helper thread already parses the next file's first records
(`_RecordReader`). A file's progress is reported only once its own import has begun.

Nothing a file holds stops the import: a record an importer cannot read is a `RecordError`; an
exception an importer did not expect ends that file's reading with a `FileError` naming the place and
the cause, its records before it are kept (formats that stream) and the next file is read; a file that
cannot be opened or recognised is a `FileError`, and so is a file the store could not write (rolled
back). Only a `StoreError` (disk full, the store damaged, another import running) ends the import.

    summary = import_paths(store, ["~/Downloads/takeout.zip"], progress=print_progress)
"""

from __future__ import annotations

import contextvars
import io
import logging
import threading
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Any, Callable, Iterable, Iterator

from app.store import Cancelled, EventStore, FileResult, StoreError
from importers import importer_for
from importers.base import (
    Event, FileError, Importer, InputFile, Record, RecordError, current_home_zone, home_zone, printable,
)
from importers.discover import iter_input_files

# progress(file_display, bytes_done, bytes_total)
ProgressCallback = Callable[[str, int, int], None]

# The safety net's catches, with their tracebacks, for a developer (and bench/fuzz_imports.py): the
# person reads the FileError. DEBUG, so that no traceback reaches a terminal by logging's last resort.
log = logging.getLogger("lifelens.import")


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
    """Import `paths`; `home_zone` (IANA name) is the person's zone, else $LIFELENS_TZ, else this computer's.

    One import at a time writes into a store: while another runs, this one waits a little, then raises
    StoreError("another import is running into <db> ...").
    """
    token = current_home_zone.set(home_zone)
    try:
        with store.import_lock():
            return _import_paths(store, [str(p) for p in paths], progress, cancel, on_file_done)
    finally:
        current_home_zone.reset(token)


def _import_paths(store, paths, progress, cancel, on_file_done) -> ImportSummary:
    run_id = store.begin_run(paths)
    summary = ImportSummary(run_id=run_id)
    status = "done"
    items = iter(iter_input_files(paths))
    upcoming: _Opened | RecordError | None = _NOT_YET  # the next file, once opened
    try:
        while True:
            if cancel is not None and cancel.cancelled:
                summary.cancelled = True
                status = "cancelled"
                break
            item, upcoming = (_open_next(items, progress) if upcoming is _NOT_YET else upcoming), _NOT_YET
            if item is None:
                break
            if isinstance(item, RecordError):
                result = store.record_unrecognised(run_id, item)
            else:

                def read_next() -> None:  # this file's records are all in: read the next while this one commits
                    nonlocal upcoming
                    upcoming = _open_next(items, progress)

                result = _import_guarded(store, run_id, item, progress=progress, cancel=cancel, records_done=read_next)
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


def _import_guarded(store: EventStore, run_id: int, opened: "_Opened", **kwargs: Any) -> FileResult:
    """`_import_opened`, with a failure of the store on this file (rolled back) made the file's error."""
    try:
        return _import_opened(store, run_id, opened, **kwargs)
    except (StoreError, KeyboardInterrupt, SystemExit):
        raise  # the store itself cannot go on (disk full, damaged, locked): the person must act
    except Exception as exc:
        log.debug("storing %s failed", opened.file.display, exc_info=exc)
        result = opened.result or FileResult(file=opened.file.display, importer=opened.importer.name, status="failed")
        error = FileError(
            opened.file.display, "file",
            f"not stored, nothing of this file was kept: {type(exc).__name__}: {printable(exc, 300)}",
            cause=type(exc).__name__,
        )
        return store.record_failed(run_id, result, error)


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
    result: FileResult | None = None  # once its import has begun


_NOT_YET: Any = object()  # the next file is not opened yet


def _open_next(items: Iterator[InputFile | RecordError], progress: ProgressCallback | None) -> _Opened | RecordError | None:
    try:
        item = next(items, None)
    except Exception as exc:  # finding files broke off (a folder vanished mid-walk): the files found are imported
        log.debug("listing the dropped files failed", exc_info=exc)
        return FileError("(the dropped files)", "listing", f"could not list the rest: {type(exc).__name__}: {printable(exc, 300)}",
                         cause=type(exc).__name__)
    return item if item is None or isinstance(item, RecordError) else _open(item, progress)


def _open(file: InputFile, progress: ProgressCallback | None) -> _Opened | RecordError:
    """Detect `file`'s format and start reading its records; a FileError when it is not one Lifelens reads."""
    if file.size == 0:
        return FileError(file.display, "file", "empty file (0 bytes)")
    try:
        importer = importer_for(file)
    except OSError as exc:
        return FileError(file.display, "file", f"cannot read: {printable(exc, 300)}")
    except Exception as exc:  # a detector that chokes on the file's first bytes
        log.debug("detecting %s failed", file.display, exc_info=exc)
        return FileError(file.display, "file", f"cannot tell which export this is: {type(exc).__name__}: {printable(exc, 300)}",
                         cause=type(exc).__name__)
    if importer is None:
        return FileError(file.display, "file", _unrecognised(file))

    progress_of = _Progress(file, progress)
    try:
        reader = _RecordReader(importer, _counting(file, progress_of), file.display)
    except Exception as exc:  # a read() that is no generator and fails before its first record
        log.debug("starting to read %s failed", file.display, exc_info=exc)
        return FileError(file.display, "start of file", f"the {importer.name} reader failed: {type(exc).__name__}: {printable(exc, 300)}",
                         cause=type(exc).__name__)
    return _Opened(file, importer, reader, progress_of)


def _unrecognised(file: InputFile) -> str:
    """Why `file` is skipped, quoting its start escaped (a file's raw bytes never reach an error text)."""
    try:
        lines = file.head_text(80).splitlines()
    except Exception as exc:
        return f"cannot read: {printable(exc, 300)}"
    first = next((line for line in lines if line.strip()), "")
    if not first:
        return "holds no data (only a byte-order mark, blank lines or spaces); skipped"
    if _looks_binary(first):
        # Quoting undecodable bytes would show the person 'R\ufffd&e\ufffd': say what the file is instead.
        return "not an export Lifelens reads (binary data, not text: a picture, a program or a damaged file?); skipped"
    return f"not an export Lifelens reads (starts with {printable(repr(first[:60]))}); skipped"


def _looks_binary(text: str) -> bool:
    """Text decoded leniently from bytes that were not UTF-8 text: replacement characters or NUL bytes in it.
    Other control characters (a terminal's escape sequences) are text, quoted escaped."""
    return any(c in "\ufffd\x00" for c in text)


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
            opened.result = writer.result
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
                        writer.add_error(record)  # a RecordError, or the FileError that ended the reading
            except (OSError, EOFError) as exc:
                # The stream itself broke (truncated zip member, I/O error): keep what was read so far.
                writer.add_error(
                    FileError(file.display, f"after byte {opened.progress.done}", f"file ends or breaks here: {printable(exc, 300)}")
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
    parsing side by side would only contend for the GIL. Order is kept.

    An exception the importer did not expect ends the records with a `FileError` (after the records read
    before it), naming the last record read and the exception: errors as values, so the records before
    it are stored and the next file is read. OSError and EOFError (the stream broke) are raised as they
    are, for the caller to name the byte.
    """

    def __init__(self, importer: Importer, file: InputFile, display: str):
        self._records = importer.read(file)
        self._display = display
        self._name = importer.name
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
        except BaseException as exc:  # handed to the consumer after the records before it
            self._error = exc

    def __iter__(self) -> Iterator[Record]:
        self._thread.join()
        head, self._head = self._head, []
        yield from head
        last = head[-1] if head else None
        if self._error is not None:
            error, self._error = self._error, None
            yield self._stopped(error, last)
            return
        try:
            for last in self._records:
                yield last
        except Exception as exc:
            yield self._stopped(exc, last)

    def _stopped(self, exc: BaseException, last: Record | None) -> FileError:
        if isinstance(exc, (OSError, EOFError)) or not isinstance(exc, Exception):
            raise exc  # the stream broke, or the person pressed Ctrl+C
        log.debug("the %s reader failed on %s", self._name, self._display, exc_info=exc)
        where = f"after {printable(last.position)}" if last is not None else "start of file"
        kept = "the records before it are kept" if last is not None else "nothing of it was read"
        return FileError(
            self._display, where,
            f"the {self._name} reader stopped here ({type(exc).__name__}: {printable(exc, 300)}); {kept}, the rest of the file was not read",
            cause=type(exc).__name__,
        )

    def close(self) -> None:
        """Stop reading: the consumer is done or gave up."""
        self._thread.join()
        close = getattr(self._records, "close", None)
        if close is not None:
            try:
                close()
            except Exception:
                pass  # a generator that fails while closing has nothing more to give
