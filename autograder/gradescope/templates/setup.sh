#!/usr/bin/env bash
# backprop-kit on Gradescope: runs once, as root, when Gradescope builds the autograder's image.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
SOURCE=/autograder/source
apt-get update -qq
apt-get install -y -qq python3 python3-venv python3-pip >/dev/null
# the strongest sandbox where the image allows it; without it student code runs chrooted as a uid of its own (the uid level)
apt-get install -y -qq bubblewrap >/dev/null || echo "bubblewrap could not be installed: the sandbox will be the uid level"
python3 -m venv /autograder/venv
/autograder/venv/bin/pip install --quiet --no-cache-dir -r "$SOURCE/requirements.txt"
# the grader's code and Python are readable by other users (the child's own copy of them is made from these); the secrets are not
chmod -R a+rX /autograder/venv "$SOURCE/kit"
chmod 0711 "$SOURCE"
chmod 0700 "$SOURCE/secret"
chmod -R u=rwX,go= "$SOURCE/secret"
chmod 0755 "$SOURCE/run_autograder"
