"""Question frames: the shape of an answer that English gives before any operator is chosen.

A yes/no question about whether something happened ("Did I go hiking in 2023?", "have i ever been to
Lisbon?") is answered by whether it happened at least once. The model is asked the count ("How many times did
I go hiking in 2023?"), which it decomposes well, and the tree's root count becomes a test of at least one, so
the tree that runs is still the whole, traceable computation. Questions that compare ("more than", "A or B",
"most") are not this frame.

    count_question("Did I go hiking in 2023?")     # "How many times did I go hiking in 2023?"
    count_question("has Anna emailed me this year?")   # "How many times has Anna emailed me this year?"
    count_question("any amazon orders in May?")    # "How many amazon orders in May?"
    count_question("How often did I hike?")        # None
    as_yes_no(count_tree, "Did I go hiking in 2023?")   # APPLY(l=QUD(...), fct=lambda l: len(l) > 0), or None

An average per day, week or month over a dated period ("On average, how many runs per week did I do in 2023?")
is the total over the period divided by the days, weeks or months in it, not the mean of the events: the model
is asked the total ("how many runs did I do in 2023?") and the frame divides by the period's length (52.14
weeks), weeks without a run counted as zero. The period must be written as dates (app.qud.periods does that for
"last month" and the like); without one, the question is left to the model.

    per_period("avg number of bike rides per month in 2022", date(2024, 4, 6))
    -> PerPeriod(total_question="number of bike rides in 2022", unit="month", units=12.0)

A two-way comparison ("Did I run more in 2022 than in 2023?", "Who did I see more often, Anna or Ben?") is two
measures of one kind: the model is asked each ("How many times did I run in 2022?"), and the root compares the
two values, answering yes or no, or the alternative that is ahead.

    two_way("Who did I see more often, Anna or Ben?")
    -> TwoWay(questions=("How many times did I see Anna?", "How many times did I see Ben?"), choices=("Anna", "Ben"))
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date
from typing import Iterable, Sequence

from app.engine.syntax import Call, FuncRef, Lambda, Qud, format_value
from app.engine.tree import Node
from app.lexicon import FUNCTION_WORDS, MONTH_NAMES, MONTH_PATTERN, NUMBER_WORDS, PERSON_NOUNS, WEEKDAY_NAMES
from app.qud.grammar import planning_words
from app.qud.periods import each_search_narrowed, kept_where
from app.qud.validate import TEXT_WORD, asked_specifics
from app.sources import KIND_NOUNS, NAMING_WORDS, SOURCES

# an auxiliary verb, then who or what: "did I", "have we", "has Johanna", "was Aoife", "does my watch"
_YES_NO = re.compile(r"^\s*(?:did|do|does|have|has|had|was|were|am)\s+(?!(?:you|it|there)\b)\w(?P<rest>.*)$", re.I)
# whether there were any: "any amazon orders in May?", "were there any runs in 2023?"
_ANY = re.compile(r"^\s*(?:(?:are|were|is|was)\s+there\s+)?any\s+(?P<rest>\w.*)$", re.I)
# comparisons and choices are questions of another shape
_COMPARING = re.compile(r"\b(?:more|less|fewer|than|or|most|least|longer|shorter|either|neither|whether)\b", re.I)
AT_LEAST_ONCE = Lambda("lambda l: len(l) > 0")


def count_question(question: str) -> str | None:
    """The count a yes/no question about whether something happened asks for, or None for other questions."""
    if _COMPARING.search(question) or _HOW_MANY.search(question):   # "did ... since May? how many": a count
        return None
    any_of = _ANY.match(question)
    if any_of is not None:
        return "How many " + any_of.group("rest").strip()
    match = _YES_NO.match(question)
    if match is None or not match.group("rest").strip(" ?.!"):
        return None
    body = question.strip()
    return "How many times " + body[0].lower() + body[1:]


def as_yes_no(count_tree: Node, question: str) -> Node | None:
    """The count tree with its root count turned into a test of at least one, asked as `question`; None when the
    root is no count of items (a sum, an arg-max), which this frame does not turn into a yes or a no."""
    call = count_tree.call
    if call.operator != "APPLY" or call.get("fct") != FuncRef("len"):
        return None
    tested = Call("APPLY", tuple((name, AT_LEAST_ONCE if name == "fct" else value) for name, value in call.args))
    return Node(question, tested, count_tree.children)


# --- which month, which weekday -------------------------------------------------------------------------------
#
# "Which month in 2023 did I spend the most on Amazon?", "which day of the week do I usually go for a run?": the
# month or weekday whose events the question's count or sum is greatest over. The model is asked the total ("How
# much did I spend on Amazon in 2023?"), which it decomposes as any count or sum, and its events are grouped by the
# month or weekday they started in and measured the same way. Asked as they are, such questions came out as a
# JOIN with meals, or a date.

_WHEN_MOST = re.compile(
    r"^(?:(?:in|on)\s+)?(?:which|what)\s+(?P<unit>month|day\s+of\s+the\s+week|days\s+of\s+the\s+week|weekdays?)"
    r"(?P<period>\s+(?:of|in)\s+(?:19|20)\d\d)?\s+(?P<aux>did|do|have)\s+(?:i|we)\s+(?:usually\s+|normally\s+|"
    r"typically\s+|mostly\s+)?(?P<vp>.+?)(?:\s+(?:the\s+)?most(?:\s+(?:often|times|frequently))?)?"
    r"(?P<rest>(?:\s+(?:on|at|in|from|with|during|for)\b.*)?)$", re.I)
_SPEND = re.compile(r"^(?:spend|spent|pay|paid)\b", re.I)
_MOST = re.compile(r"\s+(?:the\s+)?most(?:\s+(?:often|times|frequently))?\b", re.I)
_MOST_OF = re.compile(r"\s+(?:the\s+)?most\s+(?P<noun>km|kms|kilometres|kilometers|miles|distance|hours|minutes)\b",
                      re.I)
# a measure other than how often ("the furthest", "the longest") is no count this frame makes
_OTHER_MEASURE = re.compile(r"\b(?:furthest|farthest|longest|shortest|least|fewest|highest|lowest|biggest|"
                            r"more|less|than|or)\b", re.I)


@dataclass(frozen=True)
class WhenMost:
    """A question for the month or weekday of the most (or the least): the total the model is asked, and what
    groups it."""

    total_question: str
    unit: str           # "month" or "weekday"
    least: bool = False


_LEAST = re.compile(r"\s+(?:the\s+)?(?:least|fewest)\b", re.I)


def when_most(question: str) -> WhenMost | None:
    """The total and the unit that a "which month / weekday ... most" (or "... least") question groups by; None for
    other questions."""
    text = " ".join(question.split()).strip(" ?.!")
    match = _WHEN_MOST.match(text)
    if match is None:
        return None
    said = match.group("vp") + match.group("rest")
    least = _LEAST.search(said) is not None   # "which month did I spend the least": the smallest total
    said = _LEAST.sub("", said, count=1)
    if _OTHER_MEASURE.search(said):
        return None
    unit = "month" if match.group("unit").lower() == "month" else "weekday"
    if unit == "month" and not least and not re.search(r"\bmost\b", text, re.I):
        return None   # "which month did I move to Austin": a date, not the month of the most
    said += (match.group("period") or "").replace(" of ", " in ")
    measured = _MOST_OF.search(said)   # "run the most km" -> "How many km did I run"
    if measured is not None:
        noun, done = measured.group("noun"), _MOST_OF.sub("", said, count=1)
        total = f"How {'much' if noun.lower() == 'distance' else 'many'} {noun} did I {done}?"
    else:
        said = _MOST.sub("", said, count=1)   # "watch the most Netflix" -> "watch Netflix"
        total = f"How much did I {said}?" if _SPEND.match(said) else f"How many times did I {said}?"
    return WhenMost(" ".join(total.split()), unit, least)


def as_when_most(total_tree: Node, question: str, asked: WhenMost) -> Node | None:
    """The events of `total_tree` grouped by month or weekday and measured as its root measures them (a count,
    or a sum of one attribute), the greatest group answering `question`; None for a root of another kind."""
    call = total_tree.call
    if call.operator == "APPLY" and call.get("fct") == FuncRef("len") and len(total_tree.children) == 1:
        measure = "len"
    elif call.operator == "SUM" and isinstance(call.get("attr_name"), str) and len(total_tree.children) == 1:
        measure = call.get("attr_name")
    else:
        return None
    events = total_tree.children[0]
    if events.operator not in EVENT_STEPS:
        return None
    q = lambda text: format_value(Qud(text))  # noqa: E731
    scope, unit = events.question, asked.unit
    pattern = "%Y-%m" if unit == "month" else "%A"
    node = Node.from_step(f"{scope} with {unit}", f'MAP(l={q(scope)}, fct=lambda attr: '
                          f'attr["start_datetime"].strftime("{pattern}"), res_name="{unit}")', (events,))
    node = Node.from_step(f"{scope} grouped by {unit}", f'GROUP_BY(l={q(node.question)}, attr_names=["{unit}"])',
                          (node,))
    if measure == "len":
        fct, name = "len", "count"
    else:
        key = format_value(measure)
        fct, name = f"lambda group: sum(i[{key}] for i in group if i[{key}] is not None)", measure
    node = Node.from_step(f"{name} per {unit} {scope}", f'MAP(l={q(node.question)}, fct={fct}, res_name="{name}")',
                          (node,))
    operator = "ARGMIN" if asked.least else "ARGMAX"
    return Node.from_step(question, f'{operator}(l={q(node.question)}, arg_attr_name="{name}", '
                                    f'val_attr_name="{unit}")', (node,))


# --- which ones: a list ------------------------------------------------------------------------------------
#
# "Which podcasts do I listen to?" asks for every podcast, not the one heard most nor how many there were. The model
# is asked which one the most ("Which podcasts do I listen to most?"), which groups the events by the thing asked
# for; the list is the groups' names.

# "which podcasts do I listen to?", "what movies did I watch on Netflix in 2023"
_WHICH_ONES = re.compile(r"^\s*(?P<wh>which|what)\s+(?P<noun>[^\W\d_][\w'-]+?[^s's])s\s+"
                         r"(?P<rest>(?:did|do|does|have|has|had)\s+(?:i|we)\b.*)$", re.I)
# "list the films I've watched on Netflix", "name all the concerts I went to"
_LIST_THE = re.compile(r"^\s*(?:list|name)\s+(?:(?:all|the|my)\s+){0,3}(?P<noun>[^\W\d_][\w'-]+?[^s's])s\s+"
                       r"(?:that\s+)?(?P<rest>(?:i|we)(?:'ve|'d)?\b.*)$", re.I)
# a question that ranks, counts or picks one is no list
_ONE_OR_HOW_MANY = re.compile(r"\b(?:most|least|top|favou?rite|usually|often|first|last|latest|earliest|longest|"
                              r"shortest|biggest|highest|lowest|best|worst|more|fewer|less|many|much|or)\b", re.I)


def most_question(question: str) -> str | None:
    """The question of which one the most, for a question that asks which ones; None for other questions.

    most_question("which podcasts do I listen to?") -> "which podcasts do I listen to most?"
    """
    if _ONE_OR_HOW_MANY.search(question):
        return None
    body = question.strip().rstrip("?.! ")
    if _WHICH_ONES.match(question) is not None:
        return f"{body} most?"
    listed = _LIST_THE.match(question)
    if listed is not None:   # "the films I've watched" -> "Which films have I watched ... the most?"
        rest = re.sub(r"^(i|we)(?:'ve|\s+have)\b", r"have \1", listed.group("rest").strip().rstrip("?.! "), flags=re.I)
        return f"Which {listed.group('noun')}s {rest} the most?"
    return None


def as_list(most_tree: Node, question: str) -> Node | None:
    """The names of the groups that `most_tree` ranks, asked as `question`; None when it groups by no one
    attribute."""
    grouped = next((node for node in most_tree.walk() if node.operator == "GROUP_BY"), None)
    names = grouped.call.get("attr_names") if grouped is not None else None
    if not isinstance(names, (list, tuple)) or len(names) != 1 or not isinstance(names[0], str):
        return None
    key = format_value(names[0])
    listed = Lambda(f"lambda l: sorted({{g[{key}] for g in l if g[{key}] is not None}})")
    return Node(question, Call("APPLY", (("l", Qud(grouped.question)), ("fct", listed))), (grouped,))


# "on average", "average", "avg", "mean"; and a unit: "per week", "a day", "each month", "monthly"
_AVERAGE = re.compile(r"(?:,\s*)?\b(?:on\s+(?:an\s+)?average|average|avg|mean)\b,?\s*", re.I)
_PER_UNIT = re.compile(r"\s*\b(?P<per>per|a|an|each|every)\s+(?P<unit>day|week|month|year)\b", re.I)
# "average monthly spend" is a rate; "weekly team syncs" and "The Daily" are not: the adjective counts only after
# the word average
_UNIT_ADJECTIVE = re.compile(r"\b(?:average|avg|mean)\s+(?P<adjective>daily|weekly|monthly|yearly|annual)\s+", re.I)
_ADJECTIVE_UNITS = {"daily": "day", "weekly": "week", "monthly": "month", "yearly": "year", "annual": "year"}
_DATED_MONTH = re.compile(r"\b(?:in|during)\s+(?P<month>" + "|".join(MONTH_NAMES) + r")\s+(?:of\s+)?(?P<year>(?:19|20)\d\d)\b",
                          re.I)
_DATED_YEAR = re.compile(r"\b(?:in|during)\s+(?:the\s+year\s+)?(?P<year>(?:19|20)\d\d)\b", re.I)
_HOW_MANY = re.compile(r"\bhow\s+(?:many|much)\b", re.I)
_OTHER_SPAN = re.compile(r"\b(?:first|last|past|since|between|until|from)\b", re.I)


@dataclass(frozen=True)
class PerPeriod:
    """An average per `unit` over a dated period: the total the model is asked, and the period's length."""

    total_question: str
    unit: str
    units: float


def per_period(question: str, today: date) -> PerPeriod | None:
    """The total and the number of days, weeks or months that an average-per-period question divides it by;
    None for other questions and for periods this frame cannot measure (no year, "the first five months of")."""
    per = _PER_UNIT.search(question)
    adjective = _UNIT_ADJECTIVE.search(question)
    averaged = _AVERAGE.search(question)
    rate = averaged or _HOW_MANY.search(question)  # "how many runs a week": a rate without the word average
    if per is None and adjective is None or per is not None and per.group("per").lower() != "per" and not rate:
        return None
    unit = per.group("unit").lower() if per is not None else _ADJECTIVE_UNITS[adjective.group("adjective").lower()]
    if _OTHER_SPAN.search(question):
        return None
    month = _DATED_MONTH.search(question)
    year = _DATED_YEAR.search(question)
    if month is not None:
        y, m = int(month.group("year")), MONTH_NAMES.index(month.group("month").lower()) + 1
        first, last = date(y, m, 1), date(y, m, calendar.monthrange(y, m)[1])
        whole_months = 1.0
    elif year is not None:
        y = int(year.group("year"))
        first, last = date(y, 1, 1), date(y, 12, 31)
        whole_months = 12.0
    else:
        return None
    if first > today:
        return None
    if last >= today:  # the period so far: up to and including today
        last, whole_months = today, None
    days = (last - first).days + 1
    units = {"day": float(days), "week": days / 7, "year": days / (366 if calendar.isleap(first.year) else 365),
             "month": whole_months if whole_months is not None else days / (365.25 / 12)}[unit]
    total = question
    for pattern in (_PER_UNIT, _UNIT_ADJECTIVE, _AVERAGE):
        total = pattern.sub(" ", total, count=1)
    total = " ".join(total.split()).strip(" ,")
    if not total:
        return None
    return PerPeriod(total[0].upper() + total[1:] if question[:1].isupper() else total, unit, round(units, 4))


def as_per_period(total_tree: Node, question: str, per: PerPeriod) -> Node:
    """The total's tree divided by the period's length, asked as `question`: a count's root divides its count,
    any other root (a sum) becomes the input of one more step that divides its value."""
    divide = f"/ {per.units:g}"
    call = total_tree.call
    if call.operator == "APPLY" and call.get("fct") == FuncRef("len"):
        rate = Lambda(f"lambda l: len(l) {divide}")
        divided = Call("APPLY", tuple((name, rate if name == "fct" else value) for name, value in call.args))
        return Node(question, divided, total_tree.children)
    step = Call("APPLY", (("l", Qud(total_tree.question)), ("fct", Lambda(f"lambda l: l {divide}"))))
    return Node(question, step, (total_tree,))


# --- two-way comparisons --------------------------------------------------------------------------------------
#
# "Did I run more in 2022 than in 2023?", "Who did I see more often, Anna or Ben?", "did i listen to Air or Beck
# more?": two alternatives measured the same way. Each alternative becomes the question of its measure ("How many
# times did I run in 2022?"), which the model decomposes as any count or sum, and the root compares the two
# values: yes or no for "more ... than", the alternative that is ahead for "A or B".

_AUX = r"(?:did|do|does|have|has|had|was|were|am)"
_COMPARATIVE = re.compile(r"\s*\b(?P<word>more|less|fewer|most|least)\b(?:\s+(?:often|frequently|times))?", re.I)
_THAN = re.compile(r"\bthan\b\s*(?:(?:i|we)\s+" + _AUX + r"\b\s*)?", re.I)
_PREPOSITIONS = frozenset(("in", "on", "at", "with", "to", "for", "from", "during", "by", "over", "about", "of", "into",
                           "onto"))
_WEEKDAYS = "|".join(WEEKDAY_NAMES)
_TIME_WORDS = rf"(?:(?:19|20)\d\d|{MONTH_PATTERN}|(?:{_WEEKDAYS})s?|weekends?|mornings?|evenings?|nights?)"
# a period at the end of a clause, shared by both alternatives: "in 2023", "on weekends", "last year"
_ADJUNCT = re.compile(
    rf"\s+(?P<adjunct>(?:(?:in|on|during|over|since|at)\s+(?:the\s+)?{_TIME_WORDS}|(?:last|this)\s+\w+)\b.*)$", re.I)
# a period put before the clause it is said of: "In 2022 did I ...", "this year, have I ..."
_FRONTED = re.compile(
    rf"^(?P<adjunct>(?:(?:in|on|during|over|since)\s+(?:the\s+)?{_TIME_WORDS}(?:\s+(?:19|20)\d\d)?"
    rf"|(?:so\s+far\s+)?(?:last|this)\s+[a-z]+))\s*,?\s+(?P<clause>{_AUX}\s+(?:i|we)\b.*)$", re.I)
_TIME = re.compile(rf"(?:(?:{MONTH_PATTERN})(?:\s+(?:19|20)\d\d)?|(?:19|20)\d\d|(?:{_WEEKDAYS})s?)", re.I)
_WH = re.compile(rf"^(?:(?P<prep>in|on|at|during|with|to|for|from)\s+)?(?:which|what|who|whom)(?:\s+[a-z]+)?\s+"
                 rf"(?P<aux>{_AUX})\s+(?P<who>i|we)\s+(?P<vp>.+)$", re.I)
_YES_NO_HEAD = re.compile(rf"^(?P<aux>{_AUX})\s+(?P<who>i|we)\s+", re.I)
_TRAILING_CHOICE = re.compile(r"^(?P<body>.+?)\s*(?:[,:;]|\s-\s)\s*(?P<a>[^,:;]+?)\s+or\s+(?P<b>[^,:;]+)$", re.I)
_LEADING_CHOICE = re.compile(
    r"^(?P<a>[^,:;]+?)\s+(?:or|vs\.?|versus)\s+(?P<b>[^,:;]+?)\s*(?:[,:;?]|\s-\s)\s*(?P<body>.+)$", re.I)
# "october or november 2024": a month and the year said of both alternatives
_MONTH_ALONE = rf"(?:(?:in|during)\s+)?(?:{MONTH_PATTERN})"
_SHARED_YEAR = re.compile(rf"^(?P<month>{_MONTH_ALONE})\s+(?P<year>(?:19|20)\d\d)$", re.I)
# verbs that say only that the activity after them was done: "doing yoga or playing football"
_LIGHT_VERBS = frozenset(("doing", "playing", "going"))
# a name said with its kind: "the Tim Ferriss podcast"
_KIND_SAID = re.compile(r"the\s+(?P<name>.+?)\s+(?:podcast|show|series|film|movie|album|band)", re.I)
# nouns measured by amount, not by number: "more money", "more time"
_AMOUNT_NOUNS = frozenset(("money", "time", "music", "distance", "cash"))
# units counted as the plural nouns are, though they do not end in s: "more km"
_UNIT_NOUNS = frozenset(("km", "mi", "kcal", "min", "mins", "hrs"))
_MEASURE_WORDS = _AMOUNT_NOUNS | _UNIT_NOUNS
_SPENDING = re.compile(r"^\S+\s+(?:i|we)\s+(?:spend|spent|pay|paid)\b", re.I)
# verbs of a mail someone sent the owner: "who emails me", "who has written to me"
_MAIL_VERBS = r"(?:sent|sends|send|emailed|emails|mailed|mails|wrote|writes|written|messaged|messages|texted|texts)"
# "who has emailed me more", "who sent me more mails": the person is the sender, not the owner of the data
_WHO_WROTE_MORE = re.compile(
    rf"^who\s+(?:has\s+|have\s+)?{_MAIL_VERBS}\s+(?:to\s+)?me\s+(?:more|less|fewer)"
    r"(?:\s+(?:often|frequently|times))?"
    r"(?:\s+(?P<noun>(?!(?:this|was|has|is|as|us)\b)[a-z]+s))?(?P<rest>(?:\s.*)?)$", re.I)


@dataclass(frozen=True)
class TwoWay:
    """A comparison of two alternatives: the question measuring each, and what the answer says. `choices` are the
    alternatives as written, for "A or B?" (the answer names the one ahead); None for "more ... than" (yes or no:
    is the first ahead). With `fewer` ("less", "fewer", "least") the smaller value is ahead."""

    questions: tuple[str, str]
    choices: tuple[str, str] | None
    fewer: bool


def two_way(question: str) -> TwoWay | None:
    """The two measures of a two-way comparison, or None for other questions and for comparisons this frame cannot
    take apart (a subject asked for, other than the sender of mails: "who came to more parties, A or B?"; more
    than two alternatives)."""
    text = re.sub(r"\s*\([^()]*\)$", "", " ".join(question.split()).strip(" ?.!")).strip(" ?.!")   # "(distance)"
    fronted = _FRONTED.match(text)
    if fronted is not None:   # said of the whole clause, as at its end: "did I ... more A or B in 2022"
        text = f"{fronted.group('clause')} {fronted.group('adjunct')}"
    comparative = _COMPARATIVE.search(text)
    if comparative is None or len(re.findall(r"\bor\b", text, re.I)) > 1:
        return None
    fewer = comparative.group("word").lower() in ("less", "fewer", "least")
    found = _than_form(text, comparative) if re.search(r"\bthan\b", text, re.I) else _or_form(text)
    if found is None:
        return None
    (a, b), choices = found
    if a.lower() == b.lower():
        return None
    return TwoWay((a, b), choices, fewer)


def _than_form(text: str, comparative: re.Match) -> tuple[tuple[str, str], None] | None:
    """"Did I <do> more <...> than <b>?": the clause with the comparative taken out, and the same clause with the
    part that <b> is parallel to replaced by it."""
    than = _THAN.search(text, comparative.end())
    if _YES_NO_HEAD.match(text) is None or than is None or re.search(r"\bor\b", text, re.I):
        return None
    head, mid, b = text[:comparative.start()], text[comparative.end():than.start()].strip(), text[than.end():].strip()
    b, adjunct = _split_adjunct(b)
    period = not b
    if period:
        b, adjunct = adjunct, ""   # "than in 2020": the alternative is the period itself
    if _kind(b) == "bare" and re.match(rf"(?:\d|(?:{'|'.join(NUMBER_WORDS)})\b)", b, re.I):
        return None   # "more than 10 films": a threshold, not a second alternative
    measured = _kind(b) != "bare" or period or _split_adjunct(mid)[0].split()[1:]
    noun, rest = _measure_noun(mid) if measured else (None, mid)
    core, own_period = _split_adjunct(rest)
    if period and own_period:   # "more netflix this year than last year": the period stands for the period
        replaced: tuple[str, str] | None = (head, f"{core} {b}")
    else:
        replaced = _replace_parallel(head, rest, b)
    if replaced is None:
        return None
    a_clause, b_clause = (" ".join(f"{h} {r} {adjunct}".split()) for h, r in ((head, rest), replaced))
    return (_measure(a_clause, noun), _measure(b_clause, noun)), None


def _or_form(text: str) -> tuple[tuple[str, str], tuple[str, str]] | None:
    """"Who did I see more, A or B?", "A or B: which did I play more?", "did I run more in 2022 or in 2023?"."""
    choice = _TRAILING_CHOICE.match(text) or _LEADING_CHOICE.match(text)
    if choice is not None and _COMPARATIVE.search(choice.group("body")):
        b, adjunct = _split_adjunct(choice.group("b").strip())
        a = choice.group("a").strip()
        sender = _WHO_WROTE_MORE.match(" ".join(f"{choice.group('body')} {adjunct}".split()))
        if sender is not None:   # "who emails me more, A or B?": the mails each of them sent
            noun, rest = sender.group("noun") or "emails", sender.group("rest")
            return tuple(f"How many {noun} did {x} send me{rest}?" for x in (a, b)), (_label(a), _label(b))
        wh = _WH.match(" ".join(f"{choice.group('body')} {adjunct}".split()))
        if wh is None:
            return None
        comparative = _COMPARATIVE.search(wh.group("vp"))
        head, after = wh.group("vp")[:comparative.start()], wh.group("vp")[comparative.end():].strip()
        noun, after = _measure_noun(after) if after else (None, after)   # "put more hours into": hours
        vp, vp_adjunct = _split_adjunct(f"{head} {after}".strip())
        prep = f"{wh.group('prep').lower()} " if wh.group("prep") else ""
        clauses = [f"{wh.group('aux')} I {vp} {prep}{x} {vp_adjunct}" for x in (a, b)]
        return tuple(_measure(" ".join(c.split()), noun) for c in clauses), (_label(a), _label(b))
    if _YES_NO_HEAD.match(text) is None or not re.search(r"\bor\b", text, re.I) or "," in text:
        return None
    left, right = re.split(r"\s+or\s+", text, maxsplit=1, flags=re.I)
    right = re.sub(r"^(?:more|less|fewer)\s+", "", right, flags=re.I)   # "more yoga or more running"
    comparative = _COMPARATIVE.search(right)
    # what follows the comparative of the second alternative is said of both: "cycle more km in 2023"
    shared_noun, shared = None, right[comparative.end():] if comparative is not None else ""
    if shared.strip():
        shared_noun, shared = _measure_noun(shared.strip())
    b, adjunct = _split_adjunct((right[:comparative.start()] if comparative is not None else right).strip())
    if not b:
        b, adjunct = adjunct, ""
    left, noun, after = _measured_left(left, shared_noun)
    plain = after and not any(word.lower() in _PREPOSITIONS for word in after.split())
    if noun is None and plain and _kind(after) == _kind(b) == "bare":   # "more red hot chili peppers or fleetwood mac"
        span = (len(left) - len(after), len(left))
    else:
        span = _parallel_span(left, b) if b else None
    if span is None:
        return None
    a = left[span[0]:span[1]]
    year = _SHARED_YEAR.match(b) if re.fullmatch(_MONTH_ALONE, a, re.I) else None
    if year is not None:   # "in october or november 2024": the year is said of both months
        b, adjunct = year.group("month"), f"{year.group('year')} {adjunct}"
    tail = f"{left[span[1]:]} {shared} {adjunct}"
    clauses = [" ".join(f"{left[:span[0]]} {x} {tail}".split()) for x in (a, b)]
    noun = noun or shared_noun
    doings = _YES_NO_HEAD.fullmatch(left[:span[0]].strip() + " ") is not None   # "did i run or row more km"
    labels = tuple(_label(_gerund(x) if doings and len(x.split()) == 1 else x) for x in (a, b))
    dated = [_SHARED_YEAR.match(label) for label in labels]
    if all(dated) and dated[0].group("year") == dated[1].group("year"):   # "April 2024 or May 2024"
        labels = tuple(_label(match.group("month")) for match in dated)
    return (_measure(clauses[0], noun), _measure(clauses[1], noun)), labels


def _measured_left(left: str, shared_noun: str | None) -> tuple[str, str | None, str]:
    """The first alternative's clause without its comparative, the noun of its measure, and what followed them:
    "did i run more km" -> ("did i run", "km", ""); "did i watch more films in 2021" -> ("did i watch in 2021",
    "films", "in 2021"); "did i listen to more red hot chili peppers" -> (the clause, None, "red hot chili
    peppers"). A noun right before "or" is the alternative itself ("more podcasts or music"), unless the second
    alternative measures by it too ("run more km or cycle more km")."""
    comparative = _COMPARATIVE.search(left)
    if comparative is None:
        return " ".join(left.split()), None, ""
    head, after = left[:comparative.start()], left[comparative.end():].strip()
    noun, rest = _measure_noun(after)
    if noun is not None and not rest and noun != shared_noun:
        noun, rest = None, after
    return " ".join(f"{head} {rest}".split()), noun, rest


def _split_adjunct(text: str) -> tuple[str, str]:
    """`text` without a period at its end ("Anna in 2023" -> "Anna", "in 2023"); the whole text when it is one."""
    match = _ADJUNCT.search(" " + text)
    if match is None:
        return text, ""
    return (" " + text)[:match.start()].strip(), match.group("adjunct").strip()


def _kind(alternative: str) -> str:
    """"preposition" ("in 2020", "to Beck"), "time" ("2020", "March"), or "bare" (a name, a noun phrase)."""
    words = alternative.split()
    if words and words[0].lower() in _PREPOSITIONS:
        return "preposition"
    return "time" if _TIME.fullmatch(alternative) else "bare"


def _measure_noun(mid: str) -> tuple[str | None, str]:
    """The noun after the comparative when it names the measure ("more films in 2021" -> "films", "in 2021";
    "more hours of music" -> "hours of music"): lower case, plural or an amount, before any preposition but of and
    before a period ("more books this year")."""
    core, period = _split_adjunct(mid)
    if period:
        noun, rest = _measure_noun(core)
        return noun, " ".join(f"{rest} {period}".split()) if noun is not None else mid
    words = mid.split()
    taken = []
    for word in words:
        if not (word.isalpha() and word.islower()) or word in _PREPOSITIONS and (word != "of" or not taken):
            break
        taken.append(word)
    while taken and taken[-1] == "of":
        taken.pop()
    if not taken or not (taken[0].endswith("s") or taken[0] in _MEASURE_WORDS):
        return None, mid
    if taken[0] in _MEASURE_WORDS and taken[1:2] != ["of"]:
        taken = taken[:1]   # "more time doing yoga": the amount is time, what it was spent on follows
    return " ".join(taken), " ".join(words[len(taken):])


def _replace_parallel(head: str, rest: str, b: str) -> tuple[str, str] | None:
    """(head, rest) with the part that `b` stands parallel to replaced by `b`, looked for in rest first: "more
    Beck than Air" replaces what follows the comparative, otherwise see `_parallel_span`."""
    if _kind(b) == "bare" and rest.strip():
        keep = rest.split()[0] + " " if rest.split()[0].lower() in _PREPOSITIONS else ""
        return head, keep + b
    for where, text in (("rest", rest), ("head", head)):
        span = _parallel_span(text, b)
        if span is not None:
            new = text[:span[0]] + b + text[span[1]:]
            return (head, new) if where == "rest" else (new, rest)
    return None


def _parallel_span(text: str, b: str) -> tuple[int, int] | None:
    """Where in `text` the phrase that `b` stands parallel to is: from the last word that is b's preposition to
    the end, the last period for a period, else the words at the end (a capitalized name, or as many words as b
    has)."""
    kind = _kind(b)
    if kind == "preposition":
        found = list(re.finditer(rf"\b{re.escape(b.split()[0])}\b", text, re.I))
        return (found[-1].start(), len(text.rstrip())) if found else None
    if kind == "time":
        found = list(_TIME.finditer(text))
        return found[-1].span() if found else None
    words = list(re.finditer(r"\S+", text))
    size = 0
    if b[:1].isupper():
        while size < len(words) - 2 and words[-1 - size].group()[:1].isupper():
            size += 1
    size = size or len(b.split())
    if size > len(words) - 2:   # keep the auxiliary and the person
        return None
    return words[-size].start(), words[-1].end()


def _label(alternative: str) -> str:
    """An alternative as the answer names it: "in 2022" -> "2022", "doing yoga" -> "yoga" (a verb that says no more
    than doing), "on the Tim Ferriss podcast" -> "Tim Ferriss"."""
    words = alternative.split()
    if len(words) > 1 and (words[0].lower() in _PREPOSITIONS or words[0].lower() in _LIGHT_VERBS):
        return _label(" ".join(words[1:]))
    kind_said = _KIND_SAID.fullmatch(alternative)
    return kind_said.group("name") if kind_said is not None else alternative


def _gerund(verb: str) -> str:
    """The activity a verb names, as an answer names it: "run" -> "running", "cycle" -> "cycling"."""
    word = verb.lower()
    if word.endswith("ing"):
        return verb
    if word.endswith("ie"):
        return verb[:-2] + "ying"
    if word.endswith("e") and not word.endswith(("ee", "ye", "oe")):
        return verb[:-1] + "ing"
    if re.fullmatch(r"[^aeiou]*[aeiou][bdgklmnprstv]", word):   # one short syllable: the consonant doubles
        return verb + verb[-1] + "ing"
    return verb + "ing"


def _measure(clause: str, noun: str | None) -> str:
    """The question that measures one alternative: "did I see Anna" -> "How many times did I see Anna?"."""
    clause = clause[0].lower() + clause[1:]
    if noun is not None:
        how = "How much" if noun.split()[0] in _AMOUNT_NOUNS else "How many"
        return f"{how} {noun} {clause}?"
    if _SPENDING.match(clause):
        return f"How much {clause}?"
    return f"How many times {clause}?"


def _numeric_root(tree: Node) -> bool:
    call = tree.call
    if call.operator in ("SUM", "AVG", "MIN", "MAX"):
        return True
    fct = call.get("fct") if call.operator == "APPLY" else None
    # a count, a sum, or two numbers added ("lambda l: l + QUD(...)": a cost and its refunds)
    return fct == FuncRef("len") or isinstance(fct, Lambda) and (
        re.search(r"\b(?:len|sum)\(", fct.source) is not None
        or re.match(r"lambda\s+l\s*:\s*l\s*[+-]\s*QUD\(", fct.source) is not None)


def as_two_way(first: Node, second: Node, question: str, two: TwoWay) -> Node | None:
    """The root that compares the values of the two measures' trees, asked as `question`: yes or no, or the
    alternative ahead ("the same for A and B" on a tie, "neither" when both are 0); None when a measure's root
    gives no number."""
    if not (_numeric_root(first) and _numeric_root(second)) or first.question == second.question:
        return None
    other = format_value(Qud(second.question))
    if two.choices is None:
        test = f"l < {other}" if two.fewer else f"l > {other}"
    else:   # the second value is named once (each QUD(...) is one child), then compared both ways for a tie
        ahead, behind = ("l < b", "b < l") if two.fewer else ("l > b", "b > l")
        a, b = (format_value(c) for c in two.choices)
        same = format_value("the same for " + " and ".join(two.choices))
        tie = f'("neither" if not l else {same})'   # nothing of either is no tie between them
        test = f"[{a} if {ahead} else ({b} if {behind} else {tie}) for b in [{other}]][0]"
    step = Call("APPLY", (("l", Qud(first.question)), ("fct", Lambda(f"lambda l: {test}"))))
    return Node(question, step, (first, second))


# --- who, the most ----------------------------------------------------------------------------------------
#
# "Who did I have dinner with most often in 2023?", "Who did I email the most?", "Who sent me the most mails?":
# the person found most often among the people of some events. The model is asked for the count of those events
# ("How many times did I have dinner in 2023?"); below the count's aggregate, each event's participants (a
# calendar entry's attendees, a mail's sender and recipients) are counted per person, the owner of the data left
# out, and the person counted most answers. "Who did I listen to most?" asks for an artist, not a person.

# "who", or "which friend" / "which of my colleagues": a person the owner knows (PERSON_NOUNS)
_WHO = rf"(?:who|whom|with\s+whom|which\s+(?:of\s+my\s+)?(?:{'|'.join(sorted(PERSON_NOUNS))})s?)"
_WHO_OBJECT = re.compile(
    rf"^{_WHO}\s+(?P<aux>did|do|have|had)\s+(?:i|we)\s+(?P<vp>.+?)\s+(?:the\s+)?most"
    r"(?:\s+(?:often|frequently|times))?(?:\s+(?P<noun>(?!(?:this|was|has|is|as|us)\b)[a-z]+s))?(?:\s+(?:to|with|from))?"
    r"(?P<rest>(?:\s.*)?)$", re.I)
_WHO_SUBJECT = re.compile(   # "who sends me the most mails", "which friend emails me the most"
    rf"^(?:who|which\s+[a-z]+)\s+(?:has\s+)?{_MAIL_VERBS}\s+(?:to\s+)?me\s+(?:the\s+)?most"
    r"(?:\s+(?:often|frequently|times))?"
    r"(?:\s+(?P<noun>(?!(?:this|was|has|is|as|us)\b)[a-z]+s))?"
    r"(?P<rest>(?:\s.*)?)$", re.I)
_WRITE_TO = re.compile(r"(?:e-?mail|mail|message|text|write|wrote|written)\w*", re.I)
_WHO_GOT = re.compile(   # "who got the most emails from me": the mails the owner sent
    rf"^{_WHO}\s+(?:got|gets|received|receives|has\s+(?:got|gotten|received))\s+(?:the\s+)?most"
    r"(?:\s+(?P<noun>(?!(?:this|was|has|is|as|us)\b)[a-z]+s))?\s+from\s+me\b(?P<rest>(?:\s.*)?)$", re.I)
# whose music, films or books: "who did I listen to most", "who have I been listening to most" is an artist
_MEDIA_VERBS = re.compile(r"^(?:(?:been|be|being)\s+)?(?:listen|hear|heard|play|stream|watch|read)\w*\b", re.I)
_MEDIA_TIME = re.compile(r"^\s*(?:time|hours|minutes)\s+(?:listen|hear|play|stream|watch|read)\w*\b", re.I)
EVENT_STEPS = ("FILTER", "EXTRACT", "RETRIEVE", "JOIN")  # steps whose result is events, not a number or groups


def who_most_count(question: str) -> str | None:
    """The count whose events' people a "who ... the most" question asks about, or None for other questions."""
    text = " ".join(question.split()).strip(" ?.!")
    subject = _WHO_SUBJECT.match(text)
    if subject is not None:
        return f"How many {subject.group('noun') or 'emails'} did I get{subject.group('rest')}?"
    receiver = _WHO_GOT.match(text)
    if receiver is not None:
        return f"How many {receiver.group('noun') or 'emails'} did I send{receiver.group('rest')}?"
    match = _WHO_OBJECT.match(text)
    # "who did I listen to most", "who did I spend the most time listening to": an artist
    if match is None or _MEDIA_VERBS.match(match.group("vp")) or _MEDIA_TIME.match(match.group("rest")):
        return None
    vp = re.sub(r"\s+(?:with|to|from)$", "", match.group("vp"), flags=re.I)
    aux, rest, noun = match.group("aux").lower(), match.group("rest"), match.group("noun")
    if not noun and _WRITE_TO.fullmatch(vp):   # "who did I email the most": the mails the owner sent
        return f"How many emails did I send{rest}?"
    if noun:
        return f"How many {noun} {aux} I {vp}{rest}?"
    if " " not in vp and vp == match.group("vp"):   # "who did I meet": a person was met
        vp += " someone"
    return f"How many times {aux} I {vp}{rest}?"


def asks_for_someone_known(question: str) -> bool:
    """Whether a "which ..." question names its answer as someone the owner knows ("which friend", "which of my
    colleagues"), not anyone who mails them."""
    match = re.match(r"\s*which\s+(?:of\s+my\s+)?(?P<noun>[a-z-]+)", question, re.I)
    return match is not None and match.group("noun").lower().removesuffix("s") in PERSON_NOUNS


def events_below(tree: Node) -> Node | None:
    """Below a tree's aggregates and groupings, the first step that gives events; None when it has none (or
    branches first)."""
    node = tree
    while node.operator not in EVENT_STEPS:
        if len(node.children) != 1:
            return None
        node = node.children[0]
    return node


def people_of(events: Node, question: str, owner: str | None = None, people: Sequence[str] = ()) -> Node:
    """The person found most often among the participants of `events` (a calendar entry's attendees, a mail's
    sender and recipients), the others as runner-ups, asked as `question`; the `owner` of the data (on every
    mail they sent or got) is not counted, and given the data's `people` (for "which friend ..."), only they are
    (a shop or newsletter that mails the owner is no one they know)."""
    grouped = _people_grouped(events, owner, people)
    q = lambda text: format_value(Qud(text))  # noqa: E731
    node = Node.from_step(f"number of events per person {events.question}",
                          f'MAP(l={q(grouped.question)}, fct=len, res_name="count")', (grouped,))
    return Node.from_step(question, f'ARGMAX(l={q(node.question)}, arg_attr_name="count", val_attr_name="person")',
                          (node,))


def _people_grouped(events: Node, owner: str | None, people: Sequence[str] = ()) -> Node:
    """The participants of `events` grouped by person, the `owner` of the data left out (given the data's
    `people`, only they kept)."""
    scope = events.question
    q = lambda text: format_value(Qud(text))  # noqa: E731  (a sub-question as the step's input)
    node = Node.from_step(f"{scope} with participants",
                          f'EXTRACT(l={q(scope)}, attr_names=["participants"], attr_types=[list])', (events,))
    # the step the persons are grouped from is named "... with person", which the answer leaves out when it
    # restates what was counted ("the person with the most mails you got")
    node = Node.from_step(f"{scope} with person" if owner is None else f"{scope} with each person",
                          f'UNNEST(l={q(node.question)}, nested_attr_name="participants", unnested_attr_name="person")',
                          (node,))
    if people:
        known = ", ".join(format_value(person) for person in people)
        node = Node.from_step(f"{scope} with person", f'FILTER(l={q(node.question)}, '
                              f'filter=lambda attr: attr["person"] in ({known},))', (node,))
    elif owner is not None:
        node = Node.from_step(f"{scope} with person", f'FILTER(l={q(node.question)}, '
                              f'filter=lambda attr: attr["person"] != {format_value(owner)})', (node,))
    return Node.from_step(f"{scope} grouped by person",
                          f'GROUP_BY(l={q(node.question)}, attr_names=["person"])', (node,))


# --- who was with me ------------------------------------------------------------------------------------------
#
# "Who came with me to Porto?": every person of the trip's events (app.qud.occasions.company_trip), not the one of
# its first entry nor the one counted most.

def people_listed(events: Node, question: str, owner: str | None = None) -> Node:
    """Every person among the participants of `events`, the `owner` of the data left out, asked as `question`."""
    grouped = _people_grouped(events, owner)
    listed = Lambda('lambda l: sorted({g["person"] for g in l if g["person"] is not None})')
    return Node(question, Call("APPLY", (("l", Qud(grouped.question)), ("fct", listed))), (grouped,))


# --- names the tree lost --------------------------------------------------------------------------------------
#
# "How many emails did Andreas send me in 2022?" decomposed as the count of "I received an email in 2022", or "how
# many different Mitski songs" as the songs I listened to: the fine-tuned model often writes its canonical event
# phrase and drops the name that picks the events out. Where no step, sub-question or query keeps a name of the
# question and the tree has one RETRIEVE, the events it finds are kept only where their text writes the name.
# A name in a clause of time ("while I was away in Chamonix", "after moving to Austin") says when, not which
# events: the events of that time need not write it.

_QUD_REFERENCE = re.compile(r'QUD\("(?:[^"\\]|\\.)*"\)')


def lost_names(tree: Node, question: str, people: Sequence[str] = (), *, steps_only: bool = False) -> list[str]:
    """The names of `question` (runs of capitalised words, as `asked_specifics` finds them: no sentence start,
    pronoun, month or source; and words in lower case that are the first name of one of `people`, the people of
    the data) that no step, sub-question or query of `tree` writes, in question order. `steps_only`: a name only a
    sub-question writes is lost too ("I had a 1:1s with Sara" above the search "I had a 1:1s": no step finds her)."""
    named = {text for kind, text in asked_specifics(question) if kind == "name"} | lower_case_names(question, people)
    when = _TIME_CLAUSE.search(question)
    phrases: list[list[str]] = []
    last = None
    for match in TEXT_WORD.finditer(question[:when.start()] if when else question):
        word = match.group().removesuffix("'s")
        if word not in named:
            last = None
            continue
        if last is not None and question[last:match.start()] == " ":
            phrases[-1].append(word)
        else:
            phrases.append([word])
        last = match.start() + len(word)
    nodes = list(tree.walk())
    if steps_only:   # the steps' queries, tests and names, not the sub-questions they refer to
        written = " | ".join(_QUD_REFERENCE.sub("", n.step) for n in nodes).lower()
    else:            # not the question itself
        written = " | ".join([n.step for n in nodes] + [n.question for n in nodes[1:]]).lower()
    return [" ".join(p) for p in phrases if " ".join(p).lower() not in written]


def _alternative(name: str, question: str) -> bool:
    """Whether `name` stands on one side of an "or" in `question` ("Lena or Elin", "more Opeth or more Rammstein")."""
    quoted = re.escape(name)
    return re.search(rf"\b{quoted}\b,?\s+or\b|\bor\s+(?:(?:more|less|fewer|the|a|an)\s+)?{quoted}\b", question,
                     re.I) is not None


# a conjunction or preposition of time after the first word ("When did I ..." asks; "..., when I ..." says when; "on
# the day I saw them at Stadtpark" says which day)
_TIME_CLAUSE = re.compile(r"(?<=\S)\s+(?:during|while|when|whilst|before|after|since|until|till|throughout|"
                          r"on\s+the\s+day)\b", re.I)


def lower_case_words(question: str) -> set[str]:
    """The words of `question` in lower case that could be a first name: not one the examples' plans use, a
    function word, a month or a weekday ("will", "may")."""
    common = planning_words() | FUNCTION_WORDS | set(MONTH_NAMES) | set(WEEKDAY_NAMES)
    words = (match.group().removesuffix("'s") for match in TEXT_WORD.finditer(question))
    return {word for word in words if word.islower() and len(word) > 2 and word not in common}


def lower_case_names(question: str, people: Sequence[str]) -> set[str]:
    """The words of `question` in lower case that are the first name of one of `people` ("harriet's birthday?")."""
    first = {person.split()[0].lower() for person in people if person.split()}
    return lower_case_words(question) & first if first else set()


def names_capitalised(question: str, people: Sequence[str], places: Iterable[str] = ()) -> str:
    """`question` with each word in lower case that is the first name of one of `people`, and each place of
    `places` (where the person stayed) said in lower case after "in", "to", "at" or "from" or before "trip",
    written as the data writes it ("how many times did i see rhys this year" -> "... see Rhys ...", "how far did i
    run in seoul" -> "... in Seoul"): the model reads a name in lower case as a word ("I met with 20 year", "my trip
    to the city"). Not the first word: a capital there says no name to the rules that find names ("harriet's
    birthday?" is kept as it is, for keep_names)."""
    for name in lower_case_names(question, people):
        question = re.sub(rf"(?<=\S)(\s+){re.escape(name)}(?![\w])", lambda m: m.group(1) + name.capitalize(),
                          question)
    for place in sorted(places, key=len, reverse=True):
        if place.lower() == place:
            continue
        low = re.escape(place.lower())
        question = re.sub(rf"\b(?P<before>(?:in|to|at|from)\s+){low}(?!\w)|"
                          rf"(?<=\S)(?P<space>\s+){low}(?=\s+(?:trip|holiday|vacation|flights?)\b)",
                          lambda m: (m.group("before") or m.group("space")) + place, question)
    return question


def titles_capitalised(question: str, titles: Iterable[str]) -> str:
    """`question` with each title of `titles` (a series, a show, an artist, a film the data holds) said in lower case
    written as the data writes it ("how many stranger things episodes" -> "... Stranger Things episodes", "did i
    watch any ozark" -> "... Ozark"), as names_capitalised writes people: the model reads "stranger things" as
    words ("I watched a stranger thing"). A title of one word only where that word could be a name
    (lower_case_words: not "friends" or "wednesday", which the questions use as words), one of more words where two
    of them are more than function words; not the first word."""
    could_be_names = lower_case_words(question)
    for title in sorted(titles, key=len, reverse=True):
        words = title.lower().split()
        if title == title.lower() or not (
                len([w for w in words if w not in FUNCTION_WORDS]) >= 2
                or (len(words) == 1 and words[0] in could_be_names and len(words[0]) > 3)):
            continue
        question = re.sub(rf"(?<=\S)(\s+){re.escape(title.lower())}(?![\w])", lambda m: m.group(1) + title, question)
    return question


def keeping_names(tree: Node, question: str, people: Sequence[str] = (), *, steps_only: bool = False) -> Node | None:
    """`tree` with a FILTER above its only RETRIEVE that keeps the events whose text writes every name of
    `question` the tree lost (`lost_names`); None when it lost none, or has no single RETRIEVE to narrow. A name
    offered as an alternative ("Lena or Elin") is not kept: a choice between two names asks for no event that
    writes both."""
    lost = [name for name in lost_names(tree, question, people, steps_only=steps_only)
            if not _alternative(name, question)]
    leaves = [node for node in tree.walk() if node.operator == "RETRIEVE"]
    if not lost or len(leaves) != 1 or leaves[0] is tree:
        return None
    leaf = leaves[0]
    test = " and ".join(f"{format_value(name.lower())} in str(attr[\"text\"]).lower()" for name in lost)
    narrowed = Node.from_step(f"{leaf.question} naming {' and '.join(lost)}",
                              f"FILTER(l={format_value(Qud(leaf.question))}, filter=lambda attr: {test})", (leaf,))
    try:
        return _replaced(tree, leaf, narrowed)
    except ValueError:   # a lambda's QUD("..."): not rewritten here
        return None


def _replaced(node: Node, old: Node, new: Node) -> Node:
    """`node` with the subtree `old` replaced by `new`, the step above it asking `new`'s question instead."""
    if not any(child is old for child in node.children):
        return Node(node.question, node.call, tuple(_replaced(c, old, new) for c in node.children))
    if Qud(old.question) not in (value for _, value in node.call.args):
        raise ValueError("the step names the sub-question inside an expression")
    args = tuple((name, Qud(new.question) if value == Qud(old.question) else value) for name, value in node.call.args)
    children = tuple(new if child is old else child for child in node.children)
    return Node(node.question, Call(node.call.operator, args), children)


# --- a service is where the events come from ----------------------------------------------------------------
#
# "How much did I spend on Amazon in 2023?": the small model tests an extracted attribute for the service's name
# (`attr["category"] == "Amazon"`), which no purchase's category is. Every event of a source comes from one service
# (app.sources: SourceSpec.service), so the test is written as a test of the events' source instead.

_SERVICE_TEST = re.compile(r'attr\["(?P<attr>\w+)"\](?:\.lower\(\))?\s*==\s*"(?P<name>[^"]+)"')
# each service's name in lower case -> its sources, and -> its name as written ("netflix" -> "Netflix")
SERVICE_SOURCES: dict[str, frozenset[str]] = {}
SERVICE_NAMES: dict[str, str] = {}
for _spec in SOURCES.values():
    if _spec.service:
        SERVICE_SOURCES[_spec.service.lower()] = SERVICE_SOURCES.get(_spec.service.lower(), frozenset()) | {_spec.name}
        SERVICE_NAMES[_spec.service.lower()] = _spec.service


def sourcing_services(tree: Node) -> Node | None:
    """`tree` with each FILTER test of an attribute (not the source) for a service's name written as a test of the
    events' source; None when no FILTER tests one."""

    def rewritten(match: re.Match) -> str:
        names = sorted(SERVICE_SOURCES.get(match.group("name").lower(), ()))
        if not names or match.group("attr") == "source":
            return match.group(0)
        if len(names) == 1:
            return f'attr["source"] == {format_value(names[0])}'
        return f'attr["source"] in ({", ".join(format_value(n) for n in names)})'

    def tested_by_source(node: Node) -> Call | None:
        call = node.call
        test = call.get("filter") if call.operator == "FILTER" else None
        if not isinstance(test, Lambda):
            return None
        source = _SERVICE_TEST.sub(rewritten, test.source)
        return Call("FILTER", tuple((n, Lambda(source) if n == "filter" else v) for n, v in call.args))

    return tree.with_calls(tested_by_source)


# --- a kind of events the question rules out --------------------------------------------------------------
#
# "How many episodes of The Office have I watched on Netflix?": the small model writes the search "I watched the
# podcast office", podcasts having episodes too. The question's words that name sources ("episodes", "watched",
# "Netflix": app.sources) agree on the sources they can mean, TV series; a search that names the kind of another
# source's events ("podcast", the noun of its phrase "I listened to a podcast") has that noun dropped.

def sources_meant(question: str) -> frozenset[str]:
    """The sources every word of `question` that names sources can mean; empty when no word names one, or the words
    disagree."""
    meant: frozenset[str] | None = None
    for word in (w.lower() for w in TEXT_WORD.findall(question)):
        named = NAMING_WORDS.get(word)
        if named:
            meant = named if meant is None else meant & named
    return meant or frozenset()


def without_ruled_out_kinds(tree: Node, question: str) -> Node | None:
    """`tree` with each RETRIEVE's query rid of the nouns of sources that `question` rules out ("I watched the
    podcast office" -> "I watched the office"); None when it names none, or a query would keep no other word."""
    meant = sources_meant(question)
    if not meant:
        return None

    def cleaned(retrieve: Node) -> Node:
        query = retrieve.call.get("query")
        if not isinstance(query, str):
            return retrieve
        words = query.split()
        kept = [w for w in words if KIND_NOUNS.get(w.lower()) in (None, *meant)]
        if len(kept) == len(words) or not set(w.lower() for w in kept) - FUNCTION_WORDS - _EVENT_VERBS:
            return retrieve
        cleaned_query = " ".join(kept)
        return Node.from_step(cleaned_query, f"RETRIEVE(query={format_value(cleaned_query)})")

    return each_search_narrowed(tree, cleaned)


# verbs that say an event happened, naming no kind of events ("I watched the" names nothing)
_EVENT_VERBS = frozenset("watched listened bought did went had got played streamed".split())


# --- a mail is a mail ----------------------------------------------------------------------------------------
#
# "did I get more mail from Airbnb or from Amazon?": the search for "emails from Amazon" finds the Amazon orders too
# (672 events, 47 of the first 50 orders). A query that says mail ("emails from Amazon", "I got a newsletter") asks
# for messages, which only the mail source holds, whoever sent them.

MAIL_WORDS = frozenset({word for word, sources in NAMING_WORDS.items() if sources == frozenset({"mail"})}
                       | {"newsletter", "newsletters"})


def mail_searches(tree: Node) -> Node | None:
    """`tree` with a FILTER above each RETRIEVE whose query says mail that keeps the mails; None where no query
    says mail."""

    def mails(retrieve: Node) -> Node:
        query = retrieve.call.get("query")
        if not isinstance(query, str) or not {w.lower() for w in TEXT_WORD.findall(query)} & MAIL_WORDS:
            return retrieve
        return kept_where(retrieve, 'attr["source"] == "mail"')

    return each_search_narrowed(tree, mails)


# --- a service's events are that service's ------------------------------------------------------------------------
#
# "how many hours of netflix have i watched this year?": the search "I watched an episode of Netflix" finds Spotify's
# podcast episodes too (101 of 315 events on a household's data), and no films. A query that names the service a
# source's events all come from ("Netflix", "Spotify") asks for events of that service's sources. Where it says
# nothing else ("I watched an episode of Netflix": a kind, a verb, the service) and its kind is narrower than the
# question's ("how much netflix": films too), the search is for the service itself, kept to the kinds the question
# asks about. A query that says mail asks for mails instead (mail_searches).

# words that say an event happened or a thing was used, naming nothing of their own
_USED = _EVENT_VERBS | frozenset("something anything stuff thing things listen stream streaming".split())


def service_searches(tree: Node, question: str) -> Node | None:
    """`tree` with a FILTER above each RETRIEVE whose query names a service that keeps the events of its sources
    (searched for as the service itself, of the kinds `question` asks about, where the query says nothing but the
    service and a narrower kind); None where no query names one."""

    def services(retrieve: Node) -> Node:
        query = retrieve.call.get("query")
        words = {w.lower() for w in TEXT_WORD.findall(query)} if isinstance(query, str) else set()
        named = [w for w in words if w in SERVICE_SOURCES]
        if not named or words & MAIL_WORDS:
            return retrieve
        sources = frozenset().union(*(SERVICE_SOURCES[w] for w in named))
        own = [w for w in words - FUNCTION_WORDS - _USED
               if w not in SERVICE_SOURCES and not NAMING_WORDS.get(w, frozenset()) & sources]
        asked, searched = sources & sources_meant(question), sources & sources_meant(query)
        # the query says only the service and a narrower kind than the question ("an episode of Netflix" for
        # "how much netflix"): the service's events of every kind the question asks about are searched for
        service = SERVICE_NAMES[named[0]] if not own and len(named) == 1 and searched < asked else None
        test = " or ".join(f'attr["source"] == {format_value(name)}' for name in sorted(asked if service else sources))
        return kept_where(retrieve, test, query=service)

    return each_search_narrowed(tree, services)
