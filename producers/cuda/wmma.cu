// archs: 75 80 90 100a 120a
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
using namespace nvcuda;

extern "C" __global__ void wmma_f16(const half* a, const half* b, float* c, int M, int N, int K) {
    int wm = (blockIdx.x * blockDim.x + threadIdx.x) / 32, wn = blockIdx.y;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < K; k += 16) {
        wmma::load_matrix_sync(fa, a + wm * 16 * K + k, K);
        wmma::load_matrix_sync(fb, b + wn * 16 * K + k, K);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    wmma::store_matrix_sync(c + wm * 16 * N + wn * 16, acc, N, wmma::mem_row_major);
}

extern "C" __global__ void wmma_s8(const signed char* a, const signed char* b, int* c) {
    wmma::fragment<wmma::matrix_a, 32, 8, 16, signed char, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 32, 8, 16, signed char, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 32, 8, 16, int> acc;
    wmma::fill_fragment(acc, 0);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(acc, fa, fb, acc, true);
    wmma::store_matrix_sync(c, acc, 8, wmma::mem_col_major);
}

#if __CUDA_ARCH__ >= 800
extern "C" __global__ void wmma_tf32_bf16(const float* a, const float* b, float* c, const __nv_bfloat16* x,
                                          const __nv_bfloat16* y, float* z, const double* p, double* q) {
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc;
    wmma::load_matrix_sync(fa, a, 8);
    wmma::load_matrix_sync(fb, b, 16);
    for (int i = 0; i < fa.num_elements; i++) fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
    wmma::fill_fragment(acc, 1.0f);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(c, acc, 16, wmma::mem_row_major);

    wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> ba;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> bb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> bacc;
    wmma::load_matrix_sync(ba, x, 16);
    wmma::load_matrix_sync(bb, y, 16);
    wmma::fill_fragment(bacc, 0.f);
    wmma::mma_sync(bacc, ba, bb, bacc);
    wmma::store_matrix_sync(z, bacc, 16, wmma::mem_col_major);

    wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> da;
    wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> db;
    wmma::fragment<wmma::accumulator, 8, 8, 4, double> dacc;
    wmma::load_matrix_sync(da, p, 4);
    wmma::load_matrix_sync(db, p + 32, 4);
    wmma::fill_fragment(dacc, 0.0);
    wmma::mma_sync(dacc, da, db, dacc);
    wmma::store_matrix_sync(q, dacc, 8, wmma::mem_row_major);
}
#endif
