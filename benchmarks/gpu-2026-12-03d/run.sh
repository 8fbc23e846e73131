# Device call for issue 19 (2026-12-03d): the GPU reader with its graphs warmed at open (one graph per input shape
# serving the TopK and the full-distribution fetch), on the H200. After the 12 part calls of
# benchmarks/gpu-2026-12-03c/env.sh, from the repository root, with .gpubench/head.tgz carried (a `git archive` of the
# commit measured, COMMIT inside): bash benchmarks/gpu-2026-12-03d/run.sh
# The GPU tests of the graphs, then two gpu_read processes verifying every frame against its job's recipe (the way
# the station reads), each compared with the CPU reader; cuda_graphs (at open) against cuda_graphs_after (after
# the timed reads) gives the captures after open.
source benchmarks/gpu-2026-12-03c/env.sh
O=${OUT:-/tmp/out}; mkdir -p $O
cd /tmp/trees/head || exit 1
L=$O/run.log.txt
show() { grep -v "^\s*$" | grep -v "plugin EP" | tee -a $L | grep -v "^overlap {" | cut -c1-600; }
{ date -u; nproc; uname -r; nvidia-smi --query-gpu=name,driver_version,memory.used,memory.total --format=csv,noheader; cat COMMIT; } 2>&1 | show
python3 -c "import sys, torch, onnxruntime as o, numpy; print('python', sys.version.split()[0], 'torch', torch.__version__, 'ort', o.__version__, 'numpy', numpy.__version__)" 2>&1 | show
echo "== tests on the GPU" | show
timeout 120 python3 -m pytest -q -p no:cacheprovider tests/test_ocr_torch.py tests/test_ocr_gpu_warm.py -k "graph or small_print or reads_what or warm or vocabulary or split" 2>&1 | tail -4 | show
R="--data /tmp/gb/tagset --frames 40 --four 10 --passes 2 --warm-frames 8 --reader torch-cuda --skip-shape-costs --four-tag-threads 1 4 --modes recipe"
for k in 1 2; do
  echo "== gpu_read $k" | show; date -u | show
  left=$((575 - SECONDS)); [ $left -gt 60 ] || break
  timeout $((left < 240 ? left : 240)) python3 benchmarks/gpu_read.py $R --out $O/read_$k.json > $O/read_$k.log.txt 2>&1
  grep -v "plugin EP" $O/read_$k.log.txt | tail -25 | cut -c1-400 | show
  [ -f $O/read_$k.json ] || break
done
date -u | show
