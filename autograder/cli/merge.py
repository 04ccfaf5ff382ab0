"""`autograder merge SHARD_OUT... --out OUT`: the class's files from the shards of a class.

Building the parser imports nothing heavy: `autograder check` builds it too, on any platform."""
from __future__ import annotations

import argparse
from pathlib import Path

from autograder.config import ConfigError, load_rubric
from autograder.errors import UserError


def add_parser(sub) -> None:
    merge = sub.add_parser("merge", help="join the --out folders of `grade --shard I/N` runs into a class's files")
    merge.add_argument("shards", type=Path, nargs="+", metavar="SHARD_OUT", help="every shard's --out folder")
    merge.add_argument("--out", type=Path, required=True, help="where to write the class's gradebook, reports, "
                                                                "feedback and summary")
    merge.add_argument("--config", type=Path, help="the rubric the shards were graded with "
                                                   "(default: ./assignment.toml, else built-in)")
    merge.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from autograder.batch.merge import merge_shards  # the batch (and the runner) only when merging
    from autograder.cli.batch import print_class_summary

    try:
        rubric = load_rubric(args.config)
    except ConfigError as err:
        raise UserError(str(err)) from None
    result = merge_shards(args.shards, args.out, rubric=rubric)
    print(f"Merged {result.shards} shard(s): {len(result.rows)} submission(s).")
    print_class_summary(result, graded_now=None)
    return 1 if result.ungradable else 0
