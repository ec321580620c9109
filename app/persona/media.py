"""Streams: music, podcasts and audiobooks (Spotify) and movies and series (Netflix).

Listening comes in natural sessions (commute, focus time at work, weekend afternoons, evenings, and
during workouts that the person does with music), never as isolated plays at odd hours. A session plays
favourites more than the rest of the persona's genres, sometimes an album in order, sometimes shuffled,
with skips. Each play's end is a whole second (Spotify's `ts`) and its start is `end - ms_played`, so the
importer's times equal the canonical ones exactly.
"""

from __future__ import annotations

import math
from functools import lru_cache
from datetime import date, datetime, timedelta, timezone

from app.persona.model import Canon, locator
from app.persona.resources import load, track_catalog
from app.persona.timeline import Timeline, at, stable_hash

BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_UTC = timezone.utc


@lru_cache(maxsize=None)
def spotify_id(*parts: object) -> str:
    n = stable_hash("spotify", *parts) * 0x9E3779B97F4A7C15 + stable_hash(*parts, "x")
    out = []
    for _ in range(22):
        n, r = divmod(n, 62)
        out.append(BASE62[r])
    return "".join(out)


@lru_cache(maxsize=None)
def track_ms(artist: str, track: str) -> int:
    return 150_000 + stable_hash(artist, track) % 180_000


class Player:
    """Writes Spotify plays one after the other from a cursor; each play is a canonical event."""

    def __init__(self, tl: Timeline, rng):
        self.tl, self.rng = tl, rng
        p = tl.p
        self.platform_phone = p.phone
        self.ip_home = f"198.51.100.{stable_hash(p.id, 'ip') % 250 + 1}"
        cat = track_catalog()
        self.catalog = cat
        self.by_artist: dict[str, list[dict]] = {}
        for row in cat:
            if row["genre"] in p.prefs.genres:
                self.by_artist.setdefault(row["artist"], []).append(row)
        self.artists = sorted(self.by_artist)
        self.weights = [6.0 if a in p.prefs.fav_artists else 1.0 for a in self.artists]
        self.shows = {s["show"]: s for s in load("podcasts")["shows"]}
        self.books = {b["title"]: b for b in load("podcasts")["audiobooks"]}
        self.episode_no = {s: stable_hash(p.id, s) % 40 for s in p.prefs.podcasts}
        self.episode_left: dict[str, int] = {}
        self.chapter_no = {b: 0 for b in p.prefs.audiobooks}
        self.book_queue = list(p.prefs.audiobooks)
        self.plays = 0            # Spotify rows written
        self.music_plays = 0      # music rows and the minutes they took (to learn minutes per play)
        self.music_minutes = 0.0
        self._later_cache: tuple[date, float] | None = None

    # --- rows --------------------------------------------------------------------------------

    def _row(self, day: date, end: datetime, ms: int, platform: str, reason_start: str, reason_end: str,
             shuffle: bool, skipped: bool, offline: bool, **names) -> dict:
        country = self.tl.country_on(day)
        ip = self.ip_home if country == self.tl.home_info(day)["cc"] else f"203.0.113.{stable_hash(country) % 250 + 1}"
        row = {
            "ts": end.astimezone(_UTC).strftime("%Y-%m-%dT%H:%M:%SZ"), "platform": platform, "ms_played": ms,
            "conn_country": country, "ip_addr": ip,
            "master_metadata_track_name": names.get("track"), "master_metadata_album_artist_name": names.get("artist"),
            "master_metadata_album_album_name": names.get("album"), "spotify_track_uri": names.get("track_uri"),
            "episode_name": names.get("episode"), "episode_show_name": names.get("show"),
            "spotify_episode_uri": names.get("episode_uri"),
            "audiobook_title": names.get("audiobook"), "audiobook_uri": names.get("audiobook_uri"),
            "audiobook_chapter_uri": names.get("chapter_uri"), "audiobook_chapter_title": names.get("chapter"),
            "reason_start": reason_start, "reason_end": reason_end, "shuffle": shuffle, "skipped": skipped,
            "offline": offline, "offline_timestamp": int(end.timestamp()) - 60 if offline else 0,
            "incognito_mode": False,
        }
        return row

    def _emit(self, kind: str, cursor: datetime, ms: int, row_args: dict, attrs: dict) -> tuple[Canon, datetime]:
        end_epoch = math.ceil(cursor.timestamp() + ms / 1000)
        tz = cursor.tzinfo
        end = datetime.fromtimestamp(end_epoch, tz)
        start = end - timedelta(milliseconds=ms)
        day = start.date()
        row = self._row(day, end, ms, **row_args)
        attrs = {**attrs, "ms_played": ms, "platform": row["platform"], "country": row["conn_country"]}
        event = self.tl.new(kind, start, end, attrs)
        uri = row["spotify_track_uri"] or row["spotify_episode_uri"] or row["audiobook_chapter_uri"]
        source = {"music_stream": "music_stream", "podcast_stream": "podcast_stream"}.get(kind, "audiobook_stream")
        event.add_obs("spotify", source, row, locator(source, [start], 0.01, "ms_played", ms))
        self.plays += 1
        return event, end + timedelta(seconds=self.rng.choice((0, 0, 1, 1, 2)))

    # --- sessions ----------------------------------------------------------------------------

    def music(self, start: datetime, minutes: float, platform: str, context: str, offline: bool = False) -> None:
        rng = self.rng
        stop = start + timedelta(minutes=minutes)
        shuffle = rng.random() < 0.45
        album_run: list[dict] = []
        if not shuffle and rng.random() < 0.5:
            artist = rng.choices(self.artists, self.weights)[0]
            album = rng.choice(sorted({r["album"] for r in self.by_artist[artist]}))
            album_run = [r for r in self.by_artist[artist] if r["album"] == album]
        cursor, reason_start = start, rng.choice(("clickrow", "playbtn", "appload", "clickrow"))
        first = True
        plays_before = self.music_plays
        while cursor < stop - timedelta(seconds=20):
            if album_run:
                pick = album_run.pop(0)
            elif rng.random() < 0.08:  # something outside the usual genres (a friend's tip, a playlist)
                pick = rng.choice(self.catalog)
            else:
                artist = rng.choices(self.artists, self.weights)[0]
                pick = rng.choice(self.by_artist[artist])
            full = track_ms(pick["artist"], pick["track"])
            skipped = rng.random() < (0.14 if shuffle else 0.06) and not first
            left = int((stop - cursor).total_seconds() * 1000) - 1500
            if skipped:
                ms, reason_end = rng.randint(2500, 40000), "fwdbtn"
            elif full > left:
                ms, reason_end = max(1000, left), rng.choice(("endplay", "logout", "endplay"))
            else:
                ms, reason_end = full, "trackdone"
            if ms > left + 1500:
                break
            args = {"platform": platform, "reason_start": reason_start, "reason_end": reason_end, "shuffle": shuffle,
                    "skipped": skipped, "offline": offline, "track": pick["track"], "artist": pick["artist"],
                    "album": pick["album"], "track_uri": "spotify:track:" + spotify_id(pick["artist"], pick["track"])}
            attrs = {"artist": pick["artist"], "track": pick["track"], "album": pick["album"], "genre": pick["genre"],
                     "uri": args["track_uri"], "skipped": skipped, "shuffle": shuffle, "context": context}
            _, cursor = self._emit("music_stream", cursor, ms, args, attrs)
            reason_start = "trackdone" if reason_end == "trackdone" else "fwdbtn"
            first = False
            self.music_plays += 1
            if reason_end in ("endplay", "logout"):
                break
        if self.music_plays > plays_before:
            self.music_minutes += (cursor - start).total_seconds() / 60

    def other_rows_expected(self, plans: list, today: date) -> float:
        """Podcast and audiobook rows the remaining plans will still write (about one per session)."""
        if self._later_cache is None:
            self._later_cache = (today, float(sum(1 for plan in plans if plan[5] != "music" and plan[0] >= today)))
        day0, n0 = self._later_cache
        elapsed = (today - day0).days
        total_days = max(1, (plans[-1][0] - day0).days)
        return n0 * max(0.0, 1 - elapsed / total_days) * 1.4

    def podcast(self, start: datetime, minutes: float, platform: str, context: str) -> None:
        rng, p = self.rng, self.tl.p
        show_name = rng.choice(p.prefs.podcasts)
        show = self.shows[show_name]
        if show_name not in self.episode_left:
            self.episode_no[show_name] += 1
            self.episode_left[show_name] = int(rng.uniform(*show["minutes"]) * 60_000)
        n = self.episode_no[show_name]
        topics = show["topics"]
        topic = topics[n % len(topics)] + ("" if n < len(topics) else f" (Part {n // len(topics) + 1})")
        title = show["pattern"].format(n=100 + n, topic=topic, season=1 + n // 8, episode=1 + n % 8)
        ms = min(self.episode_left[show_name], int(minutes * 60_000))
        left = self.episode_left[show_name] - ms
        finished = left < 30_000
        uri = "spotify:episode:" + spotify_id(show_name, title)
        args = {"platform": platform, "reason_start": rng.choice(("clickrow", "playbtn", "appload")),
                "reason_end": "trackdone" if finished else "endplay", "shuffle": False, "skipped": False,
                "offline": False, "episode": title, "show": show_name, "episode_uri": uri}
        attrs = {"show": show_name, "episode": title, "uri": uri, "category": show["category"], "context": context,
                 "finished": finished}
        self._emit("podcast_stream", start, ms, args, attrs)
        if finished:
            del self.episode_left[show_name]
        else:
            self.episode_left[show_name] = left

    def audiobook(self, start: datetime, minutes: float, platform: str) -> None:
        rng = self.rng
        title = self.book_queue[0]
        book = self.books[title]
        cursor, stop = start, start + timedelta(minutes=minutes)
        while cursor < stop and title:
            self.chapter_no[title] += 1
            if self.chapter_no[title] > book["chapters"]:
                self.book_queue.append(self.book_queue.pop(0))  # next book in the queue
                self.chapter_no[title] = 0
                return
            chapter = f"Chapter {self.chapter_no[title]}"
            ms = rng.randint(14, 38) * 60_000 + rng.randint(0, 59_999)
            args = {"platform": platform, "reason_start": "trackdone", "reason_end": "trackdone", "shuffle": False,
                    "skipped": False, "offline": False, "audiobook": title, "chapter": chapter,
                    "audiobook_uri": "spotify:audiobook:" + spotify_id(title),
                    "chapter_uri": "spotify:episode:" + spotify_id(title, chapter)}
            _, cursor = self._emit("audiobook_stream", cursor, ms, args,
                                   {"audiobook": title, "chapter": chapter, "author": book["author"]})


# Observations per event still to come when the audio is planned (calendar entries, mails, ...), used
# to aim every persona at a total near PerQA's ~40,000 events (Section 4.2).
LATER_OBSERVATIONS = {"meeting": 1.35, "party": 1.3, "holiday": 1.1, "doctor": 1.35, "trip": 2.6, "travel_leg": 0.8,
                      "trip_highlight": 0.5, "birthday": 1.3, "milestone": 1.8, "errand": 1.0, "work_meeting": 1.0,
                      "call": 1.0}
MINUTES_PER_PLAY = 3.3   # first guess; replaced by what the sessions actually give once there are enough plays


def _others_estimate(tl: Timeline) -> float:
    """Events the import will hold that are not Spotify plays: what exists now plus what is still to come."""
    p = tl.p
    days = (p.window_end - p.window_start).days + 1
    now = sum(len(e.obs) for e in tl.events)
    later = sum(LATER_OBSERVATIONS.get(e.kind, 0.0) for e in tl.events)
    later += sum(1 for e in tl.events if e.kind == "workout" and "series" in e.attrs)
    purchases = p.rates.orders_per_month * days / 30.4 * 1.3
    mails = days * 4 * 0.2 / 7 + days * 5 / 7 * 0.17
    return now + later + purchases * 1.03 + mails


def add_audio(tl: Timeline) -> None:
    p, rng = tl.p, tl.rng("audio")
    player = Player(tl, rng)
    target = rng.randint(38_500, 41_500) - _others_estimate(tl)   # Spotify rows to write in all
    phone = p.phone
    desktop = "osx" if phone == "ios" else "windows"
    _music_on_the_move(tl, rng, player, phone)
    _play_sessions(tl, player, _listening_plans(tl, rng, phone, desktop), target)


def _music_on_the_move(tl: Timeline, rng, player: Player, phone: str) -> None:
    """Music during workouts (as often as the workout type has music) and during most travel legs."""
    types = load("workouts")["types"]
    for w in tl.of_kind("workout"):
        if rng.random() < types[w.attrs["workout_type"]]["music"]:
            start = w.start + timedelta(seconds=rng.randint(5, 90))
            minutes = (w.end - start).total_seconds() / 60 - rng.uniform(0.2, 1.5)
            player.music(start, minutes, phone, "workout")
    for leg in tl.of_kind("travel_leg"):
        if rng.random() < 0.7:
            player.music(leg.start + timedelta(minutes=20), (leg.end - leg.start).total_seconds() / 60 * 0.6,
                         phone, "travel", offline=leg.attrs["mode"] == "flight")


def _listening_plans(tl: Timeline, rng, phone: str, desktop: str) -> list[tuple]:
    """(day, hour, minutes, platform, context, what) of every listening session, `what` being music, podcast
    (on a commute of a podcast day) or audiobook (in the evening of an audiobook day)."""
    p = tl.p
    plans = []
    for day in tl.days():
        sessions = _day_sessions(tl, rng, day, phone, desktop)
        podcast_today = rng.random() < p.rates.podcast_days
        audiobook_today = bool(p.prefs.audiobooks) and rng.random() < 0.25
        for hour, minutes, platform, context in sessions:
            what = "music"
            if context == "commute" and podcast_today:
                what = "podcast"
            elif context == "evening" and audiobook_today:
                what = "audiobook"
            plans.append((day, hour, minutes, platform, context, what))
    return plans


def _day_sessions(tl: Timeline, rng, day: date, phone: str, desktop: str) -> list[tuple[float, float, str, str]]:
    """(hour, minutes, platform, context) of a day's sessions: commutes and focus time on work days, afternoons
    and mornings on free days at home, some on trip days, and evenings on any day."""
    sessions: list[tuple[float, float, str, str]] = []
    if tl.works_on(day):
        sessions.append((rng.uniform(7.4, 8.6), rng.uniform(22, 42), phone, "commute"))
        sessions.append((rng.uniform(17.2, 18.4), rng.uniform(22, 42), phone, "commute"))
        if rng.random() < 0.45:
            sessions.append((rng.choice((9.5, 10.0, 14.0, 14.5)), rng.uniform(45, 110), desktop, "focus"))
    elif not tl.trip_on(day):
        if rng.random() < 0.55:
            sessions.append((rng.uniform(13.5, 16.5), rng.uniform(50, 130), phone, "afternoon"))
        if rng.random() < 0.35:
            sessions.append((rng.uniform(9.0, 11.0), rng.uniform(30, 70), phone, "morning"))
    else:
        if rng.random() < 0.5:
            sessions.append((rng.uniform(9.0, 18.0), rng.uniform(20, 60), phone, "travel"))
    if rng.random() < 0.45:
        sessions.append((rng.uniform(19.5, 22.5), rng.uniform(25, 80), phone, "evening"))
    return sessions


def _play_sessions(tl: Timeline, player: Player, plans: list[tuple], target: float) -> None:
    """Plays the planned sessions that find the time free."""
    # Music sessions are stretched or shortened by one factor, re-estimated as the plays come in, so that
    # the rows end near the target whatever the persona's routine.
    left_minutes = sum(plan[2] for plan in plans if plan[5] == "music")
    for day, hour, minutes, platform, context, what in plans:
        if what == "music":
            written = player.plays
            wanted = max(0.0, target - written - player.other_rows_expected(plans, day))
            per_play = player.music_minutes / player.music_plays if player.music_plays > 300 else MINUTES_PER_PLAY
            factor = min(2.0, max(0.3, wanted * per_play / left_minutes)) if left_minutes else 1.0
            left_minutes -= minutes
            minutes *= factor
        start = at(day, hour, tl.zone_on(day))
        end = start + timedelta(minutes=minutes)
        if minutes < 3 or not tl.is_free(start, end):
            continue
        tl.reserve(start, end, "listening")
        if what == "podcast":
            player.podcast(start, minutes, platform, context)
        elif what == "audiobook":
            player.audiobook(start, minutes, platform)
        else:
            player.music(start, minutes, platform, context)


# --- Netflix ------------------------------------------------------------------------------------

EPISODE_DEVICES = ("Chrome PC (Cadmium)", "Apple iPhone 12 Pro", "Apple iPad Air (4th Gen)")


def _episode_title(series: str, season: int, episode: int) -> str:
    words = load("movies")["episode_words"]
    h = stable_hash(series, season, episode)
    return f"{words['first'][h % len(words['first'])]} {words['second'][(h // 97) % len(words['second'])]}"


def add_netflix(tl: Timeline) -> None:
    p, rng = tl.p, tl.rng("netflix")
    catalog = load("movies")
    liked = [m for m in catalog["movies"] if m[2] in p.prefs.movie_genres]
    others = [m for m in catalog["movies"] if m[2] not in p.prefs.movie_genres]
    shows = _SeriesQueue(p.prefs.series, catalog["series"])
    profile = p.me.first
    tl.noise.setdefault("netflix", [])
    for day in tl.days():
        away = tl.away_on(day) is not None
        if tl.trip_on(day) and not away:
            continue
        device = rng.choice(EPISODE_DEVICES) if away else (p.tv_device if rng.random() < 0.8 else rng.choice(EPISODE_DEVICES))
        weekend = day.weekday() >= 4
        movie_p = p.rates.movies_per_week / 7 * (1.6 if weekend else 0.7) * (0.3 if away else 1)
        series_p = p.rates.episodes_per_week / 7 / 2.2 * (0.4 if away else 1)
        if rng.random() < movie_p and _movie_night(tl, rng, day, liked, others, profile, device):
            continue
        if rng.random() < series_p and shows.active:
            _series_evening(tl, rng, day, shows, profile, device)


class _SeriesQueue:
    """The persona's series in the order they watch them, two at a time: when one ends, the next one waiting
    takes its place."""

    def __init__(self, titles: list[str], catalog: list[dict]):
        self.info = {s["title"]: s for s in catalog}
        self.queue = [s for s in titles if s in self.info]
        self.progress = {s: [1, 1] for s in self.queue}      # next season, episode
        self.active = self.queue[:2]

    def finish(self, title: str) -> None:
        self.active.remove(title)
        waiting = [s for s in self.queue if s not in self.active and self.progress[s][0] <= len(self.info[s]["seasons"])]
        if waiting:
            self.active.append(waiting[0])


def _movie_night(tl: Timeline, rng, day: date, liked: list, others: list, profile: str, device: str) -> bool:
    """A movie in the evening, if the time is free (else False): sometimes stopped and finished the next
    evening, sometimes after a trailer."""
    p = tl.p
    movie = rng.choice(liked) if rng.random() < 0.75 else rng.choice(others)
    start = at(day, rng.choice((19.5, 20.0, 20.25, 20.5, 21.0, 21.5)), tl.zone_on(day)).replace(second=rng.randint(0, 59))
    runtime = movie[3] * 60
    partial = rng.random() < 0.12
    watched = runtime * (rng.uniform(0.25, 0.7) if partial else rng.uniform(0.96, 1.0))
    if not tl.is_free(start, start + timedelta(seconds=watched)):
        return False
    _movie(tl, start, watched, movie, profile, device, latest=not partial)
    if partial:
        nxt = start + timedelta(days=1, minutes=rng.randint(-30, 60))
        rest = runtime - watched
        if nxt.date() <= p.window_end and tl.is_free(nxt, nxt + timedelta(seconds=rest)):
            _movie(tl, nxt, rest, movie, profile, device, latest=True, resumed_from=watched)
    if rng.random() < 0.3:
        tl.noise["netflix"].append(_trailer(rng, start - timedelta(minutes=3), profile, device, tl.country_on(day)))
    return True


def _series_evening(tl: Timeline, rng, day: date, shows: _SeriesQueue, profile: str, device: str) -> None:
    """A few episodes in a row of one active series (more of a short kids' show, in the late afternoon), until
    the time is taken or the series ends."""
    title = rng.choice(shows.active)
    info = shows.info[title]
    kids_show = info["genre"] == "animation" and info["minutes"][1] <= 10
    n_eps = rng.choices((1, 2, 3, 4, 5), (35, 30, 18, 10, 7))[0] + (3 if kids_show else 0)
    hour = rng.uniform(17.0, 18.0) if kids_show else rng.choice((20.0, 20.5, 21.0, 21.5, 22.0))
    cursor = at(day, hour, tl.zone_on(day)).replace(second=rng.randint(0, 59))
    for k in range(n_eps):
        season, episode = shows.progress[title]
        if season > len(info["seasons"]):
            shows.finish(title)
            break
        length = rng.uniform(*info["minutes"]) * 60
        watched = length if rng.random() < 0.93 or k < n_eps - 1 else length * rng.uniform(0.2, 0.8)
        if not tl.is_free(cursor, cursor + timedelta(seconds=watched)):
            break
        _episode(tl, cursor, watched, title, season, episode, info, profile, device, autoplay=k > 0)
        cursor += timedelta(seconds=watched + rng.randint(4, 40))
        if watched >= length * 0.9:
            episode += 1
            if episode > info["seasons"][season - 1]:
                season, episode = season + 1, 1
            shows.progress[title] = [season, episode]


def _netflix_row(start: datetime, seconds: float, title: str, profile: str, device: str, country: str,
                 attributes: str = "", supplemental: str = "", bookmark: float | None = None, latest: bool = True) -> dict:
    return {"profile": profile, "start_utc": start.astimezone(_UTC).strftime("%Y-%m-%d %H:%M:%S"),
            "duration": _hms(seconds), "attributes": attributes, "title": title, "supplemental": supplemental,
            "device": device, "bookmark": _hms(bookmark if bookmark is not None else seconds),
            "latest_bookmark": _hms(bookmark if bookmark is not None else seconds) if latest else "Not latest view",
            "country": country}


def _hms(seconds: float) -> str:
    s = int(round(seconds))
    return f"{s // 3600:02d}:{s % 3600 // 60:02d}:{s % 60:02d}"


def _country_label(cc: str) -> str:
    names = {"DE": "Germany", "GB": "United Kingdom", "US": "United States", "NL": "Netherlands", "ES": "Spain",
             "FR": "France", "AT": "Austria", "CA": "Canada", "SE": "Sweden", "IT": "Italy", "AU": "Australia",
             "DK": "Denmark", "CH": "Switzerland", "PT": "Portugal", "GR": "Greece", "HR": "Croatia", "IS": "Iceland",
             "NO": "Norway", "IE": "Ireland", "CZ": "Czech Republic", "HU": "Hungary", "PL": "Poland", "MX": "Mexico",
             "JP": "Japan", "TH": "Thailand", "ID": "Indonesia", "KR": "South Korea", "SG": "Singapore"}
    return f"{cc} ({names.get(cc, cc)})"


def _movie(tl: Timeline, start: datetime, seconds: float, movie: list, profile: str, device: str, *, latest: bool,
           resumed_from: float | None = None) -> None:
    start = start.replace(microsecond=0)
    end = start + timedelta(seconds=round(seconds))
    country = _country_label(tl.country_on(start.date()))
    bookmark = seconds + (resumed_from or 0)
    row = _netflix_row(start, seconds, movie[0], profile, device, country, bookmark=bookmark, latest=latest)
    event = tl.new("movie_stream", start, end, {
        "title": movie[0], "year": movie[1], "genre": movie[2], "runtime_s": movie[3] * 60,
        "duration_s": float(round(seconds)), "profile": profile, "device": device, "country": country,
        "resumed": resumed_from is not None})
    event.add_obs("netflix", "movie_stream", row, locator("movie_stream", [start], 1.0, "title", movie[0]))
    tl.reserve(start, end, "netflix")


def _episode(tl: Timeline, start: datetime, seconds: float, series: str, season: int, episode: int, info: dict,
             profile: str, device: str, *, autoplay: bool) -> None:
    start = start.replace(microsecond=0)
    end = start + timedelta(seconds=round(seconds))
    name = _episode_title(series, season, episode)
    season_label = "Limited Series" if len(info["seasons"]) == 1 and info["genre"] == "drama" else f"Season {season}"
    full = f"{series}: {season_label}: {name} (Episode {episode})"
    country = _country_label(tl.country_on(start.date()))
    row = _netflix_row(start, seconds, full, profile, device, country,
                       attributes="Autoplayed: user action: None; " if autoplay else "")
    event = tl.new("tvseries_stream", start, end, {
        "series": series, "season": season, "episode": episode, "episode_title": name, "title": full,
        "genre": info["genre"], "duration_s": float(round(seconds)), "profile": profile, "device": device,
        "country": country})
    event.add_obs("netflix", "tvseries_stream", row, locator("tvseries_stream", [start], 1.0, "series", series))
    tl.reserve(start, end, "netflix")


def _trailer(rng, start: datetime, profile: str, device: str, cc: str) -> dict:
    title = rng.choice(load("movies")["series"])["title"]
    kind = rng.choice(("TRAILER", "HOOK", "TEASER_TRAILER"))
    label = f"Season 1 Trailer: {title}" if kind != "HOOK" else f"Season 1 Plot Clip: {title}"
    return _netflix_row(start.replace(microsecond=0), rng.randint(5, 70), label, profile, device, _country_label(cc),
                        attributes="Autoplayed: user action: None; ", supplemental=kind)
