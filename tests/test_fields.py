"""Lists asking for a broad field by name (``rag.fields``): which fields a question names, and, on the seeds, the
field's papers listed though their abstracts never write the field's name."""

from __future__ import annotations

import pytest

from rag.fields import field_query, fields_asked

SCIENCES = ["chemistry", "biology", "physics", "earth science", "scientific computing"]


@pytest.mark.parametrize("question, fields", [
    ("which ones are about chemistry then?", ["chemistry"]),
    ("How many papers in the whole collection are chemistry-related?", ["chemistry"]),
    ("Which papers use biological data?", ["biology"]),
    ("Which other papers apply ML to the natural sciences?", SCIENCES),
    ("Which other natural-science applications show up in the collection?", SCIENCES),
    ("are there papers on scientific ML here?", SCIENCES),
    ("Which papers are about data science?", []),  # no field of the thesaurus
    ("Which papers are about KV caches?", []),
])
def test_the_fields_a_question_names(question: str, fields: list[str]) -> None:
    assert fields_asked(question) == fields
    assert bool(field_query(question)) is bool(fields)


def test_a_field_asked_by_name_lists_the_papers_writing_its_words(engine) -> None:
    chemistry = engine.ask("Which papers are about chemistry?", backend="extractive")
    assert not chemistry.refused  # was refused: no sentence came near "chemistry"
    assert {"r2HG3xOMJI", "h47cb2134ff1f"} <= {c.paper_id for c in chemistry.citations}  # mCLM, CatalystBench
    sciences = engine.ask("Which papers apply ML to the natural sciences?", backend="extractive")
    cited = {c.paper_id for c in sciences.citations}
    assert len(cited & {"r2HG3xOMJI", "h47cb2134ff1f", "hfebd26d11d8c", "h46b75c8bd2fb", "h1e8e4225be0d",
                        "hfed3db123a90"}) >= 5 and "qCaq3jGb0S" not in cited  # not the KV cache paper


def test_a_large_collection_marks_no_field_papers() -> None:
    from types import SimpleNamespace

    from rag.fields import FIELD, field_terms

    def names(size: int) -> SimpleNamespace:  # a retriever, as far as ``field_terms`` reads it
        return SimpleNamespace(names=SimpleNamespace(
            papers=dict.fromkeys(range(size)), decision=SimpleNamespace(unknown_word_min_papers=1000),
            papers_mentioning=lambda word: ["mclm"] if word == "molecules" else []))

    assert field_terms("Which papers are about chemistry?", names(36)) == {FIELD + "chemistry": {"mclm"}}
    assert field_terms("Which papers are about chemistry?", names(4302)) == {}  # hundreds would use the words
