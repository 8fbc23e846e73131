# Device call for issue 19 (2026-12-06): the GPU reader at HEAD on the H200, verified against each job's recipe as the
# station reads, fields compared with the CPU reader in the same process. No onnxruntime-gpu: the reader runs on
# PyTorch (CUDA graphs per shape, warmed at open), the detector on ONNX Runtime's CPU provider (`--detector
# onnxruntime-cpu`), so one call carries everything. Prepared here (git-ignored .gb06/, 19.5 MB beside the 44.6 MB tree):
#   .gb06/head.tgz   `git archive` of the commit measured (inference/, tests/, benchmarks/gpu_read.py; COMMIT inside),
#                    so other engineers' uncommitted edits in the shared checkout do not travel into the reader
#   .gb06/tagset.tgz `python -m training.tagsets --out /tmp/gb/tagset --count 60 --seed 1401` (training/ at that commit)
#   .gb06/ocr        the OCR pair a bundle ships, xz-compressed, with its manifest (.line24/ocr of 2026-12-05)
#   .gb06/whl        zxing-cpp 3.1.1 and google-re2 1.1.20251105 wheels (cp312)
#   OUT=$OUT bash benchmarks/gpu-2026-12-06/run.sh      (carry .gb06)
set -o pipefail
O=${OUT:-/tmp/out}; mkdir -p $O; L=$O/run.log.txt
R=$PWD; T=/tmp/trees/head
show() { grep -v "^\s*$" | grep -v "plugin EP" | tee -a $L | cut -c1-700; }
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site06 .gb06/whl/*.whl || exit 1
rm -rf $T && mkdir -p $T /tmp/gb && tar xzf .gb06/head.tgz -C $T && tar xzf .gb06/tagset.tgz -C /tmp/gb || exit 1
rm -rf resources/ocr && mkdir -p resources/ocr && cp resources/models/ocr_rec_small_print.onnx resources/ocr/ || exit 1
python3 benchmarks/carried_ocr.py .gb06/ocr resources/ocr || exit 1  # the pair carried xz-compressed
ln -sfn $R/resources $T/resources
export PYTHONPATH=/tmp/site06:$T PYTHONUNBUFFERED=1
cd $T
{ date -u; nproc; uname -r; nvidia-smi --query-gpu=name,driver_version,memory.used,memory.total --format=csv,noheader; echo "code $(cat COMMIT)"; } 2>&1 | show
python3 -c "import sys, torch, onnxruntime as o, numpy, cv2, zxingcpp; print('python', sys.version.split()[0], 'torch', torch.__version__, 'ort', o.__version__, 'numpy', numpy.__version__, 'cv2', cv2.__version__)" 2>&1 | show
echo "== GPU tests of the torch reader" | show
timeout 150 python3 -m pytest -q -p no:cacheprovider tests/test_ocr_torch.py tests/test_ocr_gpu_warm.py 2>&1 | tail -4 | show
A="--data /tmp/gb/tagset --frames 40 --four 10 --passes 2 --warm-frames 8 --reader torch-cuda --detector onnxruntime-cpu --skip-shape-costs --four-tag-threads 1 4 --modes recipe"
for k in ${RUNS:-1 2}; do
  left=$((570 - SECONDS)); [ $left -gt 90 ] || break
  echo "== gpu_read $k ($left s left)" | show; date -u | show
  timeout $((left < 260 ? left : 260)) python3 $T/benchmarks/gpu_read.py $A --out $O/read_$k.json > $O/read_$k.log.txt 2>&1
  grep -v "plugin EP" $O/read_$k.log.txt | tail -14 | cut -c1-600 | show
done
date -u | show
