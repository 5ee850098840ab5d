#!/usr/bin/env bash
# A sweep on a Slurm cluster whose GPU node is elsewhere, end to end with
# the real parts: compiling as its own array on a CPU partition, the runs as
# the GPU partition's array waiting for it, the run tasks on a real GPU.
#
#   scripts/gpu-slurm-check.sh prepare [DIR]   here (the compiler): start the
#       tests' single-node Slurm (tests/remote/services.py, a "GPU"
#       partition and a CPU one), send `sweep FILE --on slurm:tilescope
#       --compile-on slurm:tilescope-cpu` with the run array held, wait for
#       the compile array's tasks to compile every candidate, stop the
#       sweep (its tasks stay: resuming is the point), and pack what the run
#       tasks read (their scripts and task lists, the shared runtime tools,
#       each try's bundle, module and compile status) at their paths into
#       DIR/payload.tar (DIR: build-gpu-slurm); the cluster keeps running
#   DIR/... run                                there (the GPU, no compiler,
#       no Slurm): unpack at the same paths and run each task of the run
#       array as Slurm would (its script, SLURM_ARRAY_TASK_ID set); the
#       results and the tasks' logs go to $OUT/results.tar
#   scripts/gpu-slurm-check.sh report [DIR]    here again, results.tar in
#       DIR: unpack, cancel the held run array, and run the same sweep
#       again: it takes each candidate's compile from its compile task's
#       status and its time from the GPU's results, resubmitting nothing;
#       then the cluster stops
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CLI="${BUILD_DIR:-$ROOT/build}/app/tilescope-cli"
step="${1:-}"
DIR="$(realpath -m "${2:-$ROOT/build-gpu-slurm}")"
# Outside the project: the GPU machine unpacks at these paths.
WORK=/tmp/tilescope-gpu-slurm
WS="$WORK/ws"
FILE="$ROOT/examples/cuda_sm_90/matmul_f16_1024_dispatch_0.benchmark.mlir"
SWEEP=(sweep "$FILE" --op 0:0 --nearest "${NEAREST:-12}" --name "gpu-slurm-check"
  --on slurm:tilescope --compile-on slurm:tilescope-cpu --workspace "$WS")

# The cluster's environment (SLURM_CONF), as local_cluster.py printed it.
cluster_env() { export "$(grep '^SLURM_CONF=' "$WORK/cluster.out")"; }

case "$step" in
prepare)
  rm -rf "$WORK" "$DIR" && mkdir -p "$WORK/cluster" "$DIR"
  # The cluster, kept up until its stdin (a fifo held open below) closes.
  mkfifo "$WORK/cluster.in"
  (cd "$ROOT/tests/remote" && setsid python3 local_cluster.py "$WORK/cluster" \
    <"$WORK/cluster.in" >"$WORK/cluster.out" 2>&1 &)
  exec 9>"$WORK/cluster.in"
  for _ in $(seq 300); do grep -q '^PARTITION=' "$WORK/cluster.out" 2>/dev/null && break; sleep 0.2; done
  grep -q '^PARTITION=' "$WORK/cluster.out" || { cat "$WORK/cluster.out"; exit 1; }
  cluster_env
  # The run array held (and no GPU asked of a node that has none); the
  # compile array as it would go.
  TILESCOPE_SBATCH_OPTIONS="--hold --gres=none" TILESCOPE_SBATCH_COMPILE_OPTIONS=" " \
    setsid "$CLI" "${SWEEP[@]}" >"$WORK/sweep-1.out" 2>&1 </dev/null &
  sweep=$!
  # Compiled: the compile array has left the queue, the run array waits.
  for _ in $(seq 1800); do
    if [ -n "$(squeue --noheader --name=tilescope 2>/dev/null)" ] &&
      [ -z "$(squeue --noheader --name=tilescope-compile 2>/dev/null)" ]; then break; fi
    sleep 1
  done
  sleep 3
  kill -KILL "$sweep" 2>/dev/null || true
  folder=$(ls -d "$WS"/slurm/sweep-*)
  tsv="$folder/submit-1.tsv"
  echo "compiled $(wc -l <"$tsv") candidates; statuses:" \
    "$(cut -f3 "$tsv" | while read -r f; do cut -d' ' -f1 "$f/compile.status"; done | sort | uniq -c | tr '\n' ' ')"
  {
    echo "$folder" "$WS"/slurm/iree-runtime-*
    cut -f2,3 "$tsv" | while IFS=$'\t' read -r bundle try; do
      echo "$bundle" "$try/compile.status" "$try/module.vmfb"
    done
  } | tr ' ' '\n' | tar -C / -cf "$DIR/payload.tar" -T - --transform 's,^/,,'
  cp "$0" "$DIR/gpu-slurm-check.sh"
  echo "$folder" >"$DIR/folder"
  ls -la "$DIR"
  # Keep the cluster (its stdin open) for `report`, which stops it.
  sleep 7200 >&9 2>/dev/null </dev/null &
  echo $! >"$WORK/holder.pid"
  ;;
run)
  tar -C / -xf "$DIR/payload.tar"
  folder=$(cat "$DIR/folder")
  nvidia-smi -L || true
  tasks=$(cut -f1 "$folder/submit-1.tsv" | sort -un)
  for t in $tasks; do
    SLURM_ARRAY_TASK_ID=$t bash "$folder/submit-1.sh" >"$folder/logs/gpu-task-$t.log" 2>&1 ||
      echo "task $t exited $?"
    tail -n 2 "$folder/logs/gpu-task-$t.log"
  done
  { echo "$folder/logs"; cut -f2 "$folder/submit-1.tsv" | sed 's,$,/results,'; } |
    tar -C / -cf "${OUT:-$DIR}/results.tar" -T - --transform 's,^/,,'
  ;;
report)
  cluster_env
  tar -C / -xf "$DIR/results.tar"
  for job in $(squeue --noheader --name=tilescope --format=%F | sort -u); do scancel "$job"; done
  "$CLI" "${SWEEP[@]}"
  kill "$(cat "$WORK/holder.pid")" # the cluster stops
  ;;
*)
  sed -n '2,24p' "$0"
  exit 2
  ;;
esac
