// archs: 75 90a 100a
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;

__global__ void cg_grid_reduce(const float* in, float* partial, float* out, int n) {
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    auto t16 = cg::tiled_partition<16>(block);
    auto t4 = cg::tiled_partition<4>(t16);
    float acc = 0.f;
    for (unsigned long long i = grid.thread_rank(); i < n; i += grid.size()) acc += in[i];
    acc = cg::reduce(t16, acc, cg::plus<float>());
    float mx = cg::reduce(t4, acc, cg::greater<float>());
    if (t16.thread_rank() == 0) partial[grid.thread_rank() / 16] = acc + mx;
    grid.sync();
    if (grid.thread_rank() == 0) {
        float s = 0.f;
        for (unsigned i = 0; i < grid.size() / 16; ++i) s += partial[i];
        *out = s;
    }
}

__global__ void cg_partitions(const int* in, int* out) {
    auto block = cg::this_thread_block();
    auto warp = cg::tiled_partition<32>(block);
    int v = in[block.thread_rank()];
    auto active = cg::coalesced_threads();
#if __CUDA_ARCH__ >= 700
    auto lab = cg::labeled_partition(warp, v & 3);
    auto bin = cg::binary_partition(warp, v > 0);
    int a = cg::reduce(lab, v, cg::bit_xor<int>());
    int b = cg::inclusive_scan(bin, v, cg::plus<int>()) + (int)bin.size();
    lab.sync();
#else
    int a = 0, b = 0;
#endif
    int c = cg::exclusive_scan(warp, (unsigned)v, cg::bit_or<unsigned>());
    int d = cg::reduce(warp, v, cg::less<int>());
    int e = warp.shfl_down(v, 3) + warp.shfl_xor(v, 5) + active.shfl(v, 0);
    bool any = warp.any(v < 0), all = warp.all(v > -100);
    unsigned bal = warp.ballot(v & 1);
#if __CUDA_ARCH__ >= 700
    unsigned m = warp.match_any(v & 7);
    e += m;
#endif
    out[block.thread_rank()] = a + b + c + d + e + any + all + bal + active.num_threads();
}

__global__ void cg_memcpy(const double* in, double* out, int n) {
    extern __shared__ double dsm[];
    auto block = cg::this_thread_block();
    auto tile = cg::tiled_partition<32>(block);
    cg::memcpy_async(block, dsm, in + blockIdx.x * n, sizeof(double) * n);
    cg::wait(block);
    cg::memcpy_async(tile, dsm + n, in + blockIdx.x * n + tile.meta_group_rank() * 32, sizeof(double) * 32);
    cg::wait_prior<0>(tile);
    double s = 0;
    for (int i = block.thread_rank(); i < n; i += block.size()) s += dsm[i] * dsm[n + (i & 31)];
    s = cg::reduce(tile, s, cg::plus<double>());
    if (tile.thread_rank() == 0) atomicAdd(out, s);
}

#if __CUDA_ARCH__ >= 900 || !defined(__CUDA_ARCH__)
__global__ void __cluster_dims__(2, 1, 1) cg_cluster(int* out) {
#if __CUDA_ARCH__ >= 900
    __shared__ int sm[128];
    auto cluster = cg::this_cluster();
    unsigned r = cluster.block_rank();
    sm[threadIdx.x] = r * 1000 + threadIdx.x;
    cluster.sync();
    int* peer = cluster.map_shared_rank(sm, r ^ 1);
    int v = peer[threadIdx.x];
    cluster.sync();
    dim3 bi = cluster.block_index();
    out[blockIdx.x * 128 + threadIdx.x] = v + bi.x + cluster.num_blocks() + cluster.dim_blocks().x + (int)cluster.thread_rank();
#endif
}
#endif
