// archs: 75 80 90 100a 120a
extern "C" __global__ void asm_mix(const unsigned* in, unsigned* out, unsigned long long* t) {
    unsigned a = in[threadIdx.x], b = in[threadIdx.x + 1], c = in[threadIdx.x + 2], r, s, smid, lane;
    unsigned long long clk;
    asm volatile("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    asm("prmt.b32 %0, %1, %2, 0x5140;" : "=r"(s) : "r"(a), "r"(b));
    asm("mov.u32 %0, %%smid;" : "=r"(smid));
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(clk));
    unsigned f;
    asm("bfe.u32 %0, %1, 4, 8;" : "=r"(f) : "r"(a));
    unsigned q;
    asm("{\n\t.reg .pred p;\n\tsetp.gt.u32 p, %1, %2;\n\tselp.u32 %0, 1, 0, p;\n}" : "=r"(q) : "r"(a), "r"(b));
    unsigned v;
    asm volatile("ld.global.nc.u32 %0, [%1];" : "=r"(v) : "l"(in + 5));
    asm volatile("red.global.add.u32 [%0], %1;" :: "l"(out + 100), "r"(r) : "memory");
    unsigned dp;
    asm("dp4a.u32.u32 %0, %1, %2, %3;" : "=r"(dp) : "r"(a), "r"(b), "r"(c));
    float fr;
    asm("cvt.rn.f32.u32 %0, %1;" : "=f"(fr) : "r"(a));
    asm("ex2.approx.ftz.f32 %0, %0;" : "+f"(fr));
    out[threadIdx.x] = r + s + smid + lane + f + q + v + dp + __float_as_uint(fr);
    t[threadIdx.x] = clk;
    asm volatile("bar.sync 0;");
    asm volatile("membar.gl;" ::: "memory");
}

extern "C" __global__ void asm_vector_ld(const float4* in, float4* out) {
    float a, b, c, d;
    asm volatile("ld.global.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(a), "=f"(b), "=f"(c), "=f"(d) : "l"(in + threadIdx.x));
    asm volatile("st.global.cs.v4.f32 [%0], {%1, %2, %3, %4};" :: "l"(out + threadIdx.x), "f"(d), "f"(c), "f"(b), "f"(a));
}
