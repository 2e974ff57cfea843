// archs: 75 80
// Separate compilation: extern device functions and variables declared, defined elsewhere.
extern __device__ float scale_value(float x);
extern __device__ int shared_counter;
extern __constant__ float lut[64];
__device__ __managed__ int managed_flag;

extern "C" __global__ void uses_externs(float* out) {
    out[threadIdx.x] = scale_value(lut[threadIdx.x & 63]);
    atomicAdd(&shared_counter, 1);
    managed_flag = 1;
}

__device__ float weak_helper(float x) { return x * 2.f; }
__device__ __attribute__((weak)) float overridable(float x) { return weak_helper(x) + 1.f; }
