; targets: sm_75:+ptx64 sm_80:+ptx70 sm_90a:+ptx80 sm_100a:+ptx86
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@partial = internal addrspace(3) global [32 x float] undef, align 4

define internal float @warp_sum(float %v0) {
entry:
  %s16 = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %v0, i32 16, i32 31)
  %v1 = fadd float %v0, %s16
  %s8 = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %v1, i32 8, i32 31)
  %v2 = fadd float %v1, %s8
  %s4 = call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %v2, i32 4, i32 31)
  %v3 = fadd float %v2, %s4
  %s2 = call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %v3, i32 2, i32 31)
  %v4 = fadd float %v3, %s2
  %s1 = call float @llvm.nvvm.shfl.sync.idx.f32(i32 -1, float %v4, i32 1, i32 31)
  %v5 = fadd float %v4, %s1
  ret float %v5
}

define ptx_kernel void @block_reduce(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %b = mul i32 %ctaid, %ntid
  %i = add i32 %b, %tid
  %inb = icmp slt i32 %i, %n
  %idx = sext i32 %i to i64
  %p = getelementptr float, ptr addrspace(1) %in, i64 %idx
  br i1 %inb, label %ld, label %red
ld:
  %x = load float, ptr addrspace(1) %p, align 4
  br label %red
red:
  %v = phi float [ %x, %ld ], [ 0.0, %entry ]
  %w = call float @warp_sum(float %v)
  %lane = and i32 %tid, 31
  %warp = lshr i32 %tid, 5
  %lane0 = icmp eq i32 %lane, 0
  br i1 %lane0, label %put, label %sync
put:
  %slot = getelementptr [32 x float], ptr addrspace(3) @partial, i32 0, i32 %warp
  store float %w, ptr addrspace(3) %slot, align 4
  br label %sync
sync:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %w0 = icmp eq i32 %warp, 0
  br i1 %w0, label %final, label %done
final:
  %s = getelementptr [32 x float], ptr addrspace(3) @partial, i32 0, i32 %lane
  %pv = load float, ptr addrspace(3) %s, align 4
  %tot = call float @warp_sum(float %pv)
  br i1 %lane0, label %store, label %done
store:
  %old = atomicrmw fadd ptr addrspace(1) %out, float %tot syncscope("device") monotonic
  %ballot = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %inb)
  %cnt = call i32 @llvm.ctpop.i32(i32 %ballot)
  %outi = getelementptr i32, ptr addrspace(1) %out, i64 1
  %o2 = atomicrmw add ptr addrspace(1) %outi, i32 %cnt monotonic
  br label %done
done:
  ret void
}

declare float @llvm.nvvm.shfl.sync.down.f32(i32, float, i32, i32)
declare float @llvm.nvvm.shfl.sync.bfly.f32(i32, float, i32, i32)
declare float @llvm.nvvm.shfl.sync.idx.f32(i32, float, i32, i32)
declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1)
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
declare i32 @llvm.ctpop.i32(i32)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
