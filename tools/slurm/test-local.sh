#!/bin/bash
# The sharded sweep on a real Slurm: starts munged, slurmctld and slurmd as a one-node cluster on
# localhost (its own slurm.conf, ports, state, spool and logs in a temporary folder; as root or
# as the user running it), submits the 16-variant sweep as an array of 4 with
# augur-sweep.sbatch, waits for the merge job and compares its reports with a single
# `augur run`. Every daemon it started is stopped by its process id on exit.
#
#   tools/slurm/test-local.sh AUGUR
#
# Exit status 0: the reports are the same bytes; 1: they are not, or a job failed; 77: the
# cluster could not start here (no Slurm or munge installed, not permitted): SKIPPED, said on
# standard output (CTest's SKIP_RETURN_CODE).
set -u

augur=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
scenario=$here/../../tests/tools/fixtures/sweep16.yaml
skip=77
deadline=$((SECONDS + 50))

say() { echo "test-local: $*"; }
skipped() {
  say "SKIPPED: $*"
  exit $skip
}

for tool in munged slurmctld slurmd sbatch scontrol sinfo; do
  command -v "$tool" > /dev/null || skipped "$tool is not installed (Debian: slurm-wlm, munge)"
done

dir=$(mktemp -d "${TMPDIR:-/tmp}/augur-slurm.XXXXXX")
chmod 700 "$dir"
pids=()
stop() {
  local pid
  for pid in "${pids[@]}"; do kill "$pid" 2> /dev/null; done
  for pid in "${pids[@]}"; do
    for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$pid" 2> /dev/null || break; sleep 0.2; done
    kill -9 "$pid" 2> /dev/null
  done
  rm -rf "$dir"
}
trap stop EXIT
trap 'exit 1' INT TERM

# Two free TCP ports on the loopback interface.
free_port() {
  local p
  while :; do
    p=$((20000 + RANDOM % 30000))
    if ! (echo > "/dev/tcp/127.0.0.1/$p") 2> /dev/null; then
      echo "$p"
      return
    fi
  done
}
ctld_port=$(free_port)
slurmd_port=$(free_port)
while [ "$slurmd_port" = "$ctld_port" ]; do slurmd_port=$(free_port); done

user=$(id -un)
node=$(hostname -s)
cpus=$(nproc)
mkdir -p "$dir/state" "$dir/spool" "$dir/out"
chmod 700 "$dir/state" "$dir/spool"

# munge: a key of its own and a socket in the folder.
dd if=/dev/urandom of="$dir/munge.key" bs=1024 count=1 status=none
chmod 400 "$dir/munge.key"
munged --foreground --force --socket="$dir/munge.sock" --key-file="$dir/munge.key" \
  --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munged.seed" \
  > "$dir/munged.out" 2>&1 &
pids+=($!)

cat > "$dir/slurm.conf" << EOF
ClusterName=augurtest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge.sock
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SwitchType=switch/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
SlurmdParameters=config_overrides
PlugStackConfig=$dir/plugstack.conf
MinJobAge=300
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=augur Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
: > "$dir/plugstack.conf"
export SLURM_CONF=$dir/slurm.conf

for _ in $(seq 50); do [ -S "$dir/munge.sock" ] && break; sleep 0.1; done
[ -S "$dir/munge.sock" ] || skipped "munged did not start: $(tail -n 3 "$dir/munged.out" "$dir/munged.log" 2> /dev/null)"

slurmctld -D -i -f "$dir/slurm.conf" > "$dir/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -N "$node" -f "$dir/slurm.conf" > "$dir/slurmd.out" 2>&1 &
pids+=($!)

# The node is up when sinfo says idle.
up=
for _ in $(seq 100); do
  if sinfo -h -N -o '%t' 2> /dev/null | grep -q '^idle'; then
    up=1
    break
  fi
  for pid in "${pids[@]}"; do kill -0 "$pid" 2> /dev/null || break 2; done
  sleep 0.2
done
if [ -z "$up" ]; then
  skipped "the one-node cluster did not start: $(tail -n 2 "$dir/slurmctld.log" "$dir/slurmd.log" "$dir/slurmctld.out" \
    "$dir/slurmd.out" 2> /dev/null | tr '\n' ' ')"
fi
say "cluster up: slurmctld on 127.0.0.1:$ctld_port, slurmd $node:$slurmd_port, $cpus CPUs, as $user, in $dir"
sinfo

# The single-process run, then the sweep on Slurm.
mkdir -p "$dir/single"
"$augur" run "$scenario" --text "$dir/single/report.txt" --json "$dir/single/report.json" \
  --html "$dir/single/report.html" --csv "$dir/single/sweep.csv" --sweep-json "$dir/single/sweep.json" > /dev/null ||
  { say "FAILED: the single run"; exit 1; }
submitted=$(AUGUR=$augur sh "$here/augur-sweep.sbatch" "$scenario" 4 "$dir/out") ||
  { say "FAILED: submission"; exit 1; }
say "$submitted"
merge=$(echo "$submitted" | sed -n 's/.*merge job \([0-9]*\).*/\1/p')
array=$(echo "$submitted" | sed -n 's/^array job \([0-9]*\).*/\1/p')
state=
while [ $SECONDS -lt $deadline ]; do
  state=$(scontrol show job "$merge" 2> /dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
  case $state in COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY) break ;; esac
  sleep 0.5
done
scontrol show job "$array" 2> /dev/null | grep -E 'JobId=|JobState=' | sed 's/^ */  /'
say "merge job $merge: ${state:-unknown}"
for f in "$dir"/out/shard-*.log "$dir/out/merge.log"; do
  [ -s "$f" ] && { say "$(basename "$f"):"; head -n 3 "$f"; }
done
[ "$state" = COMPLETED ] || { say "FAILED: the merge job did not complete"; tail -n 20 "$dir/slurmctld.log"; exit 1; }

status=0
for f in report.txt report.json report.html sweep.csv sweep.json; do
  if cmp -s "$dir/single/$f" "$dir/out/$f"; then
    say "$f: the same $(wc -c < "$dir/out/$f") bytes as the single run"
  else
    say "FAILED: $f differs from the single run"
    status=1
  fi
done
[ $status = 0 ] && say "passed: 16 variants as an array of 4 on Slurm, merged, byte-identical"
exit $status
