"""Tests of the catalogs package: PO files, merges, checks."""
