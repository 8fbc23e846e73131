# Here, before the device calls (issue 20; 2026-12-04c): what .serveab (git-ignored, in .git/info/exclude) carries.
#   bash benchmarks/serve-h200-2026-12-04c/pack.sh OLD NEW [MID]   (MID: a third service, run/mid.tgz)
# This checkout had none of the earlier sessions' carried files, so everything is fetched again with pip download
# (.serveab/dl): parts/: onnxruntime-gpu 1.31.1's wheel as it comes (255.6 MB), cut into 16 parts of 17 MB, sent one a
# call (carry .serveab/parts/pNN, copied to /tmp/parts), since the 42 MB tree and a part must fit the 64 MiB a call
# carries; run/: sent once, with the A/B: run/whl (starlette 1.10.0, uvicorn 0.54.0, httptools 0.9.0, aiohttp 3.14.5
# and its needs as the seventeenth session carried them, nvidia-nvjpeg 13.3.2.43, nvImageCodec 0.9.0.20 cut to its
# cp312 module and its JPEG/BMP/PNM extensions), run/jpegs (the 32 JPEGs of 1080p at quality 90, 141.8 KB mean, that
# gpu_serve.py writes from tagset-v1 made here with `python -m training.tagsets --count 60 --seed 1401`), and
# run/old.tgz, run/new.tgz: `git archive` of the service before and after the change (inference/ of OLD and NEW),
# each with NEW's benchmark scripts, so only the service differs between the two.
set -e
OLD=$(git rev-parse ${1:?old commit}); NEW=$(git rev-parse ${2:-HEAD}); MID=${3:+$(git rev-parse $3)}
mkdir -p .serveab/run && rm -f .serveab/run/mid.tgz
for v in old new ${MID:+mid}; do
  rev=$OLD; [ $v = new ] && rev=$NEW; [ $v = mid ] && rev=$MID
  rm -rf /tmp/arch_$v && mkdir -p /tmp/arch_$v
  git archive $rev inference | tar x -C /tmp/arch_$v
  git archive $NEW benchmarks/gpu_serve.py benchmarks/gpu_read.py benchmarks/serve_steps.py \
    benchmarks/serve-h200-2026-12-04c | tar x -C /tmp/arch_$v
  echo $rev > /tmp/arch_$v/COMMIT
  tar czf .serveab/run/$v.tgz -C /tmp/arch_$v .
done
# every module gpu_serve.py and serve_steps.py import must be in the archive (a missing one cost 720 s on 2026-12-04b)
for v in old new ${MID:+mid}; do
  (cd /tmp/arch_$v && python3 - <<'PY'
import ast, pathlib
for script in ("benchmarks/gpu_serve.py", "benchmarks/serve_steps.py"):
    for node in ast.walk(ast.parse(pathlib.Path(script).read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in ("benchmarks", "inference"):
            path = pathlib.Path(node.module.replace(".", "/"))
            assert path.with_suffix(".py").exists() or (path / "__init__.py").exists(), f"{script} needs {node.module}"
print("archive holds what the scripts import:", pathlib.Path("COMMIT").read_text().strip())
PY
  )
done
ls -la .serveab/run
