#!/usr/bin/env bash
# Fits the same self-play games with `iago train --games` (the CPU fit, crates/training/src/
# train.rs) and with gpu/fit.py (on the generator's features of every position, `expand
# --all`), both holding out every 10th game, and evaluates each fit's weights with the
# other's code: the same weights must give the same held-out error under both (the same
# model), and the two fits, each run to convergence, should land within a few hundredths
# of a disc of each other.
#
#   gpu/compare-fit.sh [GAMES] [WORKDIR]   (default 4000 games; needs target/release/iago,
#                                           c++, and python3 with numpy; torch if present)
# Environment: PYTHON (default python3), DEVICE (fit.py's --device, default auto).
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-4000}
dir=${2:-$(mktemp -d)}
python=${PYTHON:-python3}
iago=target/release/iago
mkdir -p "$dir"
c++ -x c++ -O2 -std=c++17 -pthread -o "$dir/selfplay" gpu/selfplay.cu
"$dir/selfplay" play --games "$games" --depth 2 --exact 12 --random 8 --seed 4545 --out "$dir/games.gam"
"$dir/selfplay" expand --all --in "$dir/games.gam" --out "$dir/games.fea"
"$dir/selfplay" canonical --out "$dir/canonical.bin"
fit=("$python" gpu/fit.py "$dir/games.fea" --holdout 10 --device "${DEVICE:-auto}" --canonical "$dir/canonical.bin")

# The held-out RMSE of a fit's stored weights, as `iago train` reports it.
stored() { sed -n 's/^held-out self-play positions: [0-9]*, rmse \([0-9.]*\).*/\1/p' "$1"; }
from_fit() { sed -n 's/.*stored \([0-9.]*\) discs.*/\1/p' "$1"; }

echo "== iago train --games, its defaults (chosen for millions of positions) and run to convergence"
"$iago" train --games "$dir/games.gam" --holdout 10 --out "$dir/iago.bin" >"$dir/iago-default.log"
"$iago" train --games "$dir/games.gam" --holdout 10 --rate 0.003 --epochs 40 --out "$dir/iago-long.bin" \
    >"$dir/iago-long.log"
grep -v '^epoch' "$dir/iago-long.log"
echo "== fit.py"
"${fit[@]}" --batch 1024 --rate 0.1 --epochs 8 --out "$dir/fit.bin" | tee "$dir/fit.log" | grep -v '^epoch'
echo "== each fit's weights through the other's code (--epochs 0)"
"${fit[@]}" --epochs 0 --init "$dir/iago-long.bin" >"$dir/cross-fit.log"
"$iago" train --games "$dir/games.gam" --holdout 10 --epochs 0 --init "$dir/fit.bin" --out "$dir/cross.bin" \
    >"$dir/cross-iago.log"

echo "held-out RMSE of the stored weights (discs), the same games held out:"
echo "  iago train, defaults (rate 0.0015, 20 epochs):  $(stored "$dir/iago-default.log")"
echo "  iago train, rate 0.003, 40 epochs:              $(stored "$dir/iago-long.log") (by fit.py: $(from_fit "$dir/cross-fit.log"))"
echo "  fit.py, Adam 0.1, batches of 1024, 8 epochs:    $(from_fit "$dir/fit.log") (by iago: $(stored "$dir/cross-iago.log"))"
echo "files in $dir"
