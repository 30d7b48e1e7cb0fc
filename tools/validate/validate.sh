#!/usr/bin/env bash
# Reality check (issue 31): each MPI program of tools/otf2/programs is run natively (wall time
# from MPI_Init to MPI_Finalize through the PMPI shim walltime.c, REPS repetitions: mean and
# spread), recorded with EZTrace (tools/otf2/record.sh), the machine calibrated from a native
# ping-pong (osu_latency.c → augur calibrate), and the recorded trace predicted on that machine:
# one row per program with predicted H, measured h and |H - h| / h. Then the stencil's skeleton
# (stencil2d.yaml) fitted to its 2-rank trace (fit_compute.py) predicts 2 and 4 ranks. Then augur
# against SimGrid's smpirun -replay on the TI conversion of each recorded trace, both given the
# same platform file and hostfile (a 1 Gflop/s <cluster>), under CM02 and SMPI.
#   tools/validate/validate.sh [AUGUR] [--reps N] [--scratch DIR] [--no-simgrid] [--ranks N]
# --ranks N: every program run, recorded and predicted at N ranks (N = 2 here: a core per rank,
# the machine the calibrated model describes); no skeleton table (it needs the 4-rank runs).
# Needs: mpicc, mpirun (Open MPI), eztrace, zstd, python3; smpirun (SimGrid 3.32) for the last table.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
augur="$root/build/rel/tools/augur"
reps=5
scratch=/tmp/augur-validate
simgrid=1
ranks_all=
while (($#)); do
  case "$1" in
    --reps) reps=$2; shift ;;
    --scratch) scratch=$2; shift ;;
    --no-simgrid) simgrid=0 ;;
    --ranks) ranks_all=$2; shift ;;
    -h | --help) sed -n '2,13p' "$0"; exit 0 ;;
    *) augur=$1 ;;
  esac
  shift
done
mpirun=(mpirun --allow-run-as-root --oversubscribe)
mkdir -p "$scratch/bin" "$scratch/traces"
# name, ranks (the programs of tools/otf2/record.sh)
programs=("ping_pong 2" "stencil2d 4" "subcomm 4" "prk_transpose 4" "prk_p2p 4" "npb_cg 4")
if [[ -n $ranks_all ]]; then
  # The programs divide 256 columns, 128² rows and 800 columns among the ranks: a power of two
  # up to 32 (ping_pong's ranks above 1 then wait in MPI_Finalize; subcomm's rows are 1 rank at 2).
  [[ " 2 4 8 16 32 " == *" $ranks_all "* ]] ||
    { echo "validate.sh: --ranks $ranks_all: the programs need 2, 4, 8, 16 or 32" >&2; exit 2; }
  for i in "${!programs[@]}"; do
    read -r name _ <<<"${programs[$i]}"
    programs[i]="$name $ranks_all"
  done
  export RECORD_RANKS=$ranks_all
fi

# --- the machine: a native ping-pong, calibrated ---------------------------------------------------
mpicc -O2 -o "$scratch/bin/osu_latency" "$here/osu_latency.c"
# Split the calibration where this Open MPI changes protocol: its shared-memory BTL (vader) sends
# eagerly up to btl_vader_eager_limit bytes header included (4096), above that by rendezvous and a
# single copy; so a 4096-B payload is rendezvous and the eager piece ends at limit - 1. A split
# at augur calibrate's default (64 KiB) puts one line through both protocols: 4 to 32 KiB then
# come out 1 to 5 us a message under the table (tools/validate/README.md, "2 ranks").
limit=$(ompi_info --param btl vader --level 4 --parsable 2>/dev/null |
  sed -n 's/^mca:btl:vader:param:btl_vader_eager_limit:value:\([0-9]*\)$/\1/p')
calibrate() {  # $scratch/machine.yaml from a native osu_latency run now
  "${mpirun[@]}" -np 2 "$scratch/bin/osu_latency" >"$scratch/osu_latency.txt"
  "$augur" calibrate osu_latency="$scratch/osu_latency.txt" eager=$((${limit:-4096} - 1)) >"$scratch/machine.yaml"
}
calibrate
echo "machine ($scratch/machine.yaml): $(grep -E '^(latency|bandwidth):' "$scratch/machine.yaml" | tr '\n' ' ')"

predict() {  # TRACE-SPEC MACHINE [OPTION...]: augur's predicted seconds
  "$augur" run --trace "$1" --machine "$2" "${@:3}" --wait-states off --characteristics off \
    --json "$scratch/predict.json" >/dev/null
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["variants"][0]["totals"]["end_s"])' \
    "$scratch/predict.json"
}

row() {  # LABEL RANKS H WALLS: one table row, h the mean of the walls
  python3 - "$@" <<'PY'
import statistics, sys
name, ranks, H, walls = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
h = [float(x) for x in open(walls)]
mean, sd = statistics.mean(h), statistics.stdev(h) if len(h) > 1 else 0.0
print(f"| {name} | {ranks} | {mean*1e3:.3f} ms | {sd*1e3:.3f} ms ({sd/mean*100:.0f} %); "
      f"{min(h)*1e3:.3f}-{max(h)*1e3:.3f} ms; median {statistics.median(h)*1e3:.3f} ms | {H*1e3:.3f} ms | "
      f"{abs(H-mean)/mean*100:.1f} % |")
PY
}
row_medians() {  # LABEL RANKS HS WALLS: a row of --ranks: medians of the predictions and the walls
  python3 - "$@" <<'PY'
import statistics, sys
name, ranks = sys.argv[1], sys.argv[2]
H, h = ([float(x) for x in open(f)] for f in sys.argv[3:5])
mH, mh = statistics.median(H), statistics.median(h)
# noise: half the interquartile range of each, relative to its median (robust, as the medians, to
# the runs in which a process lost its core for milliseconds); a recording is one more sample of
# the same noisy run, so both count.
def noise(x):
    q = statistics.quantiles(x, n=4)
    return (q[2] - q[0]) / 2 / statistics.median(x)
nh, nH = noise(h), noise(H)
err = abs(mH - mh) / mh
print(f"| {name} | {ranks} | {mh*1e3:.3f} ms ({min(h)*1e3:.3f}-{max(h)*1e3:.3f}; +-{nh*100:.1f} %) | "
      f"{mH*1e3:.3f} ms ({min(H)*1e3:.3f}-{max(H)*1e3:.3f}; +-{nH*100:.1f} %) | {(mH-mh)/mh*100:+.1f} % | "
      f"{(nh+nH)*100:.1f} % | {max(0.0, err-nh-nH)*100:.1f} % | {(min(H)-min(h))/min(h)*100:+.1f} % |")
PY
}
measure() {  # NAME RANKS WALLS: REPS native runs of $scratch/bin/NAME, one wall time a line
  : >"$3"
  for ((i = 0; i < reps; i++)); do
    "${mpirun[@]}" -np "$2" "$scratch/bin/$1" 2>&1 >/dev/null | sed -n 's/^validate: wall //p' >>"$3"
  done
}

# --- native runs, traces, predictions ---------------------------------------------------------------
echo
if [[ -n $ranks_all ]]; then
  echo "| program | ranks | calibrated (latency; bandwidth) | measured h: median of $reps (min-max; noise) | predicted H: median of $reps recordings (min-max; noise) | (H - h) / h | noise | beyond noise | minima: (H - h) / h |"
  echo "|---|---|---|---|---|---|---|---|---|"
else
  echo "| program | ranks | measured h (mean of $reps) | spread (sd; min-max; median) | predicted H | abs(H - h) / h |"
  echo "|---|---|---|---|---|---|"
fi
for entry in "${programs[@]}"; do
  read -r name ranks <<<"$entry"
  mpicc -O2 -o "$scratch/bin/$name" "$root/tools/otf2/programs/$name.c" "$here/walltime.c" -lm
  # --ranks: this virtual machine's copy bandwidth between its 2 cores moves between about 2 and
  # 6.5 GB/s from minute to minute (tools/validate/README.md, "2 ranks"): calibrate each program
  # just before its runs, so that both sample the same state.
  [[ -n $ranks_all ]] && calibrate && cp "$scratch/machine.yaml" "$scratch/$name.machine.yaml"
  measure "$name" "$ranks" "$scratch/$name.walls"
  if [[ -n $ranks_all ]]; then  # REPS recordings, each predicted: a recording is a noisy sample too
    : >"$scratch/$name.predictions"
    for ((i = 0; i < reps; i++)); do
      "$root/tools/otf2/record.sh" "$scratch/traces" "$name" >/dev/null
      rm -rf "$scratch/traces/$name" && tar --zstd -xf "$scratch/traces/$name.tar.zst" -C "$scratch/traces"
      predict "otf2:$scratch/traces/$name/traces.otf2" "$scratch/machine.yaml" >>"$scratch/$name.predictions"
    done
    row_medians "$name" "$ranks $(sed -n 's/^latency: \(.*\)/| \1;/p; s/^bandwidth: \(.*\)/\1/p' \
      "$scratch/machine.yaml" | tr '\n' ' ')" "$scratch/$name.predictions" "$scratch/$name.walls"
    continue
  fi
  "$root/tools/otf2/record.sh" "$scratch/traces" "$name" >/dev/null
  tar --zstd -xf "$scratch/traces/$name.tar.zst" -C "$scratch/traces"
  H=$(predict "otf2:$scratch/traces/$name/traces.otf2" "$scratch/machine.yaml")
  row "$name" "$ranks" "$H" "$scratch/$name.walls"
done

# --- trace at 2, predict 4: the stencil's skeleton fitted to its 2-rank trace -------------------------
if [[ -z $ranks_all ]]; then
# stencil2d.yaml's compute from the 2-rank recording (fit_compute.py on its TI conversion), then
# the skeleton predicted at 2 and 4 ranks on the calibrated machine (a core per rank) and, for 4,
# on this machine's shape: one host of 2 cores (SimGrid's CPU sharing) whose loopback has the
# calibrated latency and bandwidth. Measured: native runs at 2, and the 4-rank runs above.
"$root/tools/otf2/record.sh" "$scratch/traces" stencil2d_2p >/dev/null
tar --zstd -xf "$scratch/traces/stencil2d_2p.tar.zst" -C "$scratch/traces"
rm -rf "$scratch/ti/stencil2d_2p"
"$augur" convert "otf2:$scratch/traces/stencil2d_2p/traces.otf2" "$scratch/ti/stencil2d_2p" >/dev/null
fit=$(python3 "$here/fit_compute.py" "$scratch/ti/stencil2d_2p" --iterations 20 2>"$scratch/fit.txt")
setup=$(sed -n 's/.*setup_flops=\([0-9]*\).*/\1/p' <<<"$fit")
iter=$(sed -n 's/.*iter_flops=\([0-9]*\).*/\1/p' <<<"$fit")
set_fit=(--program "$here/stencil2d.yaml" --set "program.setup_flops=$setup" --set "program.iter_flops=$iter")
measure stencil2d 2 "$scratch/stencil2d_2.walls"
lat=$(sed -n 's/^latency: //p' "$scratch/machine.yaml")
bw=$(sed -n 's/^bandwidth: //p' "$scratch/machine.yaml")
cat >"$scratch/node2.xml" <<XML
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="here" prefix="core" suffix="" radical="0-0" speed="1Gf" core="2" bw="$bw" lat="$lat"
           loopback_bw="$bw" loopback_lat="$lat"/>
</platform>
XML
echo "core0:4" >"$scratch/node2.hostfile"
skeleton() {  # RANKS MACHINE [OPTION...]: the fitted skeleton's predicted seconds
  "$augur" run "${set_fit[@]}" --processors "$1" --machine "$2" "${@:3}" --wait-states off \
    --characteristics off --json "$scratch/predict.json" >/dev/null
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["variants"][0]["totals"]["end_s"])' \
    "$scratch/predict.json"
}
echo
echo "fitted from the 2-rank trace: setup $setup flops, $iter flops per iteration ($(tr '\n' ';' <"$scratch/fit.txt"))"
echo
echo "| stencil2d skeleton, fitted at 2 ranks | ranks | measured h (mean of $reps) | spread (sd; min-max; median) | predicted H | abs(H - h) / h |"
echo "|---|---|---|---|---|---|"
row "calibrated machine, a core per rank" 2 "$(skeleton 2 "$scratch/machine.yaml")" "$scratch/stencil2d_2.walls"
row "calibrated machine, a core per rank" 4 "$(skeleton 4 "$scratch/machine.yaml")" "$scratch/stencil2d.walls"
row "one host of 2 cores (CM02)" 4 "$(skeleton 4 "$scratch/node2.xml" --hostfile "$scratch/node2.hostfile" \
  --cfg=network/model:CM02 --cfg=network/crosstraffic:0)" "$scratch/stencil2d.walls"
fi

# --- augur against SimGrid on the TI conversions ----------------------------------------------------
((simgrid)) || exit 0
command -v smpirun >/dev/null || { echo "smpirun not found: no SimGrid table"; exit 0; }
echo
echo "| trace (TI conversion) | ranks | network model | SimGrid 3.32 smpirun -replay | augur | difference |"
echo "|---|---|---|---|---|---|"
for entry in "${programs[@]}"; do
  read -r name ranks <<<"$entry"
  ti="$scratch/ti/$name"
  rm -rf "$ti"
  if ! "$augur" convert "otf2:$scratch/traces/$name/traces.otf2" "$ti" >/dev/null 2>"$scratch/$name.convert.err"; then
    echo "| $name | $ranks | | no TI form: $(sed 's/.*error: //' "$scratch/$name.convert.err" | head -1) | | |"
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
  # Both tools on the same platform file and hostfile, under CM02 (no cross-traffic) and SMPI.
  for model in CM02 SMPI; do
    cfg=(--cfg=network/model:$model)
    [[ $model == CM02 ]] && cfg+=(--cfg=network/crosstraffic:0)
    sg=$(cd "$ti" && smpirun -no-privatize -np "$ranks" -platform platform.xml -hostfile hostfile -replay trace.txt \
      "${cfg[@]}" --cfg=smpi/display-timing:yes 2>&1 |
      sed -n 's/.*Simulated time: \([0-9.eE+-]*\) seconds.*/\1/p' | tail -1)
    A=$(predict "ti:$ti/trace.txt" "$ti/platform.xml" --hostfile "$ti/hostfile" "${cfg[@]}")
    python3 -c 'import sys; s, a = float(sys.argv[4]), float(sys.argv[5]); print(f"| {sys.argv[1]} | {sys.argv[2]} | {sys.argv[3]} | {s*1e3:.6f} ms | {a*1e3:.6f} ms | {abs(a-s)/s*100:.4f} % |")' \
      "$name" "$ranks" "$model" "$sg" "$A"
  done
done
