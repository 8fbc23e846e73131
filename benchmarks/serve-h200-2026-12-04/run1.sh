# Device call 1 (issue 20; 2026-12-04), after the 12 part calls (the last one sources env.sh), with .whl carried:
#   A. the fifteenth session's best configuration on its own 8 cores (service 0-7, front ends 6 x workers 2), batch 8,
#      now loaded by 4 aiohttp processes on cores 8-11: this machine start's pace against 2026-12-03's 1 402/s;
#   B. the service on 12 cores (0-11, front ends 8 x workers 2), 4 aiohttp load processes on 12-15: batch 1, 8, 16,
#      then the overload test at 2x the best sustainable rate; CPU per serve process sampled every second;
#   C. a 600 s RSS run started with setsid at 80 % of B's best, left running for call 2 to read.
#   bash benchmarks/serve-h200-2026-12-04/run1.sh
source benchmarks/serve-h200-2026-12-04/env.sh
O=${OUT:-/tmp/out}; mkdir -p $O; L=$O/run1.log.txt
show() { grep -v "plugin EP" | grep -v "GPU memory pressure" | tee -a $L | cut -c1-700; }
D=benchmarks/serve-h200-2026-12-04
date -u | show; nproc | show; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | show
S="--data .gpubench/tagset --saturate-s 5 --measure-s 5 --step-s 3 --queue 32 --client aiohttp"
rm -f /tmp/serve_b*.log /tmp/serve_overload.log
timeout 110 python3 benchmarks/gpu_serve.py $S --offer 2500 --clients 4 --client-cpus 8-11 --server-cpus 0-7 \
  --out $O/A_fe6_cores8.json --batches 8 --overload-s 0 \
  --serve-args "--jpeg-decode gpu --cuda-graph --frontends 6 --workers 2" 2>&1 | show
mv /tmp/serve_b8.log /tmp/A_serve_b8.log 2>/dev/null
python3 $D/cpu_sample.py --seconds 330 > /tmp/cpu_B.jsonl 2>/dev/null & CPUPID=$!
timeout 330 python3 benchmarks/gpu_serve.py $S --offer 3000 --clients 4 --client-cpus 12-15 --server-cpus 0-11 \
  --out $O/B_fe8_cores12.json --batches 1 8 16 --overload-s 6 \
  --serve-args "--jpeg-decode gpu --cuda-graph --frontends 8 --workers 2" 2>&1 | show
kill $CPUPID 2>/dev/null
for f in /tmp/A_serve_b8.log /tmp/serve_b1.log /tmp/serve_b8.log /tmp/serve_b16.log /tmp/serve_overload.log; do
  [ -f $f ] && echo "$f: $(grep -c '"code":200' $f) x200 $(grep -c '"code":503' $f) x503 $(grep -c '"code":500' $f) x500; $(grep -v '"event":"request"' $f | grep -o '"event":"[a-z_]*"' | sort | uniq -c | tr -s ' \n' ' ')" | show
done
# the best row (highest sustainable) of B gives the RSS run's batch and rate
read BATCH RATE < <(python3 -c "
import json; d = json.load(open('$O/B_fe8_cores12.json')); b = max(d['rows'], key=lambda r: r['sustainable'])
print(b['max_batch'], round(0.8 * b['sustainable']))")
echo "RSS run: batch $BATCH at $RATE/s for 600 s" | show
rm -rf /tmp/rss; mkdir -p /tmp/rss
setsid nohup python3 $D/rss_hold.py --state /tmp/rss --seconds 600 --chunk-s 20 --rate $RATE --batch $BATCH \
  --clients 4 --client-cpus 12-15 --server-cpus 0-11 \
  --serve-args "--jpeg-decode gpu --cuda-graph --frontends 8 --workers 2" > /tmp/rss/run.log 2>&1 < /dev/null &
setsid nohup python3 $D/cpu_sample.py --seconds 660 > /tmp/rss/cpu.jsonl 2>/dev/null < /dev/null &
{ python3 $D/summarize.py cpu /tmp/cpu_B.jsonl; } 2>&1 | show
{ for f in /tmp/serve_b8.log /tmp/serve_overload.log; do grep -v '"event":"request"' $f; grep '"event":"request"' $f | tail -1500; done; } | gzip > $O/B_serve_b8_overload_tail.jsonl.gz
gzip -c /tmp/cpu_B.jsonl > $O/B_cpu.jsonl.gz
while [ $SECONDS -lt 560 ] && [ ! -f /tmp/rss/done.json ]; do sleep 10; done
cat /tmp/rss/started.json /tmp/rss/chunks.jsonl 2>&1 | cut -c1-300 | show
date -u | show
