"""A league table's second reader: what the league's dashboard acknowledged, and what to send it again."""

from __future__ import annotations

RESEND_MAX = 60.0  # seconds, at most, between two resends the league never answers (its link is down)


class LeagueAcks:
    """The league's side of a table's stream. Its messages reach the league through the venue's broker
    and its bridge: the league may lag the venue (a bridge down, the league's broker killed), and a table
    forgets a message only once both have it. While the league does not answer, the table sends it its
    first unacknowledged messages again less and less often (from `wait` up to RESEND_MAX seconds),
    then, as the league answers, the rest at its pace: never more than `window` ahead of its acks."""

    def __init__(self, now: float, wait: float, window: int):
        self.acked = 0  # the highest seq the league's dashboard acknowledged
        self.sent = 0  # the highest seq sent the league's way since its last stall
        self.progress = now
        self.first_wait = self.wait = wait
        self.window = window

    def acknowledged(self, seq: int, now: float) -> bool:
        """The league has every message up to `seq`; False if that is not news."""
        if seq <= self.acked:
            return False
        self.acked, self.progress, self.wait = seq, now, self.first_wait
        self.sent = max(self.sent, seq)
        return True

    def published(self, seq: int) -> None:
        """Sent up to `seq` (by the stream itself, or again for the league): the bridge takes it there."""
        self.sent = max(self.sent, seq)

    def reconnected(self) -> None:
        """What was in flight may be lost: send the league its unacknowledged messages again."""
        self.sent = self.acked

    def due(self, published: int, now: float) -> tuple[int, int] | None:
        """(after, how many) messages to send the league again, or None: after `wait` seconds without an
        acknowledgement, from its first unacknowledged; then the rest, up to the stream's `published`."""
        if self.acked >= published:
            return None
        if now - self.progress > self.wait:
            self.sent, self.progress = self.acked, now
            self.wait = min(2 * self.wait, RESEND_MAX)
        room = min(self.window - (self.sent - self.acked), published - self.sent)
        return (self.sent, room) if room > 0 else None

    def waiting(self, published: int) -> bool:
        """Whether the league still has to acknowledge something sent (a timer must run)."""
        return self.acked < published
