"""Codes are forever: diffs between registry versions, version discipline, lifecycle, usage."""

from __future__ import annotations

import json
import subprocess
import warnings
from collections.abc import Callable
from pathlib import Path

import pytest

from generator.registry import compat
from generator.registry.validate import load_registry_text

from ..conftest import MINIMAL, ROOT, Run, make_project
from ..emit.test_emit_python import load_module

BASE = MINIMAL  # version 1.2.0: DOOR_CLOSED (protocol), ITEMS_REFUSED (action, plural)


def registry(text: str, name: str = "codes.yaml"):
    return load_registry_text(text, name)


def changes(old: str, new: str) -> list[compat.Change]:
    return compat.diff(registry(old), registry(new))


def bump(text: str, version: str) -> str:
    return text.replace("version: 1.2.0", f"version: {version}", 1)


def _with_new_code(since: str) -> str:
    """BASE with one more code, NEW_ONE, which says it is ``since`` that version."""
    return BASE.replace(
        "limits:\n",
        "  NEW_ONE:\n    layer: front\n    message: N.\n"
        "    meaning: N.\n    recovery: {kind: fix_client, steps: [N.]}\n"
        "    retry: {policy: never}\n    http: 400\n    jsonrpc: -32054\n"
        f"    since: {since}\nlimits:\n",
        1,
    )


def place(text: str, needle: str, skip: int = 0) -> str:
    """``line:column`` of the character ``skip`` after the start of ``needle`` in ``text``."""
    at = text.index(needle) + skip
    return f"{text.count(chr(10), 0, at) + 1}:{at - text.rfind(chr(10), 0, at)}"


Edit = Callable[[str], str]

BREAKING: dict[str, tuple[Edit, str, str]] = {
    "removed code": (
        lambda t: (
            t[: t.index("  DOOR_CLOSED:")]
            + t[t.index("  ITEMS_REFUSED:") :].replace("    related: [DOOR_CLOSED]\n", "")
        ),
        "code",
        "removed",
    ),
    "renamed code": (lambda t: t.replace("DOOR_CLOSED", "DOOR_SHUT"), "code", "removed"),
    "changed layer": (
        lambda t: t.replace(
            "layer: front\n",
            "layer: inner\n    shape: protocol\n    shape_reason: Kept as it was.\n",
            1,
        ),
        "code",
        "changed",
    ),
    "changed shape": (
        lambda t: t.replace(
            "    related: [DOOR_CLOSED]\n",
            "    related: [DOOR_CLOSED]\n    shape: protocol\n"
            "    shape_reason: Moved.\n    http: 409\n"
            "    jsonrpc: -32051\n",
        ),
        "code",
        "changed",
    ),
    "renamed placeholder": (
        lambda t: t.replace("{who}", "{by}").replace("      who:", "      by:"),
        "code",
        "changed",
    ),
    "changed http": (lambda t: t.replace("http: 403", "http: 401"), "code", "changed"),
    "changed jsonrpc": (
        lambda t: t.replace("jsonrpc: -32050", "jsonrpc: -32052"),
        "code",
        "changed",
    ),
    "changed limit unit": (
        lambda t: t.replace("unit: attempts", "unit: tries"),
        "limit",
        "changed",
    ),
    "narrowed limit range": (lambda t: t.replace("max: 5", "max: 4"), "limit", "changed"),
    # Facts of every wire: ErrorInfo's domain, a problem's type, the gRPC status, the type
    # of a value callers pass, the wires a registry maps onto.
    "added error_domain": (
        lambda t: t.replace(DOCS, DOCS + "  error_domain: doors.example\n"),
        "registry",
        "changed",
    ),
    "changed docs_url": (
        lambda t: t.replace(DOCS, DOCS.replace("docs.example.org", "help.example.org")),
        "registry",
        "changed",
    ),
    "changed grpc": (
        lambda t: t.replace("http: 403\n", "http: 403\n    grpc: FAILED_PRECONDITION\n"),
        "code",
        "changed",
    ),
    "changed grpc through http": (
        lambda t: t.replace("http: 403", "http: 404"),
        "code",
        "changed",
    ),
    "changed placeholder type": (
        lambda t: t.replace(
            "who: {description: Who refused., example: the page}",
            "who: {description: Who refused., example: 3, type: integer}",
        ),
        "code",
        "changed",
    ),
    "removed wire": (
        lambda t: t.replace("wires: [http, jsonrpc]", "wires: [http]").replace(
            "    jsonrpc: -32050\n", ""
        ),
        "registry",
        "changed",
    ),
    "removed adapter": (
        lambda t: (
            t[: t.index("adapters:")] + "adapters:\n  http:\n    title: H\n"
            "    description: D.\n    protocol: P.\n    action: A.\n"
        ),
        "adapter",
        "removed",
    ),
}


@pytest.mark.parametrize("case", sorted(BREAKING))
def test_each_breaking_rule_fires(case: str) -> None:
    edit, entity, kind = BREAKING[case]
    found = changes(BASE, edit(BASE))
    breaking = [c for c in found if c.severity == "breaking"]
    assert breaking, found
    assert any(c.entity == entity and c.kind == kind for c in breaking), breaking
    assert all(c.reason for c in found)
    assert compat.required_version("1.2.0", found) == "2.0.0"


DOCS = "  docs_url: https://docs.example.org/errors/\n"


def test_each_wire_fact_is_reported_with_its_field() -> None:
    fields = {
        "added error_domain": ("error_domain", "demo", "doors.example"),
        "changed grpc": ("grpc", "PERMISSION_DENIED", "FAILED_PRECONDITION"),
        "changed grpc through http": ("grpc", "PERMISSION_DENIED", "NOT_FOUND"),
        "changed placeholder type": (
            "placeholders",
            "count integer, who text",
            "count integer, who integer",
        ),
        "removed wire": ("wires", "http, jsonrpc", "http"),
    }
    for case, (field, old, new) in fields.items():
        found = changes(BASE, BREAKING[case][0](BASE))
        assert any(
            (c.severity, c.field, c.old, c.new) == ("breaking", field, old, new) for c in found
        ), (case, found)


def test_guidance_for_models_and_a_codes_limits_are_reported_as_what_they_are() -> None:
    """agent_hint reaches MCP and tool results: reworded, it is reported (cosmetic, like
    all prose); a code's limits are reported as limits, not as related codes."""
    hinted = BASE.replace("    http: 403\n", "    http: 403\n    agent_hint: Knock first.\n")
    found = changes(BASE, hinted)
    assert [(c.severity, c.field, c.new) for c in found] == [
        ("cosmetic", "agent_hint", "Knock first.")
    ]
    limited = BASE.replace("    http: 403\n", "    http: 403\n    limits: [attempts]\n")
    found = changes(BASE, limited)
    assert [(c.severity, c.field, c.new) for c in found] == [("cosmetic", "limits", "attempts")]
    added = changes(BASE, BASE.replace("wires: [http, jsonrpc]", "wires: [http, jsonrpc]"))
    assert added == []


def test_a_title_added_or_reworded_is_cosmetic() -> None:
    """A title is a summary for people: no client may branch on a problem's title."""
    titled = BASE.replace(
        "    message: The door is closed.\n",
        "    message: The door is closed.\n    title: Door closed\n",
    )
    added = changes(BASE, titled)
    assert [(c.severity, c.field, c.old, c.new) for c in added] == [
        ("cosmetic", "title", "none given", "Door closed")
    ]
    reworded = changes(titled, titled.replace("title: Door closed", "title: Door shut"))
    assert [(c.severity, c.field, c.old, c.new) for c in reworded] == [
        ("cosmetic", "title", "Door closed", "Door shut")
    ]
    assert compat.required_version("1.2.0", reworded) == "1.2.1"


def test_a_rename_is_named_as_such() -> None:
    found = changes(BASE, BREAKING["renamed code"][0](BASE))
    removed = next(c for c in found if c.kind == "removed")
    assert removed.name == "DOOR_CLOSED" and "renamed to DOOR_SHUT?" in removed.reason


def test_a_declared_rename_is_shown_as_one() -> None:
    renamed = BASE.replace("related: [DOOR_CLOSED]", "related: [DOOR_SHUT]").replace(
        "  DOOR_CLOSED:\n", "  DOOR_SHUT:\n    renamed_from: DOOR_CLOSED\n"
    )
    found = changes(BASE, renamed)
    gone = next(c for c in found if c.name == "DOOR_CLOSED")
    assert (gone.kind, gone.severity, gone.old, gone.new) == (
        "renamed",
        "breaking",
        "DOOR_CLOSED",
        "DOOR_SHUT",
    )
    added = next(c for c in found if c.name == "DOOR_SHUT")
    assert (added.kind, added.reason) == ("added", "the new name of DOOR_CLOSED")
    assert compat.required_version("1.2.0", found) == "2.0.0"


def test_rewording_is_cosmetic_and_adding_is_compatible() -> None:
    reworded = changes(BASE, BASE.replace("The door is closed.", "The door is shut."))
    assert [(c.severity, c.field) for c in reworded] == [("cosmetic", "message")]
    assert compat.required_version("1.2.0", reworded) == "1.2.1"
    added = BASE.replace(
        "limits:\n",
        "  DOOR_LOCKED:\n    layer: front\n    message: Locked.\n"
        "    meaning: Locked.\n    recovery: {kind: fix_client, steps: [Wait.]}\n"
        "    retry: {policy: never}\n    http: 423\n    jsonrpc: -32053\n"
        "    since: 1.3.0\nlimits:\n",
        1,
    )
    found = changes(BASE, bump(added, "1.3.0"))
    assert [(c.severity, c.kind, c.name) for c in found] == [("compatible", "added", "DOOR_LOCKED")]


DEPRECATE = (
    "    since: 1.0.0\n",
    "    since: 1.0.0\n    deprecated: {since: 1.3.0, "
    "replaced_by: ITEMS_REFUSED, reason: Doors are items now.}\n",
)
RETIRE = (
    "    since: 1.0.0\n",
    "    since: 1.0.0\n    deprecated: {since: 1.3.0, "
    "replaced_by: ITEMS_REFUSED}\n    retired: {since: 1.4.0}\n",
)


def test_deprecating_then_retiring_passes_with_the_right_bumps(run: Run, tmp_path: Path) -> None:
    root = make_project(tmp_path / "p", BASE)
    (root / "v1.yaml").write_text(BASE, "utf-8")
    deprecated = bump(BASE.replace(*DEPRECATE), "1.3.0")
    (root / "v2.yaml").write_text(deprecated, "utf-8")
    retired = bump(BASE.replace(*RETIRE), "1.4.0")
    (root / "codes.yaml").write_text(retired, "utf-8")
    assert run("generate", cwd=root).code == 0
    # v1 -> v2: a deprecation, compatible, with a minor bump.
    result = run("diff", "v1.yaml", "v2.yaml", cwd=root)
    assert result.code == 0 and "compatible deprecated code DOOR_CLOSED" in result.out
    # v2 -> now: a retirement of a deprecated code, compatible, with a minor bump.
    assert run("check", "--against", "v2.yaml", cwd=root).code == 0
    # The same retirement with only a patch bump fails and says which version is needed.
    patch = bump(BASE.replace(*RETIRE), "1.3.1").replace(
        "retired: {since: 1.4.0}", "retired: {since: 1.3.1}"
    )
    (root / "codes.yaml").write_text(patch, "utf-8")
    assert run("generate", cwd=root).code == 0
    late = run("check", "--against", "v2.yaml", cwd=root)
    assert late.code == 1
    assert (
        f"codes.yaml:{place(patch, 'version: 1.3.1', 9)}: error: the changes since 1.3.0 are "
        "compatible, so the registry needs version 1.4.0 or later, not 1.3.1 "
        "(set registry.version: 1.4.0) [E-VERSION-BEHIND]\n"
    ) in late.err


def test_deprecation_then_retirement_seen_in_one_diff_is_compatible() -> None:
    """From a version before both steps: deprecated in 1.3.0, retired in 1.4.0."""
    found = changes(BASE, bump(BASE.replace(*RETIRE), "1.4.0"))
    assert [(c.severity, c.kind) for c in found] == [
        ("compatible", "deprecated"),
        ("compatible", "retired"),
    ]
    # Deprecated and retired in the same release: no release ever warned.
    same = BASE.replace(*RETIRE).replace("deprecated: {since: 1.3.0", "deprecated: {since: 1.4.0")
    assert ("breaking", "retired") in [
        (c.severity, c.kind) for c in changes(BASE, bump(same, "2.0.0"))
    ]
    # A deprecation dated back to 1.1.0, before OLD (1.2.0), which OLD does not have: never
    # released, so the retirement warned no one.
    backdated = BASE.replace(*RETIRE).replace(
        "deprecated: {since: 1.3.0", "deprecated: {since: 1.1.0"
    )
    kinds = [(c.severity, c.kind) for c in changes(BASE, bump(backdated, "2.0.0"))]
    assert ("breaking", "retired") in kinds


def test_retiring_without_deprecation_is_breaking() -> None:
    found = changes(
        BASE,
        bump(
            BASE.replace("    since: 1.0.0\n", "    since: 1.0.0\n    retired: {since: 2.0.0}\n"),
            "2.0.0",
        ),
    )
    assert [(c.severity, c.kind) for c in found] == [("breaking", "retired")]


def test_reusing_a_retired_name_is_breaking() -> None:
    retired = bump(BASE.replace(*RETIRE), "1.4.0")
    found = changes(retired, bump(BASE, "1.5.0"))
    assert any(c.kind == "reused" and c.severity == "breaking" for c in found)


def test_breaking_changes_need_a_major_bump(run: Run, tmp_path: Path) -> None:
    root = make_project(tmp_path / "p", BASE.replace("http: 403", "http: 401"))
    (root / "old.yaml").write_text(BASE, "utf-8")
    assert run("generate", cwd=root).code == 0
    result = run("check", "--against", "old.yaml", cwd=root)
    assert result.code == 1
    assert (
        f"codes.yaml:{place(BASE, 'version: 1.2.0', 9)}: error: the changes since 1.2.0 are "
        "breaking, so the registry needs version 2.0.0 or later, not 1.2.0 "
        "(set registry.version: 2.0.0) [E-VERSION-BEHIND]"
    ) in result.err
    report = json.loads(run("check", "--against", "old.yaml", "--format", "json", cwd=root).out)
    line, column = place(BASE, "version: 1.2.0", 9).split(":")
    assert {
        "id": "E-VERSION-BEHIND",
        "path": "codes.yaml",
        "line": int(line),
        "column": int(column),
        "severity": "error",
        "message": "the changes since 1.2.0 are breaking, so the registry needs version "
        "2.0.0 or later, not 1.2.0",
        "hint": "set registry.version: 2.0.0",
    } in report["problems"]
    assert report["ok"] is False and len(report["against"]["version_problems"]) == 1
    diff = run("diff", "old.yaml", cwd=root)
    assert diff.code == 1
    assert "! breaking   changed    code DOOR_CLOSED http: 403 -> 401" in diff.out


def test_a_new_code_must_say_since_the_new_version() -> None:
    """At the value to change: the code's since line (it was the code's name)."""
    added = bump(
        _with_new_code("1.2.0"),
        "1.3.0",
    )
    old, new = registry(BASE), registry(added)
    problems = compat.version_problems(old, new, compat.diff(old, new))
    since = place(added, "since: 1.2.0\nlimits:", len("since: "))
    assert [item.render(with_id=True) for item in problems.sorted()] == [
        f"codes.yaml:{since}: error: code NEW_ONE is new in 1.3.0 but "
        "says since 1.2.0 (set since: 1.3.0) [E-VERSION-SINCE-NEW]"
    ]


def test_diff_formats(run: Run, tmp_path: Path) -> None:
    root = make_project(tmp_path / "p", BASE.replace("The door is closed.", "Shut | *x*"))
    (root / "old.yaml").write_text(BASE, "utf-8")
    data = json.loads(run("diff", "old.yaml", "--format", "json", cwd=root).out)
    assert set(data) == {
        "old",
        "new",
        "breaking",
        "required_version",
        "version_problems",
        "changes",
    }
    assert data["changes"][0] == {
        "entity": "code",
        "name": "DOOR_CLOSED",
        "kind": "changed",
        "severity": "cosmetic",
        "reason": "UI copy only; translations become fuzzy",
        "field": "message",
        "old": "The door is closed.",
        "new": "Shut | *x*",
    }
    markdown = run("diff", "old.yaml", "--format", "markdown", cwd=root).out
    assert markdown.startswith("### Registry changes: 1.2.0 → 1.2.0")
    assert "| cosmetic | code <code>DOOR&#95;CLOSED</code> (message) |" in markdown
    cells = markdown_cells(markdown)
    assert cells[0][2] == "changed: The door is closed. → Shut | *x*"  # one cell, as text


def git(root: Path, *args: str) -> None:
    subprocess.run(
        ["git", *args],
        cwd=root,
        check=True,
        capture_output=True,
        env={
            "GIT_AUTHOR_NAME": "t",
            "GIT_AUTHOR_EMAIL": "t@example.org",
            "GIT_COMMITTER_NAME": "t",
            "GIT_COMMITTER_EMAIL": "t@example.org",
            "HOME": str(root),
            "PATH": "/usr/bin:/bin",
        },
    )


def test_diff_reads_git_revisions(run: Run, tmp_path: Path) -> None:
    root = make_project(tmp_path / "repo", BASE)
    git(root, "init", "-q")
    git(root, "add", "codes.yaml", "pyproject.toml")
    git(root, "commit", "-q", "-m", "v1")
    (root / "codes.yaml").write_text(BASE.replace("http: 403", "http: 401"), "utf-8")
    git(root, "commit", "-q", "-am", "v2")
    result = run("diff", "HEAD~1", "HEAD", cwd=root)
    assert result.code == 1 and result.out.startswith(
        "HEAD~1:codes.yaml (1.2.0) -> HEAD:codes.yaml (1.2.0): 2 breaking"  # http, so grpc
    )
    assert run("diff", "HEAD", cwd=root).out.endswith("no changes\nrequired version: 1.2.0\n")
    unknown = run("diff", "no-such-tag", cwd=root)
    assert unknown.code == 2 and "cannot read codes.yaml at 'no-such-tag'" in unknown.err
    # A mistyped file name reads as a revision too: the message says it is neither.
    missing = run("diff", "old/codes.yaml", cwd=root)
    assert missing.code == 2
    assert "'old/codes.yaml' is neither a file nor a git revision" in missing.err
    # A version that does not fit is a warning here (check --against fails on it), exit 0.
    head = BASE.replace("http: 403", "http: 401")
    (root / "codes.yaml").write_text(head.replace("The door", "This door"), "utf-8")
    cosmetic = run("diff", "HEAD", cwd=root)
    assert cosmetic.code == 0, cosmetic.out
    assert (
        f"\ncodes.yaml:{place(BASE, 'version: 1.2.0', 9)}: warning: the changes since 1.2.0 "
        "are cosmetic, so the registry needs version 1.2.1 or later, not 1.2.0 "
        "(set registry.version: 1.2.1)\n"
    ) in cosmetic.out


def test_a_version_that_goes_back_is_named_as_such(run: Run, tmp_path: Path) -> None:
    """Compared with a newer revision of the same codes, the version went back: there is
    no kind of change to name (it printed 'the changes since 1.3.0 are None')."""
    root = make_project(tmp_path / "p", BASE)
    (root / "newer.yaml").write_text(bump(BASE, "1.3.0"), "utf-8")
    assert run("generate", cwd=root).code == 0
    result = run("check", "--against", "newer.yaml", cwd=root)
    assert result.code == 1
    assert (
        f"codes.yaml:{place(BASE, 'version: 1.2.0', 9)}: error: the registry's version 1.2.0 "
        "is lower than 1.3.0, the version it is compared with; a version never goes back "
        "(set registry.version: 1.3.0) [E-VERSION-BEHIND]\n"
    ) in result.err
    assert "None" not in result.err
    markdown = run("diff", "newer.yaml", "--format", "markdown", cwd=root).out
    assert "\nNo changes. Required version: **1.3.0**.\n" in markdown


def test_diff_shows_the_one_value_a_code_added_has(run: Run, tmp_path: Path) -> None:
    """A code added has a new value and no old one: no empty quotes, no arrow from nothing."""
    added = bump(
        _with_new_code("1.3.0"),
        "1.3.0",
    )
    root = make_project(tmp_path / "p", added)
    (root / "old.yaml").write_text(BASE, "utf-8")
    text = run("diff", "old.yaml", cwd=root).out
    assert "added      code NEW_ONE since: 1.3.0\n" in text  # was "since:  -> 1.3.0"
    markdown = run("diff", "old.yaml", "--format", "markdown", cwd=root).out
    assert "| added: <code>1.3.0</code> |" in markdown


def test_diff_works_in_this_repository() -> None:
    if subprocess.run(["git", "rev-parse", "HEAD~1"], cwd=ROOT, capture_output=True).returncode:
        pytest.skip("a shallow clone has no HEAD~1")
    result = subprocess.run(
        [str(ROOT / ".venv" / "bin" / "errorbook"), "diff", "HEAD~1", "HEAD", "--format", "json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode in (0, 1), result.stderr
    assert json.loads(result.stdout)["new"]["source"] == "HEAD:codes.yaml"


def test_retired_codes_keep_their_page_explain_and_constant(run: Run, tmp_path: Path) -> None:
    text = bump(BASE.replace(*RETIRE), "1.4.0").replace(
        "package: demo_errors", "package: life_errors"
    )
    root = make_project(tmp_path / "p", text)
    (root / "pyproject.toml").write_text(
        "[tool.errorbook]\nregistry = 'codes.yaml'\nsite = 'site'\n", "utf-8"
    )
    assert run("generate", cwd=root).code == 0
    page = (root / "site/docs/en/codes/door_closed.md").read_text("utf-8")
    assert '!!! danger "Retired since 1.4.0"' in page
    table = (root / "site/docs/en/codes/index.md").read_text("utf-8")
    assert "[DOOR\\_CLOSED](door_closed.md) (retired)" in table
    explained = run("explain", "DOOR_CLOSED", cwd=root).out
    assert "Status:   RETIRED since 1.4.0" in explained
    assert json.loads(run("explain", "DOOR_CLOSED", "--format", "json", cwd=root).out)[
        "retired"
    ] == {"since": "1.4.0", "reason": None}
    changelog = (root / "site/docs/en/changelog/1.4.0.md").read_text("utf-8")
    assert "[DOOR\\_CLOSED](../codes/door_closed.md)" in changelog
    module = load_module(root / "life_errors", "life_errors")
    assert module.ErrorCode.DOOR_CLOSED.value == "DOOR_CLOSED"
    assert module.CODES[module.ErrorCode.DOOR_CLOSED].retired_since == "1.4.0"
    with pytest.raises(module.RetiredCode, match=r"retired since 1\.4\.0"):
        module.failure("DOOR_CLOSED")
    # Old envelopes with the code still classify as what they are.
    old = module.classify({"ok": False, "error": {"code": "DOOR_CLOSED"}})
    assert old.code is module.ErrorCode.DOOR_CLOSED


def test_deprecated_codes_warn_when_built(run: Run, tmp_path: Path) -> None:
    text = bump(BASE.replace(*DEPRECATE), "1.3.0").replace(
        "package: demo_errors", "package: old_errors"
    )
    root = make_project(tmp_path / "p", text)
    assert run("generate", cwd=root).code == 0
    module = load_module(root / "old_errors", "old_errors")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module.failure("DOOR_CLOSED")
    assert [str(w.message) for w in caught] == [
        "DOOR_CLOSED is deprecated since 1.3.0; use ITEMS_REFUSED"
    ]


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            ("    since: 1.0.0\n", "    since: 1.0.0\n    deprecated: {since: 0.9.0}\n"),
            "code DOOR_CLOSED is deprecated since 0.9.0, before it was introduced (1.0.0)",
        ),
        (
            (
                "    since: 1.0.0\n",
                "    since: 1.0.0\n    deprecated: {since: 1.1.0, replaced_by: NOPE}\n",
            ),
            "code DOOR_CLOSED names code 'NOPE' in 'replaced_by', but no such code is defined",
        ),
        (
            (
                "    since: 1.0.0\n",
                "    since: 1.0.0\n    deprecated: {since: 1.1.0}\n    retired: {since: 1.0.5}\n",
            ),
            "code DOOR_CLOSED is retired since 1.0.5, before it was deprecated (1.1.0)",
        ),
        (
            ("    since: 1.0.0\n", "    since: 1.0.0\n    retired: {since: 3.0.0}\n"),
            "code DOOR_CLOSED is retired since 3.0.0, after the registry's version 1.2.0",
        ),
    ],
)
def test_lifecycle_dates_are_checked(edit: tuple[str, str], message: str) -> None:
    from generator.diagnostics import InvalidInput

    with pytest.raises(InvalidInput) as info:
        registry(BASE.replace(*edit))
    assert message in info.value.diagnostics.render()


APP = """\
from demo_errors import ErrorCode, classify, failure


def handle(envelope):
    outcome = classify(envelope)
    if outcome.code is ErrorCode.DOOR_CLOSED:
        return "closed"
    if outcome.raw_code == "DOOR_OPENED":  # not compared with .code: not a use
        return "?"
    if envelope["error"]["code"] in ("DOOR_JAMMED", "DOOR_CLOSED"):
        return "jammed"
    return failure("DOOR_CLOSED")
"""


def test_usage_finds_undefined_and_unused_codes(run: Run, tmp_path: Path) -> None:
    root = make_project(tmp_path / "p", BASE)
    assert run("generate", cwd=root).code == 0
    (root / "app").mkdir()
    (root / "app" / "main.py").write_text(APP, "utf-8")
    (root / "app" / "broken.py").write_text("def (:\n", "utf-8")
    result = run("usage", "app", cwd=root)
    assert result.code == 1
    assert (
        "app/main.py:10:38: error: 'DOOR_JAMMED' is not a code of codes.yaml (compared with "
        ".code; did you mean 'DOOR_CLOSED'?)\n"
    ) in result.out
    line = BASE.splitlines().index("  ITEMS_REFUSED:") + 1
    assert (
        f"codes.yaml:{line}:3: error: ITEMS_REFUSED is never used in 2 scanned files" in result.out
    )
    assert "app/broken.py:1:5: error: cannot parse" in result.out
    assert "DOOR_OPENED" not in result.out
    data = json.loads(run("usage", "app", "--format", "json", cwd=root).out)
    assert [u["name"] for u in data["undefined"]] == ["DOOR_JAMMED"]
    assert data["unused"] == ["ITEMS_REFUSED"]
    (root / "app" / "broken.py").unlink()
    (root / "app" / "main.py").write_text(APP.replace("DOOR_JAMMED", "ITEMS_REFUSED"), "utf-8")
    clean = run("usage", "app", cwd=root)
    assert clean.code == 0
    assert clean.out.endswith("1 file scanned: 0 undefined, 0 unused, 0 deprecated uses\n")
    assert run("usage", "nowhere", cwd=root).code == 2


def test_usage_reads_long_and_deep_expressions(run: Run, tmp_path: Path) -> None:
    """One expression of 600 strings joined by '+' made usage exit 70 (RecursionError): a
    long expression is read, and one too deep for Python's own parser is a problem of its
    file, reported at its place, while the other files are still scanned."""
    root = make_project(tmp_path / "p", BASE)
    assert run("generate", cwd=root).code == 0
    (root / "app").mkdir()
    terms = " + ".join(['"a"'] * 600)
    (root / "app" / "long.py").write_text(
        f"x = {terms}\nif e.code == 'DOOR_JAMMED':\n    pass\n", "utf-8"
    )
    deep = "x = " + "(" * 5000 + "1" + ")" * 5000 + "\n"
    (root / "app" / "deep.py").write_text(deep, "utf-8")
    wide = "x = " + "-" * 200_000 + "1\n"
    (root / "app" / "wide.py").write_text(wide, "utf-8")
    result = run("usage", "app", cwd=root)
    assert result.code == 1, result.err
    assert "internal error" not in result.err and "Traceback" not in result.err
    assert "app/long.py:2:14: error: 'DOOR_JAMMED' is not a code" in result.out, result.out
    assert "app/deep.py:1:" in result.out and "app/wide.py:1:" in result.out, result.out


def test_usage_columns_count_characters_not_bytes(run: Run, tmp_path: Path) -> None:
    """ast counts UTF-8 bytes; an editor, and every other diagnostic here, characters."""
    root = make_project(tmp_path / "p", BASE)
    assert run("generate", cwd=root).code == 0
    (root / "app").mkdir()
    line = 'label = "Tür € 😀"; jammed = result.code == "DOOR_JAMMED"'
    (root / "app" / "main.py").write_text(f"result = None\n{line}\n", "utf-8")
    out = run("usage", "app", cwd=root).out
    column = line.index('"DOOR_JAMMED"') + 1  # 6 more in bytes
    assert f"app/main.py:2:{column}: error: 'DOOR_JAMMED'" in out, out


def test_check_against_reports_the_version_when_outputs_are_stale_too(
    run: Run, tmp_path: Path
) -> None:
    """Both problems at once: stale outputs do not hide the version the changes need."""
    root = make_project(tmp_path / "p", BASE.replace("http: 403", "http: 401"))
    (root / "old.yaml").write_text(BASE, "utf-8")
    result = run("check", "--against", "old.yaml", cwd=root)  # nothing generated yet
    assert result.code == 1
    assert "run `errorbook generate` to update" in result.out
    assert "needs version 2.0.0 or later, not 1.2.0" in result.err
    # nor does a PO file that cannot be read
    assert run("generate", cwd=root).code == 0
    path = root / "locales" / "de" / "LC_MESSAGES" / "messages.po"
    path.write_text(path.read_text("utf-8") + "\nnonsense\n", "utf-8")
    unreadable = run("check", "--against", "old.yaml", cwd=root)
    assert unreadable.code == 1
    assert "unknown keyword 'nonsense'" in unreadable.err
    assert "needs version 2.0.0 or later, not 1.2.0" in unreadable.err


def test_a_shape_moved_to_the_other_envelope_breaks_its_codes() -> None:
    wireless = BASE.replace("  wires: [http, jsonrpc]\n", "").replace(
        "    http: 403\n    jsonrpc: -32050\n", ""
    )
    moved = wireless.replace("envelope: result\n", "envelope: ERROR\n")
    moved = moved.replace("envelope: error\n", "envelope: result\n").replace("ERROR", "error")
    found = [(c.entity, c.name, c.field, c.severity) for c in changes(wireless, moved)]
    assert ("shape", "protocol", "envelope", "breaking") in found
    assert ("shape", "action", "envelope", "breaking") in found


def test_a_revision_from_before_the_vocabulary_reads_with_the_working_one(
    run: Run, tmp_path: Path
) -> None:
    """A codes.yaml written before registries declared actors, shapes, recovery kinds and
    wires is compared with the working registry's vocabulary: no change is reported for the
    move itself, and a real change is still found."""
    root = make_project(tmp_path / "p", BASE)
    start = BASE.index("  wires: [http, jsonrpc]\n")
    old = BASE[:start] + BASE[BASE.index("layers:\n") :]
    old = old.replace("  wires: [http, jsonrpc]\n", "")
    (root / "old.yaml").write_text(old, "utf-8")
    result = run("diff", "old.yaml", cwd=root)
    assert result.code == 0 and "no changes" in result.out, result.out + result.err
    (root / "old.yaml").write_text(old.replace("http: 403", "http: 401"), "utf-8")
    result = run("diff", "old.yaml", "--format", "json", cwd=root)
    changed = json.loads(result.out)["changes"]
    assert [(c["name"], c["field"], c["new"]) for c in changed] == [
        ("DOOR_CLOSED", "http", "403"),
        ("DOOR_CLOSED", "grpc", "PERMISSION_DENIED"),  # the status derived from the HTTP one
    ]


def test_a_value_a_code_no_longer_gives_is_shown_as_such() -> None:
    """diff printed 'since: 1.0.0 -> ' (blank) for a since left out, and the same for a
    transport number dropped with its wire."""
    without = BASE.replace("    since: 1.0.0\n  ITEMS_REFUSED:", "  ITEMS_REFUSED:", 1)
    [change] = [c for c in changes(BASE, without) if c.field == "since"]
    assert (change.old, change.new) == ("1.0.0", "none given")


def test_a_revision_from_before_the_vocabulary_is_not_held_to_its_later_rules(
    run: Run, tmp_path: Path
) -> None:
    """The working registry's recovery kinds may say which retry policies they fit, a rule
    the old revision was never written under: lent to it, they lend their words, not that
    rule (diff failed with E-RECOVERY-RETRY-CONTRADICTS at the old file's code, citing a
    line of the working file)."""
    working = BASE.replace(
        "  ask_user: {summary: Ask the person.}\n",
        "  ask_user: {summary: 'Ask the person, then retry.', retry: [bounded]}\n",
    )
    root = make_project(tmp_path / "p", working)
    start = BASE.index("  wires: [http, jsonrpc]\n")
    old = BASE[:start] + BASE[BASE.index("layers:\n") :]
    old = old.replace("  wires: [http, jsonrpc]\n", "")
    old = old.replace("retry: {policy: bounded, limit: attempts}", "retry: {policy: never}")
    assert old != BASE
    (root / "old.yaml").write_text(old, "utf-8")
    result = run("diff", "old.yaml", "--format", "json", cwd=root)
    assert result.code == 0, result.err
    changed = json.loads(result.out)["changes"]
    assert ("ITEMS_REFUSED", "retry") in {(c["name"], c["field"]) for c in changed}, changed
    # A registry that declares the rule itself is still held to it.
    never = working.replace("retry: {policy: bounded, limit: attempts}", "retry: {policy: never}")
    (root / "codes.yaml").write_text(never, "utf-8")
    result = run("validate", cwd=root)
    assert result.code == 1 and "E-RECOVERY-RETRY-CONTRADICTS" in result.err, result.err


def test_diff_refuses_an_empty_revision_and_reads_a_file_within_the_bound(
    run: Run, tmp_path: Path
) -> None:
    """`diff ''` compared with git's index (":codes.yaml"); a file side was read whole,
    whatever its size, where every other input is bounded by max-input-mib."""
    root = make_project(tmp_path / "p", BASE)
    result = run("diff", "", cwd=root)
    assert result.code == 2 and "a file or a git revision" in result.err, result.err
    big = root / "big.yaml"
    big.write_bytes(b"# " + b"x" * (2 * 1024 * 1024) + b"\n")
    (root / "pyproject.toml").write_text(
        "[tool.errorbook]\nregistry = 'codes.yaml'\nmax-input-mib = 1\n", "utf-8"
    )
    result = run("diff", "big.yaml", cwd=root)
    assert result.code != 0 and "internal error" not in result.err, result.err
    assert "big.yaml" in result.err and "MiB" in result.err, result.err


def test_a_revision_that_looks_like_an_option_is_refused(run: Run, tmp_path: Path) -> None:
    """`git show --output=FILE:codes.yaml` wrote a file wherever the user can write: a
    revision that starts with '-' reached git as an option."""
    root = make_project(tmp_path / "repo", BASE)
    git(root, "init", "-q")
    git(root, "add", "codes.yaml", "pyproject.toml")
    git(root, "commit", "-q", "-m", "v1")
    target = tmp_path / "planted"
    for command in (("diff", "--"), ("check", "--against")):
        result = run(*command, f"--output={target}", cwd=root)
        assert result.code == 2, (command, result.out, result.err)
        assert "internal error" not in result.err
        assert not list(tmp_path.glob("planted*")), command
    assert not list(root.glob("*:codes.yaml"))


def test_a_revision_is_read_within_the_bound(run: Run, tmp_path: Path) -> None:
    """A revision's registry was read whole, whatever its size: 200 MB took 830 MB."""
    root = make_project(tmp_path / "repo", BASE)
    (root / "pyproject.toml").write_text(
        "[tool.errorbook]\nregistry = 'codes.yaml'\nmax-input-mib = 1\n", "utf-8"
    )
    git(root, "init", "-q")
    (root / "codes.yaml").write_text(BASE + "#" + "x" * (2 * 1024 * 1024) + "\n", "utf-8")
    git(root, "add", "codes.yaml", "pyproject.toml")
    git(root, "commit", "-q", "-m", "big")
    (root / "codes.yaml").write_text(BASE, "utf-8")
    result = run("diff", "HEAD", cwd=root)
    assert result.code == 2, (result.out, result.err)
    assert "HEAD:codes.yaml" in result.err and "1 MiB" in result.err, result.err


def markdown_cells(markdown: str) -> list[list[str]]:
    """The text of each table cell as a CommonMark renderer with GitHub's tables shows it,
    after checking that no element but the table's and <code> appears."""
    from html.parser import HTMLParser

    from markdown_it import MarkdownIt

    html = MarkdownIt("commonmark").enable("table").render(markdown)
    rows: list[list[str]] = []
    inside = [False]

    class Cells(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            allowed = {"h3", "p", "strong", "table", "thead", "tbody", "tr", "th", "td", "code"}
            assert tag in allowed | {"ul", "li"} and not attrs, (tag, attrs, html)
            if tag == "tr":
                rows.append([])
            elif tag == "td":
                rows[-1].append("")
                inside[0] = True

        def handle_endtag(self, tag: str) -> None:
            inside[0] = inside[0] and tag != "td"

        def handle_data(self, data: str) -> None:
            if inside[0]:
                rows[-1][-1] += data

    Cells(convert_charrefs=True).feed(html)
    return [row for row in rows if row]


HOSTILE_VALUES = [
    "`![x](https://example.net/p.png)` <img src=x onerror=alert(1)>",
    "a | b `` c ``` d \\| e",
    "line one\n### a heading of my own\n| x | y |",
    "[link](javascript:alert(1)) *em* _u_ <b>b</b> &amp; \\ \t",
]


@pytest.mark.parametrize("value", HOSTILE_VALUES)
def test_diff_markdown_shows_any_value_as_text(run: Run, tmp_path: Path, value: str) -> None:
    """A backtick left the code span (images, raw HTML, links) and a line break ended the
    row: every value is text in one cell, whatever it holds."""
    new = BASE.replace("message: The door is closed.", "message: " + json.dumps(value))
    root = make_project(tmp_path / "p", new)
    (root / "old.yaml").write_text(BASE, "utf-8")
    markdown = run("diff", "old.yaml", "--format", "markdown", cwd=root).out
    (row,) = markdown_cells(markdown)
    shown = value.replace("\n", "\\n").replace("\t", "\\t")
    assert row[2] == "changed: The door is closed. → " + shown, markdown
