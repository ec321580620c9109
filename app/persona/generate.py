"""Generate one persona: biography, canonical timeline, and the rendered exports, into a folder.

    result = generate_persona("p13", Path("out/p13"))
    result.counts_by_source     # {"music_stream": 33012, "mail": 541, ...} what an import should store
    result.seconds              # wall time

Layout of the folder (the exports are what a person would download; canonical/ is the ground truth):

    Spotify Extended Streaming History/Streaming_History_Audio_2021-2022_0.json ...
    netflix/CONTENT_INTERACTION/ViewingActivity.csv
    amazon/Retail.OrderHistory.1/Retail.OrderHistory.1.csv
    apple_health_export/export.xml
    Takeout/Calendar/<address>.ics, Work.ics, Birthdays.ics
    Takeout/Mail/All mail Including Spam and Trash.mbox
    canonical/persona.json, canonical/events.jsonl, canonical/manifest.json

The same persona id and seed always give byte-identical files. A style variant of a TRAIN persona
("p03~diary", app.persona.styles) writes the same life in another style, for training data only.
"""

from __future__ import annotations

import json
import shutil
import time
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from app.persona.biography import Persona, make_persona
from app.persona.render_ics import render_ics
from app.persona.render_mbox import render_mbox
from app.persona.render_structured import render_amazon, render_apple, render_netflix, render_spotify
from app.persona.timeline import Timeline, build_timeline

EXPORT_DIRS = ("Spotify Extended Streaming History", "netflix", "amazon", "apple_health_export", "Takeout")


@dataclass
class GenerationResult:
    persona: Persona
    timeline: Timeline
    out: Path
    files: dict[str, int] = field(default_factory=dict)       # relative path -> records written
    counts_by_source: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0


@lru_cache(maxsize=4)
def timeline_for(persona_id: str, seed: int = 0) -> Timeline:
    """The canonical timeline (no files), cached: questions and id mapping both need it. A style variant
    ("p03~diary", app.persona.styles) is its persona's life written in that style; its events keep their ids."""
    from app.persona.splits import persona_split
    from app.persona.styles import split_variant

    base, style = split_variant(persona_id)
    if base != persona_id:
        persona_split(persona_id)  # refuses variants of DEV and TEST personas
    return build_timeline(make_persona(base, seed), style)


def expected_counts(tl: Timeline) -> dict[str, int]:
    """Events per store source an import of the rendered files should produce."""
    counts: Counter = Counter()
    for ev in tl.events:
        for o in ev.obs:
            if "same_as" not in o.data:
                counts[o.source] += 1
    return dict(sorted(counts.items()))


def generate_persona(persona_id: str, out: Path, seed: int = 0, *, canonical: bool = True) -> GenerationResult:
    started = time.perf_counter()
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    for name in EXPORT_DIRS + ("canonical",):  # files of an earlier run would be imported too
        if (out / name).is_dir():
            shutil.rmtree(out / name)
    tl = timeline_for(persona_id, seed)
    result = GenerationResult(tl.p, tl, out)
    for render in (render_spotify, render_netflix, render_amazon, render_apple, render_ics, render_mbox):
        result.files.update(render(tl, out))
    result.counts_by_source = expected_counts(tl)
    if canonical:
        write_canonical(tl, out / "canonical", result)
    result.seconds = time.perf_counter() - started
    return result


def write_canonical(tl: Timeline, folder: Path, result: GenerationResult) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "persona.json").write_text(json.dumps(tl.p.to_json(), indent=1, ensure_ascii=False), encoding="utf-8")
    with (folder / "events.jsonl").open("w", encoding="utf-8", newline="\n") as f:
        for ev in tl.events:
            f.write(json.dumps(ev.to_json(), ensure_ascii=False, separators=(",", ":")) + "\n")
    kinds = Counter(ev.kind for ev in tl.events)
    manifest = {"persona": tl.p.id, "seed": tl.p.seed, "window": [tl.p.window_start.isoformat(), tl.p.window_end.isoformat()],
                "reference_date": tl.p.reference_date.isoformat(), "canonical_events": len(tl.events),
                "events_by_kind": dict(sorted(kinds.items())), "files": dict(sorted(result.files.items())),
                "expected_store_counts": result.counts_by_source}
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
