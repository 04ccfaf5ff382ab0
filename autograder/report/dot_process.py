"""One `dot -Tsvg` process a grading process keeps, drawing its pictures one graph at a time.

Starting dot costs more CPU than drawing a small graph (about 10 ms against 1-3 ms here: it loads its plugins
and fonts' configuration each time), and a class's feedback pages ask for new pictures page after page. dot
reads graph after graph from its input and writes each one's SVG as soon as it has read the graph's closing
brace, so one process serves them all: a source is written, its SVG read back (up to the `</svg>` that ends
it), then the next. Each graph is laid out on its own; what a graph after the first carries of those before is
its group's id (`page0,1_graph0` for `graph0`) and an unnamed graph's title (its number among dot's objects:
`%7`, `%13`, ... for `%3`): both are written back as the process's first graph had them, so a picture is the
one a fresh dot draws of that source alone, whatever was drawn before it (where a picture does not read as
expected, a fresh dot draws it alone).

dot exits on a source it can't read (a syntax error; its reason goes to our stderr, as graphviz's pipe echoes
it): that source has no picture (None) and the next one starts a new dot. A process that forked from this one
never uses the parent's dot (it starts its own); at exit the process is ended.
"""
from __future__ import annotations

import atexit
import os
import re
import subprocess
import threading

_END = b"</svg>\n"
_HEAD = re.compile(r'<g id="([^"]*)" class="graph"([^>]*)>\n<title>([^<]*)</title>')  # the graph's group, title


class Dot:
    def __init__(self, path: str):
        self.path = path
        self.pid = os.getpid()
        self.proc = subprocess.Popen([path, "-Kdot", "-Tsvg"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.first: tuple[str, str] | None = None  # the first graph's group id and title

    def draw(self, source: str) -> str | None:
        """dot's <svg> element of source (no XML prolog) as a fresh dot writes it; None if dot refused it (it
        exits)."""
        out = _element(self._drawn(source))
        if out is None:
            return None
        head = _HEAD.search(out)
        if self.first is None:
            self.first = (head[1], head[3]) if head and head[3].startswith("%") else ("", "")
            return out if head else _alone(self.path, source)
        if not (head and head[3].startswith("%") and self.first[1]):
            return _alone(self.path, source)
        return f'{out[:head.start()]}<g id="{self.first[0]}" class="graph"{head[2]}>\n<title>{self.first[1]}</title>' \
               f'{out[head.end():]}'

    def _drawn(self, source: str) -> str | None:
        try:
            self.proc.stdin.write(source.encode("utf-8") + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            return None
        out = bytearray()
        fd = self.proc.stdout.fileno()
        while not out.endswith(_END):
            chunk = os.read(fd, 1 << 16)
            if not chunk:  # dot exited: it refused this source
                return None
            out += chunk
        return out.decode("utf-8")

    def alive(self) -> bool:
        return self.proc.poll() is None

    def close(self) -> None:
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                stream.close()
            except OSError:
                pass
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


def _alone(path: str, source: str) -> str | None:
    """source drawn by a dot of its own (a picture that does not read as the kept dot's are expected to)."""
    done = subprocess.run([path, "-Kdot", "-Tsvg"], input=source.encode("utf-8"), stdout=subprocess.PIPE)
    return _element(done.stdout.decode("utf-8")) if done.returncode == 0 else None


def _element(out: str | None) -> str | None:
    """The <svg> element of what dot wrote (its prolog and the newline after it left out)."""
    return out[out.index("<svg"):].rstrip("\n") if out and "<svg" in out else None


_LOCK = threading.Lock()
_KEPT: list[Dot] = []          # this process's dot (none, or one)
_CLOSING: list[bool] = []      # its end registered at exit
_INHERITED: list[Dot] = []     # a parent's dot, inherited by a fork: never collected here


def draw(path: str, sources: list[str]) -> list[str | None]:
    """Each source's <svg> element drawn by this process's dot (`path`), one after another; None where dot refused one."""
    with _LOCK:
        out = []
        for source in sources:
            dot = _dot(path)
            svg = dot.draw(source)
            if svg is None:
                _KEPT.remove(dot)
                dot.close()
            out.append(svg)
        return out


def _dot(path: str) -> Dot:
    if _KEPT and (_KEPT[0].pid != os.getpid() or _KEPT[0].path != path or not _KEPT[0].alive()):
        old = _KEPT.pop()
        if old.pid == os.getpid():
            old.close()
        else:  # the parent's, inherited by a fork: our copies of its pipes closed, the dot itself left alone
            for stream in (old.proc.stdin, old.proc.stdout):
                stream.close()
            _INHERITED.append(old)  # never collected here: Popen would warn of a process still running
    if not _KEPT:
        if not _CLOSING:
            atexit.register(close)
            _CLOSING.append(True)
        _KEPT.append(Dot(path))
    return _KEPT[0]



def close() -> None:
    """End this process's dot (at exit; a later picture starts another)."""
    with _LOCK:
        while _KEPT:
            dot = _KEPT.pop()
            if dot.pid == os.getpid():
                dot.close()
