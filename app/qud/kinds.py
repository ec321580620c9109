"""What a search calls a named thing: the kind of events the data holds it as.

The small model guesses the kind of a name it does not know: "How many episodes of Friends have I watched?"
becomes the search "I watched the podcast Friends", "did I listen to more Huberman Lab or Conan O'Brien Needs a
Friend?" searches "the audiobook Conan O'Brien Needs a Friend". The search then looks among podcasts or
audiobooks, where the name is not, and finds nothing or something else. The data knows what the name is: a value of
one source's name keys (app.sources: a series, a podcast's show, an artist). Where the question itself does not
say the kind, a kind noun the search wrote for a name that the data holds only under another kind is replaced by
that kind's noun, or dropped where a search finds that kind without one (songs: "I listened to Fleetwood Mac")
(rule named_kinds). A name said short or not held at all (short_names, unheld_names), a shop known only by its mails
(shop_mails) and the time spent on a named thing (named_time_frame) are read from the data's names the same way.

    named_kind("I watched the podcast Friends", "How many episodes of Friends have I watched?",
               {"tvseries_stream": {"friends"}})     # "I watched the series Friends"
"""

from __future__ import annotations

import re
from typing import Callable, Mapping

from app.engine.syntax import Qud, format_value
from app.engine.tree import Node
from app.qud.frames import MAIL_WORDS, SERVICE_SOURCES, sources_meant
from app.lexicon import MONTH_NAMES
from app.qud.occasions import DATED, started_in
from app.qud.periods import each_search_narrowed, kept_where
from app.qud.validate import TEXT_WORD
from app.sources import PURCHASE_HISTORIES, SOURCES

# the kind nouns a search writes before a name -> the source they say the name is of
CLAIMED_KINDS: Mapping[str, str] = {
    "podcast": "podcast_stream", "audiobook": "audiobook_stream", "series": "tvseries_stream",
    "show": "tvseries_stream", "tv show": "tvseries_stream", "tv series": "tvseries_stream",
    "movie": "movie_stream", "film": "movie_stream", "song": "music_stream", "track": "music_stream",
    "artist": "music_stream", "band": "music_stream", "album": "music_stream",
}
# how a search names a thing of each source ("" for songs: "I listened to Fleetwood Mac" finds them)
KIND_OF_SOURCE: Mapping[str, str] = {
    "podcast_stream": "podcast", "audiobook_stream": "audiobook", "tvseries_stream": "series",
    "movie_stream": "movie", "music_stream": "",
}
_CLAIM = re.compile(r"\b(?P<the>the|a|an)\s+(?P<kind>" + "|".join(sorted(CLAIMED_KINDS, key=len, reverse=True))
                    + r")\s+(?P<name>\S.*)$", re.I)


def named_kind(query: str, question: str, names: Mapping[str, frozenset[str] | set[str]]) -> str | None:
    """`query` with the kind noun before a name replaced by the kind the data holds the name as (`names`: source ->
    its name values in lower case); None where the query writes no kind before a name, the question says that kind
    itself, the data holds the name as that kind too, or as none or several other kinds the query's verb allows."""
    claim = _CLAIM.search(query)
    if claim is None:
        return None
    kind = claim.group("kind").lower()
    if re.search(rf"\b{re.escape(kind)}s?\b", question, re.I):   # the person said the kind
        return None
    words = claim.group("name").split()
    # the longest run of the words after the kind noun that is a name of the data
    for end in range(len(words), 0, -1):
        name = " ".join(words[:end]).strip(" ?.,!").lower()
        holders = {source for source, values in names.items() if name in values}
        if holders:
            break
    else:
        return None
    if CLAIMED_KINDS[kind] in holders:
        return None
    rest = query[:claim.start()] + query[claim.end("kind"):]
    allowed = sources_meant(rest)
    holders = {source for source in holders if source in KIND_OF_SOURCE and (not allowed or source in allowed)}
    if len(holders) != 1:
        return None
    noun = KIND_OF_SOURCE[next(iter(holders))]
    said = f"{claim.group('the')} {noun}" if noun else ""
    return " ".join((query[:claim.start()] + said + query[claim.end("kind"):]).split())


def named_kinds(tree: Node, question: str, names: Callable[[], Mapping[str, frozenset[str]]]) -> Node | None:
    """`tree` with each RETRIEVE's query naming a thing as the kind the data holds it as (`named_kind`); None where
    none changed. `names` is read only when a query writes a kind noun before a name."""

    return _each_query_rewritten(tree, names, lambda query, known: named_kind(query, question, known))


def _each_query_rewritten(tree: Node, names: Callable[[], Mapping[str, frozenset[str]]],
                          rewrite: Callable[[str, Mapping[str, frozenset[str]]], str | None]) -> Node | None:
    """`tree` with each RETRIEVE's query replaced by `rewrite(it, the data's names)` where that gives one; None where
    none changed."""

    def searched(retrieve: Node, query: str, known: Mapping[str, frozenset[str]]) -> Node | None:
        better = rewrite(query, known)
        return None if better is None else Node.from_step(better, f"RETRIEVE(query={format_value(better)})")

    return _each_claim(tree, names, searched)


def _each_claim(tree: Node, names: Callable[[], Mapping[str, frozenset[str]]],
                rewrite: Callable[[Node, str, Mapping[str, frozenset[str]]], Node | None]) -> Node | None:
    """`tree` with each RETRIEVE replaced by `rewrite(it, its query, the data's names)` where that gives a node; None
    where none changed. The names are read only when a query writes a kind noun before a name."""
    queries = [node.call.get("query") for node in tree.walk() if node.operator == "RETRIEVE"]
    if not any(isinstance(q, str) and _CLAIM.search(q) for q in queries):
        return None
    known = names()

    def rewritten(retrieve: Node) -> Node:
        query = retrieve.call.get("query")
        new = rewrite(retrieve, query, known) if isinstance(query, str) else None
        return retrieve if new is None else new

    return each_search_narrowed(tree, rewritten)


# --- a name said short ---------------------------------------------------------------------------------------------
#
# A person names a show or an artist by part of its name: "huberman" for Huberman Lab, "tim ferriss" for The Tim
# Ferriss Show, "conan" for Conan O'Brien Needs a Friend. The search "I listened to the podcast huberman" names no
# show of the data, finds every podcast played, and a count over it answers for them all. Where the words are whole
# words of exactly one name the data holds, of a kind the search's verb allows, the search names that (rule
# short_names).

def short_name(query: str, question: str, names: Mapping[str, frozenset[str] | set[str]]) -> str | None:
    """`query` naming in full the one name of the data (`names`: source -> its name values in lower case) that the
    words after its kind noun are part of ("the podcast huberman" -> "the podcast huberman lab"); None where the
    query writes no kind before a name, the question does not write those words, the data holds them as a name
    themselves, or they are part of no name or of several."""
    claim = _CLAIM.search(query)
    if claim is None:
        return None
    name = re.sub(r"^(?:by|of)\s+", "", claim.group("name").strip(" ?.,!'\"").lower())
    if len(name) < 4 or len(name.split()) > 4 or _NOT_A_NAME.search(name) or name not in question.lower():
        return None
    if any(name in values for values in names.values()):
        return None
    allowed = sources_meant(query[:claim.start()]) or set(KIND_OF_SOURCE)
    within = re.compile(rf"(?<!\w){re.escape(name)}(?!\w)")
    holders = {(source, value) for source, values in names.items() if source in allowed and source in KIND_OF_SOURCE
               for value in values if within.search(value)}
    if len(holders) != 1:
        return None
    source, value = next(iter(holders))
    noun = KIND_OF_SOURCE[source]
    said = f"{claim.group('the')} {noun}" if noun else ""
    return " ".join(f"{query[:claim.start()]} {said} {value}".split())


def short_names(tree: Node, question: str, names: Callable[[], Mapping[str, frozenset[str]]]) -> Node | None:
    """`tree` with each RETRIEVE's query naming in full a name the question said short (`short_name`); None where
    none changed. `names` is read only when a query writes a kind noun before a name."""

    return _each_query_rewritten(tree, names, lambda query, known: short_name(query, question, known))


# --- a name the data does not hold --------------------------------------------------------------------------------
#
# "have i ever listened to coldplay" searches "I listened to the podcast coldplay"; "How many episodes of The Daily
# did I play last year?" searches "I listened to the podcast The Daily". Where the data holds no such name (no
# artist, show, series or title is called so), the search still finds the kind (every podcast played), and a count
# or a yes/no over it answers for them all. A name is words the events must write: the search keeps those that
# write it, none where the data never does (rule unheld_names).

_NOT_A_NAME = re.compile(r"\b(?:in|on|at|with|by|during|from|for|while|before|after|since|until|of|and|or)\b",
                         re.I)


def unheld_name(query: str, question: str, names: Mapping[str, frozenset[str] | set[str]]) -> str | None:
    """The name a search's query calls a thing of some kind ("the podcast coldplay": "coldplay") where no name of
    the data (`names`: source -> its name values in lower case) is it or holds it, and the question writes it too;
    None otherwise, or where the words after the kind say more than a name (a time, a place, a person)."""
    claim = _CLAIM.search(query)
    if claim is None:
        return None
    name = claim.group("name").strip(" ?.,!'\"").lower()
    if not name or len(name.split()) > 4 or _NOT_A_NAME.search(name) or name not in question.lower():
        return None
    if any(name in value for values in names.values() for value in values):
        return None
    return name


def unheld_names(tree: Node, question: str, names: Callable[[], Mapping[str, frozenset[str]]]) -> Node | None:
    """`tree` with each search for a name the data does not hold (`unheld_name`) kept to the events that write it;
    None where no search names one. `names` is read only when a query writes a kind noun before a name."""

    def kept(retrieve: Node, query: str, known: Mapping[str, frozenset[str]]) -> Node | None:
        name = unheld_name(query, question, known)
        if name is None:
            return None
        return kept_where(retrieve, f'{format_value(name)} in (str(attr["title"]) + " " + str(attr["text"])).lower()')

    return _each_claim(tree, names, kept)


# --- a shop known by its mails ---------------------------------------------------------------------------------------
#
# "How many Munchbox orders did I make this year?", "total spent on Gobble in 2023", "how many times have i ordered
# takeaway on munchbox?": the purchase history the data may hold is one shop's (Amazon's); a shop or service that is
# not in it (a food delivery app, a booking site) is known by the mails it sends, each order's confirmation. The
# small model searches "I bought something online" or "I ate at a restaurant", which finds the Amazon purchases or
# the meals out, and a FILTER then keeps the few that write the name (a bank statement's line). Where the question
# names a sender that mails the person again and again and is never written to or met (app.people.mailing_services),
# whose name no purchase and no source's service has, a search for purchases or meals is that sender's mails (rule
# shop_mails); what each cost is its receipt's total line (app.extract.receipts). Where it names the shop whose
# purchases the data holds ("how much did I spend on amazon this year"), a search for purchases keeps the purchases:
# another shop's receipt it finds has a total too now.

SHOP_MAILS_AT_LEAST = 5   # a shop one orders from again and again, not a one-off booking site
_MEAL_WORDS = frozenset("ate eat eaten eating meal meals food restaurant restaurants takeaway takeaways takeout "
                        "delivery dinner dinners lunch lunches breakfast brunch".split())


def ordering_search(query: str) -> bool:
    """Whether a search's query looks for purchases ("I bought something online") or meals ("I ate at a
    restaurant")."""
    words = {w.lower() for w in TEXT_WORD.findall(query)}
    return sources_meant(query) == frozenset({"online_purchase"}) or bool(words & _MEAL_WORDS)


def shops_of(services: Mapping[str, str], products: frozenset[str]) -> dict[str, str]:
    """The mailing services (`services`: name in lower case -> as written) that are shops the purchase history
    does not hold: not a source's service (Amazon, Netflix), and no product (`products`, in lower case) names it."""
    sourced = re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, SERVICE_SOURCES))) + r")\b")
    return {low: name for low, name in services.items()
            if not sourced.search(low) and not any(_names(low, product) for product in products)}


def _names(name: str, text: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text, re.I) is not None


def shop_mails(tree: Node, question: str, shops: Callable[[], Mapping[str, str]]) -> Node | None:
    """`tree` with each search for purchases or meals that does not name it replaced by the mails of the one shop
    the question names (`shops`: name in lower case -> as written), or each search for purchases kept to the
    purchases where it names a shop whose purchase history the data holds; None where no search looks for purchases
    or meals, or the question names no shop or two. `shops` is read only where a search does."""
    queries = [node.call.get("query") for node in tree.walk() if node.operator == "RETRIEVE"]
    if not any(isinstance(q, str) and ordering_search(q) for q in queries):
        return None
    history = [source for shop, source in PURCHASE_HISTORIES.items() if _names(shop, question)]
    asks_mail = bool({w.lower() for w in TEXT_WORD.findall(question)} & MAIL_WORDS)   # "newsletters from Amazon"
    if history and not asks_mail:   # "how much did I spend on amazon": its purchases, not another shop's receipt
        return each_search_narrowed(tree, lambda retrieve: _purchases_kept(retrieve, history))
    named = {name for low, name in shops().items() if _names(low, question)}
    if len(named) != 1:
        return None
    shop = next(iter(named))

    def mails(retrieve: Node) -> Node:
        query = retrieve.call.get("query")
        if not isinstance(query, str) or not ordering_search(query) or _names(shop, query):
            return retrieve
        searched = Node.from_step(f"my {shop} orders", f"RETRIEVE(query={format_value(f'my {shop} orders')})")
        test = f'attr["source"] == "mail" and str(attr.get("from_name")).lower() == {format_value(shop.lower())}'
        return kept_where(searched, test, about=f"every mail from {shop}")

    return each_search_narrowed(tree, mails)


def _purchases_kept(retrieve: Node, sources: list[str]) -> Node:
    """`retrieve` kept to the events of `sources` where it searches for purchases."""
    query = retrieve.call.get("query")
    if not isinstance(query, str) or sources_meant(query) != frozenset({"online_purchase"}):
        return retrieve
    return kept_where(retrieve, " or ".join(f'attr["source"] == {format_value(source)}' for source in sources))


# --- takeaway orders -------------------------------------------------------------------------------------------
# "Which takeaway place do I order from the most?", "How many food delivery orders did I place in the past 30 days?",
# "how much have i spent on food delivery this year", "How many times have I ordered from Saigon Kitchen?": a
# takeaway is ordered by mail, and its mail says where from ("Your Gobble order from Sushi Kaito";
# app.extract.meals.order_place). The model searched purchases, or meals eaten out ("I ate at a takeaway").

_TAKEAWAY = re.compile(r"\b(?:take-?aways?|take-?outs?|(?:food\s+)?deliver(?:y|ies)|food\s+orders?)\b", re.I)
_ORDERED_FROM = re.compile(r"\border(?:ed|s)?\s+(?:food\s+|delivery\s+|takeaway\s+)?from\s+"
                           r"(?P<place>[A-Z][\w'’&-]*(?:\s+[A-Z][\w'’&-]*){0,3})")
_TAKEAWAY_MOST = re.compile(r"^(?:which|what)(?:'s|\s+is|\s+was)?\s+(?:the\s+|my\s+)?(?:takeaway|take-?out|"
                            r"restaurant|place|delivery\s+place|food\s+place)s?\b.*\border\w*\b.*\bmost\b", re.I)
_TAKEAWAY_SUM = re.compile(r"^(?:how\s+much|what)\b.*\b(?:spen[dt]|pa(?:y|id)|cost)\b", re.I)
# what else such a question may ask or say, which the frame does not read: a comparison, an average, a time named by
# what happened then ("while away on a trip")
_TAKEAWAY_OTHER = re.compile(r"\b(?:or|than|average|per|first|last|latest|when|who|dish|ate|eat|while|whilst|during|"
                             r"after|before|since|until|trip|holiday|birthday|weekend|weekday)\b", re.I)


def takeaway_asked(question: str) -> Node | None:
    """The tree of a question about the takeaways ordered (their number, what they cost, the place ordered from
    most), or None for other questions (a comparison, an average, a shop whose purchases the data holds)."""
    text = " ".join(question.split()).strip(" ?.!")
    named = _ORDERED_FROM.search(text)
    if not (_TAKEAWAY.search(text) or named) or _TAKEAWAY_OTHER.search(text) or \
            any(_names(shop, text) for shop in PURCHASE_HISTORIES):
        return None
    if _TAKEAWAY_MOST.match(text):
        shape = "most"
    elif re.match(r"^how\s+many\b", text, re.I):
        shape = "count"
    elif _TAKEAWAY_SUM.match(text):
        shape = "sum"
    else:
        return None
    q = lambda t: format_value(Qud(t))  # noqa: E731
    tests, said = ['attr.get("restaurant_ordered_from") is not None'], ""
    if named is not None and shape != "most":   # a restaurant ("from Saigon Kitchen") or the app ("from Gobble")
        place = format_value(named.group("place").lower())
        tests.append(f'(attr["restaurant_ordered_from"].lower() == {place} or '
                     f'str(attr.get("from_name")).lower() == {place})')
        said += f" from {named.group('place')}"
    dated = re.search(r"\b(?:in|during)\s+(?:(?P<month>" + "|".join(MONTH_NAMES) + r")\s+(?:of\s+)?)?"
                      r"(?P<year>(?:19|20)\d\d)\b", text, re.I)
    if dated is not None:
        tests.append(started_in(dated))
        said += " " + dated.group(0).strip()
    mails = Node.from_step("my emails", 'RETRIEVE(query="my emails")')
    read = Node.from_step("my emails with where food was ordered from",
                          f'EXTRACT(l={q(mails.question)}, attr_names=["restaurant_ordered_from"], '
                          f'attr_types=[str])', (mails,))
    orders = Node.from_step(f"my takeaway orders{said}",
                            f"FILTER(l={q(read.question)}, filter=lambda attr: {' and '.join(tests)})", (read,))
    if shape == "count":
        return Node.from_step(question, f"APPLY(l={q(orders.question)}, fct=len)", (orders,))
    if shape == "sum":
        paid = Node.from_step(f"{orders.question} with amount paid", f'EXTRACT(l={q(orders.question)}, '
                              f'attr_names=["total"], attr_types=[float])', (orders,))
        return Node.from_step(question, f'SUM(l={q(paid.question)}, attr_name="total")', (paid,))
    grouped = Node.from_step(f"{orders.question} grouped by where they were ordered from",
                             f'GROUP_BY(l={q(orders.question)}, attr_names=["restaurant_ordered_from"])', (orders,))
    counted = Node.from_step(f"number of {orders.question} per place", f'MAP(l={q(grouped.question)}, fct=len, '
                             f'res_name="count")', (grouped,))
    return Node.from_step(question, f'ARGMAX(l={q(counted.question)}, arg_attr_name="count", '
                          f'val_attr_name="restaurant_ordered_from")', (counted,))


# --- the time spent on a named thing -----------------------------------------------------------------------------
#
# "How many hours have I spent listening to the Where the Crawdads Sing audiobook?", "how many hours of Project Hail
# Mary have I listened to", "how much time have I spent watching Queer Eye?" (and each side of "Ozark vs Stranger
# Things, which did I put more hours into?"): the time spent on one thing the data
# holds by name (an audiobook, a podcast, a series, an artist). The small model wrote malformed trees for some (a
# FILTER on a title equal to the book's name, where each chapter has its own title; no tree at all), so the tree is
# written here: the plays of that name (the source's events whose name is it), in the year or month the question
# names, their durations summed, which the engine gives in the unit asked. Only a name the data holds: "hours of
# netflix", "of podcasts" are no one thing.

_SPENT_ON = re.compile(
    r"^(?:(?:roughly|about|approximately|in\s+total|total)\s*,?\s+)?"
    r"(?:(?:how\s+many\s+|total\s+)(?:hours|minutes)|(?P<no_unit>how\s+much\s+time))(?:\s+in\s+total)?\s+(?:"
    r"(?:have|did|had)\s+(?:i|we)\s+(?:spent|spend)\s+(?:(?:listening|listened)\s+to|watching|on|streaming)\s+"
    r"(?P<name>.+?)"
    r"|(?:i've|i’ve|i\s+have|we've)\s+spent\s+(?:(?:listening)\s+to|watching|on|streaming)\s+(?P<name2>.+?)"
    r"|of\s+(?P<name3>.+?)\s+(?:have|did)\s+(?:i|we)\s+(?:listen(?:ed)?\s+to|watch(?:ed)?|stream(?:ed)?|play(?:ed)?)"
    r"|(?:have|did)\s+(?:i|we)\s+put\s+into\s+(?P<name4>.+?)"
    r")(?P<rest>(?:\s+(?:in|during)\s+.+?)?)$", re.I)
_IN_ALL = re.compile(r"\s+(?:in\s+total|altogether|all\s+together|so\s+far|ever)(?=\s*[?.!]*$)", re.I)
_KIND_AFTER = re.compile(r"\s+(?:audiobook|audio\s*book|podcast|series|show|tv\s+show|album|songs?)$", re.I)


def time_on_named(question: str, names: Callable[[], Mapping[str, frozenset[str]]],
                  compared: bool = False) -> Node | None:
    """The tree of a question for the time spent on one thing the data holds by name (`names()`: source -> its
    name values in lower case), or None for other questions, a name the data does not hold or holds as two kinds,
    or a time after it other than a year or a month of a year. "How much time ..." names no unit to answer in, and
    is read only as a side of a comparison (`compared`), where the two times are only compared."""
    text = _IN_ALL.sub("", " ".join(question.split()).strip(" ?.!")).strip(" ?.!,")
    match = _SPENT_ON.match(text)
    if match is None or match.group("no_unit") and not compared:
        return None
    said = next(match.group(g) for g in ("name", "name2", "name3", "name4") if match.group(g)).strip(" ,")
    rest = match.group("rest") or ""
    dated = DATED.match(rest) if rest.strip() else None
    if rest.strip() and dated is None:
        return None
    known = {source: values for source, values in names().items() if source in KIND_OF_SOURCE}
    # the name as said, or without "the" before it or the kind after it ("the Blindboy Podcast", "the X audiobook")
    for name in dict.fromkeys((said, re.sub(r"^(?:the|my)\s+", "", said, flags=re.I),
                               _KIND_AFTER.sub("", re.sub(r"^(?:the|my)\s+", "", said, flags=re.I)))):
        held = [source for source, values in known.items() if name.lower() in values]
        if held:
            break
    else:   # said short: whole words of exactly one name ("the Tim Ferriss podcast": The Tim Ferriss Show)
        held, name = _one_name_within(name, known)
    if len(held) != 1:
        return None
    source = held[0]
    noun = KIND_OF_SOURCE[source]
    verb = "watched" if source in ("movie_stream", "tvseries_stream") else "listened to"
    query = " ".join(f"I {verb} {'the ' + noun if noun else ''} {name}".split())
    plays = _plays_named(source, name, f"{query}{rest}", query)
    if dated is not None:
        plays = Node.from_step(f"{query}{rest}, dated", f"FILTER(l={format_value(Qud(plays.question))}, "
                                                       f"filter=lambda attr: {started_in(dated)})", (plays,))
    return Node.from_step(question, f'SUM(l={format_value(Qud(plays.question))}, attr_name="duration")', (plays,))


# --- how far into a series ------------------------------------------------------------------------------------------
#
# "what season did i get up to in queer eye?", "what season of drive to survive did i make it to", "what's the
# furthest season of Stranger Things i got to?": the highest season among the episodes of that series played. The
# model counted the plays or searched "I went for a drive". The series is one the data holds, named in full or by
# whole words of exactly one series' name ("drive to survive" for "Formula 1: Drive to Survive").

_SEASON_REACHED = re.compile(
    r"^(?:what|which)(?:'s|’s|\s+is|\s+was)?\s+(?:the\s+)?(?:(?:furthest|farthest|latest|highest|last)\s+)?season\s+"
    r"(?:(?:of|in)\s+(?P<name>.+?)\s+)?(?:(?:did|have|had)\s+(?:i|we)|(?:i|we)(?:'ve|’ve)?)\s+"
    r"(?:get|got|gotten|make|made|reach(?:ed)?|watch(?:ed)?|be(?:en)?)\s*(?:up\s+)?(?:it\s+)?(?:to|on|through)?"
    r"(?:\s+(?:in|of|on)\s+(?P<name2>.+?))?$", re.I)


def _plays_named(source: str, name: str, asked: str, query: str) -> Node:
    """The events of `source` whose name (one of its name keys) is `name`, asked as `asked`. The search is for the
    source's events, which finds them all; the search for the name (`query`, where the source has no phrase) does
    not find every play of a big one (983 of an artist's 1606 songs)."""
    search = SOURCES[source].phrase or query
    test = f'attr["source"] == {format_value(source)} and (' + " or ".join(
        f'str(attr.get({format_value(key)}) or "").lower() == {format_value(name.lower())}'
        for key in SOURCES[source].name_keys) + ")"
    return kept_where(Node.from_step(asked, f"RETRIEVE(query={format_value(search)})", ()), test,
                      about=f"every event about {name}")


def _one_name_within(words: str, known: Mapping[str, frozenset[str]]) -> tuple[list[str], str]:
    """The source and the one name of `known` (source -> names in lower case) that `words` are whole words of, not
    counting the names that merely extend it (an episode's title after its series' name); ([], words) where none or
    several are."""
    within = re.compile(rf"(?<!\w){re.escape(words.lower())}(?!\w)")
    found = {(source, name) for source, values in known.items() for name in values if within.search(name)}
    roots = {(source, name) for source, name in found
             if not any(other != name and name.startswith(other) for _, other in found)}
    if len(words) < 4 or len(roots) != 1:
        return [], words
    source, name = next(iter(roots))
    return [source], name


def season_reached(question: str, names: Callable[[], Mapping[str, frozenset[str]]]) -> Node | None:
    """The tree of a question for the furthest season of a series the person watched, or None for other questions
    or a series the data does not hold (named in full or by whole words of one series' name only)."""
    match = _SEASON_REACHED.match(" ".join(question.split()).strip(" ?.!"))
    if match is None or not (match.group("name") or match.group("name2")):
        return None
    said = re.sub(r"^(?:the\s+)?", "", (match.group("name") or match.group("name2")).strip(" ,"), flags=re.I).lower()
    held = names().get("tvseries_stream", frozenset())
    exact = [name for name in held if name in (said, f"the {said}")]
    if len(exact) == 1:
        series = exact[0]
    else:   # whole words of one series' name, not of its episodes' titles, which the data holds too
        found, series = _one_name_within(said, {"tvseries_stream": held})
        if not found:
            return None
    episodes = _plays_named("tvseries_stream", series, f"I watched the series {said}", f"I watched the series {said}")
    return Node.from_step(question, f'MAX(l={format_value(Qud(episodes.question))}, attr_name="season_number")',
                          (episodes,))
