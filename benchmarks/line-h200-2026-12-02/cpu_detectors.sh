# This 2-core VM, 16:17-16:20 UTC: HEAD's line with HEAD's detector and with the one before 49ea64d
# (git show 49ea64d^:resources/models/hangtag_det.onnx > /tmp/old_det.onnx); JSON saved as cpu_head_detector.json and
# cpu_previous_detector.json.
cd /work/main
for m in head old; do
  M=""; [ $m = old ] && M="--model /tmp/old_det.onnx"
  nice -n 5 .venv/bin/python -m inference.cli line-bench --belt-px-per-s 914.3 --threads 1 --read-threads 1 --preload --detect-fps 8 $M \
    --source camera:/tmp/line/s1.25/line.avi --source camera:/tmp/line/s0.6/line.avi --json benchmarks/line-h200-2026-12-02/cpu_$m.json > /tmp/cpu18/$m.log 2>&1
  echo "$m rc $? $(date -u +%H:%M:%S)"
done
