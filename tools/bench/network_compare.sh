#!/usr/bin/env bash
# augur against SimGrid 3.32's `smpirun -replay` on the same traces and the same platform files
# (issue 29's acceptance table, docs/network-acceptance.md): every trace of ../shared/ti-samples on
# the sample cluster (../shared/ti-samples/platform.xml), a 2-level fat tree with 2:1
# oversubscription (FAT_TREE "2;8,8;1,4;1,1"), a 4x4x4 torus (TORUS "4,4,4"), a dragonfly
# (DRAGONFLY "2,1;2,1;4,1;4") and SimGrid's small_platform.xml (routed, heterogeneous; ranks on its
# 7 hosts in file order, wrapping around), each under network/model CM02 (no cross-traffic) and
# SMPI (SimGrid's default). augur reads the same XML and hostfile (`--machine P.xml --hostfile H`
# and the same --cfg). Prints a Markdown table: trace, platform, model, SimGrid's time, augur's,
# the relative difference; then the largest difference.
#   [PLATFORMS="cluster fattree torus dragonfly small"] [MODELS="CM02 SMPI"] [SG_CACHE=FILE]
#   tools/bench/network_compare.sh AUGUR [TRACE…]
#   (default: every trace of ti-samples). SG_CACHE keeps SimGrid's times (one line per run:
#   trace platform model seconds) and reuses them: rerunning after a change of augur only
#   reruns augur.
set -euo pipefail
augur=$(realpath "${1:?usage: network_compare.sh AUGUR [TRACE...]}")
shift
here=$(cd "$(dirname "$0")/../.." && pwd)
shared=$(realpath "$here/../shared")
samples="$shared/ti-samples"
traces=("$@")
if [ ${#traces[@]} -eq 0 ]; then
  for d in "$samples"/*/; do traces+=("$(basename "$d")"); done
fi
cache=${SG_CACHE:-}
[ -z "$cache" ] || touch "$cache"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cat > "$scratch/torus.xml" <<'XML'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="torus" topology="TORUS" topo_parameters="4,4,4" prefix="node-" suffix="" radical="0-63"
           speed="1Gf" core="1" bw="10GBps" lat="0.5us" loopback_bw="10GBps" loopback_lat="0us"/>
</platform>
XML
sed -e 's/id="torus" topology="TORUS" topo_parameters="4,4,4"/id="fattree" topology="FAT_TREE" topo_parameters="2;8,8;1,4;1,1"/' \
  "$scratch/torus.xml" > "$scratch/fattree.xml"
sed -e 's/id="torus" topology="TORUS" topo_parameters="4,4,4"/id="dragonfly" topology="DRAGONFLY" topo_parameters="2,1;2,1;4,1;4"/' \
  "$scratch/torus.xml" > "$scratch/dragonfly.xml"
grep -q FAT_TREE "$scratch/fattree.xml" && grep -q DRAGONFLY "$scratch/dragonfly.xml"
small="$shared/simgrid-tesh/cases/replay_alltoall/platform.xml"
sed -n 's/.*<host id="\([^"]*\)".*/\1/p' "$small" > "$scratch/small_hosts"
[ "$(wc -l < "$scratch/small_hosts")" -eq 7 ]

platforms=(${PLATFORMS:-cluster fattree torus dragonfly small})
models=(${MODELS:-CM02 SMPI})
worst=0
printf '| trace | platform | model | SimGrid s | augur s | difference |\n|---|---|---|---|---|---|\n'
for t in "${traces[@]}"; do
  dir="$scratch/$t"
  mkdir -p "$dir"
  for f in "$samples/$t"/*.txt; do if [ -e "$f" ]; then cp "$f" "$dir/"; fi; done
  for f in "$samples/$t"/*.txt.zst; do if [ -e "$f" ]; then zstd -dqf "$f" -o "$dir/$(basename "$f" .zst)"; fi; done
  index=trace.txt
  [ -e "$dir/$index" ] || index=ti_index.txt
  np=$(grep -c . "$dir/$index")
  for platform in "${platforms[@]}"; do
    hostfile="$samples/hostfile"
    case $platform in
      cluster) xml="$samples/platform.xml" ;;
      torus | fattree | dragonfly) xml="$scratch/$platform.xml" ;;
      small) xml="$small"; hostfile="$scratch/small_hosts" ;;
      *) echo "unknown platform $platform" >&2; exit 2 ;;
    esac
    for model in "${models[@]}"; do
      cfg=(--cfg=network/model:$model)
      if [ "$model" = CM02 ]; then cfg+=(--cfg=network/crosstraffic:0); fi
      key="$t $platform $model"
      sg=""
      [ -z "$cache" ] || sg=$(awk -v k="$key" '$1" "$2" "$3 == k { print $4 }' "$cache" | tail -1)
      if [ -z "$sg" ]; then
        sg=$(cd "$dir" && nice smpirun -no-privatize -np "$np" -platform "$xml" -hostfile "$hostfile" -replay "$index" \
               "${cfg[@]}" 2>&1 | sed -n 's/.*Simulation time \([0-9.eE+-]*\).*/\1/p' | tail -1) || true
        [ -z "$cache" ] || [ -z "$sg" ] || echo "$key $sg" >> "$cache"
      fi
      au=$(nice "$augur" run --trace "ti:$dir/$index" --machine "$xml" --hostfile "$hostfile" --processors "$np" \
             "${cfg[@]}" --wait-states off --characteristics off 2>&1 |
             sed -n 's/.*predicted time \([0-9.eE+-]*\) s.*/\1/p' | head -1) || true
      if [ -z "$sg" ] || [ -z "$au" ]; then
        printf '| %s | %s | %s | %s | %s | failed |\n' "$t" "$platform" "$model" "${sg:-?}" "${au:-?}"
        worst=inf
        continue
      fi
      diff=$(awk -v a="$au" -v s="$sg" 'BEGIN { printf "%+.4f", (a - s) / s * 100 }')
      [ "$worst" = inf ] || worst=$(awk -v w="$worst" -v d="$diff" 'BEGIN { d = d < 0 ? -d : d; print (d > w ? d : w) }')
      printf '| %s | %s | %s | %s | %s | %s %% |\n' "$t" "$platform" "$model" "$sg" "$au" "$diff"
    done
  done
done
echo
echo "largest |difference|: $worst %"
