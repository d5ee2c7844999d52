"""Storage: the durable log (SQLite), its checks, its files, its bound on disk and its tools."""
