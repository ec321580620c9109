"""What a person's own notes say they finished reading: "Finished “The Bee Sting” by Paul Murray.", "finished
reading Tom Lake", "Finished the book “Intermezzo”".

A diary line names the book in quotes after "finished", with its author after "by", or says "reading" or "the book";
a quoted title with neither ("Finished “The Crown”") may be a series and is not read. The small extractor model was
never trained on such lines, so a finished book is read here, never by the model.

    finished_book({"text": "Sunday. Finished “The Bee Sting” by Paul Murray. Early night."})   # 'The Bee Sting'
"""

from __future__ import annotations

import re
from typing import Any, Mapping

from app.engine.extract import normalise

FINISHED_BOOK_NAMES = frozenset({"book_finished", "finished_book"})
_QUOTED = r"[“\"‘'](?P<title>[^”\"’'\n]{1,120})[”\"’']"
_FINISHED = (
    re.compile(rf"\b(?i:finished)\s+(?:(?i:reading)\s+|(?i:the\s+book)\s+)?{_QUOTED}\s+(?i:by)\s+[A-Z]"),
    re.compile(rf"\b(?i:finished)\s+(?:(?i:reading)|(?i:the\s+book))\s+{_QUOTED}"),
    re.compile(r"\b(?i:finished\s+reading)\s+(?P<title>[A-Z][\w'’:,-]*(?:\s+[A-Z0-9][\w'’:,-]*){0,6})"),
)
_TEXT_KEYS = ("text", "body", "description")


def asks_finished_book(name: str) -> bool:
    """Whether an attribute name asks for the book a note says was finished ("book_finished")."""
    return normalise(name) in FINISHED_BOOK_NAMES


def finished_book(attrs: Mapping[str, Any]) -> str | None:
    """The title of the book an event's text says was finished, or None where it says none."""
    for key in _TEXT_KEYS:
        text = attrs.get(key)
        if not isinstance(text, str):
            continue
        for pattern in _FINISHED:
            match = pattern.search(text)
            if match is not None:
                return match.group("title").strip(" ,.;:")
    return None
