"""An MkDocs plugin that keeps the generated pages in step while the site is built or served.

``plugins: [errorbook]`` in mkdocs.yml. Before every build it runs the same pipeline as
``errorbook generate`` (which rewrites only files whose content changed), and under
``mkdocs serve`` it also watches the registry and the catalogs, so editing codes.yaml or a PO
file regenerates the pages and reloads the browser.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin

from . import build, config, output
from .diagnostics import InvalidInput


class ErrorbookPlugin(BasePlugin):  # type: ignore[type-arg,no-untyped-call]
    def _settings(self, mkdocs_config: MkDocsConfig) -> config.Config:
        folder = Path(mkdocs_config.config_file_path).resolve().parent
        try:
            return config.load(cwd=folder)
        except config.ConfigError as exc:
            raise PluginError(f"errorbook: {exc}") from None

    def on_pre_build(self, *, config: MkDocsConfig) -> None:
        settings = self._settings(config)
        try:
            registry = build.registry_for(settings)
            output.write(settings.root, build.outputs(settings, registry))
        except InvalidInput as exc:
            raise PluginError("errorbook:\n" + exc.diagnostics.render()) from None
        except output.OutputError as exc:
            raise PluginError(f"errorbook: {exc}") from None

    def on_serve(self, server: Any, /, *, config: MkDocsConfig, builder: Any) -> Any:
        settings = self._settings(config)
        server.watch(str(settings.registry))
        if settings.locales_dir.is_dir():
            server.watch(str(settings.locales_dir))
        return server
