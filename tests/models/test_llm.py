"""models.llm (GGUF through llama.cpp) and models.default_qud (the embedded Gemma 3 270M)."""

from __future__ import annotations

import hashlib
import json
import time

import pytest

from models import default_qud
from models.default_qud import (
    ModelUnavailable,
    configured_model_path,
    ensure_default_model,
    qud_model_path,
)
from models.llm import GenerationCancelled, GGUFModel, GrammarError, LLMError, shared_model
from tests.fakes import FakeLLM

YES_NO = 'root ::= " " ("yes" | "no") "\\n"\n'


# --- the scripted fake ------------------------------------------------------------------------


def test_fake_llm_answers_in_order_and_records_calls():
    fake = FakeLLM(["A(1)", "B(2)"])
    assert fake.complete("p1", grammar="g", temperature=0.5).text == "A(1)"
    assert fake.complete("p2").text == "B(2)"
    assert fake.calls == [("p1", "g", 0.5), ("p2", None, 0.0)]
    assert fake.forbidden == [(), ()]
    with pytest.raises(AssertionError, match="exhausted"):
        fake.complete("p3")
    fake.close()
    assert fake.closed


def test_fake_llm_with_a_function_of_the_prompt():
    fake = FakeLLM(lambda prompt: prompt.upper())
    assert fake.complete("abc").text == "ABC"


# --- the embedded default model ---------------------------------------------------------------


def test_default_model_is_assembled_once_and_checked(tmp_path, monkeypatch):
    package = default_qud._package()
    path = ensure_default_model(directory=tmp_path)
    try:
        assert path == tmp_path / "gemma-3-270m-q4_k_m.gguf"
        assert path.stat().st_size == 253113024
        assert hashlib.sha256(path.read_bytes()).hexdigest() == package.EXPECTED_SHA256
        stamp = json.loads((tmp_path / "gemma-3-270m-q4_k_m.gguf.sha256").read_text())
        assert stamp["sha256"] == package.EXPECTED_SHA256 and stamp["size"] == 253113024
        assert not list(tmp_path.glob("*.partial"))

        # Later starts trust the stamp: no 250 MB hash.
        def no_hashing(*args, **kwargs):
            raise AssertionError("hashed again")

        monkeypatch.setattr(default_qud, "sha256_file", no_hashing)
        assert ensure_default_model(directory=tmp_path) == path
        with pytest.raises(AssertionError, match="hashed again"):
            ensure_default_model(directory=tmp_path, verify=True)
    finally:
        path.unlink(missing_ok=True)


def test_two_processes_assembling_the_default_model_at_once_both_get_it(tmp_path):
    # two first starts at the same moment (the window and a bench) once raced for one ".partial" file
    import concurrent.futures

    package = default_qud._package()
    target = tmp_path / "gemma-3-270m-q4_k_m.gguf"
    try:
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            paths = list(pool.map(lambda _: ensure_default_model(directory=tmp_path), range(2)))
        assert paths == [target] * 2
        assert default_qud.sha256_file(target) == package.EXPECTED_SHA256
        assert not list(tmp_path.glob("*.partial"))
    finally:   # 250 MB: gone even when an assembly raised
        target.unlink(missing_ok=True)


def test_a_corrupt_default_model_is_rebuilt(tmp_path):
    package = default_qud._package()
    target = tmp_path / "gemma-3-270m-q4_k_m.gguf"
    target.write_bytes(b"GGUF but truncated")
    try:
        path = ensure_default_model(directory=tmp_path)
        assert path == target
        assert path.stat().st_size == 253113024
        assert default_qud.sha256_file(path) == package.EXPECTED_SHA256
    finally:
        target.unlink(missing_ok=True)


def test_model_choice_order_option_env_settings(tmp_path, monkeypatch):
    monkeypatch.setenv("LIFELENS_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("LIFELENS_QUD_MODEL", raising=False)
    assert configured_model_path() is None
    (tmp_path / "settings.json").write_text(json.dumps({"qud_model": str(tmp_path / "from-settings.gguf")}))
    assert configured_model_path() == tmp_path / "from-settings.gguf"
    monkeypatch.setenv("LIFELENS_QUD_MODEL", str(tmp_path / "from-env.gguf"))
    assert configured_model_path() == tmp_path / "from-env.gguf"
    assert configured_model_path(tmp_path / "option.gguf") == tmp_path / "option.gguf"


def test_unreadable_settings_and_missing_model_say_which_file(tmp_path, monkeypatch):
    monkeypatch.setenv("LIFELENS_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("LIFELENS_QUD_MODEL", raising=False)
    (tmp_path / "settings.json").write_text("{not json")
    with pytest.raises(ModelUnavailable, match="settings.json"):
        configured_model_path()
    with pytest.raises(ModelUnavailable, match="nowhere.gguf: QUD model file not found"):
        qud_model_path(tmp_path / "nowhere.gguf")


# --- the real model (loaded once per session) ---------------------------------------------------


def test_default_model_loads_once_per_process(default_llm, default_gguf):
    assert default_llm.loaded
    assert default_llm.load_seconds is not None and default_llm.load_seconds < 30
    assert shared_model(default_gguf) is default_llm


def test_greedy_completion_is_deterministic(default_llm):
    prompt = "The capital of France is"
    first = default_llm.complete(prompt, max_tokens=8)
    second = default_llm.complete(prompt, max_tokens=8)
    assert first.text == second.text
    assert first.generated_tokens == 8 and first.finish_reason == "length"


def test_grammar_constrains_the_output(default_llm):
    out = default_llm.complete("Is the sky green? Answer:", grammar=YES_NO, max_tokens=10, stop=["\n"])
    assert out.text in (" yes", " no")
    assert out.finish_reason == "stop"


def test_speculative_drafts_do_not_change_greedy_output(default_llm, monkeypatch):
    from models.llm import DraftLedger

    monkeypatch.setattr(default_llm, "_drafts", DraftLedger())  # learning afresh: it drafts
    prompt = (
        'Input: QUD("my runs")\nOutput: RETRIEVE(query="I went running")\n'
        'Input: QUD("my walks")\nOutput: RETRIEVE(query="I went for a walk")\n'
        'Input: QUD("my swims")\nOutput:'
    )
    grammar = 'root ::= " RETRIEVE(query=\\"" [a-zA-Z ]+ "\\")\\n"\n'
    plain = default_llm.complete(prompt, grammar=grammar, max_tokens=30, stop=["\n"], speculate=False)
    drafted = default_llm.complete(prompt, grammar=grammar, max_tokens=30, stop=["\n"], speculate=True)
    assert drafted.text == plain.text
    assert plain.text.startswith(' RETRIEVE(query="')
    assert plain.decode_calls == plain.generated_tokens - 1   # one decode per token (not after the last)
    assert drafted.decode_calls < plain.decode_calls          # ' RETRIEVE(query="' comes from the prompt


def test_drafts_are_off_unless_asked_for(default_gguf, monkeypatch):
    from models.llm import DRAFTS_ENV

    monkeypatch.delenv(DRAFTS_ENV, raising=False)
    assert GGUFModel(default_gguf).drafts is False
    assert GGUFModel(default_gguf, drafts=True).drafts is True
    monkeypatch.setenv(DRAFTS_ENV, "1")
    assert GGUFModel(default_gguf).drafts is True


def test_a_question_gets_the_same_tree_whatever_was_asked_before(default_gguf, monkeypatch):
    """The tuned model on a question near a tie (with drafts it got 4 different trees in 7 runs): without drafts
    the tree does not depend on what the KV cache held before."""
    from datetime import date

    from app.qud.pipeline import decompose
    from models.default_qud import DEFAULT_ADAPTER
    from models.llm import DRAFTS_ENV

    monkeypatch.delenv(DRAFTS_ENV, raising=False)
    model = GGUFModel(default_gguf, lora_path=DEFAULT_ADAPTER, prompt_style="tuned", n_threads=1)
    today = date(2024, 8, 7)
    question = "Average duration of my yoga sessions in minutes?"
    try:
        trees = [decompose(question, today, model).to_json()]
        trees.append(decompose(question, today, model).to_json())
        decompose("How many songs did I listen to in 2023?", today, model)
        trees.append(decompose(question, today, model).to_json())
    finally:
        model.close()
    assert trees[0]["step"].startswith("AVG(")
    assert trees[1] == trees[0] and trees[2] == trees[0]


def test_forbidden_text_is_never_written(default_llm):
    prompt = (
        'Input: QUD("my runs")\nOutput: RETRIEVE(query="I went running")\n'
        'Input: QUD("my walks")\nOutput: RETRIEVE(query="I went for a walk")\n'
        'Input: QUD("my swims")\nOutput:'
    )
    grammar = 'root ::= " RETRIEVE(query=\\"" [a-zA-Z ]+ "\\")\\n"\n'
    free = default_llm.complete(prompt, grammar=grammar, max_tokens=30, stop=["\n"])
    assert free.text == ' RETRIEVE(query="I swam")'
    banned = default_llm.complete(prompt, grammar=grammar, max_tokens=30, stop=["\n"], forbid=['query="I swam"'])
    assert 'query="I swam"' not in banned.text
    assert banned.text.startswith(' RETRIEVE(query="I swam') and banned.text.endswith('")')  # it goes on instead


def test_kv_cache_reuses_the_shared_prefix(default_llm):
    prefix = "Lifelens turns questions into operator trees. " * 20
    default_llm.complete(prefix + "First question?", max_tokens=1)
    out = default_llm.complete(prefix + "Second question?", max_tokens=1)
    assert out.prompt_tokens > 150
    assert out.evaluated_tokens < 10


def test_grammar_check_accepts_and_rejects_with_the_place(default_llm):
    assert default_llm.grammar_accepts(YES_NO, " yes\n") == (True, "")
    ok, reason = default_llm.grammar_accepts(YES_NO, " maybe\n")
    assert not ok and reason.startswith("rejected at byte 0")
    ok, reason = default_llm.grammar_accepts(YES_NO, " yes")
    assert not ok and reason.startswith("incomplete")


def test_a_broken_grammar_is_an_error(default_llm):
    with pytest.raises(GrammarError, match="cannot parse"):
        default_llm.grammar('root ::= "a" undefined-rule\n')


def test_a_file_that_is_not_gguf_is_a_clear_error(tmp_path):
    bad = tmp_path / "notes.gguf"
    bad.write_bytes(b"hello, this is not a model")
    with pytest.raises(LLMError, match="notes.gguf: llama.cpp cannot load"):
        GGUFModel(bad).load()
    with pytest.raises(FileNotFoundError, match="missing.gguf"):
        GGUFModel(tmp_path / "missing.gguf").load()


def test_close_frees_and_next_call_loads_again(default_gguf):
    model = GGUFModel(default_gguf, n_ctx=512)
    assert not model.loaded  # lazy
    out = model.complete("Hello", max_tokens=2)
    assert model.loaded and out.generated_tokens == 2
    model.close()
    assert not model.loaded
    model.close()  # twice is fine
    assert model.complete("Hello", max_tokens=2).text == out.text
    model.close()


def test_a_dead_end_is_backed_out_of_so_the_output_still_parses(default_llm):
    # After "songs" the grammar allows only '")' or ' in 2023")', and both are forbidden: the decoder must take
    # tokens back and write another sub-question instead of stopping half-way.
    prompt = 'Write: QUD("songs")\nWrite: QUD("songs")\nWrite: QUD("songs")\nWrite:'
    grammar = 'root ::= " QUD(\\"" ("songs" | "song" | "tracks") ("\\")" | " in 2023\\")")\n'
    free = default_llm.complete(prompt, grammar=grammar, max_tokens=20, stop=["\n"])
    assert free.text == ' QUD("songs")'
    out = default_llm.complete(prompt, grammar=grammar, max_tokens=20, stop=["\n"], forbid=['QUD("songs")', 'QUD("songs '])
    assert out.finish_reason != "grammar"
    assert out.text in {' QUD("song")', ' QUD("song in 2023")', ' QUD("tracks")', ' QUD("tracks in 2023")'}
    assert default_llm.grammar_accepts(grammar, out.text)[0]


def test_the_thread_count_comes_from_the_argument_then_the_environment(tmp_path, monkeypatch):
    model_file = tmp_path / "model.gguf"
    model_file.write_bytes(b"GGUF")  # never loaded: the count is settled when the model is made
    monkeypatch.setenv("LIFELENS_QUD_THREADS", "1")
    assert GGUFModel(model_file).n_threads == 1
    assert GGUFModel(model_file, n_threads=3).n_threads == 3
    monkeypatch.setenv("LIFELENS_QUD_THREADS", "two")
    with pytest.raises(LLMError, match=r"\$LIFELENS_QUD_THREADS must be a positive number of threads, not 'two'"):
        GGUFModel(model_file)


# --- usage and cancelling ---------------------------------------------------------------------------

ENDLESS = 'root ::= "x" root\n'  # never complete: no end-of-generation token is ever allowed


def test_usage_sums_the_completions_and_splits_prefill_from_generation(default_llm):
    before = default_llm.usage.copy()
    first = default_llm.complete("The capital of France is", max_tokens=4)
    second = default_llm.complete("The capital of Italy is", max_tokens=3)
    spent = default_llm.usage - before
    assert spent.calls == 2
    assert spent.prompt_tokens == first.prompt_tokens + second.prompt_tokens
    assert spent.evaluated_tokens == first.evaluated_tokens + second.evaluated_tokens
    assert spent.generated_tokens == first.generated_tokens + second.generated_tokens == 7
    assert 0 < first.prefill_seconds < first.seconds
    assert spent.prefill_seconds + spent.generate_seconds == pytest.approx(first.seconds + second.seconds)


def test_fake_llm_counts_usage_and_can_be_interrupted():
    fake = FakeLLM(["A", "B"], seconds_per_call=5.0)
    fake.seconds_per_call = 0.0
    fake.complete("one two")
    assert fake.usage.calls == 1 and fake.usage.prompt_tokens == 2
    fake.seconds_per_call = 5.0
    with fake.interrupt_when(lambda: True), pytest.raises(GenerationCancelled):
        fake.complete("three")


def _cancel_after(seconds: float, *, first_look_false: bool = False):
    """A cancel check that turns true `seconds` after it is made; returns (check, the time it turned true)."""
    at = time.monotonic() + seconds
    looks = []

    def cancelled() -> bool:
        looks.append(1)
        if first_look_false and len(looks) == 1:
            return False
        return time.monotonic() >= at

    return cancelled, at


def test_a_cancel_stops_generation_between_tokens_within_a_second(default_llm):
    cancelled, at = _cancel_after(0.5)
    with default_llm.interrupt_when(cancelled), pytest.raises(GenerationCancelled):
        default_llm.complete("x", grammar=ENDLESS, max_tokens=3000, speculate=False)
    assert time.monotonic() - at < 1.0  # unchecked, 3,000 tokens take a minute or more on 2 cores


def test_a_cancel_aborts_a_long_prompt_inside_llama_cpp_and_the_cache_stays_sound(default_llm):
    prompt = "Lifelens turns questions about your own data into operator trees and runs them. " * 180
    reference = default_llm.complete("The capital of France is", max_tokens=6).text
    default_llm.complete("Unrelated words to fill the cache.", max_tokens=1)
    # The first look (before the prompt is evaluated) says go on; the watcher's next look, while llama.cpp
    # evaluates the ~3,000 prompt tokens in batches of 512, raises the abort flag.
    cancelled, at = _cancel_after(0.2, first_look_false=True)
    with default_llm.interrupt_when(cancelled), pytest.raises(GenerationCancelled):
        default_llm.complete(prompt, max_tokens=4)
    assert time.monotonic() - at < 1.0
    assert default_llm.complete("The capital of France is", max_tokens=6).text == reference
    # and the next call with the same long prompt evaluates it whole, from a sound cache
    out = default_llm.complete(prompt, max_tokens=1)
    assert out.evaluated_tokens >= out.prompt_tokens - 1


# --- the thread count follows the load ------------------------------------------------------------------


def test_threads_are_the_cores_other_work_leaves_free():
    from models.llm import threads_for

    assert threads_for(2, 0.0) == 2
    assert threads_for(2, 0.2) == 2   # a little background work: both cores
    assert threads_for(2, 0.5) == 1   # half a core taken: a thread there would hold the other back
    assert threads_for(2, 3.5) == 1   # never fewer than one
    assert threads_for(8, 3.0) == 5


def test_core_load_is_the_machines_busy_time_less_this_processs_own(tmp_path, monkeypatch):
    from models import llm
    from models.llm import CoreLoad

    monkeypatch.setattr(llm, "_usable_cores", lambda: 2)
    monkeypatch.setattr(llm, "_CLOCK_TICKS", 100)
    stat = tmp_path / "stat"

    def write(busy_ticks: int, running: int = 1) -> None:  # cpu user nice system idle iowait irq softirq steal
        stat.write_text(f"cpu  {busy_ticks} 0 0 5000 0 0 0 0 0 0\ncpu0 0 0 0 0\ncpu1 0 0 0 0\nintr 1\n"
                        f"procs_running {running}\nprocs_blocked 0\n")

    now, own = [100.0], [10.0]
    write(1000)
    load = CoreLoad(str(stat), clock=lambda: now[0], own_cpu=lambda: own[0])
    assert load.available
    now[0] += 0.1
    assert load.others() is None          # too soon to average
    now[0] += 1.9                         # 2 s later: the machine was busy 3 core-seconds, this process 1
    write(1300)
    own[0] += 1.0
    assert load.others() == pytest.approx(1.0)
    now[0] += 2.0                         # then only this process worked
    write(1500)
    own[0] += 2.0
    assert load.others() == pytest.approx(0.0)
    now[0] += 2.0                         # ... and now two more of its threads are ready to run (an index build)
    write(1700, running=3)
    own[0] += 2.0
    assert load.others() == pytest.approx(1.0)   # averaged with the reading before: (2 + 0) / 2
    now[0] += 2.0
    write(1900, running=3)
    own[0] += 2.0
    assert load.others() == pytest.approx(2.0)

    stat.write_text("cpu  1 0 0 1 0 0 0 0\ncpu0 0 0 0 0\n")  # counts one core where the process may use two
    assert not CoreLoad(str(stat)).available


def test_the_model_follows_the_load_unless_the_count_is_fixed(default_gguf, monkeypatch):
    monkeypatch.delenv("LIFELENS_QUD_THREADS", raising=False)
    model = GGUFModel(default_gguf, n_ctx=512)
    assert model._load is not None
    out = model.complete("Hello", max_tokens=2)
    assert 1 <= out.threads <= model.n_threads
    model.close()
    monkeypatch.setenv("LIFELENS_QUD_THREADS", "1")
    fixed = GGUFModel(default_gguf, n_ctx=512)
    assert fixed._load is None and fixed.complete("Hello", max_tokens=2).threads == 1
    fixed.close()


def test_the_greedy_shortcut_chooses_what_the_full_ranking_chooses(default_llm, monkeypatch):
    from models.llm import GGUFModel

    prompt = (
        'Input: QUD("my runs")\nOutput: RETRIEVE(query="I went running")\n'
        'Input: QUD("my walks")\nOutput: RETRIEVE(query="I went for a walk")\n'
        'Input: QUD("my swims")\nOutput:'
    )
    grammar = 'root ::= " RETRIEVE(query=\\"" [a-zA-Z ]+ "\\")\\n"\n'
    cases = [dict(max_tokens=12), dict(grammar=YES_NO, max_tokens=10, stop=["\n"]),
             dict(grammar=grammar, max_tokens=30, stop=["\n"]),
             dict(grammar=grammar, max_tokens=30, stop=["\n"], forbid=['query="I swam"'])]
    prompts = ["The capital of France is", "Is the sky green? Answer:", prompt, prompt]
    shortcut = [default_llm.complete(p, **kw).text for p, kw in zip(prompts, cases)]
    monkeypatch.setattr(GGUFModel, "_greedy_best", lambda self, *args: None)  # always rank the top 40
    ranked = [default_llm.complete(p, **kw).text for p, kw in zip(prompts, cases)]
    assert shortcut == ranked
    assert 'query="I swam"' not in shortcut[3]


def test_the_abort_flag_reads_as_set_through_its_c_callback():
    import ctypes

    from models.llm import _AbortFlag

    flag = _AbortFlag()
    data = ctypes.cast(flag.buffer, ctypes.c_void_p)
    assert flag._python_callback is None  # the C library's strlen, no Python per graph node
    assert not flag.callback(data)
    flag.set()
    assert flag.raised and flag.callback(data)
    flag.clear()
    assert not flag.raised and not flag.callback(data)


def test_a_call_made_twice_is_replayed_without_the_model():
    from models.llm import ReplayingLLM
    from tests.fakes import FakeLLM

    fake = FakeLLM(["A", "B", "C"])
    llm = ReplayingLLM(fake)
    first = llm.complete("p", grammar="g", stop=["\n"], forbid=['QUD("x")'])
    again = llm.complete("p", grammar="g", stop=["\n"], forbid=['QUD("x")'])
    assert (first.text, again.text) == ("A", "A") and again.replayed and again.seconds == 0.0
    assert llm.complete("p", grammar="other").text == "B"          # another grammar: the model runs
    assert llm.complete("p", grammar="g", temperature=0.7).text == "C"  # another temperature too
    assert len(fake.calls) == 3 and llm.replayed == 1
    assert llm.usage is fake.usage and llm.name == "fake"          # the rest is the model's
    with llm.interrupt_when(lambda: True), pytest.raises(GenerationCancelled):
        llm.complete("new prompt")


def test_the_least_recently_used_call_goes_first_and_a_scripted_model_is_kept_per_caller(default_gguf):
    from models.llm import GGUFModel, ReplayingLLM, replaying
    from tests.fakes import FakeLLM

    fake = FakeLLM(["A", "B", "C", "D"])
    llm = ReplayingLLM(fake, max_kept=2)
    llm.complete("p1"), llm.complete("p2"), llm.complete("p1"), llm.complete("p3")   # p2 is the oldest now
    assert llm.complete("p1").replayed and llm.complete("p3").replayed
    assert llm.complete("p2").text == "D" and len(fake.calls) == 4
    # a scripted stand-in may answer a prompt differently next time: each caller keeps its own
    assert replaying(fake) is not replaying(fake)
    # a GGUF model writes the same for the same call: its completions are kept for the process
    model = GGUFModel(default_gguf, n_threads=1)
    try:
        assert replaying(model) is replaying(model)
    finally:
        model.close()


def test_drafts_are_made_while_they_pay_and_now_and_then_when_they_do_not():
    from models.llm import DRAFT_TOKENS, DraftLedger

    ledger = DraftLedger()
    assert ledger.allowed() == DRAFT_TOKENS  # learning
    for _ in range(10):
        ledger.record(0, 0.040, 0)   # a decode alone: 40 ms
        ledger.record(4, 0.140, 2)   # 4 drafted tokens add 25 ms each, half of them kept: 0.5 x 40 < 25
    assert not ledger.pays()
    assert sorted(ledger.allowed() for _ in range(32)) == [0] * 30 + [1, 1]  # a one-token probe in 16 decodes
    for _ in range(40):
        ledger.record(1, 0.045, 1)   # the cores got free: 5 ms a drafted token, kept
    assert ledger.pays() and ledger.allowed() == DRAFT_TOKENS
