#!/usr/bin/env bash
# A single-node Slurm cluster on this machine, for CI (run as root on Debian):
#
#   scripts/slurm/ci-cluster.sh start   # installs slurm-wlm and munge if missing, starts
#                                       # munged, slurmctld and slurmd, waits for the node
#   scripts/slurm/ci-cluster.sh stop    # stops the daemons it started (by their pids)
#
# Everything but munge's key and socket lives under $TSUME_SLURM_DIR (default
# /tmp/tsume-slurm): slurm.conf, state, logs, pids. Use the cluster with
#   export SLURM_CONF=$TSUME_SLURM_DIR/slurm.conf
# No systemd, no cgroups, no accounting: proctrack/linuxproc, task/none.
set -euo pipefail
dir=${TSUME_SLURM_DIR:-/tmp/tsume-slurm}
export SLURM_CONF=$dir/slurm.conf

stop() {
  for name in slurmd slurmctld munged; do
    if [ -f "$dir/$name.pid" ]; then
      pid=$(cat "$dir/$name.pid")
      if kill -0 "$pid" 2>/dev/null; then
        kill "$pid"
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      fi
      rm -f "$dir/$name.pid"
    fi
  done
}

start() {
  if ! command -v slurmctld >/dev/null 2>&1 || ! command -v munged >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq slurm-wlm munge >/dev/null
  fi
  stop
  mkdir -p "$dir/state" "$dir/spool" "$dir/log"
  host=$(hostname -s)
  cpus=$(nproc)
  cat >"$SLURM_CONF" <<EOF
ClusterName=tsume-ci
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldPort=6817
SlurmdPort=6818
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=ci Nodes=ALL Default=YES MaxTime=60 State=UP
EOF
  # munge: the package's key, a socket directory for the munge user.
  if [ ! -s /etc/munge/munge.key ]; then
    mungekey --create --force 2>/dev/null || dd if=/dev/urandom of=/etc/munge/munge.key bs=1 count=1024 2>/dev/null
    chown munge:munge /etc/munge/munge.key
    chmod 400 /etc/munge/munge.key
  fi
  install -d -o munge -g munge -m 755 /run/munge
  install -d -o munge -g munge -m 700 /var/lib/munge /var/log/munge
  if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    runuser -u munge -- munged --pid-file=/run/munge/munged.pid
    cp /run/munge/munged.pid "$dir/munged.pid"
  fi
  munge -n | unmunge >/dev/null
  slurmctld -f "$SLURM_CONF"
  slurmd -f "$SLURM_CONF"
  # Wait for the node to be idle (slurmd registered with slurmctld).
  for _ in $(seq 120); do
    state=$(sinfo -h -N -o '%T' 2>/dev/null | head -n 1 || true)
    case $state in
      idle) echo "slurm: node $host idle ($cpus CPUs), SLURM_CONF=$SLURM_CONF"; return 0 ;;
    esac
    sleep 0.5
  done
  echo "slurm: the node did not come up (state: ${state:-none})" >&2
  tail -n 30 "$dir/log/slurmctld.log" "$dir/log/slurmd.log" >&2 || true
  return 1
}

case ${1:-} in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
