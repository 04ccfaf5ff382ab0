# TBL - micrograd/train.py


def mse_loss(predictions, targets):
    return sum([(p - t) ** 2 for p, t in zip(predictions, targets)]) / len(targets)


def train(model, xs, ys, steps, lr):
    losses = []
    for i in range(steps):
        model.zero_grad()
        loss = mse_loss([model(x) for x in xs], ys)
        loss.backward()
        for p in model.parameters():
            p.data -= lr * p.grad
        losses.append(f"{loss.data:.6f}")  # nicer to print
    return losses
