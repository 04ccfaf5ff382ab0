"""The exercise API found in a student's modules: a namespace of its pieces, each missing one saying why.

Standard library only: this runs in the sandboxed child (student.py imports the modules). A piece is
looked for in the module it belongs in, then in the others; an engine whose class is not called Value
gives the one class of its module that has `+`, `*` and backward() (value_class).
"""
import types


# piece of the API -> the module it belongs in (it is looked for in the others too)
PIECES = {
    "Value": "engine",
    "Module": "nn", "Neuron": "nn", "Layer": "nn", "MLP": "nn",
    "mse_loss": "train", "train": "train",
}


def value_class(module):
    """The one class defined in the engine's module that has `+`, `*` and backward(), or None."""
    try:
        found = [v for v in vars(module).values() if isinstance(v, type) and v.__module__ == module.__name__
                 and all(callable(getattr(v, name, None)) for name in ("__add__", "__mul__", "backward"))]
    except BaseException:  # noqa: B036 - a student's class or module that raises when looked at
        return None
    return found[0] if len(found) == 1 else None


def piece(module, name):
    value = getattr(module, name, None) if module is not None else None
    if name[0].isupper():
        return value if isinstance(value, type) else None
    return value if callable(value) and not isinstance(value, (type, types.ModuleType)) else None


class MissingPiece(AttributeError):
    """A program used a piece of the API the student's package doesn't have."""


def make_api(found, why):
    """A namespace of the pieces found; reading a missing one raises MissingPiece(why).

    MissingPiece is an AttributeError, so getattr(api, "Neuron", None) is None.
    """
    class Api(types.SimpleNamespace):
        # what the case programs ask an engine for with getattr(api, name, None) and a student's never has
        # (the torch adapter's own mix, numpy grads: adapt.py sets grad_zero), found without __getattr__
        native_mix = grad_zero = None

        def __getattr__(self, name):  # only called for attributes that are not there
            if name in why:
                raise MissingPiece(why[name])
            raise AttributeError(name)

    return Api(**found)
