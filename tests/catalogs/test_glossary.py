"""The registry's glossary: one docs entry per term, a comment on every entry that uses a
term, and each language's words in its translators' guide."""

from __future__ import annotations

from pathlib import Path

from generator import config
from generator.catalogs.entries import entries, owns
from generator.pipeline import build
from generator.registry.model import Registry

from ..conftest import ROOT


def _registry() -> Registry:
    return build.registry_for(config.load(cwd=ROOT))


def test_each_term_is_a_docs_entry_with_its_definition() -> None:
    registry = _registry()
    docs = {e.context: e for e in entries(registry, "docs")}
    for term in registry.glossary:
        entry = docs[f"glossary.{term.id}"]
        assert entry.msgid == term.term
        assert any(term.definition in comment for comment in entry.comments)
        assert owns("docs", entry.context)


def test_an_entry_that_uses_a_term_names_it_and_one_that_does_not_stays_as_it_was() -> None:
    registry = _registry()
    messages = {e.context: e for e in entries(registry, "messages")}
    provider = messages["LLM_UNREACHABLE"]  # "The AI model provider cannot be reached."
    notes = [c for c in provider.comments if c.startswith("Glossary:")]
    assert notes == ["Glossary: model provider (see the translators' guide)."]
    denied = messages["PERMISSION_DENIED"]  # "The action {action} was not allowed."
    assert [c for c in denied.comments if c.startswith("Glossary:")] == [
        "Glossary: action (see the translators' guide)."
    ]
    title = messages["PERMISSION_DENIED.title"]  # "Permission denied": no term
    assert not [c for c in title.comments if c.startswith("Glossary:")]


def test_the_pot_file_carries_the_glossary_comments() -> None:
    pot = (ROOT / "locales" / "messages.pot").read_text("utf-8")
    block = pot[
        pot.index('msgctxt "LLM_UNREACHABLE"') - 300 : pot.index('msgctxt "LLM_UNREACHABLE"')
    ]
    assert "#. Glossary: model provider (see the translators' guide)." in block


def test_the_translators_guide_lists_each_languages_words() -> None:
    site = ROOT / "site" / "docs"
    german = (site / "de" / "translators.md").read_text("utf-8")
    assert '| <span lang="en">model provider</span> | Modellanbieter |' in german
    assert '| <span lang="en">Configuration</span> | Konfiguration |' in german  # a layer's name
    japanese = (site / "ja" / "translators.md").read_text("utf-8")
    assert '| <span lang="en">model provider</span> | モデルプロバイダー |' in japanese
    english = (site / "en" / "translators.md").read_text("utf-8")
    assert "| model provider | The service that runs the model" in english


def test_a_registry_without_a_glossary_has_no_glossary_entries(tmp_path: Path) -> None:
    from ..conftest import make_project

    project = make_project(tmp_path / "p")
    registry = build.registry_for(config.load(cwd=project))
    assert registry.glossary == ()
    assert not [e for e in entries(registry, "docs") if e.context.startswith("glossary.")]
