# train.py -- John McCarthy
from engine import Value


def mse_loss(predictions, targets):
    sq = [(p - t) ** 2 for p, t in zip(predictions, targets)]
    return sum(sq, Value(0.0)) / len(sq)


def train(model, xs, ys, steps, lr):
    losses = []
    for _ in range(steps):
        model.zero_grad()
        loss = mse_loss([model(x) for x in xs], ys)
        loss.backward()
        for p in model.parameters():
            p.data -= lr * p.grad
        losses.append(float(loss.data))
    return losses
