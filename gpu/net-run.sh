#!/usr/bin/env bash
# gpu/net-run.sh [SECONDS] [--cpu]: trains the evaluation network (gpu/net.py) on the whole
# corpus on a lent GPU machine, in about SECONDS (default 420) after the features are out.
#
# Run from the checkout's root, with an iago binary built here for x86-64-v3 (IAGO_BIN,
# default target/v3/release/iago; the machine has no Rust toolchain) and python3 with
# NumPy and PyTorch. Writes under $OUT (at most 8 files of 16 MB come back):
#   net.bin      the weights (IAGONET1; `iago --eval network:net.bin`), when under 16 MB
#   net.bin.xz   the same, compressed, always
#   net.json     the figures: held-out and test errors of each fit, the pattern weights'
#   log.txt      everything the run printed
# --cpu: the same steps on the CPU with a tiny subset (GAMES_PER_FILE=300, two files, two
# epochs), to check the script on a machine without a GPU.
#
# Settings (environment): WIDTH (32), HIDDEN (16), BUCKETS (15), EPOCHS (8), BATCH (16384),
# RATE (0.003), CURVE (empty: one fit on every training game; "320000,0" fits on the first
# N training games each, 0 for all of them, the time shared by their positions and the last
# fit's weights written), GAMES_PER_FILE (0: all), FILES (the corpus files, default
# data/selfplay/*.gam), WORK (/tmp/net-run: the features, about 10 GB a million games).
set -u
BUDGET=${1:-420}
CPU=0
[ "${2:-}" = "--cpu" ] && CPU=1
OUT=${OUT:-$PWD/net-run-out}
WORK=${WORK:-/tmp/net-run}
IAGO=${IAGO_BIN:-target/v3/release/iago}
WIDTH=${WIDTH:-32}
HIDDEN=${HIDDEN:-16}
BUCKETS=${BUCKETS:-15}
EPOCHS=${EPOCHS:-8}
BATCH=${BATCH:-16384}
RATE=${RATE:-0.003}
CURVE=${CURVE:-}
GAMES_PER_FILE=${GAMES_PER_FILE:-0}
DEVICE=cuda
FILES=${FILES:-$(ls data/selfplay/*.gam)}
if [ "$CPU" = 1 ]; then
    DEVICE=cpu
    GAMES_PER_FILE=${GAMES_PER_FILE/#0/300}
    FILES=$(echo "$FILES" | head -2)
    EPOCHS=2
    BATCH=2048
fi
mkdir -p "$OUT" "$WORK"
LOG="$OUT/log.txt"
: >"$LOG"
say() { echo "$@" | tee -a "$LOG"; }
started=$(date +%s)

say "net-run: budget ${BUDGET} s, device $DEVICE, width $WIDTH, hidden $HIDDEN, buckets $BUCKETS, epochs $EPOCHS"
say "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
{ nvidia-smi --query-gpu=name,memory.total --format=csv,noheader 2>/dev/null || echo "no nvidia-smi"; } | tee -a "$LOG"
python3 -c "import numpy, torch; print('numpy', numpy.__version__, 'torch', torch.__version__, 'cuda', torch.cuda.is_available())" 2>&1 | tee -a "$LOG"
if ! "$IAGO" version >>"$LOG" 2>&1; then
    say "net-run: $IAGO does not run (set IAGO_BIN to an iago built for x86-64-v3)"
    exit 1
fi

# 1. The features of every corpus file, one process a file on every core.
limit=()
[ "$GAMES_PER_FILE" != 0 ] && limit=(--games "$GAMES_PER_FILE")
jobs_max=$(nproc)
features=()
for file in $FILES; do
    out="$WORK/$(basename "$file" .gam).fea"
    features+=("$out")
    "$IAGO" features "$file" "${limit[@]}" --out "$out" >>"$LOG" 2>&1 &
    while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do sleep 0.2; done
done
"$IAGO" features data/test/d6e20-s99.gam --out "$WORK/test.fea" --canonical "$WORK/canonical.bin" >>"$LOG" 2>&1
wait
say "features: ${#features[@]} files, $(du -sh "$WORK" | cut -f1), $(($(date +%s) - started)) s"

# 2. The fit, in the time left less reading the features and the final report (on the
# whole corpus about a minute each).
left=$((BUDGET - ($(date +%s) - started) - 150))
[ "$left" -lt 30 ] && left=30
curve=()
[ -n "$CURVE" ] && curve=(--curve "$CURVE")
PYTHONUNBUFFERED=1 python3 gpu/net.py "${features[@]}" --canonical "$WORK/canonical.bin" \
    --test "$WORK/test.fea" --device "$DEVICE" --width "$WIDTH" --hidden "$HIDDEN" \
    --buckets "$BUCKETS" --epochs "$EPOCHS" --batch "$BATCH" --rate "$RATE" \
    --max-seconds "$left" --held-max 1000000 "${curve[@]}" \
    --pattern crates/core/src/othello/eval/weights/patterns.bin \
    --out "$WORK/net.bin" --json "$OUT/net.json" 2>&1 | tee -a "$LOG"
status=${PIPESTATUS[0]}

# 3. What comes back: the weights (compressed always, plain when small enough).
if [ -f "$WORK/net.bin" ]; then
    python3 -c "import lzma,sys; open(sys.argv[2],'wb').write(lzma.compress(open(sys.argv[1],'rb').read(), preset=9))" \
        "$WORK/net.bin" "$OUT/net.bin.xz"
    size=$(stat -c %s "$WORK/net.bin")
    [ "$size" -lt 16000000 ] && cp "$WORK/net.bin" "$OUT/net.bin"
    say "net-run: net.bin $size bytes, net.bin.xz $(stat -c %s "$OUT/net.bin.xz") bytes"
fi
say "net-run: fit exit $status, $(($(date +%s) - started)) s in all"
exit "$status"
