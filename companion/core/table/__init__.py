"""The table: the single writer of the running game, its links, the platform's own commands, its export."""

from companion.core.table.updates import Result, Update
from companion.core.table.writer import BUTTON_REFUSED, INTERNAL_ERROR, REISSUE_HOST, SAVE_FAILED, Table

__all__ = ["BUTTON_REFUSED", "INTERNAL_ERROR", "REISSUE_HOST", "Result", "SAVE_FAILED", "Table", "Update"]
