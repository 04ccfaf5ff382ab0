"""Where the kit's own folders are, in a checkout of the kit."""
from pathlib import Path

KIT_ROOT = Path(__file__).resolve().parent.parent
SOLUTIONS = KIT_ROOT / "solutions"
EXERCISES = KIT_ROOT / "exercises"
