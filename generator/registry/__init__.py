"""The registry: its model, the loader, the schema and the validators."""
