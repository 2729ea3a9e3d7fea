#!/usr/bin/env bash
# Executes kgrag's notebooks headless with Debian's Python and Jupyter, in place (their outputs are committed).
#
#   notebooks/run-notebooks.sh                          build a small warehouse of real runs, then run every notebook
#   notebooks/run-notebooks.sh --warehouse <dir> [--output-dir <dir>] [notebook.ipynb ...]
#                                                       run them on your own warehouse (no build); with
#                                                       --output-dir the executed copies go there instead
#
# Without --warehouse it indexes the bundled FB15k-237 demo slice (data/demo/fb15k237: ingest, embed and SG-RAG's
# gnn, paths, path-index with the demo's small GNN settings), answers its 12 ERQA questions with sgrag, qafd and
# simgrag under one run id, runs kgrag eval, and points the notebooks at that warehouse (notebooks/target/warehouse,
# replaced on every run). It fails when a step or a notebook cell fails.
#
# The Python side needs /usr/bin/python3 with nbconvert, ipykernel, matplotlib, networkx and pandas: bin/setup-notebooks
# installs them (Debian's packages; .ci/run calls it). This script installs nothing; it says what is missing.
# Maven runs it in the notebooks module's integration-test phase under -Pintegration (skip: -Dkgrag.notebooks.skip=true;
# -DskipTests skips it too). Environment: KGRAG_NO_BUILD=1 (set by Maven: use the reactor's jars as they are),
# KGRAG_DRIVER_MEMORY (default here 3g), KGRAG_NOTEBOOKS_WORK (scratch folder, default notebooks/target).
set -euo pipefail

NB_DIR="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)"
KGRAG_HOME="$(cd "$NB_DIR/.." && pwd)"
KGRAG="$KGRAG_HOME/bin/kgrag"
PY=/usr/bin/python3
WORK="${KGRAG_NOTEBOOKS_WORK:-$NB_DIR/target}"
RUN_ID=notebooks
DEBS=(python3-nbconvert python3-ipykernel python3-matplotlib python3-networkx python3-pandas)

die() { echo "run-notebooks: error: $*" >&2; exit 1; }
step() { printf '%s run-notebooks: %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

WAREHOUSE=""
OUTPUT_DIR=""
NOTEBOOKS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --warehouse) WAREHOUSE="${2:?--warehouse needs a folder}"; shift 2 ;;
    --output-dir) OUTPUT_DIR="${2:?--output-dir needs a folder}"; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) die "unknown option $1 (see --help)" ;;
    *) NOTEBOOKS+=("$1"); shift ;;
  esac
done
if [ ${#NOTEBOOKS[@]} -eq 0 ]; then
  NOTEBOOKS=("$NB_DIR"/*.ipynb)
fi
for nb in "${NOTEBOOKS[@]}"; do [ -f "$nb" ] || die "no notebook $nb"; done

started=$SECONDS

export PYDEVD_DISABLE_FILE_VALIDATION=1 # ipykernel's debugger: no "frozen modules" warning on every kernel start

# --- Debian's Python with Jupyter (a pyenv or venv python3 earlier on PATH is not used) ---
python_ready() {
  [ -x "$PY" ] && "$PY" -c 'import nbconvert, nbclient, ipykernel, matplotlib, networkx, pandas' 2>/dev/null
}
if ! python_ready; then
  die "$PY cannot import nbconvert, nbclient, ipykernel, matplotlib, networkx and pandas: run bin/setup-notebooks
(it installs Debian's ${DEBS[*]}), or skip the notebooks with -Dkgrag.notebooks.skip=true"
fi
kernel="$("$PY" -c 'from jupyter_client.kernelspec import KernelSpecManager as M; print(M().get_kernel_spec("python3").argv[0])' 2>/dev/null)" \
  || die "no python3 Jupyter kernel for $PY (python3-ipykernel installs it)"
case "$kernel" in /usr/bin/python3*) ;; *) die "the python3 Jupyter kernel runs $kernel, not $PY" ;; esac

# --- a warehouse of real runs on the demo slice ---
kg() { # a kgrag command, timed; its output on stderr (Maven's log)
  local t=$SECONDS
  "$KGRAG" "$@" --conf-file "$WORK/notebooks.properties" >&2 || die "bin/kgrag $1 failed (exit $?): bin/kgrag $*"
  local what="$1" a
  for a in "$@"; do case "$a" in sgrag|qafd|simgrag|stem|srag) what="$1 --method $a" ;; esac; done
  step "bin/kgrag $what done in $((SECONDS - t)) s"
}
if [ -z "$WAREHOUSE" ]; then
  WAREHOUSE="$WORK/warehouse"
  DATA="$KGRAG_HOME/data/demo/fb15k237"
  [ -r "$DATA/triples.tsv" ] && [ -r "$DATA/questions.csv" ] || die "demo data missing in $DATA"
  mkdir -p "$WORK"
  rm -rf "$WAREHOUSE"
  # the local profile with the demo's small GNN training (bin/kgrag demo uses the same for these graphs)
  { cat "$KGRAG_HOME/conf/local.properties"; printf '\n# run-notebooks.sh: the demo GNN settings\n'
    printf 'spark.kgrag.gnn.epochs 8\nspark.kgrag.gnn.train-stars 400\n'; } > "$WORK/notebooks.properties"
  export KGRAG_DRIVER_MEMORY="${KGRAG_DRIVER_MEMORY:-3g}"
  step "building the warehouse $WAREHOUSE (FB15k-237 demo slice; sgrag, qafd, simgrag; run id $RUN_ID)"
  kg index --warehouse "$WAREHOUSE" --input "$DATA/triples.tsv" --names "$DATA/entity2name.tsv" --source demo-fb15k237 \
    --stages ingest,embed,gnn,paths,path-index --run-id "$RUN_ID"
  for method in sgrag qafd simgrag; do
    kg qa --warehouse "$WAREHOUSE" --method "$method" --questions "$DATA/questions.csv" --format csv --dataset erqa-demo \
      --partitions 2 --run-id "$RUN_ID"
  done
  kg eval --warehouse "$WAREHOUSE" --run-id "$RUN_ID"
fi
[ -d "$WAREHOUSE" ] || die "no warehouse at $WAREHOUSE"
WAREHOUSE="$(cd "$WAREHOUSE" && pwd)"

# --- execute the notebooks ---
export KGRAG_WAREHOUSE="$WAREHOUSE" KGRAG_HOME
[ -n "$OUTPUT_DIR" ] && mkdir -p "$OUTPUT_DIR"
for nb in "${NOTEBOOKS[@]}"; do
  t=$SECONDS
  if [ -n "$OUTPUT_DIR" ]; then
    where=(--output-dir "$OUTPUT_DIR")
  else
    where=(--inplace)
  fi
  # the kernel is the python3 kernelspec of Debian's Jupyter: /usr/bin/python3; cwd is the notebook's folder
  "$PY" -m nbconvert --to notebook --execute "${where[@]}" \
    --ExecutePreprocessor.kernel_name=python3 --ExecutePreprocessor.timeout=900 \
    --ExecutePreprocessor.record_timing=False "$nb" >&2 \
    || die "notebook $(basename "$nb") failed (the cell's error is above)"
  out="$nb"
  [ -n "$OUTPUT_DIR" ] && out="$OUTPUT_DIR/$(basename "$nb")"
  # every notebook must have drawn something and hold no error output
  "$PY" - "$out" <<'EOF' || die "notebook $(basename "$nb") ran but its outputs are not right"
import sys, nbformat
nb = nbformat.read(sys.argv[1], as_version=4)
outs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
errors = [o for o in outs if o.get("output_type") == "error"]
pngs = [o for o in outs if "image/png" in o.get("data", {})]
if errors or not pngs:
    sys.exit(f"{sys.argv[1]}: {len(errors)} error outputs, {len(pngs)} plots")
print(f"{sys.argv[1]}: {len(pngs)} plot(s)", file=sys.stderr)
EOF
  step "executed $(basename "$nb") in $((SECONDS - t)) s"
done
step "done in $((SECONDS - started)) s (warehouse $WAREHOUSE)"
