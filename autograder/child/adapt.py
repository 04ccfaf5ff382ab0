"""Fit the kit to a student's Value where the student's intent is unambiguous, and say so.

Standard library only: this runs in the sandboxed child, once, after the import. What it
learns comes from the student's own engine at work (a node made by their own `+` and `*`),
never from names guessed in their source:
- the attribute or property their ops fill with a node's children, when it is not `_prev` (`prev`,
  `_children`, `_parents`, `came_from`...): `_prev` is made to read and write it, so the kit's
  nodes and their own backward() share one list of children (adapted, with a note), also
  when they are kept inside an object the node holds (`_ctx.parents`);
- the type of a fresh node's grad (a numpy array or scalar): the kit then seeds grads in it
  (`api.grad_zero`, read by programs/_graph.seed);
- leaves that track no gradient unless asked, whatever the flag is called (`requires_grad=False`,
  `require_grad`, `track`...): found by trying, a + b and a * b pass no grad to Value(x) leaves
  but do once a keyword of the constructor or a False attribute (of a leaf, or of the class) is
  set True; the kit then makes every Value with it set (adapted, with a note); its closures run
  before the cases only where such a flag exists;
- an operation that returns None, a number or anything but a Value: a note naming it (its cases
  fail with an error saying so, and no mistake's model raises that);
- what deviates from the exercise API and can't be adapted without guessing: a `backward`
  attribute set in __init__ that hides the backward() method, children the kit can't find.
  Each is one line naming what the API needs (a deviation: no mistake is named on such an
  engine, see diagnosis).
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
        for step in (_returns, _children, _hidden_backward, _grad_type, _gate):
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
    return [(name, held) for name, held in seen.items() if isinstance(name, str)]


def _properties(node):
    """(name, value) of the properties of the node's class (`@property def prev`), each read once."""
    out = {}
    for cls in type(node).__mro__:
        for name, attr in vars(cls).items():
            if isinstance(attr, property) and attr.fget is not None and name not in out:
                try:
                    out[name] = attr.fget(node)
                except Exception:  # noqa: S112 - a property that needs what this node lacks
                    continue
    return list(out.items())


def _holders(node, operands):
    """Where node keeps exactly the operands (each once or more, nothing else), by tier: its attributes,
    its properties, an attribute of an object it holds (`_ctx.parents`, `_creator.inputs`: dotted)."""
    wanted = {id(x) for x in operands}

    def holds(held):
        return isinstance(held, CONTAINERS) and bool(held) and {id(x) for x in held} == wanted
    fields = _fields(node)
    inner = [(f"{name}.{deep}", x) for name, held in fields
             if held is not None and id(held) not in wanted and not isinstance(held, (*CONTAINERS, str, int, float))
             for deep, x in _fields(held)]
    return [[name for name, held in tier if holds(held)] for tier in (fields, _properties(node), inner)]


def _children(api, value, found):
    a, b = value(2.0), value(3.0)
    holders = None
    for make in (lambda: a + b, lambda: a * b):
        try:
            node = make()
        except Exception:  # noqa: S112 - its own cases say why
            continue
        if not isinstance(node, value):
            continue  # None or a number: _returns says so
        tiers = _holders(node, (a, b))
        if any(PREV in tier for tier in tiers):
            return
        names = next((tier for tier in tiers if tier), [])
        holders = names if holders is None else [n for n in holders if n in names]
    if holders is None:
        return  # neither + nor * gives a Value: their own cases say why
    if len(holders) == 1 and "." not in holders[0]:
        name = holders[0]
        type.__setattr__(value, PREV, property(lambda self: getattr(self, name),
                                               lambda self, children: setattr(self, name, children)))
        found.notes.append(f"your Value keeps a node's children in `{name}`, where the exercise API has `_prev`: "
                           f"the kit used `{name}`.")
    elif len(holders) == 1:  # inside an object the node holds (maybe shared by leaves): read there, never set
        outer, _, inner = holders[0].partition(".")
        type.__setattr__(value, PREV, property(lambda self: getattr(getattr(self, outer, None), inner, ())))
        found.notes.append(f"your Value keeps a node's children in `{holders[0]}`, where the exercise API has "
                           f"`_prev`: the kit used `{holders[0]}`.")
    elif holders:
        listed = " and ".join(f"`{n}`" for n in holders)
        found.deviations.append(f"your Value keeps a node's children in both {listed}, and the kit can't tell "
                                "which one your backward() walks: the exercise API keeps them in `_prev`.")
    else:
        found.deviations.append("the kit found no attribute of your Value holding a node's children (a + b holds "
                                "neither a nor b): the exercise API keeps them in `_prev`, a set or tuple of the "
                                "Values a node was made from.")


# each operation as the kit tries it, and the method that computes it
_OPS = (("a + b", "__add__", lambda a, b: a + b), ("a * b", "__mul__", lambda a, b: a * b),
        ("a ** 2", "__pow__", lambda a, b: a ** 2), ("a.tanh()", "tanh", lambda a, b: a.tanh()),
        ("a.exp()", "exp", lambda a, b: a.exp()), ("a.relu()", "relu", lambda a, b: a.relu()))


def _returns(api, value, found):
    """A note for each operation that returns None, a plain number or anything else but a Value."""
    for written, method, make in _OPS:
        try:
            out = make(value(0.5), value(2.0))
        except Exception:  # noqa: S112 - a stub, a bug or no such method: its cases say which
            continue
        if not isinstance(out, value):
            kind = type(out).__name__
            got = "None" if out is None else f"a plain {kind}" if type(out) in (int, float, bool) else f"a {kind}"
            found.notes.append(f"your Value's {method} returns {got}, not a Value ({written}): an operation "
                               "returns the node it made (`return out`), which holds its result and its closure; "
                               "its cases fail until it does.")


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


def _flows(make):
    """Do leaves made by make(x) get a grad from a + b or a * b, by its closure or by backward()?"""
    for op in (lambda a, b: a + b, lambda a, b: a * b):
        for run in ("_backward", "backward"):
            try:
                a, b = make(2.0), make(3.0)
                before = (float(a.grad), float(b.grad))
                out = op(a, b)
                out.grad = 1.0
                getattr(out, run)()
                if (float(a.grad), float(b.grad)) != before:
                    return True
            except Exception:  # noqa: S112 - a stub or a bug: this way of asking tells nothing
                continue
    return False


def _asked(value, init):
    """The ways a Value could be asked to track its gradient: (how it is off, how it is asked, a __init__
    that asks): the constructor's keywords whose default is False or None, a fresh leaf's False attributes,
    the class's False attributes (`requires_grad = False` in the class body)."""
    code, defaults = getattr(init, "__code__", None), getattr(init, "__defaults__", None) or ()
    if code is not None:
        names = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
        given = dict(zip(names[code.co_argcount - len(defaults):code.co_argcount], defaults))
        given.update(getattr(init, "__kwdefaults__", None) or {})
        for name, default in given.items():
            def asking(self, *args, _name=name, _at=names.index(name), **kw):
                if len(args) < _at:  # not given by position (self is names[0])
                    kw.setdefault(_name, True)
                init(self, *args, **kw)
            if default is None or default is False:
                yield f"`{name}={default}` by default", f"`{name}=True`", asking
    own = _fields(value(2.0))
    shared = [(n, held) for cls in value.__mro__[:-1] for n, held in vars(cls).items() if not n.startswith("__")]
    for (name, held), where in [(f, "in __init__") for f in own] + [(f, f"in class {value.__name__}") for f in shared]:
        def setting(self, *args, _name=name, **kw):
            init(self, *args, **kw)
            setattr(self, _name, True)
        if held is False:
            yield f"`{'self.' * (where == 'in __init__')}{name} = False` {where}", f"`{name}` set True", setting


def _gate(api, value, found):
    """Leaves that track no gradient unless asked: every Value the kit makes is asked (see the docstring).
    The student's closures run here, before any case, only where a flag to ask exists: a closure that floods
    or hangs is otherwise met in its own cases, where it costs its own task alone."""
    init = value.__init__
    candidates = list(_asked(value, init))
    if not candidates or _flows(value):
        return
    for off, on, asking in candidates:
        type.__setattr__(value, "__init__", asking)
        kept = False
        try:
            kept = _flows(value)
        finally:
            if not kept:
                type.__setattr__(value, "__init__", init)
        if kept:
            found.notes.append(f"your Value(x) tracks no gradient unless asked ({off}), where in the exercise API "
                               f"every Value(x) does: the kit made its Values with {on}.")
            return


def _grad_type(api, value, found):
    zero = value(0.0).grad
    if type(zero).__module__ == "numpy":  # an ndarray or a numpy scalar: the kit seeds grads like it
        api.grad_zero = zero
