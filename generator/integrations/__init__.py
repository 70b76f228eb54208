"""errorbook inside other tools: hatchling and MkDocs."""
