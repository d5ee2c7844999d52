"""The bundled games, one package each; the platform finds them through companion.core.registry."""
