"""Settings kept between runs (window layout, data location, model choice, question history).

Stored with QSettings as an INI file in the user config directory, never next to the install:
`$LIFELENS_CONFIG_DIR/lifelens.ini` when that variable is set (tests, portable installs), else the
platform's config dir (`~/.config/Lifelens/lifelens.ini` on Linux).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from platformdirs import user_config_path
from PySide6.QtCore import QByteArray, QSettings

from app.retrieve import DEFAULT_OPERATOR_SIZE, OPERATOR_SIZES

CONFIG_ENV = "LIFELENS_CONFIG_DIR"
HISTORY_LIMIT = 200
DEFAULT_QUD_MODEL = "default"


def config_dir() -> Path:
    override = os.environ.get(CONFIG_ENV)
    return Path(override) if override else user_config_path("Lifelens", appauthor=False)


class AppSettings:
    """Typed access to the settings file; every value has a default, bad values fall back to it."""

    def __init__(self, path: Path | str | None = None):
        self.path = Path(path) if path else config_dir() / "lifelens.ini"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._qs = QSettings(str(self.path), QSettings.Format.IniFormat)

    def sync(self) -> None:
        self._qs.sync()

    # --- window layout -----------------------------------------------------------------------

    def layout(self, name: str) -> QByteArray | None:
        value = self._qs.value(f"window/{name}")
        return value if isinstance(value, QByteArray) and not value.isEmpty() else None

    def set_layout(self, name: str, state: QByteArray) -> None:
        self._qs.setValue(f"window/{name}", state)

    # --- data and models ------------------------------------------------------------------------

    @property
    def store_path(self) -> Path | None:
        """The event store chosen in the settings dialog; None means the default (app.paths.db_path)."""
        text = str(self._qs.value("data/store_path", "") or "")
        return Path(text) if text else None

    @store_path.setter
    def store_path(self, path: Path | None) -> None:
        self._qs.setValue("data/store_path", str(path) if path else "")

    @property
    def qud_model(self) -> str:
        """"default" (the bundled model) or the path of a GGUF file the person chose."""
        return str(self._qs.value("models/qud", DEFAULT_QUD_MODEL) or DEFAULT_QUD_MODEL)

    @qud_model.setter
    def qud_model(self, value: str) -> None:
        self._qs.setValue("models/qud", value or DEFAULT_QUD_MODEL)

    @property
    def operator_size(self) -> str:
        value = str(self._qs.value("models/operator_size", DEFAULT_OPERATOR_SIZE))
        return value if value in OPERATOR_SIZES else DEFAULT_OPERATOR_SIZE

    @operator_size.setter
    def operator_size(self, value: str) -> None:
        if value not in OPERATOR_SIZES:
            raise ValueError(f"operator model size must be one of {OPERATOR_SIZES}, not {value!r}")
        self._qs.setValue("models/operator_size", value)

    # --- first run and history ------------------------------------------------------------------

    @property
    def welcomed(self) -> bool:
        return str(self._qs.value("app/welcomed", "false")).lower() == "true"

    @welcomed.setter
    def welcomed(self, value: bool) -> None:
        self._qs.setValue("app/welcomed", "true" if value else "false")

    @property
    def history(self) -> list[str]:
        """Asked questions, oldest first. Kept as JSON: INI lists of one item come back as a string."""
        try:
            items = json.loads(str(self._qs.value("questions/history", "[]")))
        except ValueError:
            return []
        return [q for q in items if isinstance(q, str)] if isinstance(items, list) else []

    @history.setter
    def history(self, questions: list[str]) -> None:
        self._qs.setValue("questions/history", json.dumps(questions[-HISTORY_LIMIT:], ensure_ascii=False))

    def forget_personal(self) -> None:
        """Drop what says something about the person (question history), keep the layout."""
        self._qs.remove("questions")
        self._qs.remove("data")
        self._qs.setValue("app/welcomed", "false")
        self._qs.sync()
