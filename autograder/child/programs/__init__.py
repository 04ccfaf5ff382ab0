"""Case programs: plain functions over the exercise API (`api`), standard library only."""

# Observations about how the student's engine is built, not about what it computed: never
# part of a golden, never compared; the parent reads them to word its feedback.
# DIAGNOSTIC ones are for naming a mistake (autograder/diagnosis): the probes of an operation's
# closure called again (ops.probe), the order in which backward() called the kit's closures.
DIAGNOSTIC = frozenset({"probe", "closure_calls"})
# "deviation": the engine deviates from the exercise API (child/adapt.py), so no mistake is named on it.
ABOUT = frozenset({"composite", "deviation"}) | DIAGNOSTIC
