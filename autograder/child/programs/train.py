"""Case programs for the loss and the training loop (tasks mse_loss, train).

`probe` tests train's loop by itself: the model is a kit "probe" whose outputs
are fresh leaves, and while train runs, its mse_loss is a kit loss whose
backward() adds the exact gradient to the probe's parameters. No student
operation, backward(), parameters(), zero_grad() or mse_loss plays a part.
"""
from ._graph import a_value, number, reachable, seed


def mse(api, p):
    """mse_loss(predictions, targets) on leaf Values.

    p: "predictions", "targets", "targets_values" (targets as Values, not numbers).
    "connected" is 1.0 when every prediction can be reached from the loss through
    _prev (backward() could reach them), 0.0 otherwise or when the loss is not a Value.
    """
    preds = [api.Value(v) for v in p["predictions"]]
    targets = [api.Value(t) for t in p["targets"]] if p["targets_values"] else list(p["targets"])
    loss = a_value(api, api.mse_loss(preds, targets), "mse_loss", "the predictions")
    if not isinstance(loss, api.Value):
        return {"loss": loss, "connected": 0.0}
    return {"loss": loss.data, "connected": reachable(loss, preds)}


class ProbeModel:
    """A linear model z = w . x + b with the kit's own parameters() and zero_grad().

    Calling it returns a fresh leaf Value(z) and remembers which x it came from,
    so that the probe loss knows each prediction's gradient.
    """

    def __init__(self, api, w, b):
        self.api = api
        self.w = [api.Value(v) for v in w]
        self.b = api.Value(b)
        self.seen = {}  # id(output) -> (output, x as numbers); holding output keeps ids unique

    def parameters(self):
        return self.w + [self.b]

    def zero_grad(self):
        for q in self.parameters():
            q.grad = seed(self.api, 0.0)

    def __call__(self, x):
        x = [number(self.api, xk) for xk in x]
        out = self.api.Value(sum(w.data * xk for w, xk in zip(self.w, x)) + self.b.data)
        self.seen[id(out)] = (out, x)
        return out


def probe_loss(api, model, calls):
    """A stand-in for mse_loss: the same number, with a backward() that needs no graph."""

    class ProbeLoss(api.Value):
        def backward(self):
            # adds d(loss)/d(parameter), as a correct backward() would
            for q, g in zip(model.parameters(), self.exact_grads):
                q.grad += g

    def loss(predictions, targets):
        calls.append(1)
        rows = []
        for pred, y in zip(predictions, targets):
            if id(pred) not in model.seen:
                raise TypeError("train passed mse_loss something other than model(x) for the x in xs")
            rows.append((pred.data - number(api, y), model.seen[id(pred)][1]))
        n = len(rows)
        out = ProbeLoss(sum(e * e for e, _ in rows) / n)
        # mean of 2 * error * x_k for each weight, mean of 2 * error for the bias
        out.exact_grads = [sum(2 * e * x[k] for e, x in rows) / n for k in range(len(model.w))]
        out.exact_grads.append(sum(2 * e for e, _ in rows) / n)
        return out

    return loss


def probe(api, p):
    """train(probe model, xs, ys, steps, lr) with the probe loss in place of mse_loss.

    p: "w", "b" (the probe's starting parameters), "xs", "ys", "steps", "lr".
    Observed: "losses" (what train returned), "params" (w then b after training),
    "loss_calls" (how many times train called mse_loss).
    """
    model = ProbeModel(api, p["w"], p["b"])
    calls = []
    scope = api.train.__globals__  # train's module: where it looks mse_loss up
    absent = object()
    saved = scope.get("mse_loss", absent)
    scope["mse_loss"] = probe_loss(api, model, calls)
    try:
        losses = api.train(model, [list(x) for x in p["xs"]], list(p["ys"]), p["steps"], p["lr"])
    finally:
        if saved is absent:
            scope.pop("mse_loss", None)
        else:
            scope["mse_loss"] = saved
    return {
        "losses": losses,
        "params": [q.data for q in model.parameters()],
        "loss_calls": len(calls),
    }
