"""The manual's pictures carry the test that made them (a PNG text chunk, `Tourney-Test`).

tests/test_manual.py reads it back: a picture the current suite no longer makes fails there.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

KEY = b"Tourney-Test"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(kind + data) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def _chunks(png: bytes):
    at = len(PNG_SIGNATURE)
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        kind = png[at + 4 : at + 8]
        yield kind, png[at + 8 : at + 8 + length], at, at + 12 + length
        at += 12 + length


def mark_made_by(path: Path, test_id: str) -> None:
    """Write `test_id` (file::function, without parameters) into the PNG at `path`."""
    png = path.read_bytes()
    assert png.startswith(PNG_SIGNATURE), path
    kept = [png[:8]]
    for kind, data, start, end in _chunks(png):
        if kind == b"tEXt" and data.startswith(KEY + b"\0"):
            continue
        kept.append(png[start:end])
        if kind == b"IHDR":
            kept.append(_chunk(b"tEXt", KEY + b"\0" + test_id.encode()))
    path.write_bytes(b"".join(kept))


def made_by(path: Path) -> str | None:
    """The test that made the picture at `path`, or None for a picture no test marked."""
    png = path.read_bytes()
    if not png.startswith(PNG_SIGNATURE):
        return None
    for kind, data, _start, _end in _chunks(png):
        if kind == b"tEXt" and data.startswith(KEY + b"\0"):
            return data[len(KEY) + 1 :].decode()
    return None


def current_test_id(environ) -> str:
    """file::function of the running test (PYTEST_CURRENT_TEST), without its parameters."""
    current = environ["PYTEST_CURRENT_TEST"].rsplit(" ", 1)[0]
    return current.split("[", 1)[0]
