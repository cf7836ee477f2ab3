#!/usr/bin/env bash
# One self-play run on the lent GPU machine: builds the generator with nvcc (and its CPU
# build with c++), checks the GPU against the CPU (perft, evaluations, solves, the first
# games byte for byte), self-plays for SECONDS, checks and expands the records, fits the
# weights with gpu/fit.py on the GPU, and leaves under $OUT:
#   weights.bin   the fitted weights (IAGOPAT2, 30 stages: iago --eval pattern:weights.bin)
#   games-N.gam   the run's games in order (IAGOGAM3: iago's corpus format, each move's
#                 rank range-coded), up to PARTS (5) files of under 16 MB each, about
#                 800,000 games a file
#   log.txt       every step, command and figure; fit.txt the fit's own report
# It ends within BUDGET seconds (default 500) whatever SECONDS says: self-play gets what
# the other steps leave. A mismatch between GPU and CPU is reported as MISMATCH and the
# run goes on (the records are still checked by iago's rules before the fit).
#
#   gpu/device-run.sh [SECONDS] [--cpu]
#
# --cpu (or DEVICE_RUN_CPU=1) runs the same steps with the CPU build and tiny sizes, to
# test the script on a machine without a GPU; OUT defaults to ./device-out there.
# Settings (environment): DEPTH EXACT RANDOM_MOVES SEED (the level and the games),
# GAMES_CAP, BUDGET, PROBE_LIMIT, FIT_SECONDS, FIT_MAX_GAMES, FIT_ARGS, NVCC_FLAGS, PYTHON,
# PARTS, PART_BYTES.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2

cpu=${DEVICE_RUN_CPU:-0}
seconds=200
for arg in "$@"; do
    case $arg in
        --cpu) cpu=1 ;;
        *[!0-9]* | '') echo "usage: gpu/device-run.sh [SECONDS] [--cpu]" >&2; exit 2 ;;
        *) seconds=$arg ;;
    esac
done
if [ "$cpu" = 1 ]; then
    DEPTH=${DEPTH:-2} EXACT=${EXACT:-10} GAMES_CAP=${GAMES_CAP:-400} BUDGET=${BUDGET:-240}
    FIT_SECONDS=${FIT_SECONDS:-40} FIT_MAX_GAMES=${FIT_MAX_GAMES:-1000000} PROBE_GAMES=16 PERFT=9
else
    DEPTH=${DEPTH:-6} EXACT=${EXACT:-16} GAMES_CAP=${GAMES_CAP:-20000000} BUDGET=${BUDGET:-500}
    FIT_SECONDS=${FIT_SECONDS:-120} FIT_MAX_GAMES=${FIT_MAX_GAMES:-600000} PROBE_GAMES=256
    PERFT=11
fi
RANDOM_MOVES=${RANDOM_MOVES:-10} SEED=${SEED:-45} PARTS=${PARTS:-5}
PART_BYTES=${PART_BYTES:-15500000} PYTHON=${PYTHON:-python3} PROBE_LIMIT=${PROBE_LIMIT:-60}
out=${OUT:-$PWD/device-out}
work=$(mktemp -d /tmp/iago-run.XXXXXX)
mkdir -p "$out"
log=$out/log.txt
: >"$log"
problems=0
SECONDS=0

say() { echo "[${SECONDS}s] $*" | tee -a "$log"; }
# Runs a command, its output into the log; returns its status.
step() {
    say "\$ $*"
    "$@" 2>&1 | tee -a "$log"
    return "${PIPESTATUS[0]}"
}
mismatch() {
    say "MISMATCH: $*"
    problems=$((problems + 1))
}

say "device-run: seconds $seconds, depth $DEPTH, exact $EXACT, random $RANDOM_MOVES, seed $SEED, budget $BUDGET s, cpu-only $cpu"
say "commit $(git rev-parse HEAD 2>/dev/null || echo unknown)"
if [ "$cpu" = 0 ]; then
    step nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.sm --format=csv
    step nvcc --version
fi
"$PYTHON" -c 'import numpy' 2>/dev/null || say "NOTE: $PYTHON has no numpy: the fit will be skipped"
step "$PYTHON" -c 'import sys; print(sys.version.split()[0]); import torch; print("torch", torch.__version__, "cuda", torch.cuda.is_available())'

# ---- Build -------------------------------------------------------------------------
ref=$work/selfplay-cpu
if [ "$cpu" = 1 ]; then
    step c++ -x c++ -O2 -std=c++17 -pthread -o "$ref" gpu/selfplay.cu || { say "FAILED: the CPU build"; exit 1; }
    gen=$ref
    device=cpu
else
    # The CPU build and three register budgets of the GPU build, at once: fewer registers
    # a thread let more threads (games) run on each multiprocessor.
    c++ -x c++ -O2 -std=c++17 -pthread -o "$ref" gpu/selfplay.cu >"$work/build-cpu.txt" 2>&1 &
    for regs in 0 128 96; do
        flags=$([ "$regs" = 0 ] || echo "-maxrregcount=$regs")
        # shellcheck disable=SC2086
        nvcc -O3 -arch=sm_90 -std=c++17 -Xptxas -v $flags ${NVCC_FLAGS:-} -o "$work/selfplay-gpu-$regs" \
            gpu/selfplay.cu >"$work/build-gpu-$regs.txt" 2>&1 &
    done
    wait
    say "builds done"
    [ -x "$ref" ] || { cat "$work/build-cpu.txt" >>"$log"; say "FAILED: the CPU build"; exit 1; }
    [ -x "$work/selfplay-gpu-0" ] || { cat "$work/build-gpu-0.txt" >>"$log"; say "FAILED: the nvcc build"; exit 1; }
    grep -A2 "play_kernel" "$work/build-gpu-0.txt" | tee -a "$log"
    gen=$work/selfplay-gpu-0
    device=gpu
fi

# ---- Checks: the GPU against the CPU build ----------------------------------------
expected_perft=$([ "$PERFT" = 11 ] && echo 212258800 || echo 3005288)
for binary in "$ref" "$gen"; do
    got=$("$binary" perft "$PERFT" --device "$([ "$binary" = "$ref" ] && echo cpu || echo $device)" 2>>"$log")
    say "$(basename "$binary"): $got"
    [ "$got" = "perft $PERFT: $expected_perft" ] || mismatch "perft $PERFT of $(basename "$binary"): $got, expected $expected_perft"
done
step "$ref" play --games 64 --depth 2 --exact 12 --random 8 --seed 1 --out "$work/check.gam" >/dev/null
"$ref" positions "$work/check.gam" --every 2 >"$work/check.pos"
"$ref" eval <"$work/check.pos" >"$work/eval-cpu.txt"
"$gen" eval --device "$device" <"$work/check.pos" >"$work/eval-gen.txt" 2>>"$log"
differ=$(paste "$work/eval-cpu.txt" "$work/eval-gen.txt" | awk '$1 != $2' | wc -l)
say "evaluations: $(wc -l <"$work/check.pos") positions, $differ differ"
if [ "$differ" != 0 ] || [ ! -s "$work/eval-gen.txt" ]; then mismatch "$differ evaluations differ"; fi
"$ref" positions "$work/check.gam" --min-empties 10 --max-empties 14 --every 3 | sed 's/$/;/' >"$work/check.obf"
"$ref" solve "$work/check.obf" 2>>"$log" | awk '{ print $3 }' >"$work/solve-cpu.txt"
"$gen" solve "$work/check.obf" --device "$device" 2>>"$log" | awk '{ print $3 }' >"$work/solve-gen.txt"
differ=$(paste "$work/solve-cpu.txt" "$work/solve-gen.txt" | awk '$1 != $2' | wc -l)
say "exact solves: $(wc -l <"$work/check.obf") positions, $differ differ"
if [ "$differ" != 0 ] || [ ! -s "$work/solve-gen.txt" ]; then mismatch "$differ solve values differ"; fi
if "$PYTHON" -c 'import numpy' 2>/dev/null; then
    step "$PYTHON" gpu/fit.py --self-test || mismatch "fit.py's self-test failed"
fi

# The register budgets at a small level, six seconds each: the fastest plays the run.
if [ "$cpu" = 0 ]; then
    best_rate=0
    for regs in 0 128 96; do
        [ -x "$work/selfplay-gpu-$regs" ] || continue
        line=$("$work/selfplay-gpu-$regs" play --games 20000000 --depth 4 --exact 12 --seconds 6 --device gpu \
            --out "$work/speed.gam" 2>>"$log")
        say "registers ${regs/#0/default}: $line"
        rate=$(echo "$line" | sed -n 's/.* \([0-9.]*\) games\/s.*/\1/p')
        if awk -v a="${rate:-0}" -v b="$best_rate" 'BEGIN { exit !(a > b) }'; then
            best_rate=$rate
            gen=$work/selfplay-gpu-$regs
        fi
    done
    say "the run uses $(basename "$gen") ($best_rate games/s at depth 4, exact 12)"
fi

# The first games of the run itself, on both: also how long one game takes on the device.
# A level whose games do not end within PROBE_LIMIT seconds is too slow for this run: it
# is lowered by two plies and two empties, once.
for _ in 1 2; do
    level=(--depth "$DEPTH" --exact "$EXACT" --random "$RANDOM_MOVES" --seed "$SEED")
    probe_start=$SECONDS
    step "$gen" play --games "$PROBE_GAMES" "${level[@]}" --device "$device" --hard-seconds "$PROBE_LIMIT" \
        --out "$work/probe-gen.gam"
    latency=$((SECONDS - probe_start + 1))
    grep "^played" "$log" | tail -1 | grep -q "^played $PROBE_GAMES games" && break
    say "LEVEL TOO SLOW: depth $DEPTH, exact $EXACT did not play $PROBE_GAMES games in $PROBE_LIMIT s"
    DEPTH=$((DEPTH - 2)) EXACT=$((EXACT - 2))
done
step "$ref" play --games "$PROBE_GAMES" "${level[@]}" --out "$work/probe-cpu.gam"
if cmp -s "$work/probe-gen.gam" "$work/probe-cpu.gam"; then
    say "games: the first $PROBE_GAMES games are the same on the $device and the cpu build"
else
    mismatch "the first $PROBE_GAMES games differ between the $device and the cpu build"
fi

# ---- Self-play -----------------------------------------------------------------------
# Games in flight at the end must be done by `hard`, when the fit and a minute and a half
# of checks, expansion and packing still fit in the budget; no game starts after `soft`, three probe
# times before.
hard=$((BUDGET - SECONDS - FIT_SECONDS - 90))
soft=$((hard - 3 * latency))
[ "$soft" -gt "$seconds" ] && soft=$seconds
[ "$soft" -lt 5 ] && soft=5
[ "$hard" -lt "$soft" ] && hard=$soft
say "self-play: games start for $soft s, all end by $hard s (asked $seconds; $PROBE_GAMES games took $latency s)"
step "$gen" play --games "$GAMES_CAP" "${level[@]}" --seconds "$soft" --hard-seconds "$hard" --device "$device" \
    --out "$work/games.gam" || mismatch "the run's solves disagreed with its results"
"$ref" head "$work/games.gam" --games "$PROBE_GAMES" --out "$work/games-head.gam"
cmp -s "$work/games-head.gam" "$work/probe-cpu.gam" || mismatch "the run's first games differ from the probe's"
step "$ref" check "$work/games.gam" --solve 20 || mismatch "the records failed iago's rules or their solves"
games=$(sed -n 's/^played \([0-9]*\) games.*/\1/p' "$log" | tail -1)

# ---- Features and the fit ------------------------------------------------------------
# At most FIT_MAX_GAMES games are fitted: more would not load and fit within the budget.
fit_games=$work/games.gam
if [ "${games:-0}" -gt "$FIT_MAX_GAMES" ]; then
    "$ref" head "$work/games.gam" --games "$FIT_MAX_GAMES" --out "$work/fit.gam"
    fit_games=$work/fit.gam
    say "fitting the first $FIT_MAX_GAMES of $games games"
fi
step "$ref" expand --in "$fit_games" --out "$work/games.fea"
step "$ref" canonical --out "$work/canonical.bin"
# Thirty stages and an overlap of 2 discs, as the shipped weights have. Sixty stages fitted
# on 2,261,000 games beat thirty by 10 Elo at depth 8 but not at equal CPU, where their
# search is slower (docs/selfplay.md); with a GPU run's games, try them again.
FIT_ARGS=${FIT_ARGS:---stages 30 --stage-overlap 2}
fit_seconds=$((BUDGET - SECONDS - 45))
[ "$fit_seconds" -gt "$FIT_SECONDS" ] && fit_seconds=$FIT_SECONDS
[ "$fit_seconds" -lt 10 ] && fit_seconds=10
if "$PYTHON" -c 'import numpy' 2>/dev/null; then
    say "\$ $PYTHON gpu/fit.py ... --max-seconds $fit_seconds $FIT_ARGS"
    # shellcheck disable=SC2086
    PYTHONUNBUFFERED=1 "$PYTHON" gpu/fit.py "$work/games.fea" --canonical "$work/canonical.bin" \
        --out "$out/weights.bin" --max-seconds "$fit_seconds" $FIT_ARGS 2>&1 | tee "$out/fit.txt" | tee -a "$log" \
        || say "FAILED: the fit"
else
    say "FAILED: no fit ($PYTHON has no numpy)"
fi

# ---- The records ---------------------------------------------------------------------
# In game order, into up to PARTS files of under 16 MB each (what comes back from the
# machine: 8 files, with log.txt, fit.txt and weights.bin), about 800,000 games a file in
# iago's corpus format (each move's rank among the legal moves, range-coded: about 19.5
# bytes a game).
packed=0
part=0
while [ "$part" -lt "$PARTS" ] && [ "$packed" -lt "${games:-0}" ]; do
    part=$((part + 1))
    count=$((games - packed))
    while :; do
        "$ref" head "$work/games.gam" --skip "$packed" --games "$count" --coded --out "$out/games-$part.gam"
        size=$(wc -c <"$out/games-$part.gam")
        [ "$size" -le "$PART_BYTES" ] && break
        count=$((count * PART_BYTES * 97 / 100 / size))
    done
    say "games-$part.gam: games $((packed + 1)) to $((packed + count)) of $games, $size bytes"
    packed=$((packed + count))
done
say "records: $packed of ${games:-0} games in $part files"

say "summary: $problems mismatches; $(grep -h '^played' "$log" | tail -1)"
say "summary: $(grep -h '^overall' "$out/fit.txt" 2>/dev/null | tail -1)"
say "done in $SECONDS s; files in $out:" "$out"/*
rm -rf "$work"
[ "$problems" = 0 ]
