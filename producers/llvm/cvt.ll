; targets: sm_89:+ptx81 sm_90:+ptx78 sm_90a:+ptx84 sm_100a:+ptx86 sm_120a:+ptx87
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i16 @llvm.nvvm.ff.to.e4m3x2.rn(float, float)
declare i16 @llvm.nvvm.ff.to.e5m2x2.rn.relu(float, float)
declare i16 @llvm.nvvm.f16x2.to.e4m3x2.rn(<2 x half>)
declare <2 x half> @llvm.nvvm.e4m3x2.to.f16x2.rn(i16)
declare <2 x half> @llvm.nvvm.e5m2x2.to.f16x2.rn.relu(i16)
declare i32 @llvm.nvvm.f2tf32.rna(float)
declare bfloat @llvm.nvvm.f2bf16.rn.relu(float)
declare <2 x bfloat> @llvm.nvvm.ff2bf16x2.rz(float, float)
declare <2 x half> @llvm.nvvm.ff2f16x2.rn.relu(float, float)
declare <2 x half> @llvm.nvvm.fma.rn.relu.f16x2(<2 x half>, <2 x half>, <2 x half>)
declare <2 x bfloat> @llvm.nvvm.fma.rn.bf16x2(<2 x bfloat>, <2 x bfloat>, <2 x bfloat>)
declare <2 x half> @llvm.nvvm.fmin.xorsign.abs.f16x2(<2 x half>, <2 x half>)
declare <2 x bfloat> @llvm.nvvm.fmax.nan.bf16x2(<2 x bfloat>, <2 x bfloat>)
declare <2 x half> @llvm.nvvm.ex2.approx.f16x2(<2 x half>)
declare float @llvm.nvvm.tanh.approx.f32(float)
declare <2 x half> @llvm.nvvm.abs.bf16x2(<2 x half>)
declare <2 x half> @llvm.nvvm.neg.bf16x2(<2 x half>)
declare float @llvm.nvvm.fmax.ftz.nan.xorsign.abs.f(float, float)
declare half @llvm.nvvm.fmin.nan.f16(half, half)

define ptx_kernel void @convert(ptr %in, ptr %out, ptr %hout) {
  %a = load float, ptr %in
  %bp = getelementptr float, ptr %in, i32 1
  %b = load float, ptr %bp
  %e4 = call i16 @llvm.nvvm.ff.to.e4m3x2.rn(float %a, float %b)
  %e5 = call i16 @llvm.nvvm.ff.to.e5m2x2.rn.relu(float %b, float %a)
  %h = fptrunc <2 x float> <float 1.0, float 2.0> to <2 x half>
  %hx = call <2 x half> @llvm.nvvm.ff2f16x2.rn.relu(float %a, float %b)
  %e4h = call i16 @llvm.nvvm.f16x2.to.e4m3x2.rn(<2 x half> %hx)
  %back = call <2 x half> @llvm.nvvm.e4m3x2.to.f16x2.rn(i16 %e4)
  %back5 = call <2 x half> @llvm.nvvm.e5m2x2.to.f16x2.rn.relu(i16 %e5)
  %f = call <2 x half> @llvm.nvvm.fma.rn.relu.f16x2(<2 x half> %back, <2 x half> %back5, <2 x half> %hx)
  %g = fadd <2 x half> %f, %back
  %g2 = fmul <2 x half> %g, %back5
  %g3 = call <2 x half> @llvm.nvvm.fmin.xorsign.abs.f16x2(<2 x half> %g2, <2 x half> %f)
  %g4 = call <2 x half> @llvm.nvvm.ex2.approx.f16x2(<2 x half> %g3)
  store <2 x half> %g4, ptr %hout
  %t = call i32 @llvm.nvvm.f2tf32.rna(float %a)
  %bf = call bfloat @llvm.nvvm.f2bf16.rn.relu(float %a)
  %bx = call <2 x bfloat> @llvm.nvvm.ff2bf16x2.rz(float %a, float %b)
  %bx2 = call <2 x bfloat> @llvm.nvvm.fma.rn.bf16x2(<2 x bfloat> %bx, <2 x bfloat> %bx, <2 x bfloat> %bx)
  %bx3 = call <2 x bfloat> @llvm.nvvm.fmax.nan.bf16x2(<2 x bfloat> %bx2, <2 x bfloat> %bx)
  %bx4 = fadd <2 x bfloat> %bx3, %bx
  %bx5 = fmul <2 x bfloat> %bx4, %bx2
  %bs = extractelement <2 x bfloat> %bx5, i32 0
  %bs2 = fadd bfloat %bs, %bf
  %bsf = fpext bfloat %bs2 to float
  %th = call float @llvm.nvvm.tanh.approx.f32(float %bsf)
  %mx = call float @llvm.nvvm.fmax.ftz.nan.xorsign.abs.f(float %th, float %b)
  %hh = extractelement <2 x half> %g4, i32 1
  %hm = call half @llvm.nvvm.fmin.nan.f16(half %hh, half 0xH3C00)
  %hmf = fpext half %hm to float
  %s = fadd float %mx, %hmf
  %ti = bitcast float %s to i32
  %tt = add i32 %ti, %t
  %z4 = zext i16 %e4h to i32
  %tt2 = add i32 %tt, %z4
  store i32 %tt2, ptr %out
  ret void
}
