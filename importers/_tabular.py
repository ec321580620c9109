"""CSV helpers shared by the Netflix and Amazon importers: header sniffing, rows with positions, cells.

Rows are decoded as UTF-8 (a byte-order mark is dropped). Bytes that are not UTF-8 (a file re-saved as
Latin-1 or Windows-1252) do not stop the file: that row comes back with `bad_bytes` set, so the importer
reports the row by its place and goes on with the next.

    for row in csv_rows(file):
        row.number, row.line        # 1-based data row (header not counted), line where the row starts
        row.cells["Title"]          # cells by header name; "" when the row is short
"""

from __future__ import annotations

import csv
import math
import re
from dataclasses import dataclass
from typing import Iterator

from importers.base import InputFile

# Placeholders Amazon (and others) write for empty cells.
MISSING = frozenset({"", "Not Available", "Not Applicable", "N/A", "n/a", "NA", "null", "None", "-"})
_UNDECODABLE = re.compile("[\udc80-\udcff]")
_CURRENCY_JUNK = re.compile(r"[^\d,.\-+]")


def header_cells(file: InputFile, max_bytes: int = 8192) -> list[str]:
    """The first CSV record of `file`, stripped; [] when it does not look like a CSV header."""
    head = file.head_text(max_bytes)
    first = head.splitlines()[0] if head else ""
    if "," not in first and ";" not in first and "\t" not in first:
        return []
    delimiter = max((",", ";", "\t"), key=first.count)
    try:
        return [c.strip() for c in next(csv.reader([first], delimiter=delimiter))]
    except (csv.Error, StopIteration):
        return []


@dataclass(frozen=True)
class Row:
    number: int  # 1-based data row
    line: int  # file line where the row starts (the header is line 1)
    cells: dict[str, str]
    bad_bytes: bool

    @property
    def position(self) -> str:
        return f"row {self.number} at line {self.line}"

    def get(self, *names: str) -> str | None:
        """The first of `names` present with a real value (placeholders such as 'Not Available' are None)."""
        for name in names:
            value = self.cells.get(name)
            if value is not None:
                value = value.strip()
                if value not in MISSING:
                    return value
        return None


class BrokenCsv(ValueError):
    """The CSV cannot be read past `position` (a NUL byte, a field over the size limit, ...)."""

    def __init__(self, position: str, message: str):
        super().__init__(message)
        self.position = position


def csv_rows(file: InputFile) -> Iterator[Row]:
    """Data rows of `file` (the first record is the header). Raises BrokenCsv where reading has to stop."""
    with file.open_text(encoding="utf-8-sig", errors="surrogateescape") as text:
        first = text.readline()
        delimiter = max((",", ";", "\t"), key=first.count) if first else ","
        try:
            header = [c.strip() for c in next(csv.reader([first], delimiter=delimiter), [])]
        except csv.Error as exc:  # a header field over the csv module's 131,072 characters
            raise BrokenCsv("line 1", f"the header cannot be read ({exc}); nothing in the file was read") from None
        reader = csv.reader(text, delimiter=delimiter)
        number = 0
        last_line = 1
        while True:
            try:
                cells = next(reader)
            except StopIteration:
                return
            except csv.Error as exc:
                raise BrokenCsv(f"row {number + 1} at line {last_line + 1}", f"the CSV breaks here ({exc}); the rest of the file was not read") from None
            start_line = last_line + 1
            last_line = reader.line_num + 1  # reader counts from after the header line
            if not cells or (len(cells) == 1 and not cells[0].strip()):
                continue  # blank line
            number += 1
            bad = any(_UNDECODABLE.search(c) for c in cells)
            yield Row(number, start_line, dict(zip(header, cells)), bad)


def undecodable_message(row: Row) -> str:
    sample = next((c for c in row.cells.values() if _UNDECODABLE.search(c)), "")
    byte = _UNDECODABLE.search(sample)
    code = f"0x{ord(byte.group()) - 0xDC00:02X}" if byte else "?"
    return f"the text is not UTF-8 (byte {code}); re-save the file as UTF-8 and import it again"


def parse_number(text: str | None) -> float | None:
    """'$1,234.50', '1.234,50 €', "'-0.68'", '14.8' -> float; None when empty or not a number.

    With both ',' and '.' present the last one is the decimal mark; a lone ',' followed by one or two
    digits at the end is a decimal comma ('12,99'), otherwise a thousands separator ('1,299').
    """
    if text is None:
        return None
    raw = _CURRENCY_JUNK.sub("", text)
    if not raw or not any(ch.isdigit() for ch in raw):
        return None
    if "," in raw and "." in raw:
        if raw.rfind(",") > raw.rfind("."):
            raw = raw.replace(".", "").replace(",", ".")
        else:
            raw = raw.replace(",", "")
    elif "," in raw:
        head, _, tail = raw.rpartition(",")
        raw = f"{head.replace(',', '')}.{tail}" if len(tail) in (1, 2) else raw.replace(",", "")
    if len(raw) > 40:  # no price has 40 digits; float() would give inf or a number no store can sum
        return None
    try:
        value = float(raw)
    except ValueError:
        return None
    return value if math.isfinite(value) else None
