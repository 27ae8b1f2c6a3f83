"""The real page in headless Chromium (Debian's /usr/bin/chromium driven by Playwright): ask, see the
sources then the cited answer, open a citation, compare two papers, reload, and hostile markup."""

from __future__ import annotations

import json
import re
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rag.settings import Settings
from ui_server import CHROMIUM, CHROMIUM_ARGS, RunningApp, running_app, seed_app  # noqa: F401  (fixture)

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is missing: apt-get install chromium to run the browser tests", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="pip install playwright (never `playwright install`)")
pytestmark = pytest.mark.slow  # a real Gradio server and Chromium: `pytest -m "not slow"` leaves them out

# Marks when the sources and the new answer's first [n] link appear. Only a bot message added after the
# question counts: the previous answer's links must not pass for this one (a follow-up's race).
WATCH = """() => {
  window.__seen = {};
  const before = document.querySelectorAll('[data-testid="bot"]').length;
  const mark = () => {
    const now = performance.now();
    if (!window.__seen.sources && document.querySelector('#sources label')) window.__seen.sources = now;
    const bots = document.querySelectorAll('[data-testid="bot"]');
    const last = bots.length > before ? bots[bots.length - 1] : null;
    if (!window.__seen.answer && last && last.querySelector('a[href*="#cite-"]')) window.__seen.answer = now;
  };
  new MutationObserver(mark).observe(document.body, {subtree: true, childList: true, characterData: true});
  window.__seen.asked = performance.now();
}"""


# The answer is complete: a new bot message that carries [n] links and no longer a progress line, and the
# question box offers Ask again (no Stop): the turn is over, so the next question is not "still answering".
DONE = """(before) => {
  const bots = document.querySelectorAll('[data-testid="bot"]');
  const last = bots[bots.length - 1];
  return bots.length > before && window.__seen.answer && last.querySelector('a[href*="#cite-"]') !== null
    && !/Searching the papers|writing the answer/.test(last.innerText) && !document.querySelector('#question .stop-button');
}"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh browser profile (empty localStorage) that fails the test on any JavaScript dialog."""
    context = browser.new_context(viewport={"width": 1400, "height": 950})
    tab = context.new_page()
    tab.set_default_timeout(60_000)  # generous: CI machines are busy (2 cores); a healthy answer takes < 2 s
    tab.dialogs = []
    tab.on("dialog", lambda dialog: (tab.dialogs.append(dialog.message), dialog.dismiss()))
    yield tab
    context.close()
    assert not tab.dialogs, f"a script ran in the page: {tab.dialogs}"


def open_page(page: Any, url: str) -> float:
    """Load the page; milliseconds until it is interactive (textbox shown, conversation loaded)."""
    started = time.perf_counter()
    page.goto(url, wait_until="domcontentloaded")
    page.locator("#question textarea").wait_for()
    page.wait_for_function("document.querySelector('#conversation-select input')?.value?.length > 0")
    return (time.perf_counter() - started) * 1000


def new_conversation(page: Any) -> None:
    page.locator("#new-conversation").click()
    page.wait_for_function("document.querySelectorAll('[data-testid=\"bot\"]').length == 0")


def ask(page: Any, question: str) -> dict[str, float]:
    """Type a question, press Enter, wait for the cited answer; when sources and answer appeared (ms)."""
    answers = page.locator('[data-testid="bot"]').count()
    page.evaluate(WATCH)
    box = page.locator("#question textarea")
    box.fill(question)
    box.press("Enter")
    page.wait_for_function(DONE, arg=answers)
    seen = page.evaluate("window.__seen")
    return {"sources": seen["sources"] - seen["asked"], "answer": seen["answer"] - seen["asked"]}


class TestChat:
    def test_first_load_offers_examples(self, page: Any, seed_app: RunningApp) -> None:
        loaded = open_page(page, seed_app.url)
        print(f"\npage load to interactive: {loaded:.0f} ms")
        for example in ("What is TRIM-KV?", "Compare TRIM-KV and Tactic", "有没有关于视频扩散模型水印的论文？"):
            assert page.get_by_text(example, exact=True).is_visible()

    def test_sources_then_cited_answer_then_paper_then_export(self, page: Any, seed_app: RunningApp) -> None:
        open_page(page, seed_app.url)
        new_conversation(page)
        timings = ask(page, "What is TRIM-KV?")
        print(f"\nEnter → sources shown {timings['sources']:.0f} ms, → cited answer {timings['answer']:.0f} ms")
        # Extractive: the sources and the whole answer come in consecutive updates, and the page may paint the
        # answer a frame before the sources list (a fresh-clone run saw 22 ms); an LLM answer comes seconds later.
        assert timings["sources"] <= timings["answer"] + 100
        assert page.locator("#sources label").first.inner_text().startswith("[1] Cache What Lasts")
        answer = page.locator('[data-testid="bot"]').last
        assert "retention gate" in answer.inner_text()
        answer.locator('a[href*="#cite-"]').first.click()
        panel = page.locator("#paper-panel")
        sync_api.expect(panel).to_contain_text("Cache What Lasts")
        assert "openreview.net/forum?id=qCaq3jGb0S" in panel.locator("a").first.get_attribute("href")
        sync_api.expect(panel.locator("mark").first).to_contain_text("retention gate")
        assert page.locator("#sources input:checked").count() == 1
        with page.expect_download() as download:
            page.locator("#export-md").click()
        exported = Path(download.value.path()).read_text(encoding="utf-8")
        assert "## 1. What is TRIM-KV?" in exported and "Sources:" in exported and "qCaq3jGb0S" in exported
        with page.expect_download() as download:
            page.locator("#export-json").click()
        turns = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))["turns"]
        assert turns[0]["citations"][0]["paper_id"] == "qCaq3jGb0S"

    def test_follow_up_and_history_survive_reload_and_restart(self, page: Any, seed_app: RunningApp) -> None:
        open_page(page, seed_app.url)
        new_conversation(page)
        ask(page, "What is Tactic?")
        ask(page, "How much faster is it?")
        assert "5.14" in page.locator('[data-testid="bot"]').last.inner_text()
        page.reload(wait_until="domcontentloaded")
        page.wait_for_function("document.querySelectorAll('[data-testid=\"user\"]').length == 2")
        assert page.locator('[data-testid="user"]').first.inner_text().strip() == "What is Tactic?"
        with running_app(seed_app.engine.settings.index.index_dir, seed_app.history_dir) as restarted:
            fresh = page.context.browser.new_page()  # another profile: no pointer, so the latest conversation opens
            fresh.set_default_timeout(60_000)
            fresh.goto(restarted.url, wait_until="domcontentloaded")
            fresh.wait_for_function("document.querySelectorAll('[data-testid=\"user\"]').length == 2")
            assert "How much faster is it?" in fresh.locator('[data-testid="user"]').last.inner_text()
            fresh.close()

    def test_a_dialogue_with_an_ordinal_and_a_choice_continues_after_a_reload(self, page: Any, seed_app: RunningApp,
                                                                             tmp_path: Path) -> None:
        """The papers on the table survive a reload: positions and choices still point at them."""
        open_page(page, seed_app.url)
        new_conversation(page)
        ask(page, "Which papers make LLM inference faster?")
        ask(page, "Contrast the top two.")
        bots = page.locator('[data-testid="bot"]')
        assert "Tactic" in bots.last.inner_text() and "D2F" in bots.last.inner_text()  # the list's first two
        page.reload(wait_until="domcontentloaded")
        page.wait_for_function("document.querySelectorAll('[data-testid=\"user\"]').length == 2")
        ask(page, "What speedup does the first one report?")
        assert "1.51x" in page.locator('[data-testid="bot"]').last.inner_text()  # Tactic's, not TRIM-KV's
        ask(page, "Which of them needs less memory?")
        last = page.locator('[data-testid="bot"]').last.inner_text()
        assert "could not find" not in last and "Tactic" in last and "D2F" in last
        page.screenshot(path=str(tmp_path / "choice-after-reload.png"), full_page=True)

    def test_compare_two_picked_papers(self, page: Any, seed_app: RunningApp, tmp_path: Path) -> None:
        open_page(page, seed_app.url)
        new_conversation(page)
        page.get_by_role("tab", name="Papers").click()
        search = page.locator("#paper-search textarea, #paper-search input").first
        for query, title in (("Cache What", "Cache What Lasts"), ("Tactic", "Tactic: Adaptive Sparse Attention")):
            search.fill(query)
            page.locator("#paper-list label", has_text=title).first.wait_for()
            page.locator("#paper-list label", has_text=title).first.click()
        search.fill("")
        assert page.locator("#paper-list input:checked").count() == 2
        page.locator("#compare").click()
        table = page.locator('[data-testid="bot"] table').last
        table.wait_for()
        headers = [h.strip() for h in table.locator("th").all_inner_texts()]
        assert headers == ["paper", "problem", "method", "key result"]
        assert table.locator("tbody tr").count() == 2
        # Readable: rows named by the papers' short names, whole sentences wrapping, the chat column's width.
        names = [c.strip() for c in table.locator("tbody tr td:first-child").all_inner_texts()]
        assert names == ["TRIM-KV [1]", "Tactic [2]"] and "…" not in table.inner_text()
        assert table.bounding_box()["width"] >= 0.85 * page.locator("#chat").bounding_box()["width"]
        page.screenshot(path=str(tmp_path / "comparison-table.png"), full_page=True)

    def test_a_collection_question_shows_a_chart_a_click_narrows_to_a_group(self, page: Any, seed_app: RunningApp,
                                                                            tmp_path: Path) -> None:
        question = "Which research areas have the most papers?"
        groups = seed_app.engine.ask(question).chart.groups
        open_page(page, seed_app.url)
        new_conversation(page)
        ask(page, question)
        bars = page.locator("#collection-chart button.bar-row")
        sync_api.expect(bars).to_have_count(len(groups))
        assert [b.strip() for b in page.locator("#collection-chart .bar-label").all_inner_texts()] == \
            [g.label for g in groups]
        assert page.locator("#collection-chart .bar-count").first.inner_text() == str(groups[0].count)
        page.screenshot(path=str(tmp_path / "collection-chart.png"), full_page=True)
        group = groups[1]
        bars.nth(1).click()
        listed = page.locator("#chart-papers label")
        sync_api.expect(listed).to_have_count(group.count)
        papers = seed_app.engine.papers()
        expected = sorted(p.display_title for p in papers if p.paper_id in group.paper_ids)
        assert sorted(t.strip() for t in listed.all_inner_texts()) == expected
        sync_api.expect(bars.nth(1)).to_have_class(re.compile(r"\bselected\b"))
        assert group.label in page.locator("#chart-papers").inner_text()
        listed.first.click()
        sync_api.expect(page.locator("#paper-panel h3")).to_contain_text(listed.first.inner_text().strip()[:30])
        page.reload(wait_until="domcontentloaded")  # a reopened conversation shows its chart again
        sync_api.expect(page.locator("#collection-chart button.bar-row")).to_have_count(len(groups))
        ask(page, "What is TRIM-KV?")
        sync_api.expect(page.locator("#chart-box")).to_be_hidden()  # an answer about papers has no chart

    def test_suggested_questions_are_asked_when_clicked(self, page: Any, seed_app: RunningApp) -> None:
        open_page(page, seed_app.url)
        new_conversation(page)
        sync_api.expect(page.locator("#suggestions")).to_be_hidden()
        ask(page, "What is TRIM-KV?")
        offered = page.locator("#suggestions button.suggestion:visible")
        sync_api.expect(offered.first).to_be_visible()
        texts = [t.strip() for t in offered.all_inner_texts()]
        assert 2 <= len(texts) <= 3 and "How does TRIM-KV work?" in texts
        answers = page.locator('[data-testid="bot"]').count()
        page.evaluate(WATCH)
        offered.filter(has_text="How does TRIM-KV work?").click()
        page.wait_for_function(DONE, arg=answers)
        assert page.locator('[data-testid="user"]').last.inner_text().strip() == "How does TRIM-KV work?"
        last = page.locator('[data-testid="bot"]').last
        assert "TRIM-KV" in last.inner_text() and last.locator('a[href*="#cite-"]').count() >= 1
        sync_api.expect(page.locator("#suggestions button.suggestion:visible").first).to_be_visible()
        assert "How does TRIM-KV work?" not in page.locator("#suggestions").inner_text()  # not offered again


@pytest.fixture(scope="module")
def hostile_app() -> Iterator[RunningApp]:
    """An index of two papers whose title and abstract carry script and event-handler markup."""
    from rag.index import ingest

    with tempfile.TemporaryDirectory(prefix="ui-hostile-") as folder:
        root = Path(folder)
        records = [
            {"openreview_id": "evilPaper01", "title": "EvilNet <img src=x onerror=alert('title')>: parsing <b>markup</b>",
             "abstract": "We propose EvilNet, a parser that survives hostile markup such as <script>alert(1)</script> "
                         "in its input. EvilNet also ignores <img src=x onerror=alert(2)> tags & entities while math "
                         "like $a<b$ stays readable. EvilNet reaches 99% accuracy on the HostileMarkup benchmark."},
            {"openreview_id": "plainPaper2", "title": "Growing tomatoes in small gardens",
             "abstract": "We study how tomatoes grow in small urban gardens. Watering twice a day doubles the yield."},
        ]
        corpus = root / "hostile.jsonl"
        corpus.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
        ingest(Settings(index_dir=root / "index"), [corpus], progress=False)
        with running_app(root / "index", root / "history") as app:
            yield app


class TestHostileMarkup:
    def test_script_and_onerror_show_as_text(self, page: Any, hostile_app: RunningApp) -> None:
        open_page(page, hostile_app.url)
        ask(page, "What is EvilNet? <img src=x onerror=alert('question')>")
        assert "<img src=x onerror=alert('question')>" in page.locator('[data-testid="user"]').last.inner_text()
        answer = page.locator('[data-testid="bot"]').last
        assert "<script>alert(1)</script>" in answer.inner_text()
        answer.locator('a[href*="#cite-"]').first.click()
        panel = page.locator("#paper-panel")
        sync_api.expect(panel).to_contain_text("<script>alert(1)</script>")
        text = panel.inner_text()
        assert "<img src=x onerror=alert(2)> tags & entities" in text and "<b>markup</b>" in text
        assert panel.locator(".katex").count() >= 1  # $a<b$ rendered as math
        assert "EvilNet <img src=x onerror=alert('title')>" in page.locator("#sources").inner_text()
        page.wait_for_timeout(500)  # give any injected handler time to fire
        assert page.locator("#paper-panel script, #paper-panel img, #chat img[src='x'], #sources img").count() == 0


def _log_in(page: Any, url: str, name: str, password: str) -> None:
    page.goto(url, wait_until="domcontentloaded")
    page.locator("input[type=text], input:not([type])").first.fill(name)
    page.locator("input[type=password]").fill(password)
    page.get_by_role("button", name="Login").click()
    page.locator("#question textarea").wait_for()
    page.wait_for_function("document.querySelector('#conversation-select input')?.value?.length > 0")


def test_two_people_logged_in_see_only_their_own_conversations(browser: Any, seed_index: Path, tmp_path: Path) -> None:
    from ui.users import add_user, login_check

    users = tmp_path / "users"
    add_user(users, "alice", "alice-pw-1")
    add_user(users, "bob", "bob-pw-22")
    with running_app(seed_index, tmp_path / "history", auth=login_check(None, users), ui_users=users) as app:
        pages = []
        for name, password in (("alice", "alice-pw-1"), ("bob", "bob-pw-22")):
            page = browser.new_context(viewport={"width": 1400, "height": 950}).new_page()
            page.set_default_timeout(60_000)
            _log_in(page, app.url, name, password)
            pages.append(page)
        alice, bob = pages
        ask(alice, "What is Tactic?")
        bob.reload(wait_until="domcontentloaded")  # a new visit: the latest conversation *of bob's* opens
        bob.locator("#question textarea").wait_for()
        bob.wait_for_function("document.querySelector('#conversation-select input')?.value?.length > 0")
        assert bob.locator('[data-testid="user"]').count() == 0
        bob.locator("#conversation-select input").click()
        listed = bob.locator("ul[role=listbox] li").all_inner_texts()
        assert listed and not any("Tactic" in item for item in listed)
        alice.reload(wait_until="domcontentloaded")
        alice.wait_for_function("document.querySelectorAll('[data-testid=\"user\"]').length == 1")
        for page in pages:
            page.context.close()
