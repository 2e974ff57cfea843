// archs: 80 90 100a
struct Big {
    float m[32];
    int dims[4];
};

extern "C" __global__ void uses_grid_constant(const __grid_constant__ Big p, float* out) {
    const float* row = &p.m[threadIdx.x & 31];
    out[threadIdx.x] = *row * (float)p.dims[threadIdx.x & 3];
}

template <typename T, int N>
__global__ void tmpl_kernel(const T* in, T* out) {
    T acc = T(0);
#pragma unroll
    for (int k = 0; k < N; ++k) acc += in[threadIdx.x * N + k];
    out[threadIdx.x] = acc;
}

template __global__ void tmpl_kernel<float, 4>(const float*, float*);
template __global__ void tmpl_kernel<double, 8>(const double*, double*);
template __global__ void tmpl_kernel<short, 3>(const short*, short*);
template __global__ void tmpl_kernel<unsigned char, 16>(const unsigned char*, unsigned char*);
