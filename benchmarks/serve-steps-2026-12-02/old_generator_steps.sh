cd /work/main
P=18421
timeout 600 nice .venv/bin/python -m inference.cli serve --port $P --max-batch 4 --queue 16 --no-read --backend onnxruntime-cpu > /tmp/h20/old_server.log 2>&1 &
SP=$!
for i in $(seq 120); do curl -sf http://127.0.0.1:$P/ready >/dev/null && break; sleep 1; done
L() { timeout 200 nice .venv/bin/python -m inference.cli load --url http://127.0.0.1:$P/detect --images /tmp/h20/jpegs --rate $1 --duration $2 --out /tmp/h20/old_$3.json > /dev/null; python3 -c "import json;d=json.load(open('/tmp/h20/old_$3.json'));print('$3', d['target_rate'], d['sent'], d['duration_s'], d['ok_rate'], d['codes'], d['max_send_lag_ms'], d['ok_latency_ms'].get('p50'), d['ok_latency_ms'].get('max'), d['rejected_latency_ms'].get('p50'), d['rejected_latency_ms'].get('max'))"; }
date +%s.%N > /tmp/h20/old_t0
L 2 5 warm
date +%s.%N > /tmp/h20/old_t1
L 150 6 sat
date +%s.%N > /tmp/h20/old_t2
R=$(python3 -c "import json;print(json.load(open('/tmp/h20/old_sat.json'))['ok_rate'])")
L $(python3 -c "print($R*0.5)") 20 half
date +%s.%N > /tmp/h20/old_t3
L $(python3 -c "print($R*0.3)") 20 third
date +%s.%N > /tmp/h20/old_t4
kill -TERM $SP; wait $SP
