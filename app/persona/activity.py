"""Workouts (Apple Health) and online purchases (Amazon): structured events kept as they are.

Workouts follow the persona's weekly plan (types, days, usual hour) with skipped days, and become
walks, hikes or runs at the destination during trips. A weekly football training is also a recurring
calendar entry (the same event in two sources). Purchases arrive as orders of one to three items.
"""

from __future__ import annotations

import hashlib
from datetime import date, timedelta

from app.persona.model import locator
from app.persona.resources import load
from app.persona.timeline import Timeline, at

CURRENCY_RATE = {"EUR": 1.0, "GBP": 0.86, "USD": 1.08, "CAD": 1.47, "AUD": 1.65, "SEK": 11.4, "CHF": 0.95}
CONSUMABLES = {"Grocery", "Pet Supplies", "Beauty", "Baby", "Office"}
BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def _workout(tl: Timeline, rng, wt: str, start, minutes: float, spec: dict, extra: dict | None = None):
    seconds = round(minutes * 60)
    end = start + timedelta(seconds=seconds)
    hr_avg = round(rng.uniform(*spec["hr_avg"]), 1)
    attrs = {
        "workout_type": wt,
        "activity_type": spec["apple"],
        "duration_s": float(seconds),
        "energy_kcal": round(minutes * rng.uniform(*spec["kcal_per_min"]), 1),
        "heart_rate_avg": hr_avg,
        "heart_rate_min": float(round(hr_avg - rng.uniform(25, 45))),
        "heart_rate_max": float(round(hr_avg + rng.uniform(*spec["hr_max_extra"]))),
        "indoor": rng.random() < spec["indoor"],
        "city": tl.city_on(start.date()),
    }
    if spec["km_per_min"]:
        attrs["distance_km"] = round(minutes * rng.uniform(*spec["km_per_min"]), 2)
    attrs.update(extra or {})
    tl.reserve(start, end, "workout")
    event = tl.new("workout", start, end, attrs)
    event.add_obs("apple", "workout", {}, locator("workout", [start], 2.0, "activity_type", spec["apple"]))
    return event


def _football_series(p, day: date) -> str:
    """One weekly training series per home (a move to another city starts a new one)."""
    return f"{p.id}-football{p.residences.index(p.home_on(day))}"


def add_workouts(tl: Timeline) -> None:
    p, rng = tl.p, tl.rng("workouts")
    types = load("workouts")["types"]
    plan = p.prefs.workouts
    football_index = 0
    for day in tl.days():
        tz = tl.zone_on(day)
        if tl.trip_on(day):
            trip = tl.away_on(day)
            if trip and rng.random() < 0.35:
                wt = "hiking" if trip.region == "Alps" or rng.random() < 0.2 else ("running" if "running" in plan else "walking")
                start = at(day, rng.choice((7.0, 8.0, 9.0)), tz).replace(second=rng.randint(0, 59))
                minutes = rng.uniform(*types[wt]["minutes"])
                if tl.is_free(start, start + timedelta(minutes=minutes)):
                    _workout(tl, rng, wt, start, minutes, types[wt], {"on_trip": trip.canon.id})
            if "soccer" in plan and day.weekday() in plan["soccer"]["days"]:
                tl.skipped_occurrences.setdefault(_football_series(p, day), []).append(at(day, 19.0, tz))
                football_index += 1
            continue
        for wt in sorted(plan):
            rule = plan[wt]
            if day.weekday() not in rule["days"]:
                continue
            spec = types[wt]
            if wt == "soccer":
                series_start = at(day, 19.0, tz)
                if rng.random() < rule["p"] and tl.is_free(series_start, series_start + timedelta(minutes=100)):
                    start = series_start + timedelta(minutes=rng.randint(2, 12), seconds=rng.randint(0, 59))
                    _workout(tl, rng, wt, start, rng.uniform(75, 95), spec, {
                        "series": _football_series(p, day), "occurrence": football_index, "occurrence_start": series_start,
                        "series_minutes": 105, "series_every_days": 7, "series_hour": 19.0, "series_tz": tz.key,
                        "title": "Football training"})
                else:
                    tl.skipped_occurrences.setdefault(_football_series(p, day), []).append(series_start)
                football_index += 1
                continue
            if rng.random() >= rule["p"]:
                continue
            hour = rule["hour"] + rng.choice((-0.5, -0.25, 0, 0, 0.25, 0.5, 1.0))
            if day.weekday() >= 5 and hour < 8:
                hour += 2
            minutes = rng.uniform(*spec["minutes"])
            if wt in ("hiking",) and day.weekday() < 5:
                continue
            for shift in (0, 1.5, -1.5, 3):
                start = at(day, hour + shift, tz).replace(second=rng.randint(0, 59))
                if tl.is_free(start, start + timedelta(minutes=minutes)):
                    _workout(tl, rng, wt, start, minutes, spec)
                    break


def _price(rng, low: float, high: float, currency: str) -> float:
    value = rng.uniform(low, high) * CURRENCY_RATE[currency]
    if currency == "SEK":
        return float(round(value / 10) * 10 - 1)
    cents = rng.choice((0.99, 0.99, 0.49, 0.95, 0.0))
    return round(int(value) + cents, 2)


def asin_for(name: str, category: str) -> str:
    digest = hashlib.blake2b(name.encode("utf-8"), digest_size=16).digest()
    if category == "Books":  # book ASINs are ISBN-10s
        return "".join(str(b % 10) for b in digest[:9]) + "X0123456789"[digest[9] % 11]
    n = int.from_bytes(digest, "big")
    chars = []
    for _ in range(8):
        n, r = divmod(n, 36)
        chars.append("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[r])
    return "B0" + "".join(chars)


def _catalog(p) -> dict[str, list]:
    products = load("products")
    catalog = {c: list(items) for c, items in products["categories"].items()}
    music = load("music")
    vinyl = []
    for genre in p.prefs.genres:
        for a in music[genre]:
            if a["artist"] in p.prefs.fav_artists:
                for album in a["albums"]:
                    fmt = products["music_formats"][len(album) % len(products["music_formats"])]
                    vinyl.append([f"{album} {fmt} - {a['artist']}", 19, 34])
    catalog["CDs & Vinyl"] = vinyl
    return catalog


def add_purchases(tl: Timeline) -> None:
    p, rng = tl.p, tl.rng("purchases")
    catalog = _catalog(p)
    births = [k.birthday for k in p.kids if p.window_start <= k.birthday <= p.window_end]
    rate = p.rates.orders_per_month / 30.4
    for day in tl.days():
        n_orders = sum(rng.random() < rate / 2 for _ in range(2))
        if tl.away_on(day):
            n_orders = 1 if n_orders and rng.random() < 0.2 else 0
        for _ in range(n_orders):
            info = tl.home_info(day)
            currency = info["currency"]
            hour = rng.choice((8, 10, 12, 13, 17, 19, 20, 21, 21, 22, 22, 23)) + rng.random()
            start = at(day, hour, tl.zone_on(day)).replace(second=rng.randint(0, 59))
            order_id = f"{rng.choice(info['order_prefix'])}-{rng.randint(1000000, 9999999)}-{rng.randint(1000000, 9999999)}"
            weights = dict(p.prefs.shopping)
            if any(b - timedelta(days=90) <= day <= b + timedelta(days=400) for b in births):
                weights["Baby"] = 3.0
            cats = [c for c in sorted(weights) if weights[c] > 0 and catalog.get(c)]
            n_items = rng.choices((1, 2, 3), (75, 18, 7))[0]
            chosen: list = []
            for _i in range(n_items):
                cat = rng.choices(cats, [weights[c] for c in cats])[0]
                item = rng.choice(catalog[cat])
                if any(item[0] == c[1][0] for c in chosen):
                    continue
                chosen.append((cat, item))
            for line, (cat, (name, low, high)) in enumerate(chosen):
                quantity = rng.choices((1, 2, 3), (70, 22, 8))[0] if cat in CONSUMABLES else 1
                unit = _price(rng, low, high, currency)
                event = tl.new("online_purchase", start, start, {
                    "product": name, "category": cat, "quantity": quantity, "unit_price": unit,
                    "total": round(unit * quantity, 2), "currency": currency, "order_id": order_id,
                    "asin": asin_for(name, cat), "site": info["amazon"], "vat": info["vat"], "line": line,
                    "ship_days": rng.choice((1, 1, 2, 2, 3, 5)),
                })
                event.add_obs("amazon", "online_purchase", {},
                              locator("online_purchase", [start], 2.0, "asin", event.attrs["asin"]))
