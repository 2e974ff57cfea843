#!/bin/sh
# Rebuild the fixtures with nvcc 13.5 (../shared/tools/nvcc; CPU only)
# and record what cuobjdump -res-usage prints for each. Run from this
# folder: sh build.sh /path/to/shared/tools
set -e
T=${1:-../../../../../../../shared/tools}
nvcc() { "$T/nvcc" "$@" 2>/dev/null; }
g() { printf -- "-gencode arch=%s,code=%s " "$1" "$2"; }
# Resource usage: one cubin, and a fatbin of several cubins.
nvcc -cubin -arch=sm_80 kernels.cu -o kernels.sm_80.cubin
nvcc -cubin -arch=sm_90 cluster.cu -o cluster.sm_90.cubin
# The compatibility matrix, one fatbin per rule.
nvcc -fatbin $(g compute_80 sm_80) kernels.cu -o plain.fatbin
nvcc -fatbin $(g compute_90a sm_90a) cluster.cu -o arch_specific.fatbin
nvcc -fatbin $(g compute_100f sm_100f) cluster.cu -o family.fatbin
nvcc -fatbin $(g compute_80 compute_80) kernels.cu -o ptx_only.fatbin
nvcc -fatbin $(g compute_90a compute_90a) cluster.cu -o ptx_arch_specific.fatbin
nvcc -fatbin $(g compute_100f compute_100f) cluster.cu -o ptx_family.fatbin
nvcc -fatbin -arch=compute_80 -code=compute_80 old_isa.ptx -o old_isa.fatbin
nvcc -fatbin $(g compute_75 sm_75) $(g compute_80 sm_86) $(g compute_90 compute_90) kernels.cu -o mixed.fatbin
for f in *.cubin mixed.fatbin plain.fatbin family.fatbin; do
  "$T/cuobjdump" -res-usage "$f" > "$f.res-usage.txt"
done
