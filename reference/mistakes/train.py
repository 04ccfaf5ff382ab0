"""The lecture's loss and training loop, and their classic mistakes (reference/mistakes).

Every loop here looks `mse_loss` up in this module's globals, as a student's train does in
theirs: the case program `train.probe` puts its stand-in loss there.
"""


def mse_loss(predictions, targets):
    return sum((p - t) ** 2 for p, t in zip(predictions, targets)) / len(predictions)


def step(model, lr):
    for p in model.parameters():
        p.data -= lr * p.grad


def train(model, xs, ys, steps, lr):
    losses = []
    for _ in range(steps):
        model.zero_grad()
        loss = mse_loss([model(x) for x in xs], ys)
        loss.backward()
        step(model, lr)
        losses.append(loss.data)
    return losses


def mistaken_train(*, zero="before", sign=-1.0, lr=None, grad=True, record="loss", fewer=0, per_parameter=False):
    """train with one classic mistake, by keyword.

    zero: "before" (right), "never" or "after" (between backward and the update); sign: +1.0 climbs
    the loss; lr: a number used instead of the argument; grad=False: the update uses p.data; record:
    "after" records the loss after the update; fewer: steps left out; per_parameter: the loss appended
    once per parameter.
    """
    def train(model, xs, ys, steps, step_size):
        losses = []
        for _ in range(steps - fewer):
            if zero == "before":
                model.zero_grad()
            loss = mse_loss([model(x) for x in xs], ys)
            loss.backward()
            if zero == "after":
                model.zero_grad()
            rate = step_size if lr is None else lr
            for p in model.parameters():
                p.data += sign * rate * (p.grad if grad else p.data)
                if per_parameter:
                    losses.append(loss.data)
            if per_parameter:
                continue
            losses.append(mse_loss([model(x) for x in xs], ys).data if record == "after" else loss.data)
        return losses
    return train
