# Here, before the device calls (issue 20; 2026-12-04d): what .serve04d (git-ignored via .git/info/exclude) carries.
#   bash benchmarks/serve-h200-2026-12-04d/pack.sh [REV]      (REV: the service measured, default HEAD)
# parts/: onnxruntime-gpu 1.31.1's wheel (sha256 05d54895…) as ort.tar cut into parts of 18 MB, one part a call
#   (carry .serve04d/parts/pNN; the command copies it to /tmp/parts): its CUDA provider (284 MB) xz-compressed
#   (185 MB against 231 MB in the wheel's zip) and the rest of the wheel as a zip: 12 part calls, not 16.
# run/: sent once, with the first measuring call: whl/ (the twentieth session's service wheels, aiohttp and its
#   needs, nvImageCodec cut, nvJPEG; from .serveab/run/whl) and py-spy 0.4.3; jpegs/ (the 32 JPEGs of 1080p,
#   from .serveab/run/jpegs); tree.tgz, a `git archive` of REV's inference/ with the benchmark scripts, so other
#   engineers' uncommitted edits in the shared checkout do not travel into the service; SHA256 of the ORT pieces.
set -eo pipefail
REV=$(git rev-parse ${1:-HEAD})
D=benchmarks/serve-h200-2026-12-04d
grep -qx '/.serve04d/' .git/info/exclude || echo '/.serve04d/' >> .git/info/exclude
mkdir -p .serve04d/run/whl .serve04d/parts
[ -d .serveab/run/whl ] && [ -d .serveab/run/jpegs ] || { echo "no .serveab/run: run benchmarks/serve-h200-2026-12-04c/pack.sh first"; exit 1; }
cp -u .serveab/run/whl/* .serve04d/run/whl/
rm -rf .serve04d/run/jpegs && cp -r .serveab/run/jpegs .serve04d/run/jpegs
ls .serve04d/run/whl/py_spy-0.4.3-*.whl >/dev/null 2>&1 || python3 -m pip download -q --no-deps --only-binary=:all: \
  --python-version 3.12 --implementation cp --platform manylinux_2_5_x86_64 --platform manylinux1_x86_64 \
  -d .serve04d/run/whl py-spy==0.4.3
# the code measured
rm -rf /tmp/arch04d && mkdir -p /tmp/arch04d
git archive $REV inference benchmarks/gpu_serve.py benchmarks/gpu_read.py benchmarks/serve_steps.py \
  benchmarks/serve-h200-2026-12-04c $D | tar x -C /tmp/arch04d
echo $REV > /tmp/arch04d/COMMIT
(cd /tmp/arch04d && python3 - <<'PY'
import ast, pathlib
for script in ("benchmarks/gpu_serve.py", "benchmarks/serve_steps.py"):
    for node in ast.walk(ast.parse(pathlib.Path(script).read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in ("benchmarks", "inference"):
            path = pathlib.Path(node.module.replace(".", "/"))
            assert path.with_suffix(".py").exists() or (path / "__init__.py").exists(), f"{script} needs {node.module}"
for need in ("inference/service/worker_process.py", "benchmarks/serve-h200-2026-12-04d/gil_sample.py",
             "benchmarks/serve-h200-2026-12-04c/summarize.py"):
    assert pathlib.Path(need).exists(), f"the archive lacks {need}"
print("archive holds what the scripts import:", pathlib.Path("COMMIT").read_text().strip())
PY
)
tar czf .serve04d/run/tree.tgz -C /tmp/arch04d .
# onnxruntime-gpu in parts
W=.serveab/dl/onnxruntime_gpu-1.31.1-cp312-cp312-manylinux_2_28_x86_64.whl
[ -f $W ] || python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
  --platform manylinux_2_28_x86_64 -d .serveab/dl onnxruntime-gpu==1.31.1
echo "05d548956197b9d01f59b625de740e0d6be3593f874e241a12dc0362650ecdf7  $W" | sha256sum -c
if [ ! -f .serve04d/parts/p00 ]; then
  rm -rf /tmp/ort04d/w /tmp/ort04d/rest.zip && mkdir -p /tmp/ort04d/w && (cd /tmp/ort04d/w && unzip -q $OLDPWD/$W)
  C=onnxruntime/capi/libonnxruntime_providers_cuda.so
  (cd /tmp/ort04d/w && sha256sum $C > ../SHA256 && { [ -s ../cuda.so.xz ] || nice -n 10 xz -9e -T1 -c $C > ../cuda.so.xz; } \
    && rm $C && zip -q -r ../rest.zip .)
  tar cf /tmp/ort04d/ort.tar -C /tmp/ort04d cuda.so.xz rest.zip SHA256
  split -b 18000000 -d -a 2 /tmp/ort04d/ort.tar .serve04d/parts/p
  cp /tmp/ort04d/SHA256 .serve04d/run/ORT.SHA256
  sha256sum /tmp/ort04d/ort.tar | cut -c1-64 > .serve04d/run/ORT_TAR.SHA256
fi
ls -la .serve04d/run .serve04d/parts; du -sh .serve04d/run
