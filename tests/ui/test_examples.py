from app.ui.examples import BY_SOURCE, example_questions


def test_examples_follow_the_sources():
    assert example_questions([]) == []
    assert example_questions(["music_stream", "workout"]) == [
        "Which artist did I listen to most while running?",
        "Which artist did I listen to most?",
        "How many kilometres did I run last month?",
        "How many songs did I listen to per month?",
        "How often did I play football?",
    ]
    assert example_questions(["mail"], limit=1) == ["Who sent me the most mails?"]
    assert example_questions(["unknown_source"]) == []


def test_every_source_has_examples():
    from importers.base import SOURCES

    assert set(SOURCES) == set(BY_SOURCE)
