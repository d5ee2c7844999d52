"""The outputs: what reads the table's updates (the web app, e-ink frames, records, the venue publisher)."""
