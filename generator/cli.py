"""The ``errorbook`` command line: a thin layer over the pipeline, one module per verb.

Exit status: 0 success, 1 invalid input or stale outputs, 2 usage error, 70 internal error,
141 the reader of the output went away before it was all written (as a shell reports a
program that SIGPIPE stopped).
Diagnostics go to standard error; results to standard output.
"""

from __future__ import annotations

import os
import sys

from . import __version__

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a no-op run)
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence

EXIT_INTERNAL = 70  # the statuses 1 and 2 belong to the errors (errors.ErrorbookError)
#: The output's reader went away (`errorbook check | head -1`): 128 + SIGPIPE, the status a
#: shell gives a program the signal stopped. Never 0: under `set -o pipefail` a check that
#: failed must not pass because its reader stopped reading.
EXIT_PIPE = 141


#: The verbs, by module (``init_locale`` is ``errorbook init-locale``), in the order the
#: help lists them.
VERBS = ("init", "generate", "check", "validate", "explain", "diff", "usage", "stats",
         "init_locale", "site")  # fmt: skip


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser, with every verb; ``only``, one of :data:`VERBS`: with that
    verb alone, for a command line that names it first. Each verb's module imports what
    the verb needs (explain, the registry's model; init, the writer), and a run of one verb
    need not import the others'."""
    import argparse
    import importlib

    from .commands import options

    common = options.common()
    parser = argparse.ArgumentParser(
        prog="errorbook",
        description="Generate code, catalogs and docs from one registry of error codes.",
    )
    parser.add_argument("--version", action="version", version=f"errorbook {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in VERBS if only is None else (only,):
        options.register(sub, common, importlib.import_module(f"{__package__}.commands.{name}"))
    return parser


def _verb(argv: Sequence[str]) -> str | None:
    """The module of the verb ``argv`` names first, if it names one there."""
    first = argv[0] if argv else ""
    module = first.replace("-", "_")
    return module if module in VERBS and module.replace("_", "-") == first else None


def _no_op(argv: Sequence[str]) -> int | None:
    """A plain ``errorbook generate`` with nothing to do answers before argparse, the
    configuration or any pipeline module is imported: this runs in every build and every
    pre-commit, so it should cost little more than starting Python."""
    if list(argv) != ["generate"]:
        return None
    from .pipeline import stamp

    found = stamp.fresh_from(os.getcwd())
    if found is None:
        return None
    from .commands.generate import nothing_to_do

    return nothing_to_do(*found)


def main(argv: Sequence[str] | None = None) -> int:
    try:
        status = _main(sys.argv[1:] if argv is None else argv)
    except SystemExit as exc:  # argparse, after --help, --version or a usage error
        status = exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 2
    except BrokenPipeError:
        status = EXIT_PIPE
    return _delivered(status)


def _delivered(status: int) -> int:
    """``status``, once what was printed has reached the reader; else :data:`EXIT_PIPE`, with
    the standard output pointed at the null device so that nothing tries to write it again."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        status = EXIT_PIPE
    except ValueError:  # a closed stream: nothing is left to deliver
        return status
    if status == EXIT_PIPE:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return status


def _main(argv: Sequence[str]) -> int:
    answer = _no_op(argv)
    if answer is not None:
        return answer
    import traceback
    from pathlib import Path

    from . import config
    from .errors import ErrorbookError

    parser = build_parser(_verb(argv))
    args = parser.parse_args(argv)
    try:
        given = getattr(args, "config", None)  # a verb without the common flags has none
        if given:
            config.plain_path(given, "error: --config")
        settings = config.load(Path(given).absolute() if given else None)
        settings = config.with_overrides(
            settings,
            registry=getattr(args, "registry", None),
            python_out=getattr(args, "python_out", None),
        )
        status: int = args.run(args, settings)
        return status
    except ErrorbookError as exc:  # a failure errorbook foresaw: each kind says its own text
        sys.stderr.write(exc.report())
        return exc.exit_code
    except BrokenPipeError:  # the reader went away (`errorbook ... | head`)
        return EXIT_PIPE
    except KeyboardInterrupt:
        print("errorbook: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # a bug: say so plainly instead of dumping a traceback
        if os.environ.get("ERRORBOOK_DEBUG"):
            traceback.print_exc()
        print(
            f"errorbook: internal error: {type(exc).__name__}: {exc} (this is a bug in "
            "errorbook; run again with ERRORBOOK_DEBUG=1 for details)",
            file=sys.stderr,
        )
        return EXIT_INTERNAL


def run() -> None:
    """The ``errorbook`` command (and ``python -m errorbook``): :func:`main`, then an exit
    that skips the interpreter's teardown.

    A run holds the registry and, in ``check`` or a run without workers, whole catalogs:
    hundreds of thousands of objects that the interpreter would free one by one on its way
    out, after the work is done and the outputs are written. So the exit is an ordinary one
    (other threads are waited for, and the exit functions registered while the command ran
    are called, logging's among them) up to its last exit function, registered here first
    so that it is called last: it flushes the standard streams and ends the process with
    ``os._exit``, before the teardown."""
    import atexit

    status: list[int] = []
    atexit.register(_leave, status)
    for stream in (sys.stdout, sys.stderr):  # a terminal without the reader's script
        if getattr(stream, "errors", None) == "strict" and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")  # gets escapes, not a crash
    status.append(main())
    raise SystemExit(status[0])


def _leave(status: list[int]) -> None:
    """The last exit function of a command that ended (see :func:`run`)."""
    import contextlib

    if not status:
        return
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(BrokenPipeError, ValueError):  # reader gone; stream closed
            stream.flush()
    os._exit(status[0])
