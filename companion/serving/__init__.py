"""The web stack both servers share (the table's, the dashboard's): waitress, SSE, languages, headers."""
