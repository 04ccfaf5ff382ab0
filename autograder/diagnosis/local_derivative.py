"""wrong_local_derivative: the chain rule right, the local derivative wrong, read off the probes.

No model can list every wrong derivative, so this one is named from what the closure did
when the kit called it again (child/programs/ops.py: PROBES): from a grad of 0 with out.grad 1
it gave d, with out.grad 2 it gave 2d, from a grad of 1 it gave 1 + d. Then it scales by
out.grad and adds, as it should, and d is its local derivative: wrong where it differs from
the right one (the lecture engine's probes, in the golden's predictions). The forward value
must be right everywhere, or the closure may be fine and only fed a wrong output.

The probes are evidence only where some d is not 0: a closure that changes no grad at all
(attached to the inputs instead of `out`, skipped by a gate) gives 0, 0 and 1 everywhere, which
pass the scales-and-adds test trivially and say nothing about its derivative. One that scales
and adds somewhere, and gives 0 where the derivative is not (int(k) for k = 0.5), is named.
"""
from __future__ import annotations

import math

LOCAL = "ops.local"
PROBE = "probe"
# the probes' (grad before, out.grad), in the order the child makes them
STARTS, UPSTREAMS = (0.0, 0.0, 1.0), (1.0, 2.0, 1.0)


def fits(runs: list[tuple[str, dict, dict, dict]], close) -> bool:
    """runs: (program, observations, golden, the right engine's prediction) of every case of the task
    that counts. close(a, b): the rubric's tolerance."""
    if any(not _number(obs.get("out")) or not close(obs["out"], golden.get("out", math.nan))
           for _, obs, golden, _ in runs if "out" in golden):
        return False
    probed = [(obs.get(PROBE), right.get(PROBE)) for program, obs, _, right in runs if program == LOCAL]
    if not probed or any(not isinstance(p, list) or not isinstance(r, list) or len(p) != len(r) for p, r in probed):
        return False
    wrong = moved = False
    for seen, right in probed:
        if not all(_number(x) for x in seen):
            return False
        n = len(seen) // 3
        d, scaled, added = seen[:n], seen[n:2 * n], seen[2 * n:]
        if not all(close(s, 2 * x) and close(a, 1 + x) for x, s, a in zip(d, scaled, added)):
            return False
        wrong = wrong or not all(close(x, y) for x, y in zip(d, right[:n]))
        moved = moved or not all(close(x, 0.0) for x in d)
    return wrong and moved


def _number(x) -> bool:
    return isinstance(x, float) and math.isfinite(x)
