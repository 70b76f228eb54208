"""Tests of the emitters: the Python package and the site."""
