; targets: sm_75:+ptx64 sm_80:+ptx70 sm_90:+ptx78 sm_120a:+ptx87
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @vecadd(ptr addrspace(1) noalias readonly %a, ptr addrspace(1) noalias readonly %b,
                               ptr addrspace(1) noalias %c, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %nctaid = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %base = mul i32 %ctaid, %ntid
  %i0 = add i32 %base, %tid
  %stride = mul i32 %ntid, %nctaid
  %first = icmp slt i32 %i0, %n
  br i1 %first, label %loop, label %exit

loop:
  %i = phi i32 [ %i0, %entry ], [ %next, %loop ]
  %idx = sext i32 %i to i64
  %pa = getelementptr inbounds float, ptr addrspace(1) %a, i64 %idx
  %pb = getelementptr inbounds float, ptr addrspace(1) %b, i64 %idx
  %pc = getelementptr inbounds float, ptr addrspace(1) %c, i64 %idx
  %va = load float, ptr addrspace(1) %pa, align 4
  %vb = load float, ptr addrspace(1) %pb, align 4
  %s = fadd float %va, %vb
  %m = fmul contract float %s, 2.0
  %r = fadd contract float %m, %va
  store float %r, ptr addrspace(1) %pc, align 4
  %next = add i32 %i, %stride
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

define ptx_kernel void @vec4copy(ptr addrspace(1) %in, ptr addrspace(1) %out) {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %idx = zext i32 %tid to i64
  %p = getelementptr <4 x float>, ptr addrspace(1) %in, i64 %idx
  %q = getelementptr <4 x float>, ptr addrspace(1) %out, i64 %idx
  %v = load <4 x float>, ptr addrspace(1) %p, align 16
  %w = shufflevector <4 x float> %v, <4 x float> poison, <4 x i32> <i32 3, i32 2, i32 1, i32 0>
  store <4 x float> %w, ptr addrspace(1) %q, align 16
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()

!nvvm.annotations = !{!0}
!0 = !{ptr @vecadd, !"maxntidx", i32 256}
