"""Small helpers to write like people do: names, clock times, day references, template filling, ids.

    fill("Dinner with {who} at {time}", {"who": "Anna", "time": "7pm"})    # 'Dinner with Anna at 7pm'
    clock(dt, "en_us", rng)                                               # '7:30pm' or '7.30' or '19:30'
    day_ref(sent_at, event_start, rng)                                    # 'tomorrow', 'on Friday', 'next Tuesday'
"""

from __future__ import annotations

import re
import string
from datetime import date, datetime

from app.lexicon import MONTH_NAMES, WEEKDAY_TITLES
from app.persona.timeline import stable_hash

WEEKDAYS = WEEKDAY_TITLES
MONTHS = tuple(name.capitalize() for name in MONTH_NAMES)
TWELVE_HOUR = {"en_us", "en_gb"}


class _Slots(dict):
    def __missing__(self, key: str) -> str:
        return ""


def fill(template: str, slots: dict) -> str:
    """Format with missing slots left empty, then tidy the spaces and punctuation that leaves."""
    text = string.Formatter().vformat(template, (), _Slots(slots))
    while "  " in text:
        text = text.replace("  ", " ")
    for bad, good in ((" ,", ","), (" .", "."), (" !", "!"), (" ?", "?"), ("( )", ""), (" )", ")"),
                      ("on tomorrow", "tomorrow"), ("on tmrw", "tmrw"), ("on today", "today"), ("on tonight", "tonight"),
                      ("on this evening", "this evening"), ("on on ", "on "), ("on next ", "next "), ("on this ", "this "),
                      ("On tomorrow", "Tomorrow"), ("On tonight", "Tonight"), ("On today", "Today")):
        text = text.replace(bad, good)
    return text.strip()


def fitting(templates: list[str] | tuple[str, ...], slots: dict) -> list[str]:
    """The templates whose every {slot} has a value (all of them when none fits)."""
    fmt = string.Formatter()
    good = [t for t in templates if all(not name or slots.get(name) not in (None, "") for _, name, _, _ in fmt.parse(t))]
    return good or list(templates)


def sentences(text: str) -> str:
    """Capital letters where sentences start ("... a chat. this Sunday" -> "... a chat. This Sunday")."""
    return re.sub(r"(^|[.!?]\s+|\n)([a-z])", lambda m: m.group(1) + m.group(2).upper(), text)


def names_phrase(first_names: list[str]) -> str:
    if not first_names:
        return ""
    if len(first_names) == 1:
        return first_names[0]
    return ", ".join(first_names[:-1]) + " and " + first_names[-1]


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def clock(dt: datetime, culture: str, rng) -> str:
    h, m = dt.hour, dt.minute
    if culture in TWELVE_HOUR:
        h12 = h % 12 or 12
        ampm = "pm" if h >= 12 else "am"
        style = rng.random()
        if m == 0:
            return f"{h12}{ampm}" if style < 0.7 else f"{h12} o'clock"
        if m == 30 and culture == "en_gb" and style < 0.3:
            return f"half {h12}"
        return f"{h12}:{m:02d}{ampm}" if style < 0.8 else f"{h12}.{m:02d}"
    if rng.random() < 0.15 and m == 0:
        return f"{h} o'clock"
    return f"{h}:{m:02d}" if rng.random() < 0.8 else f"{h}.{m:02d}"


def long_date(d: date, culture: str) -> str:
    if culture == "en_us":
        return f"{MONTHS[d.month - 1]} {d.day}, {d.year}"
    return f"{d.day} {MONTHS[d.month - 1]} {d.year}"


def day_ref(sent: datetime, event: datetime, rng) -> str:
    """How a message sent at `sent` names the day of `event`."""
    days = (event.date() - sent.date()).days
    wd = WEEKDAYS[event.weekday()]
    if days <= 0:
        return rng.choice(("tonight", "today", "this evening")) if event.hour >= 17 else "today"
    if days == 1:
        return rng.choice(("tomorrow", "tomorrow", "tmrw"))
    if days <= 5:
        return rng.choice((f"on {wd}", wd, f"this {wd}"))
    return rng.choice((f"next {wd}", f"{wd} the {ordinal(event.day)}", f"on the {ordinal(event.day)}"))


def past_ref(sent: datetime, event: datetime, rng) -> str:
    days = (sent.date() - event.date()).days
    if days <= 0:
        return "today" if event.hour < 17 else "tonight"
    if days == 1:
        return rng.choice(("yesterday", "last night")) if event.hour >= 17 else "yesterday"
    return f"on {WEEKDAYS[event.weekday()]}"


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


# --- ids that look like the real thing --------------------------------------------------------

_B32 = "abcdefghijklmnopqrstuv0123456789"
_B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def _digits(n: int, alphabet: str, length: int) -> str:
    out = []
    for _ in range(length):
        n, r = divmod(n, len(alphabet))
        out.append(alphabet[r])
    return "".join(out)


def google_uid(*parts: object) -> str:
    n = stable_hash("uid", *parts) << 64 | stable_hash(*parts, "uid2")
    return _digits(n, _B32, 26) + "@google.com"


def gmail_message_id(*parts: object) -> str:
    n = 0
    for salt in ("mid", "a", "b", "c"):
        n = n << 64 | stable_hash(salt, *parts)
    return f"<CA{_digits(n, _B62, 38)}@mail.gmail.com>"


def company_message_id(domain: str, *parts: object) -> str:
    n = stable_hash("cmid", domain, *parts) << 64 | stable_hash(*parts, domain)
    return f"<{n:032x}.{stable_hash(*parts) % 100000}@{domain}>"


def thread_id(*parts: object) -> str:
    return str(1_600_000_000_000_000_000 + stable_hash("thread", *parts) % 300_000_000_000_000_000)


MEAL = frozenset({"dinner", "lunch", "brunch"})


def activity_group(activity: str) -> str:
    """The wording bank a social activity is written from: meals, outdoor, at home, or its own."""
    if activity in MEAL:
        return "meal"
    if activity in ("walk", "picnic"):
        return "outdoor"
    if activity in ("home_dinner", "game_night"):
        return "home"
    return activity
