"""The generated Python package, imported from the files a run made, to show what it returns.

Each code's page shows its example as every wire carries it. Those examples are not written a
second time in the site's templates: they are what the generated package's own functions
return for the code's example values, so that the reference and the runtime cannot disagree.
The package is imported from the run's file mapping, never from disk (the files may not be
written yet, and ``check`` writes nothing), under a private module name, so that neither a
copy installed in the environment nor the one in the working tree is picked up by mistake.

Not pure (it runs generated code), so it lives in ``pipeline/`` and hands plain data to the
site emitter. Everything the package does here is what it does for its users: it imports
the standard library only.
"""

from __future__ import annotations

import contextlib
import importlib.abc
import importlib.util
import io
import itertools
import keyword
import sys
import warnings
from collections.abc import Iterator, Mapping
from importlib.resources.abc import Traversable, TraversableResources
from pathlib import PurePosixPath
from types import ModuleType
from typing import Any

from ..diagnostics import Diagnostics, InvalidInput
from ..digest import digest
from ..emit import Files
from ..emit.site.wires import Example
from ..registry.model import Code

#: Private module names, one per loaded package (a counter: two runs in one process, as in
#: the tests, must not share modules).
_NAMES = itertools.count(1)


class _Node(Traversable):
    """A file or folder of the in-memory package, enough of a path for
    ``importlib.resources.files(package) / "locales" / ...`` and ``.open("rb")``."""

    def __init__(self, files: Mapping[str, bytes], path: str) -> None:
        self._files = files
        self._path = path

    @property
    def name(self) -> str:
        return PurePosixPath(self._path).name

    def is_file(self) -> bool:
        return self._path in self._files

    def is_dir(self) -> bool:
        prefix = f"{self._path}/" if self._path else ""
        return any(path.startswith(prefix) for path in self._files)

    def iterdir(self) -> Iterator[_Node]:
        prefix = f"{self._path}/" if self._path else ""
        names = {p[len(prefix) :].split("/")[0] for p in self._files if p.startswith(prefix)}
        return iter([_Node(self._files, prefix + name) for name in sorted(names)])

    def joinpath(self, *descendants: str) -> _Node:  # type: ignore[override]
        path = PurePosixPath(self._path or ".").joinpath(*descendants).as_posix()
        return _Node(self._files, "" if path == "." else path)

    def __truediv__(self, child: str) -> _Node:  # type: ignore[override]
        return self.joinpath(child)

    def open(self, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if self._path not in self._files:
            raise FileNotFoundError(self._path)
        data = io.BytesIO(self._files[self._path])
        return data if "b" in mode else io.TextIOWrapper(data, *args, **kwargs)

    def read_bytes(self) -> bytes:
        if self._path not in self._files:
            raise FileNotFoundError(self._path)
        return self._files[self._path]

    def read_text(self, encoding: str | None = None) -> str:
        return self.read_bytes().decode(encoding or "utf-8")


class _Resources(TraversableResources):
    def __init__(self, files: Mapping[str, bytes]) -> None:
        self._files = files

    def files(self) -> _Node:
        return _Node(self._files, "")


class _Loader(importlib.abc.SourceLoader):
    """Loads the package's modules from their bytes; ``files`` are the package's files by
    path inside it (``codes.py``, ``locales/de/LC_MESSAGES/messages.mo``)."""

    def __init__(self, files: Mapping[str, bytes], origin: str) -> None:
        self._files = files
        self._origin = origin

    def get_filename(self, fullname: str) -> str:
        return f"{self._origin}/{self._relative(fullname)}"

    def get_data(self, path: str) -> bytes:
        return self._files[path.removeprefix(f"{self._origin}/")]

    def _relative(self, fullname: str) -> str:
        parts = fullname.split(".")[1:]
        return "/".join(parts) + ".py" if parts else "__init__.py"

    def get_resource_reader(self, fullname: str) -> _Resources:
        return _Resources(self._files)


class _Finder(importlib.abc.MetaPathFinder):
    def __init__(self, name: str, loader: _Loader, modules: set[str]) -> None:
        self._name = name
        self._loader = loader
        self._modules = modules

    def find_spec(self, fullname: str, path: object = None, target: object = None) -> Any:
        if fullname == self._name:
            spec = importlib.util.spec_from_loader(fullname, self._loader, is_package=True)
            assert spec is not None
            spec.submodule_search_locations = []
            return spec
        inside = fullname.startswith(self._name + ".") and fullname.count(".") == 1
        if inside and fullname.split(".")[1] + ".py" in self._modules:
            return importlib.util.spec_from_loader(fullname, self._loader)
        return None


class Package:
    """The generated package in a run's files, imported on first use: ``module(name)`` gives
    one of its modules, None when the registry's package has none (a registry without
    shapes has no ``envelope``). Importing costs a compilation of every module (a large
    ``codes.py`` for a large registry), so a run whose code pages all come from the cache
    never pays it: :meth:`fingerprint` needs the files' hashes only."""

    def __init__(self, files: Mapping[str, bytes], package_dir: str) -> None:
        self._files = files
        self._origin = f"<errorbook:{package_dir}>"
        self._python = {p for p in files if "/" not in p and p.endswith(".py")}
        self._sources = digest(*(part for p in sorted(self._python) for part in (p, files[p])))
        self._catalogs = {
            path.split("/")[1]: digest(data)
            for path, data in files.items()
            if path.startswith("locales/") and path.endswith(".mo")
        }
        self._name = f"_errorbook_runtime_{next(_NAMES)}"
        self._finder: _Finder | None = None
        self._modules: dict[str, ModuleType] = {}

    def fingerprint(self, locale: str) -> str:
        """What the package's answers in ``locale`` depend on: its Python files and that
        locale's compiled messages."""
        return digest(self._sources, self._catalogs.get(locale, ""))

    def module(self, name: str) -> ModuleType | None:
        if f"{name}.py" not in self._python:
            return None
        if self._finder is None:
            self._finder = _Finder(self._name, _Loader(self._files, self._origin), self._python)
            sys.meta_path.insert(0, self._finder)
        found = self._modules.get(name)
        if found is None:
            found = self._modules[name] = importlib.import_module(f"{self._name}.{name}")
        return found

    def close(self) -> None:
        """Forget the package: its finder, and its modules in ``sys.modules``."""
        if self._finder is not None:
            sys.meta_path.remove(self._finder)
            self._finder = None
        prefix = self._name + "."
        for module in [m for m in sys.modules if m == self._name or m.startswith(prefix)]:
            del sys.modules[module]


@contextlib.contextmanager
def imported(files: Files, package_dir: str) -> Iterator[Package]:
    """The package under ``package_dir`` in ``files``, importable for the duration of the
    block. Its modules are removed from ``sys.modules`` afterwards, so that nothing of a run
    stays behind in a process that runs several (MkDocs' serve, the tests)."""
    prefix = package_dir.rstrip("/") + "/"
    inside = {path[len(prefix) :]: data for path, data in files.items() if path.startswith(prefix)}
    package = Package(inside, package_dir)
    try:
        yield package
    finally:
        package.close()


class Examples:
    """Each code's example as the package's functions return it (emit.site.wires.Examples).

    The example values are the registry's placeholder examples; in a language other than
    the source, the package is asked for that locale, so the page shows the translated
    message the runtime would send."""

    def __init__(self, package: Package, source_locale: str) -> None:
        self._package = package
        self._source = source_locale

    def fingerprint(self, locale: str) -> str:
        return self._package.fingerprint(locale)

    def examples(self, code: Code, locale: str) -> list[Example]:
        """The code's examples, in the order of emit.site.wires.WIRES; none for a code the
        package no longer emits (retired) or whose placeholders are not all given an
        example, since the package would refuse to make an envelope without their values.
        Anything else the package refuses is a diagnostic at the code (InvalidInput)."""
        envelope_module = self._package.module("envelope")
        if envelope_module is None or code.retired is not None:
            return []
        if any(p.example is None for p in code.placeholders):
            return []
        try:
            with warnings.catch_warnings():  # a deprecated code warns each time it is made
                warnings.simplefilter("ignore")
                return self._examples(code, locale, envelope_module)
        except Exception as exc:  # the generated code's failure, reported below
            problems = Diagnostics()
            problems.error(
                "E-EXAMPLE-RUNTIME",
                code.mark,
                f"the generated package refused the example of {code.name} "
                f"({type(exc).__name__}: {exc})",
                "give each of the code's placeholders an example of its declared type; if "
                "the templates of the Python package are overridden, check them",
            )
            raise InvalidInput(problems) from None

    def _examples(self, code: Code, locale: str, envelope_module: ModuleType) -> list[Example]:
        asked = locale if locale != self._source else None
        values: dict[str, object] = {
            p.name: p.example for p in code.placeholders if p.example is not None
        }
        passed, written = _keywords(values)
        name = repr(code.name)
        in_locale = {"locale": asked} if asked else {}
        envelope = envelope_module.failure(code.name, **in_locale, **passed)
        where = f", locale={asked!r}" if asked else ""
        found = [Example("python", f"failure({name}{written}{where})", envelope)]
        wire = self._package.module("wire")
        if wire is None:
            return found
        found.append(Example("http", "to_http(envelope)", wire.to_http(envelope)))
        # The answer to a client that asks for RFC 9457's media type; a failure inside a
        # result stays an envelope in a 200 (to_http's rule), so it has no tab of its own.
        problem = wire.to_http(envelope, problem=True)
        if problem[1].get("Content-Type") == wire.PROBLEM_JSON:
            found.append(Example("problem", "to_http(envelope, problem=True)", problem))
        found.append(Example("jsonrpc", "to_mcp(envelope, 1)", wire.to_mcp(envelope, 1)))
        found.append(Example("tool", "to_tool_result(envelope)", wire.to_tool_result(envelope)))
        status = wire.to_status(code.name, asked, **passed)
        shown = f"{name}{f', {asked!r}' if asked else ''}{written}"
        found.append(Example("grpc", f"to_status({shown})", status))
        return found


#: Keyword names the package's functions take for themselves: a placeholder named so
#: travels in ``params``, as the package's docstrings say.
_OWN_KEYWORDS = frozenset({"message", "request_id", "locale", "params", "instance"})


def _keywords(values: dict[str, object]) -> tuple[dict[str, object], str]:
    """The placeholder values as keyword arguments, and as written in a call (", a=1"):
    as keywords when every name can be one, else in one ``params`` mapping."""
    if not values:
        return {}, ""
    if all(
        n.isidentifier() and not keyword.iskeyword(n) and n not in _OWN_KEYWORDS for n in values
    ):
        return values, "".join(f", {n}={v!r}" for n, v in values.items())
    return {"params": values}, f", params={values!r}"
