"""Test doubles for the layers above the models: they live with the tests, not in the shipped modules.

    llm = FakeLLM([' RETRIEVE(query="I went running")'])      # answers complete() from a script
    llm = FakeLLM(lambda prompt: " END")                      # or from a function of the prompt
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from typing import Callable, Iterator, Sequence

from models.llm import Completion, GenerationCancelled, Usage


class FakeLLM:
    """Answers `complete()` from a script: a list of texts (used in order) or a function of the prompt.

    Every call is recorded in `calls` as (prompt, grammar, temperature), so tests can check what the layer
    above asked for. `seconds_per_call`: each call takes this long, as a real model would (a cancel through
    `interrupt_when` stops it within 10 ms, as it stops a real one).
    """

    name = "fake"

    def __init__(self, script: Sequence[str] | Callable[[str], str], *, seconds_per_call: float = 0.0):
        self._script = script if callable(script) else list(script)
        self.calls: list[tuple[str, str | None, float]] = []
        self.forbidden: list[tuple[str, ...]] = []  # the `forbid` argument of each call
        self.closed = False
        self.seconds_per_call = seconds_per_call
        self.usage = Usage()
        self._interrupt: Callable[[], bool] | None = None

    @contextmanager
    def interrupt_when(self, cancelled: Callable[[], bool] | None) -> Iterator[None]:
        previous, self._interrupt = self._interrupt, cancelled
        try:
            yield
        finally:
            self._interrupt = previous

    def complete(self, prompt, *, grammar=None, max_tokens=128, temperature=0.0, seed=0, stop=(), forbid=()) -> Completion:
        started = time.perf_counter()
        self.calls.append((prompt, grammar, temperature))
        self.forbidden.append(tuple(forbid))
        while True:
            if self._interrupt is not None and self._interrupt():
                raise GenerationCancelled("fake: generation cancelled")
            if time.perf_counter() - started >= self.seconds_per_call:
                break
            time.sleep(min(0.01, self.seconds_per_call))
        if callable(self._script):
            text = self._script(prompt)
        else:
            if not self._script:
                raise AssertionError("FakeLLM: the script is exhausted")
            text = self._script.pop(0)
        out = Completion(text=text, prompt_tokens=len(prompt.split()), evaluated_tokens=len(prompt.split()),
                         generated_tokens=len(text.split()), seconds=time.perf_counter() - started)
        self.usage.add(out)
        return out

    def close(self) -> None:
        self.closed = True


class RecordingRetriever:
    """The engine's keyword RETRIEVE, recording every query it was asked (`queries`)."""

    def __init__(self):
        from app.engine.retrieve import KeywordRetriever

        self.keyword = KeywordRetriever()
        self.queries: list[str] = []

    def retrieve(self, query, store, reference_date):
        self.queries.append(query)
        return self.keyword.retrieve(query, store, reference_date)
