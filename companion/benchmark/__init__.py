"""`companion bench`: the figures a person at the table perceives, measured on the real pipeline."""
