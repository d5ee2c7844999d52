"""Templates and static files of the phone pages, read at run time."""
