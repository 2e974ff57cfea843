// archs: 75 89 100a
#include <cuda_fp16.h>
extern "C" __global__ void tex_kinds(cudaTextureObject_t t1, cudaTextureObject_t t2, cudaTextureObject_t t3,
                                     cudaTextureObject_t tl1, cudaTextureObject_t tl2, cudaTextureObject_t tc,
                                     cudaTextureObject_t tcl, float4* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float u = i * 0.01f, v = i * 0.02f;
    float4 a = tex1D<float4>(t1, u);
    float b = tex1DLod<float>(t1, u, 2.0f);
    float c = tex1DGrad<float>(t1, u, 0.1f, 0.2f);
    uchar4 d = tex2D<uchar4>(t2, u, v);
    short2 e = tex2DLod<short2>(t2, u, v, 0.5f);
    float f = tex2DGrad<float>(t2, u, v, make_float2(0.1f, 0.f), make_float2(0.f, 0.1f));
    int4 g = tex3D<int4>(t3, u, v, 0.5f);
    float h = tex3DLod<float>(t3, u, v, 0.5f, 1.f);
    float k = tex3DGrad<float>(t3, u, v, 0.5f, make_float4(0.1f, 0, 0, 0), make_float4(0, 0.1f, 0, 0));
    float l = tex1DLayered<float>(tl1, u, i & 7);
    float m = tex1DLayeredLod<float>(tl1, u, i & 7, 1.f);
    float2 o = tex2DLayeredGrad<float2>(tl2, u, v, i & 3, make_float2(0.1f, 0.f), make_float2(0.f, 0.1f));
    float p = texCubemap<float>(tc, u, v, 1.f);
    float q = texCubemapLod<float>(tc, u, v, -1.f, 2.f);
    float r = texCubemapLayered<float>(tcl, u, v, 1.f, i & 1);
    uchar4 gg = tex2Dgather<uchar4>(t2, u, v, 3);
    int ii = tex1Dfetch<int>(t1, i);
    float hh = tex2D<float>(t2, u * 2.f, v);
    out[i] = make_float4(a.x + b + c + d.x + e.y, f + g.z + h + k + l, m + o.y + p + q + r,
                         gg.w + ii + hh);
}

extern "C" __global__ void tex_sparse(cudaTextureObject_t t2, cudaTextureObject_t t3, float* out) {
#if __CUDA_ARCH__ >= 600
    bool res2, res3;
    float a = tex2D<float>(t2, 0.5f, 0.5f, &res2);
    float b = tex3D<float>(t3, 0.5f, 0.5f, 0.5f, &res3);
    float c = tex2DLod<float>(t2, 0.1f, 0.2f, 1.f, &res3);
    out[threadIdx.x] = a + b + c + res2 + res3;
#endif
}

extern "C" __global__ void surf_kinds(cudaSurfaceObject_t s1, cudaSurfaceObject_t s2, cudaSurfaceObject_t s3,
                                      cudaSurfaceObject_t sl1, cudaSurfaceObject_t sl2, cudaSurfaceObject_t sc,
                                      cudaSurfaceObject_t scl, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= w) return;
    uchar4 a;
    surf1Dread(&a, s1, x * 4, cudaBoundaryModeZero);
    surf1Dwrite(make_uchar4(a.w, a.z, a.y, a.x), s1, x * 4);
    short2 b = surf2Dread<short2>(s2, x * 4, 1, cudaBoundaryModeClamp);
    surf2Dwrite(b, s2, x * 4, 2, cudaBoundaryModeTrap);
    float4 c;
    surf3Dread(&c, s3, x * 16, 1, 2);
    surf3Dwrite(c, s3, x * 16, 2, 1);
    int d = surf1DLayeredread<int>(sl1, x * 4, 3);
    surf1DLayeredwrite(d + 1, sl1, x * 4, 2);
    float2 e;
    surf2DLayeredread(&e, sl2, x * 8, 0, 1);
    surf2DLayeredwrite(make_float2(e.x * 2.f, e.y), sl2, x * 8, 1, 1);
    float f = surfCubemapread<float>(sc, x * 4, 0, 5);
    surfCubemapwrite(f, sc, x * 4, 1, 4);
    unsigned short g;
    surfCubemapLayeredread(&g, scl, x * 2, 0, 7);
    surfCubemapLayeredwrite((unsigned short)(g + 1), scl, x * 2, 1, 8);
    char1 h = surf2Dread<char1>(s2, x, 0);
    surf2Dwrite(make_char2(h.x, 1), s2, x * 2, 3);
}
