"""What a question asks of the things bought: the price of one, and the thing itself.

"What's the most expensive thing I bought on Amazon?" compares what one item cost, not what was paid for a line of
several: two mugs bought together are not a more expensive thing than one mixer. The small model measures every
purchase by what was paid (`total`), so where a question asks about the price of a thing, not of an order or of
what was spent, the measure of one item is read instead (the source's `item_keys`: `unit_price`; rule
item_prices). Where it asks for the thing itself and the model wrote only the greatest price (`MAX`), the thing
with that price is asked for (rule thing_asked); where it asks for the greatest measure ("the highest heart rate
I've hit") and the model ranked the events by time, the greatest measure is (rule measure_asked), or where it asks
when, the day of the greatest; where it asks when a sport's longest session was and the model gave the latest date,
the day of the greatest distance is (rule longest_asked). An order of three things is one order: "how many Amazon
orders" counts the orders the lines belong to (the source's `unit_words`: `order_id`; rule orders_counted).
"Which artist did I spend the most time listening to?" ranks the artists by the time their songs played, not by how
many there were (rule time_measured). "How long is my average hike, in minutes?" is the mean of the hikes'
durations, which the engine gives in minutes (rule units_measured).

    asks_price_of_a_thing("priciest thing I got on amazon last year")    # True
    asks_price_of_a_thing("biggest munchbox order i ever placed?")       # False: an order's price is its total
"""

from __future__ import annotations

import re

from app.engine.operators.aggregate import UNITS
from app.engine.syntax import Call, FuncRef, Lambda, Qud, format_value
from app.engine.tree import Node
from app.engine.units import STORED_UNITS, asked_unit
from app.engine.values import DERIVED
from app.lexicon import MONTH_NAMES
from app.qud.frames import EVENT_STEPS, sources_meant
from app.qud.occasions import DATED, sports_named, started_in
from app.qud.validate import TEXT_WORD
from app.qud.vocabulary import TYPE_OF
from app.sources import NAMING_WORDS, SOURCES, carrier_sources

# a key that measures all the items of an event -> the key that measures one of them
ITEM_KEYS = {key: item for spec in SOURCES.values() for key, item in spec.item_keys.items()}

_PRICE = re.compile(r"\b(?:expensive|priciest|pricey|pricier|cheapest|cheaper|costliest|costly|"
                    r"cost(?:s|ed)?\s+(?:me\s+)?the\s+(?:most|least))\b", re.I)
# what a question says when it asks what was paid, not what a thing cost
_PAID = re.compile(r"\b(?:orders?|baskets?|carts?|deliver(?:y|ies)|bills?|receipts?|spen[dt]|spending|total|"
                   r"altogether|in\s+all)\b", re.I)
_THING = re.compile(r"\b(?:things?|items?|products?|purchases?|stuff)\b", re.I)
# a question that asks for a measure, a time, a place or a person, not for the thing
_ASKS_ELSE = re.compile(r"^\s*(?:how|when|where|who|whom|whose|did|do|does|was|were|is|are|has|have)\b|"
                        r"\b(?:price|cost|amount|much|value)\b\s*\??\s*$|\b(?:price|cost|amount|value)\s+of\b|"
                        r"\bhow\s+much\b", re.I)

_ASKS_WHEN = re.compile(r"^\s*(?:when|(?:on\s+)?(?:which|what)\s+(?:date|day))\b", re.I)

# the attributes each operator measures by
_MEASURED = {"EXTRACT": "attr_names", "MAX": "attr_name", "MIN": "attr_name", "ARGMAX": "arg_attr_name",
             "ARGMIN": "arg_attr_name"}


def asks_price_of_a_thing(question: str) -> bool:
    """Whether `question` asks what a thing cost (the most expensive, the cheapest thing), not what an order cost or
    what was spent."""
    return _PRICE.search(question) is not None and _PAID.search(question) is None


def item_prices(tree: Node, question: str) -> Node | None:
    """`tree` measuring one item where it measured all the items of an event (`unit_price` for `total`), where
    `question` asks about the price of a thing; None when it does not, or the tree measures no such key."""
    if not asks_price_of_a_thing(question):
        return None

    def one_item(value):
        if isinstance(value, str):
            return ITEM_KEYS.get(value, value)
        if isinstance(value, tuple):
            return tuple(one_item(v) for v in value)
        return value

    def measuring_one(node: Node) -> Call | None:
        key = _MEASURED.get(node.operator)
        return Call(node.operator, tuple((name, one_item(value) if name == key else value)
                                         for name, value in node.call.args))

    return tree.with_calls(measuring_one)


def extracting(extract: Node, name: str, kind: FuncRef) -> Node:
    """The EXTRACT step `extract` extracting `name` (of type `kind`) too."""
    more = {"attr_names": (name,), "attr_types": (kind,)}
    args = tuple((key, value + more[key] if key in more and isinstance(value, tuple) else value)
                 for key, value in extract.call.args)
    return Node(extract.question, Call("EXTRACT", args), extract.children)


def thing_asked(tree: Node, question: str) -> Node | None:
    """`tree` asking for the thing with the greatest (least) measure, or the day it happened, where the model wrote
    only the measure (MAX over an EXTRACT) and `question` asks for a thing ("what's the most expensive thing I ever
    bought?", "most expensive single item I've ordered?", not how much or whether) or when ("When was my longest
    run?"); None otherwise. The thing is named by the first name key of the source that carries the measure (a
    purchase's `product`); the day is its start date."""
    if tree.operator not in ("MAX", "MIN"):
        return None
    measure = tree.call.get("attr_name")
    below = tree.children[0] if len(tree.children) == 1 else None
    if not isinstance(measure, str) or measure in DERIVED or below is None or below.operator != "EXTRACT":
        return None
    if _ASKS_WHEN.search(question):
        asked, kind = "start_date", FuncRef("date.fromisoformat")
    elif _THING.search(question) and not _ASKS_ELSE.search(question):
        names = [key for source in carrier_sources(measure) for key in SOURCES[source].name_keys]
        if not names:
            return None
        asked, kind = names[0], FuncRef("str")
    else:
        return None
    attr_names = tuple(below.call.get("attr_names") or ())
    if measure not in attr_names:
        return None
    extract = below if asked in attr_names else extracting(below, asked, kind)
    operator = "ARGMAX" if tree.operator == "MAX" else "ARGMIN"
    return Node.from_step(tree.question, f"{operator}(l={format_value(Qud(extract.question))}, "
                                         f"arg_attr_name={format_value(measure)}, val_attr_name={format_value(asked)})",
                          (extract,))


# "what did I watch on Netflix in Oslo?", "which films did we stream in May": the things of some plays or purchases
_THINGS_ASKED = re.compile(
    r"^\s*(?:so\s+)?(?:what|which(?:\s+[a-z]+){1,2}?)\s+(?:did|do|have|has|was|were)\s+(?:i|we)\s+"
    r"(?:ever\s+|just\s+|been\s+)*(?:watch|watching|watched|stream|streaming|streamed|listen|listening|listened|"
    r"hear|heard|buy|buying|bought|order|ordering|ordered|read|reading|play|playing|played)\b", re.I)
# ...unless it asks for the one ranked first, or for a number
_ONE_OR_NUMBER = re.compile(r"\b(?:most|least|more|fewer|less|first|latest|earliest|recent|favou?rite|top|often|"
                            r"many|much|number)\b|\blast\b(?!\s+(?:\d+|[a-z]+\s+days|night|week|weekend|month|year|"
                            r"summer|winter|spring|autumn|fall)\b)", re.I)


def things_listed(tree: Node, question: str) -> Node | None:
    """`tree` naming the things where its root counted them (APPLY `len`) and `question` asks what was watched,
    heard, bought or read ("what did I watch on Netflix in Oslo?"): the distinct names of the counted events, each
    by its source's first name key (a series' `series`, a film's `title`, a purchase's `product`); None otherwise."""
    if not (tree.operator == "APPLY" and tree.call.get("fct") == FuncRef("len") and len(tree.children) == 1):
        return None
    if _THINGS_ASKED.search(question) is None or _ONE_OR_NUMBER.search(question):
        return None
    name = "None"
    for source, spec in reversed(list(SOURCES.items())):
        if spec.name_keys:
            name = f'e.get({format_value(spec.name_keys[0])}) if e["source"] == {format_value(source)} else {name}'
    listed = Lambda(f"lambda l: sorted({{n for n in [{name} for e in l] if n is not None}})")
    counted = tree.children[0]
    return Node(question, Call("APPLY", (("l", Qud(counted.question)), ("fct", listed))), (counted,))


# the greatest or least of a measure ("the highest heart rate", "my shortest walk"), and the first or last of a time
# ("my most recent", "the last movie"): a question with the second ranks by time, whatever measure it names
_GREATEST = re.compile(r"\b(?:highest|biggest|largest|longest|furthest|farthest|max|maximum|peak)\b", re.I)
_LEAST = re.compile(r"\b(?:lowest|smallest|shortest|min|minimum)\b", re.I)
_BY_TIME_WORDS = re.compile(r"\b(?:last|latest|recent|recently|first|earliest|newest|oldest|previous|next)\b", re.I)
# the keys that are a time, and the numbers computed by MAP (hours, km, ...)
_TIME_KEYS = frozenset(key for key in DERIVED if key not in ("duration", "year", "month", "hour", "weekday"))
_NUMBER_NAMES = frozenset(("hours", "minutes", "seconds", "days", "km", "amount", "spent", "value", "count",
                           "duration"))


def measure_asked(tree: Node, question: str) -> Node | None:
    """`tree` asking for the greatest (least) measure where it ranked the events by a time and gave the measure of the
    latest or earliest (ARGMAX over `start_datetime` giving `heart_rate_max`) and `question` asks for the greatest or
    least of a measure ("what's the highest heart rate I've hit playing football?"), not for the first or last of
    anything; or, where `question` asks when ("On which date was my longest run?"), the day of the event with the
    greatest (least) measure: the tree had the two the other way round. None otherwise. The converse of
    thing_asked."""
    if tree.operator not in ("ARGMAX", "ARGMIN") or len(tree.children) != 1:
        return None
    ranked, measure = tree.call.get("arg_attr_name"), tree.call.get("val_attr_name")
    if ranked not in _TIME_KEYS or not isinstance(measure, str):
        return None
    if TYPE_OF.get(measure) not in ("float", "int") and measure not in _NUMBER_NAMES:
        return None
    greatest, least = _GREATEST.search(question), _LEAST.search(question)
    if (greatest is None) == (least is None) or _BY_TIME_WORDS.search(question):
        return None
    below = tree.children[0]
    if _ASKS_WHEN.search(question):
        day = "start_date" if ranked.startswith("start") else "end_date"
        operator = "ARGMAX" if greatest else "ARGMIN"
        return Node.from_step(tree.question, f"{operator}(l={format_value(Qud(below.question))}, "
                                             f"arg_attr_name={format_value(measure)}, val_attr_name={format_value(day)})",
                              (below,))
    operator = "MAX" if greatest else "MIN"
    return Node.from_step(tree.question, f"{operator}(l={format_value(Qud(below.question))}, "
                                         f"attr_name={format_value(measure)})", (below,))


# "When did I do my longest run?": a sport's longest, furthest or shortest session is measured by its distance (as
# the watch's and the running apps' records are); the model often keeps only "when" and gives the latest date
_FARTHEST = re.compile(r"\b(?:longest|furthest|farthest)\b", re.I)
_SHORTEST = re.compile(r"\bshortest\b", re.I)
_DISTANCE = "distance_km"


def longest_asked(tree: Node, question: str) -> Node | None:
    """`tree` giving the day of the session of a sport with the greatest (least) distance, where `question` asks
    when the longest, furthest or shortest session of the one sport it names was ("When did I do my longest rowing
    session?") and the tree gives the latest or earliest date (MAX over an EXTRACT of it); None otherwise. Asked
    "when was my last long run", it is the last one's."""
    if tree.operator not in ("MAX", "MIN") or len(tree.children) != 1:
        return None
    day = tree.call.get("attr_name")
    if day not in _TIME_KEYS or not _ASKS_WHEN.search(question) or _BY_TIME_WORDS.search(question):
        return None
    most, least = _FARTHEST.search(question), _SHORTEST.search(question)
    if (most is None) == (least is None) or len(sports_named(question)) != 1:
        return None

    def measured(node: Node) -> Node | None:   # the EXTRACT below a chain of FILTERs, extracting the distance too
        if node.operator == "FILTER" and len(node.children) == 1:
            below = measured(node.children[0])
            return None if below is None else Node(node.question, node.call, (below,))
        if node.operator != "EXTRACT":
            return None
        if _DISTANCE in tuple(node.call.get("attr_names") or ()):
            return node
        return extracting(node, _DISTANCE, FuncRef("float"))

    below = measured(tree.children[0])
    if below is None:
        return None
    operator = "ARGMAX" if most else "ARGMIN"
    return Node.from_step(tree.question, f"{operator}(l={format_value(Qud(below.question))}, "
                                         f"arg_attr_name={format_value(_DISTANCE)}, val_attr_name={format_value(day)})",
                          (below,))


_COUNT_OF_L = re.compile(r"\blen\(\s*l\s*\)")


def orders_counted(tree: Node, question: str) -> Node | None:
    """`tree` counting the units its events belong to (an order's lines by their `order_id`) where `question`
    counts such units ("how many Amazon orders ...") and a count of the tree (`len`) counts only that source's
    events; None otherwise. An event without the key counts as one of its own."""
    said = {w.lower() for w in TEXT_WORD.findall(question)}
    units = {source: key for source, spec in SOURCES.items() for key, words in spec.unit_words.items()
             if said & set(words)}
    if not units:
        return None
    changed = False

    def walk(node: Node) -> Node:
        nonlocal changed
        children = tuple(walk(child) for child in node.children)
        fct = node.call.get("fct")
        # `len`, or a lambda that counts its list ("lambda l: len(l) / 12": a count per month)
        counts = node.operator == "APPLY" and (fct == FuncRef("len") or
                                               (isinstance(fct, Lambda) and _COUNT_OF_L.search(fct.source)))
        sources = _sources_searched(node) if counts else set()
        if counts and len(sources) == 1 and next(iter(sources)) in units:
            key = format_value(units[next(iter(sources))])
            distinct = f'len({{i.get({key}) or i["id"] for i in l}})'
            counted = (Lambda(f"lambda l: {distinct}") if fct == FuncRef("len")
                       else Lambda(_COUNT_OF_L.sub(distinct, fct.source)))
            changed = True
            args = tuple((name, counted if name == "fct" else value) for name, value in node.call.args)
            return Node(node.question, Call("APPLY", args), children)
        if all(new is old for new, old in zip(children, node.children)):
            return node
        return Node(node.question, node.call, children)

    result = walk(tree)
    return result if changed else None


def _sources_searched(node: Node) -> set[str]:
    """The sources the RETRIEVE queries below `node` name ("I bought something online": online_purchase), each
    query by the sources its words name; an unnamed query names none."""
    found: set[str] = set()
    for leaf in node.walk():
        query = leaf.call.get("query") if leaf.operator == "RETRIEVE" else None
        if isinstance(query, str):
            names_any = any(w.lower() in NAMING_WORDS for w in TEXT_WORD.findall(query))
            found |= sources_meant(query) if names_any else {"?"}
    return found


# "by time", "by listening hours", "the most time", "the least minutes", "most of my listening time": groups ranked by
# the time their events took
_BY_TIME = re.compile(r"\b(?:by\s+(?:(?:listening|watching|playing|screen)\s+)?(?:time|hours|minutes)|"
                      r"(?:the\s+)?(?:most|least)\s+(?:time|hours|minutes)|"
                      r"most\s+of\s+(?:my|the|our)\s+(?:(?:listening|watching|viewing|playing|screen)\s+)?time)\b",
                      re.I)
# the durations a tree may rank single events by ("the Netflix series I sunk the most hours into" ranked one episode)
_DURATIONS = frozenset({"duration", "duration_s", "ms_played", "hours", "minutes", "duration_h", "duration_min"})
# what each group measures then: the hours of its events (the engine's derived `duration`, in seconds: a play's
# ms_played, else its end minus its start)
HOURS_OF_GROUP = 'lambda group: sum(i["duration"] for i in group) / 3600'


def time_measured(tree: Node, question: str) -> Node | None:
    """`tree` ranking groups by the hours of their events where it ranked them by their number (an ARGMAX or ARGMIN
    over `len` of each group) and `question` asks by time ("which podcast have I spent the most time listening
    to?"); None otherwise."""
    if tree.operator not in ("ARGMAX", "ARGMIN") or len(tree.children) != 1 or _BY_TIME.search(question) is None:
        return None
    counted = tree.children[0]
    measure = tree.call.get("arg_attr_name")
    value = tree.call.get("val_attr_name")
    if measure in _DURATIONS and counted.operator != "GROUP_BY" and isinstance(value, str) \
            and value not in _START_KEYS and value not in ("title", "id"):
        # one event ranked by its own duration: the groups of the value asked for are ranked by their hours
        step = f"GROUP_BY(l={format_value(Qud(counted.question))}, attr_names=[{format_value(value)}])"
        groups = Node.from_step(f"{counted.question} grouped by {value}", step, (counted,))
    elif (counted.operator != "MAP" or counted.call.get("fct") != FuncRef("len")
            or counted.call.get("res_name") != measure or len(counted.children) != 1
            or counted.children[0].operator != "GROUP_BY"):
        return None
    else:
        groups = counted.children[0]
    step = Call("MAP", (("l", Qud(groups.question)), ("fct", Lambda(HOURS_OF_GROUP)), ("res_name", "hours")))
    hours = Node(f"{groups.question}, in hours", step, (groups,))
    changed = {"l": Qud(hours.question), "arg_attr_name": "hours"}
    args = tuple((name, changed.get(name, value)) for name, value in tree.call.args)
    return Node(tree.question, Call(tree.operator, args), (hours,))


# --- different episodes -----------------------------------------------------------------------------------------
#
# "How many different episodes of The Office have I seen?": an episode is one of a season's, known by the whole
# title of its play ("The Office: Season 2: The Dundies (Episode 1)", "Radiolab - Colors"), not by its name alone,
# which other seasons and shows use too ("Pilot", "Part 1"). The model grouped the plays by the name (`episode`)
# and counted the groups: 34 of 234 episodes of Friends.

_EPISODE_NAMES = frozenset({"episode", "episode_name", "episode_title"})


def episodes_by_title(tree: Node) -> Node | None:
    """`tree` counting the different episodes by the title of their plays where it counted the groups of the plays
    by the episode's name (APPLY `len` over GROUP_BY `episode`); None where it does not."""
    changed = False

    def walk(node: Node) -> Node:
        nonlocal changed
        children = tuple(walk(child) for child in node.children)
        counts = node.operator == "APPLY" and node.call.get("fct") == FuncRef("len")
        grouped = children[0] if counts and len(children) == 1 else None
        names = grouped.call.get("attr_names") if grouped is not None and grouped.operator == "GROUP_BY" else None
        if isinstance(names, (list, tuple)) and len(names) == 1 and str(names[0]).lower() in _EPISODE_NAMES:
            args = tuple((name, ("title",) if name == "attr_names" else value) for name, value in grouped.call.args)
            children = (Node(grouped.question, Call("GROUP_BY", args), grouped.children),)
            changed = True
        if all(new is old for new, old in zip(children, node.children)):
            return node
        return Node(node.question, node.call, children)

    result = walk(tree)
    return result if changed else None


# --- a measure in a unit ----------------------------------------------------------------------------------------
#
# "How long is my average hike, in minutes?", "How long was my longest bike ride, in hours?": the data keeps a
# duration in seconds and a distance in kilometres, and the answer is given in the unit the question names
# (app.engine.units). The model converted it itself and got it wrong: the seconds divided by 60 twice (hours for
# minutes), or the distance measured for "how long ... in hours".

_STORED_QUANTITY = {"time": "duration", "distance": "distance_km"}   # the engine's keys, in seconds and km
_CONVERTING = ("MAP", "UNNEST")


def units_measured(tree: Node, question: str) -> Node | None:
    """`tree` taking its sum, mean, greatest or least of the stored quantity of the kind `question` asks in ("in
    minutes": the duration; "(miles)": the distance), which the engine gives in that unit, where it took it of a
    number its MAPs computed or of a quantity of another kind; None otherwise, or where the question names no unit
    or two ("minutes per km")."""
    asked = asked_unit(question)
    measured = tree.call.get("attr_name")
    if asked is None or tree.operator not in ("SUM", "AVG", "MAX", "MIN") or len(tree.children) != 1 \
            or not isinstance(measured, str):
        return None
    key = _STORED_QUANTITY.get(asked[0])
    events = tree.children[0]
    while events.operator in _CONVERTING and len(events.children) == 1:
        events = events.children[0]
    if key is None or events.operator not in EVENT_STEPS:
        return None
    measured_kind = STORED_UNITS.get(UNITS.get(measured, ""), ("",))[0]
    if events is tree.children[0] and measured_kind == asked[0]:
        return None   # a stored quantity of the kind asked: the engine converts it
    args = tuple((name, Qud(events.question) if name == "l" else key if name == "attr_name" else value)
                 for name, value in tree.call.args)
    return Node(tree.question, Call(tree.operator, args), (events,))


# --- the day of the week of a date ------------------------------------------------------------------------------
#
# "What day of the week was my birthday this year?", "What day of the week is my football training?": the model
# found the date (the latest, the earliest) and answered it; the question asks for its weekday.

# "When did I finish Schitt's Creek?", "what day did I finish The Crown?": a thing is finished at its last event.
# The small model wrote the earliest date (MIN), as for "when did I start watching"; where the question asks when
# something was finished and the root takes the least date, it takes the greatest (rule finished_last).
_FINISHED = re.compile(r"^\s*(?:when|(?:on\s+)?(?:what|which)\s+(?:day|date))\s+(?:did|have)\s+(?:i|we)\s+"
                       r"(?:finish(?:ed)?|complete(?:d)?)\b", re.I)


def finished_last(tree: Node, question: str) -> Node | None:
    """`tree` taking the latest date where `question` asks when something was finished and its root takes the
    earliest; None otherwise."""
    if _FINISHED.search(question) is None or tree.operator != "MIN" or tree.call.get("attr_name") not in _START_KEYS:
        return None
    return Node(tree.question, Call("MAX", tree.call.args), tree.children)


_WEEKDAY_ASKED = re.compile(r"^\s*(?:on\s+)?(?:what|which)\s+(?:day\s+of\s+the\s+week|weekday)\b", re.I)
_START_KEYS = frozenset(("start_date", "start_datetime", "date", "datetime", "day", "timestamp"))


def weekday_asked(tree: Node, question: str) -> Node | None:
    """`tree` giving the weekday of the date it gives (MAX or MIN of a start, or the start of an ARGMAX or ARGMIN)
    where `question` asks "what day of the week ..."; None otherwise."""
    if _WEEKDAY_ASKED.search(question) is None or len(tree.children) != 1:
        return None
    if tree.operator in ("MAX", "MIN") and tree.call.get("attr_name") in _START_KEYS:
        ranked, operator = tree.call.get("attr_name"), "ARGMAX" if tree.operator == "MAX" else "ARGMIN"
    elif tree.operator in ("ARGMAX", "ARGMIN") and tree.call.get("val_attr_name") in _START_KEYS:
        ranked, operator = tree.call.get("arg_attr_name"), tree.operator
    else:
        return None
    below = tree.children[0]
    return Node.from_step(tree.question, f"{operator}(l={format_value(Qud(below.question))}, "
                                         f'arg_attr_name={format_value(ranked)}, val_attr_name="weekday")', (below,))


# --- books finished ------------------------------------------------------------------------------------------------
# "What book did I finish in January?", "how many books did I finish in 2023": the books the person's own notes say
# they finished ("Finished “The Bee Sting” by Paul Murray."; app.extract.diary), in the year or month asked. The model
# had counted the mails or purchases that name a book.

_BOOKS_FINISHED = re.compile(r"^(?:(?P<which>what|which)\s+(?P<noun>books?)|how\s+many\s+books)\s+(?:did|have)\s+"
                             r"(?:i|we)\s+(?:finish|finished|read)\b(?P<rest>.*)$", re.I)


def books_finished(question: str) -> Node | None:
    """The tree of a question for the books finished (which, or how many), or None for other questions."""
    text = " ".join(question.split()).strip(" ?.!")
    match = _BOOKS_FINISHED.match(text)
    if match is None:
        return None
    rest = match.group("rest").strip()
    dated = DATED.match(rest)
    if rest and dated is None:
        return None
    q = lambda t: format_value(Qud(t))  # noqa: E731
    test, said = 'attr.get("book_finished") is not None', ""
    if dated is not None:
        test += f" and {started_in(dated)}"
        said = f" {rest}"
    mails = Node.from_step("my emails", 'RETRIEVE(query="my emails")')
    read = Node.from_step("my emails with the book they say I finished", f'EXTRACT(l={q(mails.question)}, '
                          f'attr_names=["book_finished"], attr_types=[str])', (mails,))
    books = Node.from_step(f"the books I finished{said}", f"FILTER(l={q(read.question)}, filter=lambda attr: {test})",
                           (read,))
    if match.group("which") is None:
        return Node.from_step(question, f"APPLY(l={q(books.question)}, fct=len)", (books,))
    if match.group("noun").lower() == "book":   # one book: the last finished
        return Node.from_step(question, f'ARGMAX(l={q(books.question)}, arg_attr_name="start_datetime", '
                              f'val_attr_name="book_finished")', (books,))
    return Node.from_step(question, f'APPLY(l={q(books.question)}, fct=lambda l: sorted({{i["book_finished"] '
                          f'for i in l}}))', (books,))


# --- concerts ------------------------------------------------------------------------------------------------------
# "how many concerts did i go to", "which concert did i go to in november?", "who did I see at Malahide Castle?",
# "How much have I spent on concert tickets altogether?", "which concert tickets cost me the most": the concerts are
# the tickets' mails (app.extract.tickets: the act and venue of "Your tickets: Khruangbin – Stadtpark Open Air", the
# day the text names), dated by the concert's day, not the mail's; what they cost is the mail's total. The model had
# searched "I went to a concert", which found the artists' songs.

_GIG = r"(?:concerts?|gigs?)"
_CONCERTS = (   # the shape, the question
    ("count", re.compile(rf"^how\s+many\s+{_GIG}\s+(?:did|have)\s+(?:i|we)\s+(?:go\s+to|gone\s+to|been\s+to|"
                         rf"attend(?:ed)?|see|seen|buy\s+tickets\s+for|bought\s+tickets\s+for)(?P<rest>.*)$", re.I)),
    ("list", re.compile(rf"^(?:which|what)\s+{_GIG}\s+(?:did|have)\s+(?:i|we)\s+(?:go\s+to|gone\s+to|been\s+to|"
                        rf"attend(?:ed)?|see|seen)(?P<rest>.*)$", re.I)),
    ("at", re.compile(r"^who\s+did\s+(?:i|we)\s+see\s+(?:at|in)\s+(?P<venue>.+?)(?P<rest>)$", re.I)),
    ("spent", re.compile(rf"^how\s+much\s+(?:did|have)\s+(?:i|we)\s+(?:spend|spent|paid|pay)\s+(?:on|for)\s+"
                         rf"(?:concert|gig)\s+tickets(?P<rest>.*)$", re.I)),
    ("dearest", re.compile(rf"^(?:which|what)\s+(?:concert|gig)\s+tickets?\s+cost\s+(?:me\s+|us\s+)?the\s+most"
                           rf"(?P<rest>.*)$", re.I)),
)
_ALTOGETHER = re.compile(r"^\s*(?:altogether|in\s+total|all\s+together|so\s+far|ever)?\s*$", re.I)


def concerts_asked(question: str) -> Node | None:
    """The tree of a question about the concerts the person had tickets for, or None for other questions."""
    text = " ".join(question.split()).strip(" ?.!")
    for shape, pattern in _CONCERTS:
        match = pattern.match(text)
        if match is not None:
            break
    else:
        return None
    rest = match.group("rest").strip()
    dated = DATED.match(rest)
    if dated is None and not _ALTOGETHER.match(rest):
        return None
    q = lambda t: format_value(Qud(t))  # noqa: E731
    tests, said = ['attr.get("performer") is not None and attr.get("event_day") is not None'], ""
    if dated is not None:
        tests.append(started_in(dated, 'attr["event_day"]'))
        said = f" {rest}"
    if shape == "at":
        venue = re.sub(r"^the\s+", "", match.group("venue").strip(), flags=re.I)
        tests.append(f'{format_value(venue.lower())} in str(attr.get("ticket_venue") or "").lower()')
        said = f" at {venue}"
    names = '"performer", "ticket_venue", "event_day"'
    mails = Node.from_step("my emails", 'RETRIEVE(query="my emails")')
    read = Node.from_step("my emails with the act, venue and day of a ticket", f'EXTRACT(l={q(mails.question)}, '
                          f'attr_names=[{names}], attr_types=[str, str, date.fromisoformat])', (mails,))
    gigs = Node.from_step(f"the concerts I had tickets for{said}", f"FILTER(l={q(read.question)}, filter=lambda "
                          f"attr: {' and '.join(tests)})", (read,))
    if shape == "count":
        return Node.from_step(question, f"APPLY(l={q(gigs.question)}, fct=len)", (gigs,))
    if shape == "list":   # "which concert did I go to in November?": the one, or each of them
        return Node.from_step(question, f'APPLY(l={q(gigs.question)}, fct=lambda l: sorted({{i["performer"] for i '
                              f'in l}}) if len(l) != 1 else l[0]["performer"])', (gigs,))
    if shape == "at":
        return Node.from_step(question, f'ARGMAX(l={q(gigs.question)}, arg_attr_name="event_day", '
                              f'val_attr_name="performer")', (gigs,))
    paid = Node.from_step(f"{gigs.question} with amount paid", f'EXTRACT(l={q(gigs.question)}, attr_names=["total"], '
                          f'attr_types=[float])', (gigs,))
    if shape == "spent":
        return Node.from_step(question, f'SUM(l={q(paid.question)}, attr_name="total")', (paid,))
    return Node.from_step(question, f'ARGMAX(l={q(paid.question)}, arg_attr_name="total", val_attr_name="performer")',
                          (paid,))


# --- card payments -------------------------------------------------------------------------------------------------
# "how many times did I eat out in March 2024?", "How much did I spend eating out in April 2024?", "how much did I
# spend on groceries last month?", "How many times have I eaten at Lotus Garden?": where the person's statements come
# by mail, each meal out or shop is a line of one (app.extract.statements: its day, payee and category), and the
# lines of the category (restaurants, groceries) or payee asked are counted or their amounts summed, by the line's
# day. Asked only where the data holds statements (the calendar answers for data without them).

_PAID_FOR = (   # the words that ask for a category, the test of a line's category, how the lines are called
    (re.compile(r"\b(?:eat(?:ing|en)?\s+out|(?:went|go|gone)\s+out\s+to\s+eat|dining\s+out|restaurants?|caf[eé]s)\b",
                re.I), '"restaurant" in attr["line"]["category"].lower()', " at restaurants"),
    (re.compile(r"\b(?:grocer(?:y|ies)|supermarkets?)\b", re.I), '"grocer" in attr["line"]["category"].lower()',
     " for groceries"),
    (re.compile(r"\b(?:on|with)\s+my\s+(?:credit\s+|debit\s+|bank\s+)?card\b", re.I), "True", ""),
)
_COUNT_PAID = re.compile(r"^how\s+many\s+times\s+(?:did|have)\s+(?:i|we)\s+(?P<what>.+?)(?P<rest>\s+(?:in|during)\s+"
                         r"(?:(?:" + "|".join(MONTH_NAMES) + r")\s+)?(?:19|20)\d\d)?$", re.I)
_SUM_PAID = re.compile(r"^how\s+much\s+(?:did|have)\s+(?:i|we)\s+(?:spend|spent)\s+(?P<what>.+?)"
                       r"(?P<rest>\s+(?:in|during)\s+(?:(?:" + "|".join(MONTH_NAMES) + r")\s+)?(?:19|20)\d\d)?$", re.I)
_EATEN_AT = re.compile(r"^(?:eat(?:en)?|eaten\s+out|had\s+(?:lunch|dinner|a\s+meal))\s+at\s+(?P<payee>[A-Z][\w'’&-]*"
                       r"(?:\s+[A-Z][\w'’&-]*){0,3})$")
_PAID_OTHER = re.compile(r"\b(?:or|than|average|per|most|least|who|with|alone|own|while|during|trip|birthday|"
                         r"takeaway|delivery|order\w*)\b", re.I)


def card_payments_asked(question: str) -> Node | None:
    """The tree of a question counting or summing the statement lines of a category or payee, or None for other
    questions."""
    text = " ".join(question.split()).strip(" ?.!")
    match = _COUNT_PAID.match(text) or _SUM_PAID.match(text)
    if match is None or _PAID_OTHER.search(match.group("what")):
        return None
    what = match.group("what")
    eaten = _EATEN_AT.match(what) if match.re is _COUNT_PAID else None
    if eaten is not None:
        test = f'{format_value(eaten.group("payee").upper())} in attr["line"]["payee"].upper()'
        said = f" at {eaten.group('payee')}"
    else:
        test, said = next(((test, said) for words, test, said in _PAID_FOR if words.search(what)), (None, ""))
        words = re.sub(r"\b(?:on|in|at|for|my|the|eat(?:ing|en)?\s+out|out|to|eat|go|went|gone|spend|spent|"
                       r"dining|restaurants?|caf[eé]s|grocer(?:y|ies)|supermarkets?|card|credit|debit|bank|with|and)\b",
                       " ", what, flags=re.I)
        if test is None or words.strip():
            return None
    rest = (match.group("rest") or "").strip()
    if rest:
        said += f" {rest}"
        test += " and " + started_in(DATED.match(rest), 'attr["line"]["day"]')
    q = lambda t: format_value(Qud(t))  # noqa: E731
    mails = Node.from_step("my emails", 'RETRIEVE(query="my emails")')
    read = Node.from_step("my statements' lines", f'EXTRACT(l={q(mails.question)}, attr_names=["statement_lines"], '
                          'attr_types=[list])', (mails,))
    statements = Node.from_step("my statements", f'FILTER(l={q(read.question)}, filter=lambda attr: '
                                'attr.get("statement_lines") is not None)', (read,))
    lines = Node.from_step("every line of my statements", f'UNNEST(l={q(statements.question)}, '
                           'nested_attr_name="statement_lines", unnested_attr_name="line")', (statements,))
    dated = Node.from_step("every line of my statements, on its day", f'MAP(l={q(lines.question)}, fct=lambda attr: '
                           'attr["line"]["day"], res_name="start_datetime")', (lines,))   # a line's day, not its mail's
    spent = Node.from_step("every line of my statements, with its amount", f'MAP(l={q(dated.question)}, fct=lambda '
                           'attr: attr["line"]["spent"], res_name="spent")', (dated,))
    asked = Node.from_step(f"my card payments{said}", f"FILTER(l={q(spent.question)}, filter=lambda attr: "
                           f"{test})", (spent,))
    if match.re is _COUNT_PAID:
        return Node.from_step(question, f"APPLY(l={q(asked.question)}, fct=len)", (asked,))
    return Node.from_step(question, f'SUM(l={q(asked.question)}, attr_name="spent")', (asked,))
