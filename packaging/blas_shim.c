/* OpenCV's BLAS/LAPACK calls, answered by NumPy's OpenBLAS.

   opencv-python-headless links its own 39 MB OpenBLAS (plus libgfortran and libquadmath) for the 19
   routines below; NumPy ships a second OpenBLAS. In the bundle this file is compiled into a library
   with the soname cv2.abi3.so asks for, and each routine forwards to NumPy's copy (`scipy_` prefix,
   64-bit integers: ILP64), converting the integer arguments and arrays on the way.

   LP64 side: LAPACK's Fortran interface (every argument by pointer, int) and CBLAS (by value, int).
   Character arguments get their hidden Fortran length (1) passed explicitly, whether or not the
   caller passed one. Built by packaging/shims.py; checked by tests/test_packaging_bundle.py, which
   runs cv2's solve, SVD, eigen and gemm in the bundle against NumPy. */

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

typedef int64_t i64;

/* ---- CBLAS gemm ------------------------------------------------------------------------------ */
#define GEMM(T, name, SCALAR)                                                                     \
    extern void scipy_cblas_##name##64_(int, int, int, i64, i64, i64, SCALAR, const T *, i64,         \
                                        const T *, i64, SCALAR, T *, i64);                           \
    void cblas_##name(int order, int ta, int tb, int m, int n, int k, SCALAR alpha, const T *a,       \
                      int lda, const T *b, int ldb, SCALAR beta, T *c, int ldc) {                     \
        scipy_cblas_##name##64_(order, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);         \
    }

GEMM(float, sgemm, float)
GEMM(double, dgemm, double)
GEMM(void, cgemm, const void *)
GEMM(void, zgemm, const void *)

/* ---- helpers for integer arrays ---------------------------------------------------------------- */
static i64 *widen(const int *src, i64 count) {
    i64 *dst = malloc(sizeof(i64) * (size_t)(count > 0 ? count : 1));
    if (dst && src)
        for (i64 i = 0; i < count; i++) dst[i] = src[i];
    return dst;
}

static void narrow(int *dst, const i64 *src, i64 count) {
    for (i64 i = 0; i < count; i++) dst[i] = (int)src[i];
}

static i64 min64(i64 a, i64 b) { return a < b ? a : b; }

/* ---- LAPACK, per precision ---------------------------------------------------------------------- */
#define LAPACK(T, p)                                                                                  \
    extern void scipy_##p##gesv_64_(i64 *, i64 *, T *, i64 *, i64 *, T *, i64 *, i64 *);              \
    void p##gesv_(int *n, int *nrhs, T *a, int *lda, int *ipiv, T *b, int *ldb, int *info) {          \
        i64 N = *n, NRHS = *nrhs, LDA = *lda, LDB = *ldb, INFO = 0;                                   \
        i64 *piv = widen(NULL, N);                                                                    \
        if (!piv) { *info = -1000; return; }                                                          \
        scipy_##p##gesv_64_(&N, &NRHS, a, &LDA, piv, b, &LDB, &INFO);                                 \
        narrow(ipiv, piv, N);                                                                         \
        free(piv);                                                                                    \
        *info = (int)INFO;                                                                            \
    }                                                                                                 \
    extern void scipy_##p##getrf_64_(i64 *, i64 *, T *, i64 *, i64 *, i64 *);                         \
    void p##getrf_(int *m, int *n, T *a, int *lda, int *ipiv, int *info) {                            \
        i64 M = *m, N = *n, LDA = *lda, INFO = 0, K = min64(*m, *n);                                  \
        i64 *piv = widen(NULL, K);                                                                    \
        if (!piv) { *info = -1000; return; }                                                          \
        scipy_##p##getrf_64_(&M, &N, a, &LDA, piv, &INFO);                                            \
        narrow(ipiv, piv, K);                                                                         \
        free(piv);                                                                                    \
        *info = (int)INFO;                                                                            \
    }                                                                                                 \
    extern void scipy_##p##posv_64_(const char *, i64 *, i64 *, T *, i64 *, T *, i64 *, i64 *, size_t); \
    void p##posv_(const char *uplo, int *n, int *nrhs, T *a, int *lda, T *b, int *ldb, int *info) {   \
        i64 N = *n, NRHS = *nrhs, LDA = *lda, LDB = *ldb, INFO = 0;                                   \
        scipy_##p##posv_64_(uplo, &N, &NRHS, a, &LDA, b, &LDB, &INFO, 1);                             \
        *info = (int)INFO;                                                                            \
    }                                                                                                 \
    extern void scipy_##p##potrf_64_(const char *, i64 *, T *, i64 *, i64 *, size_t);                  \
    void p##potrf_(const char *uplo, int *n, T *a, int *lda, int *info) {                             \
        i64 N = *n, LDA = *lda, INFO = 0;                                                             \
        scipy_##p##potrf_64_(uplo, &N, a, &LDA, &INFO, 1);                                            \
        *info = (int)INFO;                                                                            \
    }                                                                                                 \
    extern void scipy_##p##gels_64_(const char *, i64 *, i64 *, i64 *, T *, i64 *, T *, i64 *, T *,    \
                                    i64 *, i64 *, size_t);                                            \
    void p##gels_(const char *trans, int *m, int *n, int *nrhs, T *a, int *lda, T *b, int *ldb,       \
                  T *work, int *lwork, int *info) {                                                   \
        i64 M = *m, N = *n, NRHS = *nrhs, LDA = *lda, LDB = *ldb, LWORK = *lwork, INFO = 0;           \
        scipy_##p##gels_64_(trans, &M, &N, &NRHS, a, &LDA, b, &LDB, work, &LWORK, &INFO, 1);          \
        *info = (int)INFO;                                                                            \
    }                                                                                                 \
    extern void scipy_##p##geqrf_64_(i64 *, i64 *, T *, i64 *, T *, T *, i64 *, i64 *);               \
    void p##geqrf_(int *m, int *n, T *a, int *lda, T *tau, T *work, int *lwork, int *info) {          \
        i64 M = *m, N = *n, LDA = *lda, LWORK = *lwork, INFO = 0;                                     \
        scipy_##p##geqrf_64_(&M, &N, a, &LDA, tau, work, &LWORK, &INFO);                              \
        *info = (int)INFO;                                                                            \
    }                                                                                                 \
    extern void scipy_##p##gesdd_64_(const char *, i64 *, i64 *, T *, i64 *, T *, T *, i64 *, T *,     \
                                     i64 *, T *, i64 *, i64 *, i64 *, size_t);                        \
    void p##gesdd_(const char *jobz, int *m, int *n, T *a, int *lda, T *s, T *u, int *ldu, T *vt,     \
                   int *ldvt, T *work, int *lwork, int *iwork, int *info) {                           \
        i64 M = *m, N = *n, LDA = *lda, LDU = *ldu, LDVT = *ldvt, LWORK = *lwork, INFO = 0;           \
        i64 *iw = widen(NULL, 8 * min64(M, N));                                                       \
        (void)iwork; /* integer workspace: ours, 64-bit */                                            \
        if (!iw) { *info = -1000; return; }                                                           \
        scipy_##p##gesdd_64_(jobz, &M, &N, a, &LDA, s, u, &LDU, vt, &LDVT, work, &LWORK, iw, &INFO, 1); \
        free(iw);                                                                                     \
        *info = (int)INFO;                                                                            \
    }

LAPACK(float, s)
LAPACK(double, d)

extern void scipy_dgeev_64_(const char *, const char *, i64 *, double *, i64 *, double *, double *, double *,
                            i64 *, double *, i64 *, double *, i64 *, i64 *, size_t, size_t);

void dgeev_(const char *jobvl, const char *jobvr, int *n, double *a, int *lda, double *wr, double *wi,
            double *vl, int *ldvl, double *vr, int *ldvr, double *work, int *lwork, int *info) {
    i64 N = *n, LDA = *lda, LDVL = *ldvl, LDVR = *ldvr, LWORK = *lwork, INFO = 0;
    scipy_dgeev_64_(jobvl, jobvr, &N, a, &LDA, wr, wi, vl, &LDVL, vr, &LDVR, work, &LWORK, &INFO, 1, 1);
    *info = (int)INFO;
}
