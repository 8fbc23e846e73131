#!/usr/bin/env bash
# Prepares a real `tritonserver` for the tests under .cache/triton/ (git-ignored), idempotently.
#
# The nvidia-pytriton wheel carries tritonserver 2.51 with the Python backend only. Its Python code
# pins numpy < 2, so the wheel is never installed: it is `pip download`ed and unpacked. Then
#   backends/                      copied out of the wheel,
#   backends/python/triton_python_backend_stub   the stub for this Python (3.11),
#   backends/python/triton_python_backend_utils.py   a copy whose first lines put the paths in
#       HANGTAG_TRITON_SITE on sys.path: the stub starts an *isolated* interpreter that ignores
#       PYTHONPATH, and the model (tests/triton/model_repository) needs numpy and onnxruntime;
#   stub-venv/                     a venv with numpy 1.26.4 and the station's onnxruntime version: the stub's
#       pybind11 reads numpy 1.x's dtype layout, and with numpy 2 every output tensor it builds
#       from an array is 0 bytes long (tests/triton/server.py passes this venv's site-packages);
#       --no-deps: onnxruntime's other requirements (sympy, coloredlogs, ...) serve its tools only.
# Prints the prepared folder on success; exits 1 with a reason when the wheel cannot be fetched.
set -euo pipefail

PYTRITON_VERSION="0.7.0"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
PY="${PYTHON:-$ROOT/.venv/bin/python}"
DEST="$ROOT/.cache/triton/pytriton-$PYTRITON_VERSION"
PYVER="$("$PY" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')"
# The station's own ONNX Runtime version, so the server computes exactly what the local engine does.
ORT_VERSION="$("$PY" -c 'import onnxruntime; print(onnxruntime.__version__)')"
STAMP="$DEST/.ready-py$PYVER-ort$ORT_VERSION"

if [ -f "$STAMP" ]; then
  echo "$DEST"
  exit 0
fi

mkdir -p "$DEST/download"
if ! ls "$DEST"/download/nvidia_pytriton-"$PYTRITON_VERSION"-*.whl >/dev/null 2>&1; then
  if ! "$PY" -m pip download --quiet --no-deps --only-binary=:all: --platform manylinux_2_35_x86_64 \
      "nvidia-pytriton==$PYTRITON_VERSION" -d "$DEST/download" >&2; then
    echo "could not download nvidia-pytriton==$PYTRITON_VERSION from PyPI" >&2
    exit 1
  fi
fi
WHEEL="$(ls "$DEST"/download/nvidia_pytriton-"$PYTRITON_VERSION"-*.whl | head -1)"

rm -rf "$DEST/wheel" "$DEST/backends"
"$PY" -m zipfile -e "$WHEEL" "$DEST/wheel"
SERVER="$DEST/wheel/pytriton/tritonserver"
STUB="$SERVER/python_backend_stubs/$PYVER/triton_python_backend_stub"
if [ ! -f "$STUB" ]; then
  echo "the wheel has no Python backend stub for Python $PYVER (has: $(ls "$SERVER/python_backend_stubs" | xargs))" >&2
  exit 1
fi
cp -r "$SERVER/backends" "$DEST/backends"
cp "$STUB" "$DEST/backends/python/"
chmod +x "$SERVER/bin/tritonserver" "$DEST/backends/python/triton_python_backend_stub"

UTILS="$DEST/backends/python/triton_python_backend_utils.py"
{
  echo "import os as _os, sys as _sys  # added by tests/triton/setup_triton.sh"
  echo "_sys.path[:0] = [p for p in _os.environ.get('HANGTAG_TRITON_SITE', '').split(_os.pathsep) if p]"
  cat "$SERVER/backends/python/triton_python_backend_utils.py"
} > "$UTILS"

if [ ! -x "$DEST/stub-venv/bin/python" ]; then
  "$PY" -m venv --without-pip "$DEST/stub-venv" 2>/dev/null || "$PY" -m venv "$DEST/stub-venv"
fi
if ! "$PY" -m pip --python "$DEST/stub-venv/bin/python" install --quiet --no-deps "numpy==1.26.4" \
    "onnxruntime==$ORT_VERSION" >&2; then
  echo "could not install numpy 1.26.4 and onnxruntime $ORT_VERSION into $DEST/stub-venv" >&2
  exit 1
fi

rm -f "$DEST"/.ready-*
touch "$STAMP"
echo "$DEST"
