"""Calendar periods named relative to today, written out as the dates they mean.

A person says "last month", "so far this year" or "in March"; English fixes what they mean once "today" is
known: the previous calendar month, the current year up to today, the latest March that has begun. The question
is rewritten with those dates before it is decomposed ("How many runs last month?" asked on 6 April 2024 ->
"How many runs in March 2024?"), so the tree tests fixed dates that the person can read and check, and the
model needs to know only one way of writing a period. Rolling spans ("the last month", "the past 30 days",
"in the last 3 months") are not calendar periods and are left as they are.

    absolute_periods("how many times did i go for a run last month?", date(2024, 4, 6))
    -> "how many times did i go for a run in March 2024?"
    absolute_periods("hours spent working out in feb this year", date(2024, 4, 6))
    -> "hours spent working out in February 2024"
    absolute_periods("what did I buy in the last month?", date(2024, 4, 6))   # unchanged: a rolling span

A rolling span ends today and reaches back a number of days, weeks, months or years. The small model writes such
a test badly (`.year == 20` for "the last 6 months"), so `rolling_span` takes it out of the question: the model
decomposes the rest ("How many km did I run?"), and `within_span` puts a FILTER on the start date above each
RETRIEVE of that tree, so every event counted lies in the span.

    rolling_span("How many km did I run in the last 6 months?")
    -> RollingSpan(rest="How many km did I run?", words="in the last 6 months", unit="months", number=6)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Callable

from app.engine.syntax import Call, Qud, format_value
from app.engine.tree import Node
from app.lexicon import MONTH_NAMES, NAMED_DAYS, NUMBER_WORDS

# a month as people write it: full name or the usual abbreviation ("mar" and "may" only in full: words too)
_MONTH_WORDS = {name: n for n, name in enumerate(MONTH_NAMES, 1)}
_MONTH_WORDS.update({name[:3]: n for n, name in enumerate(MONTH_NAMES, 1) if name[:3] not in ("mar", "may")})
_MONTH_WORDS.update({"sept": 9})
_MONTH = r"(?P<month>" + "|".join(sorted(_MONTH_WORDS, key=len, reverse=True)) + r")\.?"
_YEAR_AFTER = r"(?!\s*(?:,\s*|of\s+|the\s+)?(?:\d|(?:19|20)\d\d|this\s+year|last\s+year|next\s+year))"
# words after which a year is written bare ("in 2024", "March 2024", "of 2024")
_BARE_YEAR_BEFORE = re.compile(r"\b(?:in|during|for|of|since|until|from|by|throughout)\s*$|" + _MONTH + r"\s*$", re.I)

_THIS_OR_LAST = re.compile(r"\b(?:" + _MONTH + r"\s+(?:of\s+)?)?(?P<so_far>so\s+far\s+)?(?P<which>this|last)\s+"
                           r"(?P<unit>year|month)\b", re.I)
_THIS_MONTH_NAME = re.compile(r"\bthis\s+" + _MONTH + r"(?=\W|$)", re.I)
# "last October": the latest October that has ended (asked in June 2024: October 2023; in November 2024: October 2024)
_LAST_MONTH_NAME = re.compile(r"\b(?P<prep>(?:in|during)\s+)?last\s+" + _MONTH + r"(?=\W|$)" + _YEAR_AFTER, re.I)
_MONTH_WITHOUT_YEAR = re.compile(r"\b(?P<prep>in|during|for|of|since|until|by|from|through)\s+" + _MONTH
                                 + r"(?=\W|$)" + _YEAR_AFTER, re.I)
# "the last year", "the past month", "over the last month": a rolling span, not a calendar period
_ROLLING_BEFORE = re.compile(r"\b(?:the|past|previous)\s*$", re.I)


def question_without(question: str, match: re.Match) -> str:
    """`question` without the words `match` found in it, spaced and punctuated as a question again."""
    rest = " ".join((question[:match.start()] + " " + question[match.end():]).split())
    return re.sub(r"\s+([?.!,])", r"\1", rest).strip(" ,")


def absolute_periods(question: str, today: date) -> str:
    """`question` with its calendar periods relative to `today` written as dates; unchanged when it has none."""
    text = _THIS_OR_LAST.sub(lambda m: _year_or_month(m, question, today), question)
    text = _THIS_MONTH_NAME.sub(lambda m: f"in {_month_of_year(m.group('month'), today.year)}", text)
    text = _LAST_MONTH_NAME.sub(lambda m: f"in {_last_month_named(m.group('month'), today)}", text)
    return _MONTH_WITHOUT_YEAR.sub(lambda m: f"{m.group('prep')} {_latest_month(m.group('month'), today)}", text)


def _year_or_month(match: re.Match, question: str, today: date) -> str:
    before = question[:match.start()]
    if _ROLLING_BEFORE.search(before) and not match.group("so_far"):
        return match.group(0)
    last = match.group("which").lower() == "last"
    if match.group("unit").lower() == "year":
        year = today.year - 1 if last else today.year
        if match.group("month"):  # "feb this year", "October of last year"
            return _month_of_year(match.group("month"), year)
        period = str(year)
    else:
        year, month = (today.year, today.month) if not last else (
            (today.year, today.month - 1) if today.month > 1 else (today.year - 1, 12))
        period = f"{MONTH_NAMES[month - 1].capitalize()} {year}"
    bare = _BARE_YEAR_BEFORE.search(before) is not None
    return period if bare else f"in {period}"


def _month_of_year(word: str, year: int) -> str:
    return f"{MONTH_NAMES[_MONTH_WORDS[word.lower().rstrip('.')] - 1].capitalize()} {year}"


def _last_month_named(word: str, today: date) -> str:
    """The latest month of that name that has ended before `today`'s month began."""
    month = _MONTH_WORDS[word.lower().rstrip(".")]
    return _month_of_year(word, today.year if month < today.month else today.year - 1)


def _latest_month(word: str, today: date) -> str:
    """The latest month of that name that has begun by `today`: "March" in April 2024 is March 2024, "July" in
    April 2024 is July 2023."""
    month = _MONTH_WORDS[word.lower().rstrip(".")]
    return _month_of_year(word, today.year if month <= today.month else today.year - 1)


# "in the last 6 months", "over the past three weeks", "during the past year", "the last 30 days", "past half year"
_SPAN_NUMBER = r"(?P<number>\d{1,3}|" + "|".join(NUMBER_WORDS[1:]) + r"|a|one|half\s+a)"
_ROLLING = re.compile(
    r"(?:,\s*)?\b(?:(?:in|over|during|within|for|from)\s+)?(?:(?P<the>the)\s+)?(?P<which>last|past|previous)\s+"
    r"(?:" + _SPAN_NUMBER + r"\s+)?(?P<half>half\s+(?:a\s+)?)?(?P<unit>days?|weeks?|months?|years?)\b", re.I)


@dataclass(frozen=True)
class RollingSpan:
    """A span of `number` `unit` ending today, as the question wrote it (`words`), and the question without it."""

    rest: str
    words: str
    unit: str
    number: int

    @property
    def test(self) -> str:
        """The FILTER test that keeps the events that started in the span."""
        start = f"date.today() - relativedelta({self.unit}={self.number})"
        return f'lambda attr: attr["start_date"] >= {start} and attr["start_date"] <= date.today()'


def rolling_span(question: str) -> RollingSpan | None:
    """The rolling span of `question` and the question without it; None when it names none (calendar periods such
    as "last month" are absolute_periods', which runs first), names two, or is nothing but the span."""
    found = list(_ROLLING.finditer(question))
    if len(found) != 1:
        return None
    match = found[0]
    counted = " ".join((match.group("number") or "").lower().split())
    if not (match.group("the") or counted or match.group("which").lower() != "last"):
        return None   # "last month" without "the": a calendar period
    unit = match.group("unit").lower().rstrip("s") + "s"
    half = bool(match.group("half")) or counted == "half a"
    if half:   # "the past half year", "the last half a year": six months
        if unit != "years" or counted not in ("", "half a"):
            return None
        unit, number = "months", 6
    elif counted.isdigit():
        number = int(counted)
    else:
        number = 1 if counted in ("", "a", "one") else NUMBER_WORDS.index(counted)
    if number < 1:
        return None
    rest = question_without(question, match)
    if len(rest.split()) < 2:
        return None
    return RollingSpan(rest, " ".join(match.group(0).strip(" ,").split()), unit, number)


# Seasons as the calendar months people mean by them (the meteorological seasons of the northern hemisphere);
# winter runs from December into the next year's February.
SEASON_MONTHS = {"spring": (3, 5), "summer": (6, 8), "autumn": (9, 11), "fall": (9, 11), "winter": (12, 2)}
_SEASON = r"(?P<season>spring|summer|autumn|fall|winter)"
# "last summer", "this spring", "during last winter". A season with its year ("during summer 2021") is left in the
# question: the question bank writes it so, and the fine-tuned model reads it.
_SEASONS = re.compile(r"(?:,\s*)?\b(?:(?:in|during|over|for|from)\s+)?(?P<which>this|last)\s+" + _SEASON + r"\b", re.I)


@dataclass(frozen=True)
class DaySpan:
    """Calendar days, `first` to `last` (a season of one year, a month range, one day), as the question wrote them
    (`said`), written out as `words` ("in summer 2023", "on 25 December 2023"), and the question without them."""

    rest: str
    said: str
    words: str
    first: date
    last: date

    @property
    def test(self) -> str:
        """The FILTER test that keeps the events that started in the season."""
        def written(day: date) -> str:
            return f"date({day.year}, {day.month}, {day.day})"
        first, last = written(self.first), written(self.last)
        return f'lambda attr: attr["start_date"] >= {first} and attr["start_date"] <= {last}'


def _season_days(season: str, year: int) -> tuple[date, date]:
    """The first and last day of `season` of `year` (a winter: the one that begins in December of `year`)."""
    first_month, last_month = SEASON_MONTHS[season]
    last_year = year + 1 if last_month < first_month else year
    after = date(last_year + 1, 1, 1) if last_month == 12 else date(last_year, last_month + 1, 1)
    return date(year, first_month, 1), date.fromordinal(after.toordinal() - 1)


def season_span(question: str, today: date) -> DaySpan | None:
    """The season `question` names relative to today ("last summer", "this spring") as its days, and the question
    without it; None when it names none, names two, or is nothing but the season.

    "This summer" is the summer of this year; "last summer" the latest that has ended by `today` (on 7 August 2024
    that is summer 2023, on 3 December 2024 summer 2024); "this winter" the one under way or next to come."""
    found = list(_SEASONS.finditer(question))
    if len(found) != 1:
        return None
    match = found[0]
    season = match.group("season").lower()
    year = today.year if SEASON_MONTHS[season][0] != 12 or today.month == 12 else today.year - 1
    if match.group("which").lower() == "last":
        while _season_days(season, year)[1] >= today:
            year -= 1
    elif season == "winter" and _season_days(season, year)[1] < today:
        year += 1    # "this winter" asked in the spring or summer: the next one
    first, last = _season_days(season, year)
    rest = question_without(question, match)
    if len(rest.split()) < 2:
        return None
    named = "autumn" if season == "fall" else season
    words = f"in {named} {year}" if season != "winter" else f"in the winter of {year}/{str(year + 1)[2:]}"
    return DaySpan(rest, " ".join(match.group(0).strip(" ,").split()), words, first, last)


# Days a question names by their date or their name, and ranges of months: the small model keeps their year and
# drops the rest ("on christmas day 2021" as the whole of 2021, "between october and december" as December).
_YEAR = r"(?:(?P<{0}>(?:19|20)\d\d)|(?P<{0}_rel>this|last)\s+year)"
_APOSTROPHE = "['\u2019]?"
_NAMED_DAY = "|".join(
    r"\s+".join(word.replace("'", _APOSTROPHE).replace(".", r"\.?") for word in name.split())
    for name in sorted(NAMED_DAYS, key=len, reverse=True)).replace("st\\s+", r"(?:st\.?|saint)\s+")
_DAY_NUMBER = r"(?P<day>[0-3]?\d)(?:st|nd|rd|th)?"
_MONTH2 = _MONTH.replace("?P<month>", "?P<month2>")
_ON_A_DAY = re.compile(
    r"(?:,\s*)?\b(?:on|for)\s+(?:the\s+)?(?:"
    r"(?P<named>" + _NAMED_DAY + r")|" + _MONTH + r"\s+" + _DAY_NUMBER + r"|"
    + _DAY_NUMBER.replace("?P<day>", "?P<day2>") + r"\s+(?:of\s+)?" + _MONTH2 + r"|"
    r"(?P<iso>(?:19|20)\d\d-[01]\d-[0-3]\d))(?!\w)(?:\s*,?\s*(?:(?:in|of)\s+)?" + _YEAR.format("year") + r")?"
    r"(?!\s*(?:\d|,\s*\d))", re.I)
_BETWEEN_MONTHS = re.compile(
    r"(?:,\s*)?\b(?:(?:in|during)\s+)?(?:(?P<between>between)|from)\s+" + _MONTH + r"(?:\s+(?P<year1>(?:19|20)\d\d))?"
    r"\s+(?(between)and|(?:to|through|thru|until|till|-|\u2013))\s+" + _MONTH2 + r"(?:\s*,?\s*(?:of\s+)?"
    + _YEAR.format("year") + r")?(?=\W|$)", re.I)
_MONTH_OR_NEXT = re.compile(
    r"(?:,\s*)?\b(?:in|during)\s+" + _MONTH + r"\s+or\s+" + _MONTH2 + r"(?:\s*,?\s*(?:of\s+)?" + _YEAR.format("year")
    + r")?(?=\W|$)", re.I)
# a comparison asks each side by itself, an average per period divides by the period: neither is one span
_COMPARED_OR_PER_PERIOD = re.compile(r"\b(?:more|less|fewer|than|compared?|versus|vs|average|avg|per|"
                                     r"daily|weekly|monthly|each|every)\b|\ba\s+(?:day|week|month)\b", re.I)


def calendar_days(question: str, today: date) -> DaySpan | None:
    """The days `question` names by their date ("on November 22", "on 25 December 2023", "on 2024-03-01"), by their
    name ("on christmas day last year", "on Valentine's Day") or as a range of months ("between October and December
    last year", "from jan to may this year", "in April or May"), and the question without them; None when it names
    none or two, compares or averages over them, or is nothing but them.

    A date without its year is the latest that has begun by `today` ("on November 22" asked on 6 April 2024: 22
    November 2023); "this year" and "last year" are today's year and the one before."""
    if _COMPARED_OR_PER_PERIOD.search(question):
        return None
    found = [*_ON_A_DAY.finditer(question), *_BETWEEN_MONTHS.finditer(question), *_MONTH_OR_NEXT.finditer(question)]
    if len(found) != 1:
        return None
    match = found[0]
    days = _days_of(match, today)
    if days is None:
        return None
    first, last = days
    rest = question_without(question, match)
    if len(rest.split()) < 2:
        return None
    return DaySpan(rest, " ".join(match.group(0).strip(" ,").split()), _days_written(first, last), first, last)


def _days_of(match: re.Match, today: date) -> tuple[date, date] | None:
    groups = match.groupdict()
    year = int(groups["year"]) if groups.get("year") else (
        {"this": today.year, "last": today.year - 1}[groups["year_rel"].lower()] if groups.get("year_rel") else None)
    try:
        if groups.get("iso"):
            day = date.fromisoformat(groups["iso"])
            return day, day
        if "day" in groups:   # one day: named, month and day, or day and month
            if groups["named"]:
                said = re.sub(r"[^a-z ]", "", " ".join(groups["named"].lower().split()))
                month, number = next(md for name, md in NAMED_DAYS.items()
                                     if re.sub(r"[^a-z ]", "", name) in (said, said.replace("saint", "st")))
            else:
                month = _MONTH_WORDS[(groups["month"] or groups["month2"]).lower().rstrip(".")]
                number = int(groups["day"] or groups["day2"])
            if year is None:
                year = today.year if (month, number) <= (today.month, today.day) else today.year - 1
            day = date(year, month, number)
            return day, day
        first_month = _MONTH_WORDS[groups["month"].lower().rstrip(".")]
        last_month = _MONTH_WORDS[groups["month2"].lower().rstrip(".")]
    except (ValueError, StopIteration):   # "on February 30"
        return None
    if "between" not in groups and last_month != first_month % 12 + 1:
        return None   # "in April or June" is two spans
    wraps = last_month < first_month   # "from November to February"
    if groups.get("year1"):
        first_year = int(groups["year1"])
        last_year = year if year is not None else first_year + wraps
    elif year is not None:
        first_year, last_year = year - wraps, year
    else:
        first_year = today.year if first_month <= today.month else today.year - 1
        last_year = first_year + wraps
    after = date(last_year + 1, 1, 1) if last_month == 12 else date(last_year, last_month + 1, 1)
    first, last = date(first_year, first_month, 1), date.fromordinal(after.toordinal() - 1)
    return (first, last) if first <= last else None


def _days_written(first: date, last: date) -> str:
    def day(d: date, year: bool = True) -> str:
        return f"{d.day} {MONTH_NAMES[d.month - 1].capitalize()}" + (f" {d.year}" if year else "")

    if first == last:
        return f"on {day(first)}"
    first_month, last_month = (MONTH_NAMES[d.month - 1].capitalize() for d in (first, last))
    if first.year == last.year:
        return f"from {first_month} to {last_month} {last.year}"
    return f"from {first_month} {first.year} to {last_month} {last.year}"


# Times of the day as people mean them, in the hours of the clock where the person was: the morning is before noon
# (a.m.), the afternoon from noon to 6 pm, the evening from 6 pm, the night from 10 pm to 5 am.
PARTS_OF_DAY = {"morning": (0, 12), "afternoon": (12, 18), "evening": (18, 24), "night": (22, 5)}
_PART_OF_DAY = re.compile(r"(?:,\s*)?\b(?:(?:in|during)\s+the\s+(?P<part>morning|afternoon|evening)s?|"
                          r"at\s+(?P<night>night)s?)\b", re.I)
_CLOCK = re.compile(r"(?:,\s*)?\b(?P<side>after|before)\s+(?P<hour>1[0-2]|0?[1-9])(?::00)?\s*"
                    r"(?P<half>a\.?m\.?|p\.?m\.?)(?=\W|$)|(?:,\s*)?\bbefore\s+(?P<noon>noon|midday)\b", re.I)


@dataclass(frozen=True)
class HourSpan:
    """Hours of each day, from `first` to before `end` (wrapping past midnight where `end` <= `first`), as the question
    wrote them (`words`: "in the evening", "after 6 pm"), and the question without them."""

    rest: str
    words: str
    first: int
    end: int

    @property
    def test(self) -> str:
        """The FILTER test that keeps the events that started in those hours."""
        hour = 'attr["start_datetime"].hour'
        if self.end <= self.first:
            return f"lambda attr: {hour} >= {self.first} or {hour} < {self.end}"
        tests = ([f"{hour} >= {self.first}"] if self.first > 0 else []) + ([f"{hour} < {self.end}"] if self.end < 24
                                                                           else [])
        return f"lambda attr: {' and '.join(tests)}"


def hours_of_day(question: str) -> HourSpan | None:
    """The hours of the day `question` names ("in the evening", "at night", "after 6 pm", "before noon") and the
    question without them; None when it names none or two, compares or averages over them, or is nothing but them.
    "How many evenings did I go out?" counts evenings: no hours are named."""
    if _COMPARED_OR_PER_PERIOD.search(question):
        return None
    found = [*_PART_OF_DAY.finditer(question), *_CLOCK.finditer(question)]
    if len(found) != 1:
        return None
    match = found[0]
    groups = match.groupdict()
    if groups.get("part") or groups.get("night"):
        first, end = PARTS_OF_DAY[(groups.get("part") or "night").lower()]
    elif groups.get("noon"):
        first, end = 0, 12
    else:
        hour = int(groups["hour"]) % 12 + (12 if groups["half"].lower().startswith("p") else 0)
        first, end = (hour, 24) if groups["side"].lower() == "after" else (0, hour)
    rest = question_without(question, match)
    if len(rest.split()) < 2:
        return None
    return HourSpan(rest, " ".join(match.group(0).strip(" ,").split()), first, end)


def within_span(tree: Node, span: RollingSpan | DaySpan | HourSpan, question: str) -> Node:
    """`tree` asked as `question`, with a FILTER that keeps the events of `span` above each of its RETRIEVEs."""
    return above_each_retrieve(tree, question, span.words, lambda retrieve: Node.from_step(
        f"{retrieve.question} {span.words}", f"FILTER(l={format_value(Qud(retrieve.question))}, filter={span.test})",
        (retrieve,)))


def above_each_retrieve(tree: Node, question: str, words: str, step_above: Callable[[Node], Node]) -> Node:
    """`tree` asked as `question`, with each RETRIEVE replaced by `step_above(it)`, a step over it that narrows its
    events to what `words` say. Each sub-question above such a step says `words` too, so that the answer restates
    them ("You went running this summer while you were in Krakow twice")."""

    def rebuilt(node: Node, root: bool = False) -> Node:
        if node.operator == "RETRIEVE":
            return step_above(node)
        children = tuple(rebuilt(child) for child in node.children)
        if all(new is old for new, old in zip(children, node.children)):
            return node   # nothing below was narrowed
        renamed = {Qud(old.question): Qud(new.question) for old, new in zip(node.children, children)}
        args = tuple((name, renamed.get(value, value)) for name, value in node.call.args)
        said = root or not words or words.lower() in node.question.lower()
        return Node(node.question if said else f"{node.question} {words}", Call(node.call.operator, args), children)

    result = rebuilt(tree, root=True)
    return Node(question, result.call, result.children)


def each_search_narrowed(tree: Node, narrowed: Callable[[Node], Node]) -> Node | None:
    """`tree` with each RETRIEVE replaced by `narrowed(it)` (the RETRIEVE itself where it keeps it); None when no
    RETRIEVE changed."""
    result = above_each_retrieve(tree, tree.question, "", narrowed)
    return None if result == tree else result


# A lambda expression of the text an event writes: its title and text, and those of a mail merged into it (a
# reminder joined with the appointment it names, app.retrieve.dedupe)
WRITTEN_TEXT = " + \" \" + ".join(f'str(attr.get("{key}", ""))' for key in ("title", "text", "mail.title", "mail.text"))


def kept_where(retrieve: Node, test: str, query: str | None = None, about: str | None = None) -> Node:
    """A FILTER asking `retrieve`'s question that keeps the events for which `test` (a lambda body over `attr`)
    holds, over a RETRIEVE of every event about it: `query` (else `retrieve`'s own), asked as `about`."""
    call = retrieve.call if query is None else Call("RETRIEVE", (("query", query),))
    found = Node(about or f"{retrieve.question}: every event about it", call, ())
    step = f"FILTER(l={format_value(Qud(found.question))}, filter=lambda attr: {test})"
    return Node.from_step(retrieve.question, step, (found,))
