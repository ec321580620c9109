from datetime import datetime, timezone

from PySide6.QtCore import Qt

from app.store import SourceSummary
from app.ui.sources_model import SORT_ROLE, SOURCE_ROLE, SourcesModel

UTC = timezone.utc
ROWS = [
    SourceSummary("music_stream", 1204, datetime(2023, 1, 2, tzinfo=UTC), datetime(2024, 5, 6, tzinfo=UTC),
                  datetime(2024, 6, 1, 12, 0, tzinfo=UTC)),
    SourceSummary("workout", 7, datetime(2024, 1, 1, tzinfo=UTC), datetime(2024, 2, 1, tzinfo=UTC), None),
]


def test_sources_model_rows_and_roles(qtmodeltester):
    model = SourcesModel()
    model.set_sources(ROWS)
    qtmodeltester.check(model, force_py=True)
    # The last import is shown as a local date (12:00 UTC is the same day in every zone but ±12 h ones).
    assert [model.index(0, c).data() for c in range(4)] == ["Music", "1,204", "2023-01-02 – 2024-05-06", "2024-06-01"]
    assert [model.index(1, c).data() for c in range(4)] == ["Workouts", "7", "2024-01-01 – 2024-02-01", "–"]
    assert model.index(1, 3).data(SOURCE_ROLE) == "workout"
    assert model.index(0, 1).data(SORT_ROLE) == 1204
    assert [model.headerData(c, Qt.Orientation.Horizontal) for c in range(4)] == ["Source", "Events", "Dates", "Imported"]


def test_sources_model_empty_and_reset(qtmodeltester):
    model = SourcesModel()
    qtmodeltester.check(model, force_py=True)
    model.set_sources(ROWS)
    assert model.rowCount() == 2
    model.set_sources([])
    assert model.rowCount() == 0
