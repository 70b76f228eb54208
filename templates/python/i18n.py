"""Localized messages, looked up with the standard library's gettext.

:func:`message` and :class:`Translator` pick the best shipped language for a requested locale
(``de_AT``, ``de-AT`` and ``de_AT.UTF-8`` all reach ``de``; ``zh_TW`` reaches ``zh_Hant``),
choose the plural form from the code's count placeholder, and fill placeholders by name only.
A translation that is missing, fuzzy or broken falls back to the source text; it never raises.
Catalogs are loaded on first use, one locale at a time.
"""

from __future__ import annotations

from . import _negotiate
from ._format import Fill, check_params, code_text, compile_template, merge_params, split
from .codes import DIGIT_GROUPS, LOCALES, RIGHT_TO_LEFT, SCRIPTS, SOURCE_LOCALE, _Text

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:  # at run time gettext is imported by _load, when a catalog is first read
    import gettext
    from collections.abc import Callable

    from .codes import ErrorCode  # built on first use (see codes.py)

DOMAIN = "messages"
#: The msgctxt of a code's title, beside the code's own for its message (the generator's
#: ``model.title_context``).
_TITLE_CONTEXT = "{}.title"
_TRANSLATED = tuple(tag for tag in LOCALES if tag != SOURCE_LOCALE)
_CACHE_LIMIT = 512
_COUNTS = 1024
_catalogs: dict[str, gettext.NullTranslations] = {}
_translators: dict[str | None, Translator] = {}
#: Each shared Translator's fast path by the locale it was asked for, so that message()
#: reaches it in one look-up.
_fast: dict[str | None, dict[str, Fill]] = {}
#: The fast path's compiler, under the name this module has always given it.
_compile = compile_template


def fallback_chain(locale: str | None) -> tuple[str, ...]:
    """The shipped locales to try for ``locale``, best first, ending in the source locale."""
    _check_locale(locale)
    return _negotiate.chain(locale, _TRANSLATED, SCRIPTS, SOURCE_LOCALE)


def _check_locale(locale: object) -> None:
    """A TypeError that names the argument for a locale that is neither a str nor None, not
    the error of whatever it would fail in (a dict look-up, a str method)."""
    if locale is not None and not isinstance(locale, str):
        raise TypeError(
            "locale must be a str (a language tag such as 'de' or 'pt-BR') or None, "
            f"not {type(locale).__name__}"
        )


def _load(locale: str) -> gettext.NullTranslations:
    found = _catalogs.get(locale)
    if found is None:
        import gettext  # here, not above, like resources: the source locale needs neither
        from importlib import resources  # here, not above: it would add to every import

        path = resources.files(__package__) / "locales" / locale / "LC_MESSAGES" / f"{DOMAIN}.mo"
        try:
            with path.open("rb") as stream:
                found = gettext.GNUTranslations(stream)
        except Exception:  # gettext's own errors for a damaged file vary (below)
            # A missing or broken file: the source text. A file cut short raises struct.error,
            # a charset Python does not know LookupError, a bad header ValueError or OSError.
            found = gettext.NullTranslations()
        _catalogs[locale] = found
    return found


class Translator:
    """Messages in one negotiated locale; build it once and reuse it.

    Each code's translation is checked once, on first use, and kept compiled (see _compile):
    a template that passed (plain ``{name}`` fields of the code's own placeholders, ``{{`` and
    ``}}``) can then only substitute values, as str.format would.
    """

    def __init__(self, locale: str | None = None) -> None:
        self.requested = locale
        self.chain = fallback_chain(locale)
        self.locale = self.chain[0]
        # How values are written into this language's messages (see compile_template).
        self._group = DIGIT_GROUPS.get(self.locale)
        self._isolate = self.locale in RIGHT_TO_LEFT
        self._codes: dict[str, tuple[_Text, frozenset[str], gettext.NullTranslations | None]] = {}
        self._templates: dict[tuple[str, int], tuple[str, Fill]] = {}
        # The fast path, by code: a function of the parameters that an earlier call kept,
        # so that a call is one dict look-up and one call. For a code with a count, it
        # picks the template kept for that count from _counts (at most _COUNTS counts per
        # code, so that arbitrary counts cannot grow it without end). Each function raises
        # KeyError for parameters that are not as many as the code's placeholders, and
        # reads each of them, so that a KeyError tells a call with other names (or a count
        # not seen yet), which takes _message and its checks.
        self._fast: dict[str, Fill] = {}
        self._counts: dict[str, dict[object, Fill]] = {}
        self._titles: dict[str, str | None] = {}  # by code: one per code at most
        self._languages: dict[str, str] = {}  # by code: the shipped locale its message is in

    def _code_facts(
        self, code: ErrorCode | str
    ) -> tuple[_Text, frozenset[str], gettext.NullTranslations | None]:
        info = code_text(code)
        source: gettext.NullTranslations | None = None
        for tag in self.chain[:-1]:  # the first catalog that translates this code
            catalog = _load(tag)
            if info.message_plural is not None:
                text = catalog.npgettext(info.code, info.message, info.message_plural, 1)
                found = text not in (info.message, info.message_plural)
            else:
                found = catalog.pgettext(info.code, info.message) != info.message
            if found:
                source = catalog
                self._languages[info.code] = tag
                break
        facts = (info, frozenset(info.placeholders), source)
        self._codes[info.code] = facts
        return facts

    def language(self, code: ErrorCode | str) -> str:
        """The shipped locale this translator's messages for ``code`` are in: the first of
        its chain whose catalog translates the code, else the source locale (a code without
        a translation falls back to the source text)."""
        try:
            known = code in self._codes  # an ErrorCode hashes and compares as its value
        except TypeError:  # a list, a dict: no code, and code_text says so
            known = False
        if not known:
            self._code_facts(code)
        return self._languages.get(code, SOURCE_LOCALE)

    def _template(
        self, info: _Text, source: gettext.NullTranslations | None, count: int | None
    ) -> tuple[str, Fill]:
        """The checked template for ``count`` and its compiled form, kept per plural form."""
        if count is None or info.message_plural is None:
            form = 0
        else:
            # A negative count takes the form of its magnitude (CLDR's operand n, as
            # Intl.PluralRules reads it): gettext's formulas assume n >= 0.
            count = abs(count)
            form = (0 if count == 1 else 1) if source is None else self._selector(source)(count)
        key = (info.code, -1 - form if source is None else form)
        found = self._templates.get(key)
        if found is None:
            if source is None:
                text = (
                    info.message
                    if form == 0 or info.message_plural is None
                    else info.message_plural
                )
            elif info.message_plural is not None and count is not None:
                text = source.npgettext(info.code, info.message, info.message_plural, count)
            else:
                text = source.pgettext(info.code, info.message)
            compiled = self._compiled(text, info)
            if compiled is None:
                # A translation with a forbidden field: never trust it, use the source.
                text = (
                    info.message
                    if form == 0 or info.message_plural is None
                    else info.message_plural
                )
                compiled = self._compiled(text, info)
            # The source has only its own placeholders (the generator checks); if not, it is
            # filled as it always was.
            found = self._templates[key] = (text, compiled or text.format_map)
        return found

    def _compiled(
        self, text: str, info: _Text, known: tuple[str, int] | None = None
    ) -> Fill | None:
        """``text`` compiled for this language: digits grouped, values isolated in a
        right-to-left language, a ``known`` value written in (see compile_template). The
        message a language falls back to (the source text) is written the same way, since
        it is shown among that language's words."""
        return _compile(
            text,
            info.placeholders,
            known=known,
            integers=info.integers,
            group=self._group,
            isolate=self._isolate,
            arity=len(frozenset(info.placeholders)),
        )

    def title(self, code: ErrorCode | str) -> str | None:
        """The code's title in this locale: the first catalog of the chain that translates
        it, else the source text; None for a code without a title. A title has no
        placeholders, so a translation is shown as it is (the catalogs hold only usable
        ones)."""
        if isinstance(code, str) and code in self._titles:  # an ErrorCode is a str
            return self._titles[code]
        info = code_text(code)
        found = info.title
        if found is not None:
            context = _TITLE_CONTEXT.format(info.code)
            for tag in self.chain[:-1]:
                text = _load(tag).pgettext(context, found)
                if text != found:
                    found = text
                    break
        self._titles[info.code] = found
        return found

    def template(self, code: ErrorCode | str, count: int | None = None) -> str:
        """The translated template for a code (the source text where none is usable)."""
        info, _, source = self._codes.get(str(code)) or self._code_facts(code)
        return self._template(info, source, count)[0]

    def message(self, code: ErrorCode | str, /, **keywords: object) -> str:
        """The localized message, filled in with the keyword arguments and the ``params``
        mapping (for names that cannot be keyword arguments, such as ``class``). Bad
        parameters raise TypeError naming them. ``params`` is read from ``keywords``, as
        :func:`message` reads it."""
        if "params" in keywords:
            params = keywords.pop("params")
            if params is not None:
                return self._message(code, merge_params(code_text(code), params, keywords))
        try:
            kept = self._fast.get(code)  # an ErrorCode hashes and compares as its value
        except TypeError:  # unhashable, so no code: _message says so
            kept = None
        if kept is not None:
            try:
                return kept(keywords)
            except KeyError:
                pass
        return self._message(code, keywords)

    def _message(self, code: ErrorCode | str, params: dict[str, object]) -> str:
        """message() when the fast path did not answer: checks the parameters, fills the
        template and keeps it for the next call with the same count."""
        facts = self._codes.get(code) if isinstance(code, str) else None
        info, names, source = facts if facts is not None else self._code_facts(code)
        count = params.get(info.count) if info.count is not None else None
        if params.keys() != names or (info.count is not None and type(count) is not int):
            check_params(info, params)  # raises, naming the code and the placeholder
        number = count if isinstance(count, int) else None
        text, compiled = self._template(info, source, number)
        if info.count is None:
            kept = _reading_all(text, info, compiled)
            if kept is not None:
                self._fast[info.code] = kept
        elif type(number) is int:
            counts = self._counts.get(info.code)
            if counts is None:
                counts = self._counts[info.code] = {}
                self._fast[info.code] = _by_count(info.count, counts)
            if len(counts) < _COUNTS:
                # Kept for this count, which is written into the text once and for all.
                counted = self._compiled(text, info, known=(info.count, number))
                others = tuple(name for name in info.placeholders if name != info.count)
                kept = _reading_all(text, info, counted, others) if counted else None
                if kept is not None:
                    counts[number] = kept
        return compiled(params)

    @staticmethod
    def _selector(source: gettext.NullTranslations | None) -> Callable[[int], int]:
        chosen = getattr(source, "plural", None) if source is not None else None
        if chosen is not None:
            return chosen  # type: ignore[no-any-return]
        return lambda n: 0 if n == 1 else 1


def _by_count(name: str, counts: dict[object, Fill]) -> Fill:
    """The fast path of a code whose count is ``name``: the function kept in ``counts`` for
    the call's count. A KeyError for a count not seen yet, or one that is not an int."""

    def by_count(params: dict[str, object]) -> str:
        count = params[name]
        if count.__class__ is not int:  # a bool equals 0 or 1, but is no count
            raise KeyError(name)
        return counts[count](params)

    return by_count


def _reading_all(
    text: str, info: _Text, compiled: Fill, names: tuple[str, ...] | None = None
) -> Fill | None:
    """``compiled`` (the function ``text`` was compiled into), made to read each of
    ``names`` (the code's placeholders by default) even where the text leaves one out, as a
    translation may: a missing name is then a KeyError, as for the others. None for a text
    that does not compile."""
    if names is None:
        names = info.placeholders
    pieces = split(text, info.placeholders)
    if pieces is None:
        return None
    unread = [name for name in names if name not in pieces[1]]
    if not unread:
        return compiled

    def reading_all(params: dict[str, object]) -> str:
        for name in unread:
            params[name]  # a KeyError for a call without it
        return compiled(params)

    return reading_all


def translator(locale: str | None = None) -> Translator:
    """A shared Translator per requested locale. The cache is bounded: tags often come from
    request headers, and a client must not be able to grow it without end."""
    _check_locale(locale)
    found = _translators.get(locale)
    if found is None:
        if len(_translators) >= _CACHE_LIMIT:
            _translators.clear()
            _fast.clear()
        found = _translators[locale] = Translator(locale)
        _fast[locale] = found._fast
    return found


def title(code: ErrorCode | str, locale: str | None = None) -> str | None:
    """The title of ``code`` in ``locale`` (the source locale when None): a short summary
    that is the same for every occurrence; None for a code without a title."""
    return translator(locale).title(code)


def message(code: ErrorCode | str, locale: str | None = None, /, **keywords: object) -> str:
    """The message for ``code`` in ``locale`` (the source locale when None), its placeholders
    given as keyword arguments, in a ``params`` mapping (for names that cannot be keyword
    arguments, such as ``class``), or both.

    ``params`` is one of the keywords, taken out of them here, rather than a keyword-only
    parameter of its own: the interpreter would then compare each keyword of every call with
    it, a cost every call pays and few need. The keyword ``params`` is always the mapping, as
    it would be then: a placeholder named ``params`` travels inside it."""
    if "params" in keywords:
        params = keywords.pop("params")
        if params is not None:
            keywords = merge_params(code_text(code), params, keywords)
            return translator(locale)._message(code, keywords)
    # Translator.message, written out here: the call it saves is a fifth of the time a call
    # that hits takes. A KeyError is any miss: the locale, the code or the count not seen
    # yet, or other names than the code's.
    try:
        return _fast[locale][code](keywords)
    except KeyError:
        pass
    except TypeError:  # a value the message's function refuses, or an unhashable
        if isinstance(code, str) and (locale is None or isinstance(locale, str)):
            raise
        # a code or a locale of another type: the slow path below says which
    return translator(locale)._message(code, keywords)
