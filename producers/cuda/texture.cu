// archs: 75 80 90 100a
extern "C" __global__ void tex_sample(cudaTextureObject_t t1, cudaTextureObject_t t2, cudaSurfaceObject_t s,
                                      float* out, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    float a = tex1Dfetch<float>(t1, x + y * w);
    float4 b = tex2D<float4>(t2, x + 0.5f, y + 0.5f);
    float c = tex2DLod<float>(t1, x * 0.5f, y * 0.5f, 1.0f);
    float4 g = tex2Dgather<float4>(t2, (float)x, (float)y, 1);
    float v = a + b.x + b.y + c + g.z;
    surf2Dwrite(v, s, x * (int)sizeof(float), y);
    float r;
    surf2Dread(&r, s, ((x + 1) % w) * (int)sizeof(float), y, cudaBoundaryModeClamp);
    out[x + y * w] = v + r;
}

extern "C" __global__ void tex3d_layered(cudaTextureObject_t t3, cudaTextureObject_t tl, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex3D<float>(t3, i * 0.1f, 0.5f, 0.25f) + tex2DLayered<float>(tl, 0.5f, i * 0.01f, i % 4)
                       + texCubemap<float>(tl, 1.f, 0.f, i * 0.5f);
}
