"""Text generation with a local GGUF model through llama.cpp, behind one small protocol.

`GGUFModel` owns the native llama.cpp handles (model, context, batch, grammars) and frees them in `close()`.
It loads lazily on the first call. Generation is our own loop over llama.cpp's C API because the QUD needs
three things the high-level `llama_cpp.Llama` does slowly or not at all on a 2-core laptop:

* KV-cache reuse: consecutive prompts share a prefix (instruction, examples); only the new tail is evaluated.
* Cheap grammar-constrained decoding: llama.cpp's GBNF sampler is applied to the top-k candidates of each
  step instead of the whole vocabulary (Gemma's vocabulary has 262k tokens; checking all of them costs
  ~0.1 s per token), falling back to the whole vocabulary only when none of the top-k is allowed.
* Prompt-lookup speculative decoding, off by default ($LIFELENS_QUD_DRAFTS=1 or `drafts=True`): the QUD's
  output copies much from its prompt, so a few tokens that follow the same n-gram in the prompt are proposed
  as a draft and checked in one batch. Acceptance keeps the tokens the model chooses at each position, but a
  batch computes slightly different logits than single decodes, so a near tie can flip; whether a decode drafts
  depends on timing (DraftLedger), so with drafts the same question could get another tree on another run. On
  a 2-core CPU they did not pay either (figures in models/cards/qud-lora.md).

    model = shared_model(path)                       # one instance per file and process
    out = model.complete(prompt, grammar=GBNF, max_tokens=96, stop=["\\n"])
    out.text, out.prompt_tokens, out.evaluated_tokens, out.seconds, out.prefill_seconds
    model.usage                                      # Usage: calls, tokens, prefill/generation seconds so far

    with model.interrupt_when(cancelled):            # `cancelled()` true: the running complete() raises
        ...                                          # GenerationCancelled within a few milliseconds

A cancel is checked between generated tokens and, while llama.cpp evaluates (a prompt of 500 tokens takes
seconds on busy cores), through llama.cpp's abort callback: a watcher thread polls `cancelled` and sets a flag
that the callback reads without Python (see `_AbortFlag`).

Tests of the layers above use a scripted stand-in, `tests.fakes.FakeLLM`.
"""

from __future__ import annotations

import ctypes
import os
import threading
import time
from collections import OrderedDict, deque
from contextlib import contextmanager
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Callable, Iterator, Protocol, Sequence

DEFAULT_CONTEXT = 4096
MAX_BACKTRACKS = 16  # dead ends a completion may back out of (see complete)
TOP_K = 40          # candidates checked against the grammar per step before falling back to the whole vocabulary
DRAFT_TOKENS = 12   # longest speculative draft (each drafted token costs one more row of the 262k-wide output layer)
EXTRA_BUFFERS_ENV = "LIFELENS_LLAMA_EXTRA_BUFFERS"
DRAFTS_ENV = "LIFELENS_QUD_DRAFTS"   # "1": speculative drafts (faster where a batch is cheap; not repeatable)
THREADS_ENV = "LIFELENS_QUD_THREADS"  # model threads; fewer than the cores when other work shares them


class CoreLoad:
    """How many cores other work takes, from /proc/stat (Linux; `available` is False elsewhere, and where
    /proc/stat counts other cores than this process may use, as in a container limited to some of the host's).

    Two readings, the larger wins: the machine's busy time less this process's own CPU time, averaged since the
    last reading (what other processes got), and the threads ready to run now less the one asking, averaged
    over the last two readings (what other work wants, this process's own other threads included: the window's
    search-index build runs beside the question model). Asked between two model calls, when the model's own
    threads are idle.

        load = CoreLoad()
        ...                      # work
        load.others()            # e.g. 1.7: other work takes 1.7 cores (None: too soon to say)
    """

    MIN_WINDOW = 0.2  # seconds between two readings for an average worth acting on

    def __init__(self, stat_path: str = "/proc/stat", *, clock: Callable[[], float] = time.monotonic,
                 own_cpu: Callable[[], float] | None = None):
        self.stat_path = stat_path
        self.clock = clock
        self.own_cpu = own_cpu or (lambda: sum(os.times()[:2]))  # user + system seconds of this process
        self.cores = _usable_cores()
        self.available = self._counted_cores() == self.cores
        self._last = self._read() if self.available else None
        self._waiting = self._last[3] if self._last else 0.0

    def _counted_cores(self) -> int | None:
        try:
            with open(self.stat_path, encoding="ascii") as f:
                return sum(1 for line in f if line.startswith("cpu") and line[3:4].isdigit())
        except OSError:
            return None

    def _read(self) -> tuple[float, float, float, float]:
        """(monotonic seconds, busy core-seconds of the machine, CPU seconds of this process, other threads
        ready to run)."""
        with open(self.stat_path, encoding="ascii") as f:
            lines = f.read().splitlines()
        values = [int(v) for v in lines[0].split()[1:]]
        busy = sum(values[:8]) - values[3] - values[4]  # all but idle and iowait (guest time is in user already)
        running = next((int(line.split()[1]) for line in lines if line.startswith("procs_running ")), 1)
        return self.clock(), busy / _CLOCK_TICKS, self.own_cpu(), float(max(0, running - 1))

    def others(self) -> float | None:
        """Cores other work takes (see the class); None when unknown or too soon since the last figure."""
        if self._last is None:
            return None
        now = self._read()
        elapsed = now[0] - self._last[0]
        if elapsed < self.MIN_WINDOW:
            return None
        busy, own = now[1] - self._last[1], now[2] - self._last[2]
        waiting = (now[3] + self._waiting) / 2
        self._last, self._waiting = now, now[3]
        return min(float(self.cores), max(0.0, (busy - own) / elapsed, waiting))


_CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS, Windows
        return max(1, os.cpu_count() or 1)


def threads_for(cores: int, others: float) -> int:
    """Model threads for `cores` when other work keeps `others` of them busy: the cores left, counting one that
    is less than 0.7 free as taken. llama.cpp's threads wait for each other at every step, spinning: a thread on a
    core another process also runs on holds all of them back (figures in models/cards/qud-lora.md)."""
    return max(1, min(cores, int(cores - others + 0.3)))


def _threads_from_env() -> int | None:
    """$LIFELENS_QUD_THREADS as a thread count: on busy cores llama.cpp's threads wait on each other, and one
    thread is then several times faster than two."""
    value = os.environ.get(THREADS_ENV, "").strip()
    if not value:
        return None
    if not value.isdigit() or int(value) < 1:
        raise LLMError(f"${THREADS_ENV} must be a positive number of threads, not {value!r}")
    return int(value)
MAX_GRAMMARS = 64   # compiled grammars kept per model (the QUD makes a few per question)


@dataclass(frozen=True)
class Completion:
    text: str
    prompt_tokens: int = 0      # tokens in the prompt
    evaluated_tokens: int = 0   # prompt tokens that were not in the KV cache and had to be evaluated
    generated_tokens: int = 0
    seconds: float = 0.0
    finish_reason: str = "stop"  # stop | length | grammar (no allowed token left)
    decode_calls: int = 0        # llama_decode calls while generating (fewer than tokens when drafts hit)
    prefill_seconds: float = 0.0  # of `seconds`: tokenizing and evaluating the prompt (the rest is generation)
    threads: int = 0              # llama.cpp threads it ran with (they follow the load unless fixed)
    replayed: bool = False        # given back by a ReplayingLLM from an identical earlier call: the model did not run


@dataclass
class Usage:
    """What a model did in all its completions so far; the difference of two readings is what happened between
    them (`after - before`), e.g. the QUD cost of one question.

    prefill_seconds: evaluating prompts (the tokens not in the KV cache); generate_seconds: the rest (one
    llama_decode per accepted token or draft, the grammar checks, sampling)."""

    calls: int = 0
    prompt_tokens: int = 0
    evaluated_tokens: int = 0
    generated_tokens: int = 0
    decode_calls: int = 0
    prefill_seconds: float = 0.0
    generate_seconds: float = 0.0

    def add(self, out: Completion) -> None:
        self.calls += 1
        self.prompt_tokens += out.prompt_tokens
        self.evaluated_tokens += out.evaluated_tokens
        self.generated_tokens += out.generated_tokens
        self.decode_calls += out.decode_calls
        self.prefill_seconds += out.prefill_seconds
        self.generate_seconds += out.seconds - out.prefill_seconds

    def copy(self) -> "Usage":
        return replace(self)

    def __sub__(self, other: "Usage") -> "Usage":
        return Usage(*(getattr(self, f.name) - getattr(other, f.name) for f in fields(self)))


class LLM(Protocol):
    """What the QUD needs from a language model."""

    name: str

    def complete(
        self,
        prompt: str,
        *,
        grammar: str | None = None,
        max_tokens: int = 128,
        temperature: float = 0.0,
        seed: int = 0,
        stop: Sequence[str] = (),
        forbid: Sequence[str] = (),
    ) -> Completion: ...

    def close(self) -> None: ...


class GrammarError(ValueError):
    """llama.cpp rejected a GBNF grammar; the message carries llama.cpp's own explanation."""


class LLMError(RuntimeError):
    """llama.cpp failed to load or to evaluate; the message names the model file."""


class GenerationCancelled(LLMError):
    """The `interrupt_when` check turned true while the model was generating; nothing was returned."""


CANCEL_POLL = 0.05  # seconds between two looks at the cancel check while llama.cpp evaluates


class _AbortFlag:
    """A flag that llama.cpp's abort callback reads without entering Python.

    ggml calls the abort callback before every node of the compute graph (hundreds per llama_decode). A Python
    callback there would take the GIL each time and wait behind any other busy Python thread (the index build,
    the window) for up to the interpreter's switch interval, so the callback is the C library's `strlen` over a
    two-byte buffer instead: "" reads as 0 (go on), "x" as 1 (abort). A watcher thread (`watch`) polls the
    Python check every CANCEL_POLL seconds and writes the byte. Where no C library is found, the callback is a
    Python function reading the same buffer.
    """

    def __init__(self):
        self.buffer = ctypes.create_string_buffer(2)
        self.callback = _c_strlen()
        self._python_callback = None
        if self.callback is None:
            llama_cpp = _llama_cpp()
            buffer = self.buffer

            @llama_cpp.ggml_abort_callback
            def aborted(data):  # noqa: ARG001
                return buffer.raw[0] != 0

            self.callback = self._python_callback = aborted

    @property
    def raised(self) -> bool:
        return self.buffer.raw[0] != 0

    def set(self) -> None:
        self.buffer[0] = b"x"

    def clear(self) -> None:
        self.buffer[0] = b"\0"

    def watch(self, check: Callable[[], bool]) -> Callable[[], None]:
        """Poll `check` in a thread until the returned stop function is called; a true check raises the flag."""
        self.clear()
        done = threading.Event()

        def poll() -> None:
            while not done.wait(CANCEL_POLL):
                try:
                    if check():
                        self.set()
                        return
                except Exception:  # a check that fails is the caller's problem, seen at its next own look
                    return

        thread = threading.Thread(target=poll, name="llm-cancel-watch", daemon=True)
        thread.start()

        def stop() -> None:
            done.set()
            thread.join()

        return stop


def _c_strlen():
    """The C library's strlen as a ggml_abort_callback (bool (*)(void *)), or None where there is none."""
    import ctypes.util

    llama_cpp = _llama_cpp()
    if os.name == "nt":
        libraries = [lambda: ctypes.cdll.msvcrt]
    else:
        libraries = [lambda: ctypes.CDLL(None), lambda: ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")]
    for library in libraries:
        try:
            return ctypes.cast(library().strlen, llama_cpp.ggml_abort_callback)
        except Exception:  # no such library or symbol here: try the next, else the Python callback
            continue
    return None


# --- llama.cpp process state: backend and log ---------------------------------------------------

_backend_lock = threading.Lock()
_backend_ready = False
_log_tail: deque[str] = deque(maxlen=20)  # recent llama.cpp log lines, quoted in our error messages
_log_callback = None  # keep the ctypes callback alive for the life of the process


def _llama_cpp():
    try:
        import llama_cpp
    except ModuleNotFoundError as exc:
        raise ModuleNotFoundError(
            "running a GGUF model needs llama-cpp-python (pip install 'lifelens[models]')"
        ) from exc
    return llama_cpp


def _init_backend():
    """Initialise llama.cpp once per process and route its log into a small buffer instead of stderr."""
    global _backend_ready, _log_callback
    llama_cpp = _llama_cpp()
    with _backend_lock:
        if not _backend_ready:
            @llama_cpp.llama_log_callback
            def keep_tail(level, text, user_data):  # noqa: ARG001
                line = text.decode("utf-8", "replace").strip()
                if line:
                    _log_tail.append(line)

            _log_callback = keep_tail
            llama_cpp.llama_log_set(_log_callback, ctypes.c_void_p(0))
            llama_cpp.llama_backend_init()
            _backend_ready = True
    return llama_cpp


def _recent_log(contains: str = "") -> str:
    lines = [line for line in _log_tail if contains in line]
    return lines[-1] if lines else ""


# --- the model ------------------------------------------------------------------------------------


class GGUFModel:
    """A GGUF model file run by llama.cpp on the CPU (loading takes about a second for 250 MB).

    `use_extra_buffers` lets llama.cpp place weights in its CPU-specific buffer types (repacked layouts,
    Intel AMX). It is off by default: a llama.cpp built with -march=native on a CPU that reports AMX dies with
    SIGILL inside virtual machines that do not enable AMX (seen on the project's build machine). Set
    $LIFELENS_LLAMA_EXTRA_BUFFERS=1 to turn it on.
    """

    def __init__(
        self,
        path: str | os.PathLike,
        *,
        n_ctx: int = DEFAULT_CONTEXT,
        n_threads: int | None = None,
        n_batch: int = 512,
        use_extra_buffers: bool | None = None,
        lora_path: str | os.PathLike | None = None,
        lora_scale: float = 1.0,
        prompt_style: str | None = None,
        drafts: bool | None = None,
    ):
        self.path = Path(path)
        self.name = self.path.name
        # A GGUF LoRA adapter applied on top of the model (models/train/qud_sft.py writes one), and the QUD
        # prompt style it was trained with (app.qud.prompt; None: the decomposer's own default).
        self.lora_path = Path(lora_path) if lora_path else None
        self.lora_scale = lora_scale
        self.prompt_style = prompt_style
        self.kept_completions: ReplayingLLM | None = None  # set by replaying(): steps kept across questions
        if self.lora_path is not None:
            self.name = f"{self.path.name}+{self.lora_path.name}"
        self._adapter = None
        self.n_ctx = n_ctx
        self.n_batch = n_batch
        # An explicit count (the argument, $LIFELENS_QUD_THREADS) is kept; by default the count follows the load:
        # before each completion, the cores other work left free (CoreLoad, threads_for).
        fixed = n_threads or _threads_from_env()
        self.n_threads = fixed or _usable_cores()
        self._load = CoreLoad() if fixed is None else None
        self.threads_now = self.n_threads
        if use_extra_buffers is None:
            use_extra_buffers = os.environ.get(EXTRA_BUFFERS_ENV, "") == "1"
        self.use_extra_buffers = use_extra_buffers
        self.load_seconds: float | None = None
        self._lib = None
        self._model = None
        self._ctx = None
        self._vocab = None
        self._batch = None
        self._n_vocab = 0
        self._cached: list[int] = []          # tokens whose keys/values are in the KV cache, in order
        self._pieces: dict[int, bytes] = {}
        self._grammars: dict[str, object] = {}  # grammar text -> llama_sampler*
        self._full = None                       # candidates array over the whole vocabulary (lazy)
        self._lock = threading.RLock()          # one context: one generation at a time
        self.usage = Usage()                    # summed over every completion of this model
        # Drafts change the output where a near tie meets a batch (module docstring): off unless asked for.
        self.drafts = drafts if drafts is not None else os.environ.get(DRAFTS_ENV, "") == "1"
        self._drafts = DraftLedger()            # whether speculative drafts pay here and now
        self._interrupt: Callable[[], bool] | None = None  # see interrupt_when
        self._abort: _AbortFlag | None = None

    # -- life cycle

    @property
    def loaded(self) -> bool:
        return self._ctx is not None

    def load(self) -> None:
        with self._lock:
            if self._ctx is not None:
                return
            if not self.path.is_file():
                raise FileNotFoundError(f"{self.path}: GGUF model file not found")
            lib = _init_backend()
            started = time.perf_counter()
            mparams = lib.llama_model_default_params()
            mparams.use_extra_bufts = self.use_extra_buffers
            model = lib.llama_model_load_from_file(str(self.path).encode(), mparams)
            if not model:
                raise LLMError(f"{self.path}: llama.cpp cannot load this file as a GGUF model ({_recent_log()})")
            cparams = lib.llama_context_default_params()
            cparams.n_ctx = self.n_ctx
            cparams.n_batch = self.n_batch
            cparams.n_ubatch = self.n_batch
            cparams.n_threads = self.n_threads
            cparams.n_threads_batch = self.n_threads
            # Gemma 3 uses sliding-window attention; a full-size SWA cache lets llama.cpp cut the cache back to
            # a common prefix instead of throwing it away on every new prompt.
            cparams.swa_full = True
            ctx = lib.llama_init_from_model(model, cparams)
            if not ctx:
                lib.llama_model_free(model)
                raise LLMError(f"{self.path}: llama.cpp cannot create a context ({_recent_log()})")
            if self.lora_path is not None:
                self._adapter = self._apply_lora(lib, model, ctx)
            if self._abort is None:
                self._abort = _AbortFlag()
            self._abort.clear()
            lib.llama_set_abort_callback(ctx, self._abort.callback, ctypes.cast(self._abort.buffer, ctypes.c_void_p))
            self._lib, self._model, self._ctx = lib, model, ctx
            self._vocab = lib.llama_model_get_vocab(model)
            self._n_vocab = lib.llama_vocab_n_tokens(self._vocab)
            self._batch = lib.llama_batch_init(self.n_batch, 0, 1)
            self._cached = []
            self.threads_now = self.n_threads
            self.load_seconds = time.perf_counter() - started

    def _apply_lora(self, lib, model, ctx):
        """Load the LoRA adapter and set it on the context; frees context and model when that fails."""
        problem = ""
        adapter = None
        if not self.lora_path.is_file():
            problem = "file not found"
        else:
            adapter = lib.llama_adapter_lora_init(model, str(self.lora_path).encode())
            if not adapter:
                problem = f"llama.cpp cannot load it as a LoRA adapter for {self.path.name} ({_recent_log()})"
            else:
                adapters = (lib.llama_adapter_lora_p_ctypes * 1)(adapter)
                scales = (ctypes.c_float * 1)(self.lora_scale)
                if lib.llama_set_adapters_lora(ctx, adapters, 1, scales):
                    problem = f"llama.cpp cannot apply it ({_recent_log()})"
        if problem:
            if adapter:
                lib.llama_adapter_lora_free(adapter)
            lib.llama_free(ctx)
            lib.llama_model_free(model)
            raise LLMError(f"{self.lora_path}: {problem}")
        return adapter

    def close(self) -> None:
        with self._lock:
            if self._ctx is None:
                return
            lib = self._lib
            for sampler in self._grammars.values():
                lib.llama_sampler_free(sampler)
            self._grammars.clear()
            lib.llama_batch_free(self._batch)
            lib.llama_free(self._ctx)
            if self._adapter is not None:
                lib.llama_adapter_lora_free(self._adapter)
                self._adapter = None
            lib.llama_model_free(self._model)
            self._ctx = self._model = self._vocab = self._batch = self._full = None
            self._cached = []

    def __enter__(self) -> "GGUFModel":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # interpreter shutdown: the library may already be gone
            pass

    # -- tokens

    def tokenize(self, text: str, *, add_bos: bool = False) -> list[int]:
        self.load()
        data = text.encode("utf-8")
        size = len(data) + 8
        buf = (self._lib.llama_token * size)()
        n = self._lib.llama_tokenize(self._vocab, data, len(data), buf, size, add_bos, False)
        if n < 0:
            raise LLMError(f"{self.path}: tokenization needs {-n} tokens, more than the buffer")
        return list(buf[:n])

    def piece(self, token: int) -> bytes:
        cached = self._pieces.get(token)
        if cached is None:
            buf = ctypes.create_string_buffer(64)
            n = self._lib.llama_token_to_piece(self._vocab, token, buf, 64, 0, False)
            cached = self._pieces[token] = buf.raw[: max(n, 0)]
        return cached

    def is_eog(self, token: int) -> bool:
        return bool(self._lib.llama_vocab_is_eog(self._vocab, token))

    # -- grammars

    def grammar(self, text: str):
        """A compiled GBNF grammar (llama_sampler*), cached by its text; GrammarError when it does not parse."""
        self.load()
        sampler = self._grammars.get(text)
        if sampler is None:
            _log_tail.clear()
            sampler = self._lib.llama_sampler_init_grammar(self._vocab, text.encode("utf-8"), b"root")
            if not sampler:
                raise GrammarError(f"llama.cpp cannot parse the GBNF grammar: {_recent_log('pars') or _recent_log()}")
            if len(self._grammars) >= MAX_GRAMMARS:  # forget the oldest (dicts keep insertion order)
                oldest = next(iter(self._grammars))
                self._lib.llama_sampler_free(self._grammars.pop(oldest))
            self._grammars[text] = sampler
        return sampler

    def grammar_accepts(self, grammar_text: str, text: str) -> tuple[bool, str]:
        """Does the grammar accept exactly `text`? Returns (ok, reason); the reason names the failing place.

        Feeds the tokens of `text` one by one through llama.cpp's own grammar sampler, so the test is the
        one that constrains generation, then asks whether an end-of-generation token is allowed.
        """
        with self._lock:
            sampler = self.grammar(grammar_text)
            lib = self._lib
            lib.llama_sampler_reset(sampler)
            try:
                consumed = b""
                for token in self.tokenize(text):
                    if not self._allowed(sampler, [token])[0]:
                        return False, f"rejected at byte {len(consumed)}: {consumed.decode('utf-8', 'replace')!r} + {self.piece(token)!r}"
                    lib.llama_sampler_accept(sampler, token)
                    consumed += self.piece(token)
                eog = lib.llama_vocab_eos(self._vocab)
                if not self._allowed(sampler, [eog])[0]:
                    return False, f"incomplete: the grammar expects more after {text!r}"
                return True, ""
            finally:
                lib.llama_sampler_reset(sampler)

    def _allowed(self, sampler, tokens: Sequence[int]) -> list[bool]:
        lib = self._lib
        n = len(tokens)
        data = (lib.llama_token_data * n)()
        for i, token in enumerate(tokens):
            data[i].id = token
            data[i].logit = 0.0
        arr = lib.llama_token_data_array(data=ctypes.cast(data, lib.llama_token_data_p), size=n, selected=-1, sorted=False)
        lib.llama_sampler_apply(sampler, ctypes.byref(arr))
        return [data[i].logit != float("-inf") for i in range(n)]

    # -- evaluation

    def _decode(self, tokens: Sequence[int], start: int, *, all_logits: bool) -> None:
        """Evaluate `tokens` at positions start.. (in batches); logits for every token or only the last."""
        lib, batch = self._lib, self._batch
        for offset in range(0, len(tokens), self.n_batch):
            chunk = tokens[offset: offset + self.n_batch]
            last_chunk = offset + self.n_batch >= len(tokens)
            batch.n_tokens = len(chunk)
            for i, token in enumerate(chunk):
                batch.token[i] = token
                batch.pos[i] = start + offset + i
                batch.n_seq_id[i] = 1
                batch.seq_id[i][0] = 0
                batch.logits[i] = all_logits or (last_chunk and i == len(chunk) - 1)
            code = lib.llama_decode(self._ctx, batch)
            if code == 2 and self._abort is not None and self._abort.raised:
                # aborted half-way: drop whatever this call wrote beyond the tokens we know are in the cache
                if not lib.llama_memory_seq_rm(lib.llama_get_memory(self._ctx), 0, len(self._cached), -1):
                    self._forget_cache()
                raise GenerationCancelled(f"{self.path}: generation cancelled")
            if code != 0:
                self._forget_cache()
                raise LLMError(f"{self.path}: llama_decode failed with code {code} ({_recent_log()})")

    def _forget_cache(self) -> None:
        self._lib.llama_memory_clear(self._lib.llama_get_memory(self._ctx), True)
        self._cached = []

    def _truncate_cache(self, keep: int) -> None:
        if keep >= len(self._cached):
            return
        if not self._lib.llama_memory_seq_rm(self._lib.llama_get_memory(self._ctx), 0, keep, -1):
            self._forget_cache()
            return
        del self._cached[keep:]

    def _prefill(self, tokens: list[int]) -> int:
        """Make the KV cache hold `tokens` with logits for the last one; returns how many had to be evaluated."""
        common = 0
        for a, b in zip(self._cached, tokens):
            if a != b:
                break
            common += 1
        common = min(common, len(tokens) - 1)  # the last token is always evaluated again: we need its logits
        self._truncate_cache(common)
        common = len(self._cached)
        self._decode(tokens[common:], common, all_logits=False)
        self._cached = list(tokens)
        return len(tokens) - common

    def _logits(self, index: int):
        import numpy as np

        ptr = self._lib.llama_get_logits_ith(self._ctx, index)
        return np.ctypeslib.as_array(ptr, shape=(self._n_vocab,))

    # -- cancelling

    @contextmanager
    def interrupt_when(self, cancelled: Callable[[], bool] | None) -> Iterator[None]:
        """While inside, a `complete()` whose `cancelled()` turns true stops within a few milliseconds and raises
        GenerationCancelled: checked between tokens, and inside llama.cpp's evaluation through the abort flag.
        For callers that cannot pass the check to each call (the QUD decomposer makes many)."""
        previous, self._interrupt = self._interrupt, cancelled
        try:
            yield
        finally:
            self._interrupt = previous

    def _check_interrupt(self) -> None:
        if (self._abort is not None and self._abort.raised) or (self._interrupt is not None and self._interrupt()):
            raise GenerationCancelled(f"{self.path}: generation cancelled")

    # -- sampling

    def _choose(self, logits, sampler, temperature: float, rng, out: bytes = b"", forbid=(), exclude=()) -> int | None:
        """Pick the next token among those the grammar allows, that complete no forbidden text and are not in
        `exclude` (tried here before, a dead end): greedy, or sampled at `temperature`."""
        import numpy as np

        if temperature <= 0:
            best = self._greedy_best(logits, sampler, out, forbid, exclude)
            if best is not None:
                return best
        top = np.argpartition(logits, -TOP_K)[-TOP_K:]
        top = top[np.argsort(-logits[top])]
        if sampler is not None:
            allowed = self._allowed(sampler, top.tolist())
            ids = top[np.array(allowed, dtype=bool)]
            if len(ids) == 0:
                ids = self._allowed_full(sampler, logits)
        else:
            ids = top
        if exclude and len(ids):
            ids = ids[[int(t) not in exclude for t in ids]]
        if forbid and len(ids):
            tail = out[-max(len(f) for f in forbid):]
            ids = ids[[not any(f in tail + self.piece(int(t)) for f in forbid) for t in ids]]
        if len(ids) == 0:
            return None
        if temperature <= 0:
            return int(ids[0])
        scores = logits[ids].astype(np.float64) / temperature
        probs = np.exp(scores - scores.max())
        probs /= probs.sum()
        return int(rng.choice(ids, p=probs))

    def _greedy_best(self, logits, sampler, out: bytes, forbid, exclude) -> int | None:
        """The single most likely token when it may be taken (the grammar allows it, it completes no forbidden text
        and is no dead end), else None. Greedy decoding takes it in most steps; looking at it alone saves ranking
        the top 40 of 262k logits and running the grammar over each (what that saves: models/cards/qud-lora.md),
        and picks what the full ranking would pick."""
        best = int(logits.argmax())
        if best in exclude:
            return None
        if forbid and any(f in out[-max(len(f) for f in forbid):] + self.piece(best) for f in forbid):
            return None
        if sampler is not None and not self._allowed(sampler, [best])[0]:
            return None
        return best

    def _allowed_full(self, sampler, logits):
        """All tokens the grammar allows, best first (slow path: the whole vocabulary)."""
        import numpy as np

        lib = self._lib
        if self._full is None:
            self._full = (lib.llama_token_data * self._n_vocab)()
        view = np.ctypeslib.as_array(self._full).view(np.dtype([("id", "<i4"), ("logit", "<f4"), ("p", "<f4")]))
        view["id"] = np.arange(self._n_vocab, dtype=np.int32)
        view["logit"] = logits
        arr = lib.llama_token_data_array(data=ctypes.cast(self._full, lib.llama_token_data_p), size=self._n_vocab, selected=-1, sorted=False)
        lib.llama_sampler_apply(sampler, ctypes.byref(arr))
        ok = np.isfinite(view["logit"])
        ids = view["id"][ok]
        return ids[np.argsort(-view["logit"][ok])][:TOP_K]

    @staticmethod
    def _draft(context: list[int], limit: int) -> list[int]:
        """Tokens that followed the latest occurrence of the context's last 3 (then 2, 1) tokens."""
        for n in (3, 2, 1):
            if len(context) <= n:
                continue
            tail = context[-n:]
            for start in range(len(context) - n - 1, -1, -1):
                if context[start: start + n] == tail:
                    follow = context[start + n: start + n + limit]
                    if follow:
                        return follow
        return []

    def complete(
        self,
        prompt: str,
        *,
        grammar: str | None = None,
        max_tokens: int = 128,
        temperature: float = 0.0,
        seed: int = 0,
        stop: Sequence[str] = (),
        forbid: Sequence[str] = (),
        speculate: bool | None = None,
    ) -> Completion:
        """Continue `prompt`. `grammar`: GBNF text the output must match; `stop`: strings that end it (left
        out of the text); `forbid`: strings the output must not contain (the QUD forbids repeating a
        question above as a sub-question); `speculate`: draft tokens from the prompt (default: `self.drafts`)."""
        if speculate is None:
            speculate = self.drafts
        with self._lock:
            self.load()
            interrupt = self._interrupt
            stop_watching = self._abort.watch(interrupt) if interrupt is not None else None
            try:
                out = self._complete(prompt, grammar, max_tokens, temperature, seed, stop, forbid, speculate)
            finally:
                if stop_watching is not None:
                    stop_watching()
                    self._abort.clear()
            self.usage.add(out)
            return out

    def _follow_load(self) -> None:
        """Set the thread count for the next evaluations to the cores other work leaves free (when not fixed)."""
        if self._load is None or not self._load.available:
            return
        others = self._load.others()
        if others is None:
            return
        threads = threads_for(self.n_threads, others)
        if threads != self.threads_now:
            self._lib.llama_set_n_threads(self._ctx, threads, threads)
            self.threads_now = threads

    def _complete(self, prompt, grammar, max_tokens, temperature, seed, stop, forbid, speculate) -> Completion:
        import numpy as np

        started = time.perf_counter()
        lib = self._lib
        self._follow_load()
        sampler = self.grammar(grammar) if grammar else None
        if sampler is not None:
            lib.llama_sampler_reset(sampler)
        prompt_ids = self.tokenize(prompt, add_bos=bool(lib.llama_vocab_get_add_bos(self._vocab)))
        if len(prompt_ids) + max_tokens >= self.n_ctx:
            raise LLMError(f"{self.path}: prompt of {len(prompt_ids)} tokens + {max_tokens} do not fit in {self.n_ctx}")
        self._check_interrupt()
        evaluated = self._prefill(prompt_ids)
        prefilled = time.perf_counter()
        writing = _Writing(
            prompt_ids=prompt_ids,
            sampler=sampler,
            temperature=temperature,
            rng=np.random.default_rng(seed),
            stops=tuple(s.encode("utf-8") for s in stop),
            banned=tuple(f.encode("utf-8") for f in forbid if f),
            max_tokens=max_tokens,
            speculate=speculate,
        )
        finish = self._generate(writing)
        return Completion(
            text=_without_stop(writing.out.decode("utf-8", "replace"), stop),
            prompt_tokens=len(prompt_ids),
            evaluated_tokens=evaluated,
            generated_tokens=len(writing.generated),
            seconds=time.perf_counter() - started,
            finish_reason=finish,
            decode_calls=writing.decode_calls,
            prefill_seconds=prefilled - started,
            threads=self.threads_now,
        )

    def _generate(self, writing: "_Writing") -> str:
        """Write tokens after the prefilled prompt until the model ends, a stop string is written, max_tokens are
        reached or a dead end has no way back; returns the finish reason ("stop", "length", "grammar")."""
        logits = self._logits(-1)
        while len(writing.generated) < writing.max_tokens:
            self._check_interrupt()
            token = self._next_token(logits, writing)
            if token is None:
                if not self._may_backtrack(writing):
                    return "grammar"
                logits = self._backtrack(writing)
                continue
            if self.is_eog(token):
                return "stop"
            self._take(writing, token)
            if writing.ends_with_stop():
                return "stop"
            if len(writing.generated) >= writing.max_tokens:
                break
            logits, stopped = self._evaluate_with_draft(writing, token)
            if stopped:
                return "stop" if writing.ends_with_stop() else "length"
        return "length"

    def _next_token(self, logits, writing: "_Writing") -> int | None:
        """The token to write next (None: a dead end), never one that led nowhere from this position before."""
        return self._choose(logits, writing.sampler, writing.temperature, writing.rng, writing.out, writing.banned,
                            writing.dead_ends.get(len(writing.generated), ()))

    def _take(self, writing: "_Writing", token: int) -> None:
        """Append `token` to the output (and to the grammar's state)."""
        if writing.sampler is not None:
            self._lib.llama_sampler_accept(writing.sampler, token)
        writing.generated.append(token)
        writing.out += self.piece(token)

    @staticmethod
    def _may_backtrack(writing: "_Writing") -> bool:
        """Only under a grammar, with a token to take back, and at most MAX_BACKTRACKS times per completion."""
        return (writing.sampler is not None and bool(writing.generated)
                and sum(map(len, writing.dead_ends.values())) < MAX_BACKTRACKS)

    def _backtrack(self, writing: "_Writing"):
        """A dead end: the grammar allows nothing here that completes no forbidden text (e.g. a sub-question that
        can only go on as the question itself). Take the last token back and mark it a dead end at its position,
        so that another one is chosen in its place and the output still parses; returns the logits there."""
        lib = self._lib
        last = writing.generated.pop()
        position = len(writing.generated)
        writing.dead_ends = {p: t for p, t in writing.dead_ends.items() if p <= position}
        writing.dead_ends.setdefault(position, set()).add(last)
        writing.out = bytearray(b"".join(self.piece(t) for t in writing.generated))
        lib.llama_sampler_reset(writing.sampler)
        for t in writing.generated:
            lib.llama_sampler_accept(writing.sampler, t)
        self._prefill(writing.prompt_ids + writing.generated)
        writing.decode_calls += 1
        return self._logits(-1)

    def _evaluate_with_draft(self, writing: "_Writing", token: int):
        """Evaluate the new `token` together with a draft of what probably follows it; keep the draft's tokens
        for as long as they are exactly what would have been chosen anyway. Returns the logits for the next
        choice, and whether a kept draft token ended the output (a stop string or max_tokens)."""
        limit = min(writing.draft_length, writing.max_tokens - len(writing.generated) - 1)
        limit = min(limit, self._drafts.allowed()) if writing.speculate else 0
        draft = self._draft(writing.prompt_ids + writing.generated, limit) if limit > 0 else []
        start = len(self._cached)
        clock = time.perf_counter()
        self._decode([token] + draft, start, all_logits=True)
        seconds = time.perf_counter() - clock
        writing.decode_calls += 1
        self._cached.append(token)
        self._cached.extend(draft)
        accepted = 0
        logits = self._logits(0)
        stopped = False
        for i, proposed in enumerate(draft):
            choice = self._next_token(logits, writing)
            if choice != proposed or self.is_eog(choice):
                break
            self._take(writing, choice)
            accepted += 1
            logits = self._logits(i + 1)
            if writing.ends_with_stop() or len(writing.generated) >= writing.max_tokens:
                stopped = True
                break
        self._truncate_cache(start + 1 + accepted)
        self._drafts.record(len(draft), seconds, accepted)
        # Draft longer while drafts are taken whole, shorter after a miss (a miss costs output rows).
        if draft:
            writing.draft_length = min(DRAFT_TOKENS, 2 * len(draft)) if accepted == len(draft) else max(1, accepted)
        return logits, stopped


class DraftLedger:
    """Whether speculative drafts pay on this machine now, from what they did so far (moving averages).

    A drafted token costs the seconds it adds to its decode whether it is kept or not, and saves a decode of its
    own when it is kept: drafts pay while kept share x seconds of a decode without a draft > seconds a drafted
    token adds. Where a batch costs nearly as much per token as single decodes (a compute-bound CPU, such as 2 busy
    cores with one thread) drafts kept half the time lose (figures in models/cards/qud-lora.md). While they
    do not pay, one decode in PROBE_EVERY drafts one token anyway, so that the averages follow the load and the
    text (a probe of a whole draft cost seconds where two threads spun on busy cores: 585 ms a drafted token).
    """

    ALPHA = 0.1        # weight of the newest figure in the moving averages
    MIN_SAMPLES = 8    # decodes of each kind before the averages decide
    PROBE_EVERY = 16

    def __init__(self):
        self.single: float | None = None   # seconds of a decode without a draft
        self.extra: float | None = None    # seconds a drafted token adds to its decode
        self.kept: float | None = None     # share of drafted tokens kept
        self.samples = [0, 0]              # decodes without, with a draft
        self._skipped = 0

    def _average(self, old: float | None, new: float) -> float:
        return new if old is None else old + self.ALPHA * (new - old)

    def record(self, drafted: int, seconds: float, kept: int) -> None:
        if drafted == 0:
            self.single = self._average(self.single, seconds)
            self.samples[0] += 1
        elif self.single is not None:
            self.extra = self._average(self.extra, max(0.0, seconds - self.single) / drafted)
            self.kept = self._average(self.kept, kept / drafted)
            self.samples[1] += 1

    def pays(self) -> bool:
        if min(self.samples) < self.MIN_SAMPLES:
            return True  # still learning
        return self.kept * self.single > self.extra

    def allowed(self) -> int:
        """The longest draft for the next decode: any while drafts pay, one token now and then when they do not
        (to keep the averages fresh), else none."""
        if self.pays():
            return DRAFT_TOKENS
        self._skipped += 1
        return 1 if self._skipped % self.PROBE_EVERY == 0 else 0


@dataclass
class _Writing:
    """One completion as it is written: its settings, the tokens and bytes so far, and the dead ends found."""

    prompt_ids: list[int]
    sampler: object  # the grammar's llama.cpp sampler, or None
    temperature: float
    rng: object  # numpy Generator
    stops: tuple[bytes, ...]
    banned: tuple[bytes, ...]  # forbidden strings
    max_tokens: int
    speculate: bool
    generated: list[int] = field(default_factory=list)
    out: bytearray = field(default_factory=bytearray)
    dead_ends: dict[int, set[int]] = field(default_factory=dict)  # position -> tokens that led nowhere from there
    decode_calls: int = 0
    draft_length: int = 4

    def ends_with_stop(self) -> bool:
        return any(self.out.endswith(s) for s in self.stops)


def _without_stop(text: str, stop: Sequence[str]) -> str:
    """`text` less the stop string it ends with (the first of `stop` that matches)."""
    for s in stop:
        if s and text.endswith(s):
            return text[: -len(s)]
    return text


# --- the same call twice ------------------------------------------------------------------------------------


class ReplayingLLM:
    """An LLM whose completions are kept for a while: a call with the same prompt and arguments as an earlier one
    gets the earlier completion back (marked `replayed`, with no seconds) without running the model. Greedy or
    seeded decoding would write the same text again, so nothing changes but the time.

    Within one question (app.ask), a new decomposition after a step that failed when the tree ran asks again for
    every sub-question the failure did not touch, with the same prompts; across questions (`replaying`), a
    sub-question decomposed for an earlier question ("I went running in 2023") is not written again. At most
    `max_kept` completions are kept, the least recently used going first.

        llm = ReplayingLLM(model)
        llm.complete(prompt, grammar=g)     # runs the model
        llm.complete(prompt, grammar=g)     # the same Completion, replayed; llm.replayed == 1
    """

    def __init__(self, llm: LLM, max_kept: int = 4096):
        self.llm = llm
        self.replayed = 0
        self.max_kept = max_kept
        self._kept: OrderedDict[tuple, Completion] = OrderedDict()
        self._lock = threading.Lock()

    def __getattr__(self, name: str):  # name, loaded, usage, interrupt_when, ... are the model's
        return getattr(self.llm, name)

    def complete(self, prompt: str, **kwargs) -> Completion:
        key = (prompt, tuple(sorted((k, tuple(v) if isinstance(v, (list, tuple)) else v) for k, v in kwargs.items())))
        with self._lock:
            kept = self._kept.get(key)
            if kept is not None:
                self._kept.move_to_end(key)
                self.replayed += 1
                return replace(kept, seconds=0.0, prefill_seconds=0.0, evaluated_tokens=0, decode_calls=0,
                               replayed=True)
        out = self.llm.complete(prompt, **kwargs)
        with self._lock:
            self._kept[key] = out
            while len(self._kept) > self.max_kept:
                self._kept.popitem(last=False)
        return out

    def close(self) -> None:
        self.llm.close()


_replaying_lock = threading.Lock()


def replaying(llm: LLM) -> ReplayingLLM:
    """The completions of `llm` kept for as long as the model lives, when its output depends on the call alone (a
    GGUFModel: greedy or seeded); for another model (a test's scripted stand-in), kept for this caller only."""
    if not isinstance(llm, GGUFModel):
        return ReplayingLLM(llm)
    with _replaying_lock:
        if llm.kept_completions is None:
            llm.kept_completions = ReplayingLLM(llm)  # a cycle the garbage collector frees with the model
        return llm.kept_completions


# --- one model per file and process ---------------------------------------------------------------

_shared: dict[Path | tuple[Path, Path], GGUFModel] = {}
_shared_lock = threading.Lock()


def shared_model(path: str | os.PathLike, **kwargs) -> GGUFModel:
    """The process-wide instance for this GGUF file and LoRA adapter (created on first request, loaded on
    first use)."""
    key = Path(path).resolve()
    if kwargs.get("lora_path"):
        key = (key, Path(kwargs["lora_path"]).resolve())
    with _shared_lock:
        model = _shared.get(key)
        if model is None:
            model = _shared[key] = GGUFModel(Path(path).resolve(), **kwargs)
        return model


def close_shared_models() -> None:
    with _shared_lock:
        for model in _shared.values():
            model.close()
        _shared.clear()
