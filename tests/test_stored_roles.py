"""Sentence roles are worked out once, at ingest, and stored with each sentence (Chroma metadata and the saved
matrix); a question reads them, and roles written by other rules are worked out again (until an ingest re-tags)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rag import roles
from rag.evidence import gather_evidence
from rag.index import ingest
from rag.persisted import GenerationFiles
from rag.retrieval import rankers
from rag.role_model import roles_of
from rag.roles import Role, role
from rag.settings import Settings
from rag.store import IndexStore
from rag.standalone import rewrite
from rag.table import NOT_STATED, comparison_table
from rag.types import EvidenceSentence, Hit

from conftest import SEEDS


def _stored(index_dir: Path) -> tuple[IndexStore, rankers.SentenceIndex, rankers.SentenceIndex]:
    store = IndexStore(Settings(index_dir=index_dir))
    files = GenerationFiles.open(store)
    return store, rankers.SentenceIndex.load(store), files.matrix("sentences", store.collection("sentences").count())


def test_every_sentence_is_stored_with_the_role_its_abstract_gives_it(seed_index: Path) -> None:
    store, chroma, saved = _stored(seed_index)
    papers = {pid: s.paper for pid, s in store.stored_papers().items()}
    by_paper = {pid: roles_of([chroma.texts[row] for row in sorted(rows, key=chroma.positions.__getitem__)],
                              papers[pid].short_name) for pid, rows in chroma.rows_of.items()}
    expected = [by_paper[pid][position] for pid, position in zip(chroma.paper_ids, chroma.positions)]
    assert chroma.roles == expected and saved.roles == expected
    assert {Role.BACKGROUND, Role.PROBLEM, Role.METHOD, Role.RESULT} <= set(expected)
    assert store.manifest()["role_rules"] == roles.rules_hash()


def test_evidence_carries_the_stored_role_and_the_table_uses_it(seed_index: Path) -> None:
    store, chroma, _ = _stored(seed_index)
    pid = chroma.paper_ids[0]
    rows = chroma.rows_of[pid]
    for row in rows:  # stored as: the first sentence the paper's only result, the rest method
        chroma.roles[row] = Role.RESULT if row == rows[0] else Role.METHOD
    paper = store.stored_papers()[pid].paper
    evidence = gather_evidence("what does it achieve", chroma.vectors[rows[0]], [Hit(paper=paper, score=1.0)],
                               chroma)[0]
    assert {s.position: s.role for s in evidence.sentences} == {
        chroma.positions[row]: chroma.roles[row] for row in rows}
    assert role(chroma.texts[rows[0]], 0, paper.short_name) is not Role.RESULT  # only the stored role says so
    row = comparison_table([(1, evidence)]).splitlines()[2]
    _, problem, method, result = row.strip("| ").split(" | ")
    assert result == f"{chroma.texts[rows[0]]} [1]"
    assert method.removesuffix(" [1]") in {rewrite(chroma.texts[row]) for row in rows[1:]}  # a stored method row
    assert problem == NOT_STATED


def test_roles_of_other_rules_are_worked_out_again_and_an_ingest_re_tags_them(
        index_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _, before, _ = _stored(index_copy)
    monkeypatch.setattr(roles, "RULES", "other-rules")
    store, chroma, saved = _stored(index_copy)
    assert set(chroma.roles) == {None} and saved.roles == []
    sentence = EvidenceSentence(chroma.texts[0], 1.0, chroma.positions[0], chroma.role(0))
    assert roles.role_of(sentence) is role(chroma.texts[0], chroma.positions[0])
    generation = store.live_generation()
    report = ingest(Settings(index_dir=index_copy), [SEEDS])
    assert report.embedded_papers == 0 and store.live_generation() == generation + 1
    _, chroma, saved = _stored(index_copy)
    assert chroma.roles == before.roles == saved.roles and None not in chroma.roles
    assert store.manifest()["role_rules"] == "other-rules"
    ingest(Settings(index_dir=index_copy), [SEEDS])
    assert store.live_generation() == generation + 1  # current roles, nothing to do: no new generation
