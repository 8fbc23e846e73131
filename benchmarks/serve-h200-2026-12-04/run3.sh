# Device call 3 (issue 20; 2026-12-04), a second machine start after the 12 part calls, with .whl carried: is the
# owner's two inference workers what caps the service? Batch 8 with --workers 3, 2 (the control) and 4, batch 16
# with 3, each on cores 0-11 with 8 front ends and 4 aiohttp load processes on 12-15; then py-spy on the owner
# for 4 s of a saturated batch-8 step (workers 2; that step is not measured).
#   bash benchmarks/serve-h200-2026-12-04/run3.sh
source benchmarks/serve-h200-2026-12-04/env.sh
O=${OUT:-/tmp/out}; mkdir -p $O; L=$O/run3.log.txt
show() { grep -v "plugin EP" | grep -v "GPU memory pressure" | tee -a $L | cut -c1-700; }
D=benchmarks/serve-h200-2026-12-04; SPY=/tmp/site_spy/bin/py-spy
date -u | show; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | show
S="--data .gpubench/tagset --saturate-s 5 --measure-s 5 --step-s 3 --queue 32 --client aiohttp --offer 3000 --clients 4 --client-cpus 12-15 --server-cpus 0-11 --overload-s 0"
for spec in "8 3" "8 2" "8 4" "16 3"; do
  set -- $spec
  mkdir -p /tmp/l_b$1_w$2
  timeout 110 python3 benchmarks/gpu_serve.py $S --logs /tmp/l_b$1_w$2 --out $O/C_b$1_w$2.json --batches $1 \
    --serve-args "--jpeg-decode gpu --cuda-graph --frontends 8 --workers $2" 2>&1 | sed "s/^/w$2 /" | show
done
mkdir -p /tmp/l_spy
( for i in $(seq 1 300); do grep -q '"event":"ready"' /tmp/l_spy/serve_b8.log 2>/dev/null && break; sleep 0.5; done
  OWNER=$(pgrep -f "inference.cli serve" | head -1); sleep 5
  $SPY record -p $OWNER -d 4 -r 200 --threads --nonblocking --format raw -o /tmp/spy_sat.txt > /dev/null 2>&1 ) &
timeout 100 python3 benchmarks/gpu_serve.py ${S/--step-s 3/--step-s 0} --saturate-s 10 --measure-s 2 --logs /tmp/l_spy --out /tmp/spy_run.json --batches 8 \
  --serve-args "--jpeg-decode gpu --cuda-graph --frontends 8 --workers 2" 2>&1 | sed "s/^/profiled /" | show
wait
gzip -c /tmp/spy_sat.txt > $O/spy_owner_saturated.txt.gz 2>/dev/null
python3 - <<'PY' 2>&1 | show
import collections, os
name = "/tmp/spy_sat.txt"
if os.path.exists(name):
    leaf, thread, total = collections.Counter(), collections.Counter(), 0
    per_thread_leaf = collections.defaultdict(collections.Counter)
    for line in open(name):
        stack, _, count = line.rstrip().rpartition(" ")
        n = int(count); total += n
        frames = stack.split(";")
        thread[frames[0][:50]] += n
        leaf[frames[-1][:110]] += n
        per_thread_leaf[frames[0][:50]][frames[-1][:100]] += n
    print(name, total, "samples (4 s at 200 Hz: 800 = one thread always busy); threads:", [(k, v) for k, v in thread.most_common(6)])
    for t, c in per_thread_leaf.items():
        print(" ", t, [(k, v) for k, v in c.most_common(8)])
PY
for d in /tmp/l_*; do for f in $d/serve_b*.log; do [ -f $f ] && echo "$f: $(grep -c '"code":200' $f) x200 $(grep -c '"code":503' $f) x503 $(grep -c '"code":500' $f) x500; $(grep -v '"event":"request"' $f | grep -o '"event":"[a-z_]*"' | sort | uniq -c | tr -s ' \n' ' ')" | show; done; done
date -u | show
