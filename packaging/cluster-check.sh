#!/usr/bin/env bash
# make cluster-check: runs examples/slurm/campaign.sbatch, as it is, on a real one-node Slurm
# cluster (Debian's munge, slurmctld, slurmd), configured entirely in a temporary folder on
# loopback and removed after, however the check ends. It checks that a 24-job campaign over 4
# array tasks renders every job exactly once with the bytes of a one-machine run, that
# `report merge` finds the campaign whole, and that a task killed mid-render (SIGKILL, then
# `scontrol requeue`) and one stopped (SIGTERM, retried in place by the recipe) lose nothing and
# double nothing. Needs root (slurmd runs jobs as their user; munged and the daemons bind ports).
#   packaging/cluster-check.sh [SLICEVID]        (default: .build/release/slicevid)
#
# Settings chosen for a VM or container: proctrack/linuxproc and task/none track a job's
# processes through /proc, so no cgroup hierarchy has to be writable or delegated here;
# jobacct_gather/none and accounting_storage/none need no slurmdbd; the node claims 4 CPUs on
# any machine (SlurmdParameters=config_overrides) so the 4 tasks run side by side, as on a
# cluster, even on 2 cores; ports are free ones on 127.0.0.1, so a Slurm already on the
# machine is not disturbed. cred_expire=10 (default 120) is also how long Slurm holds a
# requeued task back before it may start again: 2 minutes of waiting the check does not need.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
slicevid=$(realpath "${1:-$here/.build/release/slicevid}")
recipe=$here/examples/slurm/campaign.sbatch
if [ "$(id -u)" != 0 ]; then
  echo "cluster-check: needs root (slurmd, munged); run: sudo make cluster-check" >&2
  exit 77
fi
[ -x "$slicevid" ] || { echo "cluster-check: no slicevid at $slicevid; run make build" >&2; exit 1; }
began=$(date +%s)
say() { echo "cluster-check: [$(( $(date +%s) - began )) s] $*"; }
fail() { echo "cluster-check: FAILED: $*" >&2; exit 1; }

# Debian's Slurm 22.05 and MUNGE, installed once.
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
  say "installing munge, slurmctld, slurmd, slurm-client"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends munge slurmctld slurmd slurm-client >/dev/null
fi

dir=$(mktemp -d /tmp/slicevid-cluster-check.XXXXXX)
chmod 755 "$dir"    # jobs (root here) and munged read below it
export SLURM_CONF=$dir/slurm.conf
cleanup() {
  status=$?
  trap - EXIT
  # Jobs first (their processes belong to slurmd), then the daemons, each by its own pid file.
  if [ -f "$dir/slurmctld.pid" ]; then scancel --quiet --user=root 2>/dev/null || true; fi
  for pidfile in "$dir/slurmd.pid" "$dir/slurmctld.pid" "$dir/munge/munged.pid"; do
    [ -f "$pidfile" ] || continue
    pid=$(cat "$pidfile")
    kill -TERM "$pid" 2>/dev/null || continue
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
  done
  if [ "$status" != 0 ]; then
    for log in "$dir"/slurmctld.log "$dir"/slurmd.log "$dir"/logs/*; do
      [ -f "$log" ] && { echo "--- $log (last lines)"; tail -15 "$log"; }
    done >&2
  fi
  rm -rf --one-file-system "$dir"
  exit "$status"
}
trap cleanup EXIT

# Polls `$@` every 0.1 s until it succeeds; the bound (10 minutes) only turns a hang into a failure.
wait_for() {
  local what=$1; shift
  for _ in $(seq 6000); do "$@" && return 0; sleep 0.1; done
  fail "timed out waiting for $what"
}

say "starting munged and a one-node Slurm cluster in $dir"
mkdir -p "$dir/munge" "$dir/state" "$dir/spool" "$dir/logs"
chmod 700 "$dir/munge"
head -c 1024 /dev/urandom > "$dir/munge/munge.key"
chmod 400 "$dir/munge/munge.key"
munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
  --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/munged.seed"
read -r ctld_port slurmd_port < <(python3 -c 'import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
host=$(hostname -s)
cat > "$SLURM_CONF" <<CONF
ClusterName=slicevidcheck
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket,cred_expire=10
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
ReturnToService=2
MpiDefault=none
SwitchType=switch/none
JobRequeue=1
MinJobAge=3600
KillWait=5
NodeName=$host NodeAddr=127.0.0.1 CPUs=4 RealMemory=2000 State=UNKNOWN
PartitionName=check Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
CONF
slurmctld -c
slurmd
wait_for "slurmctld" bash -c 'scontrol ping 2>/dev/null | grep -q "is UP"'
wait_for "the node to be idle" bash -c 'sinfo -h -o %T 2>/dev/null | grep -qx idle'
say "$(sinfo -h -o '%P %D node(s) %c CPUs %T') (Slurm $(sinfo -V | cut -d' ' -f2))"

# The campaign: 24 jobs over three stills slicevid draws itself, an MP4 and a poster each.
make_campaign() {
  local folder=$1
  mkdir -p "$folder/stills"
  cp "$dir/stills/"*.png "$folder/stills/"
  cp "$dir/campaign.json" "$folder/campaign.json"
}
mkdir -p "$dir/stills"
"$slicevid" make --preset spring --size 640x360 --fps 4 --hold 0 --duration 1 -o "$dir/stills/%d.png" --quiet
python3 - "$dir/campaign.json" <<'PY'
import json, sys
jobs = [{"id": f"promo-{n:02d}", "images": [f"stills/{n % 3}.png", f"stills/{(n + 2) % 5}.png"],
         "seed": n, "outputs": [f"out/promo-{n:02d}.mp4", f"out/promo-{n:02d}.jpg"]} for n in range(24)]
defaults = {"preset": "spring", "size": "640x360", "fps": 30, "hold": 0.5, "duration": 2, "end-hold": 0.5,
            "encoder-preset": "veryfast"}
json.dump({"description": "make cluster-check", "defaults": defaults, "jobs": jobs}, open(sys.argv[1], "w"), indent=1)
PY

say "the one-machine run"
make_campaign "$dir/one"
"$slicevid" batch "$dir/one/campaign.json" --quiet --report "$dir/one/report.json" || fail "the one-machine run exited $?"

# The outputs of a campaign folder as "NAME SHA256", one a line, sorted; temporaries and any
# file that is neither an output nor its sidecar show up in `others`.
hashes() { (cd "$1/out" && find . -maxdepth 1 -type f \( -name '*.mp4' -o -name '*.jpg' \) ! -name '.*' -printf '%f\n' | sort | xargs sha256sum); }
others() { (cd "$1/out" && find . -mindepth 1 ! \( -type f \( -name 'promo-??.mp4' -o -name 'promo-??.jpg' -o -name '.promo-??.mp4.slicevid.json' -o -name '.promo-??.jpg.slicevid.json' \) \) -printf '%P\n'); }
expected_outputs=48
[ "$(hashes "$dir/one" | wc -l)" = $expected_outputs ] || fail "the one-machine run wrote $(hashes "$dir/one" | wc -l) outputs, not $expected_outputs"

# Submits the recipe as it is over the campaign in $1 (4 tasks of 1 CPU; its other settings are
# the file's), prints the array's job id.
submit() {
  CAMPAIGN=$1 RETRY_SECONDS=1 PATH="$(dirname "$slicevid"):$PATH" \
    sbatch --parsable --array=0-3 --cpus-per-task=1 --output="$dir/logs/%A_%a.log" --chdir="$1" "$recipe"
}
# Task states of array $1 as "TASK STATE EXITCODE" lines (finished tasks stay known for MinJobAge).
# A task not yet started may show as a range ("2-3 PENDING"), which is never finished.
states() { scontrol show job "$1" -o 2>/dev/null | sed -n 's/.* ArrayTaskId=\([^ ]*\) .* JobState=\([^ ]*\) .* ExitCode=\([^ ]*\) .*/\1 \2 \3/p' | sort -n; }
finished() { ! states "$1" | grep -qvE ' (COMPLETED|FAILED|CANCELLED|TIMEOUT|OUT_OF_MEMORY|NODE_FAIL) '; }
# Checks the campaign in $1 against the one-machine run and merges its reports.
check_campaign() {
  local folder=$1 name=$2
  while read -r task state code; do
    [ "$state $code" = "COMPLETED 0:0" ] || fail "$name: array task $task ended $state, exit $code"
  done < <(states "$3")
  diff <(hashes "$dir/one") <(hashes "$folder") >/dev/null || fail "$name: outputs differ from the one-machine run: $(diff <(hashes "$dir/one") <(hashes "$folder") | head -3)"
  [ -z "$(others "$folder")" ] || fail "$name: left in out/: $(others "$folder" | head -5 | tr '\n' ' ')"
  [ "$(cd "$folder/reports" && ls -A | tr '\n' ' ')" = "shard-0.json shard-1.json shard-2.json shard-3.json " ] \
    || fail "$name: reports/ holds $(cd "$folder/reports" && ls -A | tr '\n' ' ')"
  "$slicevid" report merge "$folder"/reports/shard-*.json -o "$folder/campaign-report.json" || fail "$name: report merge exited $?"
  python3 - "$dir/one/report.json" "$folder/campaign-report.json" <<'PY' || fail "$name: the merged report does not match the one-machine run"
import json, sys
one, merged = (json.load(open(path)) for path in sys.argv[1:])
ids = [job["id"] for job in one["jobs"]]
assert [job["id"] for job in merged["jobs"]] == ids, "job list"
assert len(set(ids)) == len(ids) == merged["manifest_jobs"] == 24, "jobs once each"
assert merged["status"] == "ok" and not merged["problems"] and not merged["missing_shards"], merged["problems"]
assert all(job["status"] in ("rendered", "skipped") for job in merged["jobs"])
assert [[o["fingerprint"] for o in job["outputs"]] for job in merged["jobs"]] == [[o["fingerprint"] for o in job["outputs"]] for job in one["jobs"]]
PY
}

say "1. the recipe over 4 array tasks"
make_campaign "$dir/array"
job=$(submit "$dir/array")
wait_for "array job $job to finish" finished "$job"
check_campaign "$dir/array" "array job $job" "$job"
say "   $(states "$job" | tr '\n' ';' | sed 's/;$//; s/;/; /g')"
say "   48 outputs byte for byte the one-machine run's; report merge: whole, 24 jobs once each"

say "2. one task killed mid-render (SIGKILL, then scontrol requeue), one stopped (SIGTERM, retried in place)"
make_campaign "$dir/killed"
job=$(submit "$dir/killed")
# The slicevid of array task $1 of $job: found by the environment Slurm gave it, not by name.
slicevid_of() {
  local proc
  for proc in /proc/[0-9]*; do
    [ "$(cat "$proc/comm" 2>/dev/null)" = slicevid ] || continue
    tr '\0' '\n' < "$proc/environ" 2>/dev/null | grep -qx "SLURM_ARRAY_JOB_ID=$job" || continue
    tr '\0' '\n' < "$proc/environ" 2>/dev/null | grep -qx "SLURM_ARRAY_TASK_ID=$1" || continue
    echo "${proc#/proc/}"
    return 0
  done
  return 1
}
# Mid-render: the task's slicevid has finished a job (its log says so) and holds a temporary
# named with its pid.
mid_render() {
  local pid
  grep -q ': rendered, ' "$dir/logs/${job}_$1.log" 2>/dev/null || return 1
  pid=$(slicevid_of "$1") || return 1
  compgen -G "$dir/killed/out/.*.slicevid-$pid-*" >/dev/null
}
# The two tasks with the most jobs, so each has jobs left when it is stopped.
read -r killed stopped < <(python3 - "$dir/killed/campaign.json" <<'PY'
import hashlib, json, sys
ids = [job["id"] for job in json.load(open(sys.argv[1]))["jobs"]]
shard = lambda i: (int(hashlib.sha256(i.encode()).hexdigest()[:16], 16) * 4) >> 64
sizes = sorted(range(4), key=lambda k: -sum(shard(i) == k for i in ids))
print(sizes[0], sizes[1])
PY
)
wait_for "array task $killed to be mid-render" mid_render "$killed"
pid=$(slicevid_of "$killed")
temporaries=$(cd "$dir/killed/out" && compgen -G ".*.slicevid-$pid-*" | tr '\n' ' ')
done_before=$(cd "$dir/killed/out" && ls -1 promo-* | sort)
stamps_before=$(cd "$dir/killed/out" && stat -c '%n %i %Y' $done_before)
kill -KILL "$pid"
say "   task $killed: SIGKILL to slicevid (pid $pid) while it wrote $temporaries"
wait_for "array task $stopped to be mid-render" mid_render "$stopped"
spid=$(slicevid_of "$stopped")
kill -TERM "$spid"
say "   task $stopped: SIGTERM to slicevid (pid $spid)"
wait_for "task ${job}_$killed to fail" bash -c "scontrol show job ${job}_$killed -o | grep -q 'JobState=FAILED'"
scontrol requeue "${job}_$killed"
say "   task $killed: ended FAILED (137 is not worth a retry in place); scontrol requeue ${job}_$killed"
wait_for "task ${job}_$killed to run again" bash -c "scontrol show job ${job}_$killed -o | grep -qE 'JobState=(RUNNING|COMPLETED)'"
say "   task $killed: running again"
wait_for "array job $job to finish" finished "$job"
check_campaign "$dir/killed" "array job $job" "$job"
grep -q "campaign.sbatch: slicevid exited 143, worth a retry" "$dir/logs/${job}_$stopped.log" \
  || fail "task $stopped's log does not show the recipe retrying after SIGTERM"
# What the killed task had finished was kept, not rendered again: same files, same inodes and times.
[ "$(cd "$dir/killed/out" && stat -c '%n %i %Y' $done_before)" = "$stamps_before" ] \
  || fail "outputs finished before the kill were rewritten"
skipped=$(python3 -c 'import json,sys; print(sum(j["status"] == "skipped" for j in json.load(open(sys.argv[1]))["jobs"]))' "$dir/killed/reports/shard-$killed.json")
say "   $(states "$job" | tr '\n' ';' | sed 's/;$//; s/;/; /g')"
say "   task $killed's second run skipped the $skipped job(s) it had finished; no temporaries left; outputs byte for byte the one-machine run's; report merge: whole"
say "passed in $(( $(date +%s) - began )) s"
