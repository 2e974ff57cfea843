; targets: sm_90a:+ptx83 sm_100a:+ptx86 sm_120a:+ptx87 sm_103a:+ptx88 sm_110a:+ptx90
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@bar = internal addrspace(3) global i64 0, align 8
@buf = internal addrspace(3) global [256 x i32] zeroinitializer, align 16

declare void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3), i32)
declare i64 @llvm.nvvm.mbarrier.arrive.shared(ptr addrspace(3))
declare i64 @llvm.nvvm.mbarrier.arrive.noComplete.shared(ptr addrspace(3), i32)
declare i1 @llvm.nvvm.mbarrier.test.wait.shared(ptr addrspace(3), i64)
declare void @llvm.nvvm.mbarrier.inval.shared(ptr addrspace(3))
declare i32 @llvm.nvvm.mbarrier.pending.count(i64)
declare void @llvm.nvvm.fence.proxy.tensormap_generic.release.gpu()
declare void @llvm.nvvm.fence.proxy.tensormap_generic.acquire.gpu(ptr, i32)
declare void @llvm.nvvm.griddepcontrol.wait()
declare void @llvm.nvvm.griddepcontrol.launch.dependents()
declare {i32, i1} @llvm.nvvm.elect.sync(i32)
declare i32 @llvm.nvvm.redux.sync.add(i32, i32)
declare i32 @llvm.nvvm.redux.sync.umax(i32, i32)
declare i32 @llvm.nvvm.redux.sync.min(i32, i32)
declare i32 @llvm.nvvm.redux.sync.xor(i32, i32)
declare void @llvm.nvvm.barrier.cluster.arrive.relaxed()
declare void @llvm.nvvm.barrier.cluster.wait()
declare void @llvm.nvvm.fence.sc.cluster()
declare i32 @llvm.nvvm.read.ptx.sreg.cluster.ctarank()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i1 @llvm.nvvm.isspacep.shared.cluster(ptr)
declare ptr addrspace(7) @llvm.nvvm.mapa.shared.cluster(ptr addrspace(3), i32)
declare void @llvm.nvvm.setmaxnreg.inc.sync.aligned.u32(i32)
declare void @llvm.nvvm.setmaxnreg.dec.sync.aligned.u32(i32)
declare void @llvm.nvvm.bar.warp.sync(i32)
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
declare void @llvm.nvvm.barrier.cta.arrive.aligned.count(i32, i32)
declare i64 @llvm.nvvm.read.ptx.sreg.globaltimer()
declare i32 @llvm.nvvm.read.ptx.sreg.nsmid()
declare void @llvm.nvvm.nanosleep(i32)

define ptx_kernel void @pipeline(ptr %out, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  call void @llvm.nvvm.griddepcontrol.wait()
  %e = call {i32, i1} @llvm.nvvm.elect.sync(i32 -1)
  %leader = extractvalue {i32, i1} %e, 1
  br i1 %leader, label %init, label %body
init:
  call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) @bar, i32 32)
  br label %body
body:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %p = getelementptr [256 x i32], ptr addrspace(3) @buf, i32 0, i32 %tid
  store i32 %tid, ptr addrspace(3) %p
  %tok = call i64 @llvm.nvvm.mbarrier.arrive.shared(ptr addrspace(3) @bar)
  %pc = call i32 @llvm.nvvm.mbarrier.pending.count(i64 %tok)
  br label %spin
spin:
  %ok = call i1 @llvm.nvvm.mbarrier.test.wait.shared(ptr addrspace(3) @bar, i64 %tok)
  br i1 %ok, label %done, label %sleep
sleep:
  call void @llvm.nvvm.nanosleep(i32 64)
  br label %spin
done:
  %s = call i32 @llvm.nvvm.redux.sync.add(i32 %tid, i32 -1)
  %m = call i32 @llvm.nvvm.redux.sync.umax(i32 %s, i32 -1)
  %mi = call i32 @llvm.nvvm.redux.sync.min(i32 %m, i32 65535)
  %x = call i32 @llvm.nvvm.redux.sync.xor(i32 %mi, i32 -1)
  %r = call i32 @llvm.nvvm.read.ptx.sreg.cluster.ctarank()
  %remote = call ptr addrspace(7) @llvm.nvvm.mapa.shared.cluster(ptr addrspace(3) %p, i32 %r)
  %rv = load i32, ptr addrspace(7) %remote, align 4
  call void @llvm.nvvm.barrier.cluster.arrive.relaxed()
  call void @llvm.nvvm.barrier.cluster.wait()
  call void @llvm.nvvm.fence.sc.cluster()
  %t = call i64 @llvm.nvvm.read.ptx.sreg.globaltimer()
  %sm = call i32 @llvm.nvvm.read.ptx.sreg.nsmid()
  %a = add i32 %x, %rv
  %b = add i32 %a, %pc
  %c = add i32 %b, %sm
  %t32 = trunc i64 %t to i32
  %d = add i32 %c, %t32
  %gp = getelementptr i32, ptr %out, i32 %tid
  store i32 %d, ptr %gp
  call void @llvm.nvvm.fence.proxy.tensormap_generic.release.gpu()
  call void @llvm.nvvm.fence.proxy.tensormap_generic.acquire.gpu(ptr %out, i32 128)
  call void @llvm.nvvm.bar.warp.sync(i32 -1)
  call void @llvm.nvvm.barrier.cta.arrive.aligned.count(i32 1, i32 64)
  call void @llvm.nvvm.mbarrier.inval.shared(ptr addrspace(3) @bar)
  call void @llvm.nvvm.griddepcontrol.launch.dependents()
  ret void
}

define ptx_kernel void @regs(ptr %out) "nvvm.maxntid"="256" "nvvm.minctasm"="1" {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %w = lshr i32 %tid, 7
  %c = icmp eq i32 %w, 0
  br i1 %c, label %prod, label %cons
prod:
  call void @llvm.nvvm.setmaxnreg.dec.sync.aligned.u32(i32 40)
  br label %end
cons:
  call void @llvm.nvvm.setmaxnreg.inc.sync.aligned.u32(i32 232)
  %gp = getelementptr i32, ptr %out, i32 %tid
  store i32 %tid, ptr %gp
  br label %end
end:
  ret void
}
