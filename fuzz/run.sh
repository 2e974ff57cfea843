#!/usr/bin/env bash
# Run one fuzz target, seeded with the repo's own PTX.
#   fuzz/run.sh TARGET [SECONDS] [extra libFuzzer flags...]
# TARGET is parse, lossless, canonical, check or binary; SECONDS defaults to 900.
# Needs cargo-fuzz (`cargo install cargo-fuzz --locked`); on a stable
# toolchain RUSTC_BOOTSTRAP=1 lets it pass its nightly-only flags.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: fuzz/run.sh TARGET [SECONDS] [libFuzzer flags...]}
secs=${2:-900}
shift $(($# < 2 ? $# : 2))
mkdir -p "fuzz/corpus/$target"
# The first corpus directory receives new inputs; the others are read-only seeds.
if [ "$target" = binary ]; then
    # The CUDA binary reader: seeded with the binary fixtures, no PTX dictionary.
    RUSTC_BOOTSTRAP=1 exec cargo fuzz run --debug-assertions binary \
        fuzz/corpus/binary crates/ptxkit/tests/data/binary -- \
        -max_total_time="$secs" -max_len=65536 -timeout=10 \
        -rss_limit_mb=2048 -print_final_stats=1 "$@"
fi
RUSTC_BOOTSTRAP=1 exec cargo fuzz run --debug-assertions "$target" \
    "fuzz/corpus/$target" examples crates/ptxkit/tests/data/ok \
    crates/ptxkit/tests/data/err fuzz/regressions -- \
    -dict=fuzz/ptx.dict -max_total_time="$secs" -max_len=65536 \
    -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 "$@"
