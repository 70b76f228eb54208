"""Where things are: ``[tool.errorbook]`` in pyproject.toml, overridden by flags."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path

from . import inputs
from .errors import ConfigError as ConfigError  # raised here; the class lives in errors.py
from .suggest import suggest

_PYPROJECT_LIMIT = 16 * 1024 * 1024  # a configuration file, not a data file

KEYS = {
    "registry": "the registry file (default: codes.yaml)",
    "python-out": "folder in which the generated Python package is written (default: .)",
    "templates": "folder of templates that override the shipped ones (default: none)",
    "locales": "folder of the gettext catalogs (default: locales)",
    "site": "folder of the MkDocs site; no site is generated without it (default: none)",
    "typescript-out": "folder for the generated TypeScript module (default: none)",
    "max-input-mib": "largest input file errorbook reads, in MiB (default: 256; 16 for the "
    "registry)",
    "messages-domain": "file name (no suffix) of the UI messages' catalogs (default: messages)",
    "docs-domain": "file name (no suffix) of the reference prose's catalogs (default: docs)",
}
_NUMBERS = {"max-input-mib"}
#: Keys naming a gettext domain (the file name of a kind of catalog, see Config.domains).
_DOMAIN_KEYS = {"messages-domain", "docs-domain"}
#: A plain file-name stem: it becomes <domain>.pot and <lang>/LC_MESSAGES/<domain>.po.
_DOMAIN_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]{0,63}\Z")


@dataclass(frozen=True)
class Config:
    root: Path  # paths in outputs are relative to this folder
    registry: Path
    python_out: Path
    templates: Path | None = None
    locales: Path | None = None  # None: <root>/locales
    site_dir: Path | None = None  # None: no site
    typescript_out: Path | None = None  # None: no TypeScript module
    max_input_mib: int | None = None  # None: inputs.DEFAULT_LIMIT_MIB (or its variable)
    messages_domain: str = "messages"  # file name of the UI messages' catalogs
    docs_domain: str = "docs"  # file name of the reference prose's catalogs
    cache_dir: Path | None = None  # None: the user's cache folder (pipeline.cachedir)

    @property
    def domains(self) -> dict[str, str]:
        """Each catalog role (entries.DOMAINS) to the file name its catalogs have: another
        tool may already use the default names in the same folder."""
        return {"messages": self.messages_domain, "docs": self.docs_domain}

    @property
    def input_limit(self) -> int:
        """The size limit of every input file, in bytes (see :mod:`generator.inputs`)."""
        return inputs.limit_bytes(self.max_input_mib)

    @property
    def locales_dir(self) -> Path:
        return self.locales if self.locales is not None else self.root / "locales"

    def display(self, path: Path) -> str:
        """A path as output shows it: relative to the root where possible, always with '/'."""
        try:
            return path.resolve().relative_to(self.root.resolve()).as_posix()
        except (ValueError, RuntimeError, OSError):  # outside the root, or a link that loops
            try:
                return path.absolute().relative_to(self.root.absolute()).as_posix()
            except ValueError:
                return path.as_posix()


def plain_path(value: str, where: str) -> None:
    """Refuse a path holding a control character (a newline, a tab, a NUL...): it would end
    up in a generated file's one-line header and could not name a file anyway."""
    for column, char in enumerate(value, 1):
        if ord(char) < 0x20 or 0x7F <= ord(char) < 0xA0 or char in "\u2028\u2029":
            raise ConfigError(
                f"{where} holds the control character U+{ord(char):04X} at character "
                f"{column} of {value!r} (a path may not contain control characters: "
                "remove it)"
            )


def _domain_name(value: object, where: str) -> None:
    """Refuse a domain name that is not a plain file-name stem: it is joined to folders and
    suffixes to make catalog paths, so a slash, a dot or a space could leave the folder."""
    if not isinstance(value, str) or not _DOMAIN_NAME.match(value):
        raise ConfigError(
            f"{where} must be a plain file name in quotes, without a suffix: letters, digits, "
            f"'_' and '-', at most 64 (not {value!r})"
        )


def find_pyproject(start: Path) -> Path | None:
    """The nearest pyproject.toml with a [tool.errorbook] table, from ``start`` upwards."""
    for folder in (start, *start.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            try:
                data = tomllib.loads(candidate.read_text("utf-8"))
            except (OSError, UnicodeDecodeError) as exc:
                raise ConfigError(f"{candidate}: cannot read: {exc}") from None
            except tomllib.TOMLDecodeError as exc:
                # A broken file cannot be assumed to lack [tool.errorbook]: say so, do not
                # fall back to defaults and write somewhere unexpected.
                raise ConfigError(
                    _not_toml(candidate, exc, "fix it, or pass --config PATH")
                ) from None
            tool = data.get("tool")  # `tool = 1` is no table of tables: no errorbook there
            if isinstance(tool, dict) and "errorbook" in tool:
                return candidate
    return None


_TOML_PLACE = re.compile(r"^(.*) \(at line (\d+), column (\d+)\)$")


def _not_toml(path: Path, exc: tomllib.TOMLDecodeError, hint: str) -> str:
    """tomllib's complaint as errorbook writes a problem: ``path:line:column: error: ...``
    (tomllib puts the place at the end of its message, or says "at end of document")."""
    text = str(exc)
    place = _TOML_PLACE.match(text)
    if place is None:
        return f"{path}: error: not valid TOML: {text} ({hint})"
    what, line, column = place.groups()
    return f"{path}:{line}:{column}: error: not valid TOML: {what} ({hint})"


def _line_of(text: str, key: str) -> int:
    """The line that sets ``key`` in the [tool.errorbook] table (else the first line that
    names it, as in a dotted or inline form; else 1)."""
    rows = text.splitlines()
    sets = re.compile(rf"""\s*(?:{re.escape(key)}|"{re.escape(key)}"|'{re.escape(key)}')\s*=""")
    inside = False
    for number, row in enumerate(rows, 1):
        if row.lstrip().startswith("["):
            inside = row.split("#", 1)[0].replace(" ", "").strip() == "[tool.errorbook]"
        elif inside and sets.match(row):
            return number
    return next((number for number, row in enumerate(rows, 1) if key in row), 1)


def load(pyproject: Path | None = None, cwd: Path | None = None) -> Config:
    """Read the configuration, or defaults relative to ``cwd`` when there is none."""
    cwd = cwd or Path.cwd()
    path = pyproject or find_pyproject(cwd)
    if path is None:
        return Config(root=cwd, registry=cwd / "codes.yaml", python_out=cwd)
    try:
        data = inputs.read(path, limit=_PYPROJECT_LIMIT)
    except inputs.InputFileError as exc:
        raise ConfigError(f"{path}: error: {exc.reason} ({exc.hint})") from None
    if data is None:
        raise ConfigError(f"{path}: cannot read: No such file or directory")
    try:
        text = data.decode("utf-8")
        tool = tomllib.loads(text).get("tool", {})
        table = tool.get("errorbook", {}) if isinstance(tool, dict) else {}
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: error: not valid TOML: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(_not_toml(path, exc, "fix the TOML syntax here")) from None
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: error: [tool.errorbook] must be a table")
    root = path.parent
    for key, value in table.items():
        line = _line_of(text, key)
        if key not in KEYS:
            raise ConfigError(
                f"{path}:{line}:1: error: unknown key '{key}' in [tool.errorbook] "
                f"({suggest(key, list(KEYS), 'key')})"
            )
        if key in _NUMBERS:
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ConfigError(
                    f"{path}:{line}:1: error: '{key}' must be a whole number of 1 or more, "
                    f"without quotes ({KEYS[key]})"
                )
            continue
        if key in _DOMAIN_KEYS:
            _domain_name(value, f"{path}:{line}:1: error: '{key}'")
            continue
        if not isinstance(value, str) or not value:
            raise ConfigError(
                f"{path}:{line}:1: error: '{key}' must be a path in quotes ({KEYS[key]})"
            )
        plain_path(value, f"{path}:{line}:1: error: '{key}'")
    if table.get("messages-domain", "messages") == table.get("docs-domain", "docs"):
        key = "docs-domain" if "docs-domain" in table else "messages-domain"
        raise ConfigError(
            f"{path}:{_line_of(text, key)}:1: error: 'messages-domain' and 'docs-domain' must "
            "differ (the two kinds of text need catalogs of their own)"
        )
    templates = table.get("templates")
    if templates and not (root / templates).is_dir():
        raise ConfigError(
            f"{path}:{_line_of(text, 'templates')}:1: error: 'templates' names "
            f"{templates!r}, which is not a folder (create it with the templates to "
            "override, or remove the key to use the shipped ones)"
        )
    return Config(
        root=root,
        registry=root / table.get("registry", "codes.yaml"),
        python_out=root / table.get("python-out", "."),
        templates=root / templates if templates else None,
        locales=root / table.get("locales", "locales"),
        site_dir=root / table["site"] if "site" in table else None,
        typescript_out=root / table["typescript-out"] if "typescript-out" in table else None,
        max_input_mib=table.get("max-input-mib"),
        messages_domain=table.get("messages-domain", "messages"),
        docs_domain=table.get("docs-domain", "docs"),
    )


def with_overrides(
    config: Config,
    registry: str | None = None,
    python_out: str | None = None,
    templates: str | None = None,
) -> Config:
    """Flags win over pyproject.toml; they are relative to the working directory."""
    for flag, value in (
        ("--registry", registry),
        ("--python-out", python_out),
        ("--templates", templates),
    ):
        if value:
            plain_path(value, f"error: {flag}")
    if registry:
        config = replace(config, registry=Path(registry).absolute())
    if python_out:
        config = replace(config, python_out=Path(python_out).absolute())
    if templates:
        config = replace(config, templates=Path(templates).absolute())
    return config
