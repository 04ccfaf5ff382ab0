"""The "uid" level (level.py): its own root for the child (chroot.py) and a uid of its own (uids.py)."""
