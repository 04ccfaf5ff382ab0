"""The bubblewrap level started through a zygote (level.py), and the zygote's bwrap and socket (zygote.py)."""
