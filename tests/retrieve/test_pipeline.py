"""The RETRIEVE pipeline's decisions, with the real SPLADE index and a fake cross-encoder."""

from __future__ import annotations

import threading
import time
from dataclasses import replace
from datetime import date, timedelta

import numpy as np
import pytest

from app.retrieve.pipeline import ModelRetriever, RetrieveThresholds, mail_direction
from app.store import EventStore
from tests.retrieve.helpers import at, event, import_events, small_life, stored


class FakeCrossEncoder:
    """Patterns: the source names decide (relevant / irrelevant / partly); events: a word decides."""

    def __init__(self, relevant_sources=(), partly_sources=(), keep_word="", relevant_values=()):
        self.relevant_sources, self.partly_sources = set(relevant_sources), set(partly_sources)
        self.keep_word, self.relevant_values = keep_word, set(relevant_values)
        self.pattern_calls: list[str] = []
        self.event_calls: list[str] = []
        self.thresholds = {}

    def pattern_probs(self, query, texts):
        rows = []
        for text in texts:
            self.pattern_calls.append(text)
            source = text.split(" | ")[0].replace(" ", "_")
            if " | e.g." in text and ": " in text.split(" | ")[1]:  # a key/value pattern
                value = text.split(" | ")[1].split(": ", 1)[1]
                rows.append([0.1, 0.1, 0.8] if value in self.relevant_values else [0.8, 0.1, 0.1])
            elif source in self.relevant_sources:
                rows.append([0.05, 0.15, 0.8])
            elif source in self.partly_sources:
                rows.append([0.2, 0.6, 0.2])
            else:
                rows.append([0.9, 0.05, 0.05])
        return np.array(rows, dtype=np.float32)

    def event_probs(self, query, texts):
        self.event_calls.extend(texts)
        return np.array([0.9 if self.keep_word in t.lower() else 0.1 for t in texts], dtype=np.float32)

    def close(self):
        pass


@pytest.fixture
def store(tmp_path):
    with EventStore.open(tmp_path / "events.sqlite") as s:
        import_events(s, small_life())
        yield s


def titles(store, ids):
    return sorted(e.title for e in store.get(ids))


def test_sources_decide_and_duplicates_merge(store):
    fake = FakeCrossEncoder(relevant_sources={"workout", "calendar"})
    # (no query feedback: on this small store it would add every event)
    retriever = ModelRetriever(cross_encoder=fake, thresholds=RetrieveThresholds(min_count=2, feedback_docs=0))
    items = retriever.retrieve("football", store, date(2024, 4, 1))
    trace = retriever.last_trace
    assert {"Football with the team", "Soccer, 90 min"} <= set(titles(store, trace.pool))
    in_sources = [e.id for e in store.get(trace.pool) if e.source in ("workout", "calendar")]
    assert titles(store, trace.after_events) == titles(store, in_sources)
    assert len(trace.pool) > len(in_sources)  # other sources were in the pool and got dropped whole
    assert fake.event_calls == []  # no source was 'partly'
    # the soccer workout (18:00-19:30) and the calendar entry (18:00-20:00) are one real-world event
    assert [len(i.ids) for i in items] == [2]
    merged = next(i for i in items if len(i.ids) == 2)
    assert merged.get("workout_type") == "soccer" and merged.get("summary") == "Football with the team"
    retriever.close()


def test_partly_sources_go_to_value_patterns_then_events(store):
    fake = FakeCrossEncoder(partly_sources={"music_stream"}, relevant_values={"Daft Punk"}, keep_word="hello")
    retriever = ModelRetriever(cross_encoder=fake, thresholds=RetrieveThresholds(min_count=2, pool_min_score=0.0))
    items = retriever.retrieve("daft punk songs", store, date(2024, 4, 1))
    trace = retriever.last_trace
    kept = titles(store, trace.after_events)
    assert [t for t in kept if t.startswith("Daft Punk")] == sorted(
        t for t in titles(store, trace.pool) if t.startswith("Daft Punk"))
    assert "Adele - Skyfall" not in kept and "Adele - Hello" not in kept  # artist=Adele judged irrelevant
    assert all(not t.startswith("music stream") or "Adele" not in t for t in fake.event_calls)
    assert len(items) == len(trace.after_events)
    retriever.close()


def test_verdict_thresholds():
    retriever = ModelRetriever(cross_encoder=FakeCrossEncoder(), thresholds=RetrieveThresholds(relevant=0.6, irrelevant=0.7))
    assert retriever.verdict(np.array([0.1, 0.3, 0.6])) == "relevant"
    assert retriever.verdict(np.array([0.69, 0.3, 0.01])) == "partly"
    assert retriever.verdict(np.array([0.7, 0.2, 0.1])) == "irrelevant"
    retriever.close()


def test_the_event_cross_encoder_reads_in_chunks_and_stops_when_asked(store, monkeypatch):
    from app.retrieve import pipeline

    monkeypatch.setattr(pipeline, "CHECK_EVERY", 1)
    fake = FakeCrossEncoder(partly_sources={"music_stream"}, keep_word="hello")
    thresholds = RetrieveThresholds(min_count=1000, pool_min_score=0.0)  # no value patterns: every song is read
    retriever = ModelRetriever(cross_encoder=fake, thresholds=thresholds)
    checks: list[int] = []
    retriever.retrieve("songs", store, date(2024, 4, 1), check=lambda: checks.append(len(fake.event_calls)))
    songs = len(fake.event_calls)
    assert songs >= 3 and checks[-songs:] == list(range(songs))  # one check before each chunk of one event

    class Stop(Exception):
        pass

    def stop_after_two():
        if len(fake.event_calls) >= 2:
            raise Stop

    fake.event_calls.clear()
    with pytest.raises(Stop):  # another query: "songs" is kept from the first call (app.retrieve.cache)
        retriever.retrieve("my songs", store, date(2024, 4, 1), check=stop_after_two)
    assert len(fake.event_calls) == 2
    retriever.close()


class LeaningCrossEncoder(FakeCrossEncoder):
    """Every source is `partly`; an artist's key/value pattern gets the row given for it; events: a word decides."""

    def __init__(self, artist_rows, keep_word):
        super().__init__(keep_word=keep_word)
        self.artist_rows = artist_rows

    def pattern_probs(self, query, texts):
        rows = []
        for text in texts:
            self.pattern_calls.append(text)
            head = text.split(" | ")
            if len(head) > 1 and head[1].startswith("artist: "):
                rows.append(self.artist_rows[head[1].removeprefix("artist: ")])
            else:
                rows.append([0.2, 0.6, 0.2])
        return np.array(rows, dtype=np.float32)


def _songs_by_artist(store, trace):
    pool = store.get(trace.pool)
    return {artist: sorted(e.title for e in pool if e.data.get("artist") == artist) for artist in ("Adele", "Daft Punk")}


def test_overflow_reads_the_most_promising_patterns_first_and_the_rest_follow_their_pattern(store):
    # Adele leans relevant (+0.3), Daft Punk leans irrelevant (-0.2); room for two event reads only
    fake = LeaningCrossEncoder({"Adele": [0.05, 0.6, 0.35], "Daft Punk": [0.3, 0.6, 0.1]}, keep_word="hello")
    thresholds = RetrieveThresholds(min_count=2, pool_min_score=0.0, max_event_ce=2)
    retriever = ModelRetriever(cross_encoder=fake, thresholds=thresholds)
    retriever.retrieve("songs", store, date(2024, 4, 1))
    trace = retriever.last_trace
    songs = _songs_by_artist(store, trace)
    assert songs["Adele"] == ["Adele - Hello", "Adele - Skyfall"] and len(songs["Daft Punk"]) >= 1
    # the two Adele songs are read (before any Daft Punk song, though those come first in the pool) ...
    assert sorted(t.split(" | ")[2] for t in fake.event_calls if t.startswith("music stream")) == songs["Adele"]
    kept_songs = [t for t in titles(store, trace.after_events) if " - " in t]
    # ... the cross-encoder keeps "Hello" only, and the Daft Punk overflow follows its pattern: dropped
    assert kept_songs == ["Adele - Hello"]
    assert any("judged by their patterns only" in p for p in retriever.last_problems)
    retriever.close()

    # a pattern that leans (even slightly) relevant keeps its overflow
    fake = LeaningCrossEncoder({"Adele": [0.05, 0.6, 0.35], "Daft Punk": [0.2, 0.5, 0.3]}, keep_word="hello")
    retriever = ModelRetriever(cross_encoder=fake, thresholds=thresholds)
    retriever.retrieve("songs", store, date(2024, 4, 1))
    kept_songs = [t for t in titles(store, retriever.last_trace.after_events) if " - " in t]
    assert kept_songs == sorted(["Adele - Hello"] + songs["Daft Punk"])
    retriever.close()


def test_overflow_reads_the_pools_best_ranked_events_whatever_their_pattern_leans(store):
    # room for two reads, half of them kept for the pool's best-ranked events: the song the query names, whose
    # artist's pattern leans irrelevant, is read first, then the Adele song its pattern leans towards most
    fake = LeaningCrossEncoder({"Adele": [0.05, 0.6, 0.35], "Daft Punk": [0.3, 0.6, 0.1]}, keep_word="love")
    thresholds = RetrieveThresholds(min_count=2, pool_min_score=0.0, max_event_ce=2, ranked_reads=0.5)
    retriever = ModelRetriever(cross_encoder=fake, thresholds=thresholds)
    retriever.retrieve("songs: Digital Love", store, date(2024, 4, 1))
    trace = retriever.last_trace
    [best] = store.get(trace.pool[:1])
    read = [t.split(" | ")[2] for t in fake.event_calls if t.startswith("music stream")]
    assert best.title == "Daft Punk - Digital Love" and read[0] == best.title
    assert len(read) == 2 and read[1].startswith("Adele - ")
    assert "Daft Punk - Digital Love" in titles(store, trace.after_events)
    retriever.close()

    # without the ranked reads the song is never read, and its pattern's leaning drops it
    fake = LeaningCrossEncoder({"Adele": [0.05, 0.6, 0.35], "Daft Punk": [0.3, 0.6, 0.1]}, keep_word="love")
    retriever = ModelRetriever(cross_encoder=fake, thresholds=replace(thresholds, ranked_reads=0.0))
    retriever.retrieve("songs: Digital Love", store, date(2024, 4, 1))
    assert "Daft Punk - Digital Love" not in titles(store, retriever.last_trace.after_events)
    retriever.close()


def test_key_value_patterns_drop_at_their_own_threshold(store):
    fake = LeaningCrossEncoder({"Adele": [0.85, 0.1, 0.05], "Daft Punk": [0.85, 0.1, 0.05]}, keep_word="hello")
    # the same probabilities: below `value_irrelevant` the songs go on to the event cross-encoder
    lenient = RetrieveThresholds(min_count=2, pool_min_score=0.0, irrelevant=0.8, value_irrelevant=0.9)
    retriever = ModelRetriever(cross_encoder=fake, thresholds=lenient)
    retriever.retrieve("songs", store, date(2024, 4, 1))
    songs = _songs_by_artist(store, retriever.last_trace)
    assert [t for t in titles(store, retriever.last_trace.after_events) if " - " in t] == ["Adele - Hello"]
    assert sum(1 for t in fake.event_calls if t.startswith("music stream")) == len(songs["Adele"] + songs["Daft Punk"])
    retriever.close()
    # without `value_irrelevant` the source threshold (0.8) applies and both artists' songs are dropped unread
    fake.event_calls.clear()
    strict = RetrieveThresholds(min_count=2, pool_min_score=0.0, irrelevant=0.8)
    retriever = ModelRetriever(cross_encoder=fake, thresholds=strict)
    retriever.retrieve("songs", store, date(2024, 4, 1))
    assert [t for t in titles(store, retriever.last_trace.after_events) if " - " in t] == []
    assert not any(t.startswith("music stream") for t in fake.event_calls)
    assert retriever.verdict(np.array([0.85, 0.1, 0.05]), irrelevant=0.9) == "partly"
    retriever.close()


def test_the_pool_adds_the_stores_bm25_hits_that_splade_left_out(store):
    fake = FakeCrossEncoder(relevant_sources={"mail", "online_purchase"})
    # a SPLADE floor no event reaches: the pool is BM25's alone
    only_bm25 = RetrieveThresholds(min_count=2, pool_min_score=1e9, bm25_pool=50)
    retriever = ModelRetriever(cross_encoder=fake, thresholds=only_bm25)
    retriever.retrieve("pizza", store, date(2024, 4, 1))
    # (the store's full-text index holds title and text; the mail says "pizza" only in its body)
    assert titles(store, retriever.last_trace.pool) == ["Pizza stone"]
    assert titles(store, retriever.last_trace.after_events) == ["Pizza stone"]
    retriever.close()
    retriever = ModelRetriever(cross_encoder=fake, thresholds=RetrieveThresholds(pool_min_score=1e9, bm25_pool=0))
    retriever.retrieve("pizza", store, date(2024, 4, 1))
    assert retriever.last_trace.pool == [] and retriever.last_problems == ["no event matches 'pizza' at all"]
    retriever.close()
    # with SPLADE's hits first, BM25 adds only what they miss (no event twice)
    retriever = ModelRetriever(cross_encoder=fake, thresholds=RetrieveThresholds(pool_min_score=0.0, bm25_pool=50))
    retriever.retrieve("pizza", store, date(2024, 4, 1))
    pool = retriever.last_trace.pool
    assert len(pool) == len(set(pool)) and "Pizza stone" in titles(store, pool)
    retriever.close()


def test_feedback_from_the_best_hits_brings_in_events_that_share_no_term_with_the_query(store):
    fake = FakeCrossEncoder(relevant_sources={"mail", "online_purchase"})
    plain = ModelRetriever(cross_encoder=fake, thresholds=RetrieveThresholds(min_count=2, bm25_pool=0, feedback_docs=0))
    plain.retrieve("oven", store, date(2024, 4, 1))
    # only the mail says "oven" (an event scored just above the SPLADE floor may join it, by the runtime's rounding)
    found = titles(store, plain.last_trace.pool)
    assert found[0] == "Dinner at Luigi's" and "Pizza stone" not in found
    plain.close()
    # the mail ("The pizza oven at Luigi's...") expands the query; its "pizza" finds the pizza stone
    feedback = RetrieveThresholds(min_count=2, bm25_pool=0, feedback_docs=1, feedback_pool=3)
    expanded = ModelRetriever(cross_encoder=fake, thresholds=feedback)
    expanded.retrieve("oven", store, date(2024, 4, 1))
    pool = expanded.last_trace.pool
    assert pool[0] == plain.last_trace.pool[0] and len(pool) == len(set(pool)) <= len(plain.last_trace.pool) + 3
    assert "Pizza stone" in titles(store, pool)
    expanded.close()


def friends_life() -> list:
    """Mails and meetings with two friends, Markus and Nina (the owner, Kim Ode, is on every mail)."""
    from tests.retrieve.helpers import at, event

    me = "Kim Ode <kim@ode.org>"
    mail = lambda key, day, subject, sender, to, body: event(  # noqa: E731
        key, "mail", subject, {"subject": subject, "from_name": sender.split(" <")[0], "from": sender.split("<")[-1].strip(">"),
                               "to": [to], "body": body}, at(day, 9), None)
    return [
        mail("m1", 1, "Dinner?", "Markus Weber <markus@web.de>", me, "Dinner on Friday?"),
        mail("m2", 2, "Dinner? (reply)", "Kim Ode <kim@ode.org>", "Markus Weber <markus@web.de>", "Yes! See you, Kim"),
        mail("m3", 3, "Walk on Sunday", "Nina Meyer <nina@mail.de>", me, "Sunday at 10? Markus comes too"),
        mail("m4", 4, "Coffee", "Nina Meyer <nina@mail.de>", me, "Coffee next week?"),
        event("c1", "calendar", "Dinner with Markus", {"summary": "Dinner with Markus", "organizer": me}, at(5, 19), 120),
        event("c2", "calendar", "Walk", {"summary": "Walk", "organizer": me, "attendees": ["Nina Meyer <nina@mail.de>"]},
              at(6, 10), 60),
        event("p1", "podcast_stream", "Tim Talks - Markus Lanz", {"show": "Tim Talks"}, at(7, 8), 40),
    ]


def test_a_query_naming_a_person_keeps_the_events_that_name_them(tmp_path):
    """'I met with Nina' keeps what names Nina; 'emails from Markus' keeps what Markus sent, not mails to him."""
    from tests.retrieve.helpers import import_events

    keep_all = FakeCrossEncoder(relevant_sources={"mail", "calendar", "podcast_stream"})
    # every event that shares a word with the query in the pool, every source kept by the cross-encoder
    thresholds = RetrieveThresholds(min_count=9, pool_min_score=-1.0, bm25_pool=50, feedback_docs=0)
    with EventStore.open(tmp_path / "friends.sqlite") as store:
        import_events(store, friends_life())
        plain = ModelRetriever(cross_encoder=keep_all, thresholds=thresholds)
        naming = ModelRetriever(cross_encoder=keep_all, thresholds=replace(thresholds, name_filter=True))
        assert sorted(naming.people_for(store)) == ["Markus Weber", "Nina Meyer"]

        def kept(retriever, query):
            retriever.retrieve(query, store, date(2024, 4, 1))
            return titles(store, retriever.last_trace.after_events)

        assert kept(plain, "I met with Nina") == sorted(e.title for e in friends_life())
        assert kept(naming, "I met with Nina") == ["Coffee", "Walk", "Walk on Sunday"]   # the attendee counts
        assert kept(naming, "emails from Markus") == ["Dinner?"]   # not the reply to him, nor the podcast
        # a mail must be to Markus (not Nina's that names him); other sources only name him ("to" is too common)
        assert kept(naming, "mails I sent to Markus") == ["Dinner with Markus", "Dinner? (reply)", "Tim Talks - Markus Lanz"]
        assert kept(naming, "my walks") == kept(plain, "my walks") == ["Walk", "Walk on Sunday"]  # no one named
        # several people: all of them must be named, or one of them for "or"
        assert kept(naming, "I met with Nina and Markus") == ["Walk on Sunday"]
        assert kept(naming, "I met with Nina or Markus") == ["Coffee", "Dinner with Markus", "Dinner?",
                                                             "Dinner? (reply)", "Tim Talks - Markus Lanz", "Walk",
                                                             "Walk on Sunday"]
        plain.close()
        naming.close()
        # "emails from Markus" and nothing else looks the sender up: his mails stay although the cross-encoder
        # dropped every mail; a query that asks more of them does not
        drop_mails = FakeCrossEncoder(relevant_sources={"calendar"}, partly_sources={"mail"}, keep_word="no such word")
        naming = ModelRetriever(cross_encoder=drop_mails, thresholds=replace(thresholds, name_filter=True))
        assert kept(naming, "emails from Markus") == ["Dinner?"]
        assert kept(naming, "emails from Markus about dinner") == []
        naming.close()


def test_a_query_naming_a_relation_keeps_the_events_of_that_person_in_the_people_book(tmp_path):
    """'I called my mum' keeps what names the mother of the people book, by her first name or as Mum; without a
    book the query names no one and nothing is filtered."""
    from app.people import set_people_book
    from tests.retrieve.helpers import at, event, import_events

    me = "Kim Ode <kim@ode.org>"
    family = [
        event("c3", "calendar", "Call Mum", {"summary": "Call Mum", "organizer": me}, at(8, 18), 30),
        event("c4", "calendar", "Call Nina", {"summary": "Call Nina", "organizer": me}, at(9, 18), 30),
        event("m5", "mail", "Sunday call", {"subject": "Sunday call", "from_name": "Eva Ode", "from": "eva@ode.org",
                                            "to": [me], "body": "Call me on Sunday? Love"}, at(10, 9), None),
    ]
    keep_all = FakeCrossEncoder(relevant_sources={"mail", "calendar", "podcast_stream"})
    thresholds = RetrieveThresholds(min_count=9, pool_min_score=-1.0, bm25_pool=50, feedback_docs=0, name_filter=True)
    with EventStore.open(tmp_path / "family.sqlite") as store:
        import_events(store, friends_life() + family)

        def kept(query, name_filter=True, cross_encoder=keep_all):
            retriever = ModelRetriever(cross_encoder=cross_encoder,
                                       thresholds=replace(thresholds, name_filter=name_filter))
            retriever.retrieve(query, store, date(2024, 4, 1))
            retriever.close()
            return titles(store, retriever.last_trace.after_events)

        unfiltered = kept("I had a call with my mum", name_filter=False)
        assert {"Call Mum", "Call Nina", "Sunday call", "Dinner with Markus"} <= set(unfiltered)
        assert kept("I had a call with my mum") == unfiltered   # no book: the query names no one
        set_people_book(store, {"Eva Ode": "mother"})
        assert kept("I had a call with my mum") == ["Call Mum", "Sunday call"]   # Mum, and Eva as the sender
        assert kept("I had a call with Nina") == ["Call Nina", "Coffee", "Walk", "Walk on Sunday"]   # Mum is not Nina
        assert kept("emails from my mum") == ["Sunday call"]
        # a query that asks for nothing but her mails looks the sender up, also where the cross-encoder dropped them
        drop_mails = FakeCrossEncoder(relevant_sources={"calendar"}, partly_sources={"mail"}, keep_word="no such word")
        assert kept("I got a message from my mum", cross_encoder=drop_mails) == ["Sunday call"]
        assert kept("I got a message from my mum about lunch", cross_encoder=drop_mails) == []


# --- cancel ----------------------------------------------------------------------------------------------


class SlowCrossEncoder(FakeCrossEncoder):
    """6 ms a text, in batches of 32 with a look at `check` before each, as the real one (models.cross_encoder)."""

    read = 0  # texts read so far, batch by batch

    def _slowly(self, texts, check):
        for start in range(0, len(texts), 32):
            if check is not None:
                check()
            time.sleep(0.006 * len(texts[start: start + 32]))
            self.read += len(texts[start: start + 32])

    def pattern_probs(self, query, texts, *, check=None):
        self._slowly(texts, check)
        return super().pattern_probs(query, texts)

    def event_probs(self, query, texts, *, check=None):
        self._slowly(texts, check)
        return super().event_probs(query, texts)


def test_a_cancel_stops_retrieve_between_batches_within_a_second(tmp_path):
    from app.answer import AnswerStatus
    from app.engine import execute
    from app.engine.tree import Node

    # 1,280 plays of four songs, every one left to the event cross-encoder: 7.7 s, 1.5 s a call of 256 events
    plays = [event(f"play{i}", "music_stream", f"Band {i % 4} - Song", {"artist": f"Band {i % 4}"},
                   at(1 + i % 28, 8) + timedelta(minutes=i), 3) for i in range(1280)]
    slow = SlowCrossEncoder(partly_sources={"music_stream"}, keep_word="band")
    with EventStore.open(tmp_path / "events.sqlite") as store:
        import_events(store, plays)
        retriever = ModelRetriever(cross_encoder=slow, thresholds=RetrieveThresholds(
            pool_min_score=0.0, feedback_docs=0, bm25_pool=0, min_count=10_000))  # no key/value patterns
        retriever.index_for(store)
        tree = Node.from_step("songs I played", 'RETRIEVE(query="songs I played by a band")')
        cancel = threading.Event()
        threading.Timer(0.3, cancel.set).start()
        started = time.monotonic()
        answer = execute(tree, store, date(2024, 4, 1), retriever=retriever, cancel=cancel)
        seconds = time.monotonic() - started
        retriever.close()
    assert answer.status is AnswerStatus.CANCELLED
    assert 0 < slow.read < 256  # stopped half-way through the first call
    assert seconds < 0.3 + 1.0  # within a batch of 32, not at the end of a call of 256


# --- results kept per (query, store version) -------------------------------------------------------------


def test_a_query_asked_again_is_answered_from_the_cache_until_the_store_changes(store):
    fake = FakeCrossEncoder(partly_sources={"music_stream"}, keep_word="daft")
    retriever = ModelRetriever(cross_encoder=fake, thresholds=RetrieveThresholds(min_count=1000, pool_min_score=0.0))
    first = retriever.retrieve("songs", store, date(2024, 4, 1))
    first_trace, reads = retriever.last_trace, len(fake.event_calls)
    assert reads > 0 and not first_trace.cached

    again = retriever.retrieve("songs", store, date(2024, 4, 2))  # another question, the same sub-question
    assert [i.ids for i in again] == [i.ids for i in first]
    assert len(fake.event_calls) == reads  # nothing read again
    assert retriever.last_trace.cached and retriever.last_trace.after_events == first_trace.after_events
    assert (retriever.cache.hits, retriever.cache.misses) == (1, 1)

    retriever.retrieve("my songs", store, date(2024, 4, 1))  # another query is read
    assert len(fake.event_calls) == 2 * reads

    # an import changes the store: the kept results are forgotten and the query is read again, new song included
    import_events(store, [event("song99", "music_stream", "Daft Punk - Veridis Quo", {"artist": "Daft Punk"},
                                at(9, 8))], label="more.json")
    after = retriever.retrieve("songs", store, date(2024, 4, 1))
    assert len(fake.event_calls) > 2 * reads and not retriever.last_trace.cached
    assert len(after) == len(first) + 1
    assert len(retriever.cache) == 1  # the two results of the old version are gone

    from app.people import set_people_book

    set_people_book(store, {"Anna Berg": "sister"})  # a new relation may name other events: read again
    retriever.retrieve("songs", store, date(2024, 4, 1))
    assert not retriever.last_trace.cached
    retriever.close()


def test_the_cache_is_bounded_by_the_items_it_holds():
    from app.retrieve.cache import ResultCache

    class Store:
        path = "/nowhere/events.sqlite"

        def sources(self):
            return []

        def meta(self, key):
            return None

    cache = ResultCache(max_items=10, max_entries=3)
    keys = [cache.key(Store(), f"q{i}") for i in range(5)]
    cache.put(keys[0], "a", size=4)
    cache.put(keys[1], "b", size=4)
    assert cache.get(keys[0]) == "a"  # now the most recently used
    cache.put(keys[2], "c", size=4)    # 12 > 10: the least recently used (b) goes
    assert cache.get(keys[1]) is None and cache.get(keys[0]) == "a" and cache.items == 8
    cache.put(keys[3], "d", size=1)
    cache.put(keys[4], "e", size=1)    # 4 entries > 3: c, the least recently used, goes
    assert len(cache) == 3 and cache.get(keys[2]) is None and cache.items == 6
    cache.put(keys[1], "huge", size=11)  # larger than the whole cache: not kept
    assert cache.get(keys[1]) is None and cache.items == 6


def test_no_cache_reads_every_time(store):
    fake = FakeCrossEncoder(partly_sources={"music_stream"}, keep_word="daft")
    retriever = ModelRetriever(cross_encoder=fake, thresholds=RetrieveThresholds(min_count=1000, pool_min_score=0.0),
                               cache=None)
    retriever.retrieve("songs", store, date(2024, 4, 1))
    reads = len(fake.event_calls)
    retriever.retrieve("songs", store, date(2024, 4, 1))
    assert len(fake.event_calls) == 2 * reads
    retriever.close()


def test_a_query_naming_an_artist_or_a_show_keeps_that_sources_events_that_carry_it():
    from app.retrieve.pipeline import named_values, valued

    songs = [stored(event(f"s{i}", "music_stream", f"{artist} - {track}", {"artist": artist, "track": track},
                          at(1 + i, 8)))
             for i, (artist, track) in enumerate([("Queen", "Killer Queen"), ("ABBA", "Dancing Queen"),
                                                  ("Adele", "Hello"), ("Air", "Home")])]
    shows = [stored(event(f"p{i}", "podcast_stream", show, {"show": show, "episode": f"Ep {i}"}, at(10 + i, 9)))
             for i, show in enumerate(["Football Weekly", "The Daily"])]
    mail = stored(event("m", "mail", "Queen tickets", {"subject": "Queen tickets"}, at(20, 9), None))
    every = [*songs, *shows, mail]

    def kept(query):
        return [e.title for e in valued(query, every)]

    assert kept("I listened to Queen") == ["Queen - Killer Queen", "Football Weekly", "The Daily", "Queen tickets"]
    # the longest name wins: the track, not the artist inside it
    assert named_values("I listened to Dancing Queen", every) == {
        "music_stream": [("Dancing Queen", frozenset({"track"}))]}
    assert kept("I listened to Hello by Adele")[:1] == ["Adele - Hello"]               # both must hold
    assert kept("songs by Queen and ABBA")[:2] == ["Queen - Killer Queen", "ABBA - Dancing Queen"]   # one key
    assert kept("I listened to Queen or Adele")[:2] == ["Queen - Killer Queen", "Adele - Hello"]
    assert kept("episodes of Football Weekly") == [*(e.title for e in songs), "Football Weekly", "Queen tickets"]
    # a one-word value counts only written as a name: "home" and "queen" are words
    assert kept("I listened to music at home") == [e.title for e in every]
    assert kept("i listened to queen") == [e.title for e in every]


def test_of_other_sources_a_query_naming_a_work_keeps_the_events_that_write_it():
    from app.retrieve.pipeline import valued

    plays = [stored(event(f"tv{i}", "tvseries_stream", f"Money Heist - Ep {i}", {"series": "Money Heist"},
                          at(1 + i, 21))) for i in range(2)]
    night = stored(event("c1", "calendar", "Money Heist finale night", {"summary": "Money Heist finale night"},
                         at(5, 20)))
    lunch = stored(event("m1", "mail", "Lunch tomorrow", {"subject": "Lunch tomorrow",
                                                          "body": "Did you finish that series yet?"}, at(6, 9), None))
    song = stored(event("s1", "music_stream", "Bella Ciao", {"artist": "Manu Pilas", "track": "Bella Ciao"}, at(7, 8)))
    every = [*plays, night, lunch, song]
    assert [e.title for e in valued("I watched Money Heist", every, others=True)] == [
        "Money Heist - Ep 0", "Money Heist - Ep 1", "Money Heist finale night"]
    assert len(valued("I watched Money Heist", every)) == 5          # else the other sources stay as they are
    assert len(valued("I watched a series", every, others=True)) == 5   # a query that names no value keeps all


def test_a_query_naming_a_series_has_every_episode_of_it_that_the_store_holds(tmp_path):
    """The cross-encoder keeps two of Virgin River's four episodes (those that say "letter"): the lookup adds the
    other two, not another series' episode; a search that names no series, or one switched off, keeps what was
    judged."""
    titles = [("Virgin River", "Dark Letter"), ("Virgin River", "Long Bridge"), ("Virgin River", "Love Letter"),
              ("Virgin River", "A Secret"), ("Ozark", "Letter Bomb")]
    plays = [event(f"tv{i}", "tvseries_stream", f"{series} - {name}", {"series": series, "title": name},
                   at(1 + i, 21)) for i, (series, name) in enumerate(titles)]
    keep_letters = FakeCrossEncoder(partly_sources={"tvseries_stream"}, keep_word="letter")
    thresholds = RetrieveThresholds(min_count=9, pool_min_score=-1.0, bm25_pool=50, feedback_docs=0)
    with EventStore.open(tmp_path / "plays.sqlite") as store:
        import_events(store, plays)
        looked_up = ModelRetriever(cross_encoder=keep_letters, thresholds=thresholds, cache=None)
        judged = ModelRetriever(cross_encoder=keep_letters, thresholds=replace(thresholds, value_lookup=False),
                                cache=None)

        def names(retriever, query):
            return sorted(item.get("title") for item in retriever.retrieve(query, store, date(2024, 4, 1)))

        assert names(looked_up, "I watched Virgin River") == ["A Secret", "Dark Letter", "Long Bridge", "Love Letter"]
        assert names(judged, "I watched Virgin River") == ["Dark Letter", "Love Letter"]
        assert names(looked_up, "I watched a series") == ["Dark Letter", "Letter Bomb", "Love Letter"]
        assert [e.data["title"] for e in store.with_values("tvseries_stream", ["series"], ["Ozark"])] == ["Letter Bomb"]
        looked_up.close()
        judged.close()


def test_a_name_of_a_track_and_its_album_is_looked_up_as_the_track(tmp_path):
    from app.retrieve.pipeline import valued, with_every_carrier

    songs = [("By the Way", "By the Way"), ("By the Way", "By the Way"), ("Can't Stop", "By the Way"),
             ("Scar Tissue", "Californication")]
    plays = [event(f"s{i}", "music_stream", f"Red Hot Chili Peppers - {track}",
                   {"artist": "Red Hot Chili Peppers", "track": track, "album": album}, at(1 + i, 8))
             for i, (track, album) in enumerate(songs)]
    with EventStore.open(tmp_path / "songs.sqlite") as store:
        import_events(store, plays)
        first, *_ = store.events()
        found = with_every_carrier("I listened to By the Way by Red Hot Chili Peppers", [first], store)
        assert [e.data["track"] for e in found] == ["By the Way", "By the Way"]
        everything = with_every_carrier("I listened to Red Hot Chili Peppers", [first], store)
        assert sorted(e.data["track"] for e in everything) == ["By the Way", "By the Way", "Can't Stop", "Scar Tissue"]
        # the value filter reads it so too: of the songs kept, the track's plays, not the album's other song
        assert [e.data["track"] for e in valued("I listened to By the Way by Red Hot Chili Peppers", everything)] \
            == ["By the Way", "By the Way"]


@pytest.mark.parametrize("query, direction", [
    ("I sent an email", "sent"), ("e-mails I sent", "sent"), ("emails I received", "got"), ("I got an email", "got"),
    ("the mails that I got", "got"), ("my emails", "all"), ("emails", "all"),
    ("emails from Markus", None), ("I sent an email to Anna", None), ("emails about my flight", None),
])
def test_a_query_naming_nothing_but_mails_is_told_by_its_direction(query, direction):
    assert mail_direction(query) == direction


def test_mails_by_their_direction_are_looked_up_by_sender_not_judged(tmp_path):
    """'I sent an email' is every mail the owner sent, 'emails I received' every other one, also where the
    cross-encoder drops every mail; switched off, the cross-encoder decides."""
    from tests.retrieve.helpers import import_events

    drop_mails = FakeCrossEncoder(relevant_sources={"calendar"}, partly_sources={"mail"}, keep_word="no such word")
    thresholds = RetrieveThresholds(min_count=9, pool_min_score=-1.0, bm25_pool=50, feedback_docs=0)
    with EventStore.open(tmp_path / "friends.sqlite") as store:
        import_events(store, friends_life())
        looked_up = ModelRetriever(cross_encoder=drop_mails, thresholds=thresholds)
        judged = ModelRetriever(cross_encoder=drop_mails, thresholds=replace(thresholds, mail_lookup=False))

        def titles_of(retriever, query):
            return sorted(item.get("title") for item in retriever.retrieve(query, store, date(2024, 4, 1)))

        assert looked_up.owner_for(store) == "Kim Ode"
        assert titles_of(looked_up, "I sent an email") == ["Dinner? (reply)"]
        assert titles_of(looked_up, "emails I received") == ["Coffee", "Dinner?", "Walk on Sunday"]
        assert titles_of(looked_up, "my emails") == ["Coffee", "Dinner?", "Dinner? (reply)", "Walk on Sunday"]
        assert looked_up.last_trace.after_events == looked_up.last_trace.pool   # nothing judged
        assert titles_of(judged, "I sent an email") == ["Walk"]   # the cross-encoder's: mails dropped, calendars kept
        looked_up.close()
        judged.close()


@pytest.mark.parametrize("query", ["my calendar entries", "every calendar entry", "all of my calendar events",
                                   "entries in my calendar", "My calendar."])
def test_a_query_naming_nothing_but_the_calendar_is_every_entry_looked_up(tmp_path, query):
    """The rules ask for every entry and keep those of a kind (a trip's spans days), which the cross-encoder finds
    only where the entry says what it is; switched off, the cross-encoder decides."""
    drop_calendar = FakeCrossEncoder(relevant_sources={"mail"}, partly_sources={"calendar"}, keep_word="no such word")
    thresholds = RetrieveThresholds(min_count=9, pool_min_score=-1.0, bm25_pool=50, feedback_docs=0)
    with EventStore.open(tmp_path / "friends.sqlite") as store:
        import_events(store, friends_life())
        looked_up = ModelRetriever(cross_encoder=drop_calendar, thresholds=thresholds)
        judged = ModelRetriever(cross_encoder=drop_calendar, thresholds=replace(thresholds, calendar_lookup=False))
        assert sorted(i.get("title") for i in looked_up.retrieve(query, store, date(2024, 4, 1))) == [
            "Dinner with Markus", "Walk"]
        assert looked_up.last_trace.after_events == looked_up.last_trace.pool   # nothing judged
        assert not any(i.get("source") == "calendar" for i in judged.retrieve(query, store, date(2024, 4, 1)))
        # a query that names more than the calendar is judged: the cross-encoder drops the entries
        assert not any(i.get("source") == "calendar"
                       for i in looked_up.retrieve("calendar entries about dinner", store, date(2024, 4, 1)))
        looked_up.close()
        judged.close()


def test_mails_of_a_sender_named_by_a_company_are_looked_up_by_sender(tmp_path):
    """'emails from Nielsen' is every mail from an address at nielsen.com, 'I got a Guardian newsletter' every mail
    The Guardian sent, also where the cross-encoder drops every mail; a word two senders' names share names
    neither, and a person's name is left to the people step. Switched off, the cross-encoder decides."""
    from tests.retrieve.helpers import at, event, import_events

    me = "Kim Ode <kim@ode.org>"
    mail = lambda key, day, subject, sender: event(  # noqa: E731
        key, "mail", subject, {"subject": subject, "from_name": sender.split(" <")[0],
                               "from": sender.split("<")[-1].strip(">"), "to": [me], "body": subject}, at(day, 9), None)
    life = [*friends_life(),
            mail("n1", 8, "Q3 numbers", "Chloe King <chloe@nielsen.com>"),
            mail("n2", 9, "Offsite", "Noah Nguyen <noah@nielsen.com>"),
            mail("g1", 10, "Today's headlines", "The Guardian <news@theguardian.com>"),
            mail("l1", 11, "Issue 12", "The Liffey Letter <hello@liffeyletter.ie>"),
            mail("l2", 12, "Your statement", "Liffey Bank <statements@liffeybank.ie>"),
            mail("a1", 13, "Prime Day starts now", "Amazon <store-news@amazon.com>"),
            mail("a2", 14, "Your order of a kettle", "Amazon.it <auto-confirm@amazon.it>")]
    drop_mails = FakeCrossEncoder(relevant_sources={"calendar"}, partly_sources={"mail"}, keep_word="no such word")
    thresholds = RetrieveThresholds(min_count=9, pool_min_score=-1.0, bm25_pool=50, feedback_docs=0)
    with EventStore.open(tmp_path / "friends.sqlite") as store:
        import_events(store, life)
        looked_up = ModelRetriever(cross_encoder=drop_mails, thresholds=thresholds)
        judged = ModelRetriever(cross_encoder=drop_mails, thresholds=replace(thresholds, sender_lookup=False))

        def titles_of(retriever, query):
            return sorted(item.get("title") for item in retriever.retrieve(query, store, date(2024, 4, 1)))

        assert titles_of(looked_up, "emails from Nielsen") == ["Offsite", "Q3 numbers"]
        assert titles_of(looked_up, "I received a Guardian newsletter") == ["Today's headlines"]
        assert titles_of(looked_up, "emails from Amazon") == ["Prime Day starts now"]   # the sender named so
        assert looked_up.senders_mails("I got an email from Liffey", store) is None   # which Liffey?
        assert looked_up.senders_mails("emails from Markus", store) is None           # a person
        assert looked_up.senders_mails("I sent an email to Nielsen", store) is None   # the owner's
        assert titles_of(judged, "emails from Nielsen") == []
        looked_up.close()
        judged.close()
