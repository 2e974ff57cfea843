; targets: sm_90:+ptx78 sm_90a:+ptx80 sm_100a:+ptx86
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@bar = internal addrspace(3) global i64 undef, align 8
@buf = internal addrspace(3) global [256 x i32] undef, align 16

define ptx_kernel void @cluster_k(ptr addrspace(1) %out) "nvvm.cluster_dim"="2,1,1" {
  %rank = call i32 @llvm.nvvm.read.ptx.sreg.cluster.ctarank()
  %nct = call i32 @llvm.nvvm.read.ptx.sreg.cluster.nctarank()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %is0 = icmp eq i32 %tid, 0
  br i1 %is0, label %init, label %go
init:
  call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) @bar, i32 32)
  br label %go
go:
  call void @llvm.nvvm.barrier.cluster.arrive()
  call void @llvm.nvvm.barrier.cluster.wait()
  %slot = getelementptr [256 x i32], ptr addrspace(3) @buf, i32 0, i32 %tid
  store i32 %rank, ptr addrspace(3) %slot
  %peer = xor i32 %rank, 1
  %gen = addrspacecast ptr addrspace(3) %slot to ptr
  %remote = call ptr @llvm.nvvm.mapa(ptr %gen, i32 %peer)
  %rv = load i32, ptr %remote
  %st = call i64 @llvm.nvvm.mbarrier.arrive.shared(ptr addrspace(3) @bar)
  %done = call i1 @llvm.nvvm.mbarrier.test.wait.shared(ptr addrspace(3) @bar, i64 %st)
  %d = zext i1 %done to i32
  %sum = add i32 %rv, %nct
  %sum2 = add i32 %sum, %d
  %t64 = zext i32 %tid to i64
  %po = getelementptr i32, ptr addrspace(1) %out, i64 %t64
  store i32 %sum2, ptr addrspace(1) %po
  call void @llvm.nvvm.fence.sc.cluster()
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.cluster.ctarank()
declare i32 @llvm.nvvm.read.ptx.sreg.cluster.nctarank()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3), i32)
declare i64 @llvm.nvvm.mbarrier.arrive.shared(ptr addrspace(3))
declare i1 @llvm.nvvm.mbarrier.test.wait.shared(ptr addrspace(3), i64)
declare void @llvm.nvvm.barrier.cluster.arrive()
declare void @llvm.nvvm.barrier.cluster.wait()
declare ptr @llvm.nvvm.mapa(ptr, i32)
declare void @llvm.nvvm.fence.sc.cluster()
