"""Programs over the exercise API: one operation, a deep chain, odd observations."""
from ._shared import leaf


def add(api, p):
    a, b = leaf(api, p["a"]), leaf(api, p["b"])
    out = a + b
    out.grad = p.get("upstream", 1.0)
    out._backward()
    return {"out": out.data, "grads": [a.grad, b.grad]}


def chain(api, p):
    """x * 1 * 1 ... depth times, then backward(): a recursive topological sort goes depth deep."""
    x = leaf(api, 2.0)
    y = x
    for _ in range(p["depth"]):
        y = y * 1.0
    y.backward()
    return {"grad": x.grad}


def poke(api, p):
    """Value(x).<method>(): whatever the student's method does."""
    return {"result": getattr(leaf(api, p.get("x", 0.0)), p["method"])()}


def same_value(api, p):
    """1.0 when Neuron's parameters are instances of the Value the API hands out."""
    neuron = api.Neuron(2)
    return {"same": 1.0 if all(isinstance(w, api.Value) for w in neuron.parameters()) else 0.0}


def odd(api, p):
    """Observations of every kind the child must serialise."""
    class Shy:
        def __repr__(self):
            raise RuntimeError("no")

    return {
        "int": 3, "bool": True, "nan": float("nan"), "inf": float("inf"), "big": 10 ** 400,
        "nested": [1, (2.5, [3])], "value": leaf(api, 1.5), "shy": Shy(), "none": None,
        "long": "x" * 10_000,
    }


def train_probe(api, p):
    """train() and mse_loss() are found, and train's globals are the module it was written in."""
    return {"has_mse": 1.0 if "mse_loss" in api.train.__globals__ else 0.0}
