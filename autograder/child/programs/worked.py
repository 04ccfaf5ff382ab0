"""Worked examples: the hand-derivable graphs of Karpathy's lecture and micrograd's README.

Each program builds its graph with `api.Value` (the exercise API of any engine),
calls backward() on the output and returns the output and the grads of the
leaves, as the engine holds them (the child turns them into numbers). Values
can be overridden through `params`; the defaults are the published ones.
Standard library only, and no imports from the kit: this module also runs
inside the sandboxed child as part of the top-level package `programs`.
"""


def worked_L(api, params):
    """L = (a*b + c) * f at a=2, b=-3, c=10, f=-2: L = -8, dL/da = b*f = 6, dL/db = a*f = -4,
    dL/dc = f = -2, dL/df = a*b + c = 4."""
    a = api.Value(params.get("a", 2.0))
    b = api.Value(params.get("b", -3.0))
    c = api.Value(params.get("c", 10.0))
    f = api.Value(params.get("f", -2.0))
    e = a * b
    d = e + c
    L = d * f
    L.backward()
    return {"L": L.data, "a.grad": a.grad, "b.grad": b.grad, "c.grad": c.grad, "f.grad": f.grad}


def worked_neuron(api, params):
    """o = tanh(x1*w1 + x2*w2 + b), with b chosen so that o = tanh(0.8813...) = 1/sqrt(2):
    do/dn = 1 - o**2 = 0.5, so dx1 = w1*0.5 = -1.5, dw1 = x1*0.5 = 1, dx2 = 0.5, dw2 = 0, db = 0.5."""
    x1 = api.Value(params.get("x1", 2.0))
    x2 = api.Value(params.get("x2", 0.0))
    w1 = api.Value(params.get("w1", -3.0))
    w2 = api.Value(params.get("w2", 1.0))
    b = api.Value(params.get("b", 6.8813735870195432))
    n = x1 * w1 + x2 * w2 + b
    o = n.tanh()
    o.backward()
    return {"o": o.data, "x1.grad": x1.grad, "x2.grad": x2.grad, "w1.grad": w1.grad,
            "w2.grad": w2.grad, "b.grad": b.grad}


def worked_readme(api, params):
    """The expression of micrograd's README: g = 24.7041, dg/da = 138.8338, dg/db = 645.5773."""
    a = api.Value(params.get("a", -4.0))
    b = api.Value(params.get("b", 2.0))
    c = a + b
    d = a * b + b**3
    c += c + 1
    c += 1 + c + (-a)
    d += d * 2 + (b + a).relu()
    d += 3 * d + (b - a).relu()
    e = c - d
    f = e**2
    g = f / 2.0
    g += 10.0 / f
    g.backward()
    return {"g": g.data, "a.grad": a.grad, "b.grad": b.grad}


def worked_square(api, params):
    """y = x**2 at x=3: y = 9, dy/dx = 2x = 6."""
    x = api.Value(params.get("x", 3.0))
    y = x**2
    y.backward()
    return {"y": y.data, "x.grad": x.grad}


def worked_x_plus_2_times_x(api, params):
    """y = (x + 2) * x at x=3: y = 15, dy/dx = (x + 2) + x = 8; x reaches y along two paths."""
    x = api.Value(params.get("x", 3.0))
    y = (x + 2) * x
    y.backward()
    return {"y": y.data, "x.grad": x.grad}


def worked_a_plus_a(api, params):
    """b = a + a at a=3: b = 6, db/da = 1 + 1 = 2; the node's two children are the same node."""
    a = api.Value(params.get("a", 3.0))
    b = a + a
    b.backward()
    return {"b": b.data, "a.grad": a.grad}


WORKED = {
    program.__name__: program
    for program in (worked_L, worked_neuron, worked_readme, worked_square,
                    worked_x_plus_2_times_x, worked_a_plus_a)
}
