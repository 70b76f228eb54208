"""How errorbook's own wheel is built (hatchling's custom hook; not part of the package).

The code lives in the folder ``generator/`` and installs as the import package ``errorbook``,
so that it never clashes with a project's own ``generator`` package. A standard wheel renames
the folder (``sources`` in pyproject.toml) and ships the templates inside it. An editable
install cannot rename a folder, so it ships a small import hook instead: the name
``errorbook`` is found in this checkout's ``generator/`` folder. An editable install also puts
the checkout's root on the path (``dev-mode-dirs``), as any editable install of a flat layout
does, so ``generator``, ``surface_errors`` and ``tests`` import there too: that is for working
on errorbook itself, and never happens with the wheel.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

FINDER = '''"""errorbook in editable mode: the import package errorbook is the folder below.

This runs at every start of the interpreter (from a .pth file), so it imports nothing until
errorbook itself is imported: importlib.abc alone would add tens of milliseconds to each.
"""

import sys

_FOLDER = {folder!r}


class _Finder:
    @staticmethod
    def find_spec(name, path=None, target=None):
        if name != "errorbook":
            return None
        import importlib.util

        return importlib.util.spec_from_file_location(
            name, _FOLDER + "/__init__.py", submodule_search_locations=[_FOLDER]
        )


if not any(type(f).__name__ == "_Finder" for f in sys.meta_path):
    sys.meta_path.insert(0, _Finder())
'''


class ErrorbookBuild(BuildHookInterface[Any]):
    """Adds the templates to a standard wheel, and the import hook to an editable one."""

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        root = Path(self.root)
        if version == "editable":
            folder = self._scratch = tempfile.mkdtemp(prefix="errorbook-editable-")
            finder = Path(folder) / "_errorbook_editable.py"
            finder.write_text(FINDER.format(folder=(root / "generator").as_posix()), "utf-8")
            pth = Path(folder) / "_errorbook_editable.pth"
            pth.write_text("import _errorbook_editable\n", "utf-8")
            build_data["force_include"][str(finder)] = finder.name
            build_data["force_include"][str(pth)] = pth.name
        else:
            build_data["force_include"][str(root / "templates")] = "errorbook/templates"

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        """The import hook's files are in the wheel now: remove their temporary folder."""
        folder = getattr(self, "_scratch", None)
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
