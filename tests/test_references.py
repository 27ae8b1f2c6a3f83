"""Reference resolution against the papers on the table: pronouns, plurals, ordinals, source numbers, partial
names, choices, ellipsis and topic switches (no index, no model)."""

from __future__ import annotations

import pytest

from rag.followup import complete_ellipsis
from rag.references import ReferenceKind, implicit, last_answered, resolve
from rag.types import Paper, Shown

WORDS = {"trim": {"trim-kv", "retention"}, "tactic": {"tactic"}, "jig": {"jigsaw"}, "sig": {"sigmark"},
         "d2f": {"d2f"}}


def title_words(paper_id: str) -> set[str]:
    return WORDS.get(paper_id, set())


LIST = Shown("Which papers make LLM inference faster?", sources=["tactic", "d2f", "trim", "jig"],
             cited=["tactic", "d2f", "trim"])
ONE = Shown("What is SIGMark?", sources=["sig", "jig"], cited=["sig"])


def ref(question: str, table: list[Shown]):
    return resolve(question, table, title_words)


class TestResolve:
    @pytest.mark.parametrize("question, kind, papers", [
        ("Contrast the top two.", ReferenceKind.ORDINAL, ["tactic", "d2f"]),
        ("What does the second paper propose?", ReferenceKind.ORDINAL, ["d2f"]),
        ("And the last one?", ReferenceKind.ORDINAL, ["trim"]),
        ("Tell me more about the first and the third", ReferenceKind.ORDINAL, ["tactic", "trim"]),
        ("What datasets does [2] use?", ReferenceKind.SOURCE_NUMBER, ["d2f"]),
        ("Is #4 open source?", ReferenceKind.SOURCE_NUMBER, ["jig"]),
        ("How do these methods differ?", ReferenceKind.PLURAL, ["tactic", "d2f", "trim"]),
        ("How do both of them reduce latency?", ReferenceKind.PLURAL, ["tactic", "d2f"]),
        ("What does the jigsaw one do?", ReferenceKind.PARTIAL_NAME, ["jig"]),
        ("How much memory does TRIM-KV save?", ReferenceKind.PARTIAL_NAME, ["trim"]),
        # an ordinal opening the question, without "the": with a noun after it or paired with another ordinal
        ("third one - what does it stand for?", ReferenceKind.ORDINAL, ["trim"]),
        ("first vs third, what does each change about decoding?", ReferenceKind.ORDINAL, ["tactic", "trim"]),
        ("and the 2nd, how much memory does it save", ReferenceKind.ORDINAL, ["d2f"]),
        # a part of a paper counted, not a paper: "it" is the first paper, "they" its authors
        ("what was the second problem they tackled, and by how much did it improve?", ReferenceKind.PRONOUN,
         ["tactic"]),
    ])
    def test_references_to_a_list(self, question, kind, papers) -> None:
        found = ref(question, [LIST])
        assert (found.kind, found.paper_ids) == (kind, papers)

    @pytest.mark.parametrize("question", ["Which of them needs less memory?", "Which one is cheaper to train?",
                                          "Which is faster at decoding?",
                                          "I can't fine-tune anything in my setting. which one should I look at?"])
    def test_a_choice_picks_among_the_listed_papers(self, question) -> None:
        found = ref(question, [LIST])
        assert found.choice and found.paper_ids == ["tactic", "d2f", "trim"]

    @pytest.mark.parametrize("question", ["Of those two, which actually reports competition-math results?",
                                          "Between that one and the physics flow matching paper, which has code?",
                                          "of those, whose abstract reports the lower FID number?"])
    def test_a_choice_named_before_its_which(self, question) -> None:
        from rag.asks import asks_which

        assert asks_which(question) and not asks_which("Of those, which papers use RL?")

    def test_which_of_them_after_a_survey_of_the_collection_is_a_new_search(self) -> None:
        overview = Shown("What are the main research areas?", [f"p{i}" for i in range(36)], [f"p{i}" for i in range(36)])
        assert ref("Which of the papers are about perception?", [overview]).kind is ReferenceKind.NONE
        assert ref("Which of them needs less memory?", [LIST]).choice  # a list of three is still chosen among

    def test_which_papers_is_a_new_list_question_not_a_choice(self) -> None:
        assert not ref("Which papers study watermarking?", [LIST]).choice

    def test_a_pronoun_points_at_the_first_listed_paper(self) -> None:
        found = ref("What bit accuracy does it reach?", [LIST, ONE])
        assert (found.kind, found.paper_ids) == (ReferenceKind.PRONOUN, ["sig"])

    def test_a_pronoun_and_a_name_on_the_table_are_compared_together(self) -> None:
        found = ref("How does it differ from Tactic?", [LIST, Shown("What is TRIM-KV?", ["trim"], ["trim"])])
        assert found.paper_ids == ["trim", "tactic"]
        for question in ("How would you contrast that with Tactic?", "where do the gains of that one and Tactic come "
                                                                     "from, respectively?"):
            assert ref(question, [LIST, Shown("What is TRIM-KV?", ["trim"], ["trim"])]).paper_ids == ["trim", "tactic"]

    @pytest.mark.parametrize("question", ["First, tell me what it does.", "first and second order methods?",
                                          "Second-order optimization?"])
    def test_an_ordinal_that_is_no_position_points_at_nothing_by_position(self, question) -> None:
        assert ref(question, [LIST]).kind is not ReferenceKind.ORDINAL

    def test_a_newly_named_paper_and_the_two_are_it_and_the_paper_the_chat_is_about(self) -> None:
        # Three turns on SIGMark, then a list holding it after another paper: "the two" are the named one and SIGMark.
        on_sig = Shown("What is SIGMark?", ["sig"], ["sig"])
        listed = Shown("Any other papers on tracing generated content?", ["jig", "sig"], ["jig", "sig"])
        named = lambda text: ["lyra"] if "Lyra" in text else []  # noqa: E731 - the index's own names
        question = "Lyra also builds on video diffusion. How do the two papers use it differently?"
        found = resolve(question, [on_sig, on_sig, listed], title_words, named)
        assert (found.kind, found.paper_ids) == (ReferenceKind.PARTIAL_NAME, ["sig", "lyra"])
        assert resolve(question, [LIST], title_words, named).paper_ids == ["tactic", "lyra"]  # the list's first
        assert resolve("Which of the two is faster, Lyra?", [on_sig, listed], title_words, named).choice

    def test_a_paper_named_beside_one_on_the_table_joins_it(self) -> None:
        named = lambda text: ["omni"] if "Omni-View" in text else []  # noqa: E731 - the index's own names
        question = "Omni-View claims generation helps 3D understanding. How does that square with the jigsaw one?"
        found = resolve(question, [LIST, Shown("What is the jigsaw one?", ["jig"], ["jig"])], title_words, named)
        assert (found.kind, found.paper_ids) == (ReferenceKind.PARTIAL_NAME, ["jig", "omni"])

    def test_the_two_after_a_one_paper_turn_reaches_back(self) -> None:
        table = [Shown("What is TRIM-KV?", ["trim"], ["trim"]), Shown("And Tactic?", ["tactic"], ["tactic"])]
        assert ref("Which of the two needs less memory?", table).paper_ids == ["tactic", "trim"]

    def test_the_three_after_one_paper_turns_reach_back_to_three(self) -> None:
        table = [LIST, Shown("What is TRIM-KV?", ["trim"], ["trim"]), Shown("And SIGMark?", ["sig"], ["sig"])]
        found = ref("Which of the three is aimed at small models?", table)
        assert found.choice and found.paper_ids == ["sig", "trim", "tactic"]

    def test_the_two_after_a_list_that_cited_one_are_its_first_two_sources(self) -> None:
        listed_one = Shown("Which papers reduce the KV cache?", sources=["trim", "tactic", "jig"], cited=["trim"])
        assert ref("How do the two decide which tokens to keep?", [listed_one]).paper_ids == ["trim", "tactic"]

    def test_they_beside_a_name_are_its_authors_not_every_paper_listed(self) -> None:
        found = ref("In the jigsaw one, how do they avoid tuning?", [LIST])
        assert (found.kind, found.paper_ids) == (ReferenceKind.PARTIAL_NAME, ["jig"])

    def test_they_with_one_paper_on_the_table_points_at_it(self) -> None:
        table = [Shown("Is there a paper on central vision?", ["sig", "jig"], ["sig"])]
        found = ref("What does focusing on central vision buy them?", table)
        assert (found.kind, found.paper_ids) == (ReferenceKind.PRONOUN, ["sig"])

    def test_a_comparison_naming_one_paper_sets_it_against_the_last_one(self) -> None:
        table = [LIST, Shown("What is TRIM-KV?", ["trim", "tactic"], ["trim"])]
        for question in ("How is Tactic's approach different?", "Is Tactic's method similar?"):
            assert ref(question, table).paper_ids == ["trim", "tactic"]
        assert ref("What does Tactic do?", table).paper_ids == ["tactic"]  # not a comparison: only what it names

    def test_it_after_a_paper_the_question_opens_with_is_that_paper(self) -> None:
        table = [LIST]  # "it" is the jigsaw paper, compared with earlier work, not with the list's first paper
        found = ref("ok and the jigsaw one, what does it do differently from earlier methods?", table)
        assert found.paper_ids == ["jig"]
        assert ref("How does it differ from the jigsaw one?", [LIST, ONE]).paper_ids == ["sig", "jig"]

    def test_against_earlier_work_is_the_paper_against_its_own_baselines(self) -> None:
        from rag.asks import against_baselines

        question = "what does it do differently from earlier LLM+evolutionary heuristic design?"
        assert against_baselines(question, anywhere=True) and not against_baselines(question)
        assert against_baselines("how does it stack up against existing methods?", anywhere=True)
        assert not against_baselines("how does it differ from the jigsaw one?", anywhere=True)

    def test_a_first_question_naming_two_papers_to_choose_between_is_a_choice(self) -> None:
        def named_in(text: str) -> list[str]:
            return [pid for pid, words in WORDS.items() if any(w in text.lower() for w in words)]

        for question in ("Which is faster, D2F or Tactic?", "Is Tactic faster than D2F?"):
            found = resolve(question, [], title_words, named_in)
            assert (found.kind, found.choice, set(found.paper_ids)) == (ReferenceKind.PARTIAL_NAME, True,
                                                                        {"tactic", "d2f"})
        assert resolve("What is Tactic?", [], title_words, named_in).kind is ReferenceKind.NONE
        one = resolve("Which one needs less memory, TRIM-KV or Tactic?", [ONE], title_words, named_in)
        assert one.choice and set(one.paper_ids) == {"trim", "tactic"}

    def test_their_after_one_paper_are_its_authors_not_the_papers_before_it(self) -> None:
        table = [Shown("What is TRIM-KV?", ["trim"], ["trim"]), Shown("And Tactic?", ["tactic"], ["tactic"])]
        found = ref("What is their main finding?", table)
        assert (found.kind, found.paper_ids) == (ReferenceKind.PRONOUN, ["tactic"])

    @pytest.mark.parametrize("question, papers", [("Of those two, which one is cheaper?", ["tactic", "d2f"]),
                                                  ("between these, which is faster?", ["tactic", "d2f", "trim"])])
    def test_a_choice_may_follow_of_those(self, question, papers) -> None:
        found = ref(question, [LIST])
        assert found.choice and found.paper_ids == papers

    def test_a_choice_may_follow_a_condition(self) -> None:
        found = ref("If my reward model is noisy, which of the two should I read first?", [LIST])
        assert found.choice and found.paper_ids == ["tactic", "d2f"]

    def test_a_refusal_puts_nothing_on_the_table(self) -> None:
        refused = Shown("How do I bake bread?", sources=["jig"], refused=True)
        assert last_answered([LIST, refused]) is LIST
        assert ref("Contrast the top two.", [LIST, refused]).paper_ids == ["tactic", "d2f"]

    @pytest.mark.parametrize("question", ["New question: what is SIGMark?", "On another subject, what is D2F?",
                                          "Unrelated: which papers study protein folding?",
                                          "Now something else: who uses jigsaw puzzles?",
                                          "totally different: what is the lead time?",
                                          "Moving on. Physics-constrained flow matching: what does that paper trade?",
                                          "on a different sci-ML note: flow matching with physical constraints",
                                          "Let's talk diffusion LLMs. can they beat AR models on speed?",
                                          "Now I'm curious about referring segmentation. How do they handle pixels?",
                                          "Next: code agents that verify their own code?"])
    def test_a_switch_refers_to_nothing_and_drops_its_marker(self, question) -> None:
        found = ref(question, [LIST])
        assert found.kind is ReferenceKind.SWITCH and not found.paper_ids
        assert not found.question.lower().startswith(("new", "on a", "unrelated", "now", "totally", "moving", "let",
                                                      "next"))
        assert "curious" not in found.question

    def test_lets_talk_about_a_paper_on_the_table_is_no_switch(self) -> None:
        assert ref("Let's talk about the second one: what does it cache?", [LIST]).kind is not ReferenceKind.SWITCH
        assert ref("Next one: what does it cache?", [LIST]).kind is not ReferenceKind.SWITCH  # the list's next

    @pytest.mark.parametrize("question", ["Which papers study protein folding with graph networks?",
                                          "What are the open problems in reward modelling that papers mention?"])
    def test_a_new_subject_refers_to_nothing(self, question) -> None:
        assert ref(question, [LIST]).kind is ReferenceKind.NONE

    @pytest.mark.parametrize("question", ["Which papers use diffusion models?", "Any papers on diffusion?"])
    def test_a_short_request_for_papers_is_a_new_search_not_a_pronoun(self, question) -> None:
        assert ref(question, [ONE]).kind is ReferenceKind.NONE
        assert ref("How many parameters?", [ONE]).paper_ids == ["sig"]  # a short question of fact leans back

    def test_without_a_table_nothing_is_resolved(self) -> None:
        assert ref("Contrast the top two.", []).kind is ReferenceKind.NONE

    def test_an_ellipsis_asks_the_last_question_of_the_new_thing(self) -> None:
        table = [Shown("What speedup does ARPG report?", ["arpg"], ["arpg"])]
        found = ref("What about MaskCO?", table)
        assert found.kind is ReferenceKind.ELLIPSIS and found.question == "What speedup does MaskCO report?"

    def test_former_and_latter_after_one_paper_a_turn_are_the_two_discussed_last_in_order(self) -> None:
        table = [Shown("What is TRIM-KV?", ["trim"], ["trim"]), Shown("any sparse attention method?", ["tactic"],
                                                                      ["tactic"])]
        found = ref("which of the two would I have to fine-tune something for, the former or the latter?", table)
        assert found.paper_ids == ["trim", "tactic"] and found.choice
        assert ref("what does the former keep?", table).paper_ids == ["trim"]

    def test_a_what_about_with_a_question_of_its_own_is_that_question(self) -> None:
        # "they" are the small LMs the question names, not the paper on the table; nothing to complete.
        table = [Shown("Which kind of reward model generalizes better?", ["rm"], ["rm"])]
        found = ref("what about small LMs acting as verifiers, what kind of tasks do they struggle with", table)
        assert found.kind is ReferenceKind.ELLIPSIS and found.paper_ids == []
        assert found.question == "small LMs acting as verifiers, what kind of tasks do they struggle with?"
        assert ref("what about the results, are they good?", table).paper_ids == ["rm"]  # "they": the results
        assert "reward model" in ref("and for video, what got better?", table).question  # the last one's, for video

    def test_an_ellipsis_replaces_a_pronoun_or_joins_the_words(self) -> None:
        assert complete_ellipsis("MaskCO", "What speedup does it report?") == "What speedup does MaskCO report?"
        assert complete_ellipsis("for video", "Which papers watermark images?") == \
            "Which papers watermark images for video?"


def test_the_two_after_a_refusal_are_the_list_answers_first_two_sources() -> None:
    listed_one = Shown("Which papers reduce the KV cache?", sources=["trim", "tactic", "jig"], cited=["trim"])
    refused = Shown("How do I bake bread?", sources=["sig"], refused=True)
    assert ref("How do the two decide which tokens to keep?", [listed_one, refused]).paper_ids == ["trim", "tactic"]


def test_a_question_every_word_of_which_the_last_paper_holds_asks_about_it() -> None:
    lexam = Paper("lexam", "LEXam: Benchmarking Legal Reasoning", "The dataset comprises 4,886 law exam questions in "
                  "English and German, across many languages of instruction.", "t:1")
    other = Paper("kal", "Kaleidoscope", "A multilingual exam benchmark in 18 languages.", "t:2")
    table = [Shown("Is there a benchmark for legal reasoning?", ["lexam", "kal"], ["lexam"])]
    papers = {"lexam": lexam, "kal": other}
    found = implicit(ref("How many questions, and in which languages?", table), table, papers)
    assert (found.kind, found.paper_ids) == (ReferenceKind.PRONOUN, ["lexam"])
    for new in ("How many molecules, and in which solvents?", "Which papers study legal questions?"):
        assert implicit(ref(new, table), table, papers).kind is ReferenceKind.NONE
    # A fragment opening with "any" asks the paper just discussed (half its words in the abstract will do).
    assert implicit(ref("any languages needed?", table), table, papers).paper_ids == ["lexam"]
    assert implicit(ref("any papers on exams?", table), table, papers).kind is ReferenceKind.NONE


def test_an_ordinal_counts_in_the_order_the_user_named_the_papers() -> None:
    named = Shown("Summarize Tactic and then TRIM-KV for me.", sources=["trim", "tactic"], cited=["trim", "tactic"])
    assert ref("What speedup does the second one report?", [named]).paper_ids == ["trim"]


def test_it_beside_a_paper_named_by_a_phrase_is_that_paper_unless_they_are_set_against_each_other() -> None:
    table = [LIST]
    # Two papers named: "each of them" are those two, not the list before them.
    assert ref("contrast TRIM-KV with the jigsaw one - what does each of them learn?", table).paper_ids == [
        "trim", "jig"]
    assert ref("And the jigsaw one, what data does it use?", table).paper_ids == ["jig"]
    assert ref("Is it faster than the jigsaw one?", [LIST, ONE]).paper_ids == ["sig", "jig"]


def test_how_a_question_asks_for_a_figure_is_not_a_word_the_abstract_must_hold() -> None:
    from rag.topic_words import coverage

    spec = Paper("s", "SpecBranch", "SpecBranch achieves speedups of over 1.8x to 4.5x against decoding.", "t:1")
    assert coverage("What is the max speedup the second one reports?", [spec]) == 1.0
    assert coverage("How many GPU hours did training take?", [spec]) < 0.5


class TestMoreReferences:
    def test_is_one_of_them_is_a_choice_among_the_listed_papers(self) -> None:
        found = ref("Is one of them about jigsaw puzzles?", [LIST])
        assert found.choice and found.paper_ids == ["tactic", "d2f", "trim"]

    def test_a_paper_on_the_table_described_by_its_title_words(self) -> None:
        found = ref("The one about the retention gate: what does it find?", [LIST, ONE])
        assert (found.kind, found.paper_ids) == (ReferenceKind.PARTIAL_NAME, ["trim"])

    def test_an_ordinal_counts_in_the_papers_this_question_names(self) -> None:
        found = ref("I'll look at the jigsaw and TRIM-KV papers. What does the first one do?", [LIST])
        assert found.paper_ids == ["jig"]

    @pytest.mark.parametrize("question", ["[2] - what does it do?", "#2: what does it do?"])
    def test_a_number_counts_in_the_papers_the_user_named_in_order(self, question: str) -> None:
        # Blind development dialogue: "ok I'll take them as RGM, T1, ReVeal" then "[2] - what are the two stages?"
        table = [LIST, Shown("I'll take them as TRIM-KV, jigsaw, Tactic. TRIM-KV: what is it?", sources=["trim"],
                             cited=["trim"])]
        assert ref(question, table).paper_ids == ["jig"]
        assert ref(question, [LIST]).paper_ids == ["d2f"]  # no order of the user's: source [2]

    def test_an_acronym_in_capitals_names_the_paper_whose_hyphenated_name_holds_it(self) -> None:
        words = {"orprm": {"or-prm", "operations"}, "t1": {"t1"}}.get
        table = [Shown("Is there a PRM for operations research?", sources=["orprm"], cited=["orprm"]),
                 Shown("And small verifiers?", sources=["t1"], cited=["t1"])]
        found = resolve("contrast T1 and the OR one: how does each verify?", table, lambda pid: words(pid, set()))
        assert set(found.paper_ids) == {"t1", "orprm"}
        alone = resolve("contrast T1 and the one for operations or logistics", table[1:], lambda pid: words(pid, set()))
        assert alone.paper_ids == ["t1"]  # "or" in lower case is the word

    def test_the_users_enumeration_counts_off_the_table_in_a_refused_turn_and_for_the_three(self) -> None:
        # Blind development dialogue: "ok, take MetaMuse, MoH and OR-PRM in that order. Which two problems does the
        # first one get evaluated on?" (MetaMuse not on the table yet), later "the first and second" and "Which of
        # the three …", after a turn that compared two of them.
        words = {"muse": {"metamuse"}, "moh": {"moh"}, "orprm": {"or-prm"}, "mask": {"maskco"}}.get

        def title(pid: str) -> set[str]:
            return words(pid, set())

        def named_in(text: str) -> list[str]:
            return ["muse"] if "MetaMuse" in text else []

        lst = Shown("What's new in combinatorial optimization?", sources=["moh", "mask", "orprm"],
                    cited=["moh", "mask", "orprm"])
        asked = "ok, take MetaMuse, MoH and OR-PRM in that order. Which problems does the first one get evaluated on?"
        first = resolve(asked, [lst], title, named_in)
        assert first.paper_ids == ["muse"] and first.question == "Which problems does the first one get evaluated on?"
        table = [lst, Shown(asked, sources=["muse"], cited=[], refused=True),
                 Shown("by how much?", sources=["muse"], cited=["muse"]),
                 Shown("how do they differ?", sources=["muse", "moh"], cited=["muse", "moh"])]
        assert resolve("the first and second: what differs?", table[:3], title, named_in).paper_ids == ["muse", "moh"]
        three = resolve("Which of the three scores each reasoning step?", table, title, named_in)
        assert three.choice and three.paper_ids == ["muse", "moh", "orprm"]

    def test_an_ordinal_counts_in_the_papers_named_before_a_colon(self) -> None:
        table = [LIST, Shown("Compare TRIM-KV and Tactic: which data?", sources=["tactic", "trim"],
                             cited=["tactic", "trim"])]
        assert ref("By how much does the first one speed up decoding?", table).paper_ids == ["trim"]


@pytest.mark.parametrize("question, back", [
    ("Is there a paper that turns a video model into a 3D generator?", False),  # "that" relates, refers to nothing
    ("Is there a paper on watermarking in this collection?", False),  # where to look
    ("How is that different from Omni-View?", True),
    ("And is that training-free?", True),
    ("Does that method need labels?", True),
])
def test_what_refers_back(question: str, back: bool) -> None:
    from rag.followup import refers_back

    assert refers_back(question) is back


def test_chat_filler_is_no_topic_word() -> None:
    from rag.topic_words import own_topic_words

    assert own_topic_words("ok, and what does it beat?") == {"beat"}
    assert own_topic_words("alright, so what region is it for?") == {"region"}


def test_a_later_answer_of_as_many_papers_wins_over_an_earlier_enumeration() -> None:
    named = Shown("So TRIM-KV and Tactic: which one needs less memory?", sources=["trim", "tactic"],
                  cited=["trim", "tactic"])
    # A list question naming no paper of its own ("… images and videos …" is no enumeration), answered with two.
    listed = Shown("what's here on jigsaw puzzles or watermarking images and videos?", sources=["jig", "sig", "d2f"],
                   cited=["jig", "sig"])
    assert ref("how do those two differ in approach?", [named, listed]).paper_ids == ["jig", "sig"]
    assert ref("how do those two differ in approach?", [listed, named]).paper_ids == ["trim", "tactic"]


def test_a_question_going_on_with_and_asks_about_the_last_answer() -> None:
    assert ref("and what makes a task harder?", [ONE]).paper_ids == ["sig"]
    assert ref("And the speedup versus the normal solvers?", [ONE]).paper_ids == ["sig"]  # "and the …"
    assert ref("and which papers here study tasks?", [ONE]).kind is ReferenceKind.NONE  # a new search


def test_a_quoted_piece_of_a_title_names_the_paper_on_the_table() -> None:
    found = ref("The 'retention gate' one: what's their explanation for why it works?", [LIST])
    assert (found.kind, found.paper_ids) == (ReferenceKind.PARTIAL_NAME, ["trim"])


def test_a_first_turn_s_marker_of_a_new_subject_is_no_topic() -> None:
    from rag.references import without_switch

    assert without_switch("separate question: what's in here on chemistry?") == "what's in here on chemistry?"
    assert without_switch("What is new in chemistry?") == "What is new in chemistry?"


def test_a_name_an_abstract_only_mentions_names_the_paper_only_in_the_latest_answer() -> None:
    own = {"arpg": {"arpg"}, "gtr": {"gtr"}, "orprm": {"or-prm"}, "sbon": {"sbon"}}
    mentions = {"gtr": {"imagenet"}, "arpg": {"imagenet-1k"}, "orprm": {"best-of-n"}}
    table = [Shown("Is there a random-order image model?", sources=["arpg", "gtr"], cited=["arpg"])]
    found = resolve("FID on ImageNet 256?", table, own.__getitem__, mentioned=lambda p: mentions.get(p, set()))
    assert "gtr" not in found.paper_ids  # GtR, a source never answered from, only mentions ImageNet
    table = [Shown("OR-PRM: which datasets?", sources=["orprm", "sbon"], cited=["orprm"])]
    found = resolve("Max gain in Best-of-N?", table, own.__getitem__, mentioned=lambda p: mentions.get(p, set()))
    assert (found.kind, found.paper_ids) == (ReferenceKind.PARTIAL_NAME, ["orprm"])


def test_a_paper_named_in_a_piece_of_an_enumeration_wins_over_title_words_it_shares() -> None:
    from rag.named import user_order

    words = {"trim": {"trim-kv", "cache", "retention"}, "arpg": {"arpg", "randomized"}, "d2f": {"d2f", "discrete"}}
    # "… ARPG each make use of a KV cache": ARPG by its name, not TRIM-KV by "cache"
    assert user_order("How do D2F and ARPG each make use of a KV cache?", ["d2f", "trim", "arpg"],
                      lambda pid: words[pid]) == ["d2f", "arpg"]


def test_that_x_model_points_at_the_table_paper_its_title_calls_so() -> None:
    from rag.named import named_on_table

    words = {"pbfm": {"pbfm", "physics"}, "mcd": {"multi-channel", "biological"}}
    table = [Shown("diffusion for imaging mass cytometry data?", ["mcd"], ["mcd"]),
             Shown("How do you keep physics constraints?", ["pbfm"], ["pbfm"])]
    found = named_on_table("PBFM and that multi-channel diffusion model: what is the core idea in each?", table,
                           lambda pid: words[pid])
    assert set(found) == {"pbfm", "mcd"}


def test_a_vs_b_with_either_of_them_compares_the_two_it_names() -> None:
    listed = Shown("which papers are about multimodal LLMs?", ["rcpu", "jig", "tik"], ["rcpu", "jig", "tik"])
    words = {"jig": {"jigsaw", "visual jigsaw"}, "omni": {"omni-view"}, "rcpu": {"rcpu"}, "tik": {"tikzilla"}}
    found = resolve("Visual Jigsaw vs Omni-View: does either of them lean on generation?", [listed],
                    lambda pid: words.get(pid, set()), lambda text: ["omni", "jig"])
    assert set(found.paper_ids) == {"jig", "omni"}  # was RCPU (the list's first) and Omni-View


def test_this_one_beside_a_named_paper_is_the_last_paper_whatever_they_say() -> None:
    # "they" in "what they say" are both papers' authors; "this one" is still the paper just discussed.
    found = ref("how do the jigsaw paper and this one differ in what they say about memory?", [LIST, ONE])
    assert set(found.paper_ids) == {"sig", "jig"}


def test_positions_after_a_choice_count_in_source_order_not_with_the_pick_first() -> None:
    chose = Shown("which of the two needs less memory?", sources=["tactic", "trim"], cited=["trim", "tactic"])
    assert ref("the first one: how does it pick tokens?", [LIST, chose]).paper_ids == ["tactic"]
    assert ref("how does it pick tokens?", [LIST, chose]).paper_ids == ["trim"]  # "it": the pick


def test_a_paper_name_typed_in_lower_case_names_the_paper_on_the_table() -> None:
    found = ref("how do it and trim-kv differ in what they keep?", [LIST, ONE])
    assert set(found.paper_ids) == {"sig", "trim"}
    from rag.named import _lower_case_names

    assert _lower_case_names("is it self-supervised at test-time, like gpt-4o?") == ["gpt-4o"]  # English words: no


def test_the_other_one_after_a_turn_on_one_paper_of_a_list_is_the_lists_next_paper() -> None:
    on_tactic = Shown("what does tactic keep?", sources=["tactic"], cited=["tactic"])
    assert ref("same for the other one?", [LIST, on_tactic]).paper_ids == ["d2f"]
    assert ref("what about the other one?", [ONE]).kind is not ReferenceKind.ORDINAL  # no list before: nothing


def _names(*known: str):
    """A ``named_in`` that finds each known paper id typed in the text, in any case."""
    return lambda text: [pid for pid in known if pid in text.lower()]


def test_a_paper_named_up_front_off_the_table_takes_the_pronouns_after_it() -> None:
    # "veriequivbench - what does its …": its score, not the table's paper's; a comparison keeps both.
    found = resolve("veriequiv - what does its equivalence score replace?", [ONE], title_words, _names("veriequiv"))
    assert (found.kind, found.paper_ids) == (ReferenceKind.PARTIAL_NAME, ["veriequiv"])
    compared = resolve("veriequiv - how does it differ from this one?", [ONE], title_words, _names("veriequiv"))
    assert set(compared.paper_ids) == {"veriequiv", "sig"}


def test_its_approach_against_a_paper_off_the_table_compares_the_two() -> None:
    found = resolve("How is its approach diffrent from the moh framework?".replace("diffrent", "different"), [ONE],
                    title_words, _names("moh"))
    assert found.paper_ids == ["sig", "moh"]
    alone = resolve("How does it pick keys?", [ONE], title_words, _names("moh"))
    assert alone.paper_ids == ["sig"]  # no name: the paper on the table


def test_a_paper_named_off_the_table_and_typed_on_it_later_is_named() -> None:
    shown = Shown("which papers are benchmarks?", ["sig", "veriequiv"], ["sig", "veriequiv"])
    found = resolve("veriequiv, what does it replace?", [shown], title_words, _names("veriequiv"))
    assert found.paper_ids == ["veriequiv"]  # on the table, though its title words do not hold the lower-case name


def test_the_it_a_verb_ends_on_is_no_paper() -> None:
    # "how does each do it": "each" of the two named papers, not them and the paper on the table
    found = resolve("compare D2F and sigmark, they both decode in parallel right? how does each do it", [LIST],
                    title_words, _names("d2f", "sig"))
    assert set(found.paper_ids) == {"d2f", "sig"}
    assert set(resolve("compare D2F and sigmark: how does it differ?", [LIST], title_words,
                       _names("d2f", "sig")).paper_ids) > {"d2f", "sig"}  # "it" the subject: the table's paper too


def test_that_one_or_a_name_is_a_choice_between_the_last_paper_and_the_named_one() -> None:
    from rag.asks import asks_which

    assert asks_which("so if i need to impute protein channels, that one or sigmark?")
    assert asks_which("sigmark or this one?") and not asks_which("which base LLM do they use, qwen or llama?")
    found = ref("so if i need to watermark videos, that one or Tactic?", [LIST, ONE])
    assert found.choice and set(found.paper_ids) == {"sig", "tactic"}


def test_the_two_after_a_turn_about_two_papers_are_those_not_an_enumeration_before_it() -> None:
    named = Shown("What is tactic and what does trim-kv keep?", sources=["tactic", "trim"], cited=["tactic"])
    compared = Shown("how does sigmark differ from the jigsaw one?", sources=["sig", "jig"], cited=["sig", "jig"])
    assert ref("which of the two needs less memory?", [named, compared]).paper_ids == ["sig", "jig"]
    assert ref("which of the two needs less memory?", [named]).paper_ids == ["tactic", "trim"]  # (the user's own)


def test_a_pronoun_after_a_new_name_in_the_same_question_is_that_paper() -> None:
    from rag.named import named_ahead

    def named_in(text: str) -> list[str]:
        return ["scsf"] if "SCSF" in text else []

    assert named_ahead("what is SCSF and what problem does it solve?", named_in, ["sig"]) == ["scsf"]
    assert named_ahead("How does it differ from SCSF?", named_in, ["sig"]) == []  # "it": the paper on the table


def test_each_piece_of_a_comparison_calls_a_paper_on_the_table_by_its_title_words() -> None:
    from rag.named import named_on_table

    words = {"mclm": {"mclm", "modular", "chemical", "makeable"}, "mcd": {"multi-channel", "biological", "controllable"}}
    table = [Shown("Which papers apply ML to chemistry or biology?", sources=["mclm", "mcd"], cited=["mclm", "mcd"])]
    found = named_on_table("Compare the modular chemical language model and the multi-channel biological paper - "
                           "what does each one generate?", table, lambda pid: words.get(pid, set()))
    assert set(found) == {"mclm", "mcd"}


def test_its_and_their_in_a_search_for_papers_belong_to_the_search() -> None:
    # "… back to its source" pointed at the last paper, so the count listed only it
    assert ref("Which papers are about tracing AI-generated content back to its source?", [ONE]).kind is (
        ReferenceKind.NONE)
    assert ref("Which papers in here frame their contribution as test-time scaling?", [LIST]).kind is (
        ReferenceKind.NONE)
    assert ref("Which other papers cut its memory use?", [ONE]).paper_ids == ["sig"]  # others than it: it points


def test_a_choice_among_papers_the_user_names_in_order() -> None:
    from rag.asks import asks_which

    assert asks_which("Among T1, RGM and ReVeal, which one does away with process-level annotation?")
    assert asks_which("Of MoH or MaskCO, which is faster?")
    assert not asks_which("Among the papers on RL, which papers use code?")  # a new list


def test_a_paper_named_up_front_by_a_form_of_its_title_word() -> None:
    from rag.named import named_on_table

    words = {"cb": {"catalystbench", "catalyst"}, "mclm": {"mclm", "modular", "chemical"}}
    table = [Shown("Which papers are about chemistry?", sources=["mclm", "cb"], cited=["mclm", "cb"])]
    assert named_on_table("the catalysis benchmark - what tasks does it cover?", table,
                          lambda pid: words.get(pid, set())) == ["cb"]



def test_a_comparison_piece_that_names_a_paper_calls_no_other_by_its_words() -> None:
    from rag.named import named_on_table

    words = {"omni": {"omni-view", "understanding", "images", "multiview"}, "jig": {"jigsaw"}, "aml": {"amlris"}}
    table = [Shown("Which papers are about visual understanding?", sources=["omni", "jig", "aml"],
                   cited=["omni", "jig", "aml"])]
    found = named_on_table("Visual Jigsaw is also about making models understand images better. How does its "
                           "approach differ from AML's?", table, lambda pid: words.get(pid, set()))
    assert "omni" not in found  # (Omni-View was compared as a third paper)


def test_a_question_of_guesses_about_the_last_paper_asks_about_it() -> None:
    # "which environments? meta-world, atari, something else?": the guesses are no topic of a new search
    found = ref("which environments? meta-world, atari, something else?", [ONE])
    assert (found.kind, found.paper_ids) == (ReferenceKind.PRONOUN, ["sig"])


@pytest.mark.parametrize("question", ["vs other AR models - speed and memory?", "and compared to the baselines?",
                                      "versus existing methods, how much faster?"])
def test_a_paper_set_against_its_own_baselines_is_the_last_paper(question: str) -> None:
    found = ref(question, [ONE])
    assert (found.kind, found.paper_ids) == (ReferenceKind.PRONOUN, ["sig"])


def test_a_question_going_on_with_and_as_leans_on_the_last_paper() -> None:
    found = ref("and as more of the code gets masked?", [ONE])
    assert (found.kind, found.paper_ids) == (ReferenceKind.PRONOUN, ["sig"])


def test_a_refusal_naming_the_paper_asked_about_leaves_it_the_subject() -> None:
    # "back to the DPT one - which environment suites …?" refused as "The abstract of DPT does not mention …":
    # "it" next is DPT, not the first paper of the list before; an ellipsis still asks the last answered question.
    refused = Shown("back to the sigmark one - which codecs, H.264?", sources=["sig"], refused=True, about=["sig"])
    assert ref("How would you contrast it against Tactic?", [LIST, refused]).paper_ids[0] == "sig"
    plain = Shown("Any papers on federated learning?", sources=["jig", "d2f"], refused=True)  # names no paper
    assert last_answered([LIST, plain]) is LIST and last_answered([LIST, refused]) is refused
    found = ref("What about MaskCO?", [LIST, refused])
    assert found.kind is ReferenceKind.ELLIPSIS and "H.264" not in found.question


def test_a_piece_calling_a_paper_by_the_start_of_a_title_word_names_it_in_order() -> None:
    from rag.named import user_order

    words = {"rain": {"rainfall", "rainpro-8", "estimate"}, "scsf": {"eigenvalue", "chebyshev"}}
    # "the rain model" is RainPro-8 ("rainfall"); the question after the two does not reorder them by "estimates"
    assert user_order("Between the rain model and the eigenvalue one, which would give me uncertainty estimates?",
                      ["scsf", "rain"], lambda pid: words[pid]) == ["rain", "scsf"]


def test_which_one_works_is_a_choice_and_versus_a_name_sets_the_subject_against_it() -> None:
    from rag.asks import asks_which

    assert asks_which("which one works on video?") and not asks_which("which recent works study video?")
    # "and versus the jigsaw paper, …": the paper discussed last against the one it names, though it names no pronoun
    trim = Shown("What is TRIM-KV?", sources=["trim"], cited=["trim"])
    found = resolve("and versus the veriequiv paper, what kind of supervision does each need?", [trim], title_words,
                    _names("veriequiv"))
    assert (found.kind, found.paper_ids) == (ReferenceKind.PARTIAL_NAME, ["trim", "veriequiv"])
