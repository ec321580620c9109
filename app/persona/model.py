"""Canonical events (the ground truth) and their observations (the records rendered into exports).

A canonical event is what happened: "dinner with Anna at Trattoria da Luigi, Italian, 2023-05-12 19:30".
It is seen through zero or more observations: a calendar entry, an invitation mail, a Spotify row...
Each observation carries a locator, the facts needed to find its event in the store after import
without knowing how an importer computes ids (`app.persona.storeids`).

    Canon(id="p07-meeting-00012", kind="meeting", start=..., end=..., attrs={"participants": ["Anna Weber"], ...})
    Obs(id="p07-meeting-00012/1", fmt="ics", source="calendar", data={...}, locator={...})
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any


@dataclass
class Obs:
    id: str
    fmt: str            # spotify | netflix | amazon | apple | ics | mbox
    source: str         # the store's `source` of the imported event
    data: dict          # what the renderer writes
    locator: dict       # {"source", "times": [epoch s], "tol": s, "field": key, "value": v}
    withheld: tuple = ()  # attribute keys its text does not tell ("*": nothing); set by styles (app.persona.styles)


@dataclass
class Canon:
    id: str
    kind: str
    start: datetime     # aware, local wall time where it happened
    end: datetime
    attrs: dict[str, Any]
    obs: list[Obs] = field(default_factory=list)

    def add_obs(self, fmt: str, source: str, data: dict, locator: dict) -> Obs:
        o = Obs(f"{self.id}/{len(self.obs) + 1}", fmt, source, data, locator)
        self.obs.append(o)
        return o

    @property
    def day(self) -> date:
        return self.start.date()

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "kind": self.kind,
            "start": self.start.isoformat(),
            "end": self.end.isoformat(),
            "attrs": _plain(self.attrs),
            "obs": [_obs_json(o) for o in self.obs],
        }


def _obs_json(o: Obs) -> dict:
    out = {"id": o.id, "fmt": o.fmt, "source": o.source, "locator": _plain(o.locator)}
    if o.withheld:
        out["withheld"] = list(o.withheld)
    return out


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (date, datetime)):
        return value.isoformat()
    return value


def locator(source: str, times: list[datetime], tol: float, field_name: str | None = None, value: Any = None) -> dict:
    """Where an observation lands in the store: its source, candidate start instants (UTC epoch seconds)
    within `tol` seconds, and optionally a data field whose value must match."""
    loc = {"source": source, "times": [round(t.timestamp(), 3) for t in times], "tol": tol}
    if field_name is not None:
        loc["field"] = field_name
        loc["value"] = value
    return loc
