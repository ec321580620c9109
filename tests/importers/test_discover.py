"""Finding importable files in what a person dropped: files, folders, zips; unsafe zips refused."""

from __future__ import annotations

import io
import zipfile

from importers.base import FileError, InputFile, RecordError
from importers.discover import MAX_COMPRESSION_RATIO, iter_input_files


def _names(items):
    return [i.path if isinstance(i, InputFile) else f"ERR {i.position}: {i.message}" for i in items]


def test_folder_is_walked_in_stable_order_and_junk_ignored(tmp_path):
    (tmp_path / "export" / "b").mkdir(parents=True)
    (tmp_path / "export" / "a.json").write_text("[]")
    (tmp_path / "export" / "b" / "c.csv").write_text("x")
    (tmp_path / "export" / ".DS_Store").write_text("x")
    items = list(iter_input_files([tmp_path / "export"]))
    assert _names(items) == ["export/a.json", "export/b/c.csv"]
    assert items[0].head() == b"[]"


def test_zip_members_are_files_whatever_the_zip_is_called(tmp_path):
    archive = tmp_path / "my_spotify_data.download"  # no .zip extension: detected by content
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("MyData/StreamingHistory_music_0.json", '[{"a": 1}]')
        zf.writestr("MyData/", "")
    (item,) = iter_input_files([archive])
    assert item.path == "MyData/StreamingHistory_music_0.json"
    assert item.display == f"{archive}!MyData/StreamingHistory_music_0.json"
    with item.open() as f:
        assert f.read() == b'[{"a": 1}]'


def test_path_traversal_members_are_refused(tmp_path):
    archive = tmp_path / "evil.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("../../etc/passwd", "root")
        zf.writestr("/abs/path.txt", "x")
        zf.writestr("ok/file.txt", "fine")
    items = list(iter_input_files([archive]))
    errors = [i for i in items if isinstance(i, RecordError)]
    assert [e.file for e in errors] == [f"{archive}!../../etc/passwd", f"{archive}!/abs/path.txt"]
    assert all("outside the archive" in e.message for e in errors)
    assert [i.path for i in items if isinstance(i, InputFile)] == ["ok/file.txt"]


def test_zip_bomb_member_is_refused(tmp_path):
    archive = tmp_path / "bomb.zip"
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("zeros.txt", b"\0" * (60 * 1024 * 1024))
    (item,) = iter_input_files([archive])
    assert isinstance(item, RecordError)
    assert f"{MAX_COMPRESSION_RATIO}:1" in item.message and item.file.endswith("!zeros.txt")


def test_truncated_zip_is_a_clear_error(tmp_path):
    archive = tmp_path / "takeout.zip"
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("Takeout/Calendar/a.ics", "BEGIN:VCALENDAR\r\n" * 500)
    archive.write_bytes(buf.getvalue()[: len(buf.getvalue()) // 2])
    (item,) = iter_input_files([archive])
    assert isinstance(item, RecordError)
    assert item.file == str(archive) and "not a readable zip" in item.message


def test_nested_zip_is_opened_one_level(tmp_path):
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as zf:
        zf.writestr("Takeout/Mail/All mail.mbox", "From x\n")
    outer = tmp_path / "outer.zip"
    with zipfile.ZipFile(outer, "w") as zf:
        zf.writestr("takeout-001.zip", inner.getvalue())
    (item,) = iter_input_files([outer])
    assert item.display == f"{outer}!takeout-001.zip!Takeout/Mail/All mail.mbox"
    assert item.head() == b"From x\n"


def test_missing_path_is_an_error(tmp_path):
    (item,) = iter_input_files([tmp_path / "nope"])
    assert isinstance(item, RecordError) and "no such file" in item.message


def test_a_member_packed_with_an_unknown_method_is_a_file_error(tmp_path):
    import struct

    archive = tmp_path / "export.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("odd.json", "[]")
        zf.writestr("fine.json", "[]")
    data = bytearray(archive.read_bytes())
    for signature, method_at, name_len_at, name_at in ((b"PK\x03\x04", 8, 26, 30), (b"PK\x01\x02", 10, 28, 46)):
        start = 0
        while (start := data.find(signature, start)) >= 0:
            (length,) = struct.unpack_from("<H", data, start + name_len_at)
            if data[start + name_at : start + name_at + length] == b"odd.json":
                struct.pack_into("<H", data, start + method_at, 9)  # Deflate64, which zipfile cannot unpack
            start += 4
    archive.write_bytes(bytes(data))
    error, fine = iter_input_files([archive])
    assert isinstance(error, FileError) and error.file == f"{archive}!odd.json"
    assert "compression method 9" in error.message
    assert isinstance(fine, InputFile) and fine.head() == b"[]"


def test_a_folder_link_inside_the_folder_is_noted_and_its_files_read_once(tmp_path):
    (tmp_path / "export" / "real").mkdir(parents=True)
    (tmp_path / "export" / "real" / "a.json").write_text("[]")
    (tmp_path / "export" / "again").symlink_to(tmp_path / "export" / "real", target_is_directory=True)
    items = list(iter_input_files([tmp_path / "export"]))
    assert _names(items) == ["ERR link: skipped: a link to a folder inside the dropped folder (its files are read there)",
                             "export/real/a.json"]
