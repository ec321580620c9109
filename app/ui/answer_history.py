"""The answers of past questions, kept per event store, so that a question from the history opens its answer
without working it out again. Plain Python, no Qt.

    history = AnswerHistory(data_dir() / "answers.json")
    history.add(store_path, answer)                 # after each answer that ran
    kept = history.get(store_path, "Which artist did I listen to most?")
    kept.answer, kept.asked_at                      # the Answer (tree, evidence ids) and when it was asked

The file lives in the data directory, so "Delete all my data" removes it with the store. Only answers whose
tree ran are kept (a cancel or a failure is worth asking again, not keeping). A store keeps its last
KEPT_PER_STORE answers; an answer's evidence ids are as many as the answer rests on.
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from app.answer import Answer

log = logging.getLogger(__name__)

KEPT_PER_STORE = 30


@dataclass(frozen=True)
class KeptAnswer:
    answer: Answer
    asked_at: datetime


class AnswerHistory:
    def __init__(self, path: Path):
        self.path = Path(path)
        self._stores: dict[str, list[dict[str, Any]]] = self._load()

    def _load(self) -> dict[str, list[dict[str, Any]]]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:  # a damaged file costs the kept answers, never the window
            log.warning("the kept answers in %s cannot be read (%s); starting afresh", self.path, exc)
            return {}
        return data if isinstance(data, dict) else {}

    def add(self, store_path: Path, answer: Answer, asked_at: datetime | None = None) -> bool:
        """Keep `answer` (replacing an earlier one to the same question); False when it is not worth keeping."""
        if not answer.status.ran:
            return False
        entry = {"asked_at": (asked_at or datetime.now()).isoformat(timespec="seconds"), "answer": answer.to_json()}
        kept = [e for e in self._stores.get(str(store_path), []) if e["answer"].get("question") != answer.question]
        self._stores[str(store_path)] = (kept + [entry])[-KEPT_PER_STORE:]
        self._save()
        return True

    def get(self, store_path: Path, question: str) -> KeptAnswer | None:
        for entry in reversed(self._stores.get(str(store_path), [])):
            if entry["answer"].get("question") == question:
                try:
                    return KeptAnswer(Answer.from_json(entry["answer"]), datetime.fromisoformat(entry["asked_at"]))
                except (KeyError, TypeError, ValueError) as exc:
                    log.warning("a kept answer to %r cannot be read: %s", question, exc)
                    return None
        return None

    def clear(self) -> None:
        self._stores = {}
        self.path.unlink(missing_ok=True)

    def _save(self) -> None:
        """Written whole to a file beside it, then moved over it: a crash leaves the old file or the new one."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            partial = self.path.with_name(self.path.name + ".partial")
            partial.write_text(json.dumps(self._stores, ensure_ascii=False), encoding="utf-8")
            os.replace(partial, self.path)
        except OSError as exc:  # a full disk loses the kept answers, not the answer on screen
            log.warning("the kept answers could not be written to %s: %s", self.path, exc)
