"""The derivation rule (ReQAP Figure 4), depth and repeat checks on steps and trees."""

from __future__ import annotations

from app.engine.syntax import parse_call
from app.engine.tree import Node
from app.qud.validate import (
    Needs,
    asked_specifics,
    impossible_comparisons,
    child_needs,
    condition_refs,
    lambda_refs,
    lost_specifics,
    produced_and_used,
    tree_problems,
)
from app.qud.validate import step_problems as typed_step_problems
from app.qud.validate import Problem, ProblemKind
from app.qud.vocabulary import attribute_names


def step_problems(*args, **kwargs) -> list[str]:
    """The problems' texts (most tests here read what a person reads; the kinds have their own test)."""
    problems = typed_step_problems(*args, **kwargs)
    assert all(isinstance(p, Problem) for p in problems)
    return [p.text for p in problems]


def test_problems_are_typed_and_a_guard_can_be_switched_off():
    question = "How often did I swim?"
    retrieve = parse_call('RETRIEVE(query="my runs in 2023")')
    problems = typed_step_problems(retrieve, "my swims", Needs(frozenset({"distance_km"})), root_question=question)
    assert [p.kind for p in problems] == [ProblemKind.NEW_TOPIC, ProblemKind.NEEDS_EXTRACT]
    assert not ProblemKind.NEW_TOPIC.structural and ProblemKind.NEEDS_EXTRACT.structural
    off = typed_step_problems(retrieve, "my swims", Needs(frozenset({"distance_km"})), root_question=question,
                              guards_off=frozenset({"new_topic"}))
    assert [p.kind for p in off] == [ProblemKind.NEEDS_EXTRACT]


def tree(obj) -> Node:
    return Node.from_json(obj)


def leaf(question, query):
    return {"question": question, "step": f'RETRIEVE(query="{query}")', "children": []}


def test_lambda_and_condition_references():
    call = parse_call('MAP(l=QUD("g"), fct=lambda group: sum(i["ms_played"] for i in group), res_name="ms")')
    assert lambda_refs(call.get("fct")) == (set(), {"ms_played"})
    call = parse_call('FILTER(l=QUD("x"), filter=lambda attr: attr["year"] == 2023 and "a" in attr["title"].lower())')
    assert lambda_refs(call.get("filter")) == ({"year", "title"}, set())
    assert condition_refs("i1.start_datetime >= i2.start_datetime and i1['artist'] == i2.end_date") == (
        {"start_datetime", "artist"}, {"start_datetime", "end_date"})


def test_produced_and_used_per_operator():
    assert produced_and_used(parse_call('EXTRACT(l=QUD("x"), attr_names=["total", "product"])')) == ({"total", "product"}, [])
    assert produced_and_used(parse_call('GROUP_BY(l=QUD("x"), attr_names=["artist"])')) == ({"artist"}, [("artist", "row")])
    assert produced_and_used(parse_call('UNNEST(l=QUD("x"), nested_attr_name="to", unnested_attr_name="recipient")')) == (
        {"recipient"}, [("to", "row")])
    assert produced_and_used(parse_call('ARGMAX(l=QUD("x"), arg_attr_name="count", val_attr_name="artist")')) == (
        set(), [("count", "row"), ("artist", "row")])
    assert produced_and_used(parse_call('MAP(l=QUD("x"), fct=len, res_name="count")')) == ({"count"}, [])


SUM_OVER_RETRIEVE = {
    "question": "How much did I spend?",
    "step": 'SUM(l=QUD("my purchases"), attr_name="total")',
    "children": [leaf("my purchases", "I bought something")],
}


def test_an_attribute_nobody_produces_is_not_derivable():
    problems = tree_problems(tree(SUM_OVER_RETRIEVE))
    assert [(p.kind, p.text) for p in problems] == [(
        ProblemKind.NOT_DERIVABLE,
        "root (SUM): attribute 'total' is not derivable: no EXTRACT, MAP, GROUP_BY or UNNEST below produces it",
    )]


def test_extract_below_makes_it_derivable_and_fixed_columns_need_nothing():
    fixed = tree({
        "question": "When did I last buy something?",
        "step": 'MAX(l=QUD("my purchases"), attr_name="start_date")',
        "children": [leaf("my purchases", "I bought something")],
    })
    assert tree_problems(fixed) == []
    extracted = tree({
        "question": "How much did I spend?",
        "step": 'SUM(l=QUD("my purchases with total"), attr_name="total")',
        "children": [{
            "question": "my purchases with total",
            "step": 'EXTRACT(l=QUD("my purchases"), attr_names=["total"], attr_types=[float])',
            "children": [leaf("my purchases", "I bought something")],
        }],
    })
    assert tree_problems(extracted) == []


def test_group_by_keeps_only_its_keys():
    bad = tree({
        "question": "Which artist?",
        "step": 'ARGMAX(l=QUD("songs per artist"), arg_attr_name="ms_played", val_attr_name="artist")',
        "children": [{
            "question": "songs per artist",
            "step": 'GROUP_BY(l=QUD("songs with artist and ms"), attr_names=["artist"])',
            "children": [{
                "question": "songs with artist and ms",
                "step": 'EXTRACT(l=QUD("songs"), attr_names=["artist", "ms_played"])',
                "children": [leaf("songs", "I listened to a song")],
            }],
        }],
    })
    assert [str(p) for p in tree_problems(bad)] == [
        "root (ARGMAX): attribute 'ms_played' is not derivable: no EXTRACT, MAP, GROUP_BY or UNNEST below produces it"
    ]
    assert step_problems(parse_call('GROUP_BY(l=QUD("songs with artist"), attr_names=["artist"])'),
                         "songs per artist", Needs(frozenset({"ms_played"}))) == [
        "GROUP_BY keeps only its keys ['artist'], but ms_played is needed above"]


def test_join_sides_are_checked_separately():
    bad = tree({
        "question": "Songs while running?",
        "step": 'JOIN(l1=QUD("songs"), l2=QUD("runs with distance"), condition="i1.distance_km == i2.distance_km")',
        "children": [
            leaf("songs", "I listened to a song"),
            {"question": "runs with distance", "step": 'EXTRACT(l=QUD("runs"), attr_names=["distance_km"])',
             "children": [leaf("runs", "I went running")]},
        ],
    })
    assert [str(p) for p in tree_problems(bad)] == [
        "root (JOIN): attribute 'distance_km' is not derivable: no EXTRACT, MAP, GROUP_BY or UNNEST below produces it"
    ]


def test_needs_flow_down_the_tree():
    sum_call = parse_call('SUM(l=QUD("x"), attr_name="total")')
    assert child_needs(sum_call, Needs()) == [Needs(frozenset({"total"}))]
    filter_call = parse_call('FILTER(l=QUD("x"), filter=lambda attr: attr["year"] == 2023 and attr["category"] == "Books")')
    assert child_needs(filter_call, Needs(frozenset({"total"}))) == [Needs(frozenset({"total", "category"}))]
    extract = parse_call('EXTRACT(l=QUD("x"), attr_names=["total"])')
    assert child_needs(extract, Needs(frozenset({"total", "category"}))) == [Needs(frozenset({"category"}))]
    map_group = parse_call('MAP(l=QUD("g"), fct=lambda group: sum(i["ms_played"] for i in group), res_name="ms_total")')
    assert child_needs(map_group, Needs(frozenset({"ms_total", "artist"}))) == [
        Needs(frozenset({"artist"}), frozenset({"ms_played"}))]
    group = parse_call('GROUP_BY(l=QUD("s"), attr_names=["artist"])')
    assert child_needs(group, Needs(frozenset({"artist"}), frozenset({"ms_played"}))) == [
        Needs(frozenset({"artist", "ms_played"}))]
    join = parse_call('JOIN(l1=QUD("a"), l2=QUD("b"), condition="i1.start_date == i2.day_name")')
    assert child_needs(join, Needs(frozenset({"artist"}))) == [Needs(frozenset({"artist"})), Needs(frozenset({"day_name"}))]


def test_step_problems_retrieve_with_needs_depth_and_repeats():
    retrieve = parse_call('RETRIEVE(query="I bought something")')
    assert step_problems(retrieve, "my purchases", Needs()) == []
    assert step_problems(retrieve, "my purchases with total", Needs(frozenset({"total"}))) == [
        "RETRIEVE gives only fixed columns, but total is needed above (EXTRACT it)"]
    apply = parse_call('APPLY(l=QUD("my runs"), fct=len)')
    assert step_problems(apply, "How often did I run?", Needs(), depth=7, max_depth=8) == [
        "depth limit: a step at depth 8 would exceed the limit of 8 levels"]
    assert step_problems(apply, "How often did I run?", Needs(), path=["My runs?"]) == [
        "sub-question 'my runs' repeats a question above it"]
    same = parse_call('FILTER(l=QUD("my runs"), filter=lambda attr: attr["year"] == 2023)')
    assert step_problems(same, "My runs", Needs()) == ["sub-question 'my runs' repeats a question above it"]
    no_input = parse_call('APPLY(l="my runs", fct=len)')
    assert "APPLY needs a sub-question QUD(\"...\") as its input" in step_problems(no_input, "q", Needs())
    unknown = parse_call('SUM(l=QUD("x"), attr_name="totl")')
    assert step_problems(unknown, "q", Needs(), allowed_attributes=frozenset(attribute_names())) == [
        "unknown attribute(s) totl"]


def test_tree_depth_and_repeated_question_on_a_path():
    deep = leaf("q8", "x")
    for level in range(7, -1, -1):
        deep = {"question": f"q{level}", "step": f'FILTER(l=QUD("q{level + 1}"), filter=lambda attr: attr["year"] > 0)',
                "children": [deep]}
    assert [(p.kind, p.text) for p in tree_problems(tree(deep), max_depth=8)] == [(
        ProblemKind.DEPTH,
        "root.children[0].children[0].children[0].children[0].children[0].children[0].children[0].children[0]: "
        "deeper than 8 levels")]
    repeated = {"question": "my runs", "step": 'FILTER(l=QUD("My runs!"), filter=lambda attr: attr["year"] > 0)',
                "children": [leaf("My runs!", "I went running")]}
    assert [(p.kind, p.text) for p in tree_problems(tree(repeated))] == [
        (ProblemKind.REPEAT, "root.children[0]: sub-question 'My runs!' repeats a question above it")]


def test_new_topics_are_those_the_question_does_not_mention():
    from app.qud.validate import new_topics

    question = "Which artist did I listen to most in 2024?"
    assert new_topics("songs while running in 2023", question) == ["running", "2023"]
    assert new_topics("songs I listened to in 2024 with artist", question) == []
    assert new_topics("my bike rides in 2022", "How far did I cycle in 2022?") == []       # same activity
    assert new_topics("my Amazon purchases", "How much did I spend online?") == []          # a source's name
    assert new_topics("emails from Lisa on Mondays", "Who emails me most?") == ["Lisa", "Mondays"]
    assert new_topics("emails from Julia Becker", "julia becker's emails to me: how many?") == []   # possessive
    assert new_topics("Saga's birthday", "when is saga's birthday") == []
    assert new_topics("dinner at Leon's", "When is Saga's birthday?") == ["Leon's"]
    assert new_topics("my workouts in February", "hours spent working out in feb this year") == []  # abbreviated
    assert new_topics("my workouts in September", "my workouts in sept?") == []
    assert new_topics("my workouts in September", "my workouts in Oct?") == ["September"]
    retrieve = parse_call('RETRIEVE(query="I went running")')
    assert step_problems(retrieve, "my swims", Needs(), root_question="How often did I swim?") == [
        "'I went running' brings in running, which the question does not mention"]


def test_asked_specifics_are_what_the_question_pins_down():
    assert asked_specifics("How many emails did Markus send me in November 2022?") == [
        ("year", "2022"), ("name", "Markus"), ("month", "november")]
    assert asked_specifics("How many workouts did I do in the last three months?") == [("count", "3")]
    assert asked_specifics("Which artist did I listen to most when running?") == [("topic", "running")]
    assert asked_specifics("When is Justin's birthday?") == [("name", "Justin")]
    assert asked_specifics("What did I buy in May on Amazon?") == [("month", "may")]
    assert asked_specifics("Which TV shows may I like?") == []   # a modal "may", "TV", a source name
    assert asked_specifics("most expensive single item I've ever ordered?") == []   # "I've" is the person
    assert asked_specifics("Where was I when I'd gone out with Ilse?") == [("name", "Ilse")]


def test_a_step_keeps_a_specific_by_using_it_or_passing_it_on():
    question = "I bought something online in November 2022"
    year_only = parse_call('FILTER(l=QUD("my purchases with date"), filter=lambda attr: attr["start_datetime"].year == 2022)')
    assert lost_specifics(year_only, question) == ["november"]
    both = parse_call('FILTER(l=QUD("my purchases with date"), filter=lambda attr: attr["start_datetime"].year == 2022 '
                      'and attr["start_datetime"].month == 11)')
    assert lost_specifics(both, question) == []
    passed_on = parse_call('SUM(l=QUD("my purchases in November 2022 with total"), attr_name="total")')
    assert lost_specifics(passed_on, question) == []
    months = parse_call('FILTER(l=QUD("my runs with date"), filter=lambda attr: attr["start_date"] >= date.today() - '
                        'relativedelta(months=3))')
    assert lost_specifics(months, "my runs in the last three months") == []
    assert lost_specifics(parse_call('APPLY(l=QUD("my runs"), fct=len)'), "my runs in the last 3 months") == ["3"]
    by_artist = parse_call('FILTER(l=QUD("songs with artist"), filter=lambda attr: attr["artist"] == "First Aid Kit")')
    assert lost_specifics(by_artist, "songs by First Aid Kit") == []
    assert lost_specifics(parse_call('RETRIEVE(query="I listened to music")'), "songs by First Aid Kit") == [
        "First", "Aid", "Kit"]
    weekend = parse_call('FILTER(l=QUD("my runs with date"), filter=lambda attr: attr["start_datetime"].weekday() >= 5)')
    assert lost_specifics(weekend, "my runs on weekends") == []
    assert lost_specifics(parse_call('APPLY(l=QUD("I ate out on weekends"), fct=len)'), "meals on Saturdays") == []


def test_a_relative_month_or_week_must_be_kept_as_such():
    question = "Which artist did I listen to the most last month?"
    assert asked_specifics(question) == [("period", "month")]
    as_a_year = parse_call('FILTER(l=QUD("songs with date"), filter=lambda attr: attr["start_datetime"].year == '
                           'date.today().year - 1)')
    assert lost_specifics(as_a_year, "songs last month") == ["month"]
    in_months = parse_call('FILTER(l=QUD("songs with date"), filter=lambda attr: attr["start_date"] >= '
                           'date.today() - relativedelta(months=1))')
    assert lost_specifics(in_months, "songs last month") == []
    assert lost_specifics(parse_call('APPLY(l=QUD("songs last month"), fct=len)'), "How many songs last month?") == []
    in_days = parse_call('FILTER(l=QUD("runs with date"), filter=lambda attr: attr["start_date"] >= '
                         'date.today() - timedelta(days=7))')
    assert lost_specifics(in_days, "my runs this week") == []
    assert asked_specifics("What did I do last year?") == []   # a year is tested as a year


def test_a_filter_may_test_a_year_only_where_the_question_names_one():
    from app.qud.validate import unasked_year

    year_test = 'lambda attr: attr["start_datetime"].year == 20'
    assert unasked_year(year_test, "how many km did I hike on Madeira")
    assert unasked_year('lambda attr: attr["start_date"].year == date.today().year', "what's my pet called")
    assert not unasked_year('lambda attr: attr["start_date"].year == 2023', "how many km did I hike in 2023?")
    assert not unasked_year(year_test, "how many runs each year")
    assert not unasked_year('lambda attr: attr["start_date"] >= date.today() - relativedelta(months=6)', "my runs")
    step = parse_call(f'FILTER(l=QUD("my hikes with date"), filter={year_test})')
    problems = typed_step_problems(step, "my hikes", Needs(), root_question="how many km did I hike on Madeira")
    assert [p.kind for p in problems] == [ProblemKind.IMPOSSIBLE_TEST, ProblemKind.UNASKED_YEAR]
    assert not ProblemKind.UNASKED_YEAR.structural   # the operator may stand, without the year test
    assert step_problems(step, "my hikes", Needs(), root_question="how many km did I hike on Madeira",
                         guards_off=frozenset({"unasked_year", "impossible_test"})) == []
    assert step_problems(step, "my hikes", Needs(), root_question="how many km did I hike in 2020") != []  # 20: no year


def test_a_year_test_is_left_out_of_a_filters_and():
    from app.qud.validate import without_year_tests

    year = 'attr["start_datetime"].year == 20'
    assert without_year_tests(f'lambda attr: "rock and roll" in attr["genre"] and {year} and '
                              f'attr["start_datetime"].month == 3') == (
        'lambda attr: "rock and roll" in attr["genre"] and attr["start_datetime"].month == 3')
    assert without_year_tests(f"lambda attr: {year}") == ""
    assert without_year_tests('lambda attr: attr["start_date"].year >= date.today().year - 1') == ""
    assert without_year_tests(f'lambda attr: {year} or attr["total"] > 5') is None   # not alone in an or
    assert without_year_tests('lambda attr: attr["start_date"].year * 12 + attr["start_date"].month == 5') is None
    assert without_year_tests('lambda attr: attr["total"] > 5') is None   # no year test


def test_a_date_part_compared_outside_its_range_is_a_problem():
    assert impossible_comparisons('lambda attr: attr["start_datetime"].weekday() >= 12') == [
        ".weekday() >= 12 (weekday() is 0 to 6)"]
    assert impossible_comparisons('lambda attr: attr["start_datetime"].month == 13') == [".month == 13 (month is 1 to 12)"]
    assert impossible_comparisons('lambda attr: attr["start_datetime"].hour < 25') == [".hour < 25 (hour is 0 to 23)"]
    assert impossible_comparisons('lambda attr: attr["start_datetime"].year == 20') == [
        ".year == 20 (year is 1900 to 2100)"]
    assert impossible_comparisons('lambda attr: attr["start_datetime"].year == 2023') == []
    assert impossible_comparisons('lambda attr: attr["start_date"].year * 12 + attr["start_date"].month == 24290') == []
    assert impossible_comparisons('lambda attr: attr["start_datetime"].weekday() >= 5') == []
    assert impossible_comparisons('lambda attr: attr["start_datetime"].month in (6, 7, 8)') == []
    assert impossible_comparisons('lambda attr: (attr["end"] - attr["start"]).days >= 40') == []   # not a date part
    step = parse_call('FILTER(l=QUD("doctor visits with date"), filter=lambda attr: attr["start_datetime"].weekday() >= 12)')
    assert step_problems(step, "doctor visits on weekdays", Needs()) == [
        "the test .weekday() >= 12 (weekday() is 0 to 6) is never or always true"]


def test_keep_specifics_is_a_problem_only_when_asked_for():
    call = parse_call('APPLY(l=QUD("I sent an email"), fct=len)')
    question = "How many emails did I send in 2021?"
    assert step_problems(call, question, Needs()) == []
    assert step_problems(call, question, Needs(), keep_specifics=True) == [
        "the step drops 2021 of its question: use it in the step or keep it in a sub-question"]


def test_gold_steps_of_the_train_trees_keep_their_specifics():
    """The check must not fight the trees the fine-tuned model learned: under 1% of their steps drop a specific
    (gold trees that re-introduce it a step lower, like "number of sessions per year (2020, 2021)")."""
    from app.persona.questions import questions_for
    from app.persona.splits import templates_in
    from models.train.qud_data import record_trees

    steps = flagged = 0
    for record in questions_for("p01", templates_in("train")):
        for gold in record_trees(record):
            for node in gold.walk():
                steps += 1
                flagged += bool(lost_specifics(node.call, node.question))
    assert steps > 1500
    assert flagged / steps < 0.01


def test_source_phrases_are_the_question_banks_words_for_all_events_of_a_source():
    from app.persona.subjects import SUBJECTS
    from app.qud.vocabulary import SOURCE_PHRASES

    bank = {s.source_of: s.query for s in SUBJECTS.values() if s.source_of and "{" not in s.query}
    assert SOURCE_PHRASES.items() <= bank.items()
    # mail is named by its sent half only ("I sent an email"), calendar entries by what they are: no phrase
    # names all their events
    assert set(bank) - set(SOURCE_PHRASES) == {"mail"}


def test_a_step_may_not_turn_mails_the_person_got_into_mails_they_sent():
    call = parse_call('APPLY(l=QUD("I sent an email to Markus"), fct=len)')
    question = "How many mails has Markus sent me?"
    assert step_problems(call, question, Needs(), root_question=question) == [
        "'I sent an email to Markus' has me send the mails, but the question asks for mails I got"]
    assert step_problems(parse_call('APPLY(l=QUD("emails from Markus"), fct=len)'), question, Needs(),
                         root_question=question) == []
    for base_form in ("How many emails did Markus send me in 2022?", "Did Markus ever email me?"):
        assert [p.kind for p in typed_step_problems(call, base_form, Needs(), root_question=base_form)] == [
            ProblemKind.REVERSED_MAIL]
    for asks_for_sent in ("How many emails did I send to Markus?", "Did Markus get the mail I sent him?"):
        assert step_problems(call, asks_for_sent, Needs(), root_question=asks_for_sent) == []


def test_no_step_of_the_train_trees_reverses_a_mail():
    from app.persona.questions import questions_for
    from app.persona.splits import templates_in
    from models.train.qud_data import record_trees

    from app.qud.validate import reverses_mail

    checked = 0
    for record in questions_for("p01", templates_in("train")):
        for gold in record_trees(record):
            for node in gold.walk():
                texts = [q.question for q in node.call.quds()]
                if node.operator == "RETRIEVE":
                    texts.append(node.call.get("query"))
                checked += len(texts)
                assert not any(reverses_mail(t, gold.question) for t in texts), (gold.question, node.step)
    assert checked > 1500
