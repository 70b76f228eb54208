"""Every diagnostic id errorbook can report, each with what it means.

A :class:`~generator.diagnostics.Diagnostic` names its kind with one of these ids. The
message beside it may be reworded in any release; the id stays, so a script, an editor or a
test can recognise a problem without parsing English. An id reads ``E-`` (an error) or ``W-``
(a warning), then the concern it belongs to (``YAML``, ``SCHEMA``, ``REF``, ``PO``, ...),
then the problem. The table lives here, once: the site's schema page lists it, and
``tests/test_diagnostic_ids.py`` proves that every id the code reports is in it and every
id in it is reported somewhere.

To add a diagnostic: add its id here with one sentence saying what is wrong, then pass the id
to ``Diagnostics.error`` (or ``warning``) where the problem is found.
"""

from __future__ import annotations

import re

#: The shape of an id: severity letter, concern, then one or more words, upper case.
PATTERN = re.compile(r"[EW]-[A-Z0-9]+(-[A-Z0-9]+)+\Z")

#: Every id, grouped by concern, with a one-sentence explanation (shown on the site).
IDS: dict[str, str] = {
    # Reading any input file
    "E-FILE-MISSING": "An input file does not exist, or it was removed while errorbook ran.",
    "E-FILE-UNREADABLE": "An input is not a regular file errorbook can read safely: a "
    "folder, a pipe, a device, a link where none is allowed, or a file over the size limit.",
    "E-FILE-NOT-UTF8": "A text input holds bytes that are not UTF-8.",
    # Templates (errorbook's own, or a project's overrides)
    "E-TEMPLATE-SYNTAX": "A template is not valid Jinja2: a tag, an expression or a block "
    "that is not closed.",
    "E-TEMPLATE-RENDER": "A template failed while errorbook filled it in: it names a value "
    "that does not exist, a template it includes cannot be found, or (in a project's "
    "override) a filter or call refused what it was given.",
    # The registry as YAML
    "E-YAML-SYNTAX": "The registry is not well-formed YAML.",
    "E-YAML-CHARACTER": "The registry holds a character that YAML does not allow in a file.",
    "E-YAML-LINE-SEPARATOR": "The registry holds NEL, U+2028 or U+2029, which YAML reads as "
    "line breaks that editors do not show.",
    "E-YAML-EMPTY": "The registry file holds nothing but comments or white space.",
    "E-YAML-MULTIPLE-DOCUMENTS": "The registry file holds more than one YAML document.",
    "E-YAML-ANCHOR": "The registry defines a YAML anchor; anchors and aliases are refused.",
    "E-YAML-ALIAS": "The registry uses a YAML alias; anchors and aliases are refused.",
    "E-YAML-TAG": "A value carries an explicit YAML tag other than the plain types.",
    "E-YAML-COMPLEX-KEY": "A mapping key is a list or a mapping instead of plain text.",
    "E-YAML-TOO-DEEP": "The registry nests more levels than any registry needs.",
    # The registry against its schema
    "E-SCHEMA-NOT-MAPPING": "A section or an object is not a mapping of keys to values.",
    "E-SCHEMA-UNKNOWN-KEY": "An object has a key its schema does not define.",
    "E-SCHEMA-DUPLICATE-KEY": "An object gives the same key twice.",
    "E-SCHEMA-MISSING-KEY": "An object lacks a key its schema requires.",
    "E-POLICY-MISSING-KEY": "A code lacks a key that 'registry.required' asks of every code.",
    "E-POLICY-UNKNOWN-KEY": "The list 'registry.required' names a key that is not optional.",
    "E-SCHEMA-TYPE": "A value has the wrong type, such as a number where text is expected.",
    "E-SCHEMA-CHOICE": "A value is not one of the choices its key allows.",
    "E-SCHEMA-IDENTIFIER": "A value that must be a lower-case identifier is not one.",
    "E-SCHEMA-INTEGER": "A number is not written as a plain decimal integer.",
    "E-SCHEMA-INTEGER-RANGE": "A number lies beyond 2**53 - 1 either side of zero, which "
    "JSON readers in JavaScript and the TypeScript module would not hold exactly.",
    "E-SCHEMA-EMPTY-TEXT": "A text value is empty or only white space.",
    "E-SCHEMA-TEXT-TOO-LONG": "A text value is longer than errorbook allows.",
    "E-SCHEMA-CONTROL-CHARACTER": "A text value holds a control character.",
    "E-SCHEMA-EMPTY-SECTION": "A section such as 'codes' defines nothing.",
    "E-SCHEMA-TOO-MANY-CODES": "The registry defines more codes than errorbook handles.",
    # Declared extra fields
    "E-FIELD-NAME": "A declared field's name is not an identifier a program can use, or is "
    "already a key of every code.",
    "E-FIELD-OPTION": "A field declaration gives an option its type does not take, such as "
    "a pattern on an integer.",
    "E-FIELD-PATTERN-INVALID": "A field's declared pattern is not a valid regular expression.",
    "E-FIELD-RANGE": "A field declaration's min is above its max.",
    "E-FIELD-NO-VALUES": "A choice field is declared without the values it allows.",
    "E-FIELD-PATTERN-MISMATCH": "A code's value for a declared field does not match its pattern.",
    "E-FIELD-OUT-OF-RANGE": "A code's integer value for a declared field lies outside its range.",
    # Names of codes, layers, limits and adapters
    "E-NAME-DUPLICATE": "Two entries of one section have the same name.",
    "E-NAME-CODE-CONTROL": "A code name holds a control, format or separator character.",
    "E-NAME-CODE-FILE-NAME": "A code name makes a page file name longer than file systems allow.",
    "E-NAME-ID": "A layer, limit or adapter id is not a lower-case identifier.",
    "E-NAME-CODE-CASE": "A code name is not written in SCREAMING_SNAKE_CASE.",
    "E-NAME-CODE-KEYWORD": "A code name is a Python keyword once lower-cased.",
    "E-NAME-CODE-TOO-LONG": "A code name is longer than the registry's naming rule allows.",
    "E-NAME-CODE-PATTERN": "A part of a code name does not match 'registry.naming.pattern'.",
    "E-NAME-CODE-PARENT": "A sub-code's parent (its name up to the last dot) is not a code.",
    "E-NAME-CODE-IDENTIFIER": "Two codes would have the same Python and TypeScript identifier.",
    "E-NAME-CODE-SLUG": "Two codes would have the same reference page.",
    "E-NAME-CODE-RESERVED": "A sub-code is named like its parent's title in the catalogs "
    "(its last part is 'title').",
    # The registry's own metadata
    "E-META-DOCS-URL": "The registry's 'docs_url' is not an http(s) address ending in '/'.",
    "E-META-TITLE-MARKUP": "The registry's title holds characters that HTML would read as markup.",
    "E-META-TITLE-LINE-BREAK": "The registry's title holds a line break or a tab; it is "
    "a one-line header field of every catalog.",
    "E-META-NAMING-PATTERN": "The registry's naming pattern is not a valid regular expression.",
    "E-PATTERN-UNSUPPORTED": "A naming or field pattern uses what errorbook does not match in "
    "time linear in the text (back-references, look-around, word boundaries, inline flags, "
    "atomic groups, possessive repeats), or is too long, too deep or too large.",
    "E-META-NAMING-LENGTH": "The registry's naming max_length is outside what errorbook allows.",
    "E-META-PACKAGE": "The generated package's name is a Python keyword or errorbook's own.",
    # Locales
    "W-CATALOG-LOCALE-UNLISTED": "The locales folder holds a PO file for a locale the "
    "registry does not list; errorbook neither merges nor compiles it.",
    "E-LOCALE-TAG": "A locale is not a tag errorbook accepts or CLDR knows.",
    "E-LOCALE-IS-SOURCE": "The source locale is also listed as a target locale.",
    "E-LOCALE-DUPLICATE": "A target locale is listed twice.",
    "E-LOCALE-TOO-MANY": "The registry lists more target locales than errorbook allows.",
    # Versions and the life cycle of codes
    "E-VERSION-NUMBER": "A version is written as a number instead of MAJOR.MINOR.PATCH text.",
    "E-VERSION-FORMAT": "A version is not of the form MAJOR.MINOR.PATCH.",
    "E-VERSION-AFTER-REGISTRY": "A code is introduced, deprecated or retired in a version "
    "later than the registry's own.",
    "E-VERSION-ORDER": "A code is deprecated or retired before it was introduced or deprecated.",
    "E-VERSION-BEHIND": "The registry's version is lower than its changes since an earlier "
    "revision (check --against) require.",
    "E-VERSION-SINCE-NEW": "A code added since an earlier revision (check --against) is not "
    "since the registry's new version.",
    # Limits
    "E-LIMIT-RANGE": "A limit's minimum is above its maximum.",
    "E-LIMIT-DEFAULT": "A limit's default lies outside its own range.",
    # References between entries
    "E-REF-UNKNOWN-CODE": "An entry names a code that the registry does not define.",
    "E-REF-UNKNOWN-LAYER": "A code names a layer that the registry does not define.",
    "E-REF-UNKNOWN-LIMIT": "A code names a limit that the registry does not define.",
    "E-REF-UNKNOWN-ACTOR": "A layer names an actor that the registry does not declare.",
    "E-REF-UNKNOWN-SHAPE": "A layer or code names a shape that the registry does not declare.",
    "E-REF-UNKNOWN-RECOVERY-KIND": "A code's recovery names a kind that the registry does "
    "not declare.",
    "E-VOCABULARY-UNDECLARED": "A layer or code uses a key (actor, shape, recovery kind) "
    "whose vocabulary the registry does not declare.",
    "E-VOCABULARY-MISSING": "A layer or code leaves out a key (actor, shape, recovery kind) "
    "that the registry's declared vocabulary makes required.",
    "E-SHAPE-ENVELOPE-TAKEN": "Two shapes travel in the same envelope form, so a reader could "
    "not tell them apart.",
    "E-SHAPE-NAME-CLASH": "Two shape ids would give the generated packages the same type "
    "and builder names.",
    "E-WIRE-WITHOUT-SHAPES": "The registry names wires but declares no shapes, whose "
    "envelopes the wires carry.",
    "E-WIRE-UNKNOWN": "The registry's 'wires' list names a wire errorbook cannot map codes onto.",
    "E-WIRE-UNDECLARED": "A code gives a number for a wire ('http', 'jsonrpc') that the "
    "registry's 'wires' list does not name.",
    "E-REF-DUPLICATE": "A list of references names the same entry twice.",
    "E-REF-SELF": "A code names itself where another code is meant.",
    "E-REF-RETIRED-REPLACEMENT": "A deprecated code is replaced by a code that is retired.",
    "E-RENAME-CODE-EXISTS": "A code is renamed from a name another code of the registry has.",
    "E-RENAME-NOT-A-CODE-NAME": "A code's 'renamed_from' breaks the registry's naming rule.",
    "E-RENAME-TWICE": "Two codes are renamed from the same old name.",
    # Shapes and transport statuses
    "E-SHAPE-REASON-MISSING": "A code overrides its layer's shape without a 'shape_reason'.",
    "E-SHAPE-REASON-UNNEEDED": "A code has a 'shape_reason' though its shape is its layer's.",
    "E-STATUS-MISSING": "A code whose shape travels in the error envelope lacks its HTTP status "
    "or JSON-RPC code, on a wire the registry uses.",
    "E-STATUS-HTTP-NOT-ERROR": "A code's HTTP status is not in the 4xx or 5xx range.",
    "E-STATUS-GRPC-OK": "A code in the error envelope declares the gRPC status OK.",
    "E-STATUS-JSONRPC-RESERVED": "A code's JSON-RPC code lies in the range JSON-RPC 2.0 reserves.",
    "E-STATUS-JSONRPC-TRANSPORT": "A code's JSON-RPC code is one that a transport its "
    "registry's adapters declare (such as MCP) reserves for itself.",
    "E-STATUS-ON-ACTION": "A code whose shape travels inside a result gives a transport "
    "status, which only codes in the error envelope have.",
    # Placeholders and messages
    "E-PLACEHOLDER-NAME": "A placeholder name is not a plain ASCII identifier.",
    "E-PLACEHOLDER-EXAMPLE": "A placeholder's example is not one value of its type.",
    "E-EXAMPLE-RUNTIME": "The generated package refused a code's example values when the "
    "site asked it for the code's example on every wire.",
    "E-PLACEHOLDER-SYNTAX": "A message holds a brace field that is not a plain named placeholder.",
    "E-PLACEHOLDER-UNDECLARED": "A message uses a placeholder the code does not declare.",
    "E-PLACEHOLDER-UNUSED": "A code declares a placeholder its message never uses.",
    "E-MESSAGE-EMPTY": "A code's message is empty, which only a parent of sub-codes may leave.",
    "E-MESSAGE-TOO-LONG": "A UI message is longer than errorbook allows.",
    "E-TITLE-PLACEHOLDER": "A code's title holds a placeholder or a brace; a title is the "
    "same for every occurrence.",
    "E-TITLE-FORM": "A code's title is not one short line without a final full stop.",
    # Plural messages and plural rules
    "E-PLURAL-COUNT-UNDECLARED": "A plural message counts a placeholder the code does not declare.",
    "E-PLURAL-COUNT-TYPE": "The placeholder a plural message counts is not an integer.",
    "E-PLURAL-COUNT-UNUSED": "A plural message never shows the number it counts.",
    "E-PLURAL-NO-RULE": "errorbook knows no plural rule for a locale.",
    "E-PLURAL-FORMS-MISSING": "A catalog's Plural-Forms header is missing or malformed.",
    "E-PLURAL-FORMS-MISMATCH": "A catalog's Plural-Forms header differs from errorbook's rule "
    "for its language.",
    "E-PLURAL-FORMULA": "A catalog's plural formula cannot be read or picks a form that does "
    "not exist.",
    "E-PLURAL-NPLURALS": "A catalog declares a number of plural forms no language has.",
    "E-PLURAL-TOO-MANY-FORMS": "An entry has more plural forms than its catalog's header allows.",
    "W-PLURAL-FORMS-REPLACED": "The generate command replaced a catalog's own Plural-Forms "
    "header with errorbook's rule for its language.",
    "E-PLURAL-FORMS-WOULD-DROP": "A catalog's own Plural-Forms header has more forms than "
    "errorbook's rule for its language, and translations fill forms a merge would drop: "
    "generate leaves the file as it is.",
    # Recovery and retry
    "E-RECOVERY-NO-STEPS": "A code's recovery lists no steps.",
    "E-RETRY-NO-LIMIT": "A bounded retry policy names no limit to cap the attempts.",
    "E-RETRY-UNEXPECTED-LIMIT": "A retry policy other than 'bounded' names a limit.",
    "E-RECOVERY-RETRY-CONTRADICTS": "A code's retry policy is not one its recovery kind fits.",
    # PO files as files
    "E-PO-BYTE-ORDER-MARK": "A PO file starts with a byte-order mark.",
    "E-PO-CR-LINE-ENDINGS": "A PO file has carriage-return line endings.",
    "E-PO-CHARSET": "A PO file declares a character set other than UTF-8.",
    "W-PO-HEADER-DOUBLED": "A PO file's header writes a field more than once, which tools "
    "read differently (Babel the last, GNU gettext the first).",
    "E-PO-LINE-BREAK-IN-COMMENT": "A PO comment holds a character that Babel would write "
    "back as a line break, leaving a file that cannot be read.",
    "E-PO-UNKNOWN-KEYWORD": "A PO line starts with a word that is not a PO keyword.",
    "E-PO-ENTRY-ORDER": "The keywords of a PO entry are missing, repeated or out of order.",
    "E-PO-CONTEXT-ALONE": "A PO entry has a msgctxt but no msgid.",
    "E-PO-DUPLICATE-HEADER": "A PO file has a second header entry.",
    "E-PO-DUPLICATE-ENTRY": "A PO file has two entries with the same msgctxt and msgid.",
    "E-PO-STRING-MISSING": "A PO keyword is not followed by a quoted string.",
    "E-PO-STRING-UNCLOSED": "A quoted PO string does not end on its own line.",
    "E-PO-STRING-TRAILING": "A PO line goes on after its closing quote.",
    "E-PO-ESCAPE": "A quoted PO string uses an escape errorbook does not read.",
    "E-PO-MALFORMED": "Babel cannot read a PO entry.",
    "E-PO-FUZZY-HEADER": "A PO file's header is marked fuzzy, so tools would skip the file.",
    "E-PO-FOREIGN-PLURAL-FORMS": "Another tool's entry in a PO file has more plural forms "
    "than errorbook's rule for the language.",
    # Translations
    "E-TRANSLATION-EMPTY-FORM": "A plural translation fills some of its forms but not all.",
    "E-TRANSLATION-PLACEHOLDER-SYNTAX": "A translation holds a brace field that is not a "
    "plain named placeholder.",
    "E-TRANSLATION-UNKNOWN-PLACEHOLDER": "A translation uses a placeholder its source does "
    "not have.",
    "E-TRANSLATION-MISSING-PLACEHOLDER": "A translation leaves out a placeholder of its source.",
    "E-TRANSLATION-TOO-MANY-FIELDS": "A translation writes its placeholders more often than "
    "errorbook allows (64 fields, or as many as its source has).",
    "E-TRANSLATION-WHITESPACE": "A translation starts or ends with different white space "
    "than its source.",
    "E-TRANSLATION-CONTROL-CHARACTER": "A translation holds a control character.",
    # The site
    "E-SITE-PAGE-NAME": "A hand-written page's file name cannot be used in the site's addresses.",
    "E-SITE-PAGE-FOLDER": "A folder in the pages folder has a name ending in .md.",
    "E-SITE-PAGE-CLASH": "Two pages of the site would be one file or one address.",
    # Outputs
    "E-MANIFEST-LINE": "A line of the manifest of generated files names a file errorbook "
    "cannot prove is its own.",
    "E-OUTPUT-CLASH": "Two outputs would be written to the same path.",
    "E-OUTPUT-FOREIGN-CATALOG": "A catalog errorbook would write was written by another tool.",
}
