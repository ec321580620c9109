"""Generators of edge-case mbox and ics files for the importer tests (written into tmp_path).

Everything here is made up by the tests themselves: no file is copied from elsewhere.
"""

from __future__ import annotations

import base64
from email.header import Header
from pathlib import Path


def envelope(n: int, year: int = 2024) -> str:
    return f"From 17{n:017d}@xxx Mon Jan 15 10:{n % 60:02d}:00 +0000 {year}\n"


def gmail_message(n: int, *, body_words: int = 60, html: bool = True, labels: str = 'Inbox,Important,"Category: Updates"') -> str:
    """A message as Google Takeout writes it: envelope, X-GM-THRID, X-Gmail-Labels, multipart/alternative."""
    subject = Header(f"Réunion n°{n} – budget", "utf-8").encode()
    words = " ".join(f"word{(n * 7 + i) % 997}" for i in range(body_words))
    head = (
        envelope(n)
        + f"X-GM-THRID: 17{n:017d}\n"
        + f"X-Gmail-Labels: {labels}\n"
        + f"Message-ID: <msg{n}@example.com>\n"
        + f"Date: Mon, 15 Jan 2024 11:{n % 60:02d}:00 +0100\n"
        + f'From: "Ann Example" <ann{n % 50}@example.com>\n'
        + "To: Bob Example <bob@example.com>, carol@example.com\n"
        + f"Subject: {subject}\n"
        + "MIME-Version: 1.0\n"
    )
    if not html:
        return head + "Content-Type: text/plain; charset=utf-8\n\n" + f"Hallo Bob,\n{words}\nGrüße, Ann\n\n"
    boundary = f"b{n}"
    return (
        head
        + f'Content-Type: multipart/alternative; boundary="{boundary}"\n\n'
        + f"--{boundary}\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n"
        + f"Hallo Bob,\n{words}\nGrüße, Ann\n\n"
        + f"--{boundary}\nContent-Type: text/html; charset=utf-8\n\n"
        + f"<div>Hallo Bob,<br>{words}<br>Grüße, Ann</div>\n\n"
        + f"--{boundary}--\n\n"
    )


def write_mbox(path: Path, messages: list[str | bytes]) -> Path:
    with open(path, "wb") as f:
        for message in messages:
            f.write(message.encode("utf-8") if isinstance(message, str) else message)
    return path


def write_large_mbox(path: Path, target_bytes: int, body_words: int = 120) -> int:
    """Write Gmail-like messages until the file reaches `target_bytes`; returns how many."""
    n = 0
    size = 0
    with open(path, "wb") as f:
        while size < target_bytes:
            n += 1
            chunk = gmail_message(n, body_words=body_words).encode("utf-8")
            f.write(chunk)
            size += len(chunk)
    return n


def attachment_message(n: int, payload_bytes: int = 3000) -> str:
    """multipart/mixed with a text part and a base64 PDF attachment (to be cut for the truncated case)."""
    data = base64.encodebytes(bytes(range(256)) * (payload_bytes // 256 + 1)).decode("ascii")
    return (
        envelope(n)
        + f"Message-ID: <att{n}@example.com>\n"
        + "Date: Tue, 16 Jan 2024 09:00:00 +0100\n"
        + "From: Ann Example <ann@example.com>\n"
        + "To: bob@example.com\n"
        + "Subject: Invoice attached\n"
        + "MIME-Version: 1.0\n"
        + 'Content-Type: multipart/mixed; boundary="mix"\n\n'
        + "--mix\nContent-Type: text/plain; charset=us-ascii\n\nPlease find the invoice attached.\n\n"
        + '--mix\nContent-Type: application/pdf; name="invoice.pdf"\n'
        + 'Content-Disposition: attachment; filename="invoice.pdf"\nContent-Transfer-Encoding: base64\n\n'
        + data
        + "\n--mix--\n\n"
    )


def wrong_encoding_messages() -> list[bytes]:
    """Mail whose declared charsets lie or are missing."""
    latin1_declared_utf8 = (
        envelope(101)
        + "Message-ID: <enc1@example.com>\nDate: Wed, 17 Jan 2024 08:00:00 +0100\n"
        + "From: =?iso-8859-1?q?J=FCrgen_M=FCller?= <juergen@example.de>\nSubject: =?x-unknown?q?Gr=FC=DFe?=\n"
        + "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n"
    ).encode("ascii") + "Schöne Grüße aus Köln\n\n".encode("latin-1")
    no_charset_8bit = (
        envelope(102)
        + "Message-ID: <enc2@example.com>\nDate: Wed, 17 Jan 2024 09:00:00 +0100\n"
        + "From: Zoë <zoe@example.fr>\n"
    ).encode("utf-8") + "Subject: Café crème\n\n".encode("cp1252") + "Un café crème à 3€, s'il vous plaît\n\n".encode("cp1252")
    bogus_charset = (
        envelope(103)
        + "Message-ID: <enc3@example.com>\nDate: Wed, 17 Jan 2024 10:00:00 +0100\n"
        + "From: ops@example.com\nSubject: Status\n"
        + 'Content-Type: text/plain; charset="x-no-such-charset"\n\n'
    ).encode("ascii") + "Überall grün ✓\n\n".encode("utf-8")
    return [latin1_declared_utf8, no_charset_8bit, bogus_charset]


def broken_message(n: int) -> bytes:
    """An envelope line followed by binary garbage instead of mail headers."""
    return envelope(n).encode("ascii") + b"\x00\x01\x02\xff\xfe garbage \x9c\x88 not a mail\n\x00\x00\n\n"


def no_date_messages() -> list[str]:
    """A message with only a Received date, and one with only the envelope date."""
    received_only = (
        "From bob@example.com Sat Mar  2 18:30:00 2024\n"
        + "Received: from mx.example.com by mail.example.com; Sat, 2 Mar 2024 19:29:58 +0100\n"
        + "Message-ID: <rcv@example.com>\nFrom: Bob <bob@example.com>\nSubject: Only a Received date\n\nHi\n\n"
    )
    envelope_only = (
        "From - Sun Mar  3 07:15:00 2024\n"
        + "From: Carol <carol@example.com>\nSubject: Only an envelope date\nContent-Type: text/html\n\n"
        + "<html><head><style>p {color: red}</style></head><body><p>First&nbsp;line</p><p>Second &amp; last</p></body></html>\n\n"
    )
    return [received_only, envelope_only]


# --- ics ------------------------------------------------------------------------------------

ICS_HEAD = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Lifelens tests//EN\r\nX-WR-TIMEZONE:Europe/Berlin\r\nX-WR-CALNAME:Tests\r\n"
ICS_TAIL = "END:VCALENDAR\r\n"


def vevent(uid: str, start: str, summary: str, *extra: str, end: str | None = None) -> str:
    lines = ["BEGIN:VEVENT", f"UID:{uid}", f"DTSTAMP:20240101T000000Z", f"DTSTART;TZID=Europe/Berlin:{start}"]
    if end:
        lines.append(f"DTEND;TZID=Europe/Berlin:{end}")
    lines.append(f"SUMMARY:{summary}")
    lines.extend(extra)
    lines.append("END:VEVENT")
    return "\r\n".join(lines) + "\r\n"


def write_ics(path: Path, *events: str, head: str = ICS_HEAD, tail: str = ICS_TAIL, trailing: str = "") -> Path:
    path.write_bytes((head + "".join(events) + tail + trailing).encode("utf-8"))
    return path


def ics_with_invalid_line(path: Path) -> Path:
    """Three events; the second holds a line that is no iCalendar line and a broken DTEND."""
    return write_ics(
        path,
        vevent("a@test", "20240301T090000", "Dentist", end="20240301T100000"),
        vevent("b@test", "20240302T090000", "Yoga", "THIS LINE IS NOT ICALENDAR", "DTEND:2024-13-45", end=None),
        vevent("c@test", "20240303T090000", "Football", end="20240303T110000"),
    )


def ics_with_trailing_garbage(path: Path) -> Path:
    return write_ics(
        path,
        vevent("d@test", "20240401T180000", "Dinner at Luigi's", "LOCATION:Luigi's\\, Hauptstraße 5", end="20240401T200000"),
        trailing="<html>Error 502: bad gateway</html>\r\nRetry later\r\n",
    )


def ics_truncated(path: Path) -> Path:
    """A calendar cut in the middle of its second event (an incomplete download)."""
    text = ICS_HEAD + vevent("e@test", "20240501T080000", "Breakfast", end="20240501T090000")
    text += "BEGIN:VEVENT\r\nUID:f@test\r\nDTSTART;TZID=Europe/Berlin:2024050"
    path.write_bytes(text.encode("utf-8"))
    return path


def ics_two_custom_zones(path_a: Path, path_b: Path) -> tuple[Path, Path]:
    """Two files using the same custom TZID name for different offsets (+05:00 and -07:00)."""

    def zone(offset: str) -> str:
        return (
            "BEGIN:VTIMEZONE\r\nTZID:Customized Time Zone\r\nBEGIN:STANDARD\r\nDTSTART:16010101T000000\r\n"
            f"TZOFFSETFROM:{offset}\r\nTZOFFSETTO:{offset}\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n"
        )

    event = (
        "BEGIN:VEVENT\r\nUID:{uid}\r\nDTSTART;TZID=Customized Time Zone:20240610T090000\r\n"
        "DTEND;TZID=Customized Time Zone:20240610T100000\r\nSUMMARY:Standup\r\nEND:VEVENT\r\n"
    )
    head = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Lifelens tests//EN\r\n"
    path_a.write_bytes((head + zone("+0500") + event.format(uid="za@test") + ICS_TAIL).encode())
    path_b.write_bytes((head + zone("-0700") + event.format(uid="zb@test") + ICS_TAIL).encode())
    return path_a, path_b
