"""A lean, lenient MIME reader for the mbox importer: headers, multipart splitting, body text.

The stdlib `email` parser builds a full object tree, and compiles a regular expression for every
multipart boundary it meets (each mail has its own), which made it the bottleneck at about 1,000
mails per second. Reading a mail for Lifelens needs much less: a few headers, the text parts, the
names of attachments. This module does that on bytes, never raises on malformed input, and says
whether a multipart structure was left open (a truncated file).

    >>> mail = parse_message(b"Subject: Hi\\nContent-Type: text/plain; charset=utf-8\\n\\nHello\\n")
    >>> mail.header("subject"), readable_body(mail).text
    ('Hi', 'Hello')
"""

from __future__ import annotations

import binascii
import re
from dataclasses import dataclass, field
from urllib.parse import unquote_to_bytes

from importers._text import decode_bytes, fix_mojibake, header_text, html_to_text, squeeze

MAX_DEPTH = 8  # nested multiparts / forwarded mails followed
MAX_HTML_CHARS = 2 * 1024 * 1024  # HTML converted per part

_HEADER_NAME = re.compile(rb"^([!-9;-~]+)[ \t]*:")
_PARAM = re.compile(r';\s*([^\s=;]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)')
_NOT_BASE64 = re.compile(rb"[^A-Za-z0-9+/]")
# Parts that are machinery, not content a person attached.
_NOT_ATTACHMENTS = frozenset(("application/pgp-signature", "application/pgp-encrypted", "application/pkcs7-signature"))


@dataclass
class Mail:
    """A message or body part: raw header values by lower-case name, and the undecoded body."""

    headers: dict[str, list[bytes]]
    body: bytes
    has_headers: bool
    headers_ended: bool  # a blank line separated headers and body
    _content_type: tuple[str, dict[str, str]] | None = None

    def raw(self, name: str) -> bytes | None:
        values = self.headers.get(name)
        return values[0] if values else None

    def header(self, name: str) -> str:
        """The first `name` header, decoded (RFC 2047, 8-bit bytes), unfolded; '' when absent."""
        value = self.raw(name)
        return header_text(decode_bytes(value)) if value is not None else ""

    def text(self, name: str, joiner: str = ", ") -> str:
        """All `name` headers, decoded only for 8-bit bytes (RFC 2047 words left for the caller)."""
        values = self.headers.get(name)
        if not values:
            return ""
        return joiner.join(decode_bytes(v) for v in values)


def parse_message(raw: bytes) -> Mail:
    """Split `raw` into headers and body the way mail readers do (first blank line ends the headers)."""
    if raw[:1] == b"\n" or raw[:2] == b"\r\n":  # no headers at all
        return Mail({}, raw[1:] if raw[:1] == b"\n" else raw[2:], has_headers=False, headers_ended=True)
    lf = raw.find(b"\n\n")
    crlf = raw.find(b"\n\r\n", 0, len(raw) if lf == -1 else lf + 2)  # only a blank line before lf matters
    if lf == -1 and crlf == -1:
        head, body_start, ended = raw, len(raw), False
    else:
        cut = crlf if lf == -1 or crlf != -1 else lf
        head, body_start, ended = raw[:cut], cut + (2 if raw[cut + 1 : cut + 2] == b"\n" else 3), True
    headers: dict[str, list[bytes]] = {}
    body_at = (_header_fields if b"\r" not in head else _header_lines)(head, headers)
    if body_at is not None:  # a line that is not a header: the body starts there, without a blank line
        return Mail(headers, raw[body_at:], has_headers=bool(headers), headers_ended=False)
    return Mail(headers, raw[body_start:], has_headers=bool(headers), headers_ended=ended)


# One header field with its folded continuation lines (for header blocks without carriage returns).
_HEADER_FIELD = re.compile(rb"([!-9;-~]+)[ \t]*:[ \t]*([^\n]*(?:\n[ \t][^\n]*)*)(?:\n|\Z)")
_NAMES: dict[bytes, str] = {}  # raw header name -> lower-case name, for the names mail keeps using


def _header_fields(head: bytes, headers: dict[str, list[bytes]]) -> int | None:
    """Fill `headers` from a header block without CR; the offset where a non-header line starts, else None."""
    pos = 0
    size = len(head)
    match = _HEADER_FIELD.match
    while pos < size:
        field = match(head, pos)
        if field is None:
            return pos
        raw_name = field.group(1)
        name = _NAMES.get(raw_name)
        if name is None:
            name = raw_name.decode("ascii").lower()
            if len(_NAMES) < 512:
                _NAMES[raw_name] = name
        values = headers.get(name)
        if values is None:
            headers[name] = [field.group(2)]
        else:
            values.append(field.group(2))
        pos = field.end()
    return size if not head or head.endswith(b"\n") else None  # an empty last line is no header either


def _header_lines(head: bytes, headers: dict[str, list[bytes]]) -> int | None:
    """`_header_fields` line by line, for any header block (a CR ending a line is dropped)."""
    current: list[bytes] | None = None
    lines = head.split(b"\n")
    offset = 0
    for line in lines:
        start = offset
        offset += len(line) + 1
        if line.endswith(b"\r"):
            line = line[:-1]
        if line[:1] in (b" ", b"\t") and current is not None:
            current[-1] = current[-1] + b"\n" + line
            continue
        match = _HEADER_NAME.match(line)
        if match is None:
            return start
        current = headers.setdefault(match.group(1).decode("ascii").lower(), [])
        current.append(line[match.end():].lstrip(b" \t"))
    return None


def content_type(mail: Mail) -> tuple[str, dict[str, str]]:
    """('text/plain', {'charset': 'utf-8'}) from Content-Type; text/plain when missing or odd."""
    if mail._content_type is None:
        mail._content_type = _parse_content_type(mail.raw("content-type"))
    return mail._content_type


def _parse_content_type(raw: bytes | None) -> tuple[str, dict[str, str]]:
    if raw is None:
        return "text/plain", {}
    value = decode_bytes(raw).replace("\r", "").replace("\n", "")
    kind, _, rest = value.partition(";")
    kind = kind.strip().lower()
    if "/" not in kind:
        kind = "text/plain"
    return kind, parameters(";" + rest) if rest else {}


def parameters(text: str) -> dict[str, str]:
    """MIME parameters, quoted or not, with RFC 2231 continuations and charsets joined and decoded."""
    simple: dict[str, str] = {}
    pieces: dict[str, list[tuple[int, bool, str]]] = {}
    for match in _PARAM.finditer(text):
        key, value = match.group(1).lower(), match.group(2).strip()
        if value.startswith('"') and value.endswith('"') and len(value) >= 2:
            value = re.sub(r"\\(.)", r"\1", value[1:-1])
        if "*" not in key:
            simple.setdefault(key, value)
            continue
        base, _, rest = key.partition("*")
        extended = key.endswith("*")
        index_text = rest.rstrip("*")
        index = int(index_text) if index_text.isdigit() else 0
        pieces.setdefault(base, []).append((index, extended, value))
    for base, segments in pieces.items():
        segments.sort()
        charset = None
        raw = bytearray()
        for i, (_, extended, value) in enumerate(segments):
            if extended:
                if i == 0 and value.count("'") >= 2:
                    charset, _, value = value.split("'", 2)
                raw += unquote_to_bytes(value)
            else:
                raw += value.encode("utf-8", "surrogateescape")
        simple[base] = decode_bytes(bytes(raw), charset or "utf-8")
    return simple


def decode_payload(mail: Mail) -> bytes:
    encoding = (mail.raw("content-transfer-encoding") or b"").strip().lower()
    body = mail.body
    if encoding == b"base64":
        try:
            return binascii.a2b_base64(body)
        except (binascii.Error, ValueError):
            cleaned = _NOT_BASE64.sub(b"", body.split(b"=", 1)[0])
            cleaned = cleaned[: len(cleaned) - len(cleaned) % 4]
            try:
                return binascii.a2b_base64(cleaned)
            except (binascii.Error, ValueError):
                return b""
    if encoding == b"quoted-printable":
        return binascii.a2b_qp(body)
    return body


def split_multipart(body: bytes, boundary: str) -> tuple[list[bytes], bool]:
    """The parts between `--boundary` lines, and whether the closing `--boundary--` was found."""
    dash = b"--" + boundary.encode("utf-8", "surrogateescape")
    parts: list[bytes] = []
    start: int | None = None
    pos = 0
    while True:
        if pos == 0 and body.startswith(dash):
            idx = 0
        else:
            found = body.find(b"\n" + dash, pos)
            if found == -1:
                break
            idx = found + 1
        line_end = body.find(b"\n", idx)
        if line_end == -1:
            line_end = len(body)
        tail = body[idx + len(dash) : line_end].rstrip(b"\r \t")
        if tail not in (b"", b"--"):  # "--b1x" is not the delimiter "--b1"
            pos = idx + len(dash)
            continue
        if start is not None:
            stop = idx - 1 if idx > 0 else 0
            if stop > start and body[stop - 1 : stop] == b"\r":
                stop -= 1
            parts.append(body[start:stop])
        if tail == b"--":
            return parts, True
        start = line_end + 1
        pos = line_end
    if start is not None:
        parts.append(body[start:])
    return parts, False


@dataclass
class Body:
    text: str = ""
    attachments: list[str] = field(default_factory=list)
    open_multipart: bool = False  # a multipart never reached its closing boundary


def readable_body(mail: Mail) -> Body:
    """The text a person reads: plain text parts (HTML converted when there is no plain version)."""
    texts: list[str] = []
    body = Body()
    _collect(mail, texts, body, 0)
    body.text = squeeze("\n\n".join(t for t in texts if t.strip()))
    return body


def _filename(mail: Mail, params: dict[str, str]) -> str:
    name = ""
    disposition = mail.raw("content-disposition")
    if disposition is not None:
        name = parameters(decode_bytes(disposition).replace("\n", "")).get("filename", "")
    name = name or params.get("name", "")
    return header_text(name) if name else ""


def _is_attachment(mail: Mail) -> bool:
    disposition = mail.raw("content-disposition")
    return disposition is not None and disposition.split(b";", 1)[0].strip().lower() == b"attachment"


def _children(mail: Mail, params: dict[str, str], body: Body) -> list[Mail] | None:
    boundary = params.get("boundary")
    if not boundary:
        return None
    parts, closed = split_multipart(mail.body, boundary)
    if not closed:
        body.open_multipart = True
    return [parse_message(part) for part in parts]


def _collect(mail: Mail, texts: list[str] | None, body: Body, depth: int) -> None:
    """Append the text of `mail` to `texts` (None: collect attachment names only, decode nothing)."""
    kind, params = content_type(mail)
    children = _children(mail, params, body) if kind.startswith("multipart/") and depth < MAX_DEPTH else None
    if children is None and kind.startswith("multipart/"):
        kind = "text/plain"  # no boundary (or nested too deep): show the raw text rather than nothing
    if children is not None:
        if texts is not None and kind == "multipart/alternative":
            _collect_alternative(children, texts, body, depth + 1)
        else:
            for child in children:
                _collect(child, texts, body, depth + 1)
        return
    if kind == "message/rfc822" and depth < MAX_DEPTH:  # a forwarded mail: its text counts too
        _collect(parse_message(decode_payload(mail)), texts, body, depth + 1)
        return
    name = _filename(mail, params)
    if name and kind not in _NOT_ATTACHMENTS:
        body.attachments.append(name)
    if texts is not None and kind in ("text/plain", "text/html") and not _is_attachment(mail):
        text = decode_bytes(decode_payload(mail), params.get("charset"))
        if kind == "text/html":
            text = html_to_text(text[:MAX_HTML_CHARS])
        texts.append(fix_mojibake(text))


def _collect_alternative(children: list[Mail], texts: list[str], body: Body, depth: int) -> None:
    """One version of the content: plain text if it says something, else HTML, else a nested multipart."""
    rank = {"text/plain": 0, "text/html": 1}

    def order(child: Mail) -> int:
        kind = content_type(child)[0]
        return rank.get(kind, 2 if kind.startswith("multipart/") else 3)

    chosen = False
    for child in sorted(children, key=order):
        if chosen:
            _collect(child, None, body, depth)
            continue
        found: list[str] = []
        _collect(child, found, body, depth)
        if any(t.strip() for t in found):
            texts.extend(found)
            chosen = True
