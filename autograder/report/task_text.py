"""One task of a report as plain text: what the pytest route and Gradescope's results.json show."""
from __future__ import annotations

from autograder.report.grouping import same_problems
from autograder.report.next_step import next_step
from autograder.report.numbers import show


def explain_task(task, *, visibility: str | None = None, report=None) -> str:
    """The task's score line; with the report, its next step (report/next_step.py) and the first failing case, the
    others counted and listed in one line each; without it, each kind of failing case once: status, what the case
    does, the message, the got/expected lines, derivation and hint, what the code printed. visibility: only the
    cases of that visibility ("public"), else all."""
    lines = [f"{task.id}: {show(task.score)}/{show(task.max_score)} — {task.title}"]
    step = next_step(task, report) if report is not None else None
    if step is not None:
        lines += [f"  {line}" for line in step.lines()]
    else:
        for d in task.diagnosis:
            lines.append(f"  {'mistake' if d.proven else 'likely mistake'}: {d.message}")
            lines += [f"  fix: {d.fix}"] if d.fix else []
    if task.status == "missing":
        return "\n".join(lines + [f"  {task.cases[0].message}"])
    problems = same_problems(c for c in task.cases if c.status != "passed"
                             and (visibility is None or c.visibility == visibility))
    shown = problems[:1] if step is not None else problems
    for case, n in shown:
        label = case.title or case.id
        if n > 1:
            label = f"{n} cases" if not case.details else f"{label} (and {n - 1} more with the same result)"
        lines.append(f"  [{case.status}] {label}: {case.message}")
        lines += [f"      {line}" for line in case.details]
        if case.output:
            lines.append(printed("your code printed:", case.output, "      ").lstrip("\n"))
    more = problems[len(shown):]
    if more:  # counted, each in a line, not repeated in full
        count = sum(n for _, n in more)
        lines.append(f"  {count} more failing case{'s' * (count != 1)}:")
        lines += [f"    [{case.status}] {case.title or case.id}: {case.message}" + (f" (x{n})" if n > 1 else "")
                  for case, n in more]
    return "\n".join(lines)


def printed(heading: str, output: str, indent: str) -> str:
    """What the student's code printed (already capped), as lines after a heading; "" for nothing."""
    if not output:
        return ""
    return "\n" + "\n".join([indent + heading] + [f"{indent}  | {line}" for line in output.split("\n")])


def variant_line(variant) -> str:
    """Whose variant a report graded, and what it varies: "alice's variant: sigmoid (c = 2.3407), relu hidden layers"."""
    who = f"{variant.student}'s variant" if variant.student else "the variant"
    return f"{who}: {variant.label}"
