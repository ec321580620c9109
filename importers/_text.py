"""Text helpers shared by the importers: lenient charset decoding, RFC 2047 headers, HTML to text.

Real exports lie about their encodings (a mail declares us-ascii and carries Latin-1 bytes, a header
holds raw UTF-8, a body was UTF-8-encoded twice). These helpers never raise on bad bytes; they
fall back in a fixed order and keep every character they can:

    >>> decode_bytes(b"caf\\xe9", "utf-8")          # declared UTF-8, really Latin-1
    'café'
    >>> decode_words("=?ISO-8859-1?Q?Bj=F6rn?= Persson")
    'Björn Persson'
    >>> html_to_text("<p>Hello<br>world</p><script>x()</script>")
    'Hello\\nworld'
"""

from __future__ import annotations

import base64
import binascii
import codecs
import quopri
import re
from functools import lru_cache
from html import unescape

# Charset names seen in mail that Python's codecs do not know, or know by another name.
_CHARSET_ALIASES = {
    "ks_c_5601-1987": "cp949",
    "ks_c_5601": "cp949",
    "gb2312": "gb18030",  # GB18030 is a superset; mislabelled GBK text then still decodes
    "gbk": "gb18030",
    "iso-8859-8-i": "iso-8859-8",
    "iso-8859-1": "cp1252",  # as browsers do: "Latin-1" mail is nearly always Windows-1252
    "latin1": "cp1252",
    "us-ascii": "ascii",
    "ansi_x3.4-1968": "ascii",
    "x-mac-roman": "mac_roman",
    "macintosh": "mac_roman",
    "windows-874": "cp874",
    "x-sjis": "shift_jis",
}
# Labels that say "I do not know": decode by guessing instead.
_UNKNOWN_CHARSETS = {"", "unknown", "unknown-8bit", "x-unknown", "x-user-defined", "default", "none", "8bit", "charset"}


@lru_cache(maxsize=256)
def codec_for(charset: str | None) -> str | None:
    """The Python codec name for a declared charset, or None when unknown or unusable."""
    if not charset:
        return None
    name = charset.strip().strip("\"'").lower()
    if name in _UNKNOWN_CHARSETS:
        return None
    name = _CHARSET_ALIASES.get(name, name)
    try:
        return codecs.lookup(name).name
    except LookupError:
        return None


def decode_bytes(data: bytes, charset: str | None = None) -> str:
    """Decode `data` as `charset` if that works, else UTF-8, else Windows-1252, else Latin-1.

    Pure ASCII takes the fast path. Never raises.
    """
    if data.isascii():
        return data.decode("ascii")
    codec = codec_for(charset)
    if codec is not None and codec != "ascii":
        try:
            return data.decode(codec)
        except UnicodeDecodeError:
            pass
    for guess in ("utf-8", "cp1252"):
        if guess != codec:
            try:
                return data.decode(guess)
            except UnicodeDecodeError:
                pass
    return data.decode("latin-1")


def from_surrogates(text: str) -> str:
    """Recover raw 8-bit bytes that the stdlib parser kept as surrogate escapes, and decode them."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return decode_bytes(text.encode("utf-8", "surrogateescape"))


_ENCODED_WORD = re.compile(r"=\?([^?\s]+)\?([qQbB])\?([^?\s]*)\?=")


def _word_bytes(encoding: str, payload: str) -> bytes | None:
    try:
        if encoding in "qQ":
            return quopri.decodestring(payload.replace("_", " ").encode("ascii", "replace"), header=True)
        return base64.b64decode(payload + "=" * (-len(payload) % 4))
    except (binascii.Error, ValueError):
        return None


def decode_words(value: str) -> str:
    """Decode RFC 2047 encoded words (`=?charset?Q|B?...?=`); whitespace between two of them goes.

    Adjacent words in one charset are joined as bytes before decoding, so a UTF-8 character split
    across two words (common with long B-encoded subjects) survives.
    """
    if "=?" not in value:
        return value
    out: list[str] = []
    pending = bytearray()
    pending_charset: str | None = None
    pos = 0
    for match in _ENCODED_WORD.finditer(value):
        gap = value[pos : match.start()]
        pos = match.end()
        charset = match.group(1).split("*", 1)[0].lower()  # RFC 2231 language suffix: utf-8*en
        raw = _word_bytes(match.group(2), match.group(3))
        joined_to_previous = pending_charset is not None and not gap.strip()
        if raw is not None and joined_to_previous and charset == pending_charset:
            pending += raw
            continue
        if pending_charset is not None:
            out.append(decode_bytes(bytes(pending), pending_charset))
            pending, pending_charset = bytearray(), None
        if not joined_to_previous:
            out.append(gap)
        if raw is None:
            out.append(match.group(0))
        else:
            pending, pending_charset = bytearray(raw), charset
    if pending_charset is not None:
        out.append(decode_bytes(bytes(pending), pending_charset))
    out.append(value[pos:])
    return "".join(out)


_FOLD = re.compile(r"\r?\n[ \t]*")
_SPACES = re.compile(r"[ \t\r\n]+")


def header_text(raw: str | None) -> str:
    """A header value as a person reads it: 8-bit bytes decoded, encoded words decoded, unfolded."""
    if not raw:
        return ""
    text = from_surrogates(str(raw))
    if "\n" in text or "\r" in text:
        text = _FOLD.sub(" ", text)
    if "=?" in text:
        text = decode_words(text)
    if "  " in text or "\t" in text or "\n" in text or "\r" in text:
        text = _SPACES.sub(" ", text)
    return text.strip()


# Double-encoded UTF-8 ("EntÃ£o" for "Então"): UTF-8 bytes decoded as Latin-1/1252 and encoded again.
_MOJIBAKE_HINT = re.compile("[\u00c2-\u00f4][\u0080-\u00bf\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6\u02dc\u2013-\u203a\u20ac\u2122]")


def fix_mojibake(text: str) -> str:
    """Undo UTF-8 text that was decoded as Latin-1 or Windows-1252 (once or twice) when that is certain.

    Only when re-encoding gives valid UTF-8 for the whole text, so real Latin text is left alone:
    >>> fix_mojibake("EntÃ£o")
    'Então'
    """
    if text.isascii():  # constant time for str: most mail bodies
        return text
    for _ in range(2):
        if not _MOJIBAKE_HINT.search(text):
            return text
        fixed = None
        for codec in ("cp1252", "latin-1"):
            try:
                fixed = text.encode(codec).decode("utf-8")
                break
            except (UnicodeEncodeError, UnicodeDecodeError):
                continue
        if fixed is None:
            return text
        text = fixed
    return text


_BLOCK_TAGS = frozenset(
    "p div br tr li ul ol table h1 h2 h3 h4 h5 h6 blockquote pre hr section article header footer dd dt".split()
)
_SKIP_TAGS = frozenset(("script", "style", "head", "title", "template", "noscript"))
_BLANK_LINES = re.compile(r"\n[ \t\u00a0]*(?:\n[ \t\u00a0]*)+")
_INLINE_SPACES = re.compile(r"[ \t\r\f\v\u00a0]+")


# Markup, found in one pass: a comment start, a tag (name, attributes up to the next '<' or '>'), or a
# declaration / processing instruction. A '<' that starts none of these is text. The stdlib HTMLParser
# went back over the rest of the input at every construct left open ("<a <a <a ...", "<!--<!--..."),
# which cost the square of the length: 2.5 s for 20,000 characters, hours for the 2 MB a mail part may hold.
_MARKUP = re.compile(r"<!--|<(/?)([A-Za-z][A-Za-z0-9:-]*)([^<>]*)>|<[!?][^<>]*>")
_SKIP_END = {tag: re.compile(rf"</{tag}[^<>]*>", re.IGNORECASE) for tag in _SKIP_TAGS}


def html_to_text(html: str) -> str:
    """Readable text from HTML: block elements become line breaks, scripts and styles go, entities decoded.

    One linear pass of a regular expression over the markup (not BeautifulSoup/html2text, several times
    slower, nor the stdlib HTMLParser, quadratic on unclosed tags): a mail importer converts many thousands
    of HTML-only bodies, and a stranger writes them. The content of script, style, head, title, template
    and noscript is skipped up to its end tag (to the end of the text when there is none).
    """
    parts: list[str] = []
    pos = 0
    size = len(html)
    search = _MARKUP.search
    while pos < size:
        match = search(html, pos)
        if match is None:
            parts.append(html[pos:])
            break
        if match.start() > pos:
            parts.append(html[pos : match.start()])
        pos = match.end()
        name = match.group(2)
        if name is None:
            if match.group() == "<!--":
                close = html.find("-->", pos)
                pos = size if close < 0 else close + 3
            continue
        tag = name.lower()
        if match.group(1):  # an end tag
            if tag in _BLOCK_TAGS:
                parts.append("\n")
            continue
        if tag in _SKIP_TAGS and not match.group(3).rstrip().endswith("/"):
            close = _SKIP_END[tag].search(html, pos)
            pos = size if close is None else close.end()
        elif tag in _BLOCK_TAGS:
            parts.append("\n")
        elif tag in ("td", "th"):
            parts.append(" ")
    text = unescape("".join(parts))
    lines = (_INLINE_SPACES.sub(" ", line).strip() for line in text.split("\n"))
    return _BLANK_LINES.sub("\n\n", "\n".join(lines)).strip()


def squeeze(text: str) -> str:
    """Collapse runs of blank lines and trailing spaces (for bodies shown and indexed)."""
    # A list, not a generator: join() makes one from a generator anyway. (A regex for line-end spaces is
    # ten times slower: it tries every space between words.)
    text = "\n".join([line.rstrip() for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")])
    return _BLANK_LINES.sub("\n\n", text).strip()
