"""Gmail's Takeout mailbox: `Takeout/Mail/All mail Including Spam and Trash.mbox`.

One message per mail observation, in date order, with the headers Gmail writes (X-GM-THRID,
X-Gmail-Labels, Delivered-To, Message-ID, In-Reply-To/References), RFC 2047 encoded names and subjects
when they are not ASCII, quoted-printable UTF-8 bodies, HTML-only mails from companies and
multipart/alternative mails from people. Body lines starting with "From " are escaped (">From ").
"""

from __future__ import annotations

import quopri
from datetime import timezone
from email.header import Header
from email.utils import format_datetime, formataddr
from html import escape as html_escape
from pathlib import Path

from app.persona.timeline import Timeline, stable_hash

UTC = timezone.utc
MBOX_PATH = ("Takeout", "Mail", "All mail Including Spam and Trash.mbox")


def _addr(name: str, email: str) -> str:
    if name.isascii():
        return formataddr((name, email))
    return f"{Header(name, 'utf-8').encode()} <{email}>"


def _subject(text: str) -> str:
    if text.isascii():
        return text
    return Header(text, "utf-8", maxlinelen=76).encode()


def _qp(text: str) -> str:
    return quopri.encodestring(text.replace("\r\n", "\n").encode("utf-8")).decode("ascii")


def _escape_from(text: str) -> str:
    return "\n".join(">" + line if line.startswith("From ") else line for line in text.split("\n"))


def _html_from_text(text: str) -> str:
    paragraphs = [html_escape(p).replace("\n", "<br>") for p in text.split("\n\n")]
    return '<div dir="ltr">' + "".join(f"<div>{p}</div><div><br></div>" for p in paragraphs) + "</div>"


def message_text(d: dict, me_email: str, index: int) -> str:
    sent = d["date"]
    envelope_time = sent.astimezone(UTC).strftime("%a %b %d %H:%M:%S +0000 %Y")
    lines = [f"From {d['thread']}@xxx {envelope_time}",
             f"X-GM-THRID: {d['thread']}",
             f"X-Gmail-Labels: {','.join(d['labels'])}",
             f"Delivered-To: {me_email}" if d["from"][1] != me_email else None,
             "MIME-Version: 1.0",
             f"Date: {format_datetime(sent)}",
             f"Message-ID: {d['message_id']}"]
    if d.get("in_reply_to"):
        lines += [f"In-Reply-To: {d['in_reply_to']}", f"References: {d['in_reply_to']}"]
    lines += [f"Subject: {_subject(d['subject'])}", f"From: {_addr(*d['from'])}",
              f"To: {', '.join(_addr(n, e) for n, e in d['to'])}"]
    if d.get("cc"):
        lines.append(f"Cc: {', '.join(_addr(n, e) for n, e in d['cc'])}")
    boundary = f"000000000000{stable_hash(d['message_id']) % (16 ** 16):016x}"
    if d.get("html") and not d.get("body"):
        lines += ['Content-Type: text/html; charset="UTF-8"', "Content-Transfer-Encoding: quoted-printable", "",
                  _qp(d["html"])]
    elif index % 5 < 2:  # Gmail's web client sends both parts
        lines += [f'Content-Type: multipart/alternative; boundary="{boundary}"', "",
                  f"--{boundary}", 'Content-Type: text/plain; charset="UTF-8"', "Content-Transfer-Encoding: quoted-printable", "",
                  _qp(_escape_from(d["body"])), "",
                  f"--{boundary}", 'Content-Type: text/html; charset="UTF-8"', "Content-Transfer-Encoding: quoted-printable", "",
                  _qp(_html_from_text(d["body"])), "", f"--{boundary}--"]
    else:
        lines += ['Content-Type: text/plain; charset="UTF-8"', "Content-Transfer-Encoding: quoted-printable", "",
                  _qp(_escape_from(d["body"]))]
    return "\n".join(line for line in lines if line is not None).rstrip("\n") + "\n\n"


def render_mbox(tl: Timeline, out: Path) -> dict[str, int]:
    mails = [o.data for ev in tl.events for o in ev.obs if o.fmt == "mbox" and "same_as" not in o.data]
    mails.sort(key=lambda d: (d["date"].astimezone(UTC), d["message_id"]))
    path = out.joinpath(*MBOX_PATH)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="\n") as f:
        for i, d in enumerate(mails):
            f.write(message_text(d, tl.p.me.email, i))
    return {str(path.relative_to(out)): len(mails)}
