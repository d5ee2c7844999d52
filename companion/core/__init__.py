"""The core: the pure session, the registry of games, seats, and the table that is their single writer."""
