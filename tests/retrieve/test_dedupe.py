"""De-duplication: same real-world event across sources, merged by connected components."""

from __future__ import annotations

from app.retrieve.dedupe import dedupe_events, overlap_components, same_event
from tests.retrieve.helpers import at, event, stored


def test_overlap_rules():
    workout = stored(event("w", "workout", "Soccer", {"workout_type": "soccer"}, at(2, 18), 90))
    calendar = stored(event("c", "calendar", "Football", {"summary": "Football"}, at(2, 19), 120))
    later = stored(event("l", "calendar", "Dinner", {}, at(2, 19, 30), 60))
    mail_inside = stored(event("m", "mail", "Match report", {}, at(2, 19, 29), None))
    mail_after = stored(event("n", "mail", "See you", {}, at(2, 21, 0), None))
    song = stored(event("s", "music_stream", "A - B", {}, at(2, 18, 10), 3))
    assert same_event(workout, calendar)
    assert not same_event(calendar, later)          # same source never merges
    assert same_event(workout, mail_inside)
    assert not same_event(workout, mail_after)      # workout ended 19:30, mail at 21:00
    assert same_event(calendar, mail_after)         # the point lies on the calendar entry's end
    assert same_event(song, workout)


def test_components_follow_chains_and_merge_keeps_everything():
    workout = stored(event("w", "workout", "Soccer", {"workout_type": "soccer", "duration_s": 5400.0}, at(2, 18), 60))
    calendar = stored(event("c", "calendar", "Football", {"summary": "Football", "location": "Park"}, at(2, 18, 30), 90))
    mail = stored(event("m", "mail", "Score", {"subject": "Score", "location": "Main stadium"}, at(2, 19, 45), None))
    alone = stored(event("x", "mail", "Invoice", {"subject": "Invoice"}, at(3, 9), None))
    # workout-calendar overlap, calendar-mail overlap, workout-mail do not: still one component
    assert not same_event(workout, mail)
    groups = overlap_components([mail, alone, calendar, workout])
    assert [[e.title for e in g] for g in groups] == [["Soccer", "Football", "Score"], ["Invoice"]]
    merged, single = dedupe_events([mail, alone, calendar, workout])
    assert merged.ids == tuple(sorted([workout.id, calendar.id, mail.id]))
    assert merged.get("workout_type") == "soccer" and merged.get("summary") == "Football"
    assert merged.get("location") == "Park" and merged.get("mail.location") == "Main stadium"
    assert merged.get("start") == at(2, 18) and merged.get("end") == at(2, 20)
    assert merged.get("sources") == ["calendar", "mail", "workout"]
    assert single.ids == (alone.id,) and single.get("subject") == "Invoice"


def test_songs_of_one_source_never_merge():
    songs = [stored(event(f"s{i}", "music_stream", f"Song {i}", {}, at(1, 8, i), 5)) for i in range(5)]
    assert len(dedupe_events(songs)) == 5


def test_a_component_holds_one_event_per_source():
    """Two items of one Amazon order and the order mail: the mail bridges them, but two purchases stay two."""
    lamp = stored(event("a", "online_purchase", "Lamp", {"product": "Lamp", "total": 30.0}, at(5, 12), None))
    cable = stored(event("b", "online_purchase", "Cable", {"product": "Cable", "total": 9.0}, at(5, 12), None))
    mail = stored(event("m", "mail", "Your order", {"subject": "Your order"}, at(5, 12), None))
    items = dedupe_events([lamp, cable, mail])
    assert sorted(i.get("total") for i in items) == [9.0, 30.0]
    assert sorted(len(i.ids) for i in items) == [1, 2]
    # two songs during one run: the run merges with one of them, the other song stays a song of its own
    run = stored(event("r", "workout", "Running", {"workout_type": "running"}, at(6, 7), 30))
    songs = [stored(event(f"s{i}", "music_stream", f"Song {i}", {}, at(6, 7, 5 + 10 * i), 4)) for i in range(2)]
    assert sorted(len(i.ids) for i in dedupe_events([run, *songs])) == [1, 2]


def test_the_order_of_the_events_does_not_change_the_merge():
    """Kept from the engine's old de-duplicator's test: any order of the same events gives the same items."""
    from itertools import permutations

    workout = stored(event("w", "workout", "Soccer", {"workout_type": "soccer"}, at(2, 18), 60))
    calendar = stored(event("c", "calendar", "Football", {"summary": "Football", "location": "Park"}, at(2, 18, 50), 70))
    mail = stored(event("m", "mail", "Score", {"subject": "Score", "location": "Stadium"}, at(2, 19, 50), None))
    later = stored(event("d", "mail", "Dinner", {"subject": "Dinner"}, at(2, 23), None))
    results = {repr([(i.ids, sorted(i.attrs.items(), key=str)) for i in dedupe_events(list(order))])
               for order in permutations([workout, calendar, mail, later])}
    assert len(results) == 1
    merged, alone = dedupe_events([later, mail, workout, calendar])
    assert set(merged.ids) == {workout.id, calendar.id, mail.id} and alone.ids == (later.id,)
    assert merged.get("location") == "Park"   # the event that starts first keeps a key both have


def test_dates_a_mail_names():
    from datetime import date

    from app.retrieve.dedupe import mentioned_dates

    written = date(2022, 8, 20)
    assert mentioned_dates("Reminder: your appointment on 12 March 2020", written) == [date(2020, 3, 12)]
    assert mentioned_dates("Don't forget: 5 April at 15:00", written) == [date(2022, 4, 5)]
    assert mentioned_dates("Flights: August 30th, then 2022-09-04", written) == [date(2022, 8, 30), date(2022, 9, 4)]
    assert mentioned_dates("Dinner on Friday the 26th?", written) == [date(2022, 8, 26)]   # a Friday
    assert mentioned_dates("Back on Jan 3", date(2022, 12, 20)) == [date(2023, 1, 3)]      # the nearest 3 January
    assert mentioned_dates("It may rain; ran 10.2 km today", written) == []


def test_a_mail_about_an_occasion_joins_the_event_on_the_date_it_names():
    visit = stored(event("c", "calendar", "Dentist - Dr. Zimmermann", {"summary": "Dentist"}, at(12, 8, 30), 45))
    reminder = stored(event("r", "mail", "Reminder: your appointment on 12 March 2024", {"body": "See you soon."},
                            at(9, 17), None))
    other = stored(event("o", "calendar", "Dental check-up", {"summary": "Dental check-up"}, at(20, 14), 30))
    # a mail that names no date, and one that names the day of no event, stay occasions of their own
    thanks = stored(event("t", "mail", "Thank you", {"body": "Thanks for the cleaning"}, at(12, 19), None))
    booked = stored(event("b", "mail", "Your appointment", {"body": "Confirmed for 28 March 2024 at 9:00."},
                          at(10, 9), None))
    again = stored(event("a", "mail", "Don't forget: 28 March", {"body": ""}, at(26, 9), None))
    items = dedupe_events([visit, reminder, other, thanks, booked, again])
    assert sorted(item.ids for item in items) == sorted([
        tuple(sorted([visit.id, reminder.id])), (other.id,), (thanks.id,), tuple(sorted([booked.id, again.id]))])
    assert len(dedupe_events([visit, reminder, other, thanks, booked, again], mentions=False)) == 6
    merged = next(i for i in items if visit.id in i.ids)
    # the occasion is when the visit was, and reads as the visit; the reminder adds its keys
    assert merged.get("summary") == "Dentist" and merged.get("start") == at(12, 8, 30)
    assert merged.get("title") == "Dentist - Dr. Zimmermann" and merged.get("body") == "See you soon."
    assert merged.get("sources") == ["calendar", "mail"]


def test_a_mail_naming_a_day_two_events_share_joins_neither():
    runs = [stored(event(f"w{i}", "workout", "Run", {}, at(5, 7 + 10 * i), 30)) for i in range(2)]
    mail = stored(event("m", "mail", "Race on 5 March", {}, at(1, 9), None))
    assert len(dedupe_events([*runs, mail])) == 3


def test_a_mail_naming_an_orders_id_joins_that_order_whatever_the_day():
    # two orders on one day; each order's mail comes a minute later and names the day both share, and its number
    def order(key: str, number: str, hour: int) -> tuple:
        line = stored(event(key, "online_purchase", f"Thing {key}", {"order_id": number, "total": 9.99},
                            at(6, hour, 26), None))
        mail = stored(event(f"m{key}", "mail", f"Your Amazon.com order #{number}",
                            {"body": f"Order #{number}\nPlaced on March 6, 2024\n1 x Thing {key}"}, at(6, hour, 27),
                            None))
        return line, mail
    first, first_mail = order("a", "112-4870614-3037425", 9)
    second, second_mail = order("b", "113-6119149-7932094", 15)
    items = dedupe_events([first, first_mail, second, second_mail])
    assert sorted(item.ids for item in items) == sorted([tuple(sorted([first.id, first_mail.id])),
                                                         tuple(sorted([second.id, second_mail.id]))])
    # by their times or the day they name, neither mail could tell its order
    unnumbered = [stored(event(f"u{k}", "mail", "Your Amazon.com order", {"body": "Placed on March 6, 2024"},
                               at(6, hour, 27), None)) for k, hour in (("a", 9), ("b", 15))]
    assert len(dedupe_events([first, second, *unnumbered])) == 4
    short = stored(event("s", "mail", "Order 12 shipped", {}, at(6, 16), None))
    line = stored(event("l", "online_purchase", "Thing", {"order_id": "12"}, at(6, 12), None))
    assert len(dedupe_events([line, short])) == 2   # an id this short is written by chance
