"""`python -m skillgate.catalog [PATH ...]`: validate the shipped catalog plus PATHs."""

import sys

from skillgate.catalog.validate import validate_paths

problems = validate_paths(sys.argv[1:])
for line in problems:
    print(line, file=sys.stderr)
print(f"{len(problems)} problem(s)", file=sys.stderr)
sys.exit(1 if problems else 0)
