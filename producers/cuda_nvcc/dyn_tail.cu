// nvcc only (-rdc=true): device-side launches, streams, tail/fire-and-forget launch, device runtime API
// (kernels written for ptxkit issue #27)
#include <cstdio>
__global__ void leaf(int* p, int v) { p[threadIdx.x] += v; }
__global__ void mid(int* p, int depth) {
    if (threadIdx.x == 0) {
        leaf<<<1, 32, 0, cudaStreamFireAndForget>>>(p, depth);
        leaf<<<1, 32, 0, cudaStreamTailLaunch>>>(p, -depth);
        cudaStream_t s;
        cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
        leaf<<<2, 16, 64, s>>>(p + 32, 7);
        cudaStreamDestroy(s);
        int dev, sms;
        cudaGetDevice(&dev);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        void* buf;
        if (cudaMalloc(&buf, 256) == cudaSuccess) { cudaMemsetAsync(buf, 0, 256, 0); cudaFree(buf); }
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess) printf("%s\n", cudaGetErrorString(e));
        p[0] = sms;
    }
}
__global__ void root(int* p) { mid<<<dim3(2, 2), dim3(8, 4)>>>(p, 3); }
