"""JSON lines over a Unix socket: the only thing that crosses a process boundary.

No pickles, ever: a lesson could craft one that runs code in the tutor.  Every
message is one JSON object on one line, with a hard size cap on what is read.
Used on both sides (tutor and kernel); it imports nothing heavy.
"""

from __future__ import annotations

import json
import math
import os
import socket
import time
from collections import deque
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Mapping

MAX_MESSAGE = 32 * 1024 * 1024  # bytes in one message


class ChannelClosed(EOFError):
    """The other end has gone away (the process exited or was killed)."""


class ChannelGarbled(ChannelClosed):
    """The other end sent something that is not a JSON-lines message within the cap."""


class ChannelTimeout(TimeoutError):
    """No complete message arrived in time."""


class MessageTooLarge(ValueError):
    pass


def _sanitise(value: Any) -> Any:
    """JSON has no NaN/Infinity: send non-finite floats as strings."""
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, dict):
        return {k: _sanitise(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_sanitise(v) for v in value]
    return value


def encode(message: Mapping[str, Any]) -> bytes:
    try:
        data = json.dumps(message, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except ValueError:
        data = json.dumps(_sanitise(message), ensure_ascii=False, separators=(",", ":"))
    raw = data.encode("utf-8", "surrogatepass") + b"\n"
    if len(raw) > MAX_MESSAGE:
        raise MessageTooLarge(f"message of {len(raw):,} bytes exceeds {MAX_MESSAGE:,}")
    return raw


class Channel:
    """One end of a JSON-lines connection."""

    def __init__(self, sock: socket.socket, *, with_fds: bool = False):
        self.sock = sock
        self._buffer = bytearray()
        self.with_fds = with_fds  # receive file descriptors passed with messages
        self.fds: deque[int] = deque()

    def fileno(self) -> int:
        return self.sock.fileno()

    def send(self, message: Mapping[str, Any], fds: list[int] | None = None) -> None:
        data = encode(message)
        try:
            if fds:
                sent = socket.send_fds(self.sock, [data], fds)
                if sent < len(data):
                    self.sock.sendall(data[sent:])
            else:
                self.sock.sendall(data)
        except (BrokenPipeError, ConnectionResetError, OSError) as exc:
            raise ChannelClosed(str(exc)) from None

    def buffered(self) -> bool:
        """A complete message is already buffered (select() will not say so)."""
        return b"\n" in self._buffer

    def recv(self, timeout: float | None = None) -> dict[str, Any]:
        """The next message; raises ChannelTimeout or ChannelClosed."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            newline = self._buffer.find(b"\n")
            if newline >= 0:
                line = bytes(self._buffer[:newline])
                del self._buffer[: newline + 1]
                try:
                    message = json.loads(line.decode("utf-8", "replace"))
                except (ValueError, RecursionError) as exc:  # garbage, or nested too deep
                    raise ChannelGarbled(f"sent a garbled message ({str(exc)[:200]})") from None
                if not isinstance(message, dict):
                    raise ChannelGarbled("sent a garbled message (not a JSON object)")
                return message
            if len(self._buffer) > MAX_MESSAGE:
                raise ChannelGarbled(f"sent a message larger than {MAX_MESSAGE >> 20} MB")
            if deadline is not None:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise ChannelTimeout()
                self.sock.settimeout(remaining)
            else:
                self.sock.settimeout(None)
            try:
                if self.with_fds:
                    chunk, fds, _flags, _addr = socket.recv_fds(self.sock, 1 << 20, 16)
                    self.fds.extend(fds)
                else:
                    chunk = self.sock.recv(1 << 20)
            except TimeoutError:
                raise ChannelTimeout() from None
            except (ConnectionResetError, OSError) as exc:
                raise ChannelClosed(str(exc)) from None
            if not chunk:
                raise ChannelClosed("connection closed")
            self._buffer += chunk

    def close(self) -> None:
        for fd in self.fds:
            try:
                os.close(fd)
            except OSError:
                pass
        self.fds.clear()
        try:
            self.sock.close()
        except OSError:
            pass
