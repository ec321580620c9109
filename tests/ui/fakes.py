"""Small real export files and a fake Answerer, shared by the window tests and the screenshot script."""

from __future__ import annotations

import json
from datetime import date, datetime, timedelta
from pathlib import Path

from app.answer import Answer, NodeReport
from app.store import EventStore

ARTISTS = ("Daft Punk", "Air", "Phoenix")


def spotify_rows(n: int, start: datetime = datetime(2024, 1, 1, 8, 0)) -> list[dict]:
    """Account-data rows: artist i % 3, one play every 7 hours, 3 minutes each."""
    return [
        {
            "endTime": (start + timedelta(hours=7 * i)).strftime("%Y-%m-%d %H:%M"),
            "artistName": ARTISTS[i % 3],
            "trackName": f"Track {i}",
            "msPlayed": 180000 + i,
        }
        for i in range(n)
    ]


def write_spotify(folder: Path, n: int, name: str = "StreamingHistory_music_0.json") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(json.dumps(spotify_rows(n), indent=1), encoding="utf-8")
    return path


class ArtistCountAnswerer:
    """A fake Answerer: "how many plays per artist", computed from the store like the engine would.

    The tree is GROUP_BY over a RETRIEVE leaf; every node carries the ids of its events.
    """

    def __init__(self, store_path: Path):
        self.store_path = store_path
        self.questions: list[tuple[str, date]] = []

    def __call__(self, question, reference_date, progress, cancel):
        self.questions.append((question, reference_date))
        progress("Retrieving music streams …")
        with EventStore.open(self.store_path, read_only=True) as store:
            events = list(store.events(source="music_stream"))
        ids = tuple(e.id for e in events)
        if not events:
            return Answer(question=question, value=None, tree=None, evidence_ids=(),
                          text="I could not find any music streams.")
        counts: dict[str, list[str]] = {}
        for e in events:
            counts.setdefault(e.data["artist"], []).append(e.id)
        groups = sorted(counts.items(), key=lambda kv: (-len(kv[1]), kv[0]))
        leaf = NodeReport(
            operator="RETRIEVE", question="songs I listened to", step='RETRIEVE(query="songs I listened to")',
            size=len(events), seconds=0.012, error=None, event_ids=ids,
            preview=tuple({"title": e.title, "start": e.start.isoformat()} for e in events[:50]),
        )
        root = NodeReport(
            operator="GROUP_BY", question=question,
            step='GROUP_BY(l=QUD("songs I listened to"), attr_names=["artist"], '
                 'result_attr_names=["artist", "count"], fct=lambda l: len(l))',
            size=len(groups), seconds=0.003, error=None, children=(leaf,), event_ids=ids,
            preview=tuple({"artist": a, "count": len(i)} for a, i in groups),
        )
        top = groups[0]
        return Answer(question=question, value=[[a, len(i)] for a, i in groups], tree=root, evidence_ids=ids,
                      text=f"You listened to {top[0]} most ({len(top[1])} times).", timings={"total": 0.02})


