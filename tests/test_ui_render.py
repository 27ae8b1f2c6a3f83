"""Rendering for the browser (escaping, math, highlights, citation links) and the conversation store.

Fast: none of this imports Gradio or loads a model."""

from __future__ import annotations

import json
import logging
import os
import stat
from pathlib import Path

import pytest

from rag.types import Answer, Citation, CollectionGroup, CollectionStats, Paper, Source
from ui.chart import chart_html, group_papers
from ui.catalog import Catalog
from ui.conversations import Conversations, answer_message, chat_messages
from ui.history import (Conversation, ConversationError, ConversationStore, StoredTurn, export_json,
                        export_markdown, valid_id)
from ui.render import (abstract_markdown, answer_markdown, escape_markdown, inline_markdown, paper_markdown,
                       paper_url, question_markdown, source_label)

EVIL = "<script>alert(1)</script> and <img src=x onerror=alert(1)> & more"


def paper(**fields: object) -> Paper:
    base = {"paper_id": "qCaq3jGb0S", "title": "Cache What Lasts: Token Retention", "source": "seeds:1",
            "abstract": "Memory is a bottleneck. We propose TRIM-KV, a retention gate. It works well.",
            "openreview_id": "qCaq3jGb0S", "venue": "ICLR 2026 Poster", "area": "foundation models"}
    return Paper(**(base | fields))


class TestEscaping:
    @pytest.mark.parametrize("render", [escape_markdown, inline_markdown, question_markdown,
                                        lambda t: abstract_markdown(t), lambda t: answer_markdown(t, 0, [1])])
    def test_html_in_data_never_becomes_a_tag(self, render) -> None:
        out = render(EVIL)
        assert "<script" not in out and "<img" not in out
        assert "&lt;script&gt;" in out and "&lt;img" in out and "&amp;" in out

    def test_markdown_syntax_in_text_is_literal(self) -> None:
        assert escape_markdown("a *b* [c](d) `e` # f_g") == r"a \*b\* \[c\](d) \`e\` \# f\_g"

    def test_a_lone_dollar_cannot_open_math(self) -> None:
        out = inline_markdown("It costs $5 and $10 to run.")
        assert out.count("<span>$</span>") == 2

    def test_html_inside_math_becomes_katex_commands(self) -> None:
        out = inline_markdown("significant at $p<0.05$ and $a>b$ with $x & y$ </script>")
        assert r"$p\lt 0.05$" in out and r"$a\gt b$" in out and r"$x \& y$" in out
        assert "</script>" not in out


class TestAbstract:
    def test_math_is_kept_for_katex_and_text_commands_resolved(self) -> None:
        out = inline_markdown(r"A \textbf{fast} method with $O(n^2)$ cost and $$\sum_i x_i$$ saves 30\%.")
        assert "$O(n^2)$" in out and r"$$\sum_i x_i$$" in out
        assert "fast method" in out and "30%" in out and "textbf" not in out

    def test_markdown_emphasis_survives_as_tags(self) -> None:
        out = inline_markdown("We present **Visual Jigsaw**, a *simple* task.")
        assert "<strong>Visual Jigsaw</strong>" in out and "<em>simple</em>" in out

    def test_supporting_sentences_are_marked(self) -> None:
        raw = r"Memory is a bottleneck. We propose \textbf{TRIM-KV}, a learned retention gate. It is fast."
        out = abstract_markdown(raw, ["We propose TRIM-KV, a learned retention gate."])
        assert "<mark>We propose TRIM-KV, a learned retention gate.</mark>" in out
        assert out.count("<mark>") == 1 and out.startswith("Memory is a bottleneck.")

    def test_no_highlight_when_nothing_matches(self) -> None:
        assert "<mark>" not in abstract_markdown("One sentence here. Another one.", ["Unrelated words entirely."])


class TestPaperPanel:
    def test_title_link_metadata_and_highlight(self) -> None:
        out = paper_markdown(paper(), rank=1, score=1.25, highlights=["We propose TRIM-KV, a retention gate."])
        assert out.startswith("### [1] Cache What Lasts")
        assert "(https://openreview.net/forum?id=qCaq3jGb0S)" in out and "score 1.250" in out
        assert "<mark>We propose TRIM-KV, a retention gate.</mark>" in out

    def test_hostile_title_and_url_are_neutralised(self) -> None:
        hostile = paper(title="<img src=x onerror=alert(1)>", url="javascript:alert(1)", openreview_id="bad id)")
        out = paper_markdown(hostile)
        assert "<img" not in out and "javascript:" not in out and "openreview.net" not in out

    def test_own_url_is_preferred_when_plain_http(self) -> None:
        assert paper_url(paper(url="https://example.org/p")) == "https://example.org/p"
        assert paper_url(paper(url=None)) == "https://openreview.net/forum?id=qCaq3jGb0S"
        assert paper_url(paper(url=None, openreview_id=None)) is None

    def test_missing_abstract_says_so(self) -> None:
        assert "no longer in the index" in paper_markdown(paper(abstract=""))


class TestAnswer:
    def test_known_citations_become_links_to_their_turn(self) -> None:
        out = answer_markdown("A gate [1]. Also [2] and [1, 3]. Unknown [9].", 4, [1, 2, 3])
        assert r"[\[1\]](#cite-4-1)" in out and r"[\[2\]](#cite-4-2)" in out
        assert r"\[[1](#cite-4-1), [3](#cite-4-3)\]" in out and r"\[9\]" in out and "#cite-4-9" not in out

    def test_comparison_table_stays_a_table(self) -> None:
        table = "| paper | problem | method | key result |\n|---|---|---|---|\n| A [1] | x < y [1] | m [1] | r [1] |"
        out = answer_markdown(table, 0, [1])
        assert out.splitlines()[0] == "| paper | problem | method | key result |"
        assert "x &lt; y" in out and "(#cite-0-1)" in out

    def test_source_label_with_and_without_score(self) -> None:
        view = Source(2, paper(title=r"A $\mathbf{2\times}$ speedup"), 0.51234)
        assert source_label(view, False) == "[2] A 2× speedup"
        assert source_label(view, True) == "[2] A 2× speedup  ·  score 0.512"


def answer(question: str = "What is TRIM-KV?") -> Answer:
    source = Source(1, paper(), 1.27)
    return Answer(question=question, text="We propose TRIM-KV, a retention gate. [1]", refused=False,
                  citations=[Citation(1, "qCaq3jGb0S", "Cache What Lasts")], sources=[source],
                  notice="answered extractively", evidence_sentences={"qCaq3jGb0S": ["We propose TRIM-KV, a retention gate."]})


class TestStore:
    def conversation(self) -> Conversation:
        record = Conversation(id="abcdef0123456789")
        record.add(StoredTurn.from_answer(answer()))
        return record

    def test_round_trip(self, tmp_path: Path) -> None:
        store = ConversationStore(tmp_path)
        record = self.conversation()
        store.save(record)
        loaded = store.load(record.id)
        assert loaded.to_json() == record.to_json()
        turn = loaded.turns[0]
        assert (turn.question, turn.refused, turn.notice) == ("What is TRIM-KV?", False, "answered extractively")
        assert turn.citations[0].paper_id == "qCaq3jGb0S" and turn.sources[0].title.startswith("Cache")
        assert turn.evidence_sentences == {"qCaq3jGb0S": ["We propose TRIM-KV, a retention gate."]}
        assert [c.id for c in store.conversations()] == [record.id]

    def test_answer_rebuilt_with_papers_and_stand_ins(self) -> None:
        turn = self.conversation().turns[0]
        rebuilt = turn.to_answer({"qCaq3jGb0S": paper()})
        assert rebuilt.sources[0].paper.abstract.startswith("Memory") and rebuilt.citations[0].n == 1
        gone = turn.to_answer({})
        assert gone.sources[0].paper.abstract == "" and gone.sources[0].paper.title.startswith("Cache")

    def test_write_is_atomic(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        store = ConversationStore(tmp_path)
        record = self.conversation()
        path = store.save(record)
        before = path.read_bytes()
        record.add(StoredTurn.from_answer(answer("And then?")))

        def crash(*_: object) -> None:
            raise OSError("disk full")

        monkeypatch.setattr(os, "replace", crash)
        with pytest.raises(OSError, match="disk full"):
            store.save(record)
        assert path.read_bytes() == before
        assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]  # no temporary file left behind

    def test_corrupted_file_is_a_clear_error_and_skipped_in_the_list(self, tmp_path: Path,
                                                                      caplog: pytest.LogCaptureFixture) -> None:
        store = ConversationStore(tmp_path)
        store.save(self.conversation())
        (tmp_path / "0000000000000bad.json").write_text('{"id": "0000000000000bad", "turns": [', encoding="utf-8")
        with pytest.raises(ConversationError, match=r"0000000000000bad\.json: unreadable conversation file"):
            store.load("0000000000000bad")
        with caplog.at_level(logging.WARNING):
            listed = store.conversations()
        assert [c.id for c in listed] == ["abcdef0123456789"]
        assert "skipped a conversation" in caplog.text

    @pytest.mark.parametrize("bad", ["../../etc/passwd", "ABC", "a/b", "", "x" * 40])
    def test_ids_cannot_name_other_paths(self, tmp_path: Path, bad: str) -> None:
        assert not valid_id(bad)
        with pytest.raises(ConversationError, match="not a conversation id"):
            ConversationStore(tmp_path).path(bad)

    def test_browser_secret_is_stable_and_private(self, tmp_path: Path) -> None:
        store = ConversationStore(tmp_path)
        assert store.secret() == store.secret()
        assert stat.S_IMODE((tmp_path / ".browser-secret").stat().st_mode) == 0o600

    def test_exports(self) -> None:
        record = self.conversation()
        text = export_markdown(record, {"qCaq3jGb0S": paper()})
        assert "## 1. What is TRIM-KV?" in text and "retention gate. [1]" in text
        assert "[Cache What Lasts: Token Retention](https://openreview.net/forum?id=qCaq3jGb0S)" in text
        assert json.loads(export_json(record))["turns"][0]["sources"][0]["paper_id"] == "qCaq3jGb0S"


class FakeEngine:
    def papers(self) -> list[Paper]:
        return [paper()]


class TestConversations:
    def test_reopened_conversation_carries_citations_for_follow_ups(self, tmp_path: Path) -> None:
        store = ConversationStore(tmp_path)
        first = Conversations(FakeEngine(), store, Catalog(FakeEngine()))
        opened = first.new()
        first.record(opened, answer(), None)
        again = Conversations(FakeEngine(), store, Catalog(FakeEngine())).open(opened.id)  # a restart
        assert again.record.turns and again.id == opened.id
        last = again.session.turns[-1].answer
        assert [c.paper_id for c in last.citations] == ["qCaq3jGb0S"]
        assert last.sources[0].paper.abstract.startswith("Memory")
        messages = chat_messages(again.record)
        assert [m["role"] for m in messages] == ["user", "assistant"]
        assert "(#cite-0-1)" in messages[1]["content"] and "answered extractively" in messages[1]["content"]

    def test_unknown_or_invalid_ids_open_a_new_conversation(self, tmp_path: Path) -> None:
        manager = Conversations(FakeEngine(), ConversationStore(tmp_path), Catalog(FakeEngine()))
        assert manager.open("../evil").id != "../evil" and valid_id(manager.open(None).id)
        assert manager.open("0123456789abcdef").id != "0123456789abcdef"  # a caller cannot name a conversation
        assert not manager.known("0123456789abcdef") and manager.latest_id() is None

    def test_a_spelling_correction_is_said_before_the_answer_and_kept(self, tmp_path: Path) -> None:
        typo = answer("What is TRIM-KV's retension gate?")
        typo.corrections = {"retension": "retention"}
        store = ConversationStore(tmp_path)
        record = Conversation(id="abcdef0123456789")
        record.add(StoredTurn.from_answer(typo))
        store.save(record)
        turn = store.load(record.id).turns[0]
        assert turn.corrections == {"retension": "retention"}
        assert turn.to_answer({"qCaq3jGb0S": paper()}).corrections == {"retension": "retention"}
        message = answer_message(turn, 0)
        note = "No indexed abstract contains “retension”, so I searched for “retention” instead."
        assert message.startswith(f"> ℹ️ {note}") and "retention gate. [\\[1\\]](#cite-0-1)" in message
        assert f"> {note}" in export_markdown(record, {"qCaq3jGb0S": paper()})

    def test_refused_answer_links_no_citation(self) -> None:
        turn = StoredTurn.from_answer(answer())
        turn.refused = True
        assert "#cite-" not in answer_message(turn, 0)


class TestChart:
    def stats(self) -> CollectionStats:
        groups = [CollectionGroup("generative <b>models</b>", 2, ["qCaq3jGb0S", "gone"]),
                  CollectionGroup("(no area) video, diffusion", 1, ["x"], kind="topic")]
        return CollectionStats("areas", 36, groups)

    def test_bars_are_escaped_scaled_and_numbered_by_group(self) -> None:
        html = chart_html(self.stats(), selected=1)
        assert "<b>" not in html and "generative &lt;b&gt;models&lt;/b&gt;" in html
        assert html.count('data-group="') == 2 and 'data-group="1"' in html
        assert "width:100.0%" in html and "width:50.0%" in html
        assert html.count("selected") == 1 and "Papers per area (36 indexed)" in html

    def test_a_bar_narrows_to_its_papers_by_title(self) -> None:
        heading, choices = group_papers(self.stats(), 0, {"qCaq3jGb0S": paper()})
        assert heading == "generative <b>models</b>: 2 papers"  # a Radio label: shown as text
        assert choices == [(paper().title, "qCaq3jGb0S")]  # a paper no longer indexed is left out
        assert group_papers(self.stats(), 5, {}) == ("", [])
