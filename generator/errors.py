"""The failures errorbook expects, as one family of exceptions.

A run can end early for four kinds of reason: the configuration is unusable, the command
line asks for something impossible, an input is broken, or an output cannot be written. Each
kind is a subclass of :class:`ErrorbookError` that knows its exit status and what the command
line prints for it, so :func:`generator.cli.main` needs a single ``except`` for all of them
and anything else that escapes is, by elimination, a bug. The modules that raise keep their
historical names (``config.ConfigError``, ``diagnostics.InvalidInput``,
``pipeline.output.OutputError``, ``inputs.InputFileError``): they refer to these classes.

This module imports nothing at run time, not even ``typing``, so that any module may raise
these errors without an import cycle and without slowing down a run that does nothing.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    from typing import ClassVar

    from .diagnostics import Diagnostics

#: Exit statuses of the command line (see the module docstring of generator.cli).
EXIT_INVALID = 1
EXIT_USAGE = 2


class ErrorbookError(Exception):
    """A failure errorbook foresaw: ``report()`` says what went wrong, ``exit_code`` how the
    command line ends."""

    exit_code: ClassVar[int] = EXIT_INVALID

    def report(self) -> str:
        """The text the command line writes to standard error, newline included."""
        return f"errorbook: {self}\n"


class ConfigError(ErrorbookError):
    """``pyproject.toml``, ``--config`` or another flag is unusable: a usage error."""

    exit_code = EXIT_USAGE


class UsageError(ErrorbookError):
    """A verb was asked for something it cannot do with these arguments (an unknown code,
    a folder that does not exist); the message names the argument."""

    exit_code = EXIT_USAGE


class InputError(ErrorbookError):
    """An input (the registry, a catalog, a page, the manifest) cannot be used."""


class InvalidInput(InputError):
    """Raised by a stage whose input cannot be used; carries every diagnostic found, so one
    run shows the author every mistake at once."""

    def __init__(self, diagnostics: Diagnostics) -> None:
        super().__init__(diagnostics.render())
        self.diagnostics = diagnostics

    def __reduce__(self) -> tuple[type[InvalidInput], tuple[Diagnostics]]:
        # Made again from its diagnostics, not its text: a registry validated in a forked
        # process (pipeline.forks) sends its failure back pickled.
        return type(self), (self.diagnostics,)

    def report(self) -> str:
        return self.diagnostics.render(with_id=True) + self.diagnostics.summary()


class OutputError(ErrorbookError):
    """A file could not be written; the message says which and why."""

    def report(self) -> str:
        return f"errorbook: error: {self}\n"
