// Many instantiations of a few kernels, for a large -G module.
template <int N, typename T>
__device__ T mix(T a, T b) {
    T acc = a;
    for (int i = 0; i < N; ++i) {
        acc = acc * b + (T)i;
        if (acc > (T)1000) acc = acc - b;
    }
    return acc;
}

template <int N, typename T>
__global__ void kern(const T* __restrict__ x, T* __restrict__ y, int n) {
    __shared__ T tile[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        tile[threadIdx.x] = x[i];
        __syncthreads();
        T v = mix<N, T>(tile[threadIdx.x], tile[(threadIdx.x + N) % 256]);
        for (int k = 1; k < 32; k *= 2) v += __shfl_down_sync(0xffffffff, v, k);
        atomicAdd(&y[i % 64], v);
        y[i] = v * (T)N;
    }
}

template <int N> struct Inst {
    static void go() {
        kern<N, float><<<1, 1>>>(nullptr, nullptr, 0);
        kern<N, double><<<1, 1>>>(nullptr, nullptr, 0);
        kern<N, int><<<1, 1>>>(nullptr, nullptr, 0);
        kern<N, unsigned><<<1, 1>>>(nullptr, nullptr, 0);
        Inst<N - 1>::go();
    }
};
template <> struct Inst<0> { static void go() {} };
void all() { Inst<135>::go(); }
