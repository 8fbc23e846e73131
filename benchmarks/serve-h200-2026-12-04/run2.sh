# Device call 2 (issue 20; 2026-12-04), right after call 1 on the same warm machine: is call 1's setsid RSS run
# (rss_hold.py, 600 s) still running? py-spy on its owner and on one front end for 5 s each, then wait for it to
# finish and bring back its RSS series, the CPU per process and the service's log tail.
#   bash benchmarks/serve-h200-2026-12-04/run2.sh
source benchmarks/serve-h200-2026-12-04/env.sh > /dev/null
O=${OUT:-/tmp/out}; mkdir -p $O; L=$O/run2.log.txt
show() { tee -a $L | cut -c1-700; }
D=benchmarks/serve-h200-2026-12-04; SPY=/tmp/site_spy/bin/py-spy
date -u | show
PID=$(python3 -c "import json; print(json.load(open('/tmp/rss/started.json'))['pid'])" 2>/dev/null)
echo "rss owner pid ${PID:-none}: $(kill -0 ${PID:-0} 2>/dev/null && echo alive || echo gone); chunks so far $(wc -l < /tmp/rss/chunks.jsonl 2>/dev/null); done.json $( [ -f /tmp/rss/done.json ] && echo yes || echo no)" | show
if kill -0 ${PID:-0} 2>/dev/null; then
  FRONT=$(pgrep -P $PID -f spawn | head -1)
  $SPY record -p $PID -d 5 -r 200 --threads --nonblocking --format raw -o /tmp/spy_owner.txt > /dev/null 2>&1
  [ -n "$FRONT" ] && $SPY record -p $FRONT -d 5 -r 200 --nonblocking --format raw -o /tmp/spy_frontend.txt > /dev/null 2>&1
  for f in /tmp/spy_owner.txt /tmp/spy_frontend.txt; do [ -f $f ] && gzip -c $f > $O/$(basename $f).gz; done
  python3 - <<'PY' 2>&1 | show
# the heaviest leaf functions and the threads' shares of py-spy's raw (folded) stacks
import collections, os
for name in ("/tmp/spy_owner.txt", "/tmp/spy_frontend.txt"):
    if not os.path.exists(name):
        continue
    leaf, thread, total = collections.Counter(), collections.Counter(), 0
    for line in open(name):
        stack, _, count = line.rstrip().rpartition(" ")
        n = int(count); total += n
        frames = stack.split(";")
        thread[frames[0][:60]] += n
        leaf[frames[-1][:110]] += n
    print(name, total, "samples; threads:", [(k, round(100 * v / total)) for k, v in thread.most_common(6)])
    for k, v in leaf.most_common(14):
        print(f"  {100 * v / total:5.1f} %  {k}")
PY
fi
while [ $SECONDS -lt 560 ] && [ ! -f /tmp/rss/done.json ] && kill -0 ${PID:-0} 2>/dev/null; do sleep 5; done
sleep 3
cat /tmp/rss/done.json 2>&1 | show
tail -5 /tmp/rss/run.log | cut -c1-300 | show
python3 $D/summarize.py rss /tmp/rss/chunks.jsonl 2>&1 | show
python3 $D/summarize.py cpu /tmp/rss/cpu.jsonl 2>&1 | show
cp /tmp/rss/chunks.jsonl $O/rss_chunks.jsonl 2>/dev/null; cp /tmp/rss/started.json $O/rss_started.json 2>/dev/null
gzip -c /tmp/rss/cpu.jsonl > $O/rss_cpu.jsonl.gz 2>/dev/null
f=/tmp/rss/serve_rss.log; [ -f $f ] && { echo "$f: $(grep -c '"code":200' $f) x200 $(grep -c '"code":503' $f) x503 $(grep -c '"code":500' $f) x500; $(grep -v '"event":"request"' $f | grep -o '"event":"[a-z_]*"' | sort | uniq -c | tr -s ' \n' ' ')" | show; { grep -v '"event":"request"' $f; grep '"event":"request"' $f | tail -1000; } | gzip > $O/rss_serve_tail.jsonl.gz; }
date -u | show
