// archs: 90 90a 100a 120a
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void __cluster_dims__(2, 1, 1) cluster_hist(const int* in, int* bins, int n, int nbins) {
    extern __shared__ int smem[];
    cg::cluster_group cluster = cg::this_cluster();
    unsigned rank = cluster.block_rank();
    int per = nbins / 2;
    for (int k = threadIdx.x; k < per; k += blockDim.x) smem[k] = 0;
    cluster.sync();
    for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < n; k += gridDim.x * blockDim.x) {
        int b = in[k] % nbins;
        int* dst = cluster.map_shared_rank(smem, b / per);
        atomicAdd(dst + b % per, 1);
    }
    cluster.sync();
    for (int k = threadIdx.x; k < per; k += blockDim.x) atomicAdd(&bins[rank * per + k], smem[k]);
}

extern "C" __global__ void cluster_info(unsigned* out) {
    cg::cluster_group c = cg::this_cluster();
    dim3 bi = c.block_index();
    unsigned r;
    asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    out[threadIdx.x] = c.num_blocks() + bi.x + c.dim_blocks().x + r + c.thread_rank();
    c.sync();
}
