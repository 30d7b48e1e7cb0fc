#!/usr/bin/env bash
# Re-records the OTF2 traces of tools/otf2/programs/ with EZTrace (Debian 12's eztrace, module
# openmpi) under Open MPI on this machine, and stores each archive as tests/data/otf2/NAME.tar.zst.
#   tools/otf2/record.sh [OUT_DIR [NAME...]]   (default: tests/data/otf2 of this repository, every
#   program; NAME...: only those, e.g. to add a program without changing the traces tests pin)
#   RECORD_RANKS=N in the environment: every program at N ranks instead of its own count
#   (tools/validate/validate.sh --ranks N; not for tests/data/otf2, whose counts tests pin)
# Needs: eztrace, openmpi-bin, libopenmpi-dev (mpicc), zstd.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-$root/tests/data/otf2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
# name, ranks[, source program when not NAME.c]
programs=("ping_pong 2" "stencil2d 4" "subcomm 4" "prk_transpose 4" "prk_p2p 4" "npb_cg 4"
  "stencil2d_2p 2 stencil2d")
only=" ${*:2} "
for entry in "${programs[@]}"; do
  read -r name ranks source <<<"$entry"
  ranks=${RECORD_RANKS:-$ranks}
  [[ $# -le 1 || "$only" == *" $name "* ]] || continue
  mpicc -O2 -o "$work/$name" "$here/programs/${source:-$name}.c" -lm
  mpirun --allow-run-as-root --oversubscribe -np "$ranks" \
    eztrace -t openmpi -o "$work/$name-raw" "$work/$name" >/dev/null
  # EZTrace writes OUT/<program>_trace/eztrace_log.otf2; keep it as NAME/traces.otf2 and friends.
  src="$work/$name-raw/${name}_trace"
  mkdir -p "$work/$name-archive/$name"
  cp "$src/eztrace_log.otf2" "$work/$name-archive/$name/traces.otf2"
  cp "$src/eztrace_log.def" "$work/$name-archive/$name/traces.def"
  cp -r "$src/eztrace_log" "$work/$name-archive/$name/traces"
  tar -C "$work/$name-archive" --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -cf - "$name" |
    zstd -q -19 -f -o "$out/$name.tar.zst"
  echo "record.sh: $out/$name.tar.zst ($ranks ranks)"
done
