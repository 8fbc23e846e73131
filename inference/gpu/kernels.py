"""CUDA C++ source of the pipeline's kernels, compiled together by NVRTC into one module.

letterbox_f32 / letterbox_f16
    uint8 BGR frame (H×W×3, row pitch in bytes) → NCHW RGB in [0, 1] with pad 114/255, written straight
    into the engine's input buffer. Matches inference.preprocess.Letterboxer: INTER_AREA (exact box
    average) when the letterbox shrinks the frame, INTER_LINEAR (half-pixel centres, clamped edges)
    otherwise. The GPU keeps the average in float; OpenCV rounds to uint8 first, so the two agree to
    within half a grey level plus OpenCV's 11-bit interpolation weights: under 1/255.

compact_yolov8_f32 / compact_yolov8_f16
    [B, 4+C, A] raw output → per frame, rows (cx, cy, w, h, score, class, anchor) of the anchors whose
    best class score reaches the floor, appended with an atomic counter. Row order is arbitrary; the
    anchor column restores the CPU decoder's order.

nms_keys, nms_mask, nms_scan
    Class-wise greedy NMS on the compacted rows, for the GPU-postprocess option: a 64-bit sort key per
    row (score descending, anchor ascending, ineligible rows last), an IoU>threshold bitmask between
    sorted rows (64×64 tiles, as torchvision does), and a one-block-per-frame greedy scan over it.
"""

from __future__ import annotations

ROW_FIELDS = 7  # cx, cy, w, h, score, class, anchor

SOURCE = r"""
__device__ __forceinline__ void store(float* p, float v) { *p = v; }
__device__ __forceinline__ void store(unsigned short* p, float v) {
    unsigned short h;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(v));
    *p = h;
}
__device__ __forceinline__ float load(const float* p) { return *p; }
__device__ __forceinline__ float load(const unsigned short* p) {
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(*p));
    return f;
}

template <typename T>
__device__ void letterbox(const unsigned char* __restrict__ src, int src_h, int src_w, int src_pitch,
                          T* __restrict__ dst, int out_h, int out_w, int top, int left, int rh, int rw,
                          float scale_y, float scale_x, int area) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= out_w || y >= out_h) return;
    const int dx = x - left, dy = y - top;
    float b = 114.f, g = 114.f, r = 114.f;
    if (dx >= 0 && dx < rw && dy >= 0 && dy < rh) {
        if (area) {
            const float fx1 = dx * scale_x, fx2 = fminf(fx1 + scale_x, (float)src_w);
            const float fy1 = dy * scale_y, fy2 = fminf(fy1 + scale_y, (float)src_h);
            const int x0 = (int)floorf(fx1), x1 = min((int)ceilf(fx2), src_w);
            const int y0 = (int)floorf(fy1), y1 = min((int)ceilf(fy2), src_h);
            float ab = 0.f, ag = 0.f, ar = 0.f;
            for (int sy = y0; sy < y1; ++sy) {
                const float wy = fminf(sy + 1.f, fy2) - fmaxf((float)sy, fy1);
                if (wy <= 0.f) continue;
                const unsigned char* row = src + (size_t)sy * src_pitch;
                for (int sx = x0; sx < x1; ++sx) {
                    const float wx = fminf(sx + 1.f, fx2) - fmaxf((float)sx, fx1);
                    if (wx <= 0.f) continue;
                    const float w = wx * wy;
                    const unsigned char* p = row + sx * 3;
                    ab += w * p[0]; ag += w * p[1]; ar += w * p[2];
                }
            }
            const float norm = 1.f / ((fx2 - fx1) * (fy2 - fy1));
            b = ab * norm; g = ag * norm; r = ar * norm;
        } else {
            float fx = (dx + 0.5f) * scale_x - 0.5f, fy = (dy + 0.5f) * scale_y - 0.5f;
            int sx = (int)floorf(fx), sy = (int)floorf(fy);
            float ax = fx - sx, ay = fy - sy;
            if (sx < 0) { sx = 0; ax = 0.f; }
            if (sy < 0) { sy = 0; ay = 0.f; }
            if (sx >= src_w - 1) { sx = src_w - 1; ax = 0.f; }
            if (sy >= src_h - 1) { sy = src_h - 1; ay = 0.f; }
            const int sx1 = min(sx + 1, src_w - 1), sy1 = min(sy + 1, src_h - 1);
            const unsigned char* r0 = src + (size_t)sy * src_pitch;
            const unsigned char* r1 = src + (size_t)sy1 * src_pitch;
            const unsigned char *p00 = r0 + sx * 3, *p01 = r0 + sx1 * 3, *p10 = r1 + sx * 3, *p11 = r1 + sx1 * 3;
            const float w00 = (1.f - ax) * (1.f - ay), w01 = ax * (1.f - ay), w10 = (1.f - ax) * ay, w11 = ax * ay;
            b = w00 * p00[0] + w01 * p01[0] + w10 * p10[0] + w11 * p11[0];
            g = w00 * p00[1] + w01 * p01[1] + w10 * p10[1] + w11 * p11[1];
            r = w00 * p00[2] + w01 * p01[2] + w10 * p10[2] + w11 * p11[2];
        }
    }
    const size_t plane = (size_t)out_h * out_w, i = (size_t)y * out_w + x;
    const float k = 1.f / 255.f;
    store(dst + i, r * k);
    store(dst + plane + i, g * k);
    store(dst + 2 * plane + i, b * k);
}

#define LETTERBOX_ARGS const unsigned char* src, int src_h, int src_w, int src_pitch, T_OUT* dst, \
    int out_h, int out_w, int top, int left, int rh, int rw, float scale_y, float scale_x, int area
#define LETTERBOX_CALL src, src_h, src_w, src_pitch, dst, out_h, out_w, top, left, rh, rw, scale_y, scale_x, area
#define T_OUT float
extern "C" __global__ void letterbox_f32(LETTERBOX_ARGS) { letterbox<float>(LETTERBOX_CALL); }
#undef T_OUT
#define T_OUT unsigned short
extern "C" __global__ void letterbox_f16(LETTERBOX_ARGS) { letterbox<unsigned short>(LETTERBOX_CALL); }
#undef T_OUT

template <typename T>
__device__ void compact_yolov8(const T* __restrict__ raw, int anchors, int num_classes, float floor_score,
                               float* __restrict__ rows, int* __restrict__ counts) {
    const int a = blockIdx.x * blockDim.x + threadIdx.x;
    const int b = blockIdx.y;
    if (a >= anchors) return;
    const T* p = raw + (size_t)b * (4 + num_classes) * anchors;
    float best = load(p + 4 * (size_t)anchors + a);
    int cls = 0;
    for (int c = 1; c < num_classes; ++c) {
        const float s = load(p + (size_t)(4 + c) * anchors + a);
        if (s > best) { best = s; cls = c; }
    }
    if (best >= floor_score) {
        const int slot = atomicAdd(counts + b, 1);
        float* r = rows + ((size_t)b * anchors + slot) * 7;
        r[0] = load(p + a);
        r[1] = load(p + (size_t)anchors + a);
        r[2] = load(p + 2 * (size_t)anchors + a);
        r[3] = load(p + 3 * (size_t)anchors + a);
        r[4] = best;
        r[5] = (float)cls;
        r[6] = (float)a;
    }
}

extern "C" __global__ void compact_yolov8_f32(const float* raw, int anchors, int num_classes, float floor_score,
                                              float* rows, int* counts) {
    compact_yolov8<float>(raw, anchors, num_classes, floor_score, rows, counts);
}
extern "C" __global__ void compact_yolov8_f16(const unsigned short* raw, int anchors, int num_classes,
                                              float floor_score, float* rows, int* counts) {
    compact_yolov8<unsigned short>(raw, anchors, num_classes, floor_score, rows, counts);
}

// rows [B, A, 7]; counts [B]; class_conf [C] (disabled classes hold 2.0); keys [B, A]; eligible [B]
extern "C" __global__ void nms_keys(const float* __restrict__ rows, const int* __restrict__ counts, int anchors,
                                    const float* __restrict__ class_conf, int num_classes,
                                    unsigned long long* __restrict__ keys, int* __restrict__ eligible) {
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    const int b = blockIdx.y;
    if (r >= anchors) return;
    unsigned long long key = ~0ULL;
    if (r < counts[b]) {
        const float* row = rows + ((size_t)b * anchors + r) * 7;
        const int cls = (int)row[5];
        const float conf = (cls >= 0 && cls < num_classes) ? class_conf[cls] : 2.f;
        if (row[4] >= conf) {
            const unsigned int inv = 0xFFFFFFFFu - __float_as_uint(row[4]);  // scores are ≥ 0: bits order like values
            key = ((unsigned long long)inv << 32) | ((unsigned long long)(unsigned int)row[6] << 16) | (unsigned int)r;
            atomicAdd(eligible + b, 1);
        }
    }
    keys[(size_t)b * anchors + r] = key;
}

__device__ __forceinline__ float iou_of(const float* a, const float* b) {
    const float ax1 = a[0] - a[2] * 0.5f, ay1 = a[1] - a[3] * 0.5f, ax2 = a[0] + a[2] * 0.5f, ay2 = a[1] + a[3] * 0.5f;
    const float bx1 = b[0] - b[2] * 0.5f, by1 = b[1] - b[3] * 0.5f, bx2 = b[0] + b[2] * 0.5f, by2 = b[1] + b[3] * 0.5f;
    const float w = fmaxf(fminf(ax2, bx2) - fmaxf(ax1, bx1), 0.f), h = fmaxf(fminf(ay2, by2) - fmaxf(ay1, by1), 0.f);
    const float inter = w * h;
    const float uni = fmaxf(ax2 - ax1, 0.f) * fmaxf(ay2 - ay1, 0.f) + fmaxf(bx2 - bx1, 0.f) * fmaxf(by2 - by1, 0.f) - inter;
    return uni > 0.f ? inter / uni : 0.f;
}

// grid (col blocks, row blocks, B), 64 threads; mask [B, cap, words]; keys sorted ascending per frame
extern "C" __global__ void nms_mask(const float* __restrict__ rows, const unsigned long long* __restrict__ keys,
                                    const int* __restrict__ eligible, int anchors, int cap, int words, float iou_thr,
                                    unsigned long long* __restrict__ mask) {
    const int b = blockIdx.z, row_block = blockIdx.y, col_block = blockIdx.x, t = threadIdx.x;
    const int n = min(eligible[b], cap);
    if (row_block * 64 >= n || col_block * 64 >= n || col_block < row_block) return;
    __shared__ float cols[64][5];
    const int j0 = col_block * 64;
    if (j0 + t < n) {
        const unsigned int r = (unsigned int)(keys[(size_t)b * anchors + j0 + t] & 0xFFFFu);
        const float* row = rows + ((size_t)b * anchors + r) * 7;
        for (int k = 0; k < 4; ++k) cols[t][k] = row[k];
        cols[t][4] = row[5];
    }
    __syncthreads();
    const int i = row_block * 64 + t;
    if (i >= n) return;
    const unsigned int ri = (unsigned int)(keys[(size_t)b * anchors + i] & 0xFFFFu);
    const float* me = rows + ((size_t)b * anchors + ri) * 7;
    unsigned long long bits = 0ULL;
    const int jn = min(64, n - j0);
    for (int k = 0; k < jn; ++k) {
        const int j = j0 + k;
        if (j > i && cols[k][4] == me[5] && iou_of(me, cols[k]) > iou_thr) bits |= 1ULL << k;
    }
    mask[((size_t)b * cap + i) * words + col_block] = bits;
}

// one block per frame; keep [B, keep_stride] holds row indices, best first
extern "C" __global__ void nms_scan(const unsigned long long* __restrict__ keys, const unsigned long long* __restrict__ mask,
                                    const int* __restrict__ eligible, int anchors, int cap, int words, int max_det,
                                    int keep_stride, int* __restrict__ keep, int* __restrict__ keep_count) {
    extern __shared__ unsigned long long removed[];
    const int b = blockIdx.x, t = threadIdx.x;
    const int n = min(eligible[b], cap);
    for (int w = t; w < words; w += blockDim.x) removed[w] = 0ULL;
    __syncthreads();
    int kept = 0;
    for (int i = 0; i < n && kept < max_det; ++i) {
        const bool alive = !((removed[i >> 6] >> (i & 63)) & 1ULL);
        __syncthreads();
        if (alive) {
            if (t == 0) keep[(size_t)b * keep_stride + kept] = (int)(keys[(size_t)b * anchors + i] & 0xFFFFu);
            ++kept;
            const unsigned long long* m = mask + ((size_t)b * cap + i) * words;
            for (int w = t; w < words; w += blockDim.x) removed[w] |= m[w];
        }
        __syncthreads();
    }
    if (t == 0) keep_count[b] = kept;
}
"""
