from pathlib import Path

import pytest

from app.ui.data_removal import UnsafeDeletion, delete_user_data, install_dir


def make_data(data: Path) -> None:
    (data / "models").mkdir(parents=True)
    (data / "models" / "gemma.gguf").write_bytes(b"GGUF")
    (data / "demo").mkdir()
    (data / "demo" / "events.sqlite").write_bytes(b"x")
    for name in ("events.sqlite", "events.sqlite-wal", "events.sqlite-shm", "events.splade.sqlite", "settings.json"):
        (data / name).write_bytes(b"x")


def test_deletes_store_and_caches_and_the_emptied_data_dir(tmp_path):
    data = tmp_path / "Lifelens"
    make_data(data)
    removed = delete_user_data(data / "events.sqlite", data, install=tmp_path / "install")
    assert not data.exists()
    assert set(removed) == {data / n for n in ("events.sqlite", "events.sqlite-wal", "events.sqlite-shm", "models",
                                                "events.splade.sqlite", "demo", "settings.json")} | {data}


def test_a_store_elsewhere_goes_too_and_foreign_files_stay(tmp_path):
    data = tmp_path / "shared"
    make_data(data)
    (data / "my-notes.txt").write_text("not ours")
    store = tmp_path / "elsewhere" / "mine.sqlite"
    store.parent.mkdir()
    store.write_bytes(b"x")
    Path(f"{store}-wal").write_bytes(b"x")
    (store.parent / "mine.splade.sqlite").write_bytes(b"x")
    delete_user_data(store, data, install=tmp_path / "install")
    assert not store.exists() and not Path(f"{store}-wal").exists()
    assert list(store.parent.iterdir()) == []
    assert sorted(p.name for p in data.iterdir()) == ["my-notes.txt"]


def test_refuses_the_install_dir_home_and_root(tmp_path):
    install = install_dir()
    assert (install / "app" / "ui" / "data_removal.py").exists()
    with pytest.raises(UnsafeDeletion):
        delete_user_data(tmp_path / "e.sqlite", install / "data")  # data dir inside the install dir
    with pytest.raises(UnsafeDeletion):
        delete_user_data(tmp_path / "e.sqlite", install.parent)  # above it
    with pytest.raises(UnsafeDeletion):
        delete_user_data(tmp_path / "e.sqlite", Path.home(), install=tmp_path / "i")
    with pytest.raises(UnsafeDeletion):
        delete_user_data(install / "events.sqlite", tmp_path / "data")
    assert (install / "app" / "ui" / "data_removal.py").exists()
