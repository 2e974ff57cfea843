// wgmma_tma.cu - a Hopper (sm_90a) warp-specialised GEMM tile.
//
// One CTA computes a 64x64 tile of C = A * B^T (A: MxK, B: NxK, both f16,
// K-major, C: f32 row-major). Two warpgroups:
//   * warpgroup 0 is the producer: it gives registers back (setmaxnreg.dec)
//     and one elected thread streams A/B tiles into shared memory with TMA
//     (cp.async.bulk.tensor), signalling "full" mbarriers via complete_tx.
//   * warpgroup 1 is the consumer: it takes extra registers
//     (setmaxnreg.inc), waits on the "full" barriers, runs wgmma.mma_async
//     m64n64k16 from shared-memory descriptors, and releases each stage
//     through an "empty" barrier.
// All Hopper-specific instructions are written as inline PTX so that the
// generated .ptx shows them verbatim.

#include <cuda.h>      // CUtensorMap
#include <cuda_fp16.h>
#include <stdint.h>

#define TILE_M 64
#define TILE_N 64
#define TILE_K 64              // 64 halves = 128 bytes: one 128B swizzle row
#define STAGES 2
#define WG_THREADS 128

static constexpr uint32_t kStageBytes = (TILE_M + TILE_N) * TILE_K * sizeof(__half);

// ---------------------------------------------------------------- helpers

__device__ __forceinline__ uint32_t smem_u32(const void *p)
{
    return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ bool elect_one()
{
    uint32_t is_leader;
    asm volatile("{\n\t"
                 ".reg .pred P;\n\t"
                 "elect.sync _|P, %1;\n\t"
                 "selp.u32 %0, 1, 0, P;\n\t"
                 "}"
                 : "=r"(is_leader)
                 : "r"(0xffffffffu));
    return is_leader != 0;
}

__device__ __forceinline__ void mbar_init(uint64_t *bar, uint32_t count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_u32(bar)), "r"(count) : "memory");
}

__device__ __forceinline__ void mbar_arrive_expect_tx(uint64_t *bar, uint32_t bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                 ::"r"(smem_u32(bar)), "r"(bytes) : "memory");
}

__device__ __forceinline__ void mbar_arrive(uint64_t *bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_u32(bar)) : "memory");
}

__device__ __forceinline__ void mbar_wait(uint64_t *bar, uint32_t parity)
{
    asm volatile("{\n\t"
                 ".reg .pred done;\n"
                 "WAIT_%=:\n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n\t"
                 "@!done bra WAIT_%=;\n\t"
                 "}"
                 ::"r"(smem_u32(bar)), "r"(parity) : "memory");
}

// 2-D TMA load of one box into shared memory; completion is reported to `bar`.
__device__ __forceinline__ void tma_load_2d(void *dst, const CUtensorMap *map,
                                            uint64_t *bar, int c0, int c1)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%3, %4}], [%2];"
                 ::"r"(smem_u32(dst)), "l"(reinterpret_cast<uint64_t>(map)),
                   "r"(smem_u32(bar)), "r"(c0), "r"(c1)
                 : "memory");
}

__device__ __forceinline__ void prefetch_tensormap(const CUtensorMap *map)
{
    asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<uint64_t>(map)) : "memory");
}

// Shared-memory matrix descriptor for a K-major tile with 128-byte swizzle:
// 8 rows of 128 bytes form one 1024-byte swizzle atom (stride byte offset).
__device__ __forceinline__ uint64_t make_desc(const void *tile)
{
    uint64_t addr = smem_u32(tile);
    uint64_t desc = 0;
    desc |= (addr & 0x3FFFF) >> 4;              // start address, bits 0-13
    desc |= uint64_t(16 >> 4) << 16;            // leading byte offset (unused for swizzled K-major)
    desc |= uint64_t(1024 >> 4) << 32;          // stride byte offset
    desc |= uint64_t(1) << 62;                  // swizzle mode: 128B
    return desc;
}

template <int N>
__device__ __forceinline__ void setmaxnreg_inc() { asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(N)); }
template <int N>
__device__ __forceinline__ void setmaxnreg_dec() { asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(N)); }

__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
template <int N>
__device__ __forceinline__ void wgmma_wait() { asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory"); }

// D(64x64, f32) (+)= A(64x16, f16, smem) * B(16x64, f16, smem)
__device__ __forceinline__ void wgmma_m64n64k16(float (&d)[32], uint64_t desc_a, uint64_t desc_b,
                                                int accumulate)
{
    asm volatile(
        "{\n\t"
        ".reg .pred p;\n\t"
        "setp.ne.b32 p, %34, 0;\n\t"
        "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 "
        "{%0, %1, %2, %3, %4, %5, %6, %7, "
        "%8, %9, %10, %11, %12, %13, %14, %15, "
        "%16, %17, %18, %19, %20, %21, %22, %23, "
        "%24, %25, %26, %27, %28, %29, %30, %31}, "
        "%32, %33, p, 1, 1, 0, 0;\n\t"
        "}"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
          "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
          "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
          "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
        : "l"(desc_a), "l"(desc_b), "r"(accumulate));
}

// ----------------------------------------------------------------- kernel

extern "C" __global__ void __launch_bounds__(2 * WG_THREADS, 1)
hopper_gemm_f16_tile(const __grid_constant__ CUtensorMap tmap_a,
                     const __grid_constant__ CUtensorMap tmap_b,
                     float *__restrict__ c, int m, int n, int k)
{
    __shared__ __align__(1024) __half smem_a[STAGES][TILE_M * TILE_K];
    __shared__ __align__(1024) __half smem_b[STAGES][TILE_N * TILE_K];
    __shared__ __align__(8) uint64_t full_bar[STAGES];
    __shared__ __align__(8) uint64_t empty_bar[STAGES];

    const int warpgroup = threadIdx.x / WG_THREADS;
    const int tid_in_wg = threadIdx.x % WG_THREADS;
    const int tile_m = blockIdx.y * TILE_M;
    const int tile_n = blockIdx.x * TILE_N;
    const int k_tiles = (k + TILE_K - 1) / TILE_K;

    if (threadIdx.x == 0) {
        prefetch_tensormap(&tmap_a);
        prefetch_tensormap(&tmap_b);
        for (int s = 0; s < STAGES; ++s) {
            mbar_init(&full_bar[s], 1);                 // producer's expect_tx arrival
            mbar_init(&empty_bar[s], WG_THREADS);      // every consumer thread
        }
        // Make the initialised barriers visible to the async (TMA) proxy.
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    }
    __syncthreads();

    if (warpgroup == 0) {
        // ---------------- producer
        setmaxnreg_dec<40>();
        if (threadIdx.x / 32 == 0 && elect_one()) {
            for (int kt = 0; kt < k_tiles; ++kt) {
                const int s = kt % STAGES;
                const uint32_t phase = (kt / STAGES) & 1;
                if (kt >= STAGES)
                    mbar_wait(&empty_bar[s], phase ^ 1);
                mbar_arrive_expect_tx(&full_bar[s], kStageBytes);
                tma_load_2d(smem_a[s], &tmap_a, &full_bar[s], kt * TILE_K, tile_m);
                tma_load_2d(smem_b[s], &tmap_b, &full_bar[s], kt * TILE_K, tile_n);
            }
        }
    } else {
        // ---------------- consumer
        setmaxnreg_inc<232>();
        float acc[32];
#pragma unroll
        for (int i = 0; i < 32; ++i)
            acc[i] = 0.0f;

        for (int kt = 0; kt < k_tiles; ++kt) {
            const int s = kt % STAGES;
            mbar_wait(&full_bar[s], (kt / STAGES) & 1);

            wgmma_fence();
#pragma unroll
            for (int kk = 0; kk < TILE_K / 16; ++kk) {
                // Step 16 halves (32 bytes) along K inside the swizzled row.
                uint64_t da = make_desc(&smem_a[s][kk * 16]);
                uint64_t db = make_desc(&smem_b[s][kk * 16]);
                wgmma_m64n64k16(acc, da, db, (kt > 0 || kk > 0) ? 1 : 0);
            }
            wgmma_commit();
            wgmma_wait<0>();
            mbar_arrive(&empty_bar[s]);
        }

        // Accumulator fragment layout of m64nNk16 (f32): each warp owns 16 rows.
        const int warp = tid_in_wg / 32;
        const int lane = tid_in_wg % 32;
#pragma unroll
        for (int j = 0; j < 32; ++j) {
            const int row = tile_m + warp * 16 + (lane / 4) + 8 * ((j / 2) % 2);
            const int col = tile_n + (j / 4) * 8 + (lane % 4) * 2 + (j % 2);
            if (row < m && col < n)
                c[(size_t)row * n + col] = acc[j];
        }
    }
}
