"""A persona's biography: who they are, who they know, where they live and work, what they like.

Everything is drawn from the hand-written vocabularies with a random generator seeded by the persona id
and the seed, so the same (id, seed) gives the same person on every machine.

    persona = make_persona("p07", seed=0)
    persona.me.full_name, persona.home_on(date(2023, 5, 1)).city, persona.prefs.fav_artists
"""

from __future__ import annotations

import random
import unicodedata
from dataclasses import asdict, dataclass, field
from datetime import date, timedelta
from typing import Any

from app.persona.resources import load

PERSONA_IDS = tuple(f"p{i:02d}" for i in range(1, 21))

# Home city per persona, in id order; each a different place so that zones, currencies and
# units differ across the benchmark.
HOME_CITIES = (
    "Berlin", "London", "New York", "Amsterdam", "Madrid", "Chicago", "Paris", "Vienna", "Toronto", "Stockholm",
    "Manchester", "San Francisco", "Munich", "Seattle", "Milan", "Sydney", "Barcelona", "Boston", "Copenhagen", "Edinburgh",
)
EMAIL_DOMAINS = ("gmail.com", "gmail.com", "gmail.com", "outlook.com", "yahoo.com", "icloud.com", "posteo.de", "hotmail.com")


def rng_for(seed: int, persona_id: str, stream: str) -> random.Random:
    """An independent, reproducible random stream (str seeds hash with SHA-512, not PYTHONHASHSEED)."""
    return random.Random(f"{seed}/{persona_id}/{stream}")


def ascii_fold(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")


def email_for(first: str, last: str, rng: random.Random) -> str:
    local = ascii_fold(f"{first}.{last}").lower().replace(" ", "").replace("'", "")
    style = rng.random()
    if style < 0.2:
        local = ascii_fold(first).lower() + str(rng.randint(70, 99))
    elif style < 0.35:
        local = ascii_fold(first[0] + last).lower().replace(" ", "")
    return f"{local}@{rng.choice(EMAIL_DOMAINS)}"


@dataclass(frozen=True)
class Person:
    first: str
    last: str
    gender: str
    birthday: date
    email: str
    relation: str          # friend, mother, father, sibling, partner, kid, colleague, manager
    group: str = ""        # how a friend is known: school, university, work, football, neighbours
    closeness: float = 1.0  # weight when picking who to meet

    @property
    def full_name(self) -> str:
        return f"{self.first} {self.last}"


@dataclass(frozen=True)
class Residence:
    city: str
    start: date
    end: date              # exclusive


@dataclass(frozen=True)
class Job:
    company: str
    title: str
    city: str
    start: date
    end: date              # exclusive; far future for the current job


@dataclass(frozen=True)
class Pet:
    name: str
    kind: str
    since: date


@dataclass
class Prefs:
    genres: list[str]
    fav_artists: list[str]
    other_artists: list[str]
    podcasts: list[str]
    audiobooks: list[str]
    movie_genres: list[str]
    series: list[str]
    cuisines: list[str]
    workouts: dict[str, dict]      # type -> {"days": [weekday...], "p": prob, "hour": h}
    shopping: dict[str, float]     # category -> weight
    travel_regions: list[str]
    hobbies: list[str]


@dataclass
class Rates:
    music_minutes: float           # mean minutes of music on a day
    podcast_days: float            # share of days with a podcast
    movies_per_week: float
    episodes_per_week: float
    orders_per_month: float
    meetings_per_week: float
    trips_per_year: int


@dataclass
class Persona:
    id: str
    seed: int
    me: Person
    culture: str
    window_start: date
    window_end: date               # inclusive: the last day with data
    reference_date: date           # "today" for the questions
    residences: list[Residence]
    jobs: list[Job]
    mother: Person
    father: Person
    siblings: list[Person]
    partner: Person | None
    partner_since: date | None
    wedding: date | None
    kids: list[Person]
    pets: list[Pet]
    friends: list[Person]
    colleagues: list[Person]
    manager: Person | None
    course: dict | None
    prefs: Prefs
    rates: Rates
    phone: str                     # "ios" or "android"
    tv_device: str
    watch: list[str]
    extra: dict[str, Any] = field(default_factory=dict)

    def home_on(self, day: date) -> Residence:
        for r in self.residences:
            if r.start <= day < r.end:
                return r
        return self.residences[-1]

    def job_on(self, day: date) -> Job | None:
        for j in self.jobs:
            if j.start <= day < j.end:
                return j
        return None

    def to_json(self) -> dict:
        out = asdict(self)
        return _dates_to_text(out)


def _dates_to_text(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _dates_to_text(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_dates_to_text(v) for v in value]
    if isinstance(value, date):
        return value.isoformat()
    return value


def _birthday(rng: random.Random, year: int) -> date:
    day = date(year, 1, 1) + timedelta(days=rng.randrange(365))
    return day if (day.month, day.day) != (2, 29) else day - timedelta(days=1)  # yearly repeats must exist


def _person(rng: random.Random, culture: str, relation: str, year: int, *, gender: str | None = None,
            last: str | None = None, used: set[str], group: str = "", closeness: float = 1.0) -> Person:
    names = load("names")[culture]
    gender = gender or rng.choice(("male", "female"))
    for _ in range(50):
        first = rng.choice(names[gender])
        if first not in used:
            break
    used.add(first)
    last = last or rng.choice(names["surnames"])
    return Person(first, last, gender, _birthday(rng, year), email_for(first, last, rng), relation, group, closeness)


def _window(rng: random.Random) -> tuple[date, date]:
    """Four years and a few months, ending on a month's last day between March 2024 and May 2025."""
    end_month = rng.randrange(15)              # 0 -> March 2024 ... 14 -> May 2025
    y, m = 2024 + (2 + end_month) // 12, (2 + end_month) % 12 + 1
    nxt = date(y + (m == 12), m % 12 + 1, 1)
    end = nxt - timedelta(days=1)
    start = date(end.year - 4, end.month, 1) - timedelta(days=rng.randrange(0, 120))
    return start.replace(day=1), end


TV_DEVICES = ("Samsung 2020 UHD TV Smart TV", "LG 2019 OLED TV Smart TV", "Apple TV 4K (2nd Gen)",
              "Sony 2021 Bravia XR TV Smart TV", "Amazon Fire TV Stick 4K")
FRIEND_GROUPS = ("school", "university", "work", "football", "neighbours", "climbing", "book club")


def make_persona(persona_id: str, seed: int = 0) -> Persona:
    if persona_id not in PERSONA_IDS:
        raise ValueError(f"unknown persona {persona_id!r}; known: {PERSONA_IDS[0]} .. {PERSONA_IDS[-1]}")
    index = PERSONA_IDS.index(persona_id)
    rng = rng_for(seed, persona_id, "biography")
    places = load("places")["cities"]
    home = HOME_CITIES[index]
    culture = places[home]["culture"]
    used: set[str] = set()
    # One random stream for the whole biography: the steps below must keep their order, or every persona changes.
    start, end = _window(rng)
    birth_year = rng.randint(1970, 1998)
    me, mother, father, siblings = _family_of_origin(rng, culture, birth_year, used)
    partner, partner_since, wedding = _partner(rng, culture, me, birth_year, start, used)
    kids = _kids(rng, culture, me, partner, partner_since, birth_year, start, end, used)
    careers = load("careers")
    pets = _pets(rng, careers, start)
    friends = _friends(rng, culture, birth_year, used)
    colleagues = [_person(rng, culture, "colleague", birth_year + rng.randint(-10, 10), used=used) for _ in range(4)]
    manager = _person(rng, culture, "manager", birth_year - rng.randint(2, 15), used=used)
    residences, jobs = _career(rng, careers, places, home, start, end)
    course = _course(rng, start)
    prefs = _preferences(rng, kids, pets, friends, partner)
    rates = _rates(rng)
    watch = list(rng.choice(load("workouts")["devices"]))
    return Persona(
        id=persona_id, seed=seed, me=me, culture=culture, window_start=start, window_end=end,
        reference_date=end + timedelta(days=1 + rng.randint(0, 6)),
        residences=residences, jobs=jobs, mother=mother, father=father, siblings=siblings,
        partner=partner, partner_since=partner_since, wedding=wedding, kids=kids, pets=pets,
        friends=friends, colleagues=colleagues, manager=manager, course=course, prefs=prefs, rates=rates,
        phone=rng.choice(("ios", "ios", "android")),
        tv_device=rng.choice(TV_DEVICES),
        watch=watch,
    )


def _family_of_origin(rng, culture, birth_year, used) -> tuple[Person, Person, Person, list[Person]]:
    """The persona (`me`), their mother, father and 0-3 siblings, all with the persona's surname."""
    me = _person(rng, culture, "me", birth_year, used=used)
    mother = _person(rng, culture, "mother", birth_year - rng.randint(24, 36), gender="female", last=me.last, used=used)
    father = _person(rng, culture, "father", birth_year - rng.randint(25, 38), gender="male", last=me.last, used=used)
    siblings = [_person(rng, culture, "sibling", birth_year + rng.randint(-6, 6), last=me.last, used=used)
                for _ in range(rng.choice((0, 1, 1, 2, 3)))]
    return me, mother, father, siblings


def _partner(rng, culture, me, birth_year, start, used) -> tuple[Person | None, date | None, date | None]:
    """(partner, together since, wedding day), or Nones for a single persona; a wedding may fall in the window."""
    if rng.random() >= 0.75:
        return None, None, None
    partner_gender = "female" if me.gender == "male" else "male"
    if rng.random() < 0.12:
        partner_gender = me.gender
    partner = _person(rng, culture, "partner", birth_year + rng.randint(-4, 4), gender=partner_gender, used=used)
    partner_since = date(start.year - rng.randint(1, 10), rng.randint(1, 12), rng.randint(1, 28))
    wedding = None
    if rng.random() < 0.3:  # marries during the window
        wedding = start + timedelta(days=rng.randint(200, 1200))
        wedding = wedding + timedelta(days=(5 - wedding.weekday()) % 7)  # a Saturday
    elif rng.random() < 0.5:
        wedding = partner_since + timedelta(days=rng.randint(400, 1500))
        wedding = min(wedding, start - timedelta(days=30))
    return partner, partner_since, wedding


def _kids(rng, culture, me, partner, partner_since, birth_year, start, end, used) -> list[Person]:
    """Children of a persona with a partner and 27 or older at the window's start, oldest first; sometimes a
    baby born during the window."""
    age_at_start = start.year - birth_year
    if partner is None or age_at_start < 27:
        return []
    kids: list[Person] = []
    n_kids = rng.choice((0, 0, 1, 1, 2, 2, 3)) if age_at_start >= 31 else rng.choice((0, 0, 1))
    for _ in range(n_kids):
        born = date(max(partner_since.year + 1, start.year - rng.randint(0, 14)), 1, 1)
        kids.append(_person(rng, culture, "kid", born.year, last=me.last, used=used))
    if rng.random() < 0.35 and age_at_start <= 40:  # a baby during the window
        born = start + timedelta(days=rng.randint(300, 1100))
        born -= timedelta(days=(born.month, born.day) == (2, 29))
        baby = _person(rng, culture, "kid", born.year, last=me.last, used=used)
        kids.append(Person(baby.first, baby.last, baby.gender, born, "", "kid"))
    kids = [Person(k.first, k.last, k.gender, min(k.birthday, end - timedelta(days=60)), "", "kid") for k in kids]
    kids.sort(key=lambda k: k.birthday)
    return kids


def _pets(rng, careers, start) -> list[Pet]:
    """No pet or one, had before the window or got during it."""
    if rng.random() >= 0.5:
        return []
    kind = rng.choice(("dog", "dog", "cat", "cat", "rabbit"))
    since = start - timedelta(days=rng.randint(100, 2000)) if rng.random() < 0.6 else start + timedelta(days=rng.randint(100, 1200))
    return [Pet(rng.choice(careers["pets"][kind]), kind, since)]


def _friends(rng, culture, birth_year, used) -> list[Person]:
    """8-13 friends, the first three closest; a quarter from another culture."""
    friends = []
    for i in range(rng.randint(8, 13)):
        closeness = 3.0 if i < 3 else (1.5 if i < 6 else 0.7)
        friend_culture = culture if rng.random() < 0.75 else rng.choice(sorted(load("names")))
        friends.append(_person(rng, friend_culture, "friend", birth_year + rng.randint(-5, 5), used=used,
                               group=rng.choice(FRIEND_GROUPS), closeness=closeness))
    return friends


def _course(rng, start) -> dict | None:
    """An evening course started during the window, for some personas."""
    if rng.random() >= 0.3:
        return None
    name, school = rng.choice(load("wording_life")["courses"])
    return {"name": name, "school": school, "start": (start + timedelta(days=rng.randint(150, 1300))).isoformat()}


def _rates(rng) -> Rates:
    return Rates(
        music_minutes=rng.uniform(85, 120),
        podcast_days=rng.choice((0.15, 0.3, 0.5, 0.7)),
        movies_per_week=rng.uniform(0.6, 2.2),
        episodes_per_week=rng.uniform(2.5, 7.5),
        orders_per_month=rng.uniform(9, 18),
        meetings_per_week=rng.uniform(1.3, 3.0),
        trips_per_year=rng.randint(2, 4),
    )


def _career(rng, careers, places, home, start, end) -> tuple[list[Residence], list[Job]]:
    far = date(2100, 1, 1)
    job_kind = rng.choice(careers["jobs"])
    companies = list(job_kind["companies"])
    rng.shuffle(companies)
    first_start = start - timedelta(days=rng.randint(200, 3000))
    residences = [Residence(home, date(1990, 1, 1), far)]
    jobs = [Job(companies[0], job_kind["title"], home, first_start, far)]
    if rng.random() < 0.5:  # a new job during the window, sometimes with a move
        change = start + timedelta(days=rng.randint(250, 1150))
        change += timedelta(days=(7 - change.weekday()) % 7)  # a Monday
        new_city = home
        if rng.random() < 0.45:
            options = [c for c, info in sorted(places.items()) if c != home and info["cc"] == places[home]["cc"]]
            options = options or [c for c in sorted(places) if c != home]
            new_city = rng.choice(options)
            move = change - timedelta(days=rng.randint(10, 40))
            move += timedelta(days=(5 - move.weekday()) % 7)  # a Saturday
            residences = [Residence(home, date(1990, 1, 1), move), Residence(new_city, move, far)]
        title = job_kind["title"] if rng.random() < 0.6 else "Senior " + job_kind["title"]
        jobs = [Job(companies[0], job_kind["title"], home, first_start, change),
                Job(companies[1 % len(companies)], title, new_city, change, far)]
    return residences, jobs


def _preferences(rng, kids, pets, friends, partner) -> Prefs:
    music = load("music")
    genres = rng.sample(sorted(music), rng.choice((2, 3, 3)))
    artists_by_genre = {g: [a["artist"] for a in music[g]] for g in genres}
    fav = []
    for g in genres:
        fav.extend(rng.sample(artists_by_genre[g], 2))
    fav = fav[: rng.randint(4, 6)]
    others = [a for g in genres for a in artists_by_genre[g] if a not in fav]
    pods = load("podcasts")
    shows = [s["show"] for s in pods["shows"]]
    books = [b["title"] for b in pods["audiobooks"]]
    movies = load("movies")
    movie_genres = sorted({m[2] for m in movies["movies"]})
    series_titles = [s["title"] for s in movies["series"]]
    if kids:
        series_titles_kids = ["Bluey", "Peppa Pig"]
    else:
        series_titles_kids = []
    adult_series = [s for s in series_titles if s not in ("Bluey", "Peppa Pig")]
    series = rng.sample(adult_series, rng.randint(6, 10)) + series_titles_kids[: rng.randint(0, len(series_titles_kids))]
    cuisines = rng.sample(sorted(load("cuisines")), 3)

    wtypes = load("workouts")["types"]
    core = rng.choice(("running", "running", "cycling", "swimming", "strength training", "yoga"))
    extra_pool = [t for t in sorted(wtypes) if t not in (core, "walking")]
    chosen = [core] + rng.sample(extra_pool, rng.randint(1, 2))
    if rng.random() < 0.4 and "soccer" not in chosen:
        chosen.append("soccer")
    chosen.append("walking")
    workouts = {}
    for t in chosen:
        if t == "soccer":
            workouts[t] = {"days": [rng.choice((1, 2, 3))], "p": 0.85, "hour": 19}
        elif t == "walking":
            workouts[t] = {"days": [5, 6], "p": 0.25, "hour": rng.choice(wtypes[t]["hours"])}
        elif t == core:
            workouts[t] = {"days": sorted(rng.sample(range(7), rng.randint(2, 4))), "p": 0.8,
                           "hour": rng.choice(wtypes[t]["hours"])}
        else:
            workouts[t] = {"days": sorted(rng.sample(range(7), rng.randint(1, 2))), "p": 0.6,
                           "hour": rng.choice(wtypes[t]["hours"])}
    cats = sorted(load("products")["categories"])
    shopping = {c: 0.3 for c in cats if c not in ("Baby", "Toys & Games", "Pet Supplies")}
    for c in rng.sample(sorted(shopping), 4):
        shopping[c] = rng.choice((2.0, 2.5, 3.0))
    if kids:
        shopping["Toys & Games"] = 1.5
        shopping["Baby"] = 0.0  # switched on around a baby's birth by the timeline
    if pets:
        shopping["Pet Supplies"] = 1.5
    shopping["CDs & Vinyl"] = rng.choice((0.2, 0.5, 1.0))
    regions = rng.sample(sorted(load("travel")["regions"]), 2)
    return Prefs(
        genres=genres, fav_artists=fav, other_artists=others,
        podcasts=rng.sample(shows, rng.randint(2, 4)),
        audiobooks=rng.sample(books, rng.randint(1, 3)) if rng.random() < 0.35 else [],
        movie_genres=rng.sample(movie_genres, 3), series=series, cuisines=cuisines, workouts=workouts,
        shopping=shopping, travel_regions=regions, hobbies=rng.sample(load("careers")["hobbies"], 2),
    )
