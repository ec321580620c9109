"""PyInstaller run-time hook: point the QUD at the GGUF assembled at build time, so first launch assembles
nothing and needs no network.

It uses the documented override $LIFELENS_QUD_MODEL (models/default_qud.py), but only when the person has
made no choice of their own: the variable is not already set and `data_dir()/settings.json` names no
`qud_model`. An explicit `--qud-model PATH` still wins over the variable.
"""

import json
import os
import sys
from pathlib import Path


def _person_chose_a_model() -> bool:
    if os.environ.get("LIFELENS_QUD_MODEL"):
        return True
    from app.paths import data_dir

    path = data_dir() / "settings.json"
    if not path.exists():
        return False  # first launch
    try:
        return bool(json.loads(path.read_text(encoding="utf-8")).get("qud_model"))
    except (OSError, ValueError, AttributeError):
        return True  # unreadable: leave it to models.default_qud, which names the file and the problem


def _bundled_gguf() -> Path | None:
    folder = Path(getattr(sys, "_MEIPASS", "")) / "models" / "gguf"
    found = sorted(folder.glob("*.gguf")) if folder.is_dir() else []
    return found[0] if found else None


_model = _bundled_gguf()
if _model is not None and not _person_chose_a_model():
    os.environ["LIFELENS_QUD_MODEL"] = str(_model)
