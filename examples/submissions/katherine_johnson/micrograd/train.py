from micrograd.engine import Value


def mse_loss(predictions, targets):
    # mean squared error
    losses = [(yout - ygt)**2 for ygt, yout in zip(targets, predictions)]
    return sum(losses) * (1.0 / len(losses))


def train(model, xs, ys, steps, lr):
    losses = []
    for k in range(steps):

        # forward
        scores = [model(x) for x in xs]
        loss = mse_loss(scores, ys)

        # backward
        model.zero_grad()
        loss.backward()

        # update (sgd)
        for p in model.parameters():
            p.data -= lr * p.grad

        losses.append(loss.data)
    return losses
