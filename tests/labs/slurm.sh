#!/bin/sh
# slurm.sh — warplab --grade DIR --slurm on a real single-node Slurm: the test
# installs Debian's slurm-wlm and munge when they are missing (as root), starts
# munged, slurmctld and slurmd with a configuration of its own (its folder,
# its ports, localhost), grades a generated class of 45 submissions as a job
# array of 5 tasks, and checks that the report is the one --grade DIR makes
# without Slurm; then the same with hostile submissions beside them (#28): a
# lab that spins, files the grader refuses, a link up, and --lab FILE hold in
# every task as without Slurm. SKIP when Slurm is missing and cannot be installed.
warplab=${WARPLAB:-./warplab}
srcdir=${srcdir:-.}
answers=$srcdir/tests/labs/answers
hostile=$(cd "$srcdir/tests/labs/hostile/submissions" && pwd)
. "${srcdir:-.}/tests/lib/tap.sh"
skip_all() { echo "1..0 # SKIP $1"; exit 0; }

if ! command -v sbatch > /dev/null || ! command -v munged > /dev/null; then
  [ "$(id -u)" = 0 ] || skip_all "Slurm is not installed and only root can install it (apt-get install slurm-wlm munge)"
  export DEBIAN_FRONTEND=noninteractive
  { apt-get install -y -q slurm-wlm munge || { apt-get update -q && apt-get install -y -q slurm-wlm munge; }; } > /dev/null 2>&1 ||
    skip_all "apt-get could not install slurm-wlm and munge"
fi
[ "$(id -u)" = 0 ] || skip_all "slurmd runs jobs as their users: starting it takes root"

tmp=$(mktemp -d)
stop() {
  for daemon in slurmd slurmctld munged; do
    [ -s "$tmp/$daemon.pid" ] && kill "$(cat "$tmp/$daemon.pid")" 2> /dev/null
  done
  sleep 1
  rm -rf "$tmp"
}
trap stop EXIT

# munge, with a key and a socket of its own
mkdir -p "$tmp/munge" "$tmp/state" "$tmp/spool"
chmod 700 "$tmp/munge"
dd if=/dev/urandom of="$tmp/munge.key" bs=1024 count=1 2> /dev/null
chmod 400 "$tmp/munge.key"
munged --force --key-file="$tmp/munge.key" --socket="$tmp/munge/socket" --pid-file="$tmp/munged.pid" \
  --log-file="$tmp/munged.log" --seed-file="$tmp/munged.seed"
result "munged starts" $?

host=$(hostname -s)
port=$((20000 + $$ % 20000))
cat > "$tmp/slurm.conf" <<CONF
ClusterName=warplab-test
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/socket
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
SlurmctldPort=$port
SlurmdPort=$((port + 1))
ReturnToService=2
MpiDefault=none
NodeName=$host CPUs=$(nproc) RealMemory=1000 State=UNKNOWN
PartitionName=warplab Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$tmp/slurm.conf"
slurmctld -f "$SLURM_CONF" && slurmd -f "$SLURM_CONF"
result "slurmctld and slurmd start" $?
for i in $(seq 1 30); do
  sinfo -h -o %T 2> /dev/null | grep -q idle && break
  sleep 1
done
sinfo -h -o %T | grep -q idle
result "the node is idle within 30 s" $?
[ $? = 0 ] || { tail -5 "$tmp/slurmctld.log" "$tmp/slurmd.log" | sed 's/^/#   /'; tap_done; exit 1; }

# A class of 45: four real runs, and 41 generated from them with answers of their own.
export XDG_DATA_HOME="$tmp/data"
class=$tmp/class
mkdir -p "$class/base" "$class/generated"
"$warplab" --sim --student alice --lab coalescing --answers "$answers/coalescing.txt" --submit "$class/base" > /dev/null 2>&1
sed '2s/.*/5/' "$answers/coalescing.txt" > "$tmp/bob.txt"
"$warplab" --sim --student bob --lab coalescing --answers "$tmp/bob.txt" --submit "$class/base" > /dev/null 2>&1
"$warplab" --sim --student carol -e "local labs = debug.getregistry()['warplab.core'].labs
  labs.open('coalescing'); labs.next(); labs.run(); labs.answer('8'); labs.submit('$class/base')" > /dev/null 2>&1
"$warplab" --sim --student erin --lab own-kernel --answers "$answers/own-kernel.txt" --submit "$class/base" > /dev/null 2>&1
"$warplab" --sim -e "
  local core = debug.getregistry()['warplab.core']
  local function read(name) return require[[warplab.json]].decode(io.open('$class/base/' .. name):read('a')) end
  local bases = { read('coalescing-alice.json'), read('coalescing-bob.json'), read('coalescing-carol.json'),
                  read('own-kernel-erin.json') }
  for k = 1, 41 do
    local d = bases[k % #bases + 1]
    d.student = string.format('s%02d', k)
    for _, s in ipairs(d.steps) do   -- every fifth student changes a question's answer
      local last = s.attempts and s.attempts[#s.attempts]
      if last and s.kind == 'question' and k % 5 == 0 then last.answer = tostring(k % 7) end
    end
    core.write_file(string.format('$class/generated/%s-%s.json', d.lab.name, d.student), require[[warplab.json]].encode(d, 2))
  end" > "$tmp/generate.out" 2>&1
submissions=$(find "$class" -name '*.json' | wc -l)
[ "$submissions" = 45 ]
result "45 submissions made ($submissions)" $?

cd "$tmp" || exit 1
started=$(date +%s)
"$warplab" --sim --grade class --report plain > "$tmp/plain.out" 2>&1
result "--grade without Slurm" $?
plain_seconds=$(($(date +%s) - started))
timeout 600 "$warplab" --sim --grade class --report on-slurm --slurm "--time=10" > "$tmp/slurm.out" 2>&1
status=$?
sed 's/^/#   /' "$tmp/slurm.out"
[ $status = 0 ] && grep -q "^Grading on Slurm: 5 tasks for 45 students: sbatch --wait --parsable --array=0-4" "$tmp/slurm.out" &&
  grep -q "^Merged the 5 slices of job [0-9]*\." "$tmp/slurm.out"
result "--grade --slurm submits a job array of 5 tasks through sbatch and merges their slices" $?
[ "$(ls on-slurm/slurm/task-*.out 2> /dev/null | wc -l)" = 5 ] && [ "$(ls on-slurm/slurm/slice-*.json | wc -l)" = 5 ] &&
  grep -q "^slice 0 of 5: 9 submissions graded" on-slurm/slurm/task-0.out
result "each task graded its slice on the node (task-N.out, slice-N.json)" $?
[ -z "$(squeue -h -u root 2> /dev/null)" ]
result "squeue shows no job left" $?
cmp -s plain/grades.csv on-slurm/grades.csv
result "grades.csv is the same with and without Slurm" $?
grep -v '"graded": "' plain/grades.json > plain.json; grep -v '"graded": "' on-slurm/grades.json > on-slurm.json
cmp -s plain.json on-slurm.json
result "grades.json is the same with and without Slurm (but for when it was graded)" $?
[ $? = 0 ] || diff plain.json on-slurm.json | head -10 | sed 's/^/#   /'
[ "$(grep -c ',wrong,' plain/grades.csv)" -gt 5 ] && grep -q ',missing,' plain/grades.csv && grep -q '^s40,' plain/grades.csv
result "... a class with right, wrong and missing answers" $?

# The same rules in each task: the hostile submissions of tests/labs/grade.sh, a
# lab whose answer function never returns, a link up, and a lab given with
# --lab FILE. Each submission may take what the whole class took here, twice,
# and 5 s (a loaded machine takes many times longer): whichever stops the
# spinning lab first, that deadline or the sandbox's budget, grades it alike.
limit=$((2 * plain_seconds + 5))
mkdir -p hostile-class
cp -r class/. hostile-class/
cp "$hostile"/*.json hostile-class/
ln -s .. hostile-class/up
printf '4\n' > path.txt
for s in p1 p2; do
  "$warplab" --sim --student $s --lab "$hostile/labs/pathlab.lua" --answers path.txt --submit hostile-class > /dev/null 2>&1
done
export WARPLAB_LABS_PATH="$hostile/labs"
grade_hostile() {   # grade_hostile REPORT [OPTIONS...]: exit status; REPORT.out, REPORT.err
  report=$1; shift
  "$warplab" --sim --grade hostile-class --report "$report" --lab "$hostile/labs/pathlab.lua" --time-limit $limit "$@" \
    > "$report.out" 2> "$report.err"
}
grade_hostile hostile-plain
plain_status=$?
grade_hostile hostile-slurm --slurm "--time=10"
slurm_status=$?
unset WARPLAB_LABS_PATH
sed 's/^/#   /' hostile-slurm.out hostile-slurm.err | head -20
stopped_as_one() {   # the deadline's reason and the sandbox's read alike
  sed -E "s/\"?grading stopped( after [0-9]+ s: it ran past its $limit s of (CPU|wall) time \(--time-limit\)|: lab spinlab, step 1: the lab's (code|launches) ran too long \([^)]*\))\"?/grading stopped/" "$1"
}
[ $plain_status = 1 ] && [ $slurm_status = 1 ] && grep -q "^Merged the 5 slices" hostile-slurm.out &&
  [ "$(stopped_as_one hostile-plain.err | sort)" = "$(stopped_as_one hostile-slurm.err | sort)" ] && [ "$(wc -l < hostile-slurm.err)" = 8 ] &&
  [ "$(stopped_as_one hostile-plain/grades.csv)" = "$(stopped_as_one hostile-slurm/grades.csv)" ]
hostile_same=$?
if [ $hostile_same != 0 ]; then   # what differed, for a run that fails where no one watches (CI)
  echo "#   exit $plain_status without Slurm, $slurm_status with; $(wc -l < hostile-slurm.err) problem lines with Slurm"
  stopped_as_one hostile-plain.err | sort > plain.err.sorted; stopped_as_one hostile-slurm.err | sort > slurm.err.sorted
  diff plain.err.sorted slurm.err.sorted | head -20 | sed 's/^/#   /'
  stopped_as_one hostile-plain/grades.csv > plain.csv.stopped; stopped_as_one hostile-slurm/grades.csv > slurm.csv.stopped
  diff plain.csv.stopped slurm.csv.stopped | head -10 | sed 's/^/#   /'
fi
result "hostile files: the same problem lines and grades.csv with and without Slurm, exit 1" $hostile_same
grep -q '^aaa-spin,spinlab,1,question,.*,stopped,.*grading stopped' hostile-slurm/grades.csv &&
  grep -q 'spinlab-aaa-spin.json: grading stopped' hostile-slurm.err &&
  [ "$(grep -c '^p[12],pathlab,1,question,.*,right,right,true,4,' hostile-slurm/grades.csv)" = 2 ] &&
  grep -q "lab-path.json: its lab is named by a path" hostile-slurm.err && grep -q "hostile-class/up: a symbolic link" hostile-slurm.err &&
  ! grep -q "$(printf '\033')" hostile-slurm.out hostile-slurm.err hostile-slurm/grades.csv hostile-slurm/report.html
result "in a task: a spinning lab stopped (by its deadline or the sandbox), --lab FILE used, a lab path refused, no link followed, no escape" $?

"$warplab" --sim --grade class --report bad --slurm "--partition=no_such_partition" > "$tmp/bad.out" 2>&1
[ $? = 1 ] && grep -q "sbatch did not finish the job" "$tmp/bad.out"
result "an sbatch that refuses the job: one line with what sbatch said" $?
sed 's/^/#   /' "$tmp/bad.out" | tail -2

tap_done
