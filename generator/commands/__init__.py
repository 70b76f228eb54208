"""One module per command-line verb, each with ``add_parser`` and ``run``."""
