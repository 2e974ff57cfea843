; targets: sm_75:+ptx64 sm_86:+ptx75 sm_90:+ptx78 sm_120a:+ptx87
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.Pair = type { float, i32 }
%struct.Big = type { [8 x double], i16, i8 }

@table = internal addrspace(1) global [3 x ptr] [ptr @sq, ptr @neg, ptr @half], align 8
@coef = internal addrspace(4) constant [4 x float] [float 1.0, float 2.0, float 0.5, float 0.25], align 4
@ext_counter = external addrspace(1) global i32, align 4
@fmt = private unnamed_addr addrspace(1) constant [11 x i8] c"v=%f i=%d\0A\00", align 1

define internal float @sq(float %x) { %r = fmul float %x, %x
  ret float %r }
define internal float @neg(float %x) { %r = fneg float %x
  ret float %r }
define internal float @half(float %x) { %r = fmul float %x, 0.5
  ret float %r }

define i32 @fact(i32 %n) noinline {
  %c = icmp slt i32 %n, 2
  br i1 %c, label %base, label %rec
base:
  ret i32 1
rec:
  %m = sub i32 %n, 1
  %f = call i32 @fact(i32 %m)
  %r = mul i32 %n, %f
  ret i32 %r
}

define %struct.Pair @make_pair(float %f, i32 %i) noinline {
  %a = insertvalue %struct.Pair undef, float %f, 0
  %b = insertvalue %struct.Pair %a, i32 %i, 1
  ret %struct.Pair %b
}

define double @sum_big(ptr byval(%struct.Big) align 8 %b) noinline {
  %p0 = getelementptr %struct.Big, ptr %b, i32 0, i32 0, i32 0
  %p7 = getelementptr %struct.Big, ptr %b, i32 0, i32 0, i32 7
  %x = load double, ptr %p0
  %y = load double, ptr %p7
  %s = fadd double %x, %y
  ret double %s
}

declare i32 @vprintf(ptr, ptr)
declare i32 @external_helper(i32, float)

define ptx_kernel void @caller(ptr addrspace(1) %out, i32 %which, ptr byval(%struct.Big) align 8 %big) {
entry:
  %buf = alloca [16 x i32], align 4
  %args = alloca { double, i32 }, align 8
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %k = urem i32 %which, 3
  %slot = getelementptr [3 x ptr], ptr addrspace(1) @table, i32 0, i32 %k
  %fn = load ptr, ptr addrspace(1) %slot
  %ci = and i32 %tid, 3
  %cp = getelementptr [4 x float], ptr addrspace(4) @coef, i32 0, i32 %ci
  %c = load float, ptr addrspace(4) %cp
  %v = call float %fn(float %c)
  %f = call i32 @fact(i32 %ci)
  %pr = call %struct.Pair @make_pair(float %v, i32 %f)
  %pf = extractvalue %struct.Pair %pr, 0
  %sb = call double @sum_big(ptr byval(%struct.Big) align 8 %big)
  %e = call i32 @external_helper(i32 %f, float %pf)
  %bi = and i32 %tid, 15
  %bp = getelementptr [16 x i32], ptr %buf, i32 0, i32 %bi
  store volatile i32 %e, ptr %bp
  %back = load volatile i32, ptr %bp
  switch i32 %which, label %def [ i32 0, label %c0
                                  i32 1, label %c1
                                  i32 2, label %c2
                                  i32 7, label %c3 ]
c0: br label %join
c1: br label %join
c2: br label %join
c3: br label %join
def: br label %join
join:
  %sel = phi i32 [ 10, %c0 ], [ 20, %c1 ], [ 30, %c2 ], [ 40, %c3 ], [ %back, %def ]
  %a0 = getelementptr { double, i32 }, ptr %args, i32 0, i32 0
  store double %sb, ptr %a0
  %a1 = getelementptr { double, i32 }, ptr %args, i32 0, i32 1
  store i32 %sel, ptr %a1
  %fmtg = addrspacecast ptr addrspace(1) @fmt to ptr
  %pc = call i32 @vprintf(ptr %fmtg, ptr %args)
  %cnt = atomicrmw add ptr addrspace(1) @ext_counter, i32 1 monotonic
  store i32 %sel, ptr addrspace(1) %out
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
