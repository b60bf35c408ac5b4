"""The tournament event stream, independent of how bytes reach the client.

One `EventCursor` per connection decides what to send: the backlog after a resume, the live
messages from pub/sub, and when a message reveals a gap (a lost or reordered publish) it falls
back to the event table, which is the truth. Tournament event versions are contiguous (each
`event_append` bumps the tournament's version by one under its row lock), so a gap is visible.
"""

from dataclasses import dataclass, field
from typing import Any

from infra.streams.frames import RETRY_MS, frame, message_frame, now_ms
from tourney.models import TournamentEvent

# Events read per catch-up query: a screen further behind gets its backlog page after page
# (`EventCursor.behind`), then the live events; nothing waits for a new event to be released.
BACKLOG_LIMIT = 500
# What a redacted (player's) stream passes through whole; the rest is `changed` {kind}.
PUBLIC_KINDS = frozenset({"clock"})
CHANGED_EVENT = "changed"
# What a player's page refetches at once for, named or not (the rest waits its turn).
EVERYONES_KINDS = frozenset({"tournament"})


def mentioned_entries(payload: Any) -> frozenset[int]:
    """Every entry id an event's payload names (`entry_id` at any depth)."""
    found: set[int] = set()
    stack = [payload]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            value = item.get("entry_id")
            if isinstance(value, int):
                found.add(value)
            stack.extend(v for v in item.values() if isinstance(v, dict | list))
        elif isinstance(item, list):
            stack.extend(v for v in item if isinstance(v, dict | list))
    return frozenset(found)


@dataclass
class EventCursor:
    """What one client has been sent: the last event id and the tournament version it reached."""

    tournament_id: int
    last_event_id: int = 0
    last_version: int = 0
    pending: list[str] = field(default_factory=list)
    # The last catch-up filled a page: more stored events follow, read them before live ones.
    behind: bool = False
    # Events after which this stream ends (a display link's revocation); `closed` once sent.
    closes_on: frozenset[str] = frozenset()
    closed: bool = False
    # A player's stream (his page from the seat card's QR code): only `clock` events keep their
    # data; every other event becomes `changed` {kind}, on which the page refetches its own
    # state, so no other player's details ever reach a player's phone.
    redacted: bool = False
    # The player's entry on a redacted stream: `changed` says `mine` when the event names it
    # (his move, his bust-out), so his page refetches at once and the others can wait a little.
    entry_id: int | None = None
    # A player's link that expires (days after the tournament finished): the stream ends at its
    # first event from then on, and its reconnection is refused.
    expires_at_ms: int | None = None

    def _closes(self, kind: str, payload: Any, entries=None) -> bool:
        """Whether this event ends the stream. On a player's stream a revocation ends it only
        when it names his entry or all of them (the others' phones keep listening)."""
        if kind not in self.closes_on:
            return False
        if not self.redacted:
            return True
        if isinstance(payload, dict) and payload.get("all"):
            return True
        named = entries if entries is not None else mentioned_entries(payload)
        return self.entry_id in named

    def _expired(self) -> bool:
        return self.expires_at_ms is not None and now_ms() >= self.expires_at_ms

    def _frame(self, event_id: int, kind: str, payload: Any, entries=None) -> str:
        if self.redacted and kind not in PUBLIC_KINDS:
            named = entries if entries is not None else mentioned_entries(payload)
            return frame(event_id, CHANGED_EVENT, {"kind": kind, "mine": self.entry_id in named})
        return frame(event_id, kind, payload)

    def opening(self, resume_from: int | None) -> list[str]:
        """Frames to send first: a replay after `resume_from`, or a `ready` marker (sync, DB)."""
        frames = [f"retry: {RETRY_MS}\n\n"]
        if resume_from is not None:
            self.last_event_id = resume_from
            frames += self.catch_up()
            if self.last_version == 0:  # nothing newer: learn where the tournament stands
                self.last_version = self._latest()[1]
            return frames
        self.last_event_id, self.last_version = self._latest()
        frames.append(
            frame(
                self.last_event_id,
                "ready",
                {"last_event_id": self.last_event_id, "server_time_ms": now_ms()},
            )
        )
        return frames

    def catch_up(self) -> list[str]:
        """Frames for the next page (BACKLOG_LIMIT) of stored events after the last one sent;
        `behind` tells whether another page follows (sync, DB)."""
        rows = list(
            TournamentEvent.objects.filter(
                tournament_id=self.tournament_id, pk__gt=self.last_event_id
            )
            .order_by("pk")
            .values_list("pk", "kind", "version", "payload")[:BACKLOG_LIMIT]
        )
        self.behind = len(rows) == BACKLOG_LIMIT
        if rows and self._expired():
            self.closed, self.behind = True, False
            return []
        for index, (pk, kind, version, payload) in enumerate(rows):
            self.last_event_id, self.last_version = pk, max(self.last_version, version)
            if self._closes(kind, payload):
                self.closed, self.behind = True, False
                rows = rows[: index + 1]
                break
        return [self._frame(pk, kind, payload) for pk, kind, _version, payload in rows]

    def accept(self, message: dict[str, Any]) -> str | None:
        """The frame for a live message, "" to skip a duplicate, or None on a gap (re-read)."""
        version = message.get("version", 0)
        if version <= self.last_version or message["id"] <= self.last_event_id:
            return ""
        if version != self.last_version + 1:
            return None
        self.last_event_id, self.last_version = message["id"], version
        if self.redacted:
            if self._expired():
                self.closed = True
                return ""
            # Computed once per message however many players' streams read it.
            if "entries" not in message:
                message["entries"] = mentioned_entries(message["data"])
            self.closed = self._closes(message["event"], message["data"], message["entries"])
            if message["event"] not in PUBLIC_KINDS:
                return self._redacted_frame(message)
        else:
            self.closed = message.get("event") in self.closes_on
        return message.get("frame") or message_frame(message)

    def _redacted_frame(self, message: dict[str, Any]) -> str:
        """A player's `changed` frame, rendered once per message and view (his entry named or
        not) however many players' streams read it: one dict shared by the process's streams."""
        # The tournament's own status (started, finished, cancelled) is every player's news.
        mine = self.entry_id in message["entries"] or message["event"] in EVERYONES_KINDS
        views = message.setdefault("redacted_frames", {})
        if mine not in views:
            data = {"kind": message["event"], "mine": mine}
            views[mine] = frame(message["id"], CHANGED_EVENT, data)
        return views[mine]

    def _latest(self) -> tuple[int, int]:
        row = (
            TournamentEvent.objects.filter(tournament_id=self.tournament_id)
            .order_by("-pk")
            .values_list("pk", "version")
            .first()
        )
        return row if row is not None else (0, 0)
