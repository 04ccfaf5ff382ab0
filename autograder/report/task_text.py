"""One task of a report as plain text: what the pytest route and Gradescope's results.json show."""
from __future__ import annotations

from autograder.report.grouping import same_problems
from autograder.report.numbers import show


def explain_task(task, *, visibility: str | None = None) -> str:
    """The task's score line, the likely mistake (when one is named), then each kind of failing case once: status, what the case does, the
    message, the got/expected lines, derivation and hint, what the code printed. visibility: only
    the cases of that visibility ("public"), else all."""
    lines = [f"{task.id}: {show(task.score)}/{show(task.max_score)} — {task.title}"]
    for d in task.diagnosis:
        lines.append(f"  {'mistake' if d.proven else 'likely mistake'}: {d.message}")
        lines += [f"  fix: {d.fix}"] if d.fix else []
    if task.status == "missing":
        return "\n".join(lines + [f"  {task.cases[0].message}"])
    for case, n in same_problems(c for c in task.cases if c.status != "passed"
                                 and (visibility is None or c.visibility == visibility)):
        label = case.title or case.id
        if n > 1:
            label = f"{n} cases" if not case.details else f"{label} (and {n - 1} more with the same result)"
        lines.append(f"  [{case.status}] {label}: {case.message}")
        lines += [f"      {line}" for line in case.details]
        if case.output:
            lines.append(printed("your code printed:", case.output, "      ").lstrip("\n"))
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
