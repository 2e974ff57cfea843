// archs: 90a 100a
// mbarrier, TMA (cp.async.bulk), elect, setmaxnreg, fence.proxy through cuda::ptx
#include <cuda/ptx>
#include <cuda/barrier>
#include <cuda/std/cstdint>
using cuda::std::uint32_t;
using cuda::std::uint64_t;
using cuda::std::int32_t;
namespace ptx = cuda::ptx;

extern "C" __global__ void bulk_copy(const int* __restrict__ in, int* out, int n) {
    __shared__ alignas(128) int buf[1024];
    __shared__ uint64_t bar;
    if (threadIdx.x == 0) {
        ptx::mbarrier_init(&bar, 1);
        ptx::fence_proxy_async(ptx::space_shared);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf, in + blockIdx.x * 1024, sizeof(buf), &bar);
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, sizeof(buf));
    }
    while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {
    }
    buf[threadIdx.x] += 1;
    ptx::fence_proxy_async(ptx::space_shared);
    __syncthreads();
    if (threadIdx.x == 0) {
        ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, out + blockIdx.x * 1024, buf, sizeof(buf));
        ptx::cp_async_bulk_commit_group();
        ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
    }
}

extern "C" __global__ void tma_2d(const void* desc, float* out) {
    __shared__ alignas(128) float tile[64][64];
    __shared__ uint64_t bar;
    if (threadIdx.x == 0) ptx::mbarrier_init(&bar, 1);
    __syncthreads();
    if (threadIdx.x == 0) {
        int32_t coords[2] = {(int32_t)blockIdx.x * 64, (int32_t)blockIdx.y * 64};
        ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, &tile[0][0], desc, coords, &bar);
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, sizeof(tile));
    }
    while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {
    }
    out[threadIdx.x] = tile[threadIdx.x % 64][threadIdx.x / 64];
    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
    unsigned pred;
    asm volatile("{\n\t.reg .pred p;\n\telect.sync _|p, 0xffffffff;\n\tselp.u32 %0, 1, 0, p;\n}" : "=r"(pred));
    out[1024 + threadIdx.x] = pred;
}
