"""`autograder lms push OUT --lti PLATFORM.toml [--dry-run]`: the scores straight into the LMS by LTI 1.3
AGS; `autograder lms jwk PLATFORM.toml`: the tool's public key to register there."""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from autograder.errors import ExitCode
from autograder.lms.graded import LmsError, on_the_roster, read_graded
from autograder.lms.grades import check_late_penalty, late_and_ungraded
from autograder.report.numbers import show

EXTRA = "autograder lms push needs the LTI library: pip install 'backprop-kit[lti]'"


def add_parsers(which) -> None:
    push = which.add_parser("push", help="post the scores to the LMS's gradebook by LTI 1.3 (AGS, NRPS)")
    push.add_argument("out", type=Path, help="the folder `autograder grade ... --out` wrote")
    push.add_argument("--lti", type=Path, metavar="PLATFORM.toml",
                      help="the platform's registration and the tool's key (see the README); a --dry-run works "
                           "without it, from what the kit last sent")
    push.add_argument("--dry-run", action="store_true",
                      help="show what would be sent; send and record nothing (offline, from OUT/lti-sent.json, "
                           "without --lti or when the platform does not answer)")
    push.add_argument("--late-penalty", type=float, default=0.0, metavar="PERCENT",
                      help="take PERCENT off the grade of a submission the LMS marked late (default: 0, flagged only)")
    push.set_defaults(run=run_push)
    jwk = which.add_parser("jwk", help="print the tool's public key (JWK) to register in the LMS")
    jwk.add_argument("lti", type=Path, metavar="PLATFORM.toml")
    jwk.set_defaults(run=run_jwk)


def _lti():
    try:
        from autograder.lms.lti import config, push, service
    except ImportError as err:
        raise LmsError(f"{EXTRA} ({err})") from None
    return config, push, service


def run_jwk(args: argparse.Namespace) -> int:
    config, _, service = _lti()
    platform = config.load_platform(args.lti)
    print(json.dumps(service.public_jwk(platform.private_key, platform.key_id), indent=1))
    return ExitCode.OK


def run_push(args: argparse.Namespace) -> int:
    check_late_penalty(args.late_penalty)
    config, push, service = _lti()
    graded, left_out = on_the_roster(read_graded(args.out))
    if args.lti is None:
        if not args.dry_run:
            raise LmsError("lms push needs --lti PLATFORM.toml to send (a --dry-run works without it, from what "
                           "the kit last sent)")
        return _offline(args, graded, left_out, tag=None, why="no --lti given")
    platform = config.load_platform(args.lti)
    try:
        result = push.push(args.out, platform, graded, late_penalty=args.late_penalty, dry_run=args.dry_run)
    except service.Refused as refusal:
        if args.dry_run and refusal.status == 0:
            return _offline(args, graded, left_out, tag=platform.tag, why=refusal.line)
        print(refusal.line)
        print(f"nothing was sent; the next push sends all {len(graded)} scores")
        return ExitCode.FAILED
    verb = "would be sent" if args.dry_run else "sent"
    item = (f"line item {result.lineitem}{' (created)' if result.created else ''}" if result.lineitem
            else f"a new line item tagged {platform.tag!r} would be created")
    print(f"{'Dry run, nothing sent: ' if args.dry_run else ''}{item}; scores out of {show(result.score_maximum)}")
    for g in result.sent:
        body = result.bodies[g.student]
        print(f"{'would send' if args.dry_run else 'sent'}: {g.student}: {show(body['scoreGiven'])}/{show(body['scoreMaximum'])}"
              + (f" — {body['comment']}" if args.dry_run else ""))
    print(f"{len(result.sent)} {verb}, {len(result.unchanged)} unchanged since the last push (not sent again)")
    for line in late_and_ungraded(result.sent, args.late_penalty) + left_out:
        print(line)
    for g, why in result.unmatched:
        print(f"not sent: {g.student}: {why}")
    for g, why in result.refused:
        print(f"not sent: {why}")
    if result.stopped:
        print(result.stopped)
        print(f"stopped: {len(result.not_sent)} not sent ({', '.join(g.student for g in result.not_sent)}); "
              "the next push sends them")
    failed = result.unmatched or result.refused or result.stopped
    return ExitCode.FAILED if failed else ExitCode.OK


def _offline(args: argparse.Namespace, graded, left_out: list[str], *, tag: str | None, why: str) -> int:
    """A dry run from OUT/lti-sent.json alone: new, changed, unchanged."""
    from autograder.lms.lti.offline import dry_run

    result = dry_run(args.out, graded, tag=tag, late_penalty=args.late_penalty)
    print(f"Dry run, nothing sent, from what the kit last sent ({args.out / 'lti-sent.json'}; {why}):")
    for g, last, now in result.changed:
        print(f"would send: {g.student}: {show(now['scoreGiven'])}/{show(now['scoreMaximum'])} "
              f"(sent before: {show(last['scoreGiven'])}/{show(last['scoreMaximum'])})")
    for g in result.new:
        print(f"new: {g.student}: {show(g.score)}/{show(g.max_score)} on the kit's scale (never sent: which member "
              "of the course it is needs the platform's member list)")
    print(f"{len(result.changed)} changed, {len(result.new)} new (can't be mapped without the platform), "
          f"{len(result.unchanged)} unchanged since the last push")
    for line in late_and_ungraded([g for g, *_ in result.changed] + result.new, args.late_penalty) + left_out:
        print(line)
    return ExitCode.OK
