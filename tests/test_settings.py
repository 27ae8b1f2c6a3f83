"""Settings: nested sections, tuned values from the preset, environment over preset, flags over both."""

from __future__ import annotations

import json

import pytest

from rag.errors import RagError
from rag.settings import PRESETS_DIR, PROJECT_ROOT, SECTIONS, Settings, configuration_markdown, load_preset


class TestSettings:
    def test_tuned_values_come_from_the_preset(self) -> None:
        preset = json.loads((PRESETS_DIR / "default.json").read_text())
        settings = Settings()
        for section, values in preset.items():
            for name, value in values.items():
                assert getattr(getattr(settings, section), name) == value, f"{section}.{name}"

    def test_every_preset_value_names_a_field_of_its_section(self) -> None:
        for section, values in load_preset("default").items():
            assert set(values) <= set(SECTIONS[section].model_fields), section

    def test_the_environment_beats_the_preset_and_a_flag_beats_both(self, monkeypatch) -> None:
        monkeypatch.setenv("RAG_WEIGHT_BM25", "2.5")
        settings = Settings()
        assert settings.retrieval.weight_bm25 == 2.5
        assert settings.with_overrides(weight_bm25=0.5).retrieval.weight_bm25 == 0.5
        assert settings.retrieval.weight_bm25 == 2.5  # a copy: the original is unchanged

    def test_fields_are_given_by_their_own_names(self, tmp_path) -> None:
        settings = Settings(index_dir=tmp_path, top_k=8, min_support=0.7, ui_port=9000)
        assert settings.index.index_dir == tmp_path and settings.retrieval.top_k == 8
        assert settings.answer.min_support == 0.7 and settings.ui.ui_port == 9000
        assert settings.retrieval.rrf_k == load_preset("default")["retrieval"]["rrf_k"]  # the rest as usual

    def test_a_flag_not_given_changes_nothing(self) -> None:
        settings = Settings()
        assert settings.with_overrides(top_k=None, backend=None) is settings

    @pytest.mark.parametrize("make", [lambda: Settings(top_kk=3), lambda: Settings().with_overrides(weight_bm26=1.0)])
    def test_an_unknown_setting_is_a_clear_error(self, make) -> None:
        with pytest.raises(RagError, match="unknown setting .*docs/configuration.md"):
            make()

    def test_an_unknown_preset_names_the_ones_there_are(self, monkeypatch) -> None:
        monkeypatch.setenv("RAG_PRESET", "fastest")
        with pytest.raises(RagError, match="unknown settings preset 'fastest'.*default"):
            Settings()

    def test_a_value_out_of_range_is_refused(self) -> None:
        with pytest.raises(ValueError, match="top_k"):
            Settings(top_k=0)

    def test_configuration_doc_is_current(self) -> None:
        """docs/configuration.md is generated: `python -m rag.settings > docs/configuration.md`."""
        written = (PROJECT_ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
        assert written.strip() == configuration_markdown().strip()

    def test_the_doc_lists_every_variable(self) -> None:
        doc = configuration_markdown()
        for cls in SECTIONS.values():
            for name in cls.model_fields:
                assert f"`RAG_{name.upper()}`" in doc
