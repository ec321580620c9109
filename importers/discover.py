"""Turn what a person dropped (files, folders, zips of whole exports) into `InputFile`s.

Zips are read in place, safely: member names that escape the archive (absolute paths, "..") are
refused, and expansion is bounded (total size and compression ratio) against zip bombs. A zip inside a
zip (Takeout splits) is opened one level deep. Formats are recognised by content, so a zip is a zip
whatever its name. An encrypted member, or one packed with a method Python cannot unpack, is a file error.

Symbolic links inside a dropped folder are followed only to places inside that folder: a link that
points out of it (to ~/.ssh/id_rsa, to /) is skipped with a note, never opened. A path the person
dropped themselves is read wherever it points.
"""

from __future__ import annotations

import io
import os
import zipfile
from pathlib import Path, PurePosixPath
from typing import IO, Iterator

from importers.base import FileError, InputFile, RecordError

MAX_ZIP_TOTAL_BYTES = 64 * 1024**3  # a Takeout of 50 GB is real; more than this is not an export
MAX_COMPRESSION_RATIO = 200  # text compresses ~10x, mbox up to ~50x; bombs go to 1000x+
RATIO_CHECK_ABOVE_BYTES = 50 * 1024**2
IGNORED_NAMES = {".DS_Store", "Thumbs.db", "desktop.ini"}

ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")
ZIP_ENCRYPTED_FLAG = 0x1
ZIP_METHODS = {zipfile.ZIP_STORED: "stored", zipfile.ZIP_DEFLATED: "deflate", zipfile.ZIP_BZIP2: "bzip2", zipfile.ZIP_LZMA: "lzma"}


def is_zip(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(4) in ZIP_MAGIC
    except OSError:
        return False


def iter_input_files(paths: list[Path] | list[str]) -> Iterator[InputFile | RecordError]:
    """Every importable file under `paths`, in a stable order; unreadable containers as errors."""
    for raw in paths:
        path = Path(raw)
        if not path.exists():
            yield FileError(str(path), "file", "no such file or folder")
        elif path.is_dir():
            yield from _from_folder(path)
        else:
            yield from _from_disk(path, base=path.parent)


def _from_folder(folder: Path) -> Iterator[InputFile | RecordError]:
    try:
        inside = folder.resolve()
    except (OSError, RuntimeError) as exc:
        yield FileError(str(folder), "folder", f"cannot read: {exc}")
        return

    def unreadable(exc: OSError) -> None:
        problems.append(FileError(str(exc.filename or folder), "folder", f"cannot read: {exc.strerror or exc}"))

    problems: list[RecordError] = []
    for root, dirs, files in os.walk(folder, onerror=unreadable):  # never follows linked folders
        yield from problems
        problems.clear()
        dirs.sort()
        for name in list(dirs):
            if (Path(root) / name).is_symlink():
                dirs.remove(name)
                yield _link_note(Path(root) / name, inside, "folder")
        for name in sorted(files):
            if name in IGNORED_NAMES or name.startswith("._"):
                continue
            path = Path(root) / name
            if path.is_symlink() and not _points_inside(path, inside):
                yield _link_note(path, inside, "file")
                continue
            yield from _from_disk(path, base=folder.parent)
    yield from problems


def _points_inside(link: Path, folder: Path) -> bool:
    """Whether `link` ends up at a file inside `folder` (already resolved), following every link on the way."""
    try:
        return link.resolve(strict=True).is_relative_to(folder)
    except (OSError, RuntimeError):  # dangling, a loop, no permission
        return False


def _link_note(link: Path, folder: Path, kind: str) -> FileError:
    if kind == "folder" and _points_inside(link, folder):
        return FileError(str(link), "link", "skipped: a link to a folder inside the dropped folder (its files are read there)")
    return FileError(str(link), "link", f"skipped: a symbolic link to a {kind} outside the dropped folder; drop that {kind} itself to import it")


def _from_disk(path: Path, base: Path) -> Iterator[InputFile | RecordError]:
    if is_zip(path):
        yield from _from_zip(path)
        return
    try:
        size = path.stat().st_size
    except OSError as exc:
        yield FileError(str(path), "file", f"cannot read: {exc.strerror or exc}")
        return
    if not path.is_file():  # a fifo or a device would block or never end
        yield FileError(str(path), "file", "skipped: not a regular file")
        return
    rel = path.relative_to(base).as_posix() if path.is_relative_to(base) else path.name
    yield InputFile(display=str(path), name=path.name, path=rel, size=size, opener=lambda p=path: open(p, "rb"))


def _safe_member_name(name: str) -> bool:
    p = PurePosixPath(name.replace("\\", "/"))
    return not (p.is_absolute() or ".." in p.parts or (p.parts and p.parts[0].endswith(":")))


def _from_zip(path: Path) -> Iterator[InputFile | RecordError]:
    try:
        with zipfile.ZipFile(path) as zf:
            infos = zf.infolist()
    except (zipfile.BadZipFile, OSError, EOFError, ValueError, NotImplementedError) as exc:
        yield FileError(str(path), "zip directory", f"not a readable zip archive ({exc}); is the download complete?")
        return
    yield from _zip_members(str(path), lambda: zipfile.ZipFile(path), infos, nested=False)


def _zip_members(display: str, open_zip, infos: list[zipfile.ZipInfo], nested: bool) -> Iterator[InputFile | RecordError]:
    total = sum(i.file_size for i in infos)
    if total > MAX_ZIP_TOTAL_BYTES:
        yield FileError(display, "zip directory", f"expands to {total} bytes, over the {MAX_ZIP_TOTAL_BYTES} limit")
        return
    for info in infos:
        if info.is_dir():
            continue
        where = f"{display}!{info.filename}"
        name = PurePosixPath(info.filename).name
        if name in IGNORED_NAMES or name.startswith("._") or info.filename.startswith("__MACOSX/"):
            continue
        if not _safe_member_name(info.filename):
            yield FileError(where, "zip member", "refused: the name points outside the archive")
            continue
        if info.flag_bits & ZIP_ENCRYPTED_FLAG:
            yield FileError(where, "zip member", "encrypted (the zip has a password): unpack it with its password, then drop the files")
            continue
        if info.compress_type not in ZIP_METHODS:
            yield FileError(where, "zip member", f"packed with compression method {info.compress_type}, which Lifelens cannot unpack: unpack the zip with another tool, then drop the files")
            continue
        if info.file_size > RATIO_CHECK_ABOVE_BYTES and info.file_size > MAX_COMPRESSION_RATIO * max(info.compress_size, 1):
            yield FileError(where, "zip member", f"refused: compression ratio over {MAX_COMPRESSION_RATIO}:1 (zip bomb?)")
            continue
        opener = _member_opener(open_zip, info.filename)
        if _member_is_zip(opener):
            if nested:
                yield FileError(where, "zip member", "zip inside a zip inside a zip: unpack it first")
                continue
            yield from _nested_zip(where, opener)
            continue
        yield InputFile(display=where, name=name, path=info.filename, size=info.file_size, opener=opener)


def _member_opener(open_zip, member: str):
    def opener() -> IO[bytes]:
        zf = open_zip()
        stream = zf.open(member)
        return _ClosingStream(stream, zf)

    return opener


def _member_is_zip(opener) -> bool:
    try:
        with opener() as f:
            return f.read(4) in ZIP_MAGIC
    except (zipfile.BadZipFile, OSError, EOFError, RuntimeError, ValueError, NotImplementedError):
        return False


def _nested_zip(display: str, opener) -> Iterator[InputFile | RecordError]:
    # A nested zip must be seekable: spool it to a temporary file rather than memory.
    import tempfile

    spool = tempfile.TemporaryFile()
    try:
        with opener() as src:
            while chunk := src.read(1 << 20):
                spool.write(chunk)
        spool.seek(0)
        zf = zipfile.ZipFile(spool)
        infos = zf.infolist()
    except (zipfile.BadZipFile, OSError, EOFError, RuntimeError, ValueError, NotImplementedError) as exc:
        spool.close()
        yield FileError(display, "zip directory", f"not a readable zip archive ({exc})")
        return
    yield from _zip_members(display, lambda: zipfile.ZipFile(spool), infos, nested=True)


class _ClosingStream(io.RawIOBase):
    """A zip member stream that also closes its ZipFile."""

    def __init__(self, stream: IO[bytes], owner: zipfile.ZipFile):
        self._stream = stream
        self._owner = owner

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        try:
            return self._stream.read(size)
        except (zipfile.BadZipFile, EOFError, RuntimeError, ValueError, NotImplementedError) as exc:
            raise OSError(f"corrupt zip member: {exc}") from exc

    def readinto(self, buffer) -> int:
        data = self.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)

    def close(self) -> None:
        if not self.closed:
            self._stream.close()
            self._owner.close()
        super().close()
