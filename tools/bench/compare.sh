#!/usr/bin/env bash
# Issue 4 benchmark: replays the same TI traces with augur and with SimGrid's `smpirun -replay`
# on the equivalent platform, measures both with augur_run_time (CPU, wall time and peak RSS to the
# microsecond, as /usr/bin/time -v reports them in 10 ms steps) and prints one Markdown table
# (actions, CPU seconds, actions/s, peak RSS, CPU ratio, predicted times), then which targets of
# issue 4 the run meets, each with the peer's figure from the same run. See README.md.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"

usage() {
  cat <<EOF
usage: tools/bench/compare.sh [AUGUR] [options]
  AUGUR                 the augur binary of a Release build (default: $repo/build/optimised/tools/augur)
  --gen PATH            augur_ti_gen (default: <AUGUR's folder>/bench/augur_ti_gen)
  --run-time PATH       augur_run_time, which measures every run (default: beside augur_ti_gen)
  --scratch DIR         traces, logs and results go here (default: /tmp/augur-bench)
  --sizes LIST          synthetic sizes to run, from 64,1024,4096,16384,1000000 (default: all);
                        iterations per size as in issue 4: 200, 200, 100, 10, 10
  --iterations LIST     override the iterations, one per size in --sizes
  --no-real             skip the real traces of ti-samples
  --only-real           run the real traces only
  --samples DIR         the real traces (default: $repo/../shared/ti-samples)
  --no-simgrid          augur only
  --simgrid-privatize   run smpirun with its default globals privatization (one dlopen'ed copy
                        of the replay binary per rank: slower, and past ~16,000 ranks it exceeds
                        vm.max_map_count = 65530); default: -no-privatize, which the replay
                        does not need (same predictions)
  --no-synthetic-source skip the extra augur rows replaying the on-the-fly synthetic source
  --no-prediction-only  skip the extra augur rows of prediction-only runs (--wait-states off
                        --characteristics off: the predicted times and the time per processor,
                        what SimGrid's replay computes; the other rows run every analysis)
  --timeout S           per run, for both tools (default: 1800); a run past it reads "timeout"
  --repeat N            repeat a run that took under 10 s of CPU up to N times in all and keep
                        the least CPU time (default: 5)
  --keep                keep the generated traces (default: deleted after each size)
  --no-dvm              skip target 4: a generated Lib-DVM trace (augur_dvm_gen) replayed on
                        grids 1, 2x2 and 4x4, every analysis and --wait-states off
  --dvm-spec SPEC       augur_dvm_gen's spec (default: N=1000,I=100000, 543 MB of text)
  --no-topologies       skip issue 29's sharing-on rows: the synthetic 1,024 x 200 on a FAT_TREE
                        (2:1) and a TORUS cluster file, augur's flow model against smpirun
  --no-sweep            skip target 5: 8 variants (synthetic 1,024 x 200, eight latencies) with
                        --jobs 1 and --jobs 2, least wall time of --repeat runs, text and JSON
                        reports compared
  -h, --help            this text
The 1,000,000-rank size always runs augur only, on the synthetic source (no files).
Results: the table and the targets of issue 4 met or not (with the peer's figure from the same
run) on stdout, and in DIR/results.md; raw figures in DIR/results.tsv.
EOF
}

augur="$repo/build/optimised/tools/augur"
gen=""
run_time=""
scratch="/tmp/augur-bench"
sizes="64,1024,4096,16384,1000000"
iterations=""
run_real=1
run_synthetic=1
samples="$repo/../shared/ti-samples"
run_simgrid=1
simgrid_privatize=0
synthetic_rows=1
prediction_rows=1
timeout_s=1800
repeat=5
keep=0
run_dvm=1
dvm_spec="N=1000,I=100000"
run_sweep=1
run_topologies=1
while (($#)); do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --gen) gen="$2"; shift ;;
    --run-time) run_time="$2"; shift ;;
    --scratch) scratch="$2"; shift ;;
    --sizes) sizes="$2"; shift ;;
    --iterations) iterations="$2"; shift ;;
    --no-real) run_real=0 ;;
    --only-real) run_synthetic=0 ;;
    --samples) samples="$2"; shift ;;
    --no-simgrid) run_simgrid=0 ;;
    --simgrid-privatize) simgrid_privatize=1 ;;
    --no-synthetic-source) synthetic_rows=0 ;;
    --no-prediction-only) prediction_rows=0 ;;
    --timeout) timeout_s="$2"; shift ;;
    --repeat) repeat="$2"; shift ;;
    --keep) keep=1 ;;
    --no-dvm) run_dvm=0 ;;
    --dvm-spec) dvm_spec="$2"; shift ;;
    --no-sweep) run_sweep=0 ;;
    --no-topologies) run_topologies=0 ;;
    -*) echo "compare.sh: error: unknown option '$1'" >&2; usage >&2; exit 2 ;;
    *) augur="$1" ;;
  esac
  shift
done
augur="$(realpath -m "$augur")"
[ -n "$gen" ] || gen="$(dirname "$augur")/bench/augur_ti_gen"
gen="$(realpath -m "$gen")"
[ -n "$run_time" ] || run_time="$(dirname "$gen")/augur_run_time"
run_time="$(realpath -m "$run_time")"
for exe in "$augur" "$gen" "$run_time"; do
  if [ ! -x "$exe" ]; then
    echo "compare.sh: error: $exe not found; build it first: cmake --workflow --preset optimised" >&2
    exit 2
  fi
done

log() { echo "compare.sh: $*" >&2; }

# --- tools: zstd and SimGrid's smpirun (libsimgrid-dev) --------------------------------------------
apt_install() {
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  log "installing $*"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  # Never libboost1.81-dev: it conflicts with libboost-dev 1.74 and removes libsimgrid-dev.
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"
}
command -v zstd >/dev/null || apt_install zstd
if ((run_simgrid)) && ! command -v smpirun >/dev/null; then apt_install libsimgrid-dev; fi
if ((run_simgrid)) && ! command -v smpirun >/dev/null; then
  log "smpirun still missing after installing libsimgrid-dev: SimGrid rows skipped"
  run_simgrid=0
fi
# Every rank file is open at once in both replayers.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

mkdir -p "$scratch"
scratch="$(realpath "$scratch")"
results_tsv="$scratch/results.tsv"
results_md="$scratch/results.md"
printf 'workload\tP\tI\tactions\ttool\tstatus\tcpu_s\twall_s\trss_kb\tpredicted_s\n' > "$results_tsv"
extra_tsv="$scratch/extra.tsv"  # targets 4 and 5: target, what, run, status, cpu_s, wall_s, bytes / identical
printf 'target\twhat\trun\tstatus\tcpu_s\twall_s\tfigure\n' > "$extra_tsv"

# --- the equivalent platforms ---------------------------------------------------------------------
# SimGrid: P hosts of 1 Gflop/s, each with a private 10 GB/s, 0.5 us link to a non-blocking switch
# (1 us and 10 GB/s host to host), loopback 10 GB/s, 0 us: ../shared/ti-samples/platform.xml with
# P hosts. augur: the same as a loggp_smp machine (machines/library/platform_cluster_64.yaml); it
# has no host count, one process per node makes as many nodes as ranks.
write_platform() {  # P DIR
  local p="$1" dir="$2"
  cat > "$dir/platform.xml" <<EOF
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<!-- compare.sh: $p hosts node-0 .. node-$((p - 1)), 1 Gflop/s, private 10 GB/s 0.5 us links. -->
<platform version="4.1">
  <cluster id="cluster" prefix="node-" suffix="" radical="0-$((p - 1))"
           speed="1Gf" core="1" bw="10GBps" lat="0.5us"
           loopback_bw="10GBps" loopback_lat="0us"/>
</platform>
EOF
  seq -f 'node-%.0f' 0 $((p - 1)) > "$dir/hostfile"
}
machine_yaml="$scratch/machine.yaml"
cat > "$machine_yaml" <<'EOF'
# compare.sh: the SimGrid cluster of platform.xml (any host count) as a LogGP SMP machine:
# 1 Gflop/s hosts, 1 us and 10 GB/s host to host (two 0.5 us private links), loopback 10 GB/s
# without latency, each host's private link as its up/down link, SMPI's 64 KiB eager limit.
schema_version: 1
model: loggp_smp
description: "compare.sh cluster: 1 Gflop/s hosts, 1us and 10GBps host to host (SimGrid cluster, CM02)"
cpu_speed: 1Gflops
latency: 1us
bandwidth: 10GBps
overhead: 0s
gap: 0s
mtu: 0
processes_per_node: 1
mapping: block
intra_node_latency: 0s
intra_node_bandwidth: 10GBps
link_contention: true
eager_threshold: 64KiB
EOF

# --- one measured run ------------------------------------------------------------------------------
# measure_once NAME DIR CMD... : runs CMD in DIR under augur_run_time (with its timeout); sets m_status
# (ok, timeout, failed), m_cpu, m_wall (seconds, 6 decimals), m_rss_kb and leaves the output in
# $scratch/logs/NAME.out, the measurement in $scratch/logs/NAME.time.
mkdir -p "$scratch/logs"
# augur_run_time runs its command in a process group of its own, out of reach of the terminal's
# Ctrl-C: on INT/TERM, stop the run in progress (augur_run_time passes TERM on to the group).
running_pid=""
stop_running() {
  if [ -n "$running_pid" ]; then kill -TERM "$running_pid" 2>/dev/null || true; fi
  exit 130
}
trap stop_running INT TERM
measure_once() {
  local name="$1" dir="$2"
  shift 2
  local tfile="$scratch/logs/$name.time" out="$scratch/logs/$name.out" rc=0
  (cd "$dir" && exec "$run_time" -o "$tfile" -t "$timeout_s" "$@") > "$out" 2>&1 &
  running_pid=$!
  wait "$running_pid" || rc=$?
  running_pid=""
  m_cpu=$(awk -F': ' '$1 == "cpu_s" {print $2}' "$tfile")
  m_rss_kb=$(awk -F': ' '$1 == "max_rss_kb" {print $2}' "$tfile")
  m_wall=$(awk -F': ' '$1 == "wall_s" {print $2}' "$tfile")
  if ((rc == 124)); then
    m_status=timeout
  elif ((rc != 0)); then
    m_status="failed($rc)"
  else
    m_status=ok
  fi
}

# measure_keeping KEY NAME DIR CMD... : measure_once, repeated while short (see --repeat); keeps
# the run with the least KEY, cpu or wall (its other figures too).
measure_keeping() {
  local key="$1"
  shift
  measure_once "$@"
  local n=1 best_cpu="$m_cpu" best_wall="$m_wall" best_rss="$m_rss_kb"
  while [ "$m_status" = ok ] && ((n < repeat)) && awk -v c="$m_cpu" 'BEGIN { exit !(c < 10) }'; do
    measure_once "$@"
    n=$((n + 1))
    [ "$m_status" = ok ] || break
    local now="$m_cpu" best="$best_cpu"
    if [ "$key" = wall ]; then now="$m_wall" best="$best_wall"; fi
    if awk -v a="$now" -v b="$best" 'BEGIN { exit !(a < b) }'; then
      best_cpu="$m_cpu" best_wall="$m_wall" best_rss="$m_rss_kb"
    fi
  done
  if [ "$m_status" = ok ]; then m_cpu="$best_cpu" m_wall="$best_wall" m_rss_kb="$best_rss"; fi
}

# measure NAME DIR CMD... : measure_keeping the run with the least CPU time.
measure() { measure_keeping cpu "$@"; }

record() {  # workload P I actions tool predicted
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" "$m_status" "$m_cpu" "$m_wall" \
    "${m_rss_kb:-0}" "$6" >> "$results_tsv"
}

augur_predicted() { sed -n 's/.*predicted time:\? \([0-9.eE+-]*\) s.*/\1/p' "$1" | head -1; }
simgrid_predicted() { sed -n 's/.*Simulation time \([0-9.eE+-]*\).*/\1/p' "$1" | tail -1; }

augur_machine="$machine_yaml"  # what run_augur replays on
run_augur() {  # workload P I actions TRACE-REF [tool-label [augur options...]]
  local label="${6:-augur}"
  local extra=("${@:7}")
  log "$1: $label"
  measure "$1.$label" "$scratch" "$augur" run --trace "$5" --machine "$augur_machine" --jobs 1 "${extra[@]}"
  record "$1" "$2" "$3" "$4" "$label" "$(augur_predicted "$scratch/logs/$1.$label.out")"
  [ "$m_status" = ok ] || log "$1: $label: $m_status (see $scratch/logs/$1.$label.out)"
}

run_simgrid() {  # workload P I actions DIR (holding trace.txt) PLATFORM HOSTFILE
  log "$1: simgrid (timeout ${timeout_s}s)"
  local privatize=(-no-privatize)
  if ((simgrid_privatize)); then privatize=(); fi
  measure "$1.simgrid" "$5" smpirun "${privatize[@]}" -np "$2" -platform "$6" -hostfile "$7" -replay trace.txt \
    --cfg=network/model:CM02 --cfg=network/crosstraffic:0
  record "$1" "$2" "$3" "$4" "SimGrid 3.32" "$(simgrid_predicted "$scratch/logs/$1.simgrid.out")"
  [ "$m_status" = ok ] || log "$1: simgrid: $m_status (see $scratch/logs/$1.simgrid.out)"
}

# The on-the-fly source.
synthetic_prefix="synthetic:"
# Prediction only: the analyses off (an augur without --wait-states runs none of these rows).
prediction_only=(--wait-states off --characteristics off)
if ((prediction_rows)) &&
   ! "$augur" run --trace "${synthetic_prefix}P=2,I=1" --machine "$machine_yaml" "${prediction_only[@]}" > /dev/null 2>&1; then
  log "this augur has no --wait-states: no prediction-only rows"
  prediction_rows=0
fi

# --- synthetic workload ----------------------------------------------------------------------------
default_iterations() {
  case "$1" in
    64|1024) echo 200 ;;
    4096) echo 100 ;;
    *) echo 10 ;;
  esac
}
if ((run_synthetic)); then
  IFS=, read -r -a size_list <<< "$sizes"
  iter_list=()
  [ -z "$iterations" ] || IFS=, read -r -a iter_list <<< "$iterations"
  for k in "${!size_list[@]}"; do
    p="${size_list[$k]}"
    it="${iter_list[$k]:-$(default_iterations "$p")}"
    spec="P=$p,I=$it"
    name="synthetic-$p"
    actions=$("$gen" --count "$spec")
    if ((p >= 100000)); then  # no million files: augur's on-the-fly source only
      run_augur "$name" "$p" "$it" "$actions" "$synthetic_prefix$spec" "augur (synthetic source)"
      if ((prediction_rows)); then
        run_augur "$name" "$p" "$it" "$actions" "$synthetic_prefix$spec" "augur (synthetic source, prediction only)" \
          "${prediction_only[@]}"
      fi
      continue
    fi
    dir="$scratch/$name"
    rm -rf "$dir"
    log "$name: generating $spec"
    "$gen" "$spec" "$dir" >&2
    run_augur "$name" "$p" "$it" "$actions" "$dir/trace.txt"
    if ((prediction_rows)); then
      run_augur "$name" "$p" "$it" "$actions" "$dir/trace.txt" "augur (prediction only)" "${prediction_only[@]}"
    fi
    if ((synthetic_rows)); then
      run_augur "$name" "$p" "$it" "$actions" "$synthetic_prefix$spec" "augur (synthetic source)"
      if ((prediction_rows)); then
        run_augur "$name" "$p" "$it" "$actions" "$synthetic_prefix$spec" "augur (synthetic source, prediction only)" \
          "${prediction_only[@]}"
      fi
    fi
    if ((run_simgrid)); then
      write_platform "$p" "$dir"
      run_simgrid "$name" "$p" "$it" "$actions" "$dir" "$dir/platform.xml" "$dir/hostfile"
    fi
    if ((!keep)); then rm -rf "$dir"; fi
  done
fi

# --- the real traces of ti-samples (the ten of predictions.tsv; tiny-4 has its own platform) -----
if ((run_real)); then
  for src in "$samples"/prk-stencil-{4,8,16} "$samples"/prk-transpose-{4,8,16} "$samples"/prk-p2p-{4,8,16} \
             "$samples"/simgrid-example-32; do
    [ -f "$src/trace.txt" ] || { log "missing $src/trace.txt: skipped"; continue; }
    name="$(basename "$src")"
    dir="$scratch/real/$name"
    rm -rf "$dir"
    mkdir -p "$dir"
    cp "$src/trace.txt" "$dir/"
    for z in "$src"/rank*.txt.zst; do zstd -dq "$z" -o "$dir/$(basename "$z" .zst)"; done
    p=$(grep -cv '^[[:space:]]*\(#.*\)\?$' "$dir/trace.txt")
    actions=$(cat "$dir"/rank*.txt | grep -cv '^[[:space:]]*\(#.*\)\?$')
    run_augur "$name" "$p" "-" "$actions" "$dir/trace.txt"
    if ((prediction_rows)); then
      run_augur "$name" "$p" "-" "$actions" "$dir/trace.txt" "augur (prediction only)" "${prediction_only[@]}"
    fi
    if ((run_simgrid)); then
      run_simgrid "$name" "$p" "-" "$actions" "$dir" "$samples/platform.xml" "$samples/hostfile"
    fi
    if ((!keep)); then rm -rf "$dir"; fi
  done
fi

# --- sharing on: a fat tree and a torus at 1,024 ranks (issue 29 item 6) --------------------------
# The synthetic workload (P=1024, I=200) on SimGrid clusters of 1,024 hosts with write_platform's
# hosts and links shaped as a FAT_TREE "2;32,32;1,16;1,1" (32 hosts per edge switch, 16 up-links:
# 2:1) and a TORUS "8,8,16". augur reads the same file (--machine P.xml: the flow model, max-min
# sharing on every link) under the same CM02 options as smpirun. Target: ≥ 30× less CPU.
if ((run_topologies)); then
  p=1024
  it=200
  spec="P=$p,I=$it"
  actions=$("$gen" --count "$spec")
  dir="$scratch/topologies"
  rm -rf "$dir"
  log "topologies: generating $spec"
  "$gen" "$spec" "$dir" >&2
  write_platform "$p" "$dir"
  for shape in "fat-tree FAT_TREE 2;32,32;1,16;1,1" "torus TORUS 8,8,16"; do
    read -r name topo params <<< "$shape"
    sed -e "s|<cluster id=\"cluster\"|<cluster id=\"$name\" topology=\"$topo\" topo_parameters=\"$params\"|" \
      "$dir/platform.xml" > "$dir/$name.xml"
    augur_machine="$dir/$name.xml"
    run_augur "$name-$p" "$p" "$it" "$actions" "$dir/trace.txt" "augur (sharing on, prediction only)" \
      --hostfile "$dir/hostfile" --cfg=network/model:CM02 --cfg=network/crosstraffic:0 "${prediction_only[@]}"
    augur_machine="$machine_yaml"
    if ((run_simgrid)); then
      run_simgrid "$name-$p" "$p" "$it" "$actions" "$dir" "$dir/$name.xml" "$dir/hostfile"
    fi
  done
  if ((!keep)); then rm -rf "$dir"; fi
fi

# --- Lib-DVM traces (target 4) --------------------------------------------------------------------
# MB/s = bytes of trace text / CPU seconds of `augur run --trace dvm:FILE` (reader, DVM model with
# its characteristics, engine), least CPU of --repeat runs under 10 s.
if ((run_dvm)); then
  dvm_gen="$(dirname "$gen")/augur_dvm_gen"
  if [ ! -x "$dvm_gen" ]; then
    log "$dvm_gen not found: target 4 skipped"
  else
    mkdir -p "$scratch/dvm"
    dvm_trace="$scratch/dvm/jacobi.ptr"
    log "dvm: generating $dvm_spec"
    "$dvm_gen" "$dvm_spec" "$dvm_trace" >&2
    dvm_bytes=$(stat -c %s "$dvm_trace")
    for grid in 1 2x2 4x4; do
      for run in "augur" "augur (--wait-states off)"; do
        extra=()
        [ "$run" = augur ] || extra=(--wait-states off)
        log "dvm grid $grid: $run"
        measure "dvm-$grid.${#extra[@]}" "$scratch" "$augur" run --trace "dvm:$dvm_trace" --machine dvm_mvs --grid "$grid" \
          --jobs 1 "${extra[@]}"
        printf '4\tgrid %s, %s bytes\t%s\t%s\t%s\t%s\t%s\n' "$grid" "$dvm_bytes" "$run" "$m_status" "$m_cpu" "$m_wall" \
          "$dvm_bytes" >> "$extra_tsv"
      done
    done
    if ((!keep)); then rm -rf "$scratch/dvm"; fi
  fi
fi

# --- sweeps (target 5) -----------------------------------------------------------------------------
# Eight independent variants on the thread pool: the least wall time of --repeat runs with --jobs 1
# and with --jobs 2 (text report to a file), then one run of each with the JSON report too, and
# whether both wrote the same text and JSON. (The JSON report of the eight variants, 28 MB, is
# written after they all finish, on one thread: timed, it would add ~0.2 s of serial work.)
if ((run_sweep)); then
  sweep=(run --trace "${synthetic_prefix}P=1024,I=200" --machine "$machine_yaml"
         --set "sweep.machine.latency=1us,2us,3us,5us,10us,20us,50us,100us")
  for jobs in 1 2; do
    log "sweep: 8 variants, --jobs $jobs"
    measure_keeping wall "sweep.jobs$jobs" "$scratch" "$augur" "${sweep[@]}" --jobs "$jobs" \
      --text "$scratch/sweep.jobs$jobs.txt"
    status="$m_status"
    "$augur" "${sweep[@]}" --jobs "$jobs" --text "$scratch/sweep.jobs$jobs.txt" --json "$scratch/sweep.jobs$jobs.json" \
      > /dev/null 2>&1 || status=failed
    same=-
    if ((jobs == 2)); then
      same=no
      if cmp -s "$scratch/sweep.jobs1.txt" "$scratch/sweep.jobs2.txt" &&
         cmp -s "$scratch/sweep.jobs1.json" "$scratch/sweep.jobs2.json"; then same=yes; fi
      if ((!keep)); then rm -f "$scratch"/sweep.jobs[12].json; fi
    fi
    printf '5\t8 variants, synthetic 1024 x 200\t--jobs %s\t%s\t%s\t%s\t%s\n' "$jobs" "$status" "${m_cpu:-0}" \
      "${m_wall:-0}" "$same" >> "$extra_tsv"
  done
fi

# --- the table -------------------------------------------------------------------------------------
# One row per (workload, tool). On augur rows: SimGrid's CPU over augur's, and the relative
# difference of the predicted times (augur - SimGrid) / SimGrid.
awk -F'\t' -v date="$(date -u '+%Y-%m-%d %H:%M UTC')" -v host="$(nproc) cores, $(. /etc/os-release && echo "$PRETTY_NAME")" '
  NR == 1 { next }
  {
    n++; w[n] = $1; p[n] = $2; it[n] = $3; act[n] = $4; tool[n] = $5; st[n] = $6; cpu[n] = $7
    wall[n] = $8; rss[n] = $9; pred[n] = $10
    if ($5 ~ /SimGrid/ && $6 == "ok") { sg_cpu[$1] = $7; sg_pred[$1] = $10 }
  }
  function num(x) { return x + 0 }
  function secs(x) { return (x < 1) ? sprintf("%.4f", x) : sprintf("%.2f", x) }
  END {
    printf "augur vs SimGrid 3.32 TI replay (CM02), %s, %s\n\n", date, host
    printf "| workload | P | I | actions | tool | CPU s | wall s | actions/s (CPU) | peak RSS MB | KB/rank | SimGrid CPU / augur CPU | predicted s | pred. diff |\n"
    printf "|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---|\n"
    for (i = 1; i <= n; i++) {
      c = num(cpu[i])
      if (st[i] != "ok") { rate = st[i] }
      else if (c <= 0) { rate = "-" }
      else if (act[i] / c >= 1e6) { rate = sprintf("%.2f M", act[i] / c / 1e6) }
      else { rate = sprintf("%.1f k", act[i] / c / 1e3) }
      cputxt = secs(c)
      if (st[i] == "timeout") cputxt = "timeout (" cputxt ")"
      rssmb = sprintf("%.1f", rss[i] / 1024)
      kbrank = sprintf("%.2f", rss[i] / p[i])
      ratio = ""; diff = ""
      if (tool[i] !~ /SimGrid/ && (w[i] in sg_cpu)) {
        s = num(sg_cpu[w[i]])
        ratio = (c > 0) ? sprintf("%.1f×", s / c) : "-"
        if (pred[i] != "" && num(sg_pred[w[i]]) > 0)
          diff = sprintf("%+.2e", (num(pred[i]) - num(sg_pred[w[i]])) / num(sg_pred[w[i]]))
      }
      printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", w[i], p[i], it[i], act[i], \
             tool[i], cputxt, secs(num(wall[i])), rate, rssmb, kbrank, ratio, (pred[i] == "" ? "-" : pred[i]), diff
    }
  }' "$results_tsv" | tee "$results_md"

# --- the targets of issue 4 ------------------------------------------------------------------------
# Each target this run measures, per augur run type, with the peer's figure from the same run:
# 1 (>= 5 M actions/s), 1b (per-action CPU at 16,384 ranks <= 1.5 x at 64; the 64-rank run's CPU
# includes augur's start-up, so this ratio flatters 16,384 a little), 2a / 2b (SimGrid CPU / augur
# CPU >= 30 at 64 ranks, >= 1,000 at 16,384), 2c (>= 30 on every real trace), 3 (1,000,000 ranks
# under 2 GB peak; KB per rank shown), 4 (>= 200 MB/s of Lib-DVM text, each grid), 5 (>= 1.8x
# wall-time speed-up of 8 variants on 2 cores, same outputs).
awk -F'\t' '
  FNR == 1 { next }
  FILENAME ~ /extra.tsv$/ {
    if ($1 == "4") { nd++; dwhat[nd] = $2; drun[nd] = $3; dst[nd] = $4; dcpu[nd] = $5 + 0; dbytes[nd] = $7 + 0 }
    if ($1 == "5") { sw[$3] = $6 + 0; sst[$3] = $4; if ($7 != "-") same = $7 }
    next
  }
  $6 == "ok" {
    key = $1 SUBSEP $5
    cpu[key] = $7 + 0; act[key] = $4 + 0; rss[key] = $9 + 0; ranks[key] = $2 + 0
    if ($5 ~ /SimGrid/) sg[$1] = $7 + 0
    else if (!($5 in seen)) { seen[$5] = 1; labels[++nl] = $5 }
    if (!($1 in wseen)) { wseen[$1] = 1; works[++nw] = $1 }
  }
  function rate(x) { return x >= 1e6 ? sprintf("%.2f M/s", x / 1e6) : sprintf("%.1f k/s", x / 1e3) }
  function verdict(ok) { total++; if (ok) { met++; return "met" } return "not met" }
  function row(t, w, l, measured, peer, ok) {
    printf "| %s | %s | %s | %s | %s | %s |\n", t, w, l, measured, peer, verdict(ok)
  }
  END {
    printf "\nTargets of issue 4 in this run (augur rows by run type; peer = SimGrid 3.32, same run)\n\n"
    printf "| target | workload | augur run | measured | peer | verdict |\n|---|---|---|---|---|---|\n"
    for (i = 1; i <= nw; i++) {
      w = works[i]
      if (w !~ /^synthetic-/ || w == "synthetic-1000000") continue
      for (j = 1; j <= nl; j++) {
        k = w SUBSEP labels[j]
        if (!(k in cpu) || cpu[k] <= 0) continue
        r = act[k] / cpu[k]
        peer = (w in sg && sg[w] > 0) ? rate(act[k] / sg[w]) : "-"
        row("1. >= 5 M actions/s", w, labels[j], rate(r), peer, r >= 5e6)
      }
    }
    for (j = 1; j <= nl; j++) {
      a = "synthetic-64" SUBSEP labels[j]; b = "synthetic-16384" SUBSEP labels[j]
      if (!(a in cpu) || !(b in cpu) || cpu[a] <= 0) continue
      pa = cpu[a] / act[a] * 1e9; pb = cpu[b] / act[b] * 1e9; x = pb / pa
      peer = ("synthetic-64" in sg && "synthetic-16384" in sg && sg["synthetic-64"] > 0) ? \
             sprintf("%.1fx", (sg["synthetic-16384"] / act[b]) / (sg["synthetic-64"] / act[a])) : "-"
      row("1b. per action at 16,384 <= 1.5 x at 64", "synthetic-64, -16384", labels[j],
          sprintf("%.0f / %.0f ns = %.2fx", pa, pb, x), peer, x <= 1.5)
    }
    for (i = 1; i <= nw; i++) {
      w = works[i]
      if (!(w in sg) || sg[w] <= 0) continue
      need = 30; t = "2c. >= 30x less CPU (real trace)"
      if (w == "synthetic-64") t = "2a. >= 30x less CPU at 64 ranks"
      else if (w == "synthetic-16384") { need = 1000; t = "2b. >= 1,000x less CPU at 16,384" }
      else if (w ~ /^synthetic-/) continue
      for (j = 1; j <= nl; j++) {
        k = w SUBSEP labels[j]
        if (!(k in cpu) || cpu[k] <= 0) continue
        x = sg[w] / cpu[k]
        row(t, w, labels[j], sprintf("%.1fx (%.4f s)", x, cpu[k]), sprintf("%.4f s", sg[w]), x >= need)
      }
    }
    for (j = 1; j <= nl; j++) {
      k = "synthetic-1000000" SUBSEP labels[j]
      if (!(k in cpu)) continue
      mb = rss[k] / 1024; kb = rss[k] / ranks[k]
      row("3. 10^6 LPs in < 2 GB peak", "synthetic-1000000", labels[j],
          sprintf("%.0f MB, %.2f KB/rank", mb, kb), "-", mb < 2048)
    }
    for (i = 1; i <= nd; i++) {
      if (dst[i] != "ok" || dcpu[i] <= 0) { row("4. Lib-DVM >= 200 MB/s", dwhat[i], drun[i], dst[i], "-", 0); continue }
      mbs = dbytes[i] / dcpu[i] / 1e6
      row("4. Lib-DVM >= 200 MB/s", dwhat[i], drun[i], sprintf("%.0f MB/s (%.2f s)", mbs, dcpu[i]), "-", mbs >= 200)
    }
    if (("--jobs 1" in sw) && ("--jobs 2" in sw)) {
      if (sst["--jobs 1"] != "ok" || sst["--jobs 2"] != "ok" || sw["--jobs 2"] <= 0) {
        row("5. sweeps >= 1.8x on 2 cores", "8 variants", "--jobs 2 vs 1", sst["--jobs 1"] " / " sst["--jobs 2"], "-", 0)
      } else {
        x = sw["--jobs 1"] / sw["--jobs 2"]
        row("5. sweeps >= 1.8x on 2 cores", "8 variants, synthetic 1024 x 200", "--jobs 2 vs --jobs 1",
            sprintf("%.2fx (%.3f / %.3f s wall), same outputs: %s", x, sw["--jobs 1"], sw["--jobs 2"], same), "-",
            x >= 1.8 && same == "yes")
      }
    }
    printf "\n%d of %d met.\n", met, total
  }' "$results_tsv" "$extra_tsv" | tee -a "$results_md"
