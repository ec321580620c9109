""""Delete all my data": the event store and what Lifelens keeps in the data dir, never the install dir.

Plain Python. The caller closes the store first (SQLite keeps the file open otherwise). Only entries
Lifelens itself creates in the data dir are deleted (the data dir may be one a person chose with
$LIFELENS_DATA_DIR, holding other things); the data dir goes too once it is empty.

    removed = delete_user_data(store_path, data_dir())
"""

from __future__ import annotations

import shutil
from pathlib import Path

import app

# SQLite writes these beside the database file.
STORE_COMPANIONS = ("", "-wal", "-shm", "-journal")
# What Lifelens puts into the data dir: the default store, model caches, the demo persona, settings.
OWN_ENTRIES = ("events.sqlite", "models", "demo", "cache", "settings.json")


class UnsafeDeletion(Exception):
    """A path that must not be deleted (the install dir or anything around it, a home or root folder)."""


def install_dir() -> Path:
    """The folder holding the app's code (the `app` package's parent)."""
    return Path(app.__file__).resolve().parents[1]


def _check_safe(path: Path, install: Path) -> None:
    path = path.resolve()
    if path == Path(path.anchor) or path == Path.home().resolve():
        raise UnsafeDeletion(f"{path}: refusing to delete a root or home folder")
    if path == install or install.is_relative_to(path) or path.is_relative_to(install):
        raise UnsafeDeletion(f"{path}: refusing to delete inside or above the install folder {install}")


def _store_files(store: Path) -> list[Path]:
    """The store and what lives beside it: SQLite's -wal/-shm, and the search index
    (`events.splade.sqlite`, named by app.retrieve.sparse_index.index_path) with its own -wal/-shm."""
    index = store.with_name(store.stem + ".splade.sqlite")
    return [Path(f"{path}{suffix}") for path in (store, index) for suffix in STORE_COMPANIONS]


def deletion_targets(store_path: Path, data_dir: Path) -> list[Path]:
    """Everything `delete_user_data` would delete (existing or not), store files first."""
    targets = _store_files(store_path)
    for name in OWN_ENTRIES:
        entry = data_dir / name
        targets += _store_files(entry) if name.endswith(".sqlite") else [entry]
    return list(dict.fromkeys(targets))


def delete_user_data(store_path: Path, data_dir: Path, *, install: Path | None = None) -> list[Path]:
    """Delete the store (with its -wal/-shm) and Lifelens's entries in the data dir; return what was deleted.

    Raises UnsafeDeletion, deleting nothing, when a target is the install dir, inside or above it, or a
    home/root folder.
    """
    install = (install or install_dir()).resolve()
    targets = deletion_targets(store_path, data_dir)
    for path in [*targets, data_dir]:
        _check_safe(path, install)
    removed = []
    for path in targets:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
            removed.append(path)
        elif path.exists() or path.is_symlink():
            path.unlink()
            removed.append(path)
    if data_dir.is_dir() and not any(data_dir.iterdir()):
        data_dir.rmdir()
        removed.append(data_dir)
    return removed
