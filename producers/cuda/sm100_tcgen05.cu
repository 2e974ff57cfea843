// archs: 100a
// Tensor memory: alloc, mma, commit to an mbarrier, ld/st, dealloc (inline PTX, as hand-written kernels do).
#include <cuda/std/cstdint>
using cuda::std::uint32_t;
using cuda::std::uint64_t;
using cuda::std::int32_t;

extern "C" __global__ void tmem_roundtrip(const uint64_t adesc, const uint64_t bdesc, const uint32_t idesc, float* out) {
    __shared__ uint32_t taddr_slot;
    __shared__ uint64_t bar;
    uint32_t slot = (uint32_t)__cvta_generic_to_shared(&taddr_slot);
    uint32_t bar_addr = (uint32_t)__cvta_generic_to_shared(&bar);
    if (threadIdx.x < 32) {
        asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 64;" :: "r"(slot));
        asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
    }
    if (threadIdx.x == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(bar_addr));
    asm volatile("tcgen05.fence::before_thread_sync;");
    __syncthreads();
    asm volatile("tcgen05.fence::after_thread_sync;");
    uint32_t taddr = taddr_slot;
    if (threadIdx.x == 0) {
        asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %4, 0;\n\t"
                     "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;\n}"
                     :: "r"(taddr), "l"(adesc), "l"(bdesc), "r"(idesc), "r"(0));
        asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];" :: "r"(bar_addr));
    }
    asm volatile("{\n\t.reg .pred done;\n\tWAIT:\n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], 0;\n\t@!done bra WAIT;\n}" :: "r"(bar_addr));
    uint32_t r0, r1, r2, r3;
    uint32_t lane_addr = taddr + ((threadIdx.x & 96) << 16);
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x4.b32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(lane_addr));
    asm volatile("tcgen05.wait::ld.sync.aligned;");
    out[threadIdx.x] = __uint_as_float(r0) + __uint_as_float(r1) + __uint_as_float(r2) + __uint_as_float(r3);
    asm volatile("tcgen05.st.sync.aligned.32x32b.x1.b32 [%0], {%1};" :: "r"(lane_addr), "r"(r0));
    asm volatile("tcgen05.wait::st.sync.aligned;");
    __syncthreads();
    if (threadIdx.x < 32) asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 64;" :: "r"(taddr));
}
