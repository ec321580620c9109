"""Mail in mbox files: Google Takeout (`Takeout/Mail/All mail Including Spam and Trash.mbox`),
Thunderbird profile folders (`Inbox`, `Sent`, no extension), mailing-list archives (mboxo/mboxrd).

The file is read as a byte stream, line by line, and split at envelope lines ("From sender
Mon Jan  1 00:00:00 2024" at the start of a line); only one message is in memory at a time, and
of that at most `MAX_MESSAGE_BYTES` (the rest of a huge message is attachments, skipped unread).
Each message is read by `importers._mime` (headers, multipart splitting, transfer decoding): a
lean reader on bytes, several times faster than building the stdlib `email` object tree.

One event per message (source "mail"):
    start     the Date header; else the date of the newest Received header; else the envelope date
    title     the subject, or "(no subject)"
    text      sender name, subject and the first `MAX_TEXT_BODY_CHARS` of the body
    data      from, from_name, to, cc, subject, body, labels (X-Gmail-Labels), message_id,
              attachments (file names), thread_id (X-GM-THRID) -- each only when present
    key       the Message-ID; without one, a hash of date, sender, subject and body
    position  "message N at byte B" (B: offset of the envelope line)

The body is the text/plain part (text/html converted to text when a message has no plain part),
decoded with the declared charset, falling back to UTF-8 and Windows-1252 when that is missing or
wrong. A message that cannot be read becomes a `RecordError` at its position; the others import.
A last message that stops before its headers end or before its MIME parts close is reported as
truncated and not imported (a later, complete export then adds it).

    >>> importer = MboxImporter()
    >>> importer.detect(file)       # by content: an envelope line followed by header lines
    True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from email.utils import getaddresses, parsedate_tz
from typing import IO, Iterator

from importers._limits import EARLIEST_YEAR, LATEST_YEAR
from importers._mime import Body, Mail, parse_message, readable_body
from importers._text import from_surrogates, header_text
from importers.base import Event, InputFile, Record, RecordError, content_key

MAX_MESSAGE_BYTES = 8 * 1024 * 1024  # text parts come first; past this a message is attachments
MAX_BODY_CHARS = 256 * 1024  # kept in data["body"]
MAX_TEXT_BODY_CHARS = 20_000  # indexed for full-text search

_DAYS = "Mon|Tue|Wed|Thu|Fri|Sat|Sun"
_MONTHS = "Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec"
# "From sender Wed Feb  9 22:02 MET 2000", "From 17791...@xxx Mon Jan 01 10:00:00 +0000 2024" (Gmail),
# "From user at example.com  Fri Apr  6 22:43:55 2007" (Pipermail), 'From "a@b.com" Wed Jan 30 18:07:01 2002',
# "From - Tue Jan 01 00:00:00 2008" (Thunderbird). A body line "From here on..." is not one of them.
_ENVELOPE = re.compile(
    rb"From (?P<sender>.*?)\s+(?P<date>(?:%s)\w*,?\s+(?:%s)\w*\s+\d{1,2}\s+\d{1,2}:\d{2}.*?)\s*$"
    % (_DAYS.encode(), _MONTHS.encode()),
    re.IGNORECASE,
)
_ENVELOPE_DATE = re.compile(
    r"(?P<mon>%s)\w*\s+(?P<day>\d{1,2})\s+(?P<h>\d{1,2}):(?P<m>\d{2})(?::(?P<s>\d{2}))?"
    r"(?:\s+(?P<zone1>[A-Z]{1,5}(?:\s+DST)?|[+-]\d{4}))?\s+(?P<year>\d{4})(?:\s+(?P<zone2>[+-]\d{4}))?" % _MONTHS,
    re.IGNORECASE,
)
_MONTH_NUMBER = {name.lower(): i for i, name in enumerate(_MONTHS.split("|"), start=1)}
_HEADER_LINE = re.compile(rb"^[!-9;-~]+:")
# Every pattern below runs over headers a stranger wrote, so each is linear in its input: a match can only
# start where a run of its characters starts (the look-behind), and no two quantifiers can share a character.
# (Without the look-behind, "user at host" cost 1 s for 10,000 letters and never ended for 200,000.)
_OBFUSCATED_AT = re.compile(r"(?<![\w.+=-])([\w.+=-]+) at ([\w-]+(?:\.[\w-]+)+)")
_LABEL = re.compile(r'(?:"[^"]*"|[^,"])+')  # one label: quoted parts and other characters up to a comma
MAX_ENVELOPE_CHARS = 512  # an envelope line is "From sender date" (real ones: 30-150 characters)


@dataclass
class _RawMessage:
    number: int
    offset: int
    envelope: bytes
    data: bytes  # the message after its envelope line, mbox quoting undone, at most ~MAX_MESSAGE_BYTES
    cut: bool  # longer than MAX_MESSAGE_BYTES: the tail was dropped
    last: bool  # ends at the end of the file


class MboxImporter:
    name = "mbox"

    def detect(self, file: InputFile) -> bool:
        head = file.head(4096)
        if head.startswith(b"\xef\xbb\xbf"):
            head = head[3:]
        lines = head.lstrip(b"\r\n").split(b"\n", 3)
        if len(lines) < 2 or not lines[0].startswith(b"From "):
            return False
        first = lines[0].rstrip(b"\r")
        return _is_envelope(first) and _HEADER_LINE.match(lines[1]) is not None

    def read(self, file: InputFile) -> Iterator[Record]:
        with file.open() as stream:
            for raw in split_messages(stream):
                yield self._message(file, raw)

    def _message(self, file: InputFile, raw: _RawMessage) -> Record:
        position = f"message {raw.number} at byte {raw.offset}"
        try:
            return message_event(raw, position) or RecordError(
                file.display, position, "no mail headers after the 'From ' line; not a mail message"
            )
        except _Truncated as exc:
            return RecordError(file.display, position, str(exc))
        except Exception as exc:  # a parser bug on one odd message must not stop the other 100,000
            return RecordError(file.display, position, f"cannot read this message: {type(exc).__name__}: {exc}")


class _Truncated(Exception):
    pass


BLOCK_BYTES = 256 * 1024  # read at a time; a block always ends at a line end
# A body line quoted by the mbox writer (mboxrd/mboxo: ">From ...", ">>From ..."): one ">" goes.
_QUOTED_FROM = re.compile(rb"^>(>*From )", re.MULTILINE)


def _blocks(stream: IO[bytes]) -> Iterator[tuple[int, bytes]]:
    """(file offset, bytes) in blocks of whole lines (the last may lack its newline)."""
    offset = 0
    carry = b""
    while True:
        chunk = stream.read(BLOCK_BYTES)
        if not chunk:
            if carry:
                yield offset, carry
            return
        data = carry + chunk if carry else chunk
        end = data.rfind(b"\n") + 1
        if end == 0:  # one line longer than a block: read on to its end
            carry = data
            continue
        yield offset, data[:end] if end < len(data) else data
        offset += end
        carry = data[end:]


class _Collector:
    """The message being cut out: its kept bytes (at most MAX_MESSAGE_BYTES, in whole lines)."""

    def __init__(self, number: int, offset: int, envelope: bytes):
        self.number = number
        self.offset = offset
        self.envelope = envelope
        self.parts: list[bytes] = []
        self.kept = 0
        self.cut = False

    def add(self, text: bytes, unquote: bool = True) -> None:
        """Append whole lines: each line that starts below MAX_MESSAGE_BYTES is kept, the rest cut."""
        if not text:
            return
        room = MAX_MESSAGE_BYTES - self.kept
        if room <= 0:
            self.cut = True
            return
        if len(text) > room:
            end = text.find(b"\n", room - 1) + 1  # the end of the line holding the last byte with room
            if 0 < end < len(text):
                text = text[:end]
                self.cut = True
        self.kept += len(text)  # bytes as in the file: offsets and the cap count the quoting ">"
        if unquote and b">From " in text:
            text = _QUOTED_FROM.sub(rb"\1", text)
        self.parts.append(text)

    def message(self, last: bool) -> _RawMessage:
        return _RawMessage(self.number, self.offset, self.envelope, b"".join(self.parts), self.cut, last)


def split_messages(stream: IO[bytes]) -> Iterator[_RawMessage]:
    """Cut an mbox byte stream into messages at envelope lines, keeping at most MAX_MESSAGE_BYTES each.

    Blocks of lines are searched for "From " at line starts; only those lines are looked at one by one,
    so a message costs a few byte searches, not a step per line. A "From " line inside a message is an
    envelope only when it looks like one (sender and date); the first one of the file always is.
    """
    number = 0
    current: _Collector | None = None
    for block_offset, block in _blocks(stream):
        pos = 0  # block[pos:] is not yet given to a message
        size = len(block)
        search = 0
        while pos < size:
            if search == 0 and block.startswith(b"From "):
                at = 0
            else:
                at = block.find(b"\nFrom ", search) + 1 or size  # size: no envelope candidate left
            if current is None:  # blank lines are dropped; other text starts a message without envelope
                current, number = _before_first_envelope(block[pos:at], block_offset + pos, number)
                pos = at
            if at == size:
                if current is not None:
                    current.add(block[pos:])
                break
            line_end = block.find(b"\n", at) + 1 or size
            line = block[at:line_end].rstrip(b"\r\n")
            search = at + 1
            if current is not None and not _is_envelope(line):
                continue  # a body line that starts with "From ": stays in the message
            if current is not None:
                current.add(block[pos:at])
                yield current.message(last=False)
            number += 1
            current = _Collector(number, block_offset + at, line)
            pos = line_end
    if current is not None:
        yield current.message(last=True)


def _is_envelope(line: bytes) -> bool:
    """An mbox "From " line: sender and date. Longer lines are body text (and _ENVELOPE's lazy sender makes
    a long run of spaces cost the square of its length: 11 s for 20,000)."""
    return len(line) <= MAX_ENVELOPE_CHARS and _ENVELOPE.match(line) is not None


def _before_first_envelope(text: bytes, offset: int, number: int) -> tuple[_Collector | None, int]:
    """Bytes before the first envelope: blank lines are skipped; any other line starts a message without
    an envelope (not an mbox start: detect() refuses such files, read() reports them per message)."""
    pos = 0
    while pos < len(text):
        end = text.find(b"\n", pos) + 1 or len(text)
        line = text[pos:end]
        if line.strip():
            collector = _Collector(number + 1, offset + pos, b"")
            collector.add(line, unquote=False)
            collector.add(text[end:])
            return collector, number + 1
        pos = end
    return None, number


def message_event(raw: _RawMessage, position: str) -> Event | None:
    """The event for one message, None when it has no headers at all; raises _Truncated."""
    mail = parse_message(raw.data)
    if not mail.has_headers:
        return None
    body = readable_body(mail)
    _check_complete(raw, mail, body)
    sender_name, sender_addr = _first_address(mail.text("from") or mail.text("sender"))
    subject = mail.header("subject")
    text_body = body.text
    start = _date(mail, raw.envelope)
    if start is None:
        raise ValueError("no usable date: no Date header, no dated Received header, no envelope date within 1900-2100")
    message_id = _message_id(mail.header("message-id"))
    data = _mail_data(mail, body, sender_name, sender_addr, subject, message_id)
    who = sender_name or sender_addr
    title = subject or "(no subject)"
    text = "\n".join(part for part in (who, subject, text_body[:MAX_TEXT_BODY_CHARS]) if part)
    key = f"message-id:{message_id}" if message_id else content_key(start.isoformat(), sender_addr, subject, text_body)
    return Event(
        source="mail",
        type="mbox",
        start=start,
        end=None,
        title=title,
        text=text or title,
        data=data,
        position=position,
        key=key,
    )


def _check_complete(raw: _RawMessage, mail: Mail, body: Body) -> None:
    """Raise _Truncated when the file ends inside the message's headers or before its MIME parts close."""
    if raw.last and not raw.cut:
        if not mail.headers_ended and not raw.data.endswith(b"\n"):
            raise _Truncated("the file ends inside this message's headers; the file looks truncated (incomplete download?)")
        if body.open_multipart:
            raise _Truncated(
                "the file ends before this message's MIME parts close; the file looks truncated (incomplete download?)"
            )


def _mail_data(mail: Mail, body: Body, sender_name: str, sender_addr: str, subject: str, message_id: str) -> dict:
    """The event's data: each field only when the message has it (see the module docstring)."""
    data: dict = {}
    if sender_addr:
        data["from"] = sender_addr
    if sender_name:
        data["from_name"] = sender_name
    for field in ("to", "cc"):
        people = _addresses(mail.text(field))
        if people:
            data[field] = people
    if subject:
        data["subject"] = subject
    if body.text:
        data["body"] = body.text[:MAX_BODY_CHARS]
    labels = _labels(mail.text("x-gmail-labels", ","))
    if labels:
        data["labels"] = labels
    if message_id:
        data["message_id"] = message_id
    if body.attachments:
        data["attachments"] = body.attachments
    thread = mail.header("x-gm-thrid")
    if thread:
        data["thread_id"] = thread
    return data


def _date(mail: Mail, envelope: bytes) -> datetime | None:
    """The first date of Date, Received and the envelope that lies within 1900-2100 (a mail dated
    'Fri, 31 Dec 9999 20:00:00 -1200' is year 10000 in UTC, which no store can read back)."""
    for candidate in (mail.header("date"), _received_date(mail.header("received"))):
        if candidate:
            parsed = _parse_date(candidate)
            if parsed is not None and EARLIEST_YEAR <= parsed.year <= LATEST_YEAR:
                return parsed
    parsed = _envelope_date(envelope)
    return parsed if parsed is not None and EARLIEST_YEAR <= parsed.year <= LATEST_YEAR else None


def _parse_date(text: str) -> datetime | None:
    parts = parsedate_tz(text)
    if parts is None:
        return None
    try:
        zone = timezone(timedelta(seconds=parts[9] or 0))
        return datetime(*parts[:6], tzinfo=zone)  # type: ignore[misc]
    except (ValueError, OverflowError, TypeError):
        return None


def _received_date(received: str | None) -> str | None:
    if received and ";" in received:
        return received.rsplit(";", 1)[1]
    return None


# Envelope dates carry a zone name at most; these are the ones seen in real archives.
_ZONE_NAMES = {"UT": 0, "UTC": 0, "GMT": 0, "WET": 0, "CET": 60, "MET": 60, "MEZ": 60, "EET": 120, "EST": -300,
               "EDT": -240, "CST": -360, "CDT": -300, "MST": -420, "MDT": -360, "PST": -480, "PDT": -420}


def _envelope_date(envelope: bytes) -> datetime | None:
    match = _ENVELOPE_DATE.search(envelope.decode("latin-1"))
    if match is None:
        return None
    zone_text = (match.group("zone2") or match.group("zone1") or "").upper()
    minutes = 0
    if zone_text[:1] in "+-" and zone_text[1:].isdigit():
        sign = -1 if zone_text[0] == "-" else 1
        minutes = sign * (int(zone_text[1:3]) * 60 + int(zone_text[3:5]))
    elif zone_text:
        name, _, dst = zone_text.partition(" ")
        minutes = _ZONE_NAMES.get(name, 0) + (60 if dst else 0)
    try:
        return datetime(
            int(match.group("year")),
            _MONTH_NUMBER[match.group("mon")[:3].lower()],
            int(match.group("day")),
            int(match.group("h")),
            int(match.group("m")),
            int(match.group("s") or 0),
            tzinfo=timezone(timedelta(minutes=minutes)),
        )
    except ValueError:
        return None


def _clean_address(addr: str) -> str:
    return addr.strip().strip("<>").strip()


# "Name" <a@b>, Name <a@b>, a@b -- the forms nearly every mail uses; anything else goes to getaddresses.
# A plain name is words with single runs of space between them (a lazy name followed by \s* rescanned a run
# of spaces from each of its characters: 0.6 s for 20,000 spaces).
_SIMPLE_ADDRESS = re.compile(
    r'\s*(?:(?:"(?P<quoted>[^"\\]*)"|(?P<plain>(?:[^",<>()\\;:@\s]+(?:\s+[^",<>()\\;:@\s]+)*)?))\s*<(?P<angle>[^<>\s,;:"()]+)>|(?P<bare>[^\s",<>()\\;:@]+@[^\s",<>()\\;:@]+))\s*(?:,|$)'
)


def _parse_addresses(raw: str) -> list[tuple[str, str]]:
    if not raw.strip():
        return []
    text = from_surrogates(raw)
    text = re.sub(r"\r?\n[ \t]*", " ", text)
    if "@" not in text:
        text = _OBFUSCATED_AT.sub(r"\1@\2", text)  # list archives write "user at example.com"
    pairs = _simple_addresses(text)
    if pairs is None:
        try:
            pairs = getaddresses([text])
        except (RecursionError, ValueError, IndexError):  # 20,000 nested "(" exhausted its recursion
            return []
    found = []
    for name, addr in pairs:
        name = header_text(name).strip().strip('"').strip() if name else ""
        if len(name) > 1 and name[0] == name[-1] == "'":  # Outlook: 'Steve Sapovits' <s@x.com>
            name = name[1:-1].strip()
        addr = _clean_address(addr)
        if name == addr:
            name = ""
        if name or addr:
            found.append((name, addr))
    return found


def _simple_addresses(text: str) -> list[tuple[str, str]] | None:
    pairs = []
    pos = 0
    end = len(text.rstrip())
    while pos < end:
        match = _SIMPLE_ADDRESS.match(text, pos)
        if match is None or match.end() == pos:
            return None
        if match.group("bare"):
            pairs.append(("", match.group("bare")))
        else:
            pairs.append(((match.group("quoted") or match.group("plain") or "").strip(), match.group("angle")))
        pos = match.end()
    return pairs


def _first_address(raw: str) -> tuple[str, str]:
    pairs = _parse_addresses(raw)
    return pairs[0] if pairs else ("", "")


def _addresses(raw: str) -> list[str]:
    """Recipients as a person reads them: 'Name <addr>' when a name is given, else the address."""
    shown = []
    for name, addr in _parse_addresses(raw):
        shown.append(f"{name} <{addr}>" if name and addr else (addr or name))
    return shown


def _message_id(raw: str | None) -> str:
    if not raw:
        return ""
    text = header_text(raw)
    match = re.search(r"<([^<>\s]+)>", text)
    return match.group(1) if match else text.strip().strip("<>")


def _labels(raw: str | None) -> list[str]:
    """Gmail labels: 'Inbox,Important,"Category: Updates"' -> ['Inbox', 'Important', 'Category: Updates']."""
    if not raw:
        return []
    text = re.sub(r"\r?\n[ \t]*", " ", raw)
    labels = []
    for part in _LABEL.findall(text):
        label = header_text(part.strip().strip('"'))
        if label and label not in labels:
            labels.append(label)
    return labels


IMPORTERS = [MboxImporter()]
