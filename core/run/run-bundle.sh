#!/usr/bin/env bash
# A Tilescope run bundle's runner. It times every module listed in
# modules.tsv beside it with IREE's iree-benchmark-module, the same way on
# whatever machine it runs (this one, a GPU host over SSH, a Slurm node),
# and profiles each kernel where Nsight Compute (ncu) or rocprofv3 is
# installed. Tilescope reads what it writes (`tilescope-cli import-results`,
# or the try that ran it); nothing here needs Tilescope, only bash, awk and
# the runtime tools (tools/ beside this file, or $TILESCOPE_TOOLS).
#
# Per module, in results/:
#   ID.probe.csv     one dispatch per submission, a few iterations: how long
#                    one dispatch takes, submission included
#   ID.batched.json  the timed run: N dispatches back to back in one
#                    submission (IREE's dispatch benchmark functions loop
#                    --batch_size times themselves), N chosen so one
#                    iteration lasts at least TILESCOPE_TARGET_US, after a
#                    warm-up; iree-benchmark-module divides by N
#   ID.single.json   one dispatch per submission, the same repetitions: the
#                    figure with submission and synchronisation included
#   ID.ncu.csv       Nsight Compute's reading of a few launches, and
#   ID.source.csv    its source page: per SASS instruction of one launch,
#                    stall samples, executions, wavefronts, sectors (its
#                    report, ID.source.ncu-rep, kept only where printing
#                    it failed); or
#   ID.rocprof/      rocprofv3's kernel trace (and counters) of a few launches
#   ID.done          how it went (JSON), written last
# and results/results.json, the index of every module's .done.
#
# Settings (environment):
#   TILESCOPE_DEVICE       a device URI for modules of its driver (cuda://1)
#   TILESCOPE_REPETITIONS  repetitions of the timed runs (5)
#   TILESCOPE_TARGET_US    shortest iteration of the timed run, us (20000:
#                          an iteration carries 100-200 us of submission and
#                          synchronisation, which 20 ms shares out to < 1 %)
#   TILESCOPE_WARMUP_S     warm-up before each timed run, s (0.1)
#   TILESCOPE_PROFILE      off | auto (when a profiler is installed) | on (auto)
#   TILESCOPE_TIMEOUT_S    limit on each tool run, s (300)
#   TILESCOPE_ONLY         time only this module id
#   TILESCOPE_FORCE        1: time again modules that have results
#   TILESCOPE_RESULTS      where results go (results/ beside this file)
set -u
export LC_ALL=C

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tools=${TILESCOPE_TOOLS:-$here/tools}
results=${TILESCOPE_RESULTS:-$here/results}
repetitions=${TILESCOPE_REPETITIONS:-5}
target_us=${TILESCOPE_TARGET_US:-20000}
warmup_s=${TILESCOPE_WARMUP_S:-0.1}
profile=${TILESCOPE_PROFILE:-auto}
timeout_s=${TILESCOPE_TIMEOUT_S:-300}
only=${TILESCOPE_ONLY:-}
force=${TILESCOPE_FORCE:-0}
max_batch=4096

say() { printf 'tilescope-run: %s\n' "$*"; }

bm=$tools/iree-benchmark-module
if [ ! -x "$bm" ]; then
  say "no iree-benchmark-module in $tools (set TILESCOPE_TOOLS to the IREE runtime tools)" >&2
  exit 3
fi
if [ ! -f "$here/modules.tsv" ]; then
  say "no modules.tsv beside run.sh: not a run bundle" >&2
  exit 4
fi
mkdir -p "$results" || exit 4

# A JSON string of $1 (quotes, backslashes and control characters escaped).
json_string() {
  printf '%s' "$1" | awk 'BEGIN { ORS = ""; print "\"" }
    { gsub(/\\/, "\\\\"); gsub(/"/, "\\\""); gsub(/\t/, "\\t"); gsub(/\r/, "");
      if (NR > 1) print "\\n"; print }
    END { print "\"" }'
}

# The last lines a tool printed, on one line (what a failure is told by).
last_words() { tail -n 4 "$1" 2>/dev/null | tr -s '\n\t' '  ' | cut -c1-500; }

# Runs a command under the time limit, with coreutils' timeout where it
# exists. In the background, waited for: a TERM, INT or HUP to run.sh (a
# Tilescope that asked for the run stopping or dying) stops it at once
# rather than after it ends.
child=""
stop_child() {
  [ -z "$child" ] || kill -TERM "$child" 2>/dev/null
  exit 143
}
trap stop_child TERM INT HUP
limited() {
  if command -v timeout >/dev/null 2>&1; then
    timeout --kill-after=10 "$timeout_s" "$@" &
  else
    "$@" &
  fi
  child=$!
  local code=0
  wait "$child" || code=$?
  child=""
  return $code
}

# The smallest per-item real time (us) among a google benchmark CSV's rows
# whose name ends in $2 ("_median"), or among its plain rows when $2 is empty.
csv_us() {
  awk -F, -v suffix="${2:-}" '
    $1 == "name" { next }
    {
      name = $1; gsub(/"/, "", name)
      if (suffix != "") {
        if (length(name) < length(suffix) ||
            substr(name, length(name) - length(suffix) + 1) != suffix) next
      } else if (name ~ /_(mean|median|stddev|cv)$/) next
      t = $3 + 0; unit = $5
      if (unit == "ns") t /= 1000; else if (unit == "ms") t *= 1000; else if (unit == "s") t *= 1000000
      if (t > 0 && (best == "" || t < best)) best = t
    }
    END { if (best != "") printf "%.6f\n", best }' "$1" 2>/dev/null
}

# How many dispatches one iteration needs to last $1 us at $2 us each.
batch_for() {
  awk -v t="$1" -v p="$2" -v most="$max_batch" 'BEGIN {
    if (p <= 0) { print 1; exit }
    n = int(t / p); if (n * p < t) n++
    if (n < 1) n = 1; if (n > most) n = most
    print n }'
}

# The timed run of the current module: $1 dispatches per submission, written
# to $2.json (and $2.csv, $2.log).
timed_run() {
  limited "$bm" "${common[@]}" --batch_size="$1" --benchmark_repetitions="$repetitions" \
    --benchmark_min_warmup_time="$warmup_s" --benchmark_min_time=0.1s \
    --benchmark_format=csv --benchmark_out="$2.json" --benchmark_out_format=json \
    >"$2.csv" 2>"$2.log" </dev/null
}

find_profiler() { command -v "$1" 2>/dev/null || { [ -x "$2" ] && printf '%s\n' "$2"; }; }
ncu=$(find_profiler ncu /usr/local/cuda/bin/ncu)
rocprof=$(find_profiler rocprofv3 /opt/rocm/bin/rocprofv3)
ncu_metrics=gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,sm__maximum_warps_per_active_cycle_pct,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__registers_per_thread,launch__shared_mem_per_block_static,launch__shared_mem_per_block_dynamic,launch__block_size,launch__grid_size

if [ -x "$tools/iree-run-module" ]; then
  "$tools/iree-run-module" --list_devices >"$results/devices.txt" 2>&1 </dev/null || true
fi

started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
ran=0
failed=0
while IFS=$'\t' read -r -u 3 id module driver kind || [ -n "${id:-}" ]; do
  case "$id" in '' | '#'*) continue ;; esac
  if [ -n "$only" ] && [ "$only" != "$id" ]; then continue; fi
  out=$results/$id
  if [ "$force" != 1 ] && [ -f "$out.done" ]; then
    say "$id: timed before (results/$id.done); TILESCOPE_FORCE=1 times it again"
    continue
  fi
  rm -rf "$out".*
  case "$module" in /*) path=$module ;; *) path=$here/$module ;; esac
  device=$driver
  if [ -n "${TILESCOPE_DEVICE:-}" ] && [ "${TILESCOPE_DEVICE%%:*}" = "$driver" ]; then
    device=$TILESCOPE_DEVICE
  fi
  common=(--module="$path" --device="$device")
  status=ok
  why=""
  batch=1
  profiled=""
  profile_why=""
  counters_why=""

  say "$id: probing one dispatch per submission on $device"
  limited "$bm" "${common[@]}" --batch_size=1 --benchmark_min_time=0.05s \
    --benchmark_format=csv >"$out.probe.csv" 2>"$out.probe.log" </dev/null
  code=$?
  probe_us=$(csv_us "$out.probe.csv")
  if [ $code -ne 0 ] || [ -z "$probe_us" ]; then
    status=failed
    why="iree-benchmark-module exited with $code on the probe: $(last_words "$out.probe.log")"
  fi

  if [ "$status" = ok ]; then
    if [ "$kind" = dispatch ]; then batch=$(batch_for "$target_us" "$probe_us"); fi
    say "$id: timing $batch dispatch(es) per submission, $repetitions repetitions"
    timed_run "$batch" "$out.batched"
    code=$?
    median_us=$(csv_us "$out.batched.csv" _median)
    [ -n "$median_us" ] || median_us=$(csv_us "$out.batched.csv")
    # The probe counts submission too: where back-to-back dispatches are much
    # shorter, the iteration fell short of the target; time again with more.
    if [ $code -eq 0 ] && [ "$kind" = dispatch ] && [ -n "$median_us" ]; then
      again=$(batch_for "$target_us" "$median_us")
      if [ "$again" -gt $((batch * 3 / 2)) ]; then
        say "$id: $batch back to back lasted under the target; timing $again"
        batch=$again
        timed_run "$batch" "$out.batched"
        code=$?
      fi
    fi
    if [ $code -ne 0 ]; then
      status=failed
      why="iree-benchmark-module exited with $code timing batch $batch: $(last_words "$out.batched.log")"
    elif [ "$batch" -gt 1 ]; then
      say "$id: timing one dispatch per submission"
      timed_run 1 "$out.single"
      code=$?
      [ $code -eq 0 ] || why="one dispatch per submission: iree-benchmark-module exited with $code"
    fi
  fi

  if [ "$status" = ok ] && [ "$profile" != off ]; then
    one=(--batch_size=1 --benchmark_min_time=8x)
    if [ "$driver" = cuda ] && [ -n "$ncu" ]; then
      say "$id: profiling with $ncu"
      limited "$ncu" --csv --page raw --print-units base --clock-control none \
        --metrics "$ncu_metrics" --launch-skip 2 --launch-count 5 \
        "$bm" "${common[@]}" "${one[@]}" >"$out.ncu.csv" 2>"$out.ncu.log" </dev/null
      code=$?
      profiled=ncu
      [ $code -eq 0 ] || profile_why="ncu exited with $code: $(last_words "$out.ncu.log")"
      if [ $code -eq 0 ]; then
        # Per SASS instruction: stall samples and their reasons, executions,
        # shared-memory wavefronts and global sectors of one launch.
        say "$id: source counters with $ncu"
        limited "$ncu" --section SourceCounters --clock-control none \
          --launch-skip 2 --launch-count 1 -f -o "$out.source" \
          "$bm" "${common[@]}" "${one[@]}" >"$out.source.log" 2>&1 </dev/null
        code=$?
        if [ $code -eq 0 ]; then
          limited "$ncu" --import "$out.source.ncu-rep" --page source \
            --print-source sass --csv >"$out.source.csv.partial" 2>>"$out.source.log" </dev/null
          code=$?
        fi
        # The page is what comes back; the report (megabytes) stays only
        # where printing it failed, to be looked into.
        if [ $code -eq 0 ]; then
          mv "$out.source.csv.partial" "$out.source.csv"
          rm -f "$out.source.ncu-rep"
        else
          rm -f "$out.source.csv.partial"
          counters_why="ncu's source counters exited with $code: $(last_words "$out.source.log")"
        fi
      fi
    elif [ "$driver" = hip ] && [ -n "$rocprof" ]; then
      say "$id: profiling with $rocprof"
      limited "$rocprof" --kernel-trace --output-format csv -d "$out.rocprof" -o trace -- \
        "$bm" "${common[@]}" "${one[@]}" >"$out.rocprof.log" 2>&1 </dev/null
      code=$?
      limited "$rocprof" --pmc FETCH_SIZE WRITE_SIZE MeanOccupancyPerActiveCU --output-format csv \
        -d "$out.rocprof" -o counters -- "$bm" "${common[@]}" "${one[@]}" \
        >>"$out.rocprof.log" 2>&1 </dev/null || true
      profiled=rocprofv3
      [ $code -eq 0 ] || profile_why="rocprofv3 exited with $code: $(last_words "$out.rocprof.log")"
    elif [ "$profile" = on ]; then
      profile_why="no profiler for $driver here (ncu for cuda, rocprofv3 for hip)"
    fi
  fi

  if [ "$status" = ok ]; then ran=$((ran + 1)); else failed=$((failed + 1)); fi
  {
    printf '{"id": %s, "status": %s, "device": %s, "kind": %s, "batch": %s' \
      "$(json_string "$id")" "$(json_string "$status")" "$(json_string "$device")" \
      "$(json_string "$kind")" "$batch"
    printf ', "target_us": %s, "repetitions": %s, "probe_us": %s' \
      "$target_us" "$repetitions" "${probe_us:-null}"
    printf ', "why": %s, "profiler": %s, "profile_why": %s, "counters_why": %s' \
      "$(json_string "$why")" "$(json_string "$profiled")" "$(json_string "$profile_why")" \
      "$(json_string "$counters_why")"
    printf ', "finished": %s}\n' "$(json_string "$(date -u +%Y-%m-%dT%H:%M:%SZ)")"
  } >"$out.done.partial" && mv "$out.done.partial" "$out.done"
  say "$id: $status${why:+ ($why)}"
done 3<"$here/modules.tsv"

{
  printf '{"format": "tilescope-run-results/1", "host": %s, "started": %s, "finished": %s, "modules": [' \
    "$(json_string "$(uname -n)")" "$(json_string "$started")" \
    "$(json_string "$(date -u +%Y-%m-%dT%H:%M:%SZ)")"
  first=1
  for done_file in "$results"/*.done; do
    [ -f "$done_file" ] || continue
    [ $first -eq 1 ] || printf ','
    first=0
    printf '\n  %s' "$(cat "$done_file")"
  done
  printf '\n]}\n'
} >"$results/results.json.partial" && mv "$results/results.json.partial" "$results/results.json"

say "done: $ran timed, $failed failed; results in $results"
[ $failed -eq 0 ]
