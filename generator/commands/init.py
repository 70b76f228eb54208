"""``errorbook init [DIR]``: start a project that errorbook builds end to end.

It writes what a project needs and nothing it could guess wrong: a small registry to edit,
``[tool.errorbook]`` in ``pyproject.toml`` (a new file, or a table added to an existing one),
the MkDocs settings every language of the site inherits, and the ``.gitignore`` lines for
errorbook's cache and the built site. Then ``errorbook generate`` and ``errorbook site
build`` work. A file of the project is never replaced: where one of these exists already,
init says so and writes nothing.

A project with a MkDocs site of its own (a ``mkdocs.yml`` in the folder) gets no second
site: init adds the errorbook plugin to that file's ``plugins`` (every other line as it was)
with ``path: errors``, and the registry's ``docs_url`` follows (the site's ``site_url``, then
``errors/``). A ``mkdocs.yml`` whose plugins it cannot edit safely is left alone, with a
message saying what to add by hand.
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
    "and `errorbook site build` work at once. In a folder with a mkdocs.yml, add the errorbook "
    "plugin to it instead of making a second site. Nothing that exists is replaced."
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
  docs_url: {docs_url}
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


#: In a project with a MkDocs site of its own: the table names a folder for the pages
#: errorbook generates (outside the site's docs; MkDocs builds into site/ by default), and
#: the plugin, added to the site's mkdocs.yml, publishes them under ``PATH``.
HOSTED_TABLE = TABLE.replace('site = "site"', 'site = "errorbook"')
PATH = "errors"
#: What to add to a mkdocs.yml init cannot safely edit (a plugins list turns MkDocs' own
#: search off unless it names it).
BY_HAND = f"plugins:\n  - search\n  - errorbook:\n      path: {PATH}\n"
_PLUGINS = re.compile(r"^plugins:[ \t]*(?:#.*)?$", re.M)
_ITEM = re.compile(r"( +)(- +)?[\w\"'/-]")

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
    mkdocs_yml = _site_of(root) if root.is_dir() else None
    # Everything read, and refused, before anything is written.
    site_edit = _with_plugin(mkdocs_yml) if mkdocs_yml is not None else None
    table = _table_for(pyproject, TABLE if site_edit is None else HOSTED_TABLE)
    missing = _missing_ignores(gitignore, IGNORED if site_edit is None else IGNORED[:1])
    ignores = "".join(f"{line}\n" for line in missing)
    if ignores and (_existing(gitignore) or "\n")[-1:] != "\n":
        ignores = "\n" + ignores  # below the last line, not glued to it
    docs_url = f"https://docs.example.org/{name}/errors/"
    if site_edit is not None:  # errorbook's pages go into the site, and docs_url follows
        site_url = re.search(r"^site_url:[ \t]*[\"']?(https?://[^\s\"'#]+)", site_edit[0], re.M)
        if site_url:
            docs_url = f"{site_url.group(1).rstrip('/')}/{PATH}/"
    title = _title(root.name, name)
    writes = {root / "codes.yaml": REGISTRY.format(name=name, title=title, docs_url=docs_url)}
    if site_edit is None:
        base = (SHIPPED_TEMPLATES / "site" / "mkdocs.base.yml").read_text("utf-8")
        writes[root / "site" / "mkdocs.base.yml"] = base
    if (root / "site").is_symlink() and site_edit is None:
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
        appends = [(pyproject, table), (gitignore, ignores)]
        if mkdocs_yml is not None and site_edit is not None:
            before, after = site_edit
            if after.startswith(before):
                appends.append((mkdocs_yml, after[len(before) :]))
            else:
                done.replace(mkdocs_yml, before, after)
        for path, text in appends:
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
    for path in [*(path for path, _ in done.appended), *done.replaced]:
        had = path in done.replaced or dict(done.appended)[path] is not None
        print(f"{'updated ' if had else 'created '} {path.name}")
    where = "" if root == Path.cwd() else f"cd {shlex.quote(args.folder)} && "
    if mkdocs_yml is None:
        print(f"next: {where}errorbook generate && errorbook site build")
    else:
        print(
            f"next: {where}errorbook generate && mkdocs build; errorbook's pages are in "
            f"{PATH}/ of your site: add `- Errors: {PATH}/index.md` to its nav"
        )
    return 0


class _Written:
    """What init has written so far, so that a failed run can take it back: the folders
    and files it created, and the files it appended to with their sizes before (None: it
    created the file)."""

    def __init__(self) -> None:
        self.folders: list[Path] = []
        self.created: list[Path] = []
        self.appended: list[tuple[Path, int | None]] = []
        self.replaced: dict[Path, str] = {}

    def replace(self, path: Path, before: str, after: str) -> None:
        """Write ``after`` over ``path``, which held ``before``: a new file renamed over it,
        so that no reader sees half of it."""
        new = path.with_name(f".{path.name}.errorbook-init")
        with new.open("x", encoding="utf-8") as handle:
            handle.write(after)
        os.replace(new, path)
        self.replaced[path] = before

    def folder(self, path: Path) -> None:
        missing = [path, *path.parents]
        missing = [folder for folder in missing if not folder.exists()]
        for folder in reversed(missing):
            folder.mkdir()
            self.folders.append(folder)

    def take_back(self) -> None:
        for path, text in self.replaced.items():
            with contextlib.suppress(OSError):
                path.write_text(text, "utf-8")
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


def _table_for(pyproject: Path, table: str = TABLE) -> str:
    """What to append to pyproject.toml: the whole table for a new file, or the table after
    a blank line for an existing one; a usage error when it has [tool.errorbook] already."""
    text = _existing(pyproject)
    if text is None:
        return table
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
    added = ("\n" if text.endswith("\n") else "\n\n") + table
    try:  # `tool = 1`, or `tool = {...}` written inline, takes no [tool.errorbook] below it
        tomllib.loads(text + added)
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(
            f"{pyproject}: a [tool.errorbook] table cannot be added below what it holds ({exc}); "
            "write `tool` as [tool.*] tables, or add the table by hand (see the README)"
        ) from None
    return added


def _missing_ignores(gitignore: Path, wanted: tuple[str, ...] = IGNORED) -> list[str]:
    present = (_existing(gitignore) or "").splitlines()
    return [line for line in wanted if line not in present]


def _site_of(root: Path) -> Path | None:
    """The project's own MkDocs configuration, if it has one."""
    for name in ("mkdocs.yml", "mkdocs.yaml"):
        if (root / name).exists() or (root / name).is_symlink():
            return root / name
    return None


def _with_plugin(mkdocs_yml: Path) -> tuple[str, str]:
    """``mkdocs_yml``'s text, and that text with the errorbook plugin added to its
    ``plugins``, every other line as it was; a usage error saying what to add by hand when
    the file is not laid out as init can edit safely (a block of ``plugins:``, or none)."""
    text = _existing(mkdocs_yml) or ""
    by_hand = (
        f"; add the plugin by hand, as in\n\n{BY_HAND}\n(keep the plugins you have), "
        "then run init again"
    )
    found = list(_PLUGINS.finditer(text))
    if not found:
        if re.search(r"^plugins\b", text, re.M):  # `plugins: [search]`, on one line
            raise UsageError(f"{mkdocs_yml}: init cannot edit its plugins safely{by_hand}")
        ending = "" if text.endswith("\n") or not text else "\n"
        return text, f"{text}{ending}{BY_HAND}"
    if len(found) > 1:
        raise UsageError(f"{mkdocs_yml} has `plugins:` twice{by_hand}")
    block_start = found[0].end() + 1
    lines = text[block_start:].splitlines(keepends=True)
    block: list[str] = []  # the lines of the plugins' block: indented, blank or comments
    for line in lines:
        if line.strip() and not line.startswith((" ", "#")):
            break
        block.append(line)
    items = [line for line in block if line.strip() and not line.lstrip().startswith("#")]
    if any(re.match(r" *(- +)?errorbook\b", item) for item in items):
        raise UsageError(
            f"{mkdocs_yml} names the errorbook plugin already; init leaves it as it is, and "
            f"sets nothing up: give it the path of errorbook's pages, as in\n\n{BY_HAND}"
        )
    shape = _ITEM.match(items[0]) if items else None
    if shape is None or "\t" in "".join(block):
        raise UsageError(f"{mkdocs_yml}: init cannot edit its plugins safely{by_hand}")
    indent, dash = shape.group(1), shape.group(2)
    while block and (not block[-1].strip() or not block[-1].startswith(" ")):
        block.pop()  # blank lines and comments below the block stay below what is added
    cut = block_start + sum(len(line) for line in block)
    added = "\n" if block and not block[-1].endswith("\n") else ""
    if dash is not None:
        added += f"{indent}- errorbook:\n{indent}    path: {PATH}\n"
    else:
        added += f"{indent}errorbook:\n{indent}  path: {PATH}\n"
    return text, text[:cut] + added + text[cut:]
