"""The reference loss and training loop, on whichever engine the predictions come from.

The loss sums the squared errors with the engine's fused `Value.sum` node (the reference's,
or the torch adapter's), so the same two functions serve both oracles.
"""


def mse_loss(predictions, targets):
    """Mean of squared errors, as one Value of the predictions' engine."""
    predictions = list(predictions)
    targets = list(targets)
    if len(predictions) != len(targets):
        raise ValueError(f"{len(predictions)} predictions but {len(targets)} targets")
    if not predictions:
        raise ValueError("mse_loss of no predictions")
    squared = [(p - t) ** 2 for p, t in zip(predictions, targets)]
    return type(squared[0]).sum(squared) * (1.0 / len(predictions))


def train(model, xs, ys, steps, lr):
    """Plain gradient descent: zero grads, forward, backward, step; one loss float per step."""
    losses = []
    for _ in range(steps):
        model.zero_grad()
        loss = mse_loss([model(x) for x in xs], ys)
        loss.backward()
        for p in model.parameters():
            p.data -= lr * p.grad
        losses.append(loss.data)
    return losses
