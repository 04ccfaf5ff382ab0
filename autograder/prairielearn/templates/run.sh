#!/usr/bin/env bash
# backprop-kit on PrairieLearn: the external grader's entrypoint. Grades /grade/student into
# /grade/results/results.json. AUTOGRADER_PRAIRIELEARN_ROOT and AUTOGRADER_PRAIRIELEARN_PYTHON (tests, a
# local dry run) move it elsewhere.
ROOT="${AUTOGRADER_PRAIRIELEARN_ROOT:-/grade}"
PYTHON="${AUTOGRADER_PRAIRIELEARN_PYTHON:-python3}"
KIT="$ROOT/serverFilesCourse/backprop_kit/kit"
RESULTS="$ROOT/results/results.json"
mkdir -p "$ROOT/results"
rm -f "$RESULTS"
# the kit readable by the sandboxed child's uid; the secrets in $ROOT/tests are not (run.py locks them up)
chmod -R a+rX "$KIT" 2>/dev/null
cd "$ROOT" || exit 0
"$PYTHON" -I -c 'import sys; sys.path.insert(0, sys.argv[1]); from autograder.prairielearn.run import main; sys.exit(main(sys.argv[2]))' "$KIT" "$ROOT"
if [ ! -s "$RESULTS" ]; then
  # the grader itself could not run (a broken image?): not gradable, so the attempt is not counted
  cat > "$RESULTS" <<'JSON'
{"gradable": false, "score": 0, "message": "The autograder could not run (an error of the grading setup, not of your code); it did not cost you an attempt.", "format_errors": ["The autograder could not run."], "tests": []}
JSON
fi
exit 0
