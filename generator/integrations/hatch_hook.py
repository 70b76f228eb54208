"""A hatchling build hook: building an application's wheel or sdist regenerates its outputs.

In the application's pyproject.toml::

    [build-system]
    requires = ["hatchling", "errorbook"]
    build-backend = "hatchling.build"

    [tool.hatch.build.hooks.errorbook]

The hook runs the same pipeline as ``errorbook generate`` before hatchling collects files, so
a wheel can never ship a package that disagrees with its registry. An invalid registry stops
the build with errorbook's diagnostics.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface
from hatchling.plugin import hookimpl

from .. import config
from ..diagnostics import InvalidInput
from ..errors import ErrorbookError
from ..pipeline import build, stamp


class ErrorbookBuildError(Exception):
    """The registry is invalid or the outputs cannot be written; the build stops."""


class ErrorbookBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "errorbook"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        try:
            settings = config.load(cwd=Path(self.root))
            if stamp.unchanged(settings):
                return  # nothing changed since the last generate
            results, _ = build.regenerate(settings)
        except InvalidInput as exc:
            raise ErrorbookBuildError(
                "errorbook: the registry is invalid; fix it, then build again:\n"
                + exc.diagnostics.render(with_id=True)
            ) from None
        except ErrorbookError as exc:  # configuration, usage, output, an unreadable input
            raise ErrorbookBuildError(f"errorbook: {exc}") from None
        changed = [r.path for r in results if r.status != "unchanged"]
        if changed:
            self.app.display_info(f"errorbook: regenerated {len(changed)} file(s)")


@hookimpl
def hatch_register_build_hook() -> type[BuildHookInterface]:  # type: ignore[type-arg]
    return ErrorbookBuildHook
