def mse_loss(predictions, targets):
    n = len(predictions)
    total = 0
    for yp, yt in zip(predictions, targets):
        total = total + (yp - yt) ** 2
    return total / n


def train(model, xs, ys, steps, lr):
    history = []
    for step in range(steps):
        # forward
        preds = [model(x) for x in xs]
        loss = mse_loss(preds, ys)
        # backward
        model.zero_grad()
        loss.backward()
        # update
        for p in model.parameters():
            p.data += -lr * p.grad
        history.append(loss.data)
    return history
