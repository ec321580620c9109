"""The SPLADE side index: incremental sync against the store, queries, persistence, model change."""

from __future__ import annotations

import pytest

from app.retrieve.sparse_index import SparseIndex, index_path
from app.store import EventStore
from tests.retrieve.helpers import import_events, small_life


@pytest.fixture
def store(tmp_path):
    with EventStore.open(tmp_path / "events.sqlite") as s:
        import_events(s, small_life())
        yield s


def test_index_lives_beside_the_store(store, tmp_path):
    assert index_path(store.path) == tmp_path / "events.splade.sqlite"


def test_sync_is_incremental_and_follows_removals(store):
    index = SparseIndex.for_store(store)
    assert index.sync(store) == 12
    assert len(index) == 12
    assert index.sync(store) == 0  # nothing changed: the fingerprint short-cuts the scan
    store.remove_source("online_purchase")
    assert index.sync(store) == 0
    assert len(index) == 11
    index.close()
    reopened = SparseIndex.for_store(store)
    assert len(reopened) == 11 and reopened.sync(store) == 0
    reopened.close()


def test_queries_rank_matching_events_first(store):
    index = SparseIndex.for_store(store)
    index.sync(store)
    by_id = {e.id: e for e in store.events()}
    football = [by_id[i].title for i, _ in index.query("football", min_score=0.1)]
    assert set(football[:2]) == {"Football with the team", "Soccer, 90 min"}
    pizza = [by_id[i].title for i, _ in index.query("pizza")]
    assert set(pizza[:2]) == {"Pizza stone", "Dinner at Luigi's"}
    daft = index.query("daft punk songs")
    assert {by_id[i].data.get("artist") for i, _ in daft[:5]} == {"Daft Punk"}
    assert [s for _, s in daft] == sorted((s for _, s in daft), reverse=True)
    only_mail = index.query("pizza", sources=["mail"])
    assert [by_id[i].title for i, _ in only_mail] == ["Dinner at Luigi's"]
    index.close()


def test_a_different_model_clears_the_index(store):
    index = SparseIndex.for_store(store)
    index.sync(store)
    index._set_meta("version", "another model/1")
    index.close()
    again = SparseIndex.for_store(store)
    assert len(again) == 0
    assert again.sync(store) == 12
    again.close()


def test_a_cancel_stops_the_sync_while_it_reads_the_store(store, monkeypatch):
    from app.retrieve import sparse_index

    monkeypatch.setattr(sparse_index, "SCAN_CHECK_EVERY", 4)  # look after every 4 events read
    looks: list[int] = []
    index = SparseIndex.for_store(store)
    assert index.sync(store, cancel=lambda: looks.append(1) or len(looks) >= 2) == 0
    assert looks == [1, 1] and len(index) == 0  # stopped at the second look, before encoding anything
    assert index.sync(store) == 12  # not marked as synced: the next sync does it all
    index.close()


def test_two_indexes_of_one_store_syncing_at_once_encode_each_event_once(store):
    import threading

    encoded: list[int] = []
    indexes = [SparseIndex.for_store(store), SparseIndex.for_store(store)]  # the window's and a question's
    threads = [threading.Thread(target=lambda i=i: encoded.append(i.sync(store))) for i in indexes]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(encoded) == [0, 12]
    assert all(len(i) == 12 for i in indexes)
    for i in indexes:
        i.close()
