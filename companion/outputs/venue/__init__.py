"""A table's side of a venue: the outbox, written in each command's transaction, and its sender."""
