// tcgen05.cu - Blackwell (sm_100a) tensor-memory MMA, written with inline PTX.
//
// Each CTA computes a 128x64 f32 tile D = A * B^T with A (128xK) and B (64xK)
// in f16. The operands are expected in global memory already packed into
// 128B-swizzled K-major tiles (one contiguous block per 64-wide K step), so
// a plain 1-D bulk copy (cp.async.bulk) can move them into shared memory.
//
//   warp 0       allocates 64 columns of tensor memory (tcgen05.alloc) and
//                gives up the allocation permit;
//   one thread   issues tcgen05.mma (kind::f16) from shared-memory
//                descriptors and tcgen05.commit's completion to an mbarrier;
//   all 4 warps  read their 32 TMEM lanes back (tcgen05.ld 32x32b), scale by
//                alpha and store the result, then warp 0 frees the tensor memory.
//
// The kernel is launched as 2-CTA clusters (__cluster_dims__), which shows up
// in PTX as .explicitcluster / .reqnctapercluster.

#include <cuda_fp16.h>
#include <stdint.h>

#define BLOCK_M 128
#define BLOCK_N 64
#define BLOCK_K 64          // 64 halves = one 128-byte swizzle row
#define MMA_K   16
#define TMEM_COLS 64        // f32 accumulator: one column per N element

static constexpr uint32_t kABytes = BLOCK_M * BLOCK_K * sizeof(__half);
static constexpr uint32_t kBBytes = BLOCK_N * BLOCK_K * sizeof(__half);

__device__ __forceinline__ uint32_t smem_u32(const void *p)
{
    return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// ---- mbarrier

__device__ __forceinline__ void mbar_init(uint64_t *bar, uint32_t count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_u32(bar)), "r"(count) : "memory");
}

__device__ __forceinline__ void mbar_expect_tx(uint64_t *bar, uint32_t bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                 ::"r"(smem_u32(bar)), "r"(bytes) : "memory");
}

__device__ __forceinline__ void mbar_wait(uint64_t *bar, uint32_t parity)
{
    asm volatile("{\n\t"
                 ".reg .pred ready;\n"
                 "SPIN_%=:\n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 ready, [%0], %1;\n\t"
                 "@!ready bra SPIN_%=;\n\t"
                 "}"
                 ::"r"(smem_u32(bar)), "r"(parity) : "memory");
}

// ---- 1-D bulk copy global -> shared, completion counted in bytes on `bar`

__device__ __forceinline__ void bulk_load(void *dst, const void *src, uint32_t bytes, uint64_t *bar)
{
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 ::"r"(smem_u32(dst)), "l"(__cvta_generic_to_global(src)), "r"(bytes), "r"(smem_u32(bar))
                 : "memory");
}

// ---- tensor memory management (whole warp)

__device__ __forceinline__ void tmem_alloc(uint32_t *dst_smem, uint32_t ncols)
{
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;"
                 ::"r"(smem_u32(dst_smem)), "r"(ncols) : "memory");
}

__device__ __forceinline__ void tmem_relinquish()
{
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;" ::: "memory");
}

__device__ __forceinline__ void tmem_dealloc(uint32_t taddr, uint32_t ncols)
{
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;" ::"r"(taddr), "r"(ncols) : "memory");
}

__device__ __forceinline__ void tc_fence_before() { asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory"); }
__device__ __forceinline__ void tc_fence_after() { asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory"); }

// ---- descriptors

// Shared-memory descriptor (tcgen05 flavour): K-major, 128-byte swizzle,
// 8-row x 128-byte atoms (SBO = 1024 bytes), descriptor version 1.
__device__ __forceinline__ uint64_t smem_desc(const void *tile)
{
    uint64_t d = 0;
    d |= (uint64_t)((smem_u32(tile) & 0x3FFFF) >> 4);   // start address
    d |= (uint64_t)(16 >> 4) << 16;                      // leading byte offset
    d |= (uint64_t)(1024 >> 4) << 32;                    // stride byte offset
    d |= (uint64_t)1 << 46;                              // fixed version field
    d |= (uint64_t)2 << 61;                              // swizzle: 128B
    return d;
}

// Instruction descriptor for kind::f16: f16 x f16 -> f32, both K-major.
__host__ __device__ constexpr uint32_t make_idesc_f16(int m, int n)
{
    return (1u << 4)                      // D format: f32
         | (0u << 7)                      // A format: f16
         | (0u << 10)                     // B format: f16
         | ((uint32_t)(n >> 3) << 17)     // N / 8
         | ((uint32_t)(m >> 4) << 24);    // M / 16
}

// D[tmem] (+)= A[smem] * B[smem]; issued by a single thread.
__device__ __forceinline__ void tc_mma_f16(uint32_t d_tmem, uint64_t a_desc, uint64_t b_desc,
                                           uint32_t idesc, uint32_t accumulate)
{
    asm volatile("{\n\t"
                 ".reg .pred acc;\n\t"
                 "setp.ne.b32 acc, %4, 0;\n\t"
                 "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, acc;\n\t"
                 "}"
                 ::"r"(d_tmem), "l"(a_desc), "l"(b_desc), "r"(idesc), "r"(accumulate)
                 : "memory");
}

// Arrive on `bar` once all previously issued tcgen05.mma have completed.
__device__ __forceinline__ void tc_commit(uint64_t *bar)
{
    asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];"
                 ::"r"(smem_u32(bar)) : "memory");
}

// Each thread of the warp reads 16 consecutive 32-bit columns of its lane.
__device__ __forceinline__ void tmem_ld_16(uint32_t taddr, uint32_t (&v)[16])
{
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x16.b32 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15}, [%16];"
                 : "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3]), "=r"(v[4]), "=r"(v[5]),
                   "=r"(v[6]), "=r"(v[7]), "=r"(v[8]), "=r"(v[9]), "=r"(v[10]), "=r"(v[11]),
                   "=r"(v[12]), "=r"(v[13]), "=r"(v[14]), "=r"(v[15])
                 : "r"(taddr));
}

__device__ __forceinline__ void tmem_wait_ld() { asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory"); }

__device__ __forceinline__ bool elect_one()
{
    uint32_t leader;
    asm volatile("{\n\t.reg .pred P;\n\telect.sync _|P, 0xffffffff;\n\tselp.u32 %0, 1, 0, P;\n\t}"
                 : "=r"(leader));
    return leader != 0;
}

// ------------------------------------------------------------------ kernel

extern "C" __global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(128, 1)
tcgen05_gemm_f16(const __half *__restrict__ a_tiles,   // [m_blocks][k_blocks][128*64]
                 const __half *__restrict__ b_tiles,   // [n_blocks][k_blocks][64*64]
                 float *__restrict__ d, float alpha, int m, int n, int k_blocks)
{
    __shared__ __align__(1024) __half smem_a[BLOCK_M * BLOCK_K];
    __shared__ __align__(1024) __half smem_b[BLOCK_N * BLOCK_K];
    __shared__ __align__(8) uint64_t load_bar;
    __shared__ __align__(8) uint64_t mma_bar;
    __shared__ uint32_t tmem_base_slot;

    const int warp = threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    // The two CTAs of a cluster take neighbouring N tiles of the same M rows.
    const int n_block = blockIdx.x;
    const int m_block = blockIdx.y;

    if (warp == 0) {
        tmem_alloc(&tmem_base_slot, TMEM_COLS);
        tmem_relinquish();
    }
    if (threadIdx.x == 32) {
        mbar_init(&load_bar, 1);
        mbar_init(&mma_bar, 1);
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    tc_fence_before();
    __syncthreads();
    tc_fence_after();
    const uint32_t tmem_d = tmem_base_slot;

    constexpr uint32_t idesc = make_idesc_f16(BLOCK_M, BLOCK_N);
    uint32_t phase = 0;

    for (int kb = 0; kb < k_blocks; ++kb) {
        if (warp == 0 && elect_one()) {
            const __half *ga = a_tiles + ((size_t)m_block * k_blocks + kb) * (BLOCK_M * BLOCK_K);
            const __half *gb = b_tiles + ((size_t)n_block * k_blocks + kb) * (BLOCK_N * BLOCK_K);
            mbar_expect_tx(&load_bar, kABytes + kBBytes);
            bulk_load(smem_a, ga, kABytes, &load_bar);
            bulk_load(smem_b, gb, kBBytes, &load_bar);

            mbar_wait(&load_bar, phase);
            tc_fence_after();
#pragma unroll
            for (int kk = 0; kk < BLOCK_K / MMA_K; ++kk) {
                uint64_t da = smem_desc(smem_a + kk * MMA_K);
                uint64_t db = smem_desc(smem_b + kk * MMA_K);
                tc_mma_f16(tmem_d, da, db, idesc, (kb | kk) != 0);
            }
            tc_commit(&mma_bar);
        }
        // Everyone waits for the MMAs before the tiles are overwritten.
        mbar_wait(&mma_bar, phase);
        phase ^= 1;
    }
    tc_fence_after();

    // Epilogue: warp w owns TMEM lanes [32w, 32w+32) = rows of the tile.
    const int row = m_block * BLOCK_M + warp * 32 + lane;
    const uint32_t lane_base = tmem_d + ((uint32_t)(warp * 32) << 16);
#pragma unroll
    for (int chunk = 0; chunk < BLOCK_N / 16; ++chunk) {
        uint32_t v[16];
        tmem_ld_16(lane_base + chunk * 16, v);
        tmem_wait_ld();
        if (row < m) {
#pragma unroll
            for (int j = 0; j < 16; ++j) {
                const int col = n_block * BLOCK_N + chunk * 16 + j;
                if (col < n)
                    d[(size_t)row * n + col] = alpha * __uint_as_float(v[j]);
            }
        }
    }

    tc_fence_before();
    __syncthreads();
    if (warp == 0) {
        tc_fence_after();
        tmem_dealloc(tmem_d, TMEM_COLS);
    }
}
