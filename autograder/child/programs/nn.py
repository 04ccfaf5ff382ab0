"""Case programs for the neural-net pieces (tasks neuron, layer, mlp, parameters, zero_grad).

Each program leans on one task only: parameters are set through attributes
(n.w, n.b), never through parameters(); a layer is given kit stand-ins for its
neurons; an MLP for parameters() is assembled from Layers without MLP.__init__;
zero_grad runs on a kit module with a kit list of parameters.
"""
from ._graph import a_value, construct, number, reachable, seed


def neuron(api, p):
    """A Neuron with weights p["w"] and bias p["b"], called on p["x"].

    p: "nin", "w", "b", "x", "x_values" (pass the inputs as Values, not floats),
    "nonlin", "activation". "connected" is 1.0 when every weight, the bias (and the
    inputs, when they are Values) can be reached from the output through _prev,
    that is when backward() could reach them.
    """
    n = construct(api.Neuron, p["nin"], nonlin=p["nonlin"], activation=p["activation"])
    for wi, v in zip(n.w, p["w"]):
        wi.data = v
    n.b.data = p["b"]
    x = [api.Value(v) for v in p["x"]] if p["x_values"] else list(p["x"])
    out = a_value(api, n(x), "the neuron", "its weights and bias")
    if not isinstance(out, api.Value):
        return {"out": out, "connected": 0.0}
    inputs = x if p["x_values"] else []
    return {"out": out.data, "connected": reachable(out, [*n.w, n.b, *inputs])}


class FakeNeuron:
    """Stands in for neuron j of a layer: j + sum((k+1) * x[k]), a distinct, easy number."""

    def __init__(self, api, j):
        self.api, self.j = api, j

    def __call__(self, x):
        return self.api.Value(self.j + sum((k + 1) * number(self.api, xk) for k, xk in enumerate(x)))


def layer(api, p):
    """Layer(nin, nout) with kit stand-ins for its neurons, called on p["x"].

    p: "nin", "nout", "x", "x_values". "outs" are the numbers the layer returned,
    in order; "is_single" is 1.0 when it returned one Value (not a list of one).
    """
    lay = api.Layer(p["nin"], p["nout"])
    lay.neurons = [FakeNeuron(api, j) for j in range(p["nout"])]
    x = [api.Value(v) for v in p["x"]] if p["x_values"] else list(p["x"])
    out = lay(x)
    if isinstance(out, api.Value):
        return {"is_single": 1.0, "outs": [out.data]}
    if isinstance(out, (list, tuple)):
        return {"is_single": 0.0, "outs": [number(api, o) for o in out]}
    return {"is_single": 0.0, "outs": out}


def mlp(api, p):
    """The structure MLP(nin, nouts) builds: layer sizes, fan-in, nonlin, activation.

    p: "nin", "nouts", "activation". "activation_ok" is 1.0 when every neuron
    with an activation uses the configured one (a neuron without an `activation`
    attribute counts as configured: karpathy's has none).
    """
    act = p["activation"]
    m = construct(api.MLP, p["nin"], list(p["nouts"]), activation=act)
    neurons = [n for lay in m.layers for n in lay.neurons]
    ok = all(getattr(n, "activation", act) == act for n in neurons if n.nonlin)
    return {
        "sizes": [len(lay.neurons) for lay in m.layers],
        "fan_in": [len(lay.neurons[0].w) for lay in m.layers],
        "nonlin": [1.0 if n.nonlin else 0.0 for n in neurons],
        "activation_ok": 1.0 if ok else 0.0,
    }


class FakeLayer:
    """Stands in for layer i of an MLP: output j is (i+1)*10 + j + sum((k+1) * x[k]); one Value
    when the layer has one output (as micrograd's Layer returns), else a list."""

    def __init__(self, api, i, nout):
        self.api, self.i, self.nout = api, i, nout

    def __call__(self, x):
        xs = x if isinstance(x, (list, tuple)) else [x]
        base = sum((k + 1) * number(self.api, xk) for k, xk in enumerate(xs))
        outs = [self.api.Value((self.i + 1) * 10 + j + base) for j in range(self.nout)]
        return outs[0] if self.nout == 1 else outs


def mlp_call(api, p):
    """MLP(nin, nouts) called on p["x"], its layers replaced by kit stand-ins: MLP.__call__ alone.

    p: "nin", "nouts", "x", "activation". "outs" are the numbers the MLP returned (one
    Value or a list), "is_single" is 1.0 when it returned one Value. A call that skips
    a layer, or feeds each layer the first input instead of the previous output, shows.
    "layers_built" is 1.0 when MLP.__init__ made one layer per entry of nouts (else the
    call is not the MLP's own: the stand-ins would stand in for nothing).
    """
    m = construct(api.MLP, p["nin"], list(p["nouts"]), activation=p["activation"])
    built = 1.0 if len(getattr(m, "layers", ())) == len(p["nouts"]) else 0.0  # __init__ did its part
    m.layers = [FakeLayer(api, i, nout) for i, nout in enumerate(p["nouts"])]
    out = m(list(p["x"]))
    if isinstance(out, api.Value):
        return {"layers_built": built, "is_single": 1.0, "outs": [out.data]}
    if isinstance(out, (list, tuple)):
        return {"layers_built": built, "is_single": 0.0, "outs": [number(api, o) for o in out]}
    return {"layers_built": built, "is_single": 0.0, "outs": out}


def parameters(api, p):
    """parameters() of a Neuron, a Layer or an MLP, compared by identity with n.w and n.b.

    p: "kind" ("neuron" | "layer" | "mlp"), "nin", and "nout" (layer) or "nouts"
    (mlp). "order" is, for each item returned, its position in the order of the
    exercise API (layer by layer, neuron by neuron, weights then bias), or -1 if it
    is none of the model's parameters (a copy, a number); "count" how many came back.
    """
    if p["kind"] == "neuron":
        module = api.Neuron(p["nin"])
        layers = [[module]]
    elif p["kind"] == "layer":
        module = api.Layer(p["nin"], p["nout"])
        layers = [module.neurons]
    else:
        # assembled from Layers, so that MLP.__init__ (task mlp) plays no part
        sizes = [p["nin"], *p["nouts"]]
        module = api.MLP.__new__(api.MLP)
        module.layers = [api.Layer(sizes[i], sizes[i + 1]) for i in range(len(p["nouts"]))]
        layers = [lay.neurons for lay in module.layers]
    expected = [q for neurons in layers for n in neurons for q in (*n.w, n.b)]
    for i, q in enumerate(expected):
        q.data = 0.5 + i  # distinct numbers, so that a copy is told apart in messages
    got = list(module.parameters())
    order = [next((i for i, q in enumerate(expected) if q is item), -1) for item in got]
    return {"order": order, "count": len(got)}


def zero_grad(api, p):
    """Module.zero_grad() on a kit module whose parameters() is a kit list of Values.

    p: "data", "grads" (the grads before). "grads" and "data" are observed after:
    the grads must be 0, the data untouched.
    """
    values = [api.Value(d) for d in p["data"]]
    for v, g in zip(values, p["grads"]):
        v.grad = seed(api, g)

    class Box(api.Module):
        def parameters(self):
            return values

    Box().zero_grad()
    return {"grads": [v.grad for v in values], "data": [v.data for v in values]}
