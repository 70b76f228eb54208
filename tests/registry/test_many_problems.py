"""A registry with a thousand problems: every one reported, once, on a line of its own that a
person can read, and a summary at the end that says what kinds there were.

The registry is made here: 1,000 codes, each with one mistake of its own of eight kinds, and
codes that name the badly named ones (a name that breaks the rules is still a code: naming it
is no mistake). The test knows the line and the id of every problem it planted, so any extra
one (a problem that is only a consequence of another) fails it as much as a missing one.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from ..conftest import MINIMAL, Run, split_id

CODES = 1_000
LONGEST_LINE = 300
LONG = "LONG_" + "NAME_" * 14  # a name of 70 characters and more: longer than the 64 allowed


def _code(i: int) -> tuple[str, str, list[str]]:
    """Code ``i``: its name, its fields (one flow mapping) and the ids of its problems."""
    kind = i % 8
    name = f"CODE_{2 * i}"  # even numbers: a reference to an odd one is a near miss
    layer, key, message, recovery, retry = "inner", "meaning", "It failed.", "ask_user", "never"
    extra, ids = "", []
    if kind == 0:  # a bad name, and a mistake of its own that must still be found
        name, layer = f"badName{i}", "nowhere"
        ids = ["E-NAME-CODE-CASE", "E-REF-UNKNOWN-LAYER"]
    elif kind == 1:
        key, ids = "meanin", ["E-SCHEMA-UNKNOWN-KEY"]
    elif kind == 2:  # names codes with bad names (no problem), and a code that is not there
        extra = f", related: [badName{i - 2}, {LONG}{i + 1}, CODE_{2 * i + 1}]"
        ids = ["E-REF-UNKNOWN-CODE"]
    elif kind == 3:  # a name too long; it is named by the code before it, and replaced by one
        name, ids = f"{LONG}{i}", ["E-NAME-CODE-TOO-LONG"]
        extra = f", deprecated: {{since: 1.0.0, replaced_by: badName{i - 3}}}"
    elif kind == 4:
        message, ids = "The {thing} failed.", ["E-PLACEHOLDER-UNDECLARED"]
    elif kind == 5:
        recovery, ids = "ask_usr", ["E-REF-UNKNOWN-RECOVERY-KIND"]
    elif kind == 6:
        retry, ids = "bounded, limit: attempt", ["E-REF-UNKNOWN-LIMIT"]
    else:  # a code no name resembles
        extra, ids = f", related: [ZZZ_{i}_QQQ]", ["E-REF-UNKNOWN-CODE"]
    fields = (
        f"{{layer: {layer}, message: '{message}', {key}: Nobody knows., "
        f"recovery: {{kind: {recovery}, steps: [Ask.]}}, retry: {{policy: {retry}}}, "
        f"since: 1.0.0{extra}}}"
    )
    return name, fields, ids


def _registry() -> tuple[str, list[tuple[int, str]], set[str]]:
    """The registry's text, the (line, id) of every problem in it, and its code names."""
    head, _, tail = MINIMAL.partition("codes:\n")
    tail = tail[tail.index("\nlimits:") + 1 :]
    lines = [*head.splitlines(), "codes:"]
    expected, names = [], set()
    for i in range(CODES):
        name, fields, ids = _code(i)
        lines.append(f"  {name}: {fields}")
        expected += [(len(lines), id) for id in ids]
        names.add(name)
    return "\n".join([*lines, *tail.splitlines()]) + "\n", expected, names


def test_a_thousand_problems_are_each_reported_once_and_summed_up(run: Run, tmp_path: Path) -> None:
    text, expected, names = _registry()
    path = tmp_path / "codes.yaml"
    path.write_text(text, "utf-8")
    result = run("validate", "--registry", str(path), cwd=tmp_path)
    assert result.code == 1 and result.out == ""
    rows = result.err.splitlines()
    diagnostics = [row for row in rows if not row.startswith("errorbook:")]
    found = [(int(row.split(":")[1]), split_id(row)[1]) for row in diagnostics]
    assert Counter(found) == Counter(expected)  # every problem, and nothing else
    assert len(found) >= CODES
    too_long = [row for row in rows if len(row) > LONGEST_LINE]
    assert too_long == []
    for row in diagnostics:  # no reference to a code that exists is called unknown
        if row.endswith("[E-REF-UNKNOWN-CODE]"):
            named = row.split("names code '")[1].split("'")[0]
            assert named not in names, row
    # Names are shown whole, and a near miss of a numbered name gets its neighbours.
    assert sum(f"'{LONG}11'" in row for row in diagnostics) == 1
    (near,) = [row for row in diagnostics if "'CODE_21'" in row]
    assert near.endswith(
        "(did you mean 'CODE_18', 'CODE_24' or 'CODE_26'?) [E-REF-UNKNOWN-CODE]"
    ), near
    (far,) = [row for row in diagnostics if "'ZZZ_7_QQQ'" in row]
    assert far.endswith("(no code has a similar name) [E-REF-UNKNOWN-CODE]"), far
    counts = Counter(id for _, id in expected)
    width = len(f"{max(counts.values()):,}")
    summary = [f"errorbook: {len(expected):,} problems found; nothing was written"] + [
        f"errorbook: {n:>{width},} {id}"
        for id, n in sorted(counts.items(), key=lambda pair: (-pair[1], pair[0]))
    ]
    assert rows[len(diagnostics) :] == summary
