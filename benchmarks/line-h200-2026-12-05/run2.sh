# Device call (issue 18; 2026-12-05, second form): the line on the H200 with the GPU reader. run.sh made the
# recordings there, but the device has none of the generator's fonts (wqy, AR PL), so this one carries them, and
# the OCR pair, made here (all of .line24/ is git-ignored; 19.6 MB with .whl24, so that the call, with the 43 MB
# of tracked files, stays under the 64 MiB a call carries):
#   .line24/rec/sS/: the seed-18 recordings of the issue-18 section (s1.25 30 s, s0.6 and s0.45 20 s), as H.264
#     copies (ffmpeg 7.0.2 from the imageio-ffmpeg 0.6.0 wheel: -c:v libx264 -preset veryslow -crf 23 -pix_fmt
#     yuv420p; veryslow: 6.4 MB against medium's 7.9), with their truth.json and recipe.toml. Checked on the CPU
#     frame by frame (line-bench --stride 3, the same OCR pair): on s1.25 every tag's verdict is the MJPG original's;
#   .line24/ocr/: the OCR pair a bundle ships (`python packaging/ocr_models.py`, as packaging/build.py makes it:
#     PP-OCRv6 small det and the GB 2312 rec, FP16-stored weights read as FP32), xz-compressed, and its manifest;
#     the small-print recognizer is the tree's resources/models copy (each checked against the manifest's sha256);
#   .line24/tree.tgz: `git archive HEAD inference | gzip` with the commit in COMMIT, the code measured, since the call
#     sends the shared checkout with other engineers' uncommitted edits in it (run from /tmp/tree24, resources/ linked).
# The reader runs on PyTorch on the GPU (CUDA graphs per shape, warmed at open), the detector on ONNX Runtime's CPU
# backend (the image's onnxruntime has no CUDA provider), frames preloaded as an industrial camera hands them over.
#   bash benchmarks/line-h200-2026-12-05/run2.sh        (carry .whl24 .line24; OUT= where the JSON and log go;
#   LINE_ARGS= more line-bench options, TAG= the JSON's and log's name; a dry run on a CPU: READER=onnxruntime-cpu
#   LIMIT=60, with python3 and nvidia-smi stand-ins on the PATH)
set -o pipefail
O=${OUT:-/tmp/out}; mkdir -p $O; N=${TAG:-line_gpu}; L=$O/$N.log.txt
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site24 .whl24/*.whl || exit 1
R=$PWD; T=/tmp/tree24
rm -rf resources/ocr && mkdir -p resources/ocr && cp resources/models/ocr_rec_small_print.onnx resources/ocr/ || exit 1
python3 benchmarks/carried_ocr.py .line24/ocr resources/ocr || exit 1  # the pair carried xz-compressed
rm -rf $T && mkdir -p $T && tar xzf .line24/tree.tgz -C $T && ln -s $R/resources $T/resources || exit 1
export PYTHONPATH=/tmp/site24:$T PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee -a $L
date -u | tee -a $L; nproc | tee -a $L; echo "inference/ of $(cat $T/COMMIT)" | tee -a $L
cd $T
python3 -c "import sys, torch, onnxruntime, cv2, numpy; print('python', sys.version.split()[0], 'torch', torch.__version__, 'ort', onnxruntime.__version__, 'cv2', cv2.__version__, 'numpy', numpy.__version__)" 2>&1 | tee -a $L
S=""; for s in 1.25 0.6 0.45; do S="$S --source camera:$R/.line24/rec/s$s/line.mp4"; done
timeout ${LIMIT:-480} python3 -m inference.cli line-bench --belt-px-per-s 914.3 --preload --reader-backend ${READER:-torch-cuda} \
  --backend onnxruntime-cpu ${LINE_ARGS:-} $S --json $O/$N.json 2>&1 | grep -v "plugin EP" | tee -a $L | cut -c1-400
date -u | tee -a $L
