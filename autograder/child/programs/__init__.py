"""Case programs: plain functions over the exercise API (`api`), standard library only."""

# Observations about how the student's engine is built, not about what it computed: never
# part of a golden, never compared; the parent reads them to word its feedback.
ABOUT = frozenset({"composite"})
