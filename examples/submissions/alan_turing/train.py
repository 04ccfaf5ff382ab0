def mse_loss(predictions, targets):
    errors = [(p - t) ** 2 for p, t in zip(predictions, targets)]
    return sum(errors) * (1.0 / len(errors))


def train(model, xs, ys, steps, lr):
    losses = []
    for k in range(steps):
        ypred = [model(x) for x in xs]
        loss = mse_loss(ypred, ys)

        model.zero_grad()
        loss.backward()

        for p in model.parameters():
            p.data -= lr * p.grad

        losses.append(loss.data)
        # print(k, loss.data)
    return losses
