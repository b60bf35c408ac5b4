"""Server-Sent Events framing: a frame, a heartbeat, the retry delay, the Last-Event-ID a
client resumes from (docs/architecture.md; what a stream sends is the features').
"""

import json
import time
from typing import Any

from infra.web.schema_types import whole_number

RETRY_MS = 2_000


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def frame(event_id: int | None, kind: str, data: Any) -> str:
    """One SSE message; `data` is JSON on a single line (json.dumps never emits newlines)."""
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {kind}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def message_frame(message: dict[str, Any]) -> str:
    """The frame of a published bus message `{id, event, version, data}`."""
    return frame(message["id"], message["event"], message["data"])


def heartbeat_frame() -> str:
    return f": ping {now_ms()}\n\n"


def parse_last_event_id(*candidates: str | None) -> int | None:
    """The first candidate that is a non-negative integer (header first, then query)."""
    for value in candidates:
        number = whole_number((value or "").strip())
        if number is not None:
            return number
    return None
