# Prepared here before the device calls (issue 18, seventh pass, 2026-12-02). All of .line18/ is git-ignored.
# Recordings: the generator at the top of BENCHMARKS' issue-18 section, then H.264 copies small enough to carry
# (the MJPG files are 49-71 MB each; libx264 CRF 23: 2.0-2.9 MB; mean absolute difference to the MJPG frames
# 1.7 grey levels on s0.6, against 2.1 for the MPEG-4 copies of the second pass).
for s in 1.25 0.9 0.6 0.45 0.3; do
  secs=20; [ $s = 1.25 ] && secs=30
  python -m training.conveyor --out /tmp/line/s$s --seconds $secs --spacing $s --seed 18
  mkdir -p .line18/rec/s$s && cp /tmp/line/s$s/truth.json /tmp/line/s$s/recipe.toml .line18/rec/s$s/
  # ffmpeg 7.0.2 as the imageio-ffmpeg 0.6.0 wheel carries it (pip download --no-deps imageio-ffmpeg==0.6.0)
  $FFMPEG -y -i /tmp/line/s$s/line.avi -c:v libx264 -preset medium -crf 23 -pix_fmt yuv420p .line18/rec/s$s/line.mp4
done
# OCR models: rapidocr's FP32 PP-OCRv6 small det and the GB 2312 recognizer the station cuts from it (the pair
# find_ocr_models() picks from source here), with ocr_manifest.json as .line18/ocr/manifest.json.
# Wheels: .whl/ (zxing-cpp 3.1.1, google-re2 1.1.20251105), as benchmarks/h200_env.sh.
# Calls: call1.sh (carry .line18/ocr .line18/rec/s0.9 .whl), then at once call2.sh (carry .line18/rec).
