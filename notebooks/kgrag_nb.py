"""Helpers shared by kgrag's notebooks: read a warehouse through `bin/kgrag sql --format json`.

Every query goes through kgrag's own read-only SQL command, so the notebooks need no Spark or Delta on the
Python side. Several statements run in one call (one JVM): they are sent on standard input, and the JSON
lines on standard output are split per statement by the row counts `kgrag sql` prints on standard error.

Environment:
  KGRAG_WAREHOUSE  the warehouse to read (default: warehouse/demo/fb15k237 of the kgrag checkout, which
                   `bin/kgrag demo` writes); relative paths are taken from the kgrag checkout
  KGRAG_RUN_ID     the run to show (default: the run evaluated last, from kgrag.metrics)
  KGRAG_HOME       the kgrag checkout (default: the parent of this folder)
"""

import json
import os
import re
import subprocess
import unicodedata

import pandas as pd

HOME = os.path.abspath(os.environ.get("KGRAG_HOME") or os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
KGRAG = os.path.join(HOME, "bin", "kgrag")

_ROWS = re.compile(r"^\(([\d,]+) rows?(;[^)]*)?\)$")
_FAILED = re.compile(r"^kgrag sql: (refused|the SQL does not run): (.*)$")


def warehouse():
    """The warehouse the notebooks read (absolute path)."""
    wh = os.environ.get("KGRAG_WAREHOUSE") or "warehouse/demo/fb15k237"
    if "://" not in wh and not os.path.isabs(wh):
        wh = os.path.join(HOME, wh)
    if "://" not in wh and not os.path.isdir(wh):
        raise FileNotFoundError(
            f"no kgrag warehouse at {wh}: set KGRAG_WAREHOUSE to one (bin/kgrag demo writes warehouse/demo/fb15k237, "
            "notebooks/run-notebooks.sh builds one under notebooks/target/warehouse)")
    return wh


def sql(*statements, timeout=900):
    """Runs read-only Spark SQL statements over the warehouse in one `kgrag sql` call.

    Returns one pandas DataFrame per statement (a single DataFrame for a single statement). Raises
    RuntimeError naming the statement when kgrag refuses or cannot run one, or when the call fails.
    """
    if not statements:
        raise ValueError("no statement given")
    text = []
    for s in statements:
        s = s.strip().rstrip(";").strip()
        if any(line.rstrip().endswith(";") for line in s.splitlines()):
            raise ValueError("a statement line may not end with ';' (kgrag sql ends statements there): " + s[:200])
        text.append(s + ";\n")
    wh = warehouse()
    proc = subprocess.run(
        [KGRAG, "sql", "--warehouse", wh, "--format", "json", "--limit", "0"],
        input="".join(text), capture_output=True, text=True, timeout=timeout, cwd=HOME)
    results = []  # per statement: a row count, or an error message
    for line in proc.stderr.splitlines():
        m = _ROWS.match(line.strip())
        if m:
            results.append(int(m.group(1).replace(",", "")))
            continue
        m = _FAILED.match(line.strip())
        if m:
            results.append(f"{m.group(1)}: {m.group(2)}")
    tail = "\n".join(proc.stderr.strip().splitlines()[-15:])
    if len(results) != len(statements):
        raise RuntimeError(
            f"bin/kgrag sql (exit {proc.returncode}) answered {len(results)} of {len(statements)} statements "
            f"on {wh}; its standard error ends with:\n{tail}")
    rows = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    frames, at = [], 0
    for i, (statement, r) in enumerate(zip(statements, results)):
        if isinstance(r, str):
            raise RuntimeError(f"kgrag sql, statement {i + 1}: {r}\n  {statement.strip()}")
        frames.append(pd.DataFrame.from_records([json.loads(x) for x in rows[at:at + r]]))
        at += r
    if at != len(rows):
        raise RuntimeError(f"bin/kgrag sql printed {len(rows)} JSON rows but counted {at}")
    if proc.returncode != 0:
        raise RuntimeError(f"bin/kgrag sql exited {proc.returncode}:\n{tail}")
    return frames[0] if len(frames) == 1 else frames


def quoted(s):
    """A Spark SQL string literal."""
    return "'" + str(s).replace("\\", "\\\\").replace("'", "\\'") + "'"


def run_filter():
    """SQL for the run to show: KGRAG_RUN_ID, else the run whose metrics were computed last."""
    run = os.environ.get("KGRAG_RUN_ID")
    if run:
        return quoted(run)
    return "(SELECT max_by(run_id, computed_at) FROM kgrag.metrics)"


# --- grading, as kgrag's AnswerMatch and Labels.normalize do it (used to cross-check kgrag.metrics) ---

TIE_TOLERANCE = 1e-9


def normalize(label):
    """Accents stripped, case folded, every run of characters other than letters and digits one space."""
    if label is None:
        return ""
    s = "".join(c for c in unicodedata.normalize("NFKD", label) if not unicodedata.category(c).startswith("M"))
    s = "".join(c if unicodedata.category(c)[0] in "LN" else " " for c in s.lower())
    return re.sub(" +", " ", s).strip()


def grade(gold, status, ranked):
    """(graded, hit1, precision, recall, f1) of one answer, as kgrag eval grades it."""
    g = []
    for x in gold or []:
        n = normalize(x)
        if n and n not in g:
            g.append(n)
    if status == "invalid_input" or not g:
        return (False, False, 0.0, 0.0, 0.0)
    ranked = list(ranked or [])
    if status in ("unable", "error") or not ranked:
        return (True, False, 0.0, 0.0, 0.0)
    top = ranked[0].get("score")
    p = []
    for r in ranked:
        s = r.get("score")
        tied = (s is None and top is None) or (
            s is not None and top is not None and abs(s - top) <= TIE_TOLERANCE * max(1.0, abs(top)))
        n = normalize(r.get("answer"))
        if tied and n not in p:
            p.append(n)
    hit1 = normalize(ranked[0].get("answer")) in g
    correct = sum(1 for a in p if a in g)
    precision = correct / len(p) if p else 0.0
    recall = correct / len(g)
    f1 = 0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)
    return (True, hit1, precision, recall, f1)


def nearest_rank(values, p):
    """The p-th nearest-rank percentile: the ceil(p/100 * N)-th smallest value (1-based)."""
    v = sorted(values)
    if not v:
        return float("nan")
    k = max(1, -(-p * len(v) // 100))
    return v[int(k) - 1]


def short_relation(rel):
    """A readable relation name: the last segment of a Freebase path ('/film/film/country' -> 'country')."""
    parts = [p for p in re.split(r"[/.]", rel or "") if p]
    return parts[-1] if parts else (rel or "")


def shown(path):
    """A path as the notebooks print it: relative to the kgrag checkout when inside it."""
    if "://" in path:
        return path
    rel = os.path.relpath(path, HOME)
    return path if rel.startswith("..") else rel
