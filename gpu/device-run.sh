#!/usr/bin/env bash
# One self-play run on the lent GPU machine: builds the generator with nvcc (and its CPU
# build with c++), checks the GPU against the CPU (perft, evaluations, solves, the first
# games byte for byte), then self-plays on both at once: the GPU generator at its level,
# and, when an iago binary was carried (IAGO_BIN, default target/v3/release/iago), iago's
# own `selfplay` on the other cores at the corpus's level. It checks and packs the
# records and leaves under $OUT:
#   games-N.gam   the GPU's games in game order (IAGOGAM3: iago's corpus format, each
#                 move's rank range-coded), up to PARTS (4) files of PART_BYTES (13 MB)
#                 each, about 670,000 games a file, so that all files stay within the
#                 64 MiB that come back; the abandoned games' numbers in the log
#   cpu-*.gam     iago's own games (IAGOGAM3), as `iago selfplay` wrote them
#   log.txt       every step, command and figure
#   weights.bin, fit.txt   only with FIT_SECONDS > 0: gpu/fit.py's fit of the GPU's games
# It ends within BUDGET seconds (default 500) whatever SECONDS says. A mismatch between
# GPU and CPU is reported as MISMATCH and the run goes on (the records are still checked
# by iago's rules).
#
#   gpu/device-run.sh [SECONDS] [--cpu]
#
# --cpu (or DEVICE_RUN_CPU=1) runs the same steps with the CPU build and tiny sizes, to
# test the script on a machine without a GPU; OUT defaults to ./device-out there.
# Settings (environment): DEPTH EXACT RANDOM_MOVES SEED (the GPU's level and games),
# IAGO_BIN CPU_THREADS CPU_DEPTH CPU_EXACT CPU_SEED (iago's own self-play; IAGO_BIN=none
# skips it), GAMES_CAP, BUDGET, PROBE_LIMIT, FIT_SECONDS, FIT_MAX_GAMES, FIT_ARGS,
# NVCC_FLAGS, PYTHON, PARTS, PART_BYTES.
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
    CPU_THREADS=${CPU_THREADS:-1} CPU_DEPTH=${CPU_DEPTH:-2} CPU_EXACT=${CPU_EXACT:-8}
else
    DEPTH=${DEPTH:-4} EXACT=${EXACT:-12} GAMES_CAP=${GAMES_CAP:-20000000} BUDGET=${BUDGET:-500}
    FIT_SECONDS=${FIT_SECONDS:-0} FIT_MAX_GAMES=${FIT_MAX_GAMES:-600000} PROBE_GAMES=256
    PERFT=11
    CPU_THREADS=${CPU_THREADS:-14} CPU_DEPTH=${CPU_DEPTH:-7} CPU_EXACT=${CPU_EXACT:-14}
fi
IAGO_BIN=${IAGO_BIN:-target/v3/release/iago} CPU_SEED=${CPU_SEED:-20}
# Files come back 8 at most, 64 MiB in all: log.txt, the CPU's games (about 8 MB), with a
# fit weights.bin and fit.txt (about 7 MB), and the GPU's games in PARTS parts of PART_BYTES.
RANDOM_MOVES=${RANDOM_MOVES:-10} SEED=${SEED:-47} PARTS=${PARTS:-$([ "$FIT_SECONDS" = 0 ] && echo 4 || echo 3)}
PART_BYTES=${PART_BYTES:-13000000} PYTHON=${PYTHON:-python3} PROBE_LIMIT=${PROBE_LIMIT:-60}
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
    # The CPU build and four GPU builds (three register budgets), at once: fewer registers
    # a thread let more threads (games) run on each multiprocessor. `96m` reads the
    # deadline between moves only (DEADLINE_IN_SEARCH=0): the second run's probes were
    # 2.3 times slower than the first's, after the deadline moved into the search.
    c++ -x c++ -O2 -std=c++17 -pthread -o "$ref" gpu/selfplay.cu >"$work/build-cpu.txt" 2>&1 &
    for regs in 0 128 96 96m; do
        case $regs in
            0) flags= ;;
            *m) flags="-maxrregcount=${regs%m} -DDEADLINE_IN_SEARCH=0" ;;
            *) flags=-maxrregcount=$regs ;;
        esac
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

# ---- iago's own self-play on the other cores, from now until the GPU's games end ----
# Everything after the GPU's self-play (checks, packing) takes TAIL seconds; the CPU
# games end with the GPU's, at `finish` seconds from the script's start.
TAIL=${TAIL:-75}
finish=$((BUDGET - TAIL - FIT_SECONDS))
if [ "$finish" -lt $((SECONDS + 60)) ]; then
    say "FAILED: BUDGET $BUDGET s leaves no time to play after the checks, the fit ($FIT_SECONDS s) and packing ($TAIL s)"
    exit 2
fi
cpu_pid=
cpu_games=
if [ "$IAGO_BIN" != none ] && [ -x "$IAGO_BIN" ]; then
    # Written outside $OUT (a write cut short may leave a temporary file beside it) and
    # copied there at the end.
    cpu_games=$work/cpu-d${CPU_DEPTH}e${CPU_EXACT}-s$CPU_SEED.gam
    # The file is rewritten (crash-safely) every 10,000 games: the timeout leaves every
    # game up to the last checkpoint.
    cpu_command=(timeout -s TERM $((finish - SECONDS)) "$IAGO_BIN" selfplay --games 100000000 --depth "$CPU_DEPTH"
        --exact "$CPU_EXACT" --seed "$CPU_SEED" --threads "$CPU_THREADS" --checkpoint "${CPU_CHECKPOINT:-10000}"
        --out "$cpu_games")
    say "\$ ${cpu_command[*]} &"
    "${cpu_command[@]}" >"$work/cpu-selfplay.txt" 2>&1 &
    cpu_pid=$!
else
    say "NOTE: no iago binary at $IAGO_BIN (IAGO_BIN): the CPU cores play no games of their own"
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

# The builds at a small level, a round of games each: the fastest plays the run. Its
# nodes a second with every slot busy (`gpu_nodes`, `slots` games at once) size the level.
gpu_nodes=0
slots=1
if [ "$cpu" = 0 ]; then
    best_rate=0
    for regs in 0 128 96 96m; do
        [ -x "$work/selfplay-gpu-$regs" ] || continue
        line=$("$work/selfplay-gpu-$regs" play --games 20000000 --depth 4 --exact 12 --seconds 6 --device gpu \
            --out "$work/speed.gam" 2>>"$log")
        say "registers ${regs/#0/default}: $line"
        rate=$(echo "$line" | sed -n 's/.* \([0-9.]*\) games\/s.*/\1/p')
        # Between moves, a deadline waits for the move's search: only for short solves.
        if [ "$regs" = 96m ] && [ "$EXACT" -gt 12 ]; then continue; fi
        if awk -v a="${rate:-0}" -v b="$best_rate" 'BEGIN { exit !(a > b) }'; then
            best_rate=$rate
            gen=$work/selfplay-gpu-$regs
            gpu_nodes=$(echo "$line" | sed -n 's/.* \([0-9.e+]*\) nodes\/s.*/\1/p')
            slots=$(grep -h "blocks of" "$log" | tail -1 | awk '{ print $2 * $5 }')
        fi
    done
    say "the run uses $(basename "$gen") ($best_rate games/s at depth 4, exact 12; $gpu_nodes nodes/s, $slots games at once)"
fi

# The first games of the run itself, on both: also how long one game takes. A level too
# slow for this run is lowered by two plies and two empties, once: its probe games do not
# end within PROBE_LIMIT seconds, or a game (its nodes from the CPU's probe) would take
# more than a third of the self-play with every slot of the GPU busy.
for _ in 1 2; do
    level=(--depth "$DEPTH" --exact "$EXACT" --random "$RANDOM_MOVES" --seed "$SEED")
    probe_start=$SECONDS
    step "$gen" play --games "$PROBE_GAMES" "${level[@]}" --device "$device" --hard-seconds "$PROBE_LIMIT" \
        --out "$work/probe-gen.gam"
    latency=$((SECONDS - probe_start + 1))
    finished=$(grep "^played" "$log" | tail -1 | grep -c "^played $PROBE_GAMES games")
    step "$ref" play --games "$PROBE_GAMES" "${level[@]}" --out "$work/probe-cpu.gam"
    game_seconds=$(grep "^played" "$log" | tail -1 | awk -v gpu="$gpu_nodes" -v slots="$slots" '{
        for (i = 1; i < NF; i++) { if ($(i + 1) == "s,") s = $i; if ($(i + 1) == "nodes/s,") r = $i }
        printf("%.0f", (gpu > 0 ? r * s / $2 * slots / gpu : 0)) }')
    say "a game at depth $DEPTH, exact $EXACT: about $game_seconds s on the $device with every slot busy"
    [ "$finished" = 1 ] && [ "$((game_seconds * 3))" -lt "$((finish - SECONDS))" ] && break
    say "LEVEL TOO SLOW: depth $DEPTH, exact $EXACT (probe games ended: $finished; a game about $game_seconds s)"
    [ "$DEPTH" -gt 2 ] && [ "$EXACT" -gt 2 ] || break
    DEPTH=$((DEPTH - 2)) EXACT=$((EXACT - 2))
done
if cmp -s "$work/probe-gen.gam" "$work/probe-cpu.gam"; then
    say "games: the first $PROBE_GAMES games are the same on the $device and the cpu build"
else
    mismatch "the first $PROBE_GAMES games differ between the $device and the cpu build"
fi

# ---- Self-play -----------------------------------------------------------------------
# Games start until `finish`, when the checks and packing (TAIL) and the fit still fit in
# the budget, and are abandoned (left out, their numbers listed) if still going then. A
# thread takes no game that its last game says would not end in time, so few are.
window=$((finish - SECONDS))
[ "$window" -gt "$seconds" ] && window=$seconds
[ "$window" -lt 5 ] && window=5
say "self-play: $window s on the $device ($PROBE_GAMES games took $latency s in the probe)"
step "$gen" play --games "$GAMES_CAP" "${level[@]}" --seconds "$window" --hard-seconds "$window" --device "$device" \
    --abandoned "$work/abandoned.txt" --out "$work/games.gam" || mismatch "the run's solves disagreed with its results"
touch "$work/abandoned.txt"
abandoned=$(wc -l <"$work/abandoned.txt")
[ "$abandoned" -gt 0 ] && say "abandoned games: $(head -c 2000 "$work/abandoned.txt" | tr '\n' ' ')"
# The first games are the probe's unless one of them was abandoned.
if [ "$(awk -v n="$PROBE_GAMES" '$1 < n' "$work/abandoned.txt" 2>/dev/null | wc -l)" = 0 ]; then
    "$ref" head "$work/games.gam" --games "$PROBE_GAMES" --out "$work/games-head.gam" 2>>"$log"
    cmp -s "$work/games-head.gam" "$work/probe-cpu.gam" || mismatch "the run's first games differ from the probe's"
fi
if [ -n "$cpu_pid" ]; then
    wait "$cpu_pid"
    say "iago's own self-play: $(grep -h "games/s" "$work/cpu-selfplay.txt" | tail -1) (its file holds the games up to the last checkpoint)"
    cp "$cpu_games" "$out/" && say "$(ls -l "$out/$(basename "$cpu_games")" 2>&1)"
fi
games=0
if [ -s "$work/games.gam" ]; then
    games=$(sed -n 's/^played \([0-9]*\) games.*/\1/p' "$log" | tail -1)
    step "$ref" check "$work/games.gam" --solve 20 || mismatch "the records failed iago's rules or their solves"
else
    say "FAILED: the run wrote no games"
fi

# ---- Features and the fit (FIT_SECONDS > 0) -----------------------------------------
# The fit of the GPU's games alone, on the GPU: what a fit there gives (the first run
# showed it equal to the CPU's). The games' real use is the fit with the whole corpus
# after the run (gpu/README.md, "After a run").
if [ "$FIT_SECONDS" = 0 ]; then
    say "no fit (FIT_SECONDS=0): the games are fitted with the corpus after the run"
elif "$PYTHON" -c 'import numpy' 2>/dev/null; then
    # At most FIT_MAX_GAMES games are fitted: more would not load and fit within the budget.
    fit_games=$work/games.gam
    if [ "${games:-0}" -gt "$FIT_MAX_GAMES" ]; then
        "$ref" head "$work/games.gam" --games "$FIT_MAX_GAMES" --out "$work/fit.gam"
        fit_games=$work/fit.gam
        say "fitting the first $FIT_MAX_GAMES of $games games"
    fi
    step "$ref" expand --in "$fit_games" --out "$work/games.fea"
    step "$ref" canonical --out "$work/canonical.bin"
    # Thirty stages and an overlap of 2 discs, as the shipped weights have.
    FIT_ARGS=${FIT_ARGS:---stages 30 --stage-overlap 2}
    fit_seconds=$((BUDGET - SECONDS - TAIL))
    [ "$fit_seconds" -gt "$FIT_SECONDS" ] && fit_seconds=$FIT_SECONDS
    [ "$fit_seconds" -lt 10 ] && fit_seconds=10
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
# machine: 8 files, with log.txt, the CPU's games and, with a fit, fit.txt and
# weights.bin), in iago's corpus format (each move's rank among the legal moves,
# range-coded: about 19.5 bytes a game). The parts are coded at once, one process each,
# sized from the first games' bytes a game (a file's model learns as it goes, so later
# games take fewer).
packed=0
part=0
if [ "${games:-0}" -gt 0 ]; then
    sample=$((games < 20000 ? games : 20000))
    "$ref" head "$work/games.gam" --games "$sample" --coded --out "$work/sample.gam"
    per_part=$(awk -v bytes="$(wc -c <"$work/sample.gam")" -v n="$sample" -v cap="$PART_BYTES" \
        'BEGIN { printf "%d", cap * 0.95 * n / bytes }')
    while [ "$part" -lt "$PARTS" ] && [ "$packed" -lt "$games" ]; do
        part=$((part + 1))
        count=$((games - packed < per_part ? games - packed : per_part))
        "$ref" head "$work/games.gam" --skip "$packed" --games "$count" --coded --out "$out/games-$part.gam" &
        say "games-$part.gam: games $((packed + 1)) to $((packed + count)) of $games"
        packed=$((packed + count))
    done
    wait
    for f in "$out"/games-*.gam; do
        size=$(wc -c <"$f")
        say "$(basename "$f"): $size bytes"
        [ "$size" -le 16000000 ] || mismatch "$(basename "$f") is $size bytes, over what comes back"
    done
fi
say "records: $packed of ${games:-0} games in $part files$([ "$packed" -lt "${games:-0}" ] && echo " (the rest do not fit in PARTS files and are lost)")"

say "summary: $problems mismatches; $(grep -h '^played' "$log" | tail -1)"
say "summary: $(grep -h '^overall' "$out/fit.txt" 2>/dev/null | tail -1)"
say "done in $SECONDS s; files in $out:" "$out"/*
rm -rf "$work"
[ "$problems" = 0 ]
