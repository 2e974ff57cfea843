// No kernel: a stub fatbin, as libcufftw carries.
__device__ int unused_flag;
