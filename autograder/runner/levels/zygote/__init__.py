"""The bubblewrap level started through a zygote (level.py), the zygote's bwrap and socket (zygote.py), and its
staging folders (staging.py)."""
