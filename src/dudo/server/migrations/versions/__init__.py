"""One module per schema version, oldest first."""
