"""Example questions for the data a person has: shown under the question box, chosen by source.

    >>> example_questions(["music_stream", "workout"])[:2]
    ['Which artist did I listen to most while running?', 'Which artist did I listen to most?']
"""

from __future__ import annotations

from typing import Iterable

from app.sources import SOURCES

# Questions that need two sources come first: they show what a keyword search cannot do.
COMBINED = (
    ({"music_stream", "workout"}, "Which artist did I listen to most while running?"),
    ({"calendar", "workout"}, "How often did I eat Italian food after playing football?"),
    ({"online_purchase", "mail"}, "What did I order on Amazon after a mail about a birthday?"),
    ({"tvseries_stream", "calendar"}, "Which series did I watch on weekends?"),
)

# A source's own examples are in its spec (app.sources: display.examples).
BY_SOURCE = {name: spec.display.examples for name, spec in SOURCES.items() if spec.display is not None}

START = ("Drop your exports onto this window to start: Spotify, Netflix, Amazon, Apple Health, "
         "calendars (.ics) and mail (.mbox), zipped or not.")


def example_questions(sources: Iterable[str], limit: int = 8) -> list[str]:
    have = set(sources)
    found = [q for needed, q in COMBINED if needed <= have]
    # One question per source first, then the second ones, so every source gets a turn.
    for depth in range(2):
        for source in sorted(have):
            questions = BY_SOURCE.get(source, ())
            if depth < len(questions):
                found.append(questions[depth])
    return found[:limit]
