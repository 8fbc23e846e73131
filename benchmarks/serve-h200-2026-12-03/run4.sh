# Device call 4 (issue 20; 2026-12-03): batch 16 again without py-spy beside it (call 3's saturation step had 7 291
# sends late while py-spy sampled the owner), and the detector as FP16 (inference.precision.fp16.save_fp16 of the
# shipped model, float32 inputs and outputs; carried as .whl/hangtag_det_fp16.onnx) at batch 1, 8, 16, and with 3
# workers. After the part calls, with .whl carried: bash benchmarks/serve-h200-2026-12-03/run4.sh
source benchmarks/serve-h200-2026-12-03/env.sh
O=${OUT:-/tmp/out}; mkdir -p $O; L=$O/run4.log.txt
show() { grep -v "plugin EP" | grep -v "GPU memory pressure" | tee -a $L | cut -c1-900; }
S="--data .gpubench/tagset --offer 2500 --saturate-s 5 --measure-s 5 --step-s 3 --clients 8 --client-cpus 8-15 --server-cpus 0-7 --queue 32"
A="--jpeg-decode gpu --cuda-graph --frontends 6"
date -u | show; sha256sum .whl/hangtag_det_fp16.onnx | show
echo "== FP32, workers 2, batch 16" | show
timeout 100 python3 benchmarks/gpu_serve.py $S --out $O/fe6_w2_fp32_b16.json --batches 16 --overload-s 0 --serve-args "$A --workers 2" 2>&1 | show
echo "== FP16, workers 2, batch 1 8 16" | show; date -u | show
timeout 240 python3 benchmarks/gpu_serve.py $S --out $O/fe6_w2_fp16.json --batches 1 8 16 --overload-s 0 \
  --serve-args "$A --workers 2 --model .whl/hangtag_det_fp16.onnx" 2>&1 | show
for f in /tmp/serve_b8.log; do { grep -v '"event":"request"' $f; grep '"event":"request"' $f | tail -3000; } | gzip > $O/serve4_fp16_b8_tail.jsonl.gz; done
echo "== FP16, frontends 8, workers 3, batch 8" | show; date -u | show
timeout 100 python3 benchmarks/gpu_serve.py $S --out $O/fe8_w3_fp16_b8.json --batches 8 --overload-s 0 \
  --serve-args "--jpeg-decode gpu --cuda-graph --frontends 8 --workers 3 --model .whl/hangtag_det_fp16.onnx" 2>&1 | show
for f in /tmp/serve_b*.log; do echo "$f: $(grep -c '"code":200' $f) x200 $(grep -c '"code":503' $f) x503 $(grep -c '"code":500' $f) x500; $(grep -v '"event":"request"' $f | grep -o '"event":"[a-z_]*"' | tr '\n' ' ')" | show; done
date -u | show
