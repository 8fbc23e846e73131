# Device call for issue 19 (2026-12-03c): the GPU reader at HEAD with the small-print last read, on the H200.
# After the 12 part calls (env.sh), from the repository root, with .gpubench/head.tgz carried (the commit measured):
# bash benchmarks/gpu-2026-12-03c/run.sh
# Two gpu_read processes (the twelfth session's one-tag / four-tag measurement without a recipe, then the same
# frames verified against their jobs' recipes, where fields in doubt are read by the small-print recognizer; turns
# with that read off and on; each mode against the CPU reader), then where.py with recipes.
source benchmarks/gpu-2026-12-03c/env.sh
O=${OUT:-/tmp/out}; mkdir -p $O
cd /tmp/trees/head || exit 1
L=$O/run.log.txt
show() { grep -v "^\s*$" | grep -v "plugin EP" | tee -a $L | grep -v "^overlap {" | cut -c1-900; }
{ date -u; nproc; uname -r; nvidia-smi --query-gpu=name,driver_version,memory.used,memory.total --format=csv,noheader; } 2>&1 | show
python3 -c "import sys, torch, onnxruntime as o, cv2, numpy, zxingcpp, re2; print('python', sys.version.split()[0], 'torch', torch.__version__, 'ort', o.__version__, o.get_available_providers(), 'cv2', cv2.__version__, cv2.getNumThreads(), 'numpy', numpy.__version__, 'zxing', zxingcpp.__version__)" 2>&1 | show
cat COMMIT 2>&1 | show
python3 -c "from inference.reading.ocr.models import find_ocr_models as f; m = f(); print(m.describe()); print(m)" 2>&1 | show
echo "== tests on the GPU" | show
timeout 90 python3 -m pytest -q -p no:cacheprovider tests/test_ocr_torch.py -k "graph_replays or small_print or reads_what" 2>&1 | tail -3 | show
R="--data /tmp/gb/tagset --frames 40 --four 10 --passes 2 --warm-frames 8 --reader torch-cuda --skip-shape-costs --four-tag-threads 1 4 --modes plain recipe"
echo "== gpu_read 1" | show; date -u | show
timeout 230 python3 benchmarks/gpu_read.py $R --reread-turns 4 --out $O/read_1.json 2>&1 | show
echo "== gpu_read 2" | show; date -u | show
timeout 200 python3 benchmarks/gpu_read.py $R --reread-turns 2 --out $O/read_2.json 2>&1 | show
echo "== where, recipes" | show; date -u | show
timeout 110 python3 benchmarks/gpu-2026-12-03c/where.py --data /tmp/gb/tagset --out $O/where.json --recipe --settings 0 0 2>&1 | head -60 | cut -c1-160 | show
date -u | show
