"""``errorbook init [DIR]``: start a project that errorbook builds end to end.

It writes what a project needs and nothing it could guess wrong: a small registry to edit,
``[tool.errorbook]`` in ``pyproject.toml`` (a new file, or a table added to an existing one),
the MkDocs settings every language of the site inherits, and the ``.gitignore`` lines for
errorbook's cache and the built site. Then ``errorbook generate`` and ``errorbook site
build`` work. A file of the project is never replaced: where one of these exists already,
init says so and writes nothing.
"""

from __future__ import annotations

import argparse
import re
import tomllib
from pathlib import Path

from ..config import Config
from ..errors import UsageError
from ..names import SHIPPED_TEMPLATES
from ..pipeline.output import CACHE_FOLDER

HELP = "start a new project: a registry, its configuration and its site"
DESCRIPTION = (
    "Write codes.yaml, [tool.errorbook] in pyproject.toml, site/mkdocs.base.yml and the "
    ".gitignore lines into DIR (default: the working directory), so that `errorbook generate` "
    "and `errorbook site build` work at once. Nothing that exists is replaced."
)

#: What init adds to .gitignore: errorbook's cache (the lock file lives in it too) and the
#: built site; the generated sources themselves are meant to be committed.
IGNORED = (f"/{CACHE_FOLDER}/", "/site/build/")

TABLE = """\
[tool.errorbook]
registry = "codes.yaml"
python-out = "."
site = "site"
"""

REGISTRY = """\
# The error registry of {title}: the one source of truth for its error codes.
# Edit it, then run `errorbook generate`; `errorbook explain CODE` shows one code.
# Every key is documented on the generated site's schema page (site/docs/en/schema.md).

registry:
  name: {name}
  title: {title}
  version: 0.1.0
  package: {name}_errors
  source_locale: en
  locales: [de]
  docs_url: https://docs.example.org/{name}/errors/
  description: >-
    What {title} is, and why its failures carry stable codes. Replace this sentence.

layers:
  input:
    title: Input
    proves: The request could not be accepted as it was sent.
    description: >-
      Failures that the caller can fix by changing what it sends.

codes:
  INVALID_ARGUMENT:
    layer: input
    message: The value of {{field}} is not valid.
    placeholders:
      field: {{description: The name of the field., example: quantity}}
    meaning: A field of the request does not have a valid value.
    since: 0.1.0
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "folder",
        metavar="DIR",
        nargs="?",
        default=".",
        help="the project's folder, created if missing (default: the working directory)",
    )


def run(args: argparse.Namespace, config: Config) -> int:
    del config  # the project does not exist yet: its configuration is what init writes
    root = Path(args.folder).absolute()
    if root.exists() and not root.is_dir():
        raise UsageError(f"{args.folder} is not a folder")
    name = _identifier(root.name)
    pyproject = root / "pyproject.toml"
    table = _table_for(pyproject)
    writes = {
        root / "codes.yaml": REGISTRY.format(name=name, title=name.replace("_", " ").title()),
        root / "site" / "mkdocs.base.yml": (
            SHIPPED_TEMPLATES / "site" / "mkdocs.base.yml"
        ).read_text("utf-8"),
    }
    taken = [path for path in writes if path.exists() or path.is_symlink()]
    if taken:
        names = ", ".join(str(path.relative_to(root)) for path in taken)
        raise UsageError(
            f"{names} exist{'s' if len(taken) == 1 else ''} already in {root}; init never "
            "replaces a file (move it away, or set the project up by hand: see the README)"
        )
    root.mkdir(parents=True, exist_ok=True)
    for path, text in writes.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("x", encoding="utf-8") as handle:  # "x": never over a file
            handle.write(text)
        print(f"created  {path.relative_to(root)}")
    if table is not None:
        with pyproject.open("a", encoding="utf-8") as handle:
            handle.write(table)
        print(f"{'updated ' if table.startswith(chr(10)) else 'created '} pyproject.toml")
    missing = _missing_ignores(root / ".gitignore")
    if missing:
        with (root / ".gitignore").open("a", encoding="utf-8") as handle:
            handle.write("".join(f"{line}\n" for line in missing))
        print("updated  .gitignore")
    where = "" if root == Path.cwd() else f"cd {args.folder} && "
    print(f"next: {where}errorbook generate && errorbook site build")
    return 0


def _identifier(folder: str) -> str:
    """The registry's name from the folder's: lower case, '_' between words."""
    words = re.findall(r"[a-z0-9]+", folder.lower())
    name = "_".join(words) or "project"
    return name if name[0].isalpha() else f"project_{name}"


def _table_for(pyproject: Path) -> str | None:
    """What to append to pyproject.toml: the table (after a blank line in an existing
    file), or None when the file has [tool.errorbook] already (a usage error)."""
    if not pyproject.exists():
        return TABLE
    text = pyproject.read_text("utf-8")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(
            f"{pyproject}: not valid TOML ({exc}); fix it, then run init again"
        ) from None
    if "errorbook" in data.get("tool", {}):
        raise UsageError(
            f"{pyproject} has a [tool.errorbook] table already; this project is set up"
        )
    return ("\n" if text.endswith("\n") else "\n\n") + TABLE


def _missing_ignores(gitignore: Path) -> list[str]:
    present = gitignore.read_text("utf-8").splitlines() if gitignore.exists() else []
    return [line for line in IGNORED if line not in present]
