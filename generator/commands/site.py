"""``errorbook site build`` and ``errorbook site serve``: the reference site, with the tool alone.

``build`` runs one strict MkDocs build per published language, side by side, and brings
``<site>/build`` in line with them only when every build passed (see
:mod:`..integrations.site_build`). ``serve`` previews one language while you edit: errorbook
watches the registry, the catalogs and the hand-written pages itself and regenerates when one
changes, so MkDocs sees one change of the pages and rebuilds once; a registry that cannot be
read shows its problems on the page in the browser, and in the terminal, until it is fixed.
"""

from __future__ import annotations

import argparse
import errno
import importlib.util
import json
import os
import signal
import sys
import tempfile
import threading

from ..config import Config
from ..errors import UsageError
from ..integrations.site_build import SERVING

HELP = "build the reference site, or serve one language while you edit"
DESCRIPTION = (
    "build: one strict MkDocs build per published language into <site>/build. serve: a live "
    "preview of one language that regenerates when the registry, a catalog or a page changes."
)

#: How often `serve` looks at the inputs (seconds): a stat of each, no parsing.
POLL = 0.4


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    build = actions.add_parser("build", help="build every published language")
    build.add_argument(
        "--out",
        metavar="DIR",
        help="build into DIR/<lang>/ and DIR/index.html instead of <site>/build: a new or "
        "empty folder, or one an earlier --out build made (each DIR/<lang> then holds exactly "
        "its build)",
    )
    build.add_argument("--jobs", metavar="N", type=int, help="builds at a time")
    build.add_argument("--staging", metavar="DIR", help="where the builds are staged first")
    build.add_argument(
        "--json",
        metavar="FILE",
        help="write what each build took to FILE (a new file, or an earlier such report)",
    )
    build.add_argument(
        "--verbose",
        action="store_true",
        help="say which of the plugin's memos (its fast paths) a build keeps none of, and why",
    )
    serve = actions.add_parser("serve", help="preview one language and regenerate on change")
    serve.add_argument("--lang", metavar="LANG", help="the language (default: the source one)")
    serve.add_argument(
        "--dev-addr", metavar="HOST:PORT", default="127.0.0.1:8000", help="where to serve"
    )


def run(args: argparse.Namespace, config: Config) -> int:
    if config.site_dir is None:
        raise UsageError(
            'no site is configured: add site = "site" to [tool.errorbook] (errorbook init '
            "does), then run `errorbook generate`"
        )
    if importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("material") is None:
        raise UsageError(
            "building the site needs MkDocs and Material for MkDocs: install errorbook with "
            "its site extra, such as `pip install 'errorbook[site] @ <wheel or git URL>'`"
        )
    base = config.site_dir / "mkdocs.base.yml"
    if not base.is_file():
        raise UsageError(
            f"{config.display(base)} is missing: every language's configuration inherits it "
            "(`errorbook init` writes one to start from)"
        )
    if args.action == "build":
        return _build(args, config)
    return _serve(args, config)


def _build(args: argparse.Namespace, config: Config) -> int:
    from ..integrations import site_build

    assert config.site_dir is not None
    argv = ["--site", str(config.site_dir)]
    for flag in ("out", "jobs", "staging", "json"):
        value = getattr(args, flag)
        if value is not None:
            argv += [f"--{flag}", str(value)]
    if args.verbose:
        argv.append("--verbose")
    return site_build.main(argv)


def _serve(args: argparse.Namespace, config: Config) -> int:
    from ..diagnostics import InvalidInput
    from ..pipeline import build

    assert config.site_dir is not None
    _check_address(args.dev_addr)
    published = [p.name.split(".")[1] for p in sorted(config.site_dir.glob("mkdocs.*.yml"))]
    published = [lang for lang in published if lang != "base"]
    try:
        source = build.registry_for(config).meta.source_locale
    except InvalidInput:
        if not published:
            raise  # nothing was ever generated: the diagnostics are all there is to show
        source = published[0]  # the last good pages are served, with the problems on them
    lang = args.lang or source
    with tempfile.TemporaryDirectory(prefix="errorbook-serve-") as signal_folder:
        return _serve_language(args, config, published, Watcher(config, lang, signal_folder))


def _serve_language(
    args: argparse.Namespace, config: Config, published: list[str], watcher: Watcher
) -> int:
    from ..integrations import site_build

    assert config.site_dir is not None
    lang = watcher.lang
    watcher.regenerate()
    site_config = config.site_dir / f"mkdocs.{lang}.yml"
    if not site_config.is_file():
        raise UsageError(
            f"'{lang}' is not a published language of this site (published: "
            f"{', '.join(published) or 'none'}); a language is published once some of its "
            "reference prose is translated"
        )
    thread = threading.Thread(target=watcher.loop, name="errorbook-watch", daemon=True)
    thread.start()
    os.environ[SERVING] = watcher.signal_folder
    _stop_on_terminate()
    _mkdocs_logging()
    try:
        site_build.serve(site_config, args.dev_addr)
    except OSError as exc:
        if exc.errno not in (errno.EADDRINUSE, errno.EADDRNOTAVAIL, errno.EACCES):
            raise
        raise UsageError(
            f"cannot serve on {args.dev_addr}: {exc.strerror}; choose another --dev-addr"
        ) from None
    finally:
        watcher.stop.set()
    return 0


def _check_address(address: str) -> None:
    """A usage error unless ``address`` is HOST:PORT with a port MkDocs can listen on."""
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit() or not 1 <= int(port) <= 65535:
        raise UsageError(
            f"--dev-addr {address!r} is not HOST:PORT with a port from 1 to 65535, such as "
            "127.0.0.1:8000"
        )


def _stop_on_terminate() -> None:
    """End the preview on SIGTERM as on Ctrl-C. What a process manager, ``timeout`` or
    ``kill`` sends would otherwise end the process at once, and MkDocs' temporary site
    folder would stay behind; as a KeyboardInterrupt, MkDocs shuts its server down and
    removes the folder. A SIGTERM the caller chose to ignore stays ignored."""
    if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _interrupt)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _mkdocs_logging() -> None:
    """MkDocs' messages on the terminal, as its own command line shows them (its API leaves
    logging to the caller): where it serves, each build, each reload."""
    import logging

    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(levelname)-7s -  %(message)s"))
    logger = logging.getLogger("mkdocs")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)


class Watcher:
    """Regenerates the outputs when an input of the last run changed (the stamp says so from
    sizes and times alone), and reports each time what it did, in one line."""

    def __init__(self, config: Config, lang: str, signal_folder: str) -> None:
        self.config = config
        self.lang = lang
        self.signal_folder = signal_folder  # touched once a regeneration wrote the pages
        self.signals = 0
        self.stop = threading.Event()
        self.broken = False
        self.failed_on: tuple[tuple[str, int, int], ...] | None = None

    def loop(self) -> None:
        from ..pipeline import stamp

        while not self.stop.wait(POLL):
            if self.failed_on is not None and self.failed_on == self._inputs():
                continue  # still the inputs that failed: wait for the next edit
            if not stamp.unchanged(self.config):
                self.regenerate()

    def _inputs(self) -> tuple[tuple[str, int, int], ...]:
        """Each input's path, modification time and size: the registry, the catalogs, the
        pages and pyproject.toml (what a failed run is not retried on until one changes)."""
        found = [self.config.registry, self.config.root / "pyproject.toml"]
        assert self.config.site_dir is not None
        for folder in (self.config.locales_dir, self.config.site_dir / "pages"):
            if folder.is_dir():
                found += sorted(folder.rglob("*"))
        signature = []
        for path in found:
            try:
                info = path.stat()
            except OSError:
                continue
            signature.append((str(path), info.st_mtime_ns, info.st_size))
        return tuple(signature)

    def regenerate(self) -> None:
        from ..diagnostics import InvalidInput
        from ..errors import ErrorbookError
        from ..pipeline import build

        assert self.config.site_dir is not None
        self.failed_on = self._inputs()  # until the run succeeds
        try:
            written, run = build.regenerate(self.config)
        except InvalidInput as exc:
            text = exc.diagnostics.render(with_id=True)
            print(f"errorbook: the pages were not regenerated:\n{text}", file=sys.stderr)
            self._show(text)
            return
        except ErrorbookError as exc:
            print(f"errorbook: the pages were not regenerated: {exc}", file=sys.stderr)
            self._show(str(exc))
            return
        self.failed_on = None
        changed = [f for f in written if f.status != "unchanged"]
        fixed = self.broken
        self.broken = False
        problems = len(run.problems.items)
        note = f"; {problems} catalog problem{'s' * (problems != 1)}" if problems else ""
        if changed or fixed:
            self.signal()
            print(
                f"errorbook: regenerated {len(changed)} file{'s' * (len(changed) != 1)}"
                f"{note}{' (the problems are fixed)' if fixed else ''}",
                file=sys.stderr,
            )

    def _show(self, text: str) -> None:
        """Put the problems on every page of the served language: the site's script gets a
        banner that lists them, which the browser reloads with, until a run succeeds (and
        writes the script as it should be)."""
        from .. import inputs
        from ..pipeline import output

        self.broken = True
        assert self.config.site_dir is not None
        script = self.config.site_dir / "docs" / self.lang / "assets" / "errorbook.js"
        try:  # read as any input is: never a FIFO, a device or a link
            data = inputs.read(script, follow=False)
            current = data.decode("utf-8") if data is not None else None
        except (inputs.InputFileError, UnicodeDecodeError):
            current = None
        if current is None:
            return  # no page shows the banner; the terminal has the problems
        current = current.split(BANNER_MARK, 1)[0]
        banner = BANNER.replace("PROBLEMS", json.dumps(text))
        path = str(script.relative_to(self.config.root))
        output.write(self.config.root, {path: (current + BANNER_MARK + banner).encode()}, False)
        self.signal()

    def signal(self) -> None:
        """Tell MkDocs' server that the pages are written: one file changed in the folder it
        watches (see :data:`SERVING`)."""
        from pathlib import Path

        from ..pipeline import output

        self.signals += 1
        output.write_cache(Path(self.signal_folder), "written", b"%d\n" % self.signals)


BANNER_MARK = "\n// errorbook site serve: the registry's problems\n"
BANNER = """\
document.addEventListener("DOMContentLoaded", () => {
  const box = document.createElement("pre");
  box.setAttribute("role", "alert");
  box.style.cssText = "position:fixed;inset:auto 0 0 0;max-height:50vh;overflow:auto;" +
    "margin:0;padding:1em;background:#b00020;color:#fff;z-index:10;white-space:pre-wrap";
  box.textContent = "errorbook could not regenerate the pages:\\n" + PROBLEMS;
  document.body.append(box);
});
"""
