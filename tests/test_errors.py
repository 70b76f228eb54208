"""One error hierarchy: every failure errorbook foresees ends the command line the same way."""

from __future__ import annotations

import argparse

import pytest

from generator import config, diagnostics, errors, inputs
from generator.commands import validate
from generator.config import Config
from generator.diagnostics import Diagnostics, Mark
from generator.pipeline import output

from .conftest import Run


def _invalid() -> errors.InvalidInput:
    found = Diagnostics()
    found.error("E-YAML-EMPTY", Mark("codes.yaml", 1, 1), "the registry is empty", "fill it")
    return errors.InvalidInput(found)


#: Each kind of error, the status it ends with, and the exact text it prints.
CASES = [
    (
        config.ConfigError("pyproject.toml: error: bad"),
        2,
        "errorbook: pyproject.toml: error: bad\n",
    ),
    (
        errors.UsageError("unknown code 'X' in codes.yaml"),
        2,
        "errorbook: unknown code 'X' in codes.yaml\n",
    ),
    (
        _invalid(),
        1,
        "codes.yaml:1:1: error: the registry is empty (fill it) [E-YAML-EMPTY]\n"
        "errorbook: 1 problem found; nothing was written\n",
    ),
    (output.OutputError("x.py: cannot write"), 1, "errorbook: error: x.py: cannot write\n"),
]


@pytest.mark.parametrize(("error", "status", "printed"), CASES, ids=lambda v: type(v).__name__)
def test_main_maps_each_error_to_its_status_and_text(
    error: errors.ErrorbookError,
    status: int,
    printed: str,
    run: Run,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def fail(args: argparse.Namespace, settings: Config) -> int:
        raise error

    monkeypatch.setattr(validate, "run", fail)
    result = run("validate")
    assert (result.code, result.err, result.out) == (status, printed, "")
    assert error.exit_code == status


def test_a_report_of_several_problems_ends_with_a_count_per_id() -> None:
    """The most frequent first, ties by id; each line of errorbook's own starts 'errorbook:'."""
    found = Diagnostics()
    for line in range(1_002):
        found.error("E-REF-UNKNOWN-CODE", Mark("codes.yaml", line + 1, 1), "unknown")
    found.error("E-SCHEMA-TYPE", Mark("codes.yaml", 9, 1), "a list")
    found.error("E-NAME-ID", Mark("codes.yaml", 8, 1), "a name")
    lines = errors.InvalidInput(found).report().splitlines()
    assert len(lines) == 1_004 + 4
    assert lines[1_004:] == [
        "errorbook: 1,004 problems found; nothing was written",
        "errorbook: 1,002 E-REF-UNKNOWN-CODE",
        "errorbook:     1 E-NAME-ID",
        "errorbook:     1 E-SCHEMA-TYPE",
    ]


def test_the_historical_names_are_the_hierarchy() -> None:
    """Code that catches the old names keeps working: they are these classes."""
    assert config.ConfigError is errors.ConfigError
    assert diagnostics.InvalidInput is errors.InvalidInput
    assert output.OutputError is errors.OutputError
    for kind in (errors.ConfigError, errors.UsageError, errors.InputError, errors.OutputError):
        assert issubclass(kind, errors.ErrorbookError)
    assert issubclass(errors.InvalidInput, errors.InputError)
    assert issubclass(inputs.InputFileError, errors.InputError)


def test_an_input_file_error_that_escapes_is_not_a_crash(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    def fail(args: argparse.Namespace, settings: Config) -> int:
        raise inputs.InputFileError(
            settings.registry, "is a named pipe (FIFO), not a regular file", "remove it"
        )

    monkeypatch.setattr(validate, "run", fail)
    result = run("validate")
    assert result.code == 1
    assert "internal error" not in result.err
    assert result.err.endswith("is a named pipe (FIFO), not a regular file (remove it)\n")


def test_any_other_exception_is_an_internal_error(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    def fail(args: argparse.Namespace, settings: Config) -> int:
        raise ValueError("oops")

    monkeypatch.delenv("ERRORBOOK_DEBUG", raising=False)
    monkeypatch.setattr(validate, "run", fail)
    result = run("validate")
    assert result.code == 70
    assert result.err.startswith("errorbook: internal error: ValueError: oops")


@pytest.mark.parametrize(
    ("argv", "printed"),
    [
        (["explain", "NO_SUCH_CODE_AT_ALL"], "errorbook: unknown code 'NO_SUCH_CODE_AT_ALL' in "),
        (["usage", "no/such/folder"], "errorbook: no such file or folder: no/such/folder\n"),
        (["init-locale", "xx-YY-ZZ"], "errorbook: 'xx-YY-ZZ' is not a locale tag"),
    ],
)
def test_verbs_raise_usage_errors(argv: list[str], printed: str, run: Run) -> None:
    result = run(*argv)
    assert result.code == 2
    assert result.err.startswith(printed), result.err
