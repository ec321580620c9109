"""The QUD fine-tuning data (models.train.qud_data) and the committed LoRA adapter (models/artifacts/qud-lora)."""

from __future__ import annotations

import hashlib
import re
from datetime import date
from pathlib import Path

import pytest

from app.engine.syntax import parse_call
from app.engine.tree import Node
from app.qud.decompose import decompose
from app.qud.grammar import step_grammar
from app.qud.prompt import TUNED_INSTRUCTION, step_prompt
from models.default_qud import ADAPTER_STYLE, BASE_CHOICE, DEFAULT_ADAPTER, qud_adapter_path
from models.llm import GGUFModel
from tests.fakes import FakeLLM
from models.train.qud_data import (
    STYLE, number_words, record_trees, slot_pools, step_pairs, train_records, tree_steps, varied_records,
    vary_record,
)

CARD = Path(__file__).resolve().parents[2] / "models" / "cards" / "qud-lora.md"

GOLD = {
    "question": "How far did I run in total in 2023?",
    "step": 'SUM(l=QUD("my runs in 2023 with distance"), attr_name="distance_km")',
    "children": [{
        "question": "my runs in 2023 with distance",
        "step": 'FILTER(l=QUD("my runs with distance"), filter=lambda attr: attr["start_datetime"].year == 2023)',
        "children": [{
            "question": "my runs with distance",
            "step": 'EXTRACT(l=QUD("my runs"), attr_names=["start_datetime", "distance_km"], '
                    'attr_types=[datetime.fromtimestamp, float])',
            "children": [{"question": "my runs", "step": 'RETRIEVE(query="I went running")', "children": []}],
        }],
    }],
}


@pytest.fixture(scope="module")
def p01_records():
    return train_records(["p01"])


def test_training_prompts_are_the_prompts_the_decomposer_sends():
    tree = Node.from_json(GOLD)
    steps = list(tree_steps(tree))
    llm = FakeLLM([s["target"].strip() for s in steps])
    llm.prompt_style = ADAPTER_STYLE   # what models.default_qud gives the model with the adapter
    decompose(GOLD["question"], date(2024, 5, 1), llm)
    assert [prompt for prompt, _, _ in llm.calls] == [s["prompt"] for s in steps]
    assert STYLE == ADAPTER_STYLE == "tuned"
    assert steps[2]["prompt"] == (
        TUNED_INSTRUCTION + "\n"
        'Above: FILTER(l=QUD("my runs with distance"), filter=lambda attr: attr["start_datetime"].year == 2023)\n'
        'Input: QUD("my runs with distance")\n'
        "Needs: distance_km\n"
        "Output:"
    )
    # EXTRACT is written without attr_types (the decomposer adds them); the decoder stops on the newline
    assert steps[2]["target"] == ' EXTRACT(l=QUD("my runs"), attr_names=["start_datetime", "distance_km"])\n'
    assert [s["depth"] for s in steps] == [0, 1, 2, 3]


def test_every_paraphrase_gives_its_own_root_step(p01_records):
    record = next(r for r in p01_records if len(set(r["paraphrases"])) >= 2)
    roots = [tree.question for tree in record_trees(record)]
    assert roots[0] == record["question"]
    assert sorted(set(roots)) == sorted(set(record["paraphrases"]) | {record["question"]})
    pairs = step_pairs([record])
    root_prompts = [p["prompt"] for p in pairs if p["depth"] == 0]
    assert len(root_prompts) == len(set(roots))


def test_data_come_from_train_templates_and_personas_only(p01_records):
    from app.persona.splits import templates_in

    pairs = step_pairs(p01_records)
    held_out = set(templates_in("dev")) | set(templates_in("test"))
    assert {p["template"] for p in pairs} <= set(templates_in("train"))
    assert not {p["template"] for p in pairs} & held_out
    assert {p["persona"] for p in pairs} == {"p01"}
    assert len({(p["prompt"], p["target"]) for p in pairs}) == len(pairs)
    with pytest.raises(ValueError, match="p13 is in the dev split"):
        train_records(["p13"])


def _tree_text(record) -> str:
    return "\n".join(n.step + " | " + n.question for n in Node.from_json(record["tree"]).walk())


def test_a_variant_swaps_slot_values_in_the_question_and_the_whole_tree(p01_records):
    import random

    pools = slot_pools(p01_records)
    record = next(r for r in p01_records if r["template"] == "sum.wtype.distance.month")
    slots = record["slots"]
    varied = vary_record(record, pools, random.Random(3))
    assert varied is not None and varied["template"] == record["template"]
    new_year = next(y for y in map(str, range(2018, 2025)) if y in varied["question"])
    assert new_year != str(slots["year"]) and str(slots["year"]) not in _tree_text(varied)
    tree = Node.from_json(varied["tree"])   # still a valid tree
    filters = [n.step for n in tree.walk() if n.operator == "FILTER"]
    months = ("January February March April May June July August September October November December").split()
    new_month = next(m for m in months if m in varied["question"])
    assert f".year == {new_year}" in filters[0] and f".month == {months.index(new_month) + 1})" in filters[0]
    assert slots["wt_query"] not in _tree_text(varied)   # the workout type moved everywhere, as one group
    assert slots["wt_query"] in _tree_text(record)
    assert all(new_year in text for text in varied["paraphrases"])


def test_number_words_change_the_wording_not_the_tree(p01_records):
    record = next(r for r in p01_records if r["template"] == "count.wtype.last_6_months")
    worded = number_words({**record, "question": "How often did I go hiking in the last 6 months?",
                           "paraphrases": ["How often did I go hiking in the last 6 months?"]})
    assert worded["question"] == "How often did I go hiking in the last six months?"
    assert worded["tree"] == record["tree"] and "months=6" in _tree_text(worded)
    assert number_words({**record, "question": "Songs in 2023?", "paraphrases": []}) is None


def test_varied_data_stay_in_the_train_split_and_are_deterministic(p01_records):
    from app.persona.splits import templates_in

    first = varied_records(p01_records)
    assert varied_records(p01_records) == first
    assert len(first) > 2 * len(p01_records)
    assert {r["template"] for r in first} <= set(templates_in("train"))
    pairs = step_pairs(first)
    assert len(pairs) > 1.5 * len(step_pairs(p01_records))
    for record in first:
        Node.from_json(record["tree"])   # every variant is a tree the engine accepts


def test_committed_adapter_matches_its_card():
    card = CARD.read_text(encoding="utf-8")
    recorded = re.search(r"adapter\.gguf sha256 \| `([0-9a-f]{64})`", card).group(1)
    assert hashlib.sha256(DEFAULT_ADAPTER.read_bytes()).hexdigest() == recorded
    assert qud_adapter_path(None) == DEFAULT_ADAPTER or qud_adapter_path(None) is None  # env may choose another
    assert qud_adapter_path(BASE_CHOICE) is None


def test_base_with_adapter_writes_a_step_that_parses(default_gguf):
    question = "How many songs by Taylor Swift did I listen to in 2023?"
    prompt = step_prompt(question, (), "", (), style="tuned")
    tuned = GGUFModel(default_gguf, lora_path=DEFAULT_ADAPTER, n_threads=1, n_ctx=512)
    base = GGUFModel(default_gguf, n_threads=1, n_ctx=512)  # one thread: far faster on busy shared cores
    try:
        step = tuned.complete(prompt, max_tokens=60, stop=["\n"]).text.strip()
        call = parse_call(step)
        assert call.operator in ("APPLY", "FILTER")
        assert 'QUD("' in step
        constrained = tuned.complete(prompt, grammar=step_grammar(()), max_tokens=60, stop=["\n"]).text.strip()
        assert parse_call(constrained).operator == call.operator
        assert base.complete(prompt, max_tokens=60, stop=["\n"]).text.strip() != step  # the adapter matters
    finally:
        tuned.close()
        base.close()


def test_default_choice_brings_the_adapter_and_base_leaves_it_out(monkeypatch, tmp_path):
    from models import default_qud
    from models.llm import close_shared_models

    gguf = tmp_path / "gemma-3-270m-q4_k_m.gguf"
    gguf.write_bytes(b"not loaded in this test")
    monkeypatch.delenv(default_qud.QUD_MODEL_ENV, raising=False)
    monkeypatch.setattr(default_qud, "configured_model_path", lambda explicit=None: None if explicit is None else
                        Path(explicit))
    monkeypatch.setattr(default_qud, "ensure_default_model", lambda **kw: gguf)
    try:
        tuned = default_qud.qud_model()
        base = default_qud.qud_model(BASE_CHOICE)
        assert (tuned.path, tuned.lora_path, tuned.prompt_style) == (gguf.resolve(), DEFAULT_ADAPTER, "tuned")
        assert (base.path, base.lora_path, base.prompt_style) == (gguf.resolve(), None, None)
        assert default_qud.qud_model() is tuned and tuned is not base   # one shared instance per (file, adapter)
        assert tuned.name == "gemma-3-270m-q4_k_m.gguf+adapter.gguf"
    finally:
        close_shared_models()


def test_the_recipe_fine_tunes_a_llama_architecture_base_that_llama_cpp_then_runs(tmp_path):
    """The recipe on another base GGUF (a Llama, as a person's 1B instruct model is): it learns the steps, and
    llama.cpp, applying the adapter to that base, writes them. Llama GGUFs keep attn_q / attn_k rows in rotary
    order, so the adapter's lora_b must be permuted too; unpermuted, llama.cpp wrote garbage here."""
    import json
    import subprocess
    import sys

    from models.train.lora_gguf import base_architecture
    from tests.models.tiny_gguf import write_tiny_llama

    base = write_tiny_llama(tmp_path / "tiny-llama.gguf")
    data = tmp_path / "pairs.jsonl"
    pairs = list(tree_steps(Node.from_json(GOLD)))
    data.write_text("".join(json.dumps({**p, "template": "t", "persona": "p01"}) + "\n" for p in pairs))
    out = tmp_path / "lora"
    subprocess.run([sys.executable, "-m", "models.train", "qud_sft", "--base", str(base), "--data", str(data),
                    "--out", str(out), "--steps", "400", "--batch", str(len(pairs)), "--warmup", "5", "--lr", "2e-2",
                    "--dtype", "f32", "--threads", "1"], check=True, capture_output=True, timeout=600)
    assert base_architecture(out / "adapter.gguf") == "llama"
    curve = json.loads((out / "train.json").read_text())["curve"]
    assert curve[-1]["loss"] < 0.05 < curve[0]["loss"]
    tuned = GGUFModel(base, lora_path=out / "adapter.gguf", prompt_style="tuned", n_threads=1, n_ctx=512)
    plain = GGUFModel(base, n_threads=1, n_ctx=512)
    try:
        for pair in pairs:
            written = tuned.complete(pair["prompt"], max_tokens=120, stop=["\n"]).text.strip()
            assert written == pair["target"].strip()
            assert plain.complete(pair["prompt"], max_tokens=20, stop=["\n"]).text.strip() != written
    finally:
        tuned.close()
        plain.close()


def test_an_adapter_read_back_gives_the_weights_it_was_written_from(tmp_path):
    """`--init` goes on training from an adapter file: reading one back must undo what writing did (float16, and
    the rotary row order of a Llama's attn_q / attn_k), or the next run starts from other weights."""
    import torch

    from models.train.lora_gguf import load_lora_gguf, write_lora_gguf
    from models.train.qud_sft import add_lora, load_base
    from tests.models.tiny_gguf import write_tiny_llama

    base = write_tiny_llama(tmp_path / "tiny-llama.gguf")
    torch.manual_seed(0)
    written = add_lora(load_base(base), rank=4, alpha=8.0)
    with torch.no_grad():
        for name, param in written.named_parameters():
            if "lora_" in name:
                param.copy_(torch.randn_like(param))
    adapter = write_lora_gguf(written, tmp_path / "adapter.gguf", 8.0, base)

    read = add_lora(load_base(base), rank=4, alpha=8.0)
    assert load_lora_gguf(read, adapter, base) == 2 * 7 * 2
    expected = {n: p for n, p in written.named_parameters() if "lora_" in n}
    for name, param in read.named_parameters():
        if "lora_" in name:
            assert torch.allclose(param, expected[name], atol=2e-3), name
    with pytest.raises(ValueError, match="not a GGUF LoRA adapter"):
        load_lora_gguf(read, base, base)
    other_rank = add_lora(load_base(base), rank=2, alpha=8.0)
    with pytest.raises(ValueError, match="shape"):
        load_lora_gguf(other_rank, adapter, base)
