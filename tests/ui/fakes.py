"""Small real export files and a fake Answerer, shared by the window tests and the screenshot script."""

from __future__ import annotations

import json
from datetime import date, datetime, timedelta
from pathlib import Path

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


# A hand-made operator tree (what the QUD would write): plays per artist, as MAP over GROUP_BY over RETRIEVE.
PER_ARTIST_TREE = {
    "question": "How often did I listen to each artist?",
    "step": 'MAP(l=QUD("songs I listened to, grouped by artist"), fct=lambda group: len(group), res_name="count")',
    "children": [{
        "question": "songs I listened to, grouped by artist",
        "step": 'GROUP_BY(l=QUD("songs I listened to"), attr_names=["artist"])',
        "children": [{"question": "songs I listened to", "step": 'RETRIEVE(query="songs I listened to")',
                      "children": []}],
    }],
}


# The artist played most: ARGMAX over PER_ARTIST_TREE.
ARGMAX_TREE = {"question": "", "children": [PER_ARTIST_TREE],
               "step": 'ARGMAX(l=QUD("How often did I listen to each artist?"), arg_attr_name="count", '
                       'val_attr_name="artist")'}


class TreeAnswerer:
    """A fake Answerer with a real engine: runs a hand-made tree (the QUD's part is faked) with app.engine.

    Records every (question, reference_date) it was asked; the root's question is the one asked. `run_tree`
    runs an edited tree as the real answerer does, the steps the edit left as they were kept from the last run. The
    engine's live counts go to `count`, as the real one's do; `retriever` is the RETRIEVE operator (None: the
    engine's lexical one).
    """

    def __init__(self, store_path: Path, tree: dict = PER_ARTIST_TREE, retriever=None):
        from app.retrieve.cache import ResultCache

        self.store_path = store_path
        self.tree = tree
        self.retriever = retriever
        self.steps = ResultCache()
        self.questions: list[tuple[str, date]] = []
        self.trees_run: list[dict] = []  # edited trees run (run_tree)

    def __call__(self, question, reference_date, progress, cancel, count=None):
        from app.engine import Node, execute

        self.questions.append((question, reference_date))
        progress("Running the operator tree …")
        tree = Node.from_json(dict(self.tree, question=question))
        with EventStore.open(self.store_path, read_only=True) as store:
            return execute(tree, store, reference_date, retriever=self.retriever, cancel=cancel, count=count,
                           reuse=self.steps)

    def run_tree(self, tree, reference_date, progress, cancel, count=None):
        """As PipelineAnswerer.run_tree: the edited tree through the engine, no question model."""
        from app.engine import Node, execute

        self.trees_run.append(tree)
        progress("Running the edited tree …")
        with EventStore.open(self.store_path, read_only=True) as store:
            return execute(Node.from_json(tree), store, reference_date, retriever=self.retriever, cancel=cancel,
                           count=count, reuse=self.steps)
