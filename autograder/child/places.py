"""Where the student wrote each task's code ("engine.py:47"), and the line a SyntaxError points at.

Read off what Python compiled, never by calling the student's code: a class's own __dict__ (no
__getattr__ of a metaclass asked), a plain function's __code__, and the code objects nested in it
(the `_backward` closure an operation defines). The first line of a report's next step names it.
Standard library only: this runs in the sandboxed child.
"""
import types

# task -> (the piece of the exercise API, its attribute or "" for a function, the closure inside or "")
WHERE = {
    "add": ("Value", "__add__", "_backward"), "mul": ("Value", "__mul__", "_backward"),
    "pow": ("Value", "__pow__", "_backward"), "backward": ("Value", "backward", ""),
    "neuron": ("Neuron", "__call__", ""), "layer": ("Layer", "__call__", ""), "mlp": ("MLP", "__init__", ""),
    "parameters": ("Neuron", "parameters", ""), "zero_grad": ("Module", "zero_grad", ""),
    "mse_loss": ("mse_loss", "", ""), "train": ("train", "", ""),
}
_DICT = type.__dict__["__dict__"].__get__  # a class's own attributes, past any metaclass
MAX_CHARS = 200  # a source line sent back: enough to show where the caret points


def places(api, tasks, file_name):
    """{task: "engine.py:47"} for the tasks whose code is found in a student file; file_name maps a
    code object's file to the name the student knows ("" for a file not theirs)."""
    found = {}
    for task in tasks:
        piece, attribute, closure = WHERE.get(task, ("Value", task, "_backward"))  # an op method: tanh, a variant's
        try:
            code = _code(api, piece, attribute, closure)
            name = file_name(code.co_filename) if code is not None else ""
        except Exception:  # noqa: BLE001 - whatever the engine's objects are, no place is said
            continue
        if name:
            found[task] = f"{name}:{code.co_firstlineno}"
    return found


def _code(api, piece, attribute, closure):
    owner = api.__dict__.get(piece)  # the kit's namespace (student.make_api)
    if attribute:
        if not isinstance(owner, type):
            return None
        own = [_DICT(k) for k in type.__dict__["__mro__"].__get__(owner)]
        function = next((d[attribute] for d in own if attribute in d), None)
    else:
        function = owner
    if type(function) is not types.FunctionType:
        return None
    code = function.__code__
    inner = [c for c in code.co_consts if type(c) is types.CodeType and c.co_name == closure] if closure else []
    return inner[0] if inner else code


def syntax_line(exc):
    """(the line's text, the caret's column from 1) of a SyntaxError, or None."""
    if not isinstance(exc, SyntaxError):
        return None
    text, offset = exc.text, exc.offset
    if not isinstance(text, str) or not isinstance(offset, int):
        return None
    return text.rstrip("\r\n")[:MAX_CHARS], offset
