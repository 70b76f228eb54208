"""The documentation site's pages, rendered from the registry."""
