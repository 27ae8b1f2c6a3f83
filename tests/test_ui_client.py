"""The running app through ``gradio_client`` (its ``/ask`` endpoint), serving rules, and the eval runner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rag.errors import RagError
from rag.settings import Settings
from ui_server import TACTIC, TRIM_KV, RunningApp, client, seed_app  # noqa: F401  (seed_app is a fixture)


class TestAskEndpoint:
    def test_trim_kv_is_cited(self, seed_app: RunningApp) -> None:
        result = client(seed_app.url).predict("What is TRIM-KV?", api_name="/ask")
        assert result["citations"][0]["paper_id"] == TRIM_KV
        assert "retention gate" in result["answer"] and "[1]" in result["answer"]
        assert result["sources"][0]["paper_id"] == TRIM_KV and not result["refused"]
        assert any("retention gate" in s for s in result["evidence_sentences"][TRIM_KV])
        assert result["conversation_id"] == "" and not list(seed_app.history_dir.glob("*.json"))

    def test_follow_up_in_a_saved_conversation(self, seed_app: RunningApp) -> None:
        api = client(seed_app.url)
        first = api.predict("What is TRIM-KV?", "new", api_name="/ask")
        conversation_id = first["conversation_id"]
        second = api.predict("How is it trained?", conversation_id, api_name="/ask")
        assert first["citations"][0]["paper_id"] == TRIM_KV and second["conversation_id"] == conversation_id
        assert TRIM_KV in [c["paper_id"] for c in second["citations"]]
        stored = json.loads((seed_app.history_dir / f"{conversation_id}.json").read_text(encoding="utf-8"))
        assert [t["question"] for t in stored["turns"]] == ["What is TRIM-KV?", "How is it trained?"]

    def test_backend_and_top_k_options(self, seed_app: RunningApp) -> None:
        result = client(seed_app.url).predict("What is Tactic?", "", "extractive", 2, api_name="/ask")
        assert len(result["sources"]) == 2 and result["backend"] == "extractive"

    def test_an_empty_question_is_a_clear_error(self, seed_app: RunningApp) -> None:
        with pytest.raises(Exception, match="question is empty"):
            client(seed_app.url).predict("  ", api_name="/ask")

    @pytest.mark.parametrize(("question", "top_k", "message"), [
        ("What is TRIM-KV? " * 200, 0, "the limit is 2,000"), ("What is TRIM-KV?", 100, "top_k must be"),
        ("What is TRIM-KV?", -1, "top_k must be")])
    def test_out_of_bounds_is_a_clear_error(self, seed_app: RunningApp, question: str, top_k: int, message: str) -> None:
        with pytest.raises(Exception, match=message):
            client(seed_app.url).predict(question, "", "extractive", top_k, api_name="/ask")

    def test_only_ask_is_public(self, seed_app: RunningApp) -> None:
        endpoints = client(seed_app.url).view_api(print_info=False, return_format="dict")["named_endpoints"]
        assert list(endpoints) == ["/ask"]


class TestChatTurns:
    """The chat handler itself (what the page's events run), without a browser."""

    def turn(self, seed_app: RunningApp, question: str, **options: object) -> object:
        from ui.app import ChatApp

        app = ChatApp(seed_app.engine)
        updates = list(app.turn(question, None, "extractive", 5, False, **options))
        assert "Searching the papers" in updates[0]["chat"][-1]["content"]
        assert [k for k in updates[1] if k == "sources"] and "Found" in updates[1]["chat"][-1]["content"]
        return app.conversations().open(updates[0]["conversation"]).record.turns[-1]

    def test_restricted_chat_searches_only_the_picked_papers(self, seed_app: RunningApp) -> None:
        turn = self.turn(seed_app, "What is TRIM-KV?", restrict=True, picked=[TACTIC])
        assert [s.paper_id for s in turn.sources] == [TACTIC]

    def test_compare_picked_papers_gives_the_table(self, seed_app: RunningApp) -> None:
        turn = self.turn(seed_app, "Compare these", restrict=False, picked=None, compare_ids=[TRIM_KV, TACTIC])
        assert "| paper | problem | method | key result |" in turn.answer
        assert [c.paper_id for c in turn.citations] == [TRIM_KV, TACTIC] and turn.compare_ids == [TRIM_KV, TACTIC]


class TestServing:
    @pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1", "127.0.0.2"])
    def test_loopback_needs_no_login(self, host: str) -> None:
        from ui.app import check_serving

        assert check_serving(Settings(ui_host=host)) is None

    @pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.5", "example.org", "::"])
    def test_other_hosts_refuse_to_start_without_login(self, host: str) -> None:
        from ui.app import check_serving

        with pytest.raises(RagError, match="RAG_UI_AUTH=user:password or RAG_UI_USERS=PATH"):
            check_serving(Settings(ui_host=host))
        check = check_serving(Settings(ui_host=host, ui_auth="ann:s3cret:x"))
        assert check("ann", "s3cret:x") and not check("ann", "s3cret") and not check("bob", "s3cret:x")

    @pytest.mark.parametrize("auth", ["nopassword", ":pw", "user:"])
    def test_malformed_login_is_an_error(self, auth: str) -> None:
        from ui.app import check_serving

        with pytest.raises(RagError, match="user:password"):
            check_serving(Settings(ui_auth=auth))

    def test_serve_refuses_before_building_anything(self) -> None:
        from ui.app import serve

        class NoEngine:
            settings = Settings(ui_host="0.0.0.0")

        with pytest.raises(RagError, match="refusing to serve on 0.0.0.0"):
            serve(NoEngine())


class TestEvaluationTab:
    def test_a_question_file_runs_and_items_open(self, seed_app: RunningApp, tmp_path: Path) -> None:
        from ui.catalog import Catalog
        from ui.evaluation import item_choices, item_markdown, question_files, run_question_file

        path = tmp_path / "two.jsonl"
        path.write_text(json.dumps({"id": "a", "question": "What is TRIM-KV?", "expect_papers": [TRIM_KV]}) + "\n" +
                        json.dumps({"id": "b", "question": "How do volcanoes erupt?", "expect_refusal": True}) + "\n",
                        encoding="utf-8")
        results, report, plot = run_question_file(seed_app.engine, path, backend="extractive", retrieval_only=False,
                                                  top_k=5, plot_dir=tmp_path)
        assert "| hit@1 | 1.000 | 1 |" in report and plot.stat().st_size > 1000
        assert [value for _, value in item_choices(results)] == ["a", "b"]
        detail = item_markdown(results[0], Catalog(seed_app.engine), 5)
        assert "Cache What Lasts" in detail and "✓ expected" in detail and "retention gate" in detail
        assert ("questions.yaml", str(Path(__file__).parent / "data" / "questions.yaml")) in question_files()


def test_rag_serve_stopped_by_sigterm_leaves_no_scratch_folders(seed_index: Path, tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import sys
    import urllib.request

    from ui_server import free_port, wait_until

    port, scratch = free_port(), tmp_path / "tmp"
    scratch.mkdir()
    env = {**os.environ, "RAG_INDEX_DIR": str(seed_index), "RAG_BACKEND": "extractive", "RAG_UI_PORT": str(port),
           "RAG_UI_HISTORY_DIR": str(tmp_path / "history"), "TMPDIR": str(scratch)}
    server = subprocess.Popen([str(Path(sys.executable).with_name("rag")), "serve"], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

    def serving() -> bool:
        assert server.poll() is None, server.stderr.read()
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as page:
                return page.status == 200
        except OSError:
            return False

    try:
        assert wait_until(serving, timeout=120)
        assert any(p.name.startswith("iclr-rag-export-") for p in scratch.iterdir())
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=30) == 0
    finally:
        server.kill()
    assert not [p.name for p in scratch.iterdir() if p.name.startswith("iclr-rag-")]
