# train.py -- M. Hamilton


def mse_loss(predictions, targets):
    total = 0.0
    for pred, target in zip(predictions, targets):
        diff = pred - target
        total = diff * diff + total
    return total / len(predictions)


def train(model, xs, ys, steps, lr):
    losses = []
    step = 0
    while step < steps:
        model.zero_grad()
        loss = mse_loss([model(x) for x in xs], ys)
        loss.backward()
        for p in model.parameters():
            p.data -= lr * p.grad
        losses.append(loss.data)
        # TODO: stop early once the loss is small enough?
    return losses
