"""Derive the compact BFCL fixture (tests/skillgate/discovery/bfcl/) from the bfcl-eval wheel.

The Berkeley Function Calling Leaderboard's v4 `live_multiple` category (Apache 2.0, see
the fixture's README) ships inside the `bfcl-eval` wheel on PyPI:

    pip download --no-deps bfcl-eval==2026.3.23 -d /tmp/bfcl
    .venv/bin/python bench/bfcl_fixture.py /tmp/bfcl/bfcl_eval-2026.3.23-py3-none-any.whl

writes tests/skillgate/discovery/bfcl/live_multiple.json: every distinct function of the
category (name, description, parameter names; a name BFCL describes in several ways is
kept once per description) and every question (the user's words, the expected function's
name). Nothing else of the wheel is kept.
"""

from __future__ import annotations

import json
import sys
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "skillgate" / "discovery" / "bfcl" / "live_multiple.json"
QUESTIONS = "bfcl_eval/data/BFCL_v4_live_multiple.json"
ANSWERS = "bfcl_eval/data/possible_answer/BFCL_v4_live_multiple.json"


def _lines(wheel: zipfile.ZipFile, name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in wheel.read(name).decode().splitlines() if line]


def derive(wheel_path: Path) -> dict[str, Any]:
    with zipfile.ZipFile(wheel_path) as wheel:
        questions = _lines(wheel, QUESTIONS)
        answers = {a["id"]: a for a in _lines(wheel, ANSWERS)}
    functions: dict[tuple[str, str], list[str]] = {}
    asked: list[list[str]] = []
    for q in questions:
        for f in q["function"]:
            params = sorted(f["parameters"].get("properties", {}))
            functions.setdefault((f["name"], f["description"]), params)
        turns = q["question"][0]
        text = " ".join(m["content"] for m in turns if m["role"] == "user")
        (expected,) = answers[q["id"]]["ground_truth"]
        asked.append([text, next(iter(expected))])
    return {
        "source": f"bfcl-eval 2026.3.23 (PyPI), {QUESTIONS} and {ANSWERS}",
        "license": "Apache-2.0",
        "functions": [[n, d, p] for (n, d), p in functions.items()],
        "questions": asked,
    }


if __name__ == "__main__":
    data = derive(Path(sys.argv[1]))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    # One function or question a line: a compact file whose diffs read line by line.
    head = {k: v for k, v in data.items() if k in ("source", "license")}
    parts = [json.dumps(head, ensure_ascii=False)[:-1]]
    for key in ("functions", "questions"):
        rows = ",\n".join(json.dumps(r, ensure_ascii=False) for r in data[key])
        parts.append(f'"{key}": [\n{rows}\n]')
    OUT.write_text(",\n".join(parts) + "}\n", encoding="utf-8")
    print(f"{OUT}: {len(data['functions'])} functions, {len(data['questions'])} questions")
