// archs: 80 90
// Dynamic parallelism: needs relocatable device code (-rdc=true).
__global__ void child(int* data, int depth) {
    data[threadIdx.x] += depth;
    if (depth < 2 && threadIdx.x == 0) child<<<1, 32>>>(data, depth + 1);
}

extern "C" __global__ void parent(int* data, int n) {
    if (threadIdx.x == 0) {
        child<<<(n + 31) / 32, 32, 0, cudaStreamFireAndForget>>>(data, 0);
        cudaStream_t s;
        cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
        child<<<1, 32, 0, s>>>(data + 32, 1);
        cudaStreamDestroy(s);
    }
}
