; targets: sm_80:+ptx70 sm_86:+ptx75 sm_90:+ptx78 sm_100a:+ptx86
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tileA = internal addrspace(3) global [512 x half] undef, align 16

define ptx_kernel void @mma_tile(ptr addrspace(1) %a, ptr addrspace(1) %c) {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %off = mul i32 %tid, 8
  %o64 = zext i32 %off to i64
  %src = getelementptr half, ptr addrspace(1) %a, i64 %o64
  %dst = getelementptr [512 x half], ptr addrspace(3) @tileA, i32 0, i32 %off
  call void @llvm.nvvm.cp.async.cg.shared.global.16(ptr addrspace(3) %dst, ptr addrspace(1) %src)
  call void @llvm.nvvm.cp.async.commit.group()
  call void @llvm.nvvm.cp.async.wait.group(i32 0)
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %lm = call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3) %dst)
  %r0 = extractvalue { i32, i32, i32, i32 } %lm, 0
  %r1 = extractvalue { i32, i32, i32, i32 } %lm, 1
  %r2 = extractvalue { i32, i32, i32, i32 } %lm, 2
  %r3 = extractvalue { i32, i32, i32, i32 } %lm, 3
  %a0 = bitcast i32 %r0 to <2 x half>
  %a1 = bitcast i32 %r1 to <2 x half>
  %a2 = bitcast i32 %r2 to <2 x half>
  %a3 = bitcast i32 %r3 to <2 x half>
  %m = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(
      <2 x half> %a0, <2 x half> %a1, <2 x half> %a2, <2 x half> %a3, <2 x half> %a0, <2 x half> %a1,
      float 0.0, float 0.0, float 0.0, float 0.0)
  %c0 = extractvalue { float, float, float, float } %m, 0
  %c3 = extractvalue { float, float, float, float } %m, 3
  %s = fadd float %c0, %c3
  %t64 = zext i32 %tid to i64
  %pc = getelementptr float, ptr addrspace(1) %c, i64 %t64
  store float %s, ptr addrspace(1) %pc
  ret void
}

declare void @llvm.nvvm.cp.async.cg.shared.global.16(ptr addrspace(3), ptr addrspace(1))
declare void @llvm.nvvm.cp.async.commit.group()
declare void @llvm.nvvm.cp.async.wait.group(i32)
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
declare { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3))
declare { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.f32.f32(<2 x half>, <2 x half>, <2 x half>,
    <2 x half>, <2 x half>, <2 x half>, float, float, float, float)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
