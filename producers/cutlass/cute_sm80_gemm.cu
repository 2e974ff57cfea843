// A small CuTe GEMM: cp.async global->shared, ldmatrix shared->registers, SM80 mma.sync atoms, 2-stage pipeline.
#include <cute/tensor.hpp>
#include <cute/atom/mma_atom.hpp>
#include <cute/atom/copy_atom.hpp>
using namespace cute;

template <class TA, class TB, class TC, class SmemA, class SmemB, class CopyA, class CopyB, class Mma, class S2RA, class S2RB>
__global__ void cute_gemm(int M, int N, int K, TA const* A, TB const* B, TC* C, SmemA sA_layout, SmemB sB_layout,
                          CopyA copy_a, CopyB copy_b, Mma mma, S2RA s2r_a, S2RB s2r_b) {
    auto prob = make_shape(M, N, K);
    Tensor mA = make_tensor(make_gmem_ptr(A), select<0, 2>(prob), make_stride(K, Int<1>{}));
    Tensor mB = make_tensor(make_gmem_ptr(B), select<1, 2>(prob), make_stride(K, Int<1>{}));
    Tensor mC = make_tensor(make_gmem_ptr(C), select<0, 1>(prob), make_stride(N, Int<1>{}));
    auto tiler = make_shape(Int<128>{}, Int<128>{}, Int<32>{});
    auto coord = make_coord(blockIdx.x, blockIdx.y, _);
    Tensor gA = local_tile(mA, tiler, coord, Step<_1, X, _1>{});
    Tensor gB = local_tile(mB, tiler, coord, Step<X, _1, _1>{});
    Tensor gC = local_tile(mC, tiler, coord, Step<_1, _1, X>{});

    __shared__ TA smemA[cosize_v<SmemA>];
    __shared__ TB smemB[cosize_v<SmemB>];
    Tensor sA = make_tensor(make_smem_ptr(smemA), sA_layout);
    Tensor sB = make_tensor(make_smem_ptr(smemB), sB_layout);

    auto thr_a = copy_a.get_slice(threadIdx.x);
    auto thr_b = copy_b.get_slice(threadIdx.x);
    Tensor tAgA = thr_a.partition_S(gA);
    Tensor tAsA = thr_a.partition_D(sA);
    Tensor tBgB = thr_b.partition_S(gB);
    Tensor tBsB = thr_b.partition_D(sB);

    auto thr_mma = mma.get_slice(threadIdx.x);
    Tensor tCgC = thr_mma.partition_C(gC);
    Tensor tCrA = thr_mma.partition_fragment_A(sA(_, _, 0));
    Tensor tCrB = thr_mma.partition_fragment_B(sB(_, _, 0));
    Tensor tCrC = thr_mma.make_fragment_C(tCgC);
    clear(tCrC);

    auto s2r_thr_a = s2r_a.get_slice(threadIdx.x);
    Tensor tXsA = s2r_thr_a.partition_S(sA);
    Tensor tXrA = s2r_thr_a.retile_D(tCrA);
    auto s2r_thr_b = s2r_b.get_slice(threadIdx.x);
    Tensor tXsB = s2r_thr_b.partition_S(sB);
    Tensor tXrB = s2r_thr_b.retile_D(tCrB);

    int k_tiles = size<3>(tAgA);
    copy(copy_a, tAgA(_, _, _, 0), tAsA(_, _, _, 0));
    copy(copy_b, tBgB(_, _, _, 0), tBsB(_, _, _, 0));
    cp_async_fence();
    for (int kt = 0; kt < k_tiles; ++kt) {
        int stage = kt & 1;
        if (kt + 1 < k_tiles) {
            copy(copy_a, tAgA(_, _, _, kt + 1), tAsA(_, _, _, stage ^ 1));
            copy(copy_b, tBgB(_, _, _, kt + 1), tBsB(_, _, _, stage ^ 1));
        }
        cp_async_fence();
        cp_async_wait<1>();
        __syncthreads();
        CUTE_UNROLL
        for (int kb = 0; kb < size<2>(tCrA); ++kb) {
            copy(s2r_a, tXsA(_, _, kb, stage), tXrA(_, _, kb));
            copy(s2r_b, tXsB(_, _, kb, stage), tXrB(_, _, kb));
            gemm(mma, tCrA(_, _, kb), tCrB(_, _, kb), tCrC);
        }
        __syncthreads();
    }
    axpby(1.0f, tCrC, 0.0f, tCgC);
}

void instantiate() {
    using T = half_t;
    auto swizzle = composition(Swizzle<2, 3, 3>{}, Layout<Shape<_8, _32>, Stride<_32, _1>>{});
    auto sA = tile_to_shape(swizzle, make_shape(Int<128>{}, Int<32>{}, Int<2>{}));
    auto sB = tile_to_shape(swizzle, make_shape(Int<128>{}, Int<32>{}, Int<2>{}));
    TiledCopy cA = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, T>{},
                                   Layout<Shape<_32, _4>, Stride<_4, _1>>{}, Layout<Shape<_1, _8>>{});
    TiledCopy cB = cA;
    TiledMMA mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2, _2>>{}, Tile<_32, _32, _16>{});
    auto s2rA = make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, T>{}, mma);
    auto s2rB = make_tiled_copy_B(Copy_Atom<SM75_U32x4_LDSM_N, T>{}, mma);
    auto k = cute_gemm<T, T, float, decltype(sA), decltype(sB), decltype(cA), decltype(cB), decltype(mma),
                       decltype(s2rA), decltype(s2rB)>;
    (void)k;
}
