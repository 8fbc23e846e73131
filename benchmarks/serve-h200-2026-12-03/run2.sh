# Device call 2 (issue 20; 2026-12-03): where one GPU owner's time goes at saturation. py-spy (carried in .whl) samples
# the owner and one front end for 6 s of a 10 s saturation step, top -H shows each thread's CPU; then two more
# front-end/worker shapes. After the part calls, with .whl carried: bash benchmarks/serve-h200-2026-12-03/run2.sh
source benchmarks/serve-h200-2026-12-03/env.sh
[ -x /tmp/site_spy/bin/py-spy ] || python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site_spy .whl/py_spy-*.whl
SPY=/tmp/site_spy/bin/py-spy
O=${OUT:-/tmp/out}; mkdir -p $O; L=$O/run2.log.txt
show() { grep -v "plugin EP" | grep -v "GPU memory pressure" | tee -a $L | cut -c1-700; }
S="--data .gpubench/tagset --offer 2500 --step-s 3 --measure-s 5 --clients 8 --client-cpus 8-15 --server-cpus 0-7 --queue 32"
date -u | show
rm -f /tmp/serve_b16.log
timeout 200 python3 benchmarks/gpu_serve.py $S --saturate-s 10 --out $O/fe6_w2_prof.json --batches 16 --overload-s 0 \
  --serve-args "--jpeg-decode gpu --cuda-graph --frontends 6 --workers 2" > $O/prof_serve.out 2>&1 &
for i in $(seq 1 120); do grep -q '"event":"ready"' /tmp/serve_b16.log 2>/dev/null && break; sleep 0.5; done
OWNER=$(pgrep -f "inference.cli serve" | head -1); FE=$(pgrep -f "multiprocessing.spawn" -P $OWNER | head -1)
echo "owner $OWNER frontend $FE" | show
sleep 7
$SPY record -p $OWNER -d 6 -r 250 --threads --nonblocking --format raw -o $O/spy_owner.txt > /dev/null 2>&1 &
$SPY record -p $FE -d 6 -r 250 --nonblocking --format raw -o $O/spy_frontend.txt > /dev/null 2>&1 &
top -b -H -n 4 -d 1.5 -w 200 | head -300 > $O/top.txt
wait
cat $O/prof_serve.out | show
for cfg in "6 1 16" "8 3 16"; do
  set -- $cfg; fe=$1; w=$2; shift 2
  echo "== serve --frontends $fe --workers $w, batches $*" | show; date -u | show
  timeout 150 python3 benchmarks/gpu_serve.py $S --saturate-s 3 --out $O/fe${fe}_w${w}.json --batches $* --overload-s 0 \
    --serve-args "--jpeg-decode gpu --cuda-graph --frontends $fe --workers $w" 2>&1 | show
done
date -u | show
