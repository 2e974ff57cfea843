; targets: sm_80:+ptx70 sm_90:+ptx78 sm_100a:+ptx86 sm_120a:+ptx87
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @mathk(ptr addrspace(1) %pf, ptr addrspace(1) %pd, ptr addrspace(1) %ph, ptr addrspace(1) %pb,
                              ptr addrspace(1) %pi) {
  %x = load float, ptr addrspace(1) %pf
  %s = call float @llvm.sqrt.f32(float %x)
  %fm = call float @llvm.fma.f32(float %x, float %s, float 1.0)
  %ab = call float @llvm.fabs.f32(float %fm)
  %mn = call float @llvm.minnum.f32(float %ab, float 4.0)
  %mx = call float @llvm.maximum.f32(float %mn, float %x)
  %ex = call float @llvm.nvvm.ex2.approx.f(float %mx)
  %rc = call float @llvm.nvvm.rcp.rn.f(float %ex)
  %dv = fdiv float %rc, %x
  %fl = call float @llvm.floor.f32(float %dv)
  %cp = call float @llvm.copysign.f32(float %fl, float %x)
  store float %cp, ptr addrspace(1) %pf

  %d = load double, ptr addrspace(1) %pd
  %ds = call double @llvm.sqrt.f64(double %d)
  %dr = fdiv double 1.0, %ds
  %dt = call double @llvm.trunc.f64(double %dr)
  %di = fptosi double %dt to i64
  %dd = sitofp i64 %di to double
  store double %dd, ptr addrspace(1) %pd

  %h = load half, ptr addrspace(1) %ph
  %h2 = fmul half %h, %h
  %h3 = fadd half %h2, 0xH3C00
  %hv = load <2 x half>, ptr addrspace(1) %ph, align 4
  %hw = fmul <2 x half> %hv, %hv
  %hx = extractelement <2 x half> %hw, i32 1
  %h4 = fadd half %h3, %hx
  store half %h4, ptr addrspace(1) %ph

  %b = load bfloat, ptr addrspace(1) %pb
  %bf = fpext bfloat %b to float
  %bg = fmul float %bf, %x
  %bt = fptrunc float %bg to bfloat
  store bfloat %bt, ptr addrspace(1) %pb

  %i = load i32, ptr addrspace(1) %pi
  %cl = call i32 @llvm.ctlz.i32(i32 %i, i1 false)
  %br = call i32 @llvm.bitreverse.i32(i32 %cl)
  %fs = call i32 @llvm.fshl.i32(i32 %br, i32 %i, i32 7)
  %sm = call i32 @llvm.smax.i32(i32 %fs, i32 0)
  %mh = zext i32 %sm to i64
  %mm = mul i64 %mh, 12345678901
  %sh = lshr i64 %mm, 32
  %tr = trunc i64 %sh to i32
  %q = udiv i32 %tr, 7
  %w = sext i32 %q to i128
  %w2 = mul i128 %w, %w
  %w3 = trunc i128 %w2 to i32
  %bs = call i32 @llvm.bswap.i32(i32 %w3)
  %sat = call i32 @llvm.sadd.sat.i32(i32 %bs, i32 %i)
  store i32 %sat, ptr addrspace(1) %pi
  ret void
}

declare float @llvm.sqrt.f32(float)
declare double @llvm.sqrt.f64(double)
declare float @llvm.fma.f32(float, float, float)
declare float @llvm.fabs.f32(float)
declare float @llvm.minnum.f32(float, float)
declare float @llvm.maximum.f32(float, float)
declare float @llvm.nvvm.ex2.approx.f(float)
declare float @llvm.nvvm.rcp.rn.f(float)
declare float @llvm.floor.f32(float)
declare float @llvm.copysign.f32(float, float)
declare double @llvm.trunc.f64(double)
declare i32 @llvm.ctlz.i32(i32, i1)
declare i32 @llvm.bitreverse.i32(i32)
declare i32 @llvm.fshl.i32(i32, i32, i32)
declare i32 @llvm.smax.i32(i32, i32)
declare i32 @llvm.bswap.i32(i32)
declare i32 @llvm.sadd.sat.i32(i32, i32)
