"""Lines per recognizer call of the CPU reader (the GPU reader runs the same calls), stock vs small-print recognizer,
one-tag frames read against their recipes: what GPU_REC_BATCHES (inference/reading/ocr/gpu.py) is chosen from.

    PYTHONPATH=<tree with resources/ocr> python benchmarks/gpu-2026-12-03d/call_sizes.py <tagset> 48   # → /tmp/h19/cpu_shapes.json
"""
import collections, json, sys, time
from pathlib import Path
import benchmarks.gpu_read as gr
from inference.reading.ocr import recognizer as rmod
from inference.inspection import Inspector
from inference.reading import load_recipe
from inference.resources import default_model_path
STATS = collections.defaultdict(collections.Counter)
orig = rmod.TextRecognizer.recognize_only
def ro(self, crops, only, squeeze=None, vocabulary=""):
    wanted = set(only)
    widths = [rmod.rec_width(c, self.squeeze if squeeze is None else squeeze) for c in crops]
    for chunk in rmod.plan_batches(widths, self.call_overhead_px, self.max_batch):
        n = len([i for i in chunk if i in wanted])
        if n:
            STATS[getattr(self, "_name", "?")][n] += 1
    return orig(self, crops, only, squeeze, vocabulary)
rmod.TextRecognizer.recognize_only = ro
data = Path(sys.argv[1]); n = int(sys.argv[2])
ins = Inspector.open(default_model_path(), "onnxruntime-cpu", read=True)
ins.reader.recognizer._name = "rec"; ins.reader.rereader._name = "reread"
t = time.time()
for k, (frame, row) in enumerate(gr.one_tag_frames(data, n)):
    ins.recipe = load_recipe(data / row["recipe"])
    ins.inspect_image(frame)
    if k % 5 == 4:
        print(k + 1, round(time.time() - t), {a: sorted(c.items()) for a, c in STATS.items()}, flush=True)
json.dump({a: sorted(c.items()) for a, c in STATS.items()}, open("/tmp/h19/cpu_shapes.json", "w"))
