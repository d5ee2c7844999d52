"""What the web app is handed of the daemon: the table, and each other part where the daemon has it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from companion.core.table import Table


class Runtime(Protocol):
    """The daemon (companion.wiring.Companion) as the web reads it; a test hands its own.

    `board`, `display` and `refresher` are None where the table has no device; `networking` is None where
    the table does not manage its network, `venue` None where it publishes to no venue."""

    @property
    def table(self) -> Table: ...

    @property
    def language(self) -> str: ...  # the e-ink's language, the pages' default

    @property
    def url(self) -> str: ...  # the address phones use

    @property
    def board(self) -> Any: ...  # the buttons and LED dice (devices.board.Board)

    @property
    def display(self) -> Any: ...  # the e-ink (devices.display)

    @property
    def refresher(self) -> Any: ...  # the e-ink's refresh thread (devices.refresh.Refresher)

    @property
    def frame_version(self) -> int: ...  # the frame the glass shows

    @property
    def networking(self) -> Any: ...  # the network part (wiring.network.NetworkPart), or None

    @property
    def venue(self) -> Any: ...  # the venue's publisher (outputs.venue.publishing.Publishing), or None
