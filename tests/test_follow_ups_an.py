"""Turns that earlier rules got wrong, found with blind dialogue sets AN, AO and AP (over the seeds + 4,302 corpus):
casual words no abstract uses ("overfits like crazy", "switching gears"), plural kinds of work asked for ("are there
other benchmarks …?"), a proposal saying no more than its name, a dataset named in capitalised English words ("Oxford
Flowers"), a name typed without its superscript ("P2-DPO"), two papers named before "the second one", a list's "it",
idioms ("in the first place"), and a choice padded with every other paper. Each test fails without the rule it
names."""

from __future__ import annotations

from rag.chat import ChatSession
from rag.plan import plan_paper
from rag.question import analyse
from rag.references import ReferenceKind, resolve
from rag.roles import Aspect, Role
from rag.tokens import content_words, without_where, word_forms
from rag.types import Evidence, EvidenceSentence, Hit, Paper, QuestionKind, Shown


def test_an_adjective_or_verb_no_abstract_uses_is_no_unknown_topic(engine) -> None:
    names = engine.retriever.names
    # (each had refused the question: "None of the indexed ICLR 2026 abstracts mentions “crazy”")
    assert names.unknown_words("my diffusion model overfits like crazy") == []
    assert names.unknown_words("token pruning papers worried about wrecking spatial information") == []
    assert names.unknown_words("a diffusion model for monsoon rainfall") == ["monsoon"]


def test_unknown_words_are_the_users_own_words_of_this_turn(seed_index) -> None:
    from rag.engine import Engine
    from rag.settings import Settings

    chat = ChatSession(Engine(Settings(index_dir=seed_index, unknown_word_min_papers=1)), backend="extractive")
    # (examples in quotes or brackets, a vague noun: none names a topic the abstracts lack)
    first = chat.ask('My KV cache stuff is overflowing ("ran out of memory at dinner time"). Is there a paper on '
                     "learning which tokens to keep?")
    assert not first.refused and first.citations
    # (a switch marker names no topic: "switching gears" had been refused)
    then = chat.ask("switching gears - how do they train the retention gate?")
    assert not then.refused and "gears" not in then.text
    chat = ChatSession(chat.engine, backend="extractive")
    refused = chat.ask("Is there a paper on monsoon forecasting with KV caches?")
    assert refused.refused and "monsoon" in refused.text
    # (refused for its own word, not also for the last turn's, which it had been read with as its history)
    origami = chat.ask("and what do they say about origami?")
    assert origami.refused and "origami" in origami.text and "monsoon" not in origami.text


def test_plural_kinds_of_work_asked_for_are_a_list() -> None:
    for question in ("Are there other benchmarks checking whether generated videos respect physics?",
                     "are there DPO-style methods built specifically for noisy preference labels?",
                     "what benchmarks are there for hallucination in multimodal LLMs?",
                     "What benchmarks or testbeds exist for membership inference on LLMs?",
                     "what work is there on mitigating reward hacking, not just detecting it?",
                     "does that squeezing effect show up anywhere else in the collection?"):
        assert analyse(question).kind is QuestionKind.LIST, question
    for question in ("are there any datasets they release?", "Are there other models it beats?",
                     "Are there any limitations?", "what benchmarks do they use?"):
        assert analyse(question).kind is QuestionKind.SINGLE, question


def test_a_proposal_saying_no_more_than_its_name_brings_what_it_is() -> None:
    texts = ["Preference data sets contain substantial label noise.",
             "To address this challenge, we introduce Robust Preference Optimization (RPO).",
             "RPO employs an Expectation-Maximization algorithm to infer the posterior probability of each label.",
             "Our experiments show RPO improves AlpacaEval 2 win rates by up to 7.0 points."]
    paper = Paper("rpo", "Robust Preference Optimization: Aligning Language Models with Noisy Feedback",
                  " ".join(texts), "test:1")
    sentences = [EvidenceSentence(t, s, i, r) for i, (t, s, r) in enumerate(zip(
        texts, (0.2, 0.3, 0.25, 0.2), (Role.PROBLEM, Role.METHOD, Role.METHOD, Role.RESULT)))]
    plan = plan_paper(1, Evidence(Hit(paper, 1.0), sentences), Aspect.METHOD, 2, 0.5, lead_proposal=True)
    # (a comparison had set the bare "The authors introduce RPO." against the other paper's method)
    assert "Expectation-Maximization" in plan.quotes[0].text and "introduce" in plan.quotes[0].text


def test_a_dataset_named_in_capitalised_words_no_abstract_writes_is_refused(engine) -> None:
    chat = ChatSession(engine, backend="extractive")
    chat.ask("Tell me about TRIM-KV.")
    asked = chat.ask("Did they run it on Oxford Flowers by any chance?")
    # (it had been answered from TRIM-KV's abstract, as if it said)
    assert asked.refused and "Oxford Flowers" in asked.text


def test_a_name_with_a_superscript_matches_it_typed_plain() -> None:
    assert " p2dpo " in word_forms("We propose P^2-DPO, a method.") and " p2dpo " in word_forms("P2-DPO")
    assert " p2dpo " in word_forms("P^{2}-DPO")


def test_the_second_of_two_papers_named_by_what_only_their_abstracts_say() -> None:
    table = [Shown("does the squeezing effect show up elsewhere?", ["sam", "unl"], ["sam", "unl"])]
    names = {"logits-SAM": ["sam"], "SquaredPO": ["sq"]}
    found = resolve("between logits-SAM and SquaredPO, what condition on f does the second one introduce?", table,
                    lambda pid: {"sam": {"sharpness-aware", "logit", "space"}}.get(pid, set()),
                    lambda text: [p for name, ids in names.items() if name in text for p in ids])
    # (it had taken the table's second paper, then refused: "does not mention SquaredPO")
    assert found.kind is ReferenceKind.ORDINAL and found.paper_ids == ["sq"]
    assert found.question == "what condition on f does the second one introduce?"


def test_a_lists_it_is_no_paper_on_the_table(engine) -> None:
    chat = ChatSession(engine, backend="extractive")
    chat.ask("What is TRIM-KV?")
    listed = chat.ask("what work is there on KV cache compression, not just evicting it?")
    # (it had listed TRIM-KV alone, the paper on the table)
    assert len({c.paper_id for c in listed.citations}) >= 2


def test_an_idiom_names_no_topic() -> None:
    question = "what other papers here are about training better draft models in the first place?"
    assert content_words(without_where(question)) == {"training", "better", "draft", "models"}


def test_a_choice_sets_a_few_others_against_its_pick_by_one_quote_each() -> None:
    from rag.answer import MAX_CONTRASTED, choice_text
    from rag.plan import PaperPlan
    from rag.standalone import Quote
    from rag.types import Decision

    def plan(n: int) -> PaperPlan:
        texts = [f"Method{n} prunes tokens.", f"Method{n} also caches keys."]
        sentences = [EvidenceSentence(t, 0.5, i) for i, t in enumerate(texts)]
        paper = Paper(f"p{n}", f"Method{n}: A Paper", " ".join(texts), "test:1")
        return PaperPlan(n, Evidence(Hit(paper, 1.0), sentences), [Quote(t, (s,)) for t, s in zip(texts, sentences)])

    text = choice_text(Decision(refused=False, pick=1), [plan(n) for n in range(1, 7)])
    picked, *others = text.split("\n\n")
    # (each other paper had brought every quote of its own: padding, in blind grading)
    assert "Method1 also caches keys." in picked and len(others) == MAX_CONTRASTED
    assert not any("also caches keys" in other for other in others)
