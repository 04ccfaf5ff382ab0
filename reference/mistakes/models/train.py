"""The mistakes of the loss and the training loop (tasks mse_loss, train)."""
from __future__ import annotations

from reference.mistakes import train as loop
from reference.mistakes.models.base import Model, build_api


def _sum_of_squares(predictions, targets):
    return sum((p - t) ** 2 for p, t in zip(predictions, targets))


def train_models() -> list[Model]:
    def loss(id_, fn, variant=""):
        return Model("mse_loss", id_, variant, lambda: build_api(mse_loss=fn))

    def loop_(id_, variant="", **knobs):
        return Model("train", id_, variant, lambda: build_api(train=loop.mistaken_train(**knobs)))

    return [
        loss("mse_not_mean", _sum_of_squares, "sum"),
        loss("mse_not_mean", lambda p, t: _sum_of_squares(p, t) / (len(p) - 1), "n_minus_1"),
        loss("mse_not_squared", lambda p, t: sum((a - b) for a, b in zip(p, t)) / len(p)),
        loss("mse_absolute", lambda p, t: sum(((a - b) ** 2) ** 0.5 for a, b in zip(p, t)) / len(p)),
        loss("mse_first_point_only", lambda p, t: (p[0] - t[0]) ** 2),
        loop_("zero_grad_missing", zero="never"),
        loop_("zero_grad_after_backward", zero="after"),
        loop_("update_sign", sign=1.0),
        *(loop_("learning_rate_ignored", f"lr_{lr:g}", lr=lr) for lr in LECTURE_RATES),
        loop_("update_uses_data", grad=False),
        loop_("loss_after_update", record="after"),
        loop_("steps_off_by_one", fewer=1),
        loop_("loss_per_parameter", per_parameter=True),
    ]


# the fixed steps students copy in place of lr (the lecture's 0.05 and 0.01 among them)
LECTURE_RATES = (1.0, 0.5, 0.1, 0.05, 0.01, 0.001)
