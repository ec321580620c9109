"""The answers of past questions, kept per event store, so that a question from the history opens its answer
without working it out again. Plain Python, no Qt.

    history = AnswerHistory(data_dir() / "answers")
    history.add(store_path, answer)                 # after each answer that ran
    kept = history.get(store_path, "Which artist did I listen to most?")
    kept.answer, kept.asked_at                      # the Answer (tree, evidence ids) and when it was asked

One small JSON file per store and question (`<store hash>-<question hash>.json`), so that keeping an answer
writes that answer alone, however many are kept and however many events each rests on. The folder is in the
data directory: "Delete all my data" removes it with the store. Only answers whose tree ran are kept (a cancel
or a failure is worth asking again, not keeping); a store keeps its last KEPT_PER_STORE answers.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from app.answer import Answer

log = logging.getLogger(__name__)

KEPT_PER_STORE = 30


@dataclass(frozen=True)
class KeptAnswer:
    answer: Answer
    asked_at: datetime


def _hash(text: str, length: int) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:length]


class AnswerHistory:
    def __init__(self, folder: Path):
        self.folder = Path(folder)

    def _file(self, store_path: Path, question: str) -> Path:
        return self.folder / f"{_hash(str(store_path), 12)}-{_hash(question, 20)}.json"

    def add(self, store_path: Path, answer: Answer, asked_at: datetime | None = None) -> bool:
        """Keep `answer` (replacing an earlier one to the same question); False when it is not kept."""
        if not answer.status.ran:
            return False
        entry = {"store": str(store_path), "asked_at": (asked_at or datetime.now()).isoformat(timespec="seconds"),
                 "answer": answer.to_json()}
        path = self._file(store_path, answer.question)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            # Written beside it, then moved over it: a crash leaves the old answer or the new one, never half.
            partial = path.with_suffix(".partial")
            partial.write_text(json.dumps(entry, ensure_ascii=False), encoding="utf-8")
            os.replace(partial, path)
        except OSError as exc:  # a full disk loses a kept answer, not the answer on screen
            log.warning("the answer could not be kept in %s: %s", path, exc)
            return False
        self._prune(store_path)
        return True

    def _prune(self, store_path: Path) -> None:
        kept = sorted(self.folder.glob(f"{_hash(str(store_path), 12)}-*.json"), key=lambda p: p.stat().st_mtime_ns)
        for old in kept[:-KEPT_PER_STORE]:
            old.unlink(missing_ok=True)

    def get(self, store_path: Path, question: str) -> KeptAnswer | None:
        path = self._file(store_path, question)
        try:
            entry = json.loads(path.read_text(encoding="utf-8"))
            if entry.get("store") != str(store_path) or entry["answer"].get("question") != question:
                return None  # a hash collision, however unlikely, must not show another question's answer
            return KeptAnswer(Answer.from_json(entry["answer"]), datetime.fromisoformat(entry["asked_at"]))
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:  # damaged: ask again instead
            log.warning("the kept answer in %s cannot be read: %s", path, exc)
            return None

    def clear(self) -> None:
        for path in self.folder.glob("*.json"):
            path.unlink(missing_ok=True)
