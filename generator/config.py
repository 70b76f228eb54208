"""Where things are: ``[tool.errorbook]`` in pyproject.toml, overridden by flags."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, replace
from pathlib import Path

from .suggest import suggest

KEYS = {
    "registry": "the registry file (default: codes.yaml)",
    "python-out": "folder in which the generated Python package is written (default: .)",
    "templates": "folder of templates that override the shipped ones (default: none)",
    "locales": "folder of the gettext catalogs (default: locales)",
    "site": "folder of the MkDocs site; no site is generated without it (default: none)",
    "typescript-out": "folder for the generated TypeScript module (default: none)",
}


class ConfigError(Exception):
    """pyproject.toml or a flag is unusable; a usage error, exit status 2."""


@dataclass(frozen=True)
class Config:
    root: Path  # paths in outputs are relative to this folder
    registry: Path
    python_out: Path
    templates: Path | None = None
    locales: Path | None = None  # None: <root>/locales
    site_dir: Path | None = None  # None: no site
    typescript_out: Path | None = None  # None: no TypeScript module

    @property
    def locales_dir(self) -> Path:
        return self.locales if self.locales is not None else self.root / "locales"

    def display(self, path: Path) -> str:
        """A path as output shows it: relative to the root where possible, always with '/'."""
        try:
            return path.resolve().relative_to(self.root.resolve()).as_posix()
        except ValueError:
            return path.as_posix()


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
                    f"{candidate}: error: not valid TOML: {exc} (fix it, or pass --config PATH)"
                ) from None
            if "errorbook" in data.get("tool", {}):
                return candidate
    return None


def _line_of(text: str, key: str) -> int:
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip().startswith(key):
            return number
    return 1


def load(pyproject: Path | None = None, cwd: Path | None = None) -> Config:
    """Read the configuration, or defaults relative to ``cwd`` when there is none."""
    cwd = cwd or Path.cwd()
    path = pyproject or find_pyproject(cwd)
    if path is None:
        return Config(root=cwd, registry=cwd / "codes.yaml", python_out=cwd)
    try:
        text = path.read_text("utf-8")
        table = tomllib.loads(text).get("tool", {}).get("errorbook", {})
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror}") from None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: error: not valid TOML: {exc}") from None
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: error: [tool.errorbook] must be a table")
    root = path.parent
    for key, value in table.items():
        line = _line_of(text, key)
        if key not in KEYS:
            raise ConfigError(
                f"{path}:{line}:1: error: unknown key '{key}' in [tool.errorbook] "
                f"({suggest(key, list(KEYS))})"
            )
        if not isinstance(value, str) or not value:
            raise ConfigError(
                f"{path}:{line}:1: error: '{key}' must be a path in quotes ({KEYS[key]})"
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
    )


def with_overrides(
    config: Config,
    registry: str | None = None,
    python_out: str | None = None,
    templates: str | None = None,
) -> Config:
    """Flags win over pyproject.toml; they are relative to the working directory."""
    if registry:
        config = replace(config, registry=Path(registry).absolute())
    if python_out:
        config = replace(config, python_out=Path(python_out).absolute())
    if templates:
        config = replace(config, templates=Path(templates).absolute())
    return config
