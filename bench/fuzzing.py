"""A mutator over real export samples, and the judge of one import: ok, clear error, caught, crash.

The samples are the real exports in ../shared/real-exports (see its SOURCES.md), one folder per format.
`cases(fmt, n, seed)` derives `n` mutated files from them, deterministically: byte flips, truncations,
wrong encodings, huge numbers, odd dates (year 1, 9999, month 13, offsets of -1200 and +9999), deep
nesting, type swaps in JSON records, duplicated and removed fields, endless recurrences, long headers.
Each case keeps its sample's file name, so that detection sees what a person's export would show.

`judge(path)` imports one file into a fresh store and reads the store back the way the person does
(sources, events as JSON, errors, a full-text search, the integrity check):

    ok        no error at all
    clear     record or file errors the importers meant (errors as values)
    caught    an exception an importer or the store did not expect, caught by the import's safety net:
              the person reads a file error, but it is a bug to fix (its traceback is kept for triage)
    crash     an exception escaped `import_paths`, or the store could not be read back afterwards

`bench/fuzz_imports.py` runs the cases in a child process with a time and memory limit (hang, memory).

    for case in cases("ics", 10, seed=1):
        print(case.name, case.mutations, judge_bytes(case).outcome)
"""

from __future__ import annotations

import json
import logging
import os
import random
import re
import tempfile
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
REAL_EXPORTS = Path(os.environ.get("LIFELENS_REAL_EXPORTS", ROOT.parent / "shared" / "real-exports"))
FORMATS = ("mbox", "ics", "spotify", "netflix", "amazon", "apple-health")
OUTCOMES = ("ok", "clear", "caught", "crash")


@dataclass(frozen=True)
class Case:
    """One mutated file: `name` is its sample's file name, `data` its bytes."""

    format: str
    number: int
    sample: str
    name: str
    mutations: tuple[str, ...]
    data: bytes = field(repr=False)

    @property
    def label(self) -> str:
        return f"{self.format}-{self.number:05d}"


@dataclass(frozen=True)
class Verdict:
    outcome: str  # one of OUTCOMES
    detail: str = ""  # the exception and where it was raised, for crash and caught
    where: str = ""  # file:line of the innermost frame of the project's code, for grouping
    added: int = 0
    errors: int = 0


# --- samples ---------------------------------------------------------------------------------------


def samples(fmt: str, max_bytes: int | None = None) -> list[Path]:
    """The real samples of `fmt`, smallest first; those over `max_bytes` left out."""
    folder = REAL_EXPORTS / fmt
    found = sorted((p for p in folder.iterdir() if p.is_file() and p.suffix != ".md"), key=lambda p: (p.stat().st_size, p.name))
    return [p for p in found if max_bytes is None or p.stat().st_size <= max_bytes]


def file_name(sample: Path) -> str:
    """The name a person's export gives this file: the sample's name after its source prefix, when that detects."""
    stem = sample.name
    for candidate in _name_candidates(stem):
        if _detects(candidate, sample):
            return candidate
    return stem


def _name_candidates(name: str) -> list[str]:
    parts = name.split("_")
    return [name] + ["_".join(parts[i:]) for i in range(1, len(parts))]


def _detects(name: str, sample: Path) -> bool:
    from importers import importer_for
    from importers.base import InputFile

    file = InputFile(display=name, name=name, path=name, size=sample.stat().st_size, opener=lambda: open(sample, "rb"))
    try:
        return importer_for(file) is not None
    except Exception:
        return False


# --- mutations -------------------------------------------------------------------------------------

Mutation = Callable[[bytes, random.Random, str], bytes]


def flip_bytes(data: bytes, rnd: random.Random, fmt: str) -> bytes:
    out = bytearray(data)
    for _ in range(rnd.choice((1, 2, 8, 64))):
        if out:
            out[rnd.randrange(len(out))] ^= 1 << rnd.randrange(8)
    return bytes(out)


def set_bytes(data: bytes, rnd: random.Random, fmt: str) -> bytes:
    out = bytearray(data)
    for _ in range(rnd.choice((1, 4, 16))):
        if out:
            out[rnd.randrange(len(out))] = rnd.choice(b"\x00\xff\xfe\x80\xc3\x0a\x0d\"'<>[]{},;:\\")
    return bytes(out)


def truncate(data: bytes, rnd: random.Random, fmt: str) -> bytes:
    return data[: rnd.randrange(len(data) + 1)] if data else data


def cut_range(data: bytes, rnd: random.Random, fmt: str) -> bytes:
    if len(data) < 2:
        return data
    a = rnd.randrange(len(data))
    b = min(len(data), a + rnd.choice((1, 10, 100, 1000, 10000)))
    return data[:a] + data[b:]


def duplicate_range(data: bytes, rnd: random.Random, fmt: str) -> bytes:
    if len(data) < 2:
        return data
    a = rnd.randrange(len(data))
    b = min(len(data), a + rnd.choice((10, 100, 1000, 10000)))
    return data[:b] + data[a:b] * rnd.choice((1, 2, 50)) + data[b:]


def wrong_encoding(data: bytes, rnd: random.Random, fmt: str) -> bytes:
    text = data.decode("utf-8", "replace")
    choice = rnd.choice(("utf-16", "utf-16-le", "utf-16-be", "utf-32", "latin-1", "cp1252", "bom-only", "bom-twice", "ebcdic"))
    if choice == "bom-only":
        return b"\xef\xbb\xbf"
    if choice == "bom-twice":
        return b"\xef\xbb\xbf\xef\xbb\xbf" + data
    codec = "cp500" if choice == "ebcdic" else choice
    return text.encode(codec, "replace")


def stray_bytes(data: bytes, rnd: random.Random, fmt: str) -> bytes:
    """Bytes that are not UTF-8 (or NUL, or a lone surrogate's UTF-8 form) somewhere in the text."""
    junk = rnd.choice((b"\xff", b"\xfe\xfe", b"\x00", b"\xed\xa0\x80", b"\xc3", b"\x1b[2J", b"\xe2\x80\xae"))
    at = rnd.randrange(len(data) + 1)
    return data[:at] + junk + data[at:]


_DIGITS = re.compile(rb"\d+(?:\.\d+)?")
HUGE_NUMBERS = (b"99999999999999999999999999999999", b"-99999999999999999999", b"1e400", b"-1e400", b"1e308",
                b"9223372036854775808", b"18446744073709551616", b"NaN", b"Infinity", b"-0", b"0" * 400, b"9" * 5000,
                b"99999999999:00:00", b"1" + b"0" * 30)


def huge_number(data: bytes, rnd: random.Random, fmt: str) -> bytes:
    found = list(_DIGITS.finditer(data[:2_000_000]))
    if not found:
        return data
    for _ in range(rnd.choice((1, 3, 10))):
        m = rnd.choice(found)
        data = data[: m.start()] + rnd.choice(HUGE_NUMBERS) + data[m.end():]
        found = list(_DIGITS.finditer(data[:2_000_000]))
        if not found:
            break
    return data


_DATES = re.compile(rb"(?<!\d)(1[89]\d\d|20\d\d)(-?)(\d\d)(-?)(\d\d)")
_MAIL_DATE = re.compile(rb"\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}( \d\d:\d\d(:\d\d)?)?( [+-]\d{4})?")
ODD_YEARS = (b"0001", b"0000", b"9999", b"1000", b"1899", b"2101", b"0100")
ODD_MAIL_DATES = (b"31 Dec 9999 20:00:00 -1200", b"1 Jan 0001 00:00:00 +1400", b"31 Dec 9999 23:59:59 +9999",
                  b"32 Jan 2020 25:61:61 +0000", b"1 Jan 1 00:00:00 -9999", b"29 Feb 2023 10:00:00 +0100")


def odd_date(data: bytes, rnd: random.Random, fmt: str) -> bytes:
    mail = list(_MAIL_DATE.finditer(data[:2_000_000])) if fmt == "mbox" else []
    if mail and rnd.random() < 0.6:
        m = rnd.choice(mail)
        return data[: m.start()] + rnd.choice(ODD_MAIL_DATES) + data[m.end():]
    found = list(_DATES.finditer(data[:2_000_000]))
    if not found:
        return data
    for _ in range(rnd.choice((1, 2, 20))):
        m = rnd.choice(found)
        year, sep1, month, sep2, day = m.groups()
        kind = rnd.randrange(4)
        if kind == 0:
            year = rnd.choice(ODD_YEARS)
        elif kind == 1:
            month = rnd.choice((b"00", b"13", b"99"))
        elif kind == 2:
            day = rnd.choice((b"00", b"31", b"32", b"99"))
        else:
            year, month, day = rnd.choice(((b"9999", b"12", b"31"), (b"0001", b"01", b"01"), (b"1970", b"01", b"01")))
        data = data[: m.start()] + year + sep1 + month + sep2 + day + data[m.end():]
    return data


def deep_nesting(data: bytes, rnd: random.Random, fmt: str) -> bytes:
    depth = rnd.choice((300, 5_000, 100_000))
    at = _some_value_start(data, rnd)
    if fmt == "apple-health":
        inner = b"<a>" * depth + b"</a>" * rnd.choice((depth, 0))
    elif fmt in ("spotify",):
        inner = b"[" * depth + b"]" * rnd.choice((depth, 0))
    else:
        inner = rnd.choice((b"[", b"{", b"(", b"<a>", b"=?utf-8?q?")) * depth
    return data[:at] + inner + data[at:]


def _some_value_start(data: bytes, rnd: random.Random) -> int:
    spots = [m.end() for m in re.finditer(rb'": ?|=|,|:', data[:500_000])]
    return rnd.choice(spots) if spots else rnd.randrange(len(data) + 1)


SWAPS = ({"a": 1}, [1, 2], [], {}, True, False, None, 1e308, -1, 0, 2**70, -(2**63) - 1, "", "x" * 100_000,
         "9999-12-31T23:59:59Z", "0001-01-01T00:00:00Z", "\ud800", "NaN", 1.5, [[[[[]]]]])


def type_swap(data: bytes, rnd: random.Random, fmt: str) -> bytes:
    """JSON: a value of a record becomes another type; other formats: a field's text becomes odd text."""
    if fmt == "spotify":
        try:
            rows = json.loads(data)
        except (ValueError, RecursionError):
            return flip_bytes(data, rnd, fmt)
        if not isinstance(rows, list) or not rows:
            return data
        for _ in range(rnd.choice((1, 3, 30))):
            row = rnd.choice(rows)
            if isinstance(row, dict) and row:
                key = rnd.choice(sorted(row))
                value = rnd.choice(SWAPS)
                if value == "NaN":
                    value = float("nan")
                row[key] = value
        return json.dumps(rows, ensure_ascii=rnd.random() < 0.5).encode("utf-8", "surrogatepass")
    field_text = rnd.choice((b'{"a":1}', b"[1,2]", b"", b"null", b"\\", b'"', b'""', b"\t", b"x" * 100_000, b"=?utf-8?b?////?=",
                             b"&amp;&lt;&#0;&#xD800;", b"<![CDATA[", b"\r\n"))
    at = _some_value_start(data, rnd)
    end = at + rnd.randrange(1, 40)
    return data[:at] + field_text + data[end:]


def duplicate_or_remove_field(data: bytes, rnd: random.Random, fmt: str) -> bytes:
    lines = data.split(b"\n")
    if len(lines) < 2:
        return data
    for _ in range(rnd.choice((1, 5, 50))):
        i = rnd.randrange(len(lines))
        if rnd.random() < 0.5:
            lines.insert(i, lines[i])
        elif len(lines) > 1:
            del lines[i]
    if fmt in ("netflix", "amazon") and rnd.random() < 0.3 and lines:  # a column too many or too few
        lines = [line + b',"extra"' if rnd.random() < 0.5 else line.rsplit(b",", 1)[0] for line in lines]
    return b"\n".join(lines)


ENDLESS_RULES = (b"RRULE:FREQ=DAILY;INTERVAL=0", b"RRULE:FREQ=SECONDLY", b"RRULE:FREQ=MINUTELY;INTERVAL=1",
                 b"RRULE:FREQ=DAILY", b"RRULE:FREQ=YEARLY;COUNT=999999999", b"RRULE:FREQ=DAILY;UNTIL=99991231T000000Z",
                 b"RRULE:FREQ=WEEKLY;BYDAY=XX", b"RRULE:FREQ=MONTHLY;BYMONTHDAY=31;BYMONTH=2", b"RRULE:FREQ=HOURLY;BYSETPOS=0")


def ics_recurrence(data: bytes, rnd: random.Random, fmt: str) -> bytes:
    """Endless or empty rules, DTSTART in year 1 or 9999, DTSTAMP 9999, an event copied 50 times."""
    newline = b"\r\n" if b"\r\n" in data else b"\n"
    events = [m.start() for m in re.finditer(rb"BEGIN:VEVENT", data)]
    if not events:
        return data
    kind = rnd.randrange(4)
    if kind == 0:
        at = rnd.choice(events) + len(b"BEGIN:VEVENT")
        return data[:at] + newline + rnd.choice(ENDLESS_RULES) + data[at:]
    if kind == 1:
        value = rnd.choice((b"00010101T000000Z", b"99991231T235959Z", b"00010101", b"99991231T000000", b"20241301T000000"))
        prop = rnd.choice((b"DTSTART", b"DTSTAMP", b"DTEND", b"RECURRENCE-ID", b"EXDATE"))
        return re.sub(prop + rb"([;:][^\r\n]*?:|:)[0-9TZ]+", lambda m: prop + m.group(1) + value, data, count=rnd.choice((1, 0)))
    if kind == 2:
        start = rnd.choice(events)
        end = data.find(b"END:VEVENT", start)
        if end < 0:
            return data
        block = data[start : end + len(b"END:VEVENT")] + newline
        block = block.replace(b"BEGIN:VEVENT" + newline, b"BEGIN:VEVENT" + newline + b"RRULE:FREQ=DAILY" + newline, 1)
        copies = b"".join(block.replace(b"UID:", b"UID:%d-" % i, 1) for i in range(50))
        return data[:start] + copies + data[start:]
    return re.sub(rb"RRULE:[^\r\n]*", rnd.choice(ENDLESS_RULES), data)


def mbox_headers(data: bytes, rnd: random.Random, fmt: str) -> bytes:
    """A header of 200,000 characters, an 'at'-obfuscated address repeated, an encoded word without end."""
    heads = [m.start() for m in re.finditer(rb"^(From|To|Cc|Subject|Date|Message-ID|Content-Type):", data, re.M)]
    if not heads:
        return data
    at = rnd.choice(heads)
    line_end = data.find(b"\n", at)
    line_end = len(data) if line_end < 0 else line_end
    name = data[at : data.find(b":", at)]
    value = rnd.choice((b"a" * 200_000, b"x at " * 40_000, b"a.b at c.d " * 20_000, b"=?utf-8?b?" + b"A" * 100_000,
                        b'"' * 50_000, b"<" * 50_000, b"multipart/mixed; boundary=" + b"b" * 100_000,
                        b"(" * 20_000, b"a@b" + b".c" * 50_000))
    return data[:at] + name + b": " + value + data[line_end:]


def xml_odd(data: bytes, rnd: random.Random, fmt: str) -> bytes:
    """Entity bombs, an external entity, huge attributes, unclosed elements."""
    kind = rnd.randrange(4)
    if kind == 0:
        bomb = (b'<?xml version="1.0"?><!DOCTYPE HealthData [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
                b'<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">'
                b'<!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;"><!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;">]>')
        body = data.split(b"?>", 1)[-1] if data.startswith(b"<?xml") else data
        body = re.sub(rb"<!DOCTYPE[^\[>]*(\[.*?\])?\s*>", b"", body, count=1, flags=re.S)
        return bomb + body.replace(b'sourceName="', b'sourceName="&f;', 1)
    if kind == 1:
        ext = b'<?xml version="1.0"?><!DOCTYPE HealthData [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
        body = data.split(b"?>", 1)[-1] if data.startswith(b"<?xml") else data
        body = re.sub(rb"<!DOCTYPE[^\[>]*(\[.*?\])?\s*>", b"", body, count=1, flags=re.S)
        return ext + body.replace(b'sourceName="', b'sourceName="&x;', 1)
    if kind == 2:
        return re.sub(rb'="[^"]*"', lambda m: b'="' + b"9" * rnd.choice((10, 100_000)) + b'"', data, count=rnd.choice((1, 5)))
    at = _some_value_start(data, rnd)
    return data[:at] + b"<Workout " * rnd.choice((1, 1000)) + data[at:]


GENERIC: tuple[Mutation, ...] = (flip_bytes, set_bytes, truncate, cut_range, duplicate_range, wrong_encoding, stray_bytes,
                                 huge_number, odd_date, deep_nesting, type_swap, duplicate_or_remove_field)
SPECIFIC: dict[str, tuple[Mutation, ...]] = {
    "ics": (ics_recurrence, ics_recurrence, ics_recurrence),
    "mbox": (mbox_headers, mbox_headers),
    "apple-health": (xml_odd, xml_odd),
    "spotify": (type_swap, type_swap, deep_nesting),
    "netflix": (huge_number, odd_date),
    "amazon": (huge_number, odd_date),
}


def cases(fmt: str, n: int, seed: int = 0, max_sample_bytes: int | None = None):
    """`n` mutated files of `fmt`, the same for the same seed; each of 1 to 3 mutations of one sample."""
    pool = samples(fmt, max_sample_bytes)
    if not pool:
        raise FileNotFoundError(f"no samples of {fmt} under {REAL_EXPORTS / fmt}")
    names = {p: file_name(p) for p in pool}
    originals = {p: p.read_bytes() for p in pool}
    mutations = GENERIC + SPECIFIC.get(fmt, ())
    rnd = random.Random(f"{seed}:{fmt}")
    for number in range(n):
        sample = pool[number % len(pool)]
        data = originals[sample]
        applied = []
        for _ in range(rnd.choice((1, 1, 2, 3))):
            mutate = rnd.choice(mutations)
            data = mutate(data, rnd, fmt)
            applied.append(mutate.__name__)
        yield Case(fmt, number, sample.name, names[sample], tuple(applied), data)


# --- judging one import --------------------------------------------------------------------------


class _Caught(logging.Handler):
    """Keeps the tracebacks the import's safety net logs (logger 'lifelens.import')."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


FAST_DISK = Path("/dev/shm")  # in memory where the system has it: a case's store costs a tenth


def judge_bytes(case: Case, work: Path | None = None) -> Verdict:
    """Write `case` under a fresh folder named as its sample, import it, read the store back."""
    if work is None and FAST_DISK.is_dir() and os.access(FAST_DISK, os.W_OK):
        work = FAST_DISK
    with tempfile.TemporaryDirectory(prefix="lifelens-fuzz-", dir=work) as tmp:
        path = Path(tmp) / case.name
        path.write_bytes(case.data)
        return judge(path, Path(tmp) / "store.sqlite")


def judge(path: Path, db: Path) -> Verdict:
    from app.importing import import_paths
    from app.store import EventStore

    logger = logging.getLogger("lifelens.import")
    caught = _Caught()
    logger.addHandler(caught)
    old_level = logger.level
    logger.setLevel(logging.DEBUG)
    try:
        try:
            with EventStore.open(db) as store:
                summary = import_paths(store, [path], home_zone="Europe/Berlin")
        except Exception as exc:
            return Verdict("crash", *_describe(exc, "escaped import_paths"))
        try:
            _read_back(db)
        except Exception as exc:
            return Verdict("crash", *_describe(exc, "reading the store back failed"), added=summary.added)
    finally:
        logger.removeHandler(caught)
        logger.setLevel(old_level)
    errors = summary.errors
    unexpected = [e for e in errors if getattr(e, "cause", None)]
    if unexpected:
        record = caught.records[0] if caught.records else None
        exc = record.exc_info[1] if record is not None and record.exc_info else None
        detail, where = _describe(exc, "caught by the safety net") if exc else (str(unexpected[0]), "")
        return Verdict("caught", detail, where, summary.added, len(errors))
    return Verdict("clear" if errors else "ok", "", "", summary.added, len(errors))


def _read_back(db: Path) -> None:
    """What `lifelens sources`, `events`, `errors` and a search do, and the integrity check."""
    from app.store import EventStore

    with EventStore.open(db, read_only=True) as store:
        for row in store.sources():
            row.first.isoformat(), row.last.isoformat()
        ids = []
        for event in store.events():
            json.dumps(event.to_json(), ensure_ascii=False).encode("utf-8")
            ids.append(event.id)
        store.get(ids[:50])
        for error in store.import_errors():
            str(error).encode("utf-8")
        store.search("the a music mail")
    with EventStore.open(db) as store:  # the full-text check writes its verdict
        store.check()


def _describe(exc: BaseException, what: str) -> tuple[str, str]:
    frames = traceback.extract_tb(exc.__traceback__)
    ours = [f for f in frames if str(ROOT) in f.filename and "/bench/" not in f.filename]
    where = f"{Path(ours[-1].filename).relative_to(ROOT)}:{ours[-1].lineno}" if ours else ""
    text = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    if len(text) > 500:
        text = text[:500] + "..."
    tb = "".join(traceback.format_list(frames[-6:]))
    return f"{what}: {text}\n{tb}", where
