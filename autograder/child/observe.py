"""What the child sends: observations as plain JSON, and the prints a case made.

Standard library only: this runs in the sandboxed child. An observation is a
number, a list of them, or {"type", "repr"} for anything else; it never carries a
student's object out, and a student's __repr__ that raises or lies can't break it.
"""
import io

MAX_DEPTH = 20
MAX_ITEMS = 100_000
MAX_REPR = 200


def to_json(value, depth=0):
    """value as JSON-able data: a float, a list, or {"type": ..., "repr": ...}."""
    if isinstance(value, bool):
        return bad(value)
    if isinstance(value, float):
        return float.__float__(value)  # a float subclass's own __float__ is not asked
    if isinstance(value, int):
        try:
            return int.__float__(value)
        except OverflowError:
            return {"type": type_name(value), "repr": "an integer too large for a float"}
    if isinstance(value, (list, tuple)) and depth < MAX_DEPTH:
        items = list.__iter__(value) if isinstance(value, list) else tuple.__iter__(value)
        out = []
        for item in items:
            if len(out) == MAX_ITEMS:
                return {"type": type_name(value), "repr": f"a {type_name(value)} of more than {MAX_ITEMS} items"}
            out.append(to_json(item, depth + 1))
        return out
    return bad(value)


def bad(value):
    return {"type": type_name(value), "repr": safe_repr(value)}


def type_name(value):
    try:
        name = type(value).__name__
        return name[:80] if isinstance(name, str) else "?"
    except BaseException:  # noqa: B036 - a student's metaclass
        return "?"


def safe_repr(value):
    """repr(value), at most MAX_REPR characters; never raises."""
    try:
        text = repr(value)
        if not isinstance(text, str):
            raise TypeError("__repr__ returned a non-string")
    except BaseException as exc:  # noqa: B036 - a student's __repr__
        return f"<{type_name(value)} object; its __repr__ raised {type_name(exc)}>"
    return text if len(text) <= MAX_REPR else text[: MAX_REPR - 3] + "..."


class CappedText(io.TextIOBase):
    """Stands in for sys.stdout / sys.stderr during a case: keeps the first `cap` characters."""

    def __init__(self, cap):
        super().__init__()
        self.cap = cap
        self.parts = []
        self.size = 0
        self.truncated = False

    @property
    def encoding(self):
        return "utf-8"

    def writable(self):
        return True

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type_name(text)}")
        room = self.cap - self.size
        if room > 0:
            piece = text[:room]
            self.parts.append(piece)
            self.size += len(piece)
        if len(text) > max(room, 0):
            self.truncated = True
        return len(text)

    def getvalue(self):
        return "".join(self.parts) + ("...[truncated]" if self.truncated else "")
