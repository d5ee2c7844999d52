"""Pin profiles (TOML), wiring tables and bills of materials, read at run time."""
