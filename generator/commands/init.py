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
import contextlib
import os
import re
import shlex
import tomllib
import unicodedata
from pathlib import Path

from .. import inputs
from ..config import Config
from ..errors import OutputError, UsageError
from ..names import SHIPPED_TEMPLATES

HELP = "start a new project: a registry, its configuration and its site"
DESCRIPTION = (
    "Write codes.yaml, [tool.errorbook] in pyproject.toml, site/mkdocs.base.yml and the "
    ".gitignore lines into DIR (default: the working directory), so that `errorbook generate` "
    "and `errorbook site build` work at once. Nothing that exists is replaced."
)

#: What init adds to .gitignore: the built site (the caches live outside the project, see
#: pipeline.cachedir); the generated sources themselves are meant to be committed.
IGNORED = ("/site/build/",)

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
  name: "{name}"
  title: "{title}"
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


#: init writes codes.yaml and the [tool.errorbook] table: --registry and --config, which
#: every other verb takes to find a project, would be taken and ignored.
COMMON_FLAGS = False


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
    if root.is_symlink() and not root.exists():
        raise UsageError(f"{args.folder} is a symbolic link to nothing; give a folder")
    if root.exists() and not root.is_dir():
        raise UsageError(f"{args.folder} is not a folder")
    if not root.exists() and (above := _file_above(root)) is not None:
        raise UsageError(f"{args.folder} cannot be made: {above} is a file, not a folder")
    name = _identifier(root.name)
    pyproject, gitignore = root / "pyproject.toml", root / ".gitignore"
    table = _table_for(pyproject)  # both read, and refused, before anything is written
    missing = _missing_ignores(gitignore)
    ignores = "".join(f"{line}\n" for line in missing)
    if ignores and (_existing(gitignore) or "\n")[-1:] != "\n":
        ignores = "\n" + ignores  # below the last line, not glued to it
    writes = {
        root / "codes.yaml": REGISTRY.format(name=name, title=_title(root.name, name)),
        root / "site" / "mkdocs.base.yml": (
            SHIPPED_TEMPLATES / "site" / "mkdocs.base.yml"
        ).read_text("utf-8"),
    }
    if (root / "site").is_symlink():
        raise UsageError(f"{root / 'site'} is a symbolic link; init writes nothing through one")
    taken = [path for path in writes if path.exists() or path.is_symlink()]
    if taken:
        names = ", ".join(str(path.relative_to(root)) for path in taken)
        raise UsageError(
            f"{names} exist{'s' if len(taken) == 1 else ''} already in {root}; init never "
            "replaces a file (move it away, or set the project up by hand: see the README)"
        )
    done = _Written()
    try:
        done.folder(root)
        for path, text in writes.items():
            done.folder(path.parent)
            with path.open("x", encoding="utf-8") as handle:  # "x": never over a file
                done.created.append(path)
                handle.write(text)
        for path, text in ((pyproject, table), (gitignore, ignores)):
            if text:
                done.appended.append((path, path.stat().st_size if path.exists() else None))
                with path.open("a", encoding="utf-8") as handle:
                    handle.write(text)
    except OSError as exc:
        done.take_back()
        failed = Path(exc.filename) if exc.filename else root
        raise OutputError(
            f"init cannot write {failed}: {exc.strerror or exc}; it has taken back what it "
            "wrote, so run it again once that is fixed"
        ) from None
    for path in done.created:
        print(f"created  {path.relative_to(root)}")
    for path, size in done.appended:
        print(f"{'updated ' if size is not None else 'created '} {path.name}")
    where = "" if root == Path.cwd() else f"cd {shlex.quote(args.folder)} && "
    print(f"next: {where}errorbook generate && errorbook site build")
    return 0


class _Written:
    """What init has written so far, so that a failed run can take it back: the folders
    and files it created, and the files it appended to with their sizes before (None: it
    created the file)."""

    def __init__(self) -> None:
        self.folders: list[Path] = []
        self.created: list[Path] = []
        self.appended: list[tuple[Path, int | None]] = []

    def folder(self, path: Path) -> None:
        missing = [path, *path.parents]
        missing = [folder for folder in missing if not folder.exists()]
        for folder in reversed(missing):
            folder.mkdir()
            self.folders.append(folder)

    def take_back(self) -> None:
        for path, size in reversed(self.appended):
            with contextlib.suppress(OSError):
                if size is None:
                    path.unlink()
                else:
                    os.truncate(path, size)
        for path in reversed(self.created):
            with contextlib.suppress(OSError):
                path.unlink()
        for folder in reversed(self.folders):
            with contextlib.suppress(OSError):
                folder.rmdir()


def _file_above(folder: Path) -> Path | None:
    """The first of ``folder``'s parents that exists, when it is not a folder."""
    for parent in folder.parents:
        if parent.exists() or parent.is_symlink():
            return None if parent.is_dir() else parent
    return None


def _identifier(folder: str) -> str:
    """The registry's name from the folder's: lower case ASCII, '_' between words; a letter
    with an accent keeps its base letter ("Über app" is ``uber_app``), not nothing."""
    ascii_text = unicodedata.normalize("NFKD", folder).encode("ascii", "ignore").decode()
    words = re.findall(r"[a-z0-9]+", ascii_text.lower())
    name = "_".join(words) or "project"
    return name if name[0].isalpha() else f"project_{name}"


def _title(folder: str, name: str) -> str:
    """The registry's title: the folder's words as written, each capitalized ("Über App"),
    or the name's where the folder has no letters or digits."""
    words = re.findall(r"[^\W_]+", folder)
    return " ".join(word[:1].upper() + word[1:] for word in words) or name.replace("_", " ").title()


def _existing(path: Path) -> str | None:
    """The text of a file init adds to, None when there is none. Read as every input is
    (a regular file of bounded size, never a FIFO or a device), and never a symbolic link:
    init appends to the file itself, not to whatever a link points at."""
    try:
        data = inputs.read(path, follow=False)
    except inputs.InputFileError as exc:
        raise UsageError(
            f"{path}: {exc.reason} ({exc.hint}); init adds to it only as a plain file"
        ) from None
    if data is None:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"{path}: is not UTF-8; init adds to it only as UTF-8 text") from None


def _table_for(pyproject: Path) -> str:
    """What to append to pyproject.toml: the whole table for a new file, or the table after
    a blank line for an existing one; a usage error when it has [tool.errorbook] already."""
    text = _existing(pyproject)
    if text is None:
        return TABLE
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(
            f"{pyproject}: not valid TOML ({exc}); fix it, then run init again"
        ) from None
    tool = data.get("tool", {})
    if isinstance(tool, dict) and "errorbook" in tool:
        raise UsageError(
            f"{pyproject} has a [tool.errorbook] table already; this project is set up"
        )
    added = ("\n" if text.endswith("\n") else "\n\n") + TABLE
    try:  # `tool = 1`, or `tool = {...}` written inline, takes no [tool.errorbook] below it
        tomllib.loads(text + added)
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(
            f"{pyproject}: a [tool.errorbook] table cannot be added below what it holds ({exc}); "
            "write `tool` as [tool.*] tables, or add the table by hand (see the README)"
        ) from None
    return added


def _missing_ignores(gitignore: Path) -> list[str]:
    present = (_existing(gitignore) or "").splitlines()
    return [line for line in IGNORED if line not in present]
