"""Where Lifelens finds things: the person's data (the platform's user data directory, never the install
directory) and the app's own read-only resources (resources/, beside the packages).

    db_path()                       # ~/.local/share/Lifelens/events.sqlite, or --db / $LIFELENS_DB
    resource_dir("qud")             # .../resources/qud: the in-context examples and the step grammar
"""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_data_path

APP_NAME = "Lifelens"
DB_ENV = "LIFELENS_DB"
DATA_ENV = "LIFELENS_DATA_DIR"

# The folder that holds app/ and, beside it, resources/: the checkout, the installer's bundle (_internal/) and
# an installed wheel's site-packages alike (the wheel carries resources/ as a top-level folder, pyproject.toml).
ROOT = Path(__file__).resolve().parents[1]


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


def resource_dir(*parts: str) -> Path:
    """A folder of the app's resources: resource_dir("qud"), resource_dir("persona")."""
    return ROOT.joinpath("resources", *parts)
