"""20 visitors asking at once through ``gradio_client`` (each its own client, in threads): every answer
must cite its own paper; latency p50 / p95 and errors are printed (run with ``-s`` to see them)."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ui_server import RunningApp, client, percentile, seed_app, seed_questions  # noqa: F401  (seed_app: fixture)

VISITORS = 20


def test_twenty_concurrent_chats_each_cite_their_own_paper(seed_app: RunningApp) -> None:
    questions = seed_questions(VISITORS)
    assert len(questions) == VISITORS and len({pid for _, pid in questions}) == VISITORS
    clients = [client(seed_app.url) for _ in questions]
    start = threading.Barrier(VISITORS)

    def visit(index: int) -> tuple[float, Any]:
        question, _ = questions[index]
        start.wait()
        began = time.perf_counter()
        try:
            result: Any = clients[index].predict(question, api_name="/ask")
        except Exception as exc:  # counted, reported below
            result = exc
        return (time.perf_counter() - began) * 1000, result

    began = time.perf_counter()
    with ThreadPoolExecutor(VISITORS) as pool:
        outcomes = list(pool.map(visit, range(VISITORS)))
    wall = (time.perf_counter() - began) * 1000
    errors = [(q, r) for (q, _), (_, r) in zip(questions, outcomes) if isinstance(r, Exception)]
    wrong = [(q, pid, [c["paper_id"] for c in r["citations"]]) for (q, pid), (_, r) in zip(questions, outcomes)
             if not isinstance(r, Exception) and pid not in [c["paper_id"] for c in r["citations"]]]
    latencies = [ms for ms, _ in outcomes]
    concurrency = seed_app.engine.settings.ui.ui_concurrency
    print(f"\n{VISITORS} concurrent chats (queue concurrency {concurrency}): p50 {percentile(latencies, 0.5):.0f} ms, "
          f"p95 {percentile(latencies, 0.95):.0f} ms, max {max(latencies):.0f} ms, wall {wall:.0f} ms, "
          f"errors {len(errors)}, wrong citations {len(wrong)}")
    assert not errors, errors
    assert not wrong, wrong
