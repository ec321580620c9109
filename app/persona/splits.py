"""Train / dev / test splits along both dimensions, as in PerQA (12 / 2 / 6 personas; templates disjoint).

Templates are assigned by a stable hash of their id (60 / 10 / 30 per cent), so adding a template never
moves an existing one to another split. Nothing may train on test personas or test templates.

    persona_split("p13")        # "dev"
    templates_in("test")        # ["count.songs.year", ...]
"""

from __future__ import annotations

import hashlib

from app.persona.biography import PERSONA_IDS

SPLITS = ("train", "dev", "test")
PERSONAS = {"train": PERSONA_IDS[:12], "dev": PERSONA_IDS[12:14], "test": PERSONA_IDS[14:]}
DEMO_PERSONA = "p13"   # a dev persona: the app's demo never shows test data


def persona_split(persona_id: str) -> str:
    for split, ids in PERSONAS.items():
        if persona_id in ids:
            return split
    raise ValueError(f"unknown persona {persona_id!r}")


def template_split(template_id: str) -> str:
    bucket = int.from_bytes(hashlib.blake2b(template_id.encode("utf-8"), digest_size=4).digest(), "big") % 100
    return "train" if bucket < 60 else ("dev" if bucket < 70 else "test")


def templates_in(split: str) -> list[str]:
    from app.persona.questions import all_templates

    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}; one of {SPLITS}")
    return sorted(t for t in all_templates() if template_split(t) == split)
