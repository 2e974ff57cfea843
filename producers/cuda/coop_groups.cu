// archs: 75 80 90 100a 120a
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void grid_two_phase(float* data, float* partial, int n) {
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    float s = 0.f;
    for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size()) s += data[i];
    __shared__ float sh[256];
    sh[block.thread_rank()] = s;
    block.sync();
    for (unsigned k = block.size() / 2; k > 0; k >>= 1) {
        if (block.thread_rank() < k) sh[block.thread_rank()] += sh[block.thread_rank() + k];
        block.sync();
    }
    if (block.thread_rank() == 0) partial[blockIdx.x] = sh[0];
    grid.sync();
    if (grid.thread_rank() == 0) {
        float t = 0.f;
        for (unsigned b = 0; b < gridDim.x; ++b) t += partial[b];
        data[0] = t;
    }
}

extern "C" __global__ void tile_scan(const int* in, int* out) {
    auto tile = cg::tiled_partition<32>(cg::this_thread_block());
    int v = in[blockIdx.x * 32 + tile.thread_rank()];
    for (int o = 1; o < 32; o <<= 1) {
        int u = tile.shfl_up(v, o);
        if ((int)tile.thread_rank() >= o) v += u;
    }
    unsigned b = tile.ballot(v > 10);
    if (tile.any(v < 0)) v = 0;
    out[blockIdx.x * 32 + tile.thread_rank()] = v + __popc(b) + tile.meta_group_rank();
}
