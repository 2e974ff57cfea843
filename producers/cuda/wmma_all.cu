// archs: 75 87 100a 120a
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
using namespace nvcuda;

template <int M, int N, int K, typename A, typename B, typename C, typename LA, typename LB>
__device__ void one_mma(const A* a, const B* b, C* c, int lda) {
    wmma::fragment<wmma::matrix_a, M, N, K, A, LA> fa;
    wmma::fragment<wmma::matrix_b, M, N, K, B, LB> fb;
    wmma::fragment<wmma::accumulator, M, N, K, C> fc;
    wmma::fill_fragment(fc, C(0));
    wmma::load_matrix_sync(fa, a, lda);
    wmma::load_matrix_sync(fb, b, lda);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(c, fc, lda, wmma::mem_col_major);
}

__global__ void wmma_f16(const half* a, const half* b, float* c, half* ch) {
    one_mma<16, 16, 16, half, half, float, wmma::row_major, wmma::col_major>(a, b, c, 16);
    one_mma<32, 8, 16, half, half, float, wmma::col_major, wmma::row_major>(a, b, c + 256, 32);
    one_mma<8, 32, 16, half, half, half, wmma::row_major, wmma::row_major>(a, b, ch, 32);
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::load_matrix_sync(acc, c, 16, wmma::mem_row_major);
    for (int i = 0; i < acc.num_elements; ++i) acc.x[i] *= 2.f;
    wmma::store_matrix_sync(c + 512, acc, 16, wmma::mem_row_major);
}

__global__ void wmma_int(const signed char* a, const signed char* b, int* c, const unsigned char* ua) {
#if __CUDA_ARCH__ >= 720
    one_mma<16, 16, 16, signed char, signed char, int, wmma::row_major, wmma::col_major>(a, b, c, 16);
    one_mma<32, 8, 16, unsigned char, unsigned char, int, wmma::row_major, wmma::col_major>(ua, ua, c + 256, 32);
#endif
}

__global__ void wmma_sub_byte(const void* a, const void* b, int* c) {
#if __CUDA_ARCH__ >= 750
    using namespace wmma::experimental;
    wmma::fragment<wmma::matrix_a, 8, 8, 32, precision::s4, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 32, precision::s4, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, 32, int> fc;
    wmma::fill_fragment(fc, 0);
    wmma::load_matrix_sync(fa, a, 32);
    wmma::load_matrix_sync(fb, b, 32);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(c, fc, 8, wmma::mem_row_major);
    wmma::fragment<wmma::matrix_a, 8, 8, 128, precision::b1, wmma::row_major> ba;
    wmma::fragment<wmma::matrix_b, 8, 8, 128, precision::b1, wmma::col_major> bb;
    wmma::fragment<wmma::accumulator, 8, 8, 128, int> bc;
    wmma::fill_fragment(bc, 0);
    wmma::load_matrix_sync(ba, a, 128);
    wmma::load_matrix_sync(bb, b, 128);
    wmma::bmma_sync(bc, ba, bb, bc, bmmaBitOpXOR, bmmaAccumulateOpPOPC);
#if __CUDA_ARCH__ >= 800
    wmma::bmma_sync(bc, ba, bb, bc, bmmaBitOpAND);
#endif
    wmma::store_matrix_sync(c + 64, bc, 8, wmma::mem_col_major);
#endif
}

__global__ void wmma_ampere(const __nv_bfloat16* a, const __nv_bfloat16* b, const float* fa32, const double* da,
                            float* c, double* dc) {
#if __CUDA_ARCH__ >= 800
    one_mma<16, 16, 16, __nv_bfloat16, __nv_bfloat16, float, wmma::row_major, wmma::row_major>(a, b, c, 16);
    one_mma<8, 32, 16, __nv_bfloat16, __nv_bfloat16, float, wmma::col_major, wmma::col_major>(a, b, c + 256, 32);
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> ta;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> tb;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> tc;
    wmma::fill_fragment(tc, 0.f);
    wmma::load_matrix_sync(ta, fa32, 8);
    wmma::load_matrix_sync(tb, fa32 + 128, 8);
    for (int i = 0; i < ta.num_elements; ++i) ta.x[i] = wmma::__float_to_tf32(ta.x[i]);
    wmma::mma_sync(tc, ta, tb, tc);
    wmma::store_matrix_sync(c + 512, tc, 16, wmma::mem_row_major);
    one_mma<8, 8, 4, double, double, double, wmma::row_major, wmma::col_major>(da, da + 32, dc, 8);
#endif
}
