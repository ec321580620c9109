"""The kit for hand-written QUD training records: ids compacted as the bank reads them, train personas only,
and the check that keeps a record only when its tree gives the answer computed from the timeline."""

from __future__ import annotations

import json

import pytest

from app.persona.questions import expand_ids
from models.train import written as w

COUNT_MAILS = {
    "step": 'APPLY(l=QUD("emails from Julia Becker in 2022"), fct=len)', "children": [{
        "question": "emails from Julia Becker in 2022",
        "step": 'FILTER(l=QUD("emails from Julia Becker with date"), '
                'filter=lambda attr: attr["start_datetime"].year == 2022)', "children": [{
            "question": "emails from Julia Becker with date",
            "step": 'EXTRACT(l=QUD("emails from Julia Becker"), attr_names=["start_datetime"], '
                    'attr_types=[datetime.fromtimestamp])', "children": [{
                "question": "emails from Julia Becker",
                "step": 'RETRIEVE(query="emails from Julia Becker")', "children": []}]}]}]}


def test_compacted_ids_read_back_as_they_were():
    ids = ["p01-workout-00004", "p01-workout-00005", "p01-workout-00006", "p01-workout-00009",
           "p01-meeting-00010", "p01-meeting-00012/2", "p01-meeting-00013", "p01-meeting-00014"]
    compact = w.compact_ids(ids)
    assert compact == ["p01-workout-00004..00006", "p01-workout-00009", "p01-meeting-00010",
                       "p01-meeting-00012/2", "p01-meeting-00013..00014"]
    assert expand_ids(compact) == ids


def test_only_train_personas_are_written_on():
    with pytest.raises(ValueError, match="p15 is in the test split"):
        w.Life("p15")


@pytest.fixture(scope="module")
def life():
    return w.Life("p01")


def test_a_record_passes_when_its_tree_gives_the_timeline_answer_and_not_otherwise(life, tmp_path):
    mails = life.mails(lambda event, obs: "Julia Becker" in str(obs.data.get("from")))
    in_2022 = [m for m in mails if m[1].data["date"].year == 2022]
    assert 0 < len(in_2022) < len(mails)
    right = life.record("How many mails did Julia Becker send me in 2022?", COUNT_MAILS,
                        retrieve={"emails from Julia Becker": mails}, answers=[len(in_2022)], cls="mail",
                        writer="test", paraphrases=["julia becker's emails to me in 2022: how many?"])
    wrong = dict(right, question="How many emails did Julia Becker write me in 2022?", paraphrases=[],
                 answers=[len(mails)])
    path = tmp_path / "p01.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in (right, wrong)), encoding="utf-8")
    kept, rejected = w.check(w.read_records([path]), say=lambda text: None)
    assert [r["question"] for r in kept] == [right["question"]]
    assert kept[0]["paraphrases"] == right["paraphrases"]
    assert [r["question"] for r in rejected] == [wrong["question"]]
    assert f"gold [{len(mails)}]" in rejected[0]["check"]


def test_a_class_outside_the_list_is_refused(life):
    with pytest.raises(ValueError, match="class 'misc'"):
        life.record("q?", COUNT_MAILS, retrieve={}, answers=[0], cls="misc", writer="test")


def test_a_broken_line_names_the_file_and_the_line(tmp_path):
    path = tmp_path / "p02.jsonl"
    path.write_text('{"persona": "p02"}\n{not json\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"p02.jsonl:2: not a JSON record"):
        w.read_records([path])


def test_a_flight_s_destination_is_where_it_lands(life, tmp_path):
    flights = sorted(life.events("travel_leg", mode="flight"), key=lambda e: e.start)
    first = flights[0]
    assert first.attrs["to_city"] != first.attrs["from_city"]
    tree = {"step": 'ARGMIN(l=QUD("I took a flight with date and destination"), arg_attr_name="start_datetime", '
                    'val_attr_name="destination")', "children": [{
                "question": "I took a flight with date and destination",
                "step": 'EXTRACT(l=QUD("I took a flight"), attr_names=["start_datetime", "destination"], '
                        'attr_types=[datetime.fromtimestamp, str])', "children": [{
                    "question": "I took a flight", "step": 'RETRIEVE(query="I took a flight")', "children": []}]}]}
    record = life.record("Where did my first flight take me?", tree, retrieve={"I took a flight": flights},
                         answers=[first.attrs["to_city"]], cls="extract-field", writer="test")
    kept, rejected = w.check([record], say=lambda text: None)
    assert len(kept) == 1, rejected


def test_training_pairs_come_from_the_folders_asked_for(life, tmp_path, capsys):
    from models.train.qud_data import written_pairs

    mails = life.mails(lambda event, obs: "Julia Becker" in str(obs.data.get("from")))
    record = life.record("How many mails did Julia Becker send me in 2022?", COUNT_MAILS,
                         retrieve={"emails from Julia Becker": mails},
                         answers=[sum(m[1].data["date"].year == 2022 for m in mails)], cls="mail", writer="test")
    (tmp_path / "p01.jsonl").write_text(json.dumps(record) + "\n", encoding="utf-8")
    pairs = written_pairs([], folders=[tmp_path])
    assert pairs and {p["persona"] for p in pairs} == {"p01"}
    assert any("Julia Becker" in p["prompt"] for p in pairs)
    assert "1 records, 1 kept, 0 rejected" in capsys.readouterr().out
    # the default folder is the records the shipped adapter saw: the later ones in session16/ are not in it
    assert all(path.parent == w.WRITTEN_DIR for path in w.written_paths())
    assert len(w.written_paths(w.WRITTEN_DIR / "session16")) == 24
