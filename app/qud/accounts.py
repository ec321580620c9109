"""Whose events on an account several people share: "I" is the owner's profile.

A Netflix account is often a household's: the export holds every profile's viewing ("Siobhán", "Conor", "Guest"),
and "how many hours of Netflix have I watched this year?" asks for the owner's. Where the data holds the events of
several profiles of a source (its spec's `profile_key`) and one of them is the owner's first name, each search
for such events keeps, of those that say a profile, the owner's; events that say none stay. A question
that names another profile ("what does Conor watch most?", "the guest profile") or asks about more than the owner
("we", "our", "who watched ...") is left as it is (rule own_profile).

    own_profile_test("Siobhán Kelly", {"tvseries_stream": {"siobhán", "conor"}}, "how much netflix have i watched?")
    # 'str(attr.get("profile") or "siobhán").lower() == "siobhán"'
"""

from __future__ import annotations

import re
from typing import Callable, Mapping

from app.engine.syntax import format_value
from app.engine.tree import Node
from app.qud.frames import sources_meant
from app.qud.periods import each_search_narrowed, kept_where
from app.qud.validate import TEXT_WORD
from app.sources import SOURCES

PROFILE_SOURCES: Mapping[str, str] = {name: spec.profile_key for name, spec in SOURCES.items() if spec.profile_key}
# a question about more than the owner's own viewing
_MORE_THAN_MINE = re.compile(r"\b(?:we|us|our|ours|who|whose|everyone|everybody|anyone|anybody|family|household|"
                             r"profiles|all\s+of\s+us)\b", re.I)


def own_profile_test(owner: str | None, profiles: Mapping[str, frozenset[str] | set[str]], question: str) -> str | None:
    """The FILTER test (a lambda body over `attr`) that keeps the owner's events of a shared account, `profiles`
    being each source's profile values in lower case; None where no source has several profiles, none is the
    owner's first name, or `question` names another profile or asks about more than the owner."""
    if not owner or not owner.split():
        return None
    mine = owner.split()[0].lower()
    shared = {source: values for source, values in profiles.items() if len(values) > 1 and mine in values}
    if not shared or _MORE_THAN_MINE.search(question):
        return None
    said = {word.lower() for word in TEXT_WORD.findall(question)}
    others = {value for values in shared.values() for value in values if value != mine}
    if any(set(TEXT_WORD.findall(other)) <= said for other in others):
        return None
    keys = {PROFILE_SOURCES[source] for source in shared}
    if len(keys) != 1:
        return None
    key = format_value(next(iter(keys)))
    return f"str(attr.get({key}) or {format_value(mine)}).lower() == {format_value(mine)}"


def own_profile(tree: Node, question: str, owner: Callable[[], str | None],
                profiles: Callable[[], Mapping[str, frozenset[str]]]) -> Node | None:
    """`tree` with each search for a shared account's events (its query names such a source) keeping the owner's (`own_profile_test`); None where the test does not apply or no search can find them."""
    searches = [node.call.get("query") for node in tree.walk() if node.operator == "RETRIEVE"]
    if not any(isinstance(query, str) and _finds_profiles(query) for query in searches):
        return None
    known = profiles()
    if not any(len(values) > 1 for values in known.values()):   # the owner is looked up only for a shared account
        return None
    test = own_profile_test(owner(), known, question)
    if test is None:
        return None

    def kept(retrieve: Node) -> Node:
        query = retrieve.call.get("query")
        return kept_where(retrieve, test) if isinstance(query, str) and _finds_profiles(query) else retrieve

    return each_search_narrowed(tree, kept)


def _finds_profiles(query: str) -> bool:
    """Whether a search for `query` finds events of a source with profiles: its words name one."""
    return any(source in PROFILE_SOURCES for source in sources_meant(query))
