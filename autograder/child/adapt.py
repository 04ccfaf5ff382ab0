"""Fit the kit to a student's Value where the student's intent is unambiguous, and say so.

Standard library only: this runs in the sandboxed child, once, after the import. What it
learns comes from the student's own engine at work (a node made by their own `+` and `*`),
never from names guessed in their source:
- the attribute their ops fill with a node's children, when it is not `_prev` (`prev`,
  `_children`, `came_from`...): `_prev` is made to read and write it, so the kit's nodes and
  their own backward() share one list of children (adapted, with a note);
- the type of a fresh node's grad (a numpy array or scalar): the kit then seeds grads in it
  (`api.grad_zero`, read by programs/_graph.seed);
- what deviates from the exercise API and can't be adapted without guessing: a `backward`
  attribute set in __init__ that hides the backward() method, leaves that track no gradient
  by default (`requires_grad=False`), children the kit can't find. Each is one line naming
  what the API needs (a deviation: no mistake is named on such an engine, see diagnosis).
All of it within SECONDS (SIGALRM through `_signal`, which imports nothing): an endless `+` is
left to its own cases, where it times out alone, instead of holding up the import.
"""
try:
    import _signal
except ImportError:  # pragma: no cover - a platform without it: no guard
    _signal = None

SECONDS = 1.0
PREV = "_prev"
DEVIATION = "deviation"  # the observation marking a case run on an engine that deviates from the API
CONTAINERS = (set, frozenset, list, tuple)


class _Stopped(BaseException):
    """The adaptation ran out of its time."""


def _stop(signum, frame):
    raise _Stopped()


class Adapted:
    """What was adapted (notes) and what deviates from the API (deviations), one line each."""

    def __init__(self):
        self.notes = []
        self.deviations = []


def adapt(api):
    """Adapt the kit to api.Value (see the module's docstring); never raises."""
    found = Adapted()
    value = getattr(api, "Value", None)
    if not isinstance(value, type):
        return found
    previous = _signal.signal(_signal.SIGALRM, _stop) if _signal else None
    try:
        if _signal:
            _signal.setitimer(_signal.ITIMER_REAL, SECONDS)
        for step in (_children, _hidden_backward, _requires_grad, _grad_type):
            try:
                step(api, value, found)
            except _Stopped:
                break
            except BaseException:  # noqa: B036 - the student's constructor or ops: the cases will say what fails
                pass
    except _Stopped:  # the alarm between two steps
        pass
    finally:
        if _signal:
            _signal.setitimer(_signal.ITIMER_REAL, 0)
            _signal.signal(_signal.SIGALRM, previous)
    return found


def _fields(node):
    """(name, value) of the node's attributes: its __dict__, then its __slots__."""
    seen = dict(getattr(node, "__dict__", None) or {})
    for cls in type(node).__mro__:
        slots = cls.__dict__.get("__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if name not in seen and isinstance(name, str):
                try:
                    seen[name] = object.__getattribute__(node, name)
                except AttributeError:
                    pass
    return seen.items()


def _holders(node, operands):
    """The attributes of node holding exactly the operands (each once or more, nothing else)."""
    wanted = {id(x) for x in operands}
    names = []
    for name, held in _fields(node):
        if isinstance(held, CONTAINERS) and not isinstance(held, str):
            items = list(held)
            if items and {id(x) for x in items} == wanted:
                names.append(name)
    return names


def _children(api, value, found):
    a, b = value(2.0), value(3.0)
    holders = None
    for make in (lambda: a + b, lambda: a * b):
        try:
            names = _holders(make(), (a, b))
        except Exception:
            continue
        holders = names if holders is None else [n for n in holders if n in names]
        if PREV in names:
            return
    if holders is None:
        return  # neither + nor * works: their own cases say why
    if len(holders) == 1:
        name = holders[0]
        type.__setattr__(value, PREV, property(lambda self: getattr(self, name),
                                               lambda self, children: setattr(self, name, children)))
        found.notes.append(f"your Value keeps a node's children in `{name}`, where the exercise API has `_prev`: "
                           f"the kit used `{name}`.")
    elif holders:
        listed = " and ".join(f"`{n}`" for n in holders)
        found.deviations.append(f"your Value keeps a node's children in both {listed}, and the kit can't tell "
                                "which one your backward() walks: the exercise API keeps them in `_prev`.")
    else:
        found.deviations.append("the kit found no attribute of your Value holding a node's children (a + b holds "
                                "neither a nor b): the exercise API keeps them in `_prev`, a set or tuple of the "
                                "Values a node was made from.")


def _hidden_backward(api, value, found):
    method = None
    for cls in value.__mro__:
        if "backward" in cls.__dict__:
            method = cls.__dict__["backward"]
            break
    node = value(2.0)
    if "backward" not in (getattr(node, "__dict__", None) or {}):
        return
    if callable(method):
        found.deviations.append("`self.backward = ...` in your Value's __init__ hides your backward() method: "
                                "`v.backward()` calls that attribute, not the method (the exercise API keeps a "
                                "node's closure in `_backward`, and backward() is the method).")
    else:
        found.deviations.append("your Value keeps a node's closure in `backward` (`self.backward = ...` in "
                                "__init__): the exercise API names the closure `_backward`, and backward() is "
                                "the method that walks the graph from the output.")


def _requires_grad(api, value, found):
    if getattr(value(2.0), "requires_grad", True) is False:
        found.deviations.append("your Value(x) tracks no gradient unless asked (`requires_grad=False` by default): "
                                "in the exercise API every Value(x) does, and the kit makes its nodes with "
                                "Value(x) alone.")


def _grad_type(api, value, found):
    zero = value(0.0).grad
    if type(zero).__module__ == "numpy":  # an ndarray or a numpy scalar: the kit seeds grads like it
        api.grad_zero = zero
