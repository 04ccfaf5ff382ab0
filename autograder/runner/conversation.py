"""The conversation with a child: its job's lines written without blocking, its result lines read under a
deadline, its own stdout and stderr drained and capped. Child (sandbox.py) is the process it is held with.

Every write is non-blocking and made from next_line's wait, under its deadline: a child that stops
reading, closes its end or fills the pipe can't hold the parent; a child that writes without end can't
either (READS_PER_WAKE reads, then the clock), and a flood's lines past MAX_QUEUED_LINES are counted,
not kept.
"""
from __future__ import annotations

import os
import select
import time
from collections import deque

from autograder.runner.limits import Limits

STREAM_CAP = 16_384  # bytes of the child's real stdout / stderr kept, for notes
TIMEOUT, DEAD, FLOOD = "timeout", "dead", "flood"
MAX_QUEUED_LINES = 2_000   # result lines waiting to be read; past it a flood's lines are dropped
READS_PER_WAKE = 16        # 64 KiB reads of the result pipe before the clock is looked at again
READ, WRITE = select.POLLIN, select.POLLOUT


class Conversation:
    """The lines to and from one child: `send`, `close_input`, `next_line(deadline)`; the pipes' fds are
    watched once the process holding them (Child) has started."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.lines: deque[bytes] = deque()
        self.partial = b""
        self.received = 0          # bytes read from the result pipe, all told
        self.flooded = 0           # lines dropped because MAX_QUEUED_LINES were already waiting
        self.skipping = False      # inside a line that grew past max_result_line
        self.dropped_long = 0
        self.result_open = True
        self.streams = {"stdout": bytearray(), "stderr": bytearray()}  # their first STREAM_CAP bytes
        # select.poll, not a selectors wrapper: one wait per case, and (un)registering is no system call
        self.poller = select.poll()
        self.handlers: dict[int, object] = {}  # fd -> what reads or writes it once poll says it is ready
        self.job = b""             # what is still to be written to the child
        self.job_fd: int | None = None
        self.result_fd: int | None = None

    def _watch(self, fd: int, events: int, handler) -> None:
        self.poller.register(fd, events)
        self.handlers[fd] = handler

    def _unwatch(self, fd: int) -> None:
        if self.handlers.pop(fd, None) is not None:
            self.poller.unregister(fd)

    # -- reading ---------------------------------------------------------------------------

    def next_line(self, deadline: float) -> bytes | str:
        """The clock is read before every line, queued or not: whatever the child writes, the
        deadline holds."""
        lines, handlers = self.lines, self.handlers
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return TIMEOUT
            if lines:
                return lines.popleft()
            if not self.result_open:
                return DEAD
            for fd, _ in self.poller.poll(min(remaining, 1.0) * 1000):  # ms, rounded up
                handler = handlers.get(fd)
                if handler is not None:  # not one an earlier handler of this wake unwatched
                    handler(fd)

    def _on_result(self, fd: int) -> None:
        for _ in range(READS_PER_WAKE):  # then back to the clock: a child writing without end can't hold us
            if not self.result_open:
                return
            try:
                chunk = os.read(fd, 1 << 16)
            except BlockingIOError:
                return
            if not chunk:
                self.result_open = False
                self._unwatch(fd)
                return
            self.received += len(chunk)
            self._split(chunk)
            if len(chunk) < 1 << 16:  # the pipe is drained: no read to fail; poll says if more comes
                return

    def _split(self, chunk: bytes) -> None:
        if not self.partial and not self.skipping and chunk.endswith(b"\n"):  # the usual read: the child's
            line = chunk[1:-1] if chunk.startswith(b"\n") else chunk[:-1]  # "\n<line>\n", nothing before it
            if b"\n" not in line:
                self._queue(line)
                return
        *complete, rest = (self.partial + chunk).split(b"\n")
        for i, line in enumerate(complete):
            if not (i == 0 and self.skipping and len(line) <= self.limits.max_result_line):
                self._queue(line)  # not the tail of an overlong line (too long itself: counted again)
        if complete:
            self.skipping = False
        if len(rest) > self.limits.max_result_line:
            self.dropped_long += not self.skipping
            self.skipping, rest = True, b""
        self.partial = rest

    def _queue(self, line: bytes) -> None:
        """A complete line read: kept for next_line unless it is empty, too long, or one too many."""
        if len(line) > self.limits.max_result_line:
            self.dropped_long += 1
        elif line:
            if len(self.lines) < MAX_QUEUED_LINES:
                self.lines.append(line)
            else:
                self.flooded += 1

    def _on_exit(self, fd: int) -> None:
        # the process has ended: what it wrote is all in the pipe, unless a grandchild
        # holds the pipe open; read it, then stop waiting
        self._unwatch(fd)
        self._on_result(self.result_fd)
        if self.result_open:
            self.result_open = False
            self._unwatch(self.result_fd)

    def _drain(self, name: str, stream) -> bool:
        """Read what is there of the child's stdout or stderr, keep the start; False at its end."""
        chunk = os.read(stream.fileno(), 1 << 16)
        if not chunk:
            self._unwatch(stream.fileno())
            return False
        kept = self.streams[name]
        kept += chunk[: max(0, STREAM_CAP - len(kept))]
        return True

    def send(self, line: bytes) -> None:
        """Queue one line for the child and write what the pipe takes now; the rest goes from next_line."""
        if self.job_fd is None:  # the child's end is gone, or the input was closed: its end shows that
            return
        self.job += line
        self._on_job(self.job_fd)
        if self.job and self.job_fd is not None and self.job_fd not in self.handlers:
            self._watch(self.job_fd, WRITE, self._on_job)

    def close_input(self) -> None:
        """No more cases: the child reads the end of its job pipe and finishes."""
        if self.job_fd is not None:
            self._unwatch(self.job_fd)  # before it is closed: poll would report a closed fd for ever
            os.close(self.job_fd)
            self._fds.remove(self.job_fd)
            self.job, self.job_fd = b"", None

    def _on_job(self, fd: int) -> None:
        try:
            written = os.write(fd, self.job)
        except BlockingIOError:
            return
        except OSError:  # the child closed its end (it ends, or its code did): nothing more to send
            self.job, self.job_fd = b"", None
        else:
            self.job = self.job[written:]
        if not self.job and fd in self.handlers:
            self._unwatch(fd)  # until the next line; kill() closes it
