"""Lower the hand-written LLVM IR in producers/llvm/*.ll to PTX with LLVM's NVPTX back end (llvmlite).

Usage: python llvm_compile.py OUTDIR
Each .ll names its targets on its first line: "; targets: sm_80:+ptx70 sm_90a:+ptx80 ...".
Writes OUTDIR/<stem>.<cpu>.ptx (and a -O0 variant for the first target) and prints
"<file>\t<producer version>\t<cpu features opt>".
"""
import glob
import os
import sys

import llvmlite
import llvmlite.binding as llvm

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()
    target = llvm.Target.from_triple("nvptx64-nvidia-cuda")
    ver = "LLVM %d.%d.%d (llvmlite %s)" % (*llvm.llvm_version_info, llvmlite.__version__)
    for path in sorted(glob.glob(os.path.join(HERE, "llvm", "*.ll"))):
        stem = os.path.basename(path)[:-3]
        text = open(path).read()
        first = text.splitlines()[0]
        assert first.startswith("; targets:"), path
        specs = first.split(":", 1)[1].split()
        for n, spec in enumerate(specs):
            cpu, features = spec.split(":")
            for opt in ([2, 0] if n == 0 else [3]):
                try:
                    mod = llvm.parse_assembly(text)
                    mod.verify()
                    tm = target.create_target_machine(cpu=cpu, features=features, opt=opt)
                    ptx = tm.emit_assembly(mod)
                except Exception as e:
                    print(f"# skip {stem} {spec} O{opt}: {str(e).splitlines()[0][:200]}", file=sys.stderr)
                    continue
                fname = f"{stem}.{cpu.replace('_', '')}{'.o0' if opt == 0 else ''}.ptx"
                with open(os.path.join(out, fname), "w") as f:
                    f.write(ptx)
                print(f"{fname}\t{ver}\t{cpu} {features} -O{opt}")


if __name__ == "__main__":
    main()
