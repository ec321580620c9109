"""Where Lifelens keeps the person's data: the platform's user data directory, never the install directory."""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_data_path

APP_NAME = "Lifelens"
DB_ENV = "LIFELENS_DB"
DATA_ENV = "LIFELENS_DATA_DIR"


def data_dir() -> Path:
    """The user data directory ($LIFELENS_DATA_DIR overrides it, for tests and portable installs)."""
    override = os.environ.get(DATA_ENV)
    return Path(override) if override else user_data_path(APP_NAME, appauthor=False)


def db_path(explicit: str | os.PathLike | None = None) -> Path:
    """The event store file: --db, else $LIFELENS_DB, else events.sqlite in the data directory."""
    if explicit:
        return Path(explicit)
    if os.environ.get(DB_ENV):
        return Path(os.environ[DB_ENV])
    return data_dir() / "events.sqlite"
