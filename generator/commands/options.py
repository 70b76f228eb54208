"""The command line's shared arguments, declared once for every verb.

Each verb module says only what is its own: ``HELP`` (its line in ``errorbook --help``),
``DESCRIPTION`` (the opening of ``errorbook VERB --help``), ``add_arguments(parser)`` for its
own flags and ``run(args, config)``. :func:`register` turns such a module into a subcommand,
so the parts every verb has (the ``--registry`` and ``--config`` flags, the link from the
subcommand to its ``run``) and the flags several verbs share (``--format``, ``--python-out``)
are spelled in this one place and read the same in every verb's help.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from ..config import Config

Run = Callable[[argparse.Namespace, Config], int]

FORMAT_HELP = "text for people, json for tools (default: text)"
PYTHON_OUT_HELP = (
    "folder for the generated Python package (default: [tool.errorbook] python-out, or the "
    "project folder)"
)


def common() -> argparse.ArgumentParser:
    """The flags every verb takes: where the registry and the configuration are."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument(
        "--registry",
        metavar="PATH",
        help="the registry file (default: [tool.errorbook] registry, or codes.yaml)",
    )
    parser.add_argument(
        "--config",
        metavar="PYPROJECT",
        help="the pyproject.toml to read [tool.errorbook] from (default: the "
        "nearest one above the working directory)",
    )
    return parser


def register(sub: Any, parent: argparse.ArgumentParser, verb: ModuleType) -> None:
    """Add ``verb`` (a module of this package) as a subcommand named after the module,
    with ``_`` written as ``-`` (``init_locale`` is ``errorbook init-locale``)."""
    name = verb.__name__.rpartition(".")[2].replace("_", "-")
    parents = [parent] if getattr(verb, "COMMON_FLAGS", True) else []
    parser = sub.add_parser(name, parents=parents, help=verb.HELP, description=verb.DESCRIPTION)
    verb.add_arguments(parser)
    parser.set_defaults(run=verb.run)


def output_format(
    parser: argparse.ArgumentParser,
    choices: Sequence[str] = ("text", "json"),
    help: str = FORMAT_HELP,
) -> None:
    """``--format``: how the verb prints its result (text unless asked otherwise)."""
    parser.add_argument("--format", choices=tuple(choices), default="text", help=help)


def python_out(parser: argparse.ArgumentParser) -> None:
    """``--python-out``: for verbs whose outputs include the generated Python package."""
    parser.add_argument("--python-out", metavar="DIR", help=PYTHON_OUT_HELP)
