#!/usr/bin/env bash
# augur's flow_network model against SimGrid 3.32's `smpirun -replay` on the same traces and the
# same platforms (docs/network.md): the sample cluster (../shared/ti-samples/platform.xml,
# machines/library/platform_cluster_64_flow.yaml), a 4x4x4 torus (a SimGrid TORUS cluster,
# torus_4x4x4.yaml), a 2-level fat tree with 2:1 oversubscription (FAT_TREE "2;8,8;1,4;1,1",
# platform_fat_tree_64.yaml) and a dragonfly (DRAGONFLY "2,1;2,1;4,1;4",
# platform_dragonfly_64.yaml), each under network/model CM02 (no cross-traffic) and SMPI
# (SimGrid's default). Prints a table: trace, platform, model, SimGrid's time, augur's, the
# relative difference.
#   [PLATFORMS="fattree dragonfly"] tools/bench/network_compare.sh AUGUR [TRACE…]
#   (default: every platform; the PRK samples of 4 and 8 ranks)
set -euo pipefail
augur=$(realpath "${1:?usage: network_compare.sh AUGUR [TRACE...]}")
shift
here=$(cd "$(dirname "$0")/../.." && pwd)
shared=$(realpath "$here/../shared")
traces=("$@")
[ ${#traces[@]} -gt 0 ] || traces=(prk-stencil-4 prk-transpose-4 prk-p2p-4 prk-stencil-8 prk-transpose-8 prk-p2p-8)
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
platforms=(${PLATFORMS:-cluster torus fattree dragonfly})
printf '| trace | platform | model | SimGrid s | augur s | difference |\n|---|---|---|---|---|---|\n'
for t in "${traces[@]}"; do
  dir="$scratch/$t"
  mkdir -p "$dir"
  for f in "$shared/ti-samples/$t"/rank*.txt.zst; do zstd -dqf "$f" -o "$dir/$(basename "$f" .zst)"; done
  cp "$shared/ti-samples/$t/trace.txt" "$dir/"
  np=$(wc -l < "$dir/trace.txt")
  for platform in "${platforms[@]}"; do
    case $platform in
      cluster) xml="$shared/ti-samples/platform.xml"; yaml=platform_cluster_64_flow ;;
      torus) xml="$scratch/torus.xml"; yaml=torus_4x4x4 ;;
      fattree) xml="$scratch/fattree.xml"; yaml=platform_fat_tree_64 ;;
      dragonfly) xml="$scratch/dragonfly.xml"; yaml=platform_dragonfly_64 ;;
    esac
    for model in CM02 SMPI; do
      cfg=(--cfg=network/model:$model)
      set_=(--set machine.network_model=$model)
      if [ "$model" = CM02 ]; then cfg+=(--cfg=network/crosstraffic:0); set_+=(--set machine.crosstraffic=false); fi
      sg=$(cd "$dir" && smpirun -np "$np" -platform "$xml" -hostfile "$shared/ti-samples/hostfile" -replay trace.txt \
             "${cfg[@]}" 2>&1 | sed -n 's/.*Simulation time \([0-9.eE+-]*\).*/\1/p' | tail -1)
      au=$("$augur" run --trace "ti:$dir/trace.txt" --machine "$yaml" "${set_[@]}" --wait-states off \
             --characteristics off 2>&1 | sed -n 's/.*predicted time \([0-9.eE+-]*\) s.*/\1/p' | head -1)
      diff=$(awk -v a="$au" -v s="$sg" 'BEGIN { printf "%+.4f %%", (a - s) / s * 100 }')
      printf '| %s | %s | %s | %s | %s | %s |\n' "$t" "$platform" "$model" "$sg" "$au" "$diff"
    done
  done
done
