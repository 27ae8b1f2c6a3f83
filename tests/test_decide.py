"""The decide stage on hand-made evidence: which retrieved papers an answer is written from."""

from __future__ import annotations

from rag.decide import decide
from rag.settings import Settings
from rag.types import Evidence, EvidenceSentence, Hit, Paper, QuestionShape


def _evidence(paper_id: str, best: float, names: list[str] | None = None) -> Evidence:
    paper = Paper(paper_id, f"Paper {paper_id}", "An abstract.", "test:1")
    return Evidence(Hit(paper, 1.0), [EvidenceSentence("A sentence.", best, 0)], names or [])


def _chosen(evidence: list[Evidence], kind: str = "single") -> list[str]:
    decision = decide(QuestionShape(kind), evidence, Settings().decision)
    assert not decision.refused
    return [e.hit.paper.paper_id for _, e in decision.chosen]


def test_the_first_retrieved_paper_is_kept_when_another_sentence_fits_better() -> None:
    # Held-out corpus questions: fused retrieval put the right paper first, its best sentence scored 0.46
    # against 0.57 elsewhere, and the answer left it out.
    assert _chosen([_evidence("first", 0.46), _evidence("other", 0.57), _evidence("weak", 0.40)]) == ["first", "other"]


def test_the_first_retrieved_paper_needs_a_quotable_sentence() -> None:
    assert _chosen([_evidence("first", 0.20), _evidence("other", 0.57)]) == ["other"]


def test_a_named_paper_still_decides_over_the_first_retrieved() -> None:
    # A question naming something is answered from the paper containing the name (and papers fitting better).
    evidence = [_evidence("first", 0.40), _evidence("named", 0.60, names=["TRIM-KV"])]
    assert _chosen(evidence) == ["named"]


def test_a_chinese_question_far_from_every_headline_is_refused() -> None:
    def evidence(headline: float, names: list[str] | None = None) -> list[Evidence]:
        item = _evidence("p", 0.85, names)  # sentences alone look answerable on e5's crowded scale
        item.hit.headline_score = headline
        return [item]

    shape = QuestionShape("single", multilingual=True)
    assert decide(shape, evidence(0.77), Settings().decision).refused
    assert not decide(shape, evidence(0.81), Settings().decision).refused
    assert not decide(shape, evidence(0.77, names=["TRIM-KV"]), Settings().decision).refused  # a found name keeps it
    assert not decide(QuestionShape("single"), evidence(0.77), Settings().decision).refused  # English: rule not used


def test_a_list_keeps_papers_above_its_relative_cut_only() -> None:
    evidence = [_evidence("a", 0.40), _evidence("b", 0.80), _evidence("c", 0.62)]
    assert _chosen(evidence, "list") == ["b", "c"]


def test_a_list_with_no_paper_above_its_cut_is_refused_not_empty() -> None:
    # Ranked below the first papers, above the evidence floor, under the list floor: not listed; nothing is.
    evidence = [_evidence("a", 0.30), _evidence("b", 0.31), _evidence("c", 0.33), _evidence("d", 0.41)]
    decision = decide(QuestionShape("list"), evidence, Settings().decision)
    assert decision.refused and not decision.chosen


def test_a_broad_list_keeps_its_first_papers_under_the_list_floor() -> None:
    # "Which papers are about faster generation?": broad topics fit each sentence loosely; the first retrieved
    # papers clear the evidence floor (0.35) and the relative cut, not the list floor (0.45).
    evidence = [_evidence("a", 0.40), _evidence("b", 0.41), _evidence("c", 0.33), _evidence("d", 0.40)]
    assert _chosen(evidence, "list") == ["a", "b"]  # "c": under the evidence floor; "d": not among the first three


def test_a_chinese_list_measures_its_cut_from_where_e5_scores_crowd() -> None:
    # e5 cosines of loosely related sentences sit near 0.80: a list keeps papers 75% of the way from there
    # to the best (0.875 here), not from the lower refusal floor (that would be 0.85 and take "b" too).
    evidence = [_evidence("a", 0.90), _evidence("b", 0.86), _evidence("c", 0.70)]
    decision = decide(QuestionShape("list", multilingual=True), evidence, Settings().decision)
    assert [e.hit.paper.paper_id for _, e in decision.chosen] == ["a"]


def test_on_the_table_only_a_question_for_a_figure_or_a_named_thing_is_refused_for_a_weak_match() -> None:
    from rag.decide import decide_on_table

    weak = [_evidence("a", 0.20)]  # no sentence reaches the evidence floor, and few of the question's words
    rules = Settings().decision
    assert decide_on_table(QuestionShape("single"), weak, rules, coverage=0.0, specific=True).refused
    # "What does it exploit that earlier methods ignore?": said in the paper's own words, not refused
    answered = decide_on_table(QuestionShape("single"), weak, rules, coverage=0.0, specific=False)
    assert not answered.refused and [e.hit.paper.paper_id for _, e in answered.chosen] == ["a"]


def test_a_list_keeps_the_first_retrieved_papers_that_clear_the_list_floor() -> None:
    # b's best sentence echoes the question (0.90): the relative cut alone (0.675) would drop a, retrieved first.
    evidence = [_evidence("a", 0.50), _evidence("b", 0.90), _evidence("c", 0.60), _evidence("d", 0.46)]
    assert _chosen(evidence, "list") == ["a", "b", "c"]  # d is fourth: under the cut, not among the first three


def test_a_chinese_list_keeps_its_best_paper_when_the_e5_cut_passes_over_it() -> None:
    # Under e5's crowd (0.80) the relative cut lies above the best score itself; the question passed the floor.
    evidence = [_evidence("a", 0.76), _evidence("b", 0.74)]
    decision = decide(QuestionShape("list", multilingual=True), evidence, Settings().decision)
    assert not decision.refused and [e.hit.paper.paper_id for _, e in decision.chosen] == ["a"]


def test_a_list_names_every_paper_holding_the_name_it_asks_about() -> None:
    # "Which papers work with TikZ code?": TikZilla's best sentence (0.41) is under the list floor (0.45); a paper
    # naming it in passing scores lower still ("… over the base model in Best-of-N settings", 0.19): listed too.
    evidence = [_evidence("davinci", 0.47, ["TikZ"]), _evidence("tikzilla", 0.41, ["TikZ"]),
                _evidence("code", 0.40), _evidence("passing", 0.19, ["TikZ"]), _evidence("unquotable", 0.08, ["TikZ"])]
    assert _chosen(evidence, "list") == ["davinci", "tikzilla", "passing"]


def test_a_list_keeps_a_paper_using_a_rarer_term_of_the_question_verbatim() -> None:
    # "Which other papers here touch on the KV cache?": D2F's one sentence naming "KV cache" scored 0.295, under the
    # list's cut; it uses the term, which few papers do.
    evidence = [_evidence("a", 0.48), _evidence("b", 0.46), _evidence("c", 0.30), _evidence("d", 0.29)]
    evidence[3].terms_found = ["kv cache"]
    assert _chosen(evidence, "list") == ["a", "b", "d"]
    evidence[3].sentences[0].score = 0.08  # far off all the same: not listed
    assert _chosen(evidence, "list") == ["a", "b"]


def test_a_turn_about_the_table_with_no_paper_left_is_refused_not_empty() -> None:
    from rag.decide import decide_on_table

    assert decide_on_table(QuestionShape("list"), [], Settings().decision).refused


def test_a_choice_counts_what_the_pick_is_not_about_against_each_paper() -> None:
    # "Which of the two is about better local detail rather than speed?": both fit "detail" about as well; the
    # speed-up paper fits "speed" far better.
    from rag.decide import decide_on_table

    evidence = [_evidence("speedup", 0.52), _evidence("detail", 0.50)]
    shape = QuestionShape("choice")
    assert decide_on_table(shape, evidence, Settings().decision).pick is None  # not settled by "detail" alone
    assert decide_on_table(shape, evidence, Settings().decision, against=[0.60, 0.20]).pick == 2


def test_a_choice_naming_a_thing_one_paper_holds_picks_that_paper_whatever_the_fit() -> None:
    # "Which of these two compares itself against GPT-5?": only mCLM's abstract names GPT-5 (it was "not settled")
    from rag.decide import decide_on_table

    shape, rules = QuestionShape("choice"), Settings().decision
    assert decide_on_table(shape, [_evidence("cat", 0.50), _evidence("mclm", 0.49, ["GPT-5"])], rules).pick == 2
    assert decide_on_table(shape, [_evidence("cat", 0.50, ["GPT-5"]), _evidence("mclm", 0.49, ["GPT-5"])],
                           rules).pick is None  # both name it: their sentences decide (here too close)
    own = [_evidence("cat", 0.50), _evidence("mclm", 0.49, ["Paper mclm"])]  # a paper's own name decides nothing
    assert decide_on_table(shape, own, rules).pick is None


def test_a_list_keeps_its_first_papers_within_their_lower_relative_cut() -> None:
    # "which papers are about chemistry or molecule design?": the second retrieved paper clears the evidence floor
    # (0.35) and 0.65 of the best (0.465), not the list floor nor the relative cut (0.75); the third does not.
    evidence = [_evidence("mclm", 0.465), _evidence("catalyst", 0.368), _evidence("off", 0.25)]
    assert _chosen(evidence, "list") == ["mclm", "catalyst"]
    # "… the memory or loading cost of the KV cache …": a third paper that only uses a KV cache fits 0.56 of the best.
    assert _chosen([_evidence("a", 0.758), _evidence("b", 0.603), _evidence("c", 0.427)], "list") == ["a", "b"]


def test_a_list_keeps_every_paper_holding_the_name_it_asks_for_however_weak_its_sentences() -> None:
    # "Which papers in the collection report results on ImageNet?": both papers naming it scored just under 0.3.
    evidence = [_evidence("a", 0.299, names=["ImageNet"]), _evidence("b", 0.26, names=["ImageNet"]),
                _evidence("c", 0.25)]
    assert _chosen(evidence, "list") == ["a", "b"]


def test_a_list_offering_alternatives_lists_their_papers_in_the_order_asked() -> None:
    from dataclasses import replace

    from rag.decide import in_asked_order
    from rag.types import Decision

    rain, other, catalysis = _evidence("rain", 0.6), _evidence("other", 0.5), _evidence("cat", 0.4)
    rain.hit, catalysis.hit = replace(rain.hit, part="rainfall forecasting"), replace(catalysis.hit, part="catalysis")
    decision = Decision(refused=False, chosen=[(1, rain), (2, other), (3, catalysis)])
    in_asked_order(decision, ["catalysis", "rainfall forecasting"])
    assert [n for n, _ in decision.chosen] == [3, 2, 1]  # the other paper keeps its place
    in_asked_order(decision, [])
    assert [n for n, _ in decision.chosen] == [3, 2, 1]


def test_papers_answering_the_users_enumerated_topics_come_in_the_topics_order() -> None:
    from rag.decide import in_topic_order
    from rag.types import Decision

    def about(paper_id: str, abstract: str) -> Evidence:
        paper = Paper(paper_id, f"Paper {paper_id}", abstract, "test:1")
        return Evidence(Hit(paper, 1.0), [EvidenceSentence(abstract, 0.5, 0)])

    agents = about("agents", "A benchmark where agents re-run machine learning experiments from research papers.")
    figures = about("figures", "A model that produces scientific figures from text descriptions as TikZ programs.")
    decision = Decision(refused=False, chosen=[(1, agents), (2, figures)])
    asked = ("Two things I care about: LLMs that produce scientific figures from text, and agents that re-run ML "
             "experiments from papers. Which paper covers each?")
    in_topic_order(decision, asked)
    assert [n for n, _ in decision.chosen] == [2, 1]
    in_topic_order(decision, "Which papers make scientific figures or run experiments?")  # no enumeration: stays
    assert [n for n, _ in decision.chosen] == [2, 1]


def test_a_choice_for_the_lower_figure_of_a_metric_is_decided_by_the_figures() -> None:
    from rag.decide import decide_on_table

    def said(paper_id: str, text: str, score: float) -> Evidence:
        paper = Paper(paper_id, f"Paper {paper_id}", text, "test:1")
        return Evidence(Hit(paper, 1.0), [EvidenceSentence(text, score, 0)])

    evidence = [said("a", "Our approach attains an FID of 1.83 with 32 steps.", 0.60),
                said("b", "It keeps comparable quality (e.g., FID: 1.59, IS: 304.4).", 0.30)]
    rules, shape = Settings().decision, QuestionShape("choice")
    picked = decide_on_table(shape, evidence, rules, question="of those, whose abstract reports the lower FID?")
    assert picked.pick == 2
    assert decide_on_table(shape, evidence, rules, question="which has the higher FID?").pick == 1
    unsettled = [evidence[0], said("b", "It keeps comparable quality.", 0.58)]  # no figure: not decided by figures
    assert decide_on_table(shape, unsettled, rules, question="which reports the lower FID?").pick is None


def test_a_list_asking_for_a_property_lists_the_papers_claiming_it_first() -> None:
    from rag.fields import FIELD

    evidence = [_evidence("provenance", 0.60), _evidence("fast", 0.55), _evidence("faster", 0.50)]
    for e in evidence[1:]:
        e.terms_found = [FIELD + "speed"]  # claims a speedup ("any papers on speeding up … generation?")
    assert _chosen(evidence, "list") == ["fast", "faster", "provenance"]  # "the top two" are the two that do


def test_a_choice_is_settled_by_a_term_one_abstract_alone_writes_unless_negated() -> None:
    from rag.decide import decide_on_table

    def paper(paper_id: str, abstract: str) -> Evidence:
        return Evidence(Hit(Paper(paper_id, f"Paper {paper_id}", abstract, "test:1"), 1.0),
                        [EvidenceSentence("A sentence.", 0.40, 0)], [])

    both = [paper("a", "A fast convolutional generator."),
            paper("b", "Sparse attention for long-context LLM inference.")]
    rules, choice = Settings().decision, QuestionShape("choice")
    # equal sentence scores: no margin settles it, the term does
    def pick(question: str) -> int | None:
        return decide_on_table(choice, both, rules, question=question).pick

    assert pick("Which one is meant for long-context LLM serving?") == 2
    assert pick("Which one is not meant for long-context LLM serving?") is None
    assert pick("Which one is meant for attention?") is None  # (one word is no term)
