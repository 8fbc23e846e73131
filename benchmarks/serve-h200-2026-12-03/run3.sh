# Device call 3 (issue 20; 2026-12-03): `serve --frontends 6 --workers 2` after the workers stopped reading RSS/VRAM per
# frame and stopped a second NMS for requests with the default thresholds: batch 1, 8, 16, then the overload test at
# 2x the best sustainable rate; py-spy on the owner during batch 16's saturation step.
# After the part calls, with .whl carried: bash benchmarks/serve-h200-2026-12-03/run3.sh
source benchmarks/serve-h200-2026-12-03/env.sh
[ -x /tmp/site_spy/bin/py-spy ] || python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site_spy .whl/py_spy-*.whl
SPY=/tmp/site_spy/bin/py-spy
O=${OUT:-/tmp/out}; mkdir -p $O; L=$O/run3.log.txt
show() { grep -v "plugin EP" | grep -v "GPU memory pressure" | tee -a $L | cut -c1-900; }
date -u | show
rm -f /tmp/serve_b*.log
( for i in $(seq 1 600); do grep -q '"event":"ready"' /tmp/serve_b16.log 2>/dev/null && break; sleep 0.5; done
  OWNER=$(pgrep -f "inference.cli serve" | head -1); sleep 6
  $SPY record -p $OWNER -d 4 -r 250 --threads --nonblocking --format raw -o $O/spy3_owner.txt > /dev/null 2>&1 ) &
S="--data .gpubench/tagset --offer 2500 --saturate-s 5 --measure-s 5 --step-s 3 --clients 8 --client-cpus 8-15 --server-cpus 0-7 --queue 32"
timeout 420 python3 benchmarks/gpu_serve.py $S --out $O/fe6_w2_fixed.json --batches 1 8 16 --overload-s 6 \
  --serve-args "--jpeg-decode gpu --cuda-graph --frontends 6 --workers 2" 2>&1 | show
wait
for f in /tmp/serve_b1.log /tmp/serve_b8.log /tmp/serve_b16.log /tmp/serve_overload.log; do
  [ -f $f ] && echo "$f: $(grep -c '"code":200' $f) x200 $(grep -c '"code":503' $f) x503 $(grep -c '"code":500' $f) x500; $(grep -v '"event":"request"' $f | grep -o '"event":"[a-z_]*"' | tr '\n' ' ')" | show
done
{ grep -v '"event":"request"' /tmp/serve_b16.log; grep '"event":"request"' /tmp/serve_b16.log | tail -3000; } | gzip > $O/serve3_b16_tail.jsonl.gz
date -u | show
