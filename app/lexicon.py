"""The English words Lifelens reads questions and queries with, written once: months, weekdays, number words,
parts of the day, kinship and sports.

Plain data and no imports, so every layer (the QUD's validator and cues, the lexical retriever, the
verbalizer, the bench's answer matching, the people book) can read it. The words are lower case; a
caller that needs "January" capitalizes them.

    MONTH_NAMES[10]              # 'november'
    MONTH_NUMBERS["sept"]        # 9 (names and abbreviations)
    NUMBER_WORDS.index("three")  # 3
    KIN_WORDS["mum"]             # ('mother',)
"""

from __future__ import annotations

MONTH_NAMES = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
               "november", "december")
MONTH_ABBREVIATIONS = tuple(name[:3] for name in MONTH_NAMES) + ("sept",)
# Month names and abbreviations -> 1 .. 12 ("may" is both).
MONTH_NUMBERS: dict[str, int] = {
    **{name: n for n, name in enumerate(MONTH_NAMES, 1)},
    **{name[:3]: n for n, name in enumerate(MONTH_NAMES, 1)},
    "sept": 9,
}
# "january|february|...|december", for regular expressions.
MONTH_PATTERN = "|".join(MONTH_NAMES)

WEEKDAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")  # date.weekday() order
WEEKDAY_TITLES = tuple(day.capitalize() for day in WEEKDAY_NAMES)                            # as dates print them

# Days English names by what is kept on them, the same day of the year every year: (month, day). Apostrophes as
# people type them ("new years eve", "valentines day") are matched by app.qud.periods.
NAMED_DAYS: dict[str, tuple[int, int]] = {
    "new year's day": (1, 1), "valentine's day": (2, 14), "st patrick's day": (3, 17), "halloween": (10, 31),
    "christmas eve": (12, 24), "christmas day": (12, 25), "boxing day": (12, 26), "new year's eve": (12, 31),
}

# Parts of the day, in the order of the clock from the morning on.
PARTS_OF_DAY = ("morning", "afternoon", "evening", "night")

# How a calendar marks a birthday's entry: the word, or a cake ("🎂 Jonas").
BIRTHDAY_MARKS = ("birthday", "bday", "\U0001f382")

# "most recent", "latest", "last" of recency ("my last trip"), not of a period ("last year", "in the last 6 months",
# "last Tuesday", "last summer", "last night").
_PERIOD_NOUNS = ("(calendar |\\d+ |few |couple of )?(years?|months?|weeks?|days?|weekends?|nights?)|"
                 + "|".join((*WEEKDAY_NAMES, *MONTH_NAMES, *PARTS_OF_DAY, "summer", "winter", "spring", "autumn",
                             "fall", "christmas", "easter")))
RECENCY_PATTERN = rf"\b(most recent(ly)?|latest)\b|\blast\b(?! ({_PERIOD_NOUNS})\b)"

# English words that are never a person's name in a question, though some people are called so ("Will", "Jo")
FUNCTION_WORDS = frozenset(
    "a an the this that these those my your his her its our their me him us them i you he she it we they "
    "am is are was were be been being have has had do does did will would shall should can could may might must "
    "and or but nor so yet if then than as of to in on at by for from with about into over after before since until "
    "not no any all some each every what which who whom whose when where why how".split())

# Counts written as words in questions ("the last three months"); the index is the number.
NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                "twelve")

# --- people -------------------------------------------------------------------------------------------------

# The relations the people book knows (who a person is to the owner).
RELATIONS = ("mother", "father", "sister", "brother", "partner", "daughter", "son", "grandmother", "grandfather",
             "friend", "colleague", "other")

# Nouns that ask for someone the owner knows: "which friend emails me the most" is a person, where "who" may be a
# shop or a newsletter.
PERSON_NOUNS = frozenset(r for r in RELATIONS if r != "other") | frozenset(
    "coworker co-worker workmate person contact relative".split())

# Words that name people by their relation to the owner ("Call Mum & Dad", "Trick or treat with the kids").
KIN_WORDS: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("mum", "mom", "mother", "mama", "mam", "mommy", "mummy"), ("mother",)),
    **dict.fromkeys(("dad", "father", "papa", "daddy"), ("father",)),
    "parents": ("mother", "father"),
    **dict.fromkeys(("sister", "sis"), ("sister",)),
    **dict.fromkeys(("brother", "bro"), ("brother",)),
    **dict.fromkeys(("siblings", "sisters", "brothers"), ("sister", "brother")),
    **dict.fromkeys(("wife", "husband", "partner", "girlfriend", "boyfriend"), ("partner",)),
    **dict.fromkeys(("kids", "children"), ("daughter", "son")),
    "daughter": ("daughter",), "son": ("son",),
    **dict.fromkeys(("grandma", "granny", "grandmother", "oma"), ("grandmother",)),
    **dict.fromkeys(("grandpa", "grandfather", "opa"), ("grandfather",)),
    "grandparents": ("grandmother", "grandfather"),
}

# Words for the same parent that texts use interchangeably: a search for one also looks for the others.
PARENT_WORD_GROUPS = (("mum", "mom", "mother"), ("dad", "father"))

# --- sports -------------------------------------------------------------------------------------------------

# The workout types the Apple Health importer writes (`workout_type`), as the question bank names them.
WORKOUT_TYPES = ("running", "walking", "cycling", "swimming", "soccer", "tennis", "yoga", "hiking",
                 "strength training")

# Words that name the same sport, inflected or not ("run runs running ran jog jogging").
SPORT_WORD_GROUPS = (
    "run runs running ran jog jogging",
    "cycle cycles cycling cycled bike bikes biking ride rides riding",
    "swim swims swimming swam",
    "hike hikes hiking hiked",
    "walk walks walking walked",
    "rowing rowed",
    "yoga", "tennis", "football soccer", "gym strength weights",
)

# Words that name the same kind of appointment: the one who sees to it, the place, the thing done ("dentist dental").
APPOINTMENT_WORD_GROUPS = (
    "dentist dentists dental dentistry orthodontist orthodontics",
    "physio physios physiotherapy physiotherapist physiotherapists",
    "vet vets veterinary veterinarian",
    "haircut haircuts hairdresser hairdressers barber barbers hair salon",
    "optician opticians optometrist",
)

# The word a full-text search also looks for when a query names a sport another way ("ran": "running").
# One direction only: "running" finds "run" but "run" does not find "runs" (the index does no stemming).
SPORT_SYNONYMS: dict[str, tuple[str, ...]] = {
    "football": ("soccer",), "soccer": ("football",), "run": ("running",), "ran": ("running",),
    "running": ("run",), "bike": ("cycling",), "biking": ("cycling",), "cycling": ("bike", "biking"),
    "swim": ("swimming",), "swam": ("swimming",), "hike": ("hiking",), "gym": ("strength",),
}
