#!/usr/bin/env bash
# Run one fuzz target with its seeds and dictionary.
#   fuzz/run.sh TARGET [SECONDS] [extra libFuzzer flags...]
# TARGET is one of fuzz/Cargo.toml's [[bin]] names; SECONDS defaults to 900.
# Needs cargo-fuzz (`cargo install cargo-fuzz --locked`); on a stable
# toolchain RUSTC_BOOTSTRAP=1 lets it pass its nightly-only flags.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: fuzz/run.sh TARGET [SECONDS] [libFuzzer flags...]}
secs=${2:-900}
shift $(($# < 2 ? $# : 2))
mkdir -p "fuzz/corpus/$target"
# The first corpus directory receives new inputs; the others are read-only
# seeds: the target's own (fuzz/seeds/TARGET), then the repo's data.
case "$target" in
    binary) dict=fuzz/dicts/binary.dict
            seeds=(fuzz/seeds/binary crates/ptxkit/tests/data/binary) ;;
    inline_asm) dict=fuzz/dicts/cpp.dict
            seeds=(fuzz/seeds/inline_asm) ;;
    demangle) dict=fuzz/dicts/demangle.dict
            seeds=(fuzz/seeds/demangle) ;;
    lsp_framing) dict=fuzz/dicts/lsp.dict
            seeds=(fuzz/seeds/lsp_framing) ;;
    *)      dict=fuzz/ptx.dict
            seeds=(examples crates/ptxkit/tests/data/ok crates/ptxkit/tests/data/err
                   crates/ptxkit/tests/data/long_chains fuzz/regressions) ;;
esac
# The output is also appended, each line prefixed with the seconds since the
# start, to fuzz/logs/TARGET.log: `fuzz/curve.py fuzz/logs/*.log` turns the
# logs into coverage curves (fuzz/README.md). GNU time, when present, adds
# the run's CPU time to the log. The timeout is 120 s, not libFuzzer's
# 1200: on a busy machine a run gets little CPU, and a short timeout takes
# a starved input for a hang (inputs slower than 10 s are still written
# out as `slow-unit-*`).
mkdir -p fuzz/logs
# Built first, so that neither the log's clock nor its CPU time counts the
# build.
RUSTC_BOOTSTRAP=1 cargo fuzz build --debug-assertions "$target"
timer=()
if [ -x /usr/bin/time ]; then timer=(/usr/bin/time -v); fi
RUSTC_BOOTSTRAP=1 "${timer[@]}" cargo fuzz run --debug-assertions "$target" \
    "fuzz/corpus/$target" "${seeds[@]}" -- \
    -dict="$dict" -max_total_time="$secs" -max_len=65536 \
    -timeout=120 -rss_limit_mb=2048 -print_final_stats=1 "$@" 2>&1 \
  | python3 -u -c '
import sys, time
t0 = time.time()
for line in sys.stdin:
    sys.stdout.write(f"{time.time() - t0:.1f}\t{line}")' \
  | tee -a "fuzz/logs/$target.log"
exit "${PIPESTATUS[0]}"
