"""Train / dev / test splits along both dimensions, as in PerQA (12 / 2 / 6 personas; templates disjoint).

Templates are assigned by a stable hash of their id (60 / 10 / 30 per cent), so adding a template never
moves an existing one to another split. Nothing may train on test personas or test templates.

Style variants (app.persona.styles): "<train id>~<style>" is a TRAIN persona's life written in another
style (day notes mailed to oneself, terse phone calendar entries, service mails in other layouts), for
training data only; it is in the train split, and a variant of a DEV or TEST persona is refused.

    persona_split("p13")        # "dev"
    persona_split("p03~diary")  # "train"; persona_split("p13~diary") raises ValueError
    style_variants("terse")     # ["p01~terse", ..., "p12~terse"]
    templates_in("test")        # ["count.songs.year", ...]
"""

from __future__ import annotations

import hashlib

from app.persona.biography import PERSONA_IDS

SPLITS = ("train", "dev", "test")
PERSONAS = {"train": PERSONA_IDS[:12], "dev": PERSONA_IDS[12:14], "test": PERSONA_IDS[14:]}
DEMO_PERSONA = "p13"   # a dev persona: the app's demo never shows test data


def persona_split(persona_id: str) -> str:
    """The split of a persona or of a style variant ("p03~diary": "train"); variants of DEV and TEST
    personas do not exist (ValueError)."""
    from app.persona.styles import split_variant

    base, style = split_variant(persona_id)
    for split, ids in PERSONAS.items():
        if base in ids:
            if base != persona_id and split != "train":
                raise ValueError(f"{persona_id!r}: style variants exist for TRAIN personas only ({base} is {split})")
            return split
    raise ValueError(f"unknown persona {persona_id!r}")


def style_variants(style: str) -> list[str]:
    """The TRAIN personas written in `style` ("diary", "terse", "mixed"; app.persona.styles):
    `python -m models.train cross_encoder --train p01 p02 p01~diary p02~terse ...` trains on them."""
    from app.persona.styles import STYLES, variant_id

    if style not in STYLES:
        raise ValueError(f"unknown style {style!r}; one of {sorted(STYLES)}")
    return [variant_id(pid, style) for pid in PERSONAS["train"]]


def template_split(template_id: str) -> str:
    bucket = int.from_bytes(hashlib.blake2b(template_id.encode("utf-8"), digest_size=4).digest(), "big") % 100
    return "train" if bucket < 60 else ("dev" if bucket < 70 else "test")


def templates_in(split: str) -> list[str]:
    from app.persona.questions import all_templates

    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}; one of {SPLITS}")
    return sorted(t for t in all_templates() if template_split(t) == split)
