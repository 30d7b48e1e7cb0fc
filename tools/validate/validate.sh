#!/usr/bin/env bash
# Reality check (issue 31): each MPI program of tools/otf2/programs is run natively (wall time
# from MPI_Init to MPI_Finalize through the PMPI shim walltime.c, REPS repetitions: mean and
# spread), recorded with EZTrace (tools/otf2/record.sh), the machine calibrated from a native
# ping-pong (osu_latency.c → augur calibrate), and the recorded trace predicted on that machine:
# one row per program with predicted H, measured h and |H - h| / h. Then augur against SimGrid's
# smpirun -replay on the TI conversion of each recorded trace, on the cluster both describe.
#   tools/validate/validate.sh [AUGUR] [--reps N] [--scratch DIR] [--no-simgrid]
# Needs: mpicc, mpirun (Open MPI), eztrace, zstd; smpirun (SimGrid 3.32) for the second table.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
augur="$root/build/rel/tools/augur"
reps=5
scratch=/tmp/augur-validate
simgrid=1
while (($#)); do
  case "$1" in
    --reps) reps=$2; shift ;;
    --scratch) scratch=$2; shift ;;
    --no-simgrid) simgrid=0 ;;
    -h | --help) sed -n '2,9p' "$0"; exit 0 ;;
    *) augur=$1 ;;
  esac
  shift
done
mpirun=(mpirun --allow-run-as-root --oversubscribe)
mkdir -p "$scratch/bin" "$scratch/traces"
# name, ranks (the programs of tools/otf2/record.sh)
programs=("ping_pong 2" "stencil2d 4" "subcomm 4" "prk_transpose 4" "prk_p2p 4" "npb_cg 4")

# --- the machine: a native ping-pong, calibrated ---------------------------------------------------
mpicc -O2 -o "$scratch/bin/osu_latency" "$here/osu_latency.c"
"${mpirun[@]}" -np 2 "$scratch/bin/osu_latency" >"$scratch/osu_latency.txt"
"$augur" calibrate osu_latency="$scratch/osu_latency.txt" >"$scratch/machine.yaml"
echo "machine ($scratch/machine.yaml): $(grep -E '^(latency|bandwidth):' "$scratch/machine.yaml" | tr '\n' ' ')"

predict() {  # TRACE-SPEC MACHINE: augur's predicted seconds
  "$augur" run --trace "$1" --machine "$2" --wait-states off --characteristics off \
    --json "$scratch/predict.json" >/dev/null
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["variants"][0]["totals"]["end_s"])' \
    "$scratch/predict.json"
}

# --- native runs, traces, predictions ---------------------------------------------------------------
echo
echo "| program | ranks | measured h (mean of $reps) | spread (sd; min-max) | predicted H | abs(H - h) / h |"
echo "|---|---|---|---|---|---|"
for entry in "${programs[@]}"; do
  read -r name ranks <<<"$entry"
  mpicc -O2 -o "$scratch/bin/$name" "$root/tools/otf2/programs/$name.c" "$here/walltime.c" -lm
  : >"$scratch/$name.walls"
  for ((i = 0; i < reps; i++)); do
    "${mpirun[@]}" -np "$ranks" "$scratch/bin/$name" 2>&1 >/dev/null |
      sed -n 's/^validate: wall //p' >>"$scratch/$name.walls"
  done
  "$root/tools/otf2/record.sh" "$scratch/traces" "$name" >/dev/null
  tar --zstd -xf "$scratch/traces/$name.tar.zst" -C "$scratch/traces"
  H=$(predict "otf2:$scratch/traces/$name/traces.otf2" "$scratch/machine.yaml")
  python3 - "$name" "$ranks" "$H" "$scratch/$name.walls" <<'PY'
import statistics, sys
name, ranks, H, walls = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
h = [float(x) for x in open(walls)]
mean, sd = statistics.mean(h), statistics.stdev(h) if len(h) > 1 else 0.0
print(f"| {name} | {ranks} | {mean*1e3:.3f} ms | {sd*1e3:.3f} ms ({sd/mean*100:.0f} %); "
      f"{min(h)*1e3:.3f}-{max(h)*1e3:.3f} ms | {H*1e3:.3f} ms | {abs(H-mean)/mean*100:.1f} % |")
PY
done

# --- augur against SimGrid on the TI conversions ----------------------------------------------------
((simgrid)) || exit 0
command -v smpirun >/dev/null || { echo "smpirun not found: no SimGrid table"; exit 0; }
cat >"$scratch/machine-sg.yaml" <<'YAML'
# validate.sh: SimGrid's cluster of platform.xml (1 Gflop/s hosts, 1 us and 10 GB/s host to host,
# CM02 without cross-traffic) as a LogGP SMP machine, as tools/bench/compare.sh has it, but with
# SMPI's rendezvous from 65,536 B on (a send is detached when smaller: 64 KiB is rendezvous).
schema_version: 1
model: loggp_smp
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
eager_threshold: 65535B
YAML
echo
echo "| trace (TI conversion) | ranks | SimGrid 3.32 smpirun -replay | augur | difference |"
echo "|---|---|---|---|---|"
for entry in "${programs[@]}"; do
  read -r name ranks <<<"$entry"
  ti="$scratch/ti/$name"
  rm -rf "$ti"
  if ! "$augur" convert "otf2:$scratch/traces/$name/traces.otf2" "$ti" >/dev/null 2>"$scratch/$name.convert.err"; then
    echo "| $name | $ranks | no TI form: $(sed 's/.*error: //' "$scratch/$name.convert.err" | head -1) | | |"
    continue
  fi
  cat >"$ti/platform.xml" <<XML
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="cluster" prefix="node-" suffix="" radical="0-$((ranks - 1))" speed="1Gf" core="1" bw="10GBps"
           lat="0.5us" loopback_bw="10GBps" loopback_lat="0us"/>
</platform>
XML
  seq -f 'node-%.0f' 0 $((ranks - 1)) >"$ti/hostfile"
  sg=$(cd "$ti" && smpirun -no-privatize -np "$ranks" -platform platform.xml -hostfile hostfile -replay trace.txt \
    --cfg=network/model:CM02 --cfg=network/crosstraffic:0 --cfg=smpi/display-timing:yes 2>&1 |
    sed -n 's/.*Simulated time: \([0-9.eE+-]*\) seconds.*/\1/p' | tail -1)
  A=$(predict "ti:$ti/trace.txt" "$scratch/machine-sg.yaml")
  python3 -c 'import sys; s, a = float(sys.argv[3]), float(sys.argv[4]); print(f"| {sys.argv[1]} | {sys.argv[2]} | {s*1e3:.6f} ms | {a*1e3:.6f} ms | {abs(a-s)/s*100:.4f} % |")' \
    "$name" "$ranks" "$sg" "$A"
done
