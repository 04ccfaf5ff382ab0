"""The reference engine vs karpathy's micrograd (PyPI micrograd==0.1.0), side by side.

(a) backward() of one random graph of 100,000 operations, the same DAG built on
    both engines from a seed. micrograd sorts the graph recursively, so its
    attempts run in a subprocess each, at the default and at raised recursion
    limits: a RecursionError or a crash is reported, never fatal. Its recursion
    goes as deep as its depth-first walk does, which follows the order of its
    `_prev` sets (memory addresses), not the graph's longest path.
(b) 20 steps of gradient descent on MLP(2, [16, 16, 1]) over 100 points, with
    the same data and the same initial parameters (copied in parameters()
    order). micrograd's hidden layers are relu, so the reference is run with
    activation='relu' for the like-for-like ratio; its tanh run is shown too.

Timings are medians over --repeats runs, each timed with Python's cyclic
garbage collector paused (as timeit does) after a gc.collect(): micrograd's
closures make reference cycles, and with the collector on its training runs
about 10x slower still: --gc-on-too adds one such run of each engine (a minute).

Usage:  .venv/bin/python benchmarks/bench_reference.py [--repeats 5] [--json PATH] [--gc-on-too]
"""
from __future__ import annotations

import argparse
import gc
import json
import math
import platform
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

KIT = Path(__file__).resolve().parent.parent
NOT_PYPI = (KIT / "solutions", KIT / "exercises")  # the kit's own packages named `micrograd`


def _ours(path) -> bool:
    return any(Path(path or ".").resolve().is_relative_to(folder) for folder in NOT_PYPI)


sys.path[:] = [p for p in sys.path if not _ours(p)]
sys.path.insert(0, str(KIT))  # for `reference`, when the kit is not installed

GRAPH_OPS = 100_000
GRAPH_LEAVES = 100
LIMITS = (None, 10_000, 1_000_000)  # None: Python's default recursion limit
TRAIN_STEPS, TRAIN_POINTS, LR = 20, 100, 0.05


def import_micrograd():
    try:
        import micrograd.engine
        import micrograd.nn
    except ImportError:
        sys.exit("bench: karpathy's micrograd is missing: pip install micrograd==0.1.0")
    if _ours(micrograd.engine.__file__):
        sys.exit(f"bench: imported {micrograd.engine.__file__}, not the PyPI micrograd")
    return micrograd.engine, micrograd.nn


# -- (a) one random graph, on either engine ------------------------------------------
def random_graph(Value, ops=GRAPH_OPS, seed=0):
    """Leaves, then `ops` operations; each uses a recent node (depth) and any node (fan-out).

    Every value stays in [-1, 1], and both engines make the same choices. Returns (leaves, root)."""
    rng = random.Random(seed)
    nodes = [Value(rng.uniform(-1, 1)) for _ in range(GRAPH_LEAVES)]
    leaves = list(nodes)
    for _ in range(ops):
        a = nodes[-1 - rng.randrange(min(len(nodes), 4))]
        b = nodes[rng.randrange(len(nodes))]
        r = rng.random()
        if r < 0.35:
            out = a * b
        elif r < 0.7:
            out = a + b if abs(a.data + b.data) <= 1 else a - b
        elif r < 0.85:
            out = a.relu()
        else:
            out = -a
        nodes.append(out)
    return leaves, nodes[-1]


def graph_depth(root):
    """The longest path from root to a leaf, without recursion."""
    depth, seen, stack = {}, set(), [(root, False)]
    while stack:
        node, done = stack.pop()
        if done:
            depth[id(node)] = 1 + max((depth[id(c)] for c in node._prev), default=0)
        elif id(node) not in seen:
            seen.add(id(node))
            stack.append((node, True))
            stack.extend((c, False) for c in node._prev if id(c) not in seen)
    return depth[id(root)]


def timed(fn, *args, collector=False):
    """(seconds, result) of fn(*args), from a clean heap, the cyclic GC paused unless collector."""
    gc.collect()
    if not collector:
        gc.disable()
    try:
        start = time.perf_counter()
        result = fn(*args)
        return time.perf_counter() - start, result
    finally:
        gc.enable()


def time_backward(Value, repeats):
    times, grads = [], None
    for _ in range(repeats):
        leaves, root = random_graph(Value)
        seconds, _ = timed(root.backward)
        times.append(seconds)
        grads = [float(x.grad) for x in leaves]
    return times, grads


def micrograd_backward_child(limit, repeats):
    """In the subprocess: micrograd's backward() on the graph, at a recursion limit."""
    engine, _ = import_micrograd()
    if limit:
        sys.setrecursionlimit(limit)
    try:
        times, grads = time_backward(engine.Value, repeats)
        result = {"status": "ok", "times": times, "grads": grads}
    except RecursionError as err:
        result = {"status": "RecursionError", "message": str(err)}
    print(json.dumps(result))


def micrograd_backward(limit, repeats):
    cmd = [sys.executable, __file__, "--_micrograd-child", str(limit or 0), "--repeats", str(repeats)]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        return {"status": "timeout (600 s)"}
    if proc.returncode < 0:
        return {"status": f"crashed (signal {-proc.returncode})"}
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or not lines:
        return {"status": f"crashed (exit {proc.returncode})", "message": proc.stderr.strip()[-300:]}
    return json.loads(lines[-1])


def bench_graph(repeats):
    import reference

    leaves, root = random_graph(reference.Value)
    depth = graph_depth(root)
    times, ref_grads = time_backward(reference.Value, repeats)
    rows = {"reference": {"status": "ok", "times": times}}
    for limit in LIMITS:
        got = micrograd_backward(limit, repeats)
        if got.get("grads") is not None:
            got["grads_agree"] = all(math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
                                     for a, b in zip(got.pop("grads"), ref_grads))
        rows[f"micrograd, recursion limit {limit or sys.getrecursionlimit()}"] = got
    return {"ops": GRAPH_OPS, "leaves": GRAPH_LEAVES, "depth": depth, "runs": rows}


# -- (b) training an MLP ---------------------------------------------------------------
def dataset(seed=0):
    rng = random.Random(seed)
    xs = [[rng.uniform(-2, 2), rng.uniform(-2, 2)] for _ in range(TRAIN_POINTS)]
    ys = [1.0 if x0 * x1 > 0 else -1.0 for x0, x1 in xs]
    return xs, ys


def micrograd_train(model, xs, ys, steps, lr):
    """train() of the exercise API, written with karpathy's micrograd as is."""
    losses = []
    for _ in range(steps):
        model.zero_grad()
        loss = sum((model(x) - y) ** 2 for x, y in zip(xs, ys)) * (1.0 / len(xs))
        loss.backward()
        for p in model.parameters():
            p.data -= lr * p.grad
        losses.append(loss.data)
    return losses


def time_training(make_model, train, repeats, collector=False):
    """Times of `repeats` runs from the same start (a fixed vector, in parameters() order), last losses."""
    xs, ys = dataset()
    times, losses = [], None
    for _ in range(repeats):
        model = make_model()
        rng = random.Random(1)
        for p in model.parameters():
            p.data = rng.uniform(-1, 1)
        seconds, losses = timed(train, model, xs, ys, TRAIN_STEPS, LR, collector=collector)
        times.append(seconds)
    return times, losses


def bench_training(repeats, gc_on_too=False):
    import reference

    _, mg_nn = import_micrograd()
    engines = {  # name -> (a fresh MLP(2, [16, 16, 1]), that engine's train)
        "micrograd (relu)": (lambda: mg_nn.MLP(2, [16, 16, 1]), micrograd_train),
        "reference (relu)": (lambda: reference.MLP(2, [16, 16, 1], activation="relu"), reference.train),
        "reference (tanh)": (lambda: reference.MLP(2, [16, 16, 1], activation="tanh"), reference.train),
    }
    runs, losses = {}, {}
    for name, (make, train) in engines.items():
        times, losses[name] = time_training(make, train, repeats)
        runs[name] = {"times": times, "final_loss": losses[name][-1]}
    runs["reference (relu)"]["losses_agree"] = all(
        math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
        for a, b in zip(losses["reference (relu)"], losses["micrograd (relu)"], strict=True))
    if gc_on_too:
        for name in ("micrograd (relu)", "reference (relu)"):
            times, gc_losses = time_training(*engines[name], 1, collector=True)
            runs[f"{name}, GC on, 1 run"] = {"times": times, "final_loss": gc_losses[-1]}
    return {"model": "MLP(2, [16, 16, 1])", "points": TRAIN_POINTS, "steps": TRAIN_STEPS, "runs": runs}


# -- report -------------------------------------------------------------------------------
def summarise(result):
    for section in ("graph", "training"):
        for run in result[section]["runs"].values():
            if "times" in run:
                run["median_s"] = statistics.median(run["times"])
    g, t = result["graph"]["runs"], result["training"]["runs"]
    ok = [r["median_s"] for name, r in g.items() if name.startswith("micrograd") and "median_s" in r]
    result["graph"]["speedup"] = (min(ok) / g["reference"]["median_s"]) if ok else None
    result["training"]["speedup"] = t["micrograd (relu)"]["median_s"] / t["reference (relu)"]["median_s"]
    if "micrograd (relu), GC on, 1 run" in t:
        result["training"]["speedup_gc_on"] = (t["micrograd (relu), GC on, 1 run"]["median_s"]
                                               / t["reference (relu), GC on, 1 run"]["median_s"])


def print_report(result):
    g, t = result["graph"], result["training"]
    print(f"Python {platform.python_version()}, medians of {result['repeats']} runs, cyclic GC paused while timing\n")
    print(f"(a) backward() of a random graph: {g['ops']:,} ops, {g['leaves']} leaves, depth {g['depth']:,}")
    for name, run in g["runs"].items():
        if run.get("status") == "ok":
            extra = "" if "grads_agree" not in run else f"   leaf grads agree: {'yes' if run['grads_agree'] else 'NO'}"
            print(f"    {name:<36} {run['median_s'] * 1e3:9.1f} ms{extra}")
        else:
            detail = f": {run['message'][-70:]}" if run.get("message") and "crashed" in run["status"] else ""
            print(f"    {name:<36} {run['status']}{detail}")
    if g["speedup"]:
        print(f"    speed-up of the reference over micrograd's best run: {g['speedup']:.1f}x")
    print(f"\n(b) {t['steps']} training steps of {t['model']} on {t['points']} points")
    for name, run in t["runs"].items():
        agree = "" if "losses_agree" not in run else f"   losses agree with micrograd: {'yes' if run['losses_agree'] else 'NO'}"
        print(f"    {name:<36} {run['median_s'] * 1e3:9.1f} ms   final loss {run['final_loss']:.6f}{agree}")
    verdict = "meets" if t["speedup"] >= 2 else "MISSES"
    gc_on = f"; {t['speedup_gc_on']:.1f}x with the GC on" if "speedup_gc_on" in t else ""
    print(f"    speed-up of the reference (relu) over micrograd: {t['speedup']:.1f}x ({verdict} the 2x target){gc_on}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--json", type=Path, metavar="PATH", help="also write the results as JSON")
    parser.add_argument("--gc-on-too", action="store_true", help="add one training run of each engine with the GC on")
    parser.add_argument("--_micrograd-child", dest="child", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child is not None:
        micrograd_backward_child(args.child, args.repeats)
        return 0
    import_micrograd()
    result = {"repeats": args.repeats, "python": platform.python_version(),
              "graph": bench_graph(args.repeats), "training": bench_training(args.repeats, args.gc_on_too)}
    summarise(result)
    print_report(result)
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
        print(f"\nWrote JSON results to {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
