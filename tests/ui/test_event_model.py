from datetime import datetime, timedelta, timezone

from PySide6.QtCore import Qt

from app.store import EventStore
from app.ui.event_model import EVENT_ROLE, SORT_ROLE, EventFilterProxy, EventTableModel
from importers.base import Event

BERLIN = timezone(timedelta(hours=1))


def stored_events(tmp_path):
    events = [
        Event("music_stream", "spotify_account", datetime(2024, 3, 1, 20, 0, tzinfo=BERLIN), None, "Air - La femme d'argent",
              "Air La femme d'argent", {"artist": "Air", "track": "La femme d'argent", "ms_played": 420000}, "row 1", "k1"),
        Event("online_purchase", "amazon", datetime(2024, 1, 5, 9, 30, tzinfo=BERLIN), None, "Kettle",
              "Kettle", {"product": "Kettle", "total": 34.5, "currency": "EUR", "quantity": 1}, "row 2", "k2"),
        Event("workout", "apple_health", datetime(2024, 2, 10, 7, 0, tzinfo=BERLIN), None, "Running",
              "Running", {"workout_type": "running", "duration_s": 1800.0, "distance_km": 5.2}, "line 9", "k3"),
    ]
    with EventStore.open(tmp_path / "e.sqlite") as store:
        run = store.begin_run(["x"])
        with store.file_import(run, "/data/export.json", "test") as writer:
            for e in events:
                writer.add(e)
        store.finish_run(run)
        return store.get(e.id for e in events)


def test_event_table_model_columns(qtmodeltester, tmp_path):
    events = stored_events(tmp_path)
    model = EventTableModel()
    model.set_events(events)
    qtmodeltester.check(model, force_py=True)
    rows = [[model.index(r, c).data() for c in range(5)] for r in range(3)]
    # The Value column: what each event gave (an order's total, a run's distance, a song's time played).
    assert rows == [
        ["Purchases", "2024-01-05 09:30", "Kettle", "34.50 EUR", ""],
        ["Workouts", "2024-02-10 07:00", "Running", "5.2 km", "running · 30 min"],
        ["Music", "2024-03-01 20:00", "Air - La femme d'argent", "7 min", "Air"],
    ]
    assert model.index(1, 2).data(Qt.ItemDataRole.ToolTipRole).splitlines()[:2] == ["Running", "running · 30 min"]
    assert model.index(2, 0).data(EVENT_ROLE) is events[2]
    assert model.index(0, 1).data(SORT_ROLE) == datetime(2024, 1, 5, 9, 30, tzinfo=BERLIN).timestamp()


def test_event_proxy_sorts_by_time_and_filters_any_column(qtmodeltester, tmp_path):
    model = EventTableModel()
    model.set_events(stored_events(tmp_path))
    proxy = EventFilterProxy()
    proxy.setSourceModel(model)
    qtmodeltester.check(proxy, force_py=True)
    proxy.sort(1, Qt.SortOrder.DescendingOrder)
    assert [proxy.index(r, 2).data() for r in range(3)] == ["Air - La femme d'argent", "Running", "Kettle"]
    assert proxy.event_at(0).source == "music_stream"
    proxy.setFilterFixedString("eur")  # a Details cell, any case
    assert [proxy.index(r, 2).data() for r in range(proxy.rowCount())] == ["Kettle"]
    proxy.setFilterFixedString("WORKOUTS")  # the Source column
    assert [proxy.index(r, 2).data() for r in range(proxy.rowCount())] == ["Running"]


def test_value_column_sorts_by_number_and_follows_the_answers_attribute(tmp_path):
    events = stored_events(tmp_path)
    model = EventTableModel()
    model.set_events(events)
    proxy = EventFilterProxy()
    proxy.setSourceModel(model)
    proxy.sort(3, Qt.SortOrder.DescendingOrder)  # 420,000 ms, 34.5 EUR, 5.2 km: numbers, not text
    assert [proxy.index(r, 3).data() for r in range(3)] == ["7 min", "34.50 EUR", "5.2 km"]
    # A question about time spent running: the answer summed duration_s, so that is the run's value.
    model.set_events(events, value_attr="duration_s")
    assert [model.index(r, 3).data() for r in range(3)] == ["34.50 EUR", "30 min", "7 min"]
    assert model.index(1, 4).data() == "running · 5.2 km"  # the distance moves to the details, not lost
