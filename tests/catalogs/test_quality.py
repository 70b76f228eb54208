"""A second opinion on every PO file in the repository (issue 19): GNU msgfmt's checks, and
translate-toolkit's pofilter, whose findings are fixed or allowed with a reason in
pofilter-allow.yaml. The files are found by pattern, so a new language is checked in full."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
import yaml

from ..conftest import MSGFMT, ROOT

ALLOW = Path(__file__).with_name("pofilter-allow.yaml")
PATTERNS = (
    "locales/*/LC_MESSAGES/*.po",
    "templates/site/i18n/*.po",
    "examples/*/locales/*/LC_MESSAGES/*.po",
)
PO_FILES = sorted({path for pattern in PATTERNS for path in ROOT.glob(pattern)})


def _name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _language(path: Path) -> str:
    """The file's language: its folder under locales/, or its name under i18n/."""
    return path.stem if path.parent.name == "i18n" else path.parent.parent.name


def test_every_kind_of_po_file_is_found() -> None:
    names = [_name(path) for path in PO_FILES]
    assert any(name.startswith("locales/") for name in names)
    assert any(name.startswith("templates/site/i18n/") for name in names)


@pytest.mark.skipif(MSGFMT is None, reason="GNU gettext's msgfmt is not installed")
@pytest.mark.parametrize("path", PO_FILES, ids=_name)
def test_msgfmt_checks_every_po_file_without_a_warning(path: Path) -> None:
    result = subprocess.run(
        [str(MSGFMT), "--check", "--check-format", "-o", "/dev/null", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (result.returncode, result.stderr) == (0, ""), result.stderr


Finding = tuple[str, str, str]  # file, entry (msgctxt, else msgid), check


def _pofilter(path: Path, not_run: set[str]) -> dict[Finding, str]:
    """pofilter's standard checks on the translated, non-fuzzy entries of one file (what
    errorbook ships), with ``{name}`` taken as a placeholder in python-brace-format entries
    as GNU and errorbook take it."""
    checks = pytest.importorskip("translate.filters.checks")
    factory = pytest.importorskip("translate.storage.factory")
    language = _language(path)
    excluded = dict.fromkeys(not_run, True)

    def checker(braces: bool) -> object:
        config = checks.CheckerConfig(
            targetlanguage=language, varmatches=[("{", "}")] if braces else []
        )
        return checks.StandardChecker(checkerconfig=config, excludefilters=excluded)

    plain, brace = checker(False), checker(True)
    found: dict[Finding, str] = {}
    for unit in factory.getobject(str(path)).units:
        if unit.isheader() or unit.isfuzzy() or not unit.istranslated():
            continue
        flags = "".join(getattr(unit, "typecomments", []))  # the unit's '#,' lines
        use = brace if "python-brace-format" in flags else plain
        entry = unit.getcontext() or str(unit.source)
        for check, info in use.run_filters(unit).items():  # type: ignore[attr-defined]
            found[(_name(path), entry, check)] = str(
                info.get("message") if isinstance(info, dict) else info
            )
    return found


def test_pofilter_finds_nothing_the_allow_list_does_not_explain() -> None:
    allow = yaml.safe_load(ALLOW.read_text("utf-8"))
    not_run = set(allow["not_run"])
    languages: dict[str, dict[str, str]] = allow["languages"]
    for reasons in [allow["not_run"], *languages.values()]:
        assert all(isinstance(reason, str) and reason.strip() for reason in reasons.values())
    allowed: dict[Finding, str] = {}
    for item in allow["entries"]:
        key = (item["file"], item["entry"], item["check"])
        assert key not in allowed, f"allowed twice: {key}"
        assert str(item.get("reason", "")).strip(), f"no reason given for {key}"
        allowed[key] = item["reason"]
    found: dict[Finding, str] = {}
    for path in PO_FILES:
        found.update(_pofilter(path, not_run))
    unexplained = [
        f"- file: {file}\n  entry: {entry}\n  check: {check}\n  # pofilter: {found[key]}"
        for key in sorted(found)
        for file, entry, check in [key]
        if key not in allowed and check not in languages.get(_language(ROOT / file), {})
    ]
    assert not unexplained, (
        "pofilter found these; fix the translation, or allow the finding with its reason in "
        f"{ALLOW.name}:\n" + "\n".join(unexplained)
    )
    stale = sorted(key for key in allowed if key not in found)
    assert not stale, f"{ALLOW.name} allows findings pofilter no longer makes: {stale}"
