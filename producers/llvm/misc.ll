; targets: sm_75:+ptx64 sm_80:+ptx70 sm_86:+ptx78 sm_90:+ptx85 sm_120a:+ptx88
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.Pt = type { float, i32, double, [3 x i16] }

@fmt = private unnamed_addr addrspace(1) constant [22 x i8] c"tid %d val %f sz %ld\0A\00", align 1
@lut = internal addrspace(4) constant [8 x i32] [i32 1, i32 2, i32 3, i32 5, i32 8, i32 13, i32 21, i32 34], align 4
@gvar = addrspace(1) externally_initialized global [16 x float] zeroinitializer, align 16

declare i32 @vprintf(ptr, ptr)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x() #0
declare i32 @llvm.nvvm.read.ptx.sreg.laneid() #0
declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32, i32, i32, i32)
declare float @llvm.nvvm.shfl.sync.up.f32(i32, float, i32, i32)
declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1)
declare i32 @llvm.nvvm.prmt(i32, i32, i32)
declare i32 @llvm.fshl.i32(i32, i32, i32)
declare i64 @llvm.ctpop.i64(i64)
declare i32 @llvm.ctlz.i32(i32, i1)
declare i32 @llvm.bitreverse.i32(i32)
declare float @llvm.sqrt.f32(float)
declare double @llvm.fma.f64(double, double, double)
declare float @llvm.maxnum.f32(float, float)
declare float @llvm.minimum.f32(float, float)

define internal i128 @mix(i128 %a, i128 %b) noinline !dbg !10 {
  %m = mul i128 %a, %b, !dbg !12
  %x = xor i128 %m, %a, !dbg !12
  %s = ashr i128 %x, 3, !dbg !13
  ret i128 %s, !dbg !13
}

define internal float @sum_pt(ptr byval(%struct.Pt) align 8 %p) noinline !dbg !14 {
  %f = load float, ptr %p, !dbg !15
  %ip = getelementptr %struct.Pt, ptr %p, i32 0, i32 1
  %i = load i32, ptr %ip, !dbg !15
  %dp = getelementptr %struct.Pt, ptr %p, i32 0, i32 2
  %d = load double, ptr %dp, !dbg !15
  %fi = sitofp i32 %i to float
  %df = fptrunc double %d to float
  %s = fadd float %f, %fi
  %t = fadd float %s, %df, !dbg !15
  ret float %t, !dbg !15
}

define ptx_kernel void @misc(ptr %out, ptr byval(%struct.Pt) align 8 %pt, i128 %wide, i64 %n) !dbg !4 {
entry:
  %buf = alloca { i32, double, i64 }, align 8
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !9
  %lane = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  %sh = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %tid, i32 1, i32 31), !dbg !9
  %pf = sitofp i32 %sh to float
  %up = call float @llvm.nvvm.shfl.sync.up.f32(i32 -1, float %pf, i32 2, i32 0)
  %pr = icmp sgt i32 %lane, 7
  %bal = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %pr)
  %pm = call i32 @llvm.nvvm.prmt(i32 %bal, i32 %tid, i32 29474)
  %fs = call i32 @llvm.fshl.i32(i32 %pm, i32 %tid, i32 11)
  %lp = getelementptr [8 x i32], ptr addrspace(4) @lut, i32 0, i32 %lane
  %lv = load i32, ptr addrspace(4) %lp
  %cz = call i32 @llvm.ctlz.i32(i32 %lv, i1 false)
  %br = call i32 @llvm.bitreverse.i32(i32 %cz)
  %w = zext i32 %br to i128
  %mx = call i128 @mix(i128 %wide, i128 %w), !dbg !9
  %mt = trunc i128 %mx to i64
  %pc = call i64 @llvm.ctpop.i64(i64 %mt)
  %sp = call float @sum_pt(ptr byval(%struct.Pt) align 8 %pt), !dbg !9
  %sq = call float @llvm.sqrt.f32(float %sp)
  %mn = call float @llvm.minimum.f32(float %sq, float %up)
  %mm = call float @llvm.maxnum.f32(float %mn, float 0.5)
  %dd = fpext float %mm to double
  %fm = call double @llvm.fma.f64(double %dd, double %dd, double 1.0)
  %f0 = getelementptr { i32, double, i64 }, ptr %buf, i32 0, i32 0
  store i32 %tid, ptr %f0
  %f1 = getelementptr { i32, double, i64 }, ptr %buf, i32 0, i32 1
  store double %fm, ptr %f1
  %f2 = getelementptr { i32, double, i64 }, ptr %buf, i32 0, i32 2
  store i64 %pc, ptr %f2
  %fmtp = addrspacecast ptr addrspace(1) @fmt to ptr
  %r = call i32 @vprintf(ptr %fmtp, ptr %buf), !dbg !9
  %gp = getelementptr [16 x float], ptr addrspace(1) @gvar, i32 0, i32 %lane
  %gv = load float, ptr addrspace(1) %gp
  %gi = fptosi float %gv to i32
  %o1 = add i32 %fs, %r
  %o2 = add i32 %o1, %gi
  %op = getelementptr i32, ptr %out, i32 %tid
  store i32 %o2, ptr %op, !dbg !9
  ret void, !dbg !9
}

attributes #0 = { nounwind readnone }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}

!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "hand", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "misc.c", directory: "/src")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{i32 2, !"Dwarf Version", i32 4}
!4 = distinct !DISubprogram(name: "misc", scope: !1, file: !1, line: 10, type: !5, scopeLine: 10, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!5 = !DISubroutineType(types: !6)
!6 = !{null}
!9 = !DILocation(line: 12, column: 3, scope: !4)
!10 = distinct !DISubprogram(name: "mix", scope: !1, file: !1, line: 2, type: !5, scopeLine: 2, spFlags: DISPFlagDefinition | DISPFlagOptimized | DISPFlagLocalToUnit, unit: !0)
!12 = !DILocation(line: 3, column: 5, scope: !10)
!13 = !DILocation(line: 4, column: 5, scope: !10)
!14 = distinct !DISubprogram(name: "sum_pt", scope: !1, file: !1, line: 6, type: !5, scopeLine: 6, spFlags: DISPFlagDefinition | DISPFlagOptimized | DISPFlagLocalToUnit, unit: !0)
!15 = !DILocation(line: 7, column: 7, scope: !14)
