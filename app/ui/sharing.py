"""Keeping and sharing an answer: as plain text (the clipboard), as Markdown (answer, tree and evidence), and the
evidence as CSV. Plain Python, no Qt; the words are presenting's, so a copy reads as the window does.

    answer_text(answer)                       # 'The artist with the most songs … was Daft Punk (14), then Air (13).\n…'
    answer_markdown(answer, events)           # '# Which artist did I listen to most?\n\nDaft Punk …'
    write_events_csv(path, events)            # one row per event: time, source, title, value, details, file, …
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any, Iterable, Sequence

from .presenting import (
    answer_headline, answer_warnings, event_value, evidence_line, format_seconds, format_time, key_fields,
    node_size_text, operator_words, source_label, way_on,
)

# "value" as the window writes it ("3 min"), "number" as a spreadsheet sums it (180000).
CSV_HEADERS = ("time", "source", "title", "value", "number", "details", "file", "place", "id")


def answer_text(answer: Any) -> str:
    """What the answer pane says, line by line: headline, evidence line, warnings, what to do next."""
    lines = [answer_headline(answer), evidence_line(answer)]
    lines += [f"Note: {w}" for w in answer_warnings(answer)]
    lines.append(way_on(answer))
    return "\n".join(line for line in lines if line)


def _tree_lines(node: Any, depth: int = 0) -> Iterable[str]:
    size = node_size_text(node)
    found = "failed" if node.error else (f"{size} found" if size else "")
    facts = ", ".join(part for part in (found, format_seconds(node.seconds)) if part)
    yield f"{'  ' * depth}- {_md(node.question)} — {operator_words(node.operator)} ({facts}): `{node.step}`"
    if node.error:
        yield f"{'  ' * (depth + 1)}- error: {_md(node.error)}"
    for child in node.children:
        yield from _tree_lines(child, depth + 1)


def _md(text: str) -> str:
    """Text for a Markdown line or table cell: pipes and line breaks would end the cell."""
    return str(text).replace("|", "\\|").replace("\r", " ").replace("\n", " ")


def answer_markdown(answer: Any, events: Sequence[Any], total: int | None = None) -> str:
    """The answer, how it was answered, and its evidence (the `events` given, of `total` when they are only the
    first ones) as one Markdown document."""
    parts = [f"# {_md(answer.question)}", "", answer_text(answer).replace("\n", "  \n")]
    if answer.tree is not None:
        parts += ["", "## How it was answered", "", *_tree_lines(answer.tree)]
    if events:
        total = max(total or 0, len(events))
        shown = f" (the first {len(events):,} of {total:,})" if total > len(events) else ""
        parts += ["", f"## Evidence{shown}", "", "| Time | Source | Title | Value | Details |",
                  "| --- | --- | --- | ---: | --- |"]
        for event in events:
            value, _ = event_value(event)
            parts.append(f"| {format_time(event.start)} | {source_label(event.source)} | {_md(event.title)} | "
                         f"{_md(value)} | {_md(key_fields(event))} |")
    return "\n".join(parts) + "\n"


def write_events_csv(path: Path, events: Iterable[Any], value_attr: str | None = None) -> int:
    """The events as CSV (UTF-8 with a byte-order mark, so that spreadsheet programs read the accents);
    returns the number of rows written."""
    count = 0
    with open(path, "w", newline="", encoding="utf-8-sig") as f:
        writer = csv.writer(f)
        writer.writerow(CSV_HEADERS)
        for event in events:
            value, number = event_value(event, value_attr)
            writer.writerow((event.start.isoformat() if event.start else "", event.source, event.title, value,
                             "" if number is None else repr(number), key_fields(event, value_attr), event.file,
                             event.position, event.id))
            count += 1
    return count
