; targets: sm_100a:+ptx86 sm_120a:+ptx87 sm_103a:+ptx88 sm_110a:+ptx90
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i16 @llvm.nvvm.ff.to.e2m3x2.rn.satfinite(float, float)
declare i16 @llvm.nvvm.ff.to.e3m2x2.rn.relu.satfinite(float, float)
declare i16 @llvm.nvvm.ff.to.e2m1x2.rn.satfinite(float, float)
declare <2 x half> @llvm.nvvm.e2m3x2.to.f16x2.rn(i16)
declare <2 x half> @llvm.nvvm.e2m1x2.to.f16x2.rn.relu(i16)
declare i16 @llvm.nvvm.ff.to.ue8m0x2.rz.satfinite(float, float)
declare i16 @llvm.nvvm.bf16x2.to.ue8m0x2.rp(<2 x bfloat>)
declare <2 x bfloat> @llvm.nvvm.ue8m0x2.to.bf16x2(i16)

define ptx_kernel void @narrow(ptr %in, ptr %out) {
  %a = load float, ptr %in
  %bp = getelementptr float, ptr %in, i32 1
  %b = load float, ptr %bp
  %x6 = call i16 @llvm.nvvm.ff.to.e2m3x2.rn.satfinite(float %a, float %b)
  %y6 = call i16 @llvm.nvvm.ff.to.e3m2x2.rn.relu.satfinite(float %b, float %a)
  %x4 = call i16 @llvm.nvvm.ff.to.e2m1x2.rn.satfinite(float %a, float %a)
  %h6 = call <2 x half> @llvm.nvvm.e2m3x2.to.f16x2.rn(i16 %x6)
  %h4 = call <2 x half> @llvm.nvvm.e2m1x2.to.f16x2.rn.relu(i16 %x4)
  %s = fadd <2 x half> %h6, %h4
  %u = call i16 @llvm.nvvm.ff.to.ue8m0x2.rz.satfinite(float %a, float %b)
  %bb = call <2 x bfloat> @llvm.nvvm.ue8m0x2.to.bf16x2(i16 %u)
  %u2 = call i16 @llvm.nvvm.bf16x2.to.ue8m0x2.rp(<2 x bfloat> %bb)
  %si = bitcast <2 x half> %s to i32
  %z = zext i16 %y6 to i32
  %z2 = zext i16 %u2 to i32
  %r = add i32 %si, %z
  %r2 = add i32 %r, %z2
  store i32 %r2, ptr %out
  ret void
}
