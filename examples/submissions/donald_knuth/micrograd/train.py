"""Training: a loss and a plain gradient-descent loop."""


def mse_loss(predictions, targets):
    # The mean of squared errors, as one Value:
    #     (1/n) * sum over i of (predictions[i] - targets[i])**2
    # predictions are Values; targets are numbers or Values. The mean, not the
    # sum: the loss must not grow with the number of points.
    raise NotImplementedError('mse_loss: return the mean squared error as a Value')


def train(model, xs, ys, steps, lr):
    # Plain gradient descent, `steps` times:
    #   1. model.zero_grad()  (grads accumulate otherwise)
    #   2. loss = mse_loss([model(x) for x in xs], ys)
    #   3. loss.backward()
    #   4. p.data -= lr * p.grad for every p in model.parameters()
    # Returns the loss of every step as a float (loss.data, taken before that
    # step's update): a list of `steps` numbers.
    losses = []
    raise NotImplementedError("train: run the four steps `steps` times, recording each step's loss")
    return losses
