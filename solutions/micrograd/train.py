"""Training: a loss and a plain gradient-descent loop."""


def mse_loss(predictions, targets):
    # The mean of squared errors, as one Value:
    #     (1/n) * sum over i of (predictions[i] - targets[i])**2
    # predictions are Values; targets are numbers or Values. The mean, not the
    # sum: the loss must not grow with the number of points.
    # BEGIN SOLUTION mse_loss: return the mean squared error as a Value
    return sum((p - t)**2 for p, t in zip(predictions, targets)) / len(predictions)
    # END SOLUTION


def train(model, xs, ys, steps, lr):
    # Plain gradient descent, `steps` times:
    #   1. model.zero_grad()  (grads accumulate otherwise)
    #   2. loss = mse_loss([model(x) for x in xs], ys)
    #   3. loss.backward()
    #   4. p.data -= lr * p.grad for every p in model.parameters()
    # Returns the loss of every step as a float (loss.data, taken before that
    # step's update): a list of `steps` numbers.
    losses = []
    # BEGIN SOLUTION train: run the four steps `steps` times, recording each step's loss
    for _ in range(steps):
        model.zero_grad()
        loss = mse_loss([model(x) for x in xs], ys)
        loss.backward()
        for p in model.parameters():
            p.data -= lr * p.grad
        losses.append(loss.data)
    # END SOLUTION
    return losses
