"""The gettext catalogs: entries, PO and MO files, plural rules, checks."""
