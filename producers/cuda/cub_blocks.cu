// archs: 75 100a
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_store.cuh>
#include <cub/block/block_histogram.cuh>
#include <cub/block/block_discontinuity.cuh>
#include <cub/block/block_exchange.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <cub/warp/warp_scan.cuh>

template <int THREADS, int ITEMS>
__global__ void __launch_bounds__(THREADS) radix_sort_pairs(const unsigned* keys_in, const float* vals_in,
                                                            unsigned* keys_out, float* vals_out) {
    using Sort = cub::BlockRadixSort<unsigned, THREADS, ITEMS, float>;
    using Load = cub::BlockLoad<unsigned, THREADS, ITEMS, cub::BLOCK_LOAD_TRANSPOSE>;
    using LoadV = cub::BlockLoad<float, THREADS, ITEMS, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
    using Store = cub::BlockStore<unsigned, THREADS, ITEMS, cub::BLOCK_STORE_WARP_TRANSPOSE>;
    __shared__ union {
        typename Sort::TempStorage sort;
        typename Load::TempStorage load;
        typename LoadV::TempStorage loadv;
        typename Store::TempStorage store;
    } tmp;
    unsigned k[ITEMS];
    float v[ITEMS];
    int base = blockIdx.x * THREADS * ITEMS;
    Load(tmp.load).Load(keys_in + base, k);
    __syncthreads();
    LoadV(tmp.loadv).Load(vals_in + base, v);
    __syncthreads();
    Sort(tmp.sort).SortDescending(k, v, 4, 28);
    __syncthreads();
    Store(tmp.store).Store(keys_out + base, k);
    for (int i = 0; i < ITEMS; ++i) vals_out[base + threadIdx.x * ITEMS + i] = v[i];
}
template __global__ void radix_sort_pairs<128, 4>(const unsigned*, const float*, unsigned*, float*);
template __global__ void radix_sort_pairs<256, 2>(const unsigned*, const float*, unsigned*, float*);

struct MaxS { __device__ short operator()(short a, short b) const { return a > b ? a : b; } };
struct Neq { __device__ bool operator()(unsigned char a, unsigned char b) const { return a != b; } };
struct MaxAbs {
    __device__ double operator()(double a, double b) const { return fabs(a) > fabs(b) ? a : b; }
};

__global__ void reduce_scan_mix(const double* in, double* out, long long* scan_out, int n) {
    using BR = cub::BlockReduce<double, 256, cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY>;
    using BR2 = cub::BlockReduce<int, 256, cub::BLOCK_REDUCE_WARP_REDUCTIONS>;
    using BS = cub::BlockScan<long long, 256, cub::BLOCK_SCAN_RAKING_MEMOIZE>;
    using BS2 = cub::BlockScan<short, 256, cub::BLOCK_SCAN_WARP_SCANS>;
    __shared__ typename BR::TempStorage r;
    __shared__ typename BR2::TempStorage r2;
    __shared__ typename BS::TempStorage s;
    __shared__ typename BS2::TempStorage s2;
    int i = blockIdx.x * 256 + threadIdx.x;
    double x = i < n ? in[i] : 0.0;
    double m = BR(r).Reduce(x, MaxAbs(), n - blockIdx.x * 256);
    int cnt = BR2(r2).Sum(x > 0.0 ? 1 : 0);
    long long pre;
    long long agg;
    BS(s).ExclusiveSum((long long)(x * 10.0), pre, agg);
    short sp;
    BS2(s2).InclusiveScan((short)(i & 7), sp, MaxS());
    if (threadIdx.x == 0) { out[blockIdx.x * 2] = m; out[blockIdx.x * 2 + 1] = cnt + agg; }
    if (i < n) scan_out[i] = pre + sp;
}

__global__ void histogram_disc(const unsigned char* in, unsigned* hist, int* flags) {
    using Hist = cub::BlockHistogram<unsigned char, 128, 4, 256, cub::BLOCK_HISTO_ATOMIC>;
    using Disc = cub::BlockDiscontinuity<unsigned char, 128>;
    using Ex = cub::BlockExchange<unsigned char, 128, 4>;
    __shared__ typename Hist::TempStorage h;
    __shared__ typename Disc::TempStorage d;
    __shared__ typename Ex::TempStorage e;
    __shared__ unsigned smem_hist[256];
    unsigned char items[4];
    cub::LoadDirectBlocked(threadIdx.x, in + blockIdx.x * 512, items);
    Hist(h).Histogram(items, smem_hist);
    __syncthreads();
    int f[4];
    Disc(d).FlagHeads(f, items, Neq());
    Ex(e).BlockedToStriped(items);
    for (int i = threadIdx.x; i < 256; i += 128) atomicAdd(&hist[i], smem_hist[i]);
    for (int j = 0; j < 4; ++j) flags[blockIdx.x * 512 + threadIdx.x * 4 + j] = f[j] + items[j];
}

__global__ void warp_level(const float* in, float* out, unsigned* seg) {
    using WR = cub::WarpReduce<float, 16>;
    using WS = cub::WarpScan<unsigned>;
    __shared__ typename WR::TempStorage wr[8];
    __shared__ typename WS::TempStorage ws[4];
    int w16 = threadIdx.x / 16;
    float x = in[blockIdx.x * blockDim.x + threadIdx.x];
    float s = WR(wr[w16]).HeadSegmentedSum(x, (threadIdx.x & 3) == 0);
    unsigned pre, tot;
    WS(ws[threadIdx.x / 32]).ExclusiveSum((unsigned)x, pre, tot);
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
    seg[blockIdx.x * blockDim.x + threadIdx.x] = pre ^ tot;
}
