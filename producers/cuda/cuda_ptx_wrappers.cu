// archs: 90a 100a 120a
#include <cuda/ptx>
#include <cuda/barrier>
#include <cuda/std/cstdint>
namespace ptx = cuda::ptx;

__global__ void ptx_wrappers(int* gout, const int4* gin, unsigned long long* times) {
    __shared__ alignas(16) int4 sbuf[64];
    __shared__ alignas(8) cuda::std::uint64_t mbar;
    times[0] = ptx::get_sreg_clock64();
    unsigned lane = ptx::get_sreg_laneid();
    unsigned warp = ptx::get_sreg_warpid();
    unsigned sm = ptx::get_sreg_smid();
#if __CUDA_ARCH__ >= 900
    if (threadIdx.x == 0) ptx::mbarrier_init(&mbar, blockDim.x);
    ptx::fence_proxy_async(ptx::space_shared);
    __syncthreads();
    if (threadIdx.x == 0) {
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &mbar, sizeof(sbuf));
        ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, sbuf, gin, sizeof(sbuf), &mbar);
    }
    auto st = ptx::mbarrier_arrive(&mbar);
    while (!ptx::mbarrier_try_wait(&mbar, st)) {}
    unsigned cr = ptx::get_sreg_cluster_ctarank();
    ptx::fence(ptx::sem_acq_rel, ptx::scope_cluster);
    ptx::red_async(ptx::op_add, (cuda::std::uint32_t*)&sbuf[1], 3u, &mbar);
    gout[threadIdx.x] = sbuf[threadIdx.x & 63].x + lane + warp + sm + cr;
    if (threadIdx.x == 0) {
        ptx::fence_proxy_async(ptx::space_shared);
        ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, (int4*)gout + 64, sbuf, sizeof(sbuf));
        ptx::cp_async_bulk_commit_group();
        ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>{});
    }
#else
    gout[threadIdx.x] = gin[threadIdx.x].y + lane + warp + sm;
#endif
    times[1] = ptx::get_sreg_globaltimer();
    unsigned long long mask = ptx::get_sreg_lanemask_lt();
    gout[blockDim.x + threadIdx.x] = (int)mask + ptx::get_sreg_nsmid();
}
