// archs: 75 80 90 100a 120a
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__device__ __forceinline__ float warp_sum(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}

extern "C" __global__ void block_sum(const float* __restrict__ in, float* out, int n) {
    __shared__ float partial[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.f;
    v = warp_sum(v);
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) partial[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < (blockDim.x + 31) / 32 ? partial[lane] : 0.f;
        v = warp_sum(v);
        if (lane == 0) atomicAdd(out, v);
    }
}

extern "C" __global__ void vote_and_ballot(const int* in, unsigned* out) {
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    unsigned b = __ballot_sync(0xffffffffu, v > 0);
    int a = __all_sync(0xffffffffu, v != 7);
    int y = __any_sync(0xffffffffu, v == 3);
    unsigned m = __match_any_sync(0xffffffffu, v & 3);
    int x = __shfl_xor_sync(0xffffffffu, v, 1) + __shfl_up_sync(0xffffffffu, v, 2, 16) + __shfl_sync(0x0000ffffu, v, 3, 8);
    out[blockIdx.x * blockDim.x + threadIdx.x] = b ^ a ^ y ^ m ^ x ^ __popc(b) ^ __ffs(m) ^ __activemask();
}

#if __CUDA_ARCH__ >= 800
extern "C" __global__ void redux(const unsigned* in, unsigned* out) {
    unsigned v = in[threadIdx.x];
    unsigned s = __reduce_add_sync(0xffffffffu, v);
    unsigned mx = __reduce_max_sync(0xffffffffu, v);
    unsigned mn = __reduce_min_sync(0xffffffffu, (unsigned)(v * 3));
    unsigned an = __reduce_and_sync(0xffffffffu, v), o = __reduce_or_sync(0xffffffffu, v), xr = __reduce_xor_sync(0xffffffffu, v);
    out[threadIdx.x] = s + mx + mn + an + o + xr;
}
#endif

extern "C" __global__ void cg_tiles(const int* in, int* out, int n) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
    int i = block.group_index().x * block.size() + block.thread_rank();
    int v = i < n ? in[i] : 0;
    int s = cg::reduce(tile, v, cg::plus<int>());
    int mx = cg::reduce(tile, v, cg::greater<int>());
    block.sync();
    cg::coalesced_group active = cg::coalesced_threads();
    if (v & 1) {
        cg::coalesced_group odd = cg::coalesced_threads();
        s += odd.shfl(v, 0) + (int)odd.size();
    }
    if (tile.thread_rank() == 0) out[i / 16] = s + mx + (int)active.size();
}
