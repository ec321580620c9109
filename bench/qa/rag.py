"""The paper's RAG baseline: the top-k events by BM25 go into the language model's prompt, which answers.

It shows why operator trees are needed: a small window of events cannot answer counts, sums or
superlatives over a life's worth of data (the paper reports Hit@1 0.029 for RAG on PerQA).
"""

from __future__ import annotations

import time
from datetime import date
from typing import Any

from app.answer import Answer

TOP_K = 12


def rag_answer(question: str, store: Any, reference_date: date, llm: Any, k: int = TOP_K) -> Answer:
    started = time.perf_counter()
    hits = store.search(question, limit=k)
    events = store.get([event_id for event_id, _ in hits])
    lines = [f"- {e.start:%Y-%m-%d %H:%M} [{e.source}] {e.title}" for e in events]
    prompt = (
        f"Today is {reference_date.isoformat()}. Events from my life:\n" + "\n".join(lines)
        + f"\n\nQuestion: {question}\nShort answer (a number, name or date):"
    )
    text = llm.complete(prompt, max_tokens=24, stop=["\n"]).text.strip()
    value: Any = text
    try:
        value = float(text.replace(",", "")) if text else None
    except ValueError:
        pass
    timings = {"total": time.perf_counter() - started}
    return Answer(question, value or None, text or "I could not find an answer.", None,
                  tuple(e.id for e in events), timings, None)
