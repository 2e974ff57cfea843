// Two kernels; `old_only` is compiled for GPUs below sm_90 only, so the
// sm_90 cubin lacks it (a kernel with no image on sm_90).
extern "C" __global__ void both(float *x) { x[threadIdx.x] += 1.0f; }
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ < 900
extern "C" __global__ void old_only(float *x) { x[threadIdx.x] *= 2.0f; }
#endif
