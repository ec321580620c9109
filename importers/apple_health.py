"""Apple Health: workouts from ``apple_health_export/export.xml`` (Health app > Export All Health Data).

Files read:

- ``export.xml`` (any ``.xml`` name whose content is ``<HealthData>``; iOS in Spanish calls it
  ``exportar.xml``): only ``<Workout>`` elements become events. Records, correlations and activity
  summaries are streamed past without being kept (a real export holds millions of them).
- ``export_cda.xml`` (the clinical-document copy) and ``workout-routes/*.gpx`` route files are recognised
  as part of the export and skipped quietly: they add no workouts.

A workout's numbers come from its attributes (``duration``, ``totalDistance``/``totalDistanceUnit``,
``totalEnergyBurned``/``totalEnergyBurnedUnit``; exports before iOS 16) or from its ``<WorkoutStatistics>``
children (iOS 16 and later: ``sum`` for distance and active energy, ``average``/``minimum``/``maximum`` for
heart rate). Distances become km and energy kcal ("Cal" is a kilocalorie)::

    <Workout workoutActivityType="HKWorkoutActivityTypeRunning" totalDistance="0.497" totalDistanceUnit="mi" ...>
        -> workout_type "running", distance_km 0.8001

Dates look like "2016-11-14 07:25:41 -0700": the offset is kept as the event's local time. When the
workout carries an ``HKTimeZone`` metadata entry (the zone it happened in), the event is shown in that
zone instead: Health writes every date with the offset of the day of the export, not of the workout.

The file is streamed with expat in 1 MB chunks, keeping only the workout being read. Two known defects of
real exports are repaired on the way: the internal DTD (malformed in iOS 16: an ``<!ATTLIST`` without its
closing ``>``) is blanked out, line breaks kept so that positions stay right, and control characters
that XML forbids (iOS 16 wrote ``\\x0b`` into some values) are dropped.

Bounds: entities are refused (a DTD too long to blank that declares one, internal or external, ends the
file with an error: no expansion, no file or URL is ever read), elements nest at most ``MAX_DEPTH`` deep (an
export nests 4), and a workout keeps at most ``MAX_CHILDREN`` statistics and metadata entries. A workout
whose dates lie outside 1900-2100, whose numbers are not finite, or that lasts more than a week is a record
error; so is anything else that makes one workout unreadable.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import IO, Iterator
from xml.parsers import expat
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from importers._limits import MAX_DURATION_S, check_year, failure
from importers.base import Event, InputFile, Record, RecordError

CHUNK = 1 << 20
MAX_PROLOGUE = 16 << 20  # a DTD longer than this is not Apple's
_ILLEGAL_XML_BYTES = bytes(b for b in range(32) if b not in (9, 10, 13))
_DTD_END = re.compile(rb"\]\s*>")
MAX_DEPTH = 64  # HealthData > Workout > WorkoutRoute > Location is 4
MAX_CHILDREN = 1000  # statistics / metadata entries kept per workout (a real one has a dozen)
MAX_NUMBER = 1e12  # no distance, energy or duration of one workout comes near

_KM_PER = {"km": 1.0, "m": 0.001, "cm": 0.00001, "mi": 1.609344, "yd": 0.0009144, "ft": 0.0003048}
_KCAL_PER = {"kcal": 1.0, "Cal": 1.0, "cal": 0.001, "kJ": 1 / 4.184, "J": 1 / 4184}
_SECONDS_PER = {"s": 1.0, "min": 60.0, "hr": 3600.0, "h": 3600.0, "ms": 0.001, "d": 86400.0}
_DISTANCE_STATS = (
    "HKQuantityTypeIdentifierDistanceWalkingRunning",
    "HKQuantityTypeIdentifierDistanceCycling",
    "HKQuantityTypeIdentifierDistanceSwimming",
    "HKQuantityTypeIdentifierDistanceWheelchair",
    "HKQuantityTypeIdentifierDistanceDownhillSnowSports",
    "HKQuantityTypeIdentifierDistanceRowing",
    "HKQuantityTypeIdentifierDistancePaddleSports",
    "HKQuantityTypeIdentifierDistanceSkatingSports",
    "HKQuantityTypeIdentifierDistanceCrossCountrySkiing",
)
_ENERGY_STAT = "HKQuantityTypeIdentifierActiveEnergyBurned"
_HEART_RATE_STAT = "HKQuantityTypeIdentifierHeartRate"

# Names that splitting the CamelCase would get wrong or leave unclear.
_WORKOUT_NAMES = {
    "TraditionalStrengthTraining": "strength training",
    "FunctionalStrengthTraining": "functional strength training",
    "HighIntensityIntervalTraining": "high intensity interval training",
    "MixedCardio": "mixed cardio",
    "MixedMetabolicCardioTraining": "mixed cardio",
    "SwimBikeRun": "triathlon",
    "MindAndBody": "mind and body",
    "PreparationAndRecovery": "preparation and recovery",
    "StairClimbing": "stair climbing",
    "Stairs": "stairs",
    "Other": "other",
}
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
# Extra words for the event text so that a person's own word finds the workout.
_ALSO_CALLED = {"soccer": "football", "american football": "gridiron", "cycling": "bike ride", "hiking": "hike"}


def workout_type(activity_type: str) -> str:
    """'HKWorkoutActivityTypeSoccer' -> 'soccer'; 'HKWorkoutActivityTypeTraditionalStrengthTraining' -> 'strength training'."""
    name = activity_type.removeprefix("HKWorkoutActivityType")
    if name in _WORKOUT_NAMES:
        return _WORKOUT_NAMES[name]
    return _CAMEL.sub(" ", name).lower() or "workout"


class AppleHealthImporter:
    name = "apple_health"

    def detect(self, file: InputFile) -> bool:
        if not file.name.lower().endswith(".xml"):
            return False
        head = file.head_text(8192)
        return "<HealthData" in head or "<!DOCTYPE HealthData" in head

    def read(self, file: InputFile) -> Iterator[Record]:
        reader = _WorkoutReader(file.display)
        with file.open() as raw:
            try:
                for chunk in _xml_chunks(raw):
                    reader.feed(chunk)
                    yield from reader.take()
                reader.feed(b"", final=True)
            except expat.ExpatError as exc:
                yield from reader.take()
                where = f"line {exc.lineno}, column {exc.offset}"
                yield RecordError(file.display, where, f"the XML breaks here ({expat.ErrorString(exc.code)}); workouts after it were not read")
                return
            except _Refused as exc:
                yield from reader.take()
                where = f"line {reader.parser.CurrentLineNumber}, column {reader.parser.CurrentColumnNumber}"
                yield RecordError(file.display, where, f"{exc}; workouts after it were not read")
                return
            yield from reader.take()


class AppleHealthCompanionFiles:
    """export_cda.xml and workout-route GPX files: part of the export, no workouts of their own."""

    name = "apple_health_companion"

    def detect(self, file: InputFile) -> bool:
        lower = file.name.lower()
        if lower.endswith(".gpx"):
            head = file.head_text(2048)
            return "<gpx" in head and ("Apple Health" in head or "workout-routes" in file.path)
        if lower.endswith(".xml") and "cda" in lower:
            return "<ClinicalDocument" in file.head_text(4096)
        return False

    def read(self, file: InputFile) -> Iterator[Record]:
        return iter(())


IMPORTERS = [AppleHealthImporter(), AppleHealthCompanionFiles()]


# --- bytes in -------------------------------------------------------------------------------------


def _xml_chunks(raw: IO[bytes]) -> Iterator[bytes]:
    """1 MB chunks with the internal DTD blanked (newlines kept) and XML-illegal control bytes removed."""
    head = raw.read(CHUNK)
    start = head.find(b"<!DOCTYPE")
    if start >= 0:
        end = _doctype_end(head, start)
        while end < 0 and len(head) < MAX_PROLOGUE:
            more = raw.read(CHUNK)
            if not more:
                break
            head += more
            end = _doctype_end(head, start)
        if end >= 0:
            head = head[:start] + b"\n" * head.count(b"\n", start, end) + head[end:]
    while head:
        yield head.translate(None, _ILLEGAL_XML_BYTES)
        head = raw.read(CHUNK)


def _doctype_end(data: bytes, start: int) -> int:
    """Index just after the DOCTYPE that begins at `start`, or -1 when it is not complete in `data`."""
    bracket = data.find(b"[", start)
    close = data.find(b">", start)
    if bracket < 0 or (0 <= close < bracket):
        return close + 1 if close >= 0 else -1
    m = _DTD_END.search(data, bracket)
    return m.end() if m else -1


# --- elements -> events ---------------------------------------------------------------------------


class _Refused(Exception):
    """The file holds something no Health export does (entities, runaway nesting); the message says what."""


def _refuse_entity(name: str, *args) -> None:
    raise _Refused(f"the file declares the XML entity {name!r}; entities are refused (no Health export has one)")


def _refuse_external(*args) -> int:
    raise _Refused("the file refers to an external XML entity; it is refused, nothing is fetched or read")


class _WorkoutReader:
    """Expat callbacks that collect one <Workout> at a time and turn it into an event (or an error)."""

    def __init__(self, display: str):
        self.display = display
        # Health writes UTF-8 whatever the declaration says: a flipped byte there ("UTF-NaN", "UTV-8")
        # made expat raise LookupError before the first workout.
        self.parser = expat.ParserCreate(encoding="UTF-8")
        self.parser.StartElementHandler = self._start
        self.parser.EndElementHandler = self._end
        # XXE and entity expansion: a declaration or an external reference ends the file (defusedxml's rule).
        self.parser.EntityDeclHandler = _refuse_entity
        self.parser.UnparsedEntityDeclHandler = _refuse_entity
        self.parser.ExternalEntityRefHandler = _refuse_external
        self.parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
        self.depth = 0
        self.workout_depth = -1
        self.count = 0
        self.line = 0
        self.attrs: dict[str, str] = {}
        self.stats: list[dict[str, str]] = []
        self.nested_stats: list[dict[str, str]] = []
        self.meta: dict[str, str] = {}
        self.ready: list[Record] = []

    def feed(self, data: bytes, final: bool = False) -> None:
        self.parser.Parse(data, final)

    def take(self) -> list[Record]:
        ready, self.ready = self.ready, []
        return ready

    def _start(self, name: str, attrs: dict[str, str]) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise _Refused(f"elements nest more than {MAX_DEPTH} deep; a Health export nests 4")
        if self.workout_depth < 0:
            if name == "Workout":
                self.workout_depth = self.depth
                self.count += 1
                self.line = self.parser.CurrentLineNumber
                self.attrs, self.stats, self.nested_stats, self.meta = attrs, [], [], {}
            return
        if name == "WorkoutStatistics":
            kept = self.stats if self.depth == self.workout_depth + 1 else self.nested_stats
            if len(kept) < MAX_CHILDREN:
                kept.append(attrs)
        elif name == "MetadataEntry" and self.depth == self.workout_depth + 1 and "key" in attrs:
            if len(self.meta) < MAX_CHILDREN:
                self.meta[attrs["key"]] = attrs.get("value", "")

    def _end(self, name: str) -> None:
        if self.depth == self.workout_depth:
            position = f"element {self.count} at line {self.line}"
            try:
                self.ready.append(_workout_event(self.attrs, self.stats, self.nested_stats, self.meta, position))
            except ValueError as exc:
                self.ready.append(RecordError(self.display, position, str(exc)))
            except Exception as exc:  # one odd workout must not stop the file
                self.ready.append(RecordError(self.display, position, failure(exc)))
            self.workout_depth = -1
        self.depth -= 1


def _health_time(text: str | None, field: str) -> datetime:
    if not text:
        raise ValueError(f"Workout has no {field}")
    try:
        when = datetime.strptime(text.strip(), "%Y-%m-%d %H:%M:%S %z")
    except ValueError:
        raise ValueError(f"Workout {field} {text[:60]!r} is not a date like '2024-01-01 08:00:00 -0700'") from None
    return check_year(when, f"Workout {field}")


def _number(text: str | None) -> float | None:
    """A finite number of a plausible size, else None ('inf', 'nan', '1e308' are no measurements)."""
    if text is None:
        return None
    try:
        value = float(text)
    except ValueError:
        return None
    return value if -MAX_NUMBER <= value <= MAX_NUMBER else None  # NaN fails both


def _convert(value: float | None, unit: str | None, table: dict[str, float]) -> float | None:
    if value is None:
        return None
    factor = table.get((unit or "").strip())
    return value * factor if factor is not None else None


def _device_name(device: str | None) -> str | None:
    """'<<HKDevice: 0x..>, name:Apple Watch, manufacturer:Apple Inc., ...>' -> 'Apple Watch'."""
    if not device:
        return None
    m = re.search(r"name:([^,>]+)", device)
    return " ".join(m.group(1).split()) if m else None


@dataclass(frozen=True)
class _Measures:
    """A workout's numbers in the units of its event: seconds, km, kcal, and the heart-rate entries found."""

    duration_s: float
    distance_km: float | None
    energy_kcal: float | None
    heart: dict


def _workout_event(attrs: dict, stats: list[dict], nested_stats: list[dict], meta: dict, position: str) -> Event:
    activity = attrs.get("workoutActivityType") or ""
    if not activity:
        raise ValueError("Workout has no workoutActivityType")
    start = _health_time(attrs.get("startDate"), "startDate")
    end = _health_time(attrs.get("endDate"), "endDate")
    kind = workout_type(activity)
    measures = _measures(attrs, stats, nested_stats, start, end)
    start, end, tz = _in_workout_zone(start, end, meta.get("HKTimeZone"))
    source_name = " ".join((attrs.get("sourceName") or "").split()) or None  # "Apple\xa0Watch" -> "Apple Watch"
    device = _device_name(attrs.get("device")) or source_name
    data = _workout_data(kind, activity, measures, device, source_name, meta)
    title, text = _workout_texts(kind, measures, device)
    return Event(
        source="workout",
        type="apple_health",
        start=start,
        end=end,
        title=title,
        text=text,
        data=data,
        position=position,
        # Instants, not the written offsets: a later export writes the same workout with another offset.
        key=f"{activity}|{start.timestamp():.0f}|{end.timestamp():.0f}|{source_name or ''}",
        tz=tz,
    )


def _measures(attrs: dict, stats: list[dict], nested_stats: list[dict], start: datetime, end: datetime) -> _Measures:
    """The workout's attributes, else its statistics; raises ValueError for a workout longer than a week."""
    duration_s = _convert(_number(attrs.get("duration")), attrs.get("durationUnit") or "min", _SECONDS_PER)
    if duration_s is None:
        duration_s = (end - start).total_seconds()
    if abs(duration_s) > MAX_DURATION_S:
        raise ValueError(f"Workout lasts {duration_s / 86400:.0f} days; more than a week is no workout")
    distance_km = _convert(_number(attrs.get("totalDistance")), attrs.get("totalDistanceUnit"), _KM_PER)
    energy_kcal = _convert(_number(attrs.get("totalEnergyBurned")), attrs.get("totalEnergyBurnedUnit"), _KCAL_PER)
    heart = {}
    for group in (stats, nested_stats):  # the workout's own statistics win over those of its sub-activities
        distance_sum = _stat_sum(group, _DISTANCE_STATS, _KM_PER)
        if distance_km is None and distance_sum is not None:
            distance_km = distance_sum
        energy_sum = _stat_sum(group, (_ENERGY_STAT,), _KCAL_PER)
        if energy_kcal is None and energy_sum is not None:
            energy_kcal = energy_sum
        if not heart:
            heart = _heart_rate(group)
    return _Measures(duration_s, distance_km, energy_kcal, heart)


def _in_workout_zone(start: datetime, end: datetime, zone_name: str | None) -> tuple[datetime, datetime, str | None]:
    """`start` and `end` in the zone the workout happened in (its HKTimeZone), with that zone's name, when it is one."""
    if zone_name:
        try:
            zone = ZoneInfo(zone_name)
            return start.astimezone(zone), end.astimezone(zone), zone_name
        except (ZoneInfoNotFoundError, ValueError, OSError):  # '../x', a NUL byte, a folder: no zone
            pass
    return start, end, None


def _workout_data(kind: str, activity: str, measures: _Measures, device: str | None, source_name: str | None,
                  meta: dict) -> dict:
    distance_km, energy_kcal = measures.distance_km, measures.energy_kcal
    data = {
        "workout_type": kind,
        "activity_type": activity,
        "duration_s": round(measures.duration_s, 3),
        "distance_km": round(distance_km, 4) if distance_km is not None else None,
        "energy_kcal": round(energy_kcal, 3) if energy_kcal is not None else None,
        **measures.heart,
        "device": device,
        "source_name": source_name,
        "indoor": {"1": True, "0": False}.get(meta.get("HKIndoorWorkout", "")),
    }
    return {k: v for k, v in data.items() if v is not None}


def _workout_texts(kind: str, measures: _Measures, device: str | None) -> tuple[str, str]:
    """(title, text): 'Running, 31 min, 5.02 km, 310 kcal' and the same with extra words to search by."""
    details = [f"{round(measures.duration_s / 60)} min"]
    if measures.distance_km:
        details.append(f"{measures.distance_km:.2f} km")
    if measures.energy_kcal:
        details.append(f"{round(measures.energy_kcal)} kcal")
    title = f"{kind.capitalize()}, {', '.join(details)}"
    also = f" ({_ALSO_CALLED[kind]})" if kind in _ALSO_CALLED else ""
    text = f"{kind}{also} workout, {', '.join(details)}" + (f", recorded by {device}" if device else "")
    return title, text


def _stat_sum(stats: list[dict], types: tuple[str, ...], table: dict[str, float]) -> float | None:
    values = [_convert(_number(s.get("sum")), s.get("unit"), table) for s in stats if s.get("type") in types]
    values = [v for v in values if v is not None]
    return sum(values) if values else None


def _heart_rate(stats: list[dict]) -> dict:
    for s in stats:
        if s.get("type") == _HEART_RATE_STAT:
            found = {
                "heart_rate_avg": _number(s.get("average")),
                "heart_rate_min": _number(s.get("minimum")),
                "heart_rate_max": _number(s.get("maximum")),
            }
            return {k: v for k, v in found.items() if v is not None}
    return {}
