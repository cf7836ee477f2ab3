#!/usr/bin/env python3
"""Fits iago's pattern weights on self-play features (IAGOFEA1), on the GPU with PyTorch
when there is one, on the CPU otherwise (PyTorch, or NumPy when PyTorch is missing).

The model is the one of crates/tools/src/train.rs: one weight per tied feature per stage,
a position's value the sum of its 51 features' weights from its stage's set, fitted on the
squared error in discs. Stages are by disc count, --stages of them over the 60 disc counts
4..63 (15: iago's 4 discs a stage; 60: one per disc count). --stage-overlap D trains a
position also into the stages within D discs of its own, as `iago train` does. Adam on
mini-batches, the rate falling linearly to zero; the weights of the epoch with the lowest
held-out error are kept.

Held-out positions: every --holdout-th game (games are found in the file as runs of
positions whose disc count rises), or with --split-records every --holdout-th position
(what `iago train --samples` does with a label file, for comparing the two fits).

Reports the held-out error overall, per stage, of the stored (rounded, clamped) weights
as iago evaluates them, and on exact positions at 13-20 empties; writes an IAGOPAT2 file
(`iago --eval pattern:FILE`, any stage count), which needs the canonical table from
`selfplay canonical --out FILE`.

    python3 gpu/fit.py FEATURES --canonical CAN --out weights.bin [--epochs 20] ...
    python3 gpu/fit.py --self-test
"""

import argparse
import math
import os
import struct
import sys
import time

import numpy as np

try:
    import torch
except ImportError:  # the NumPy path below does the same fit, slower
    torch = None

FEATURES = 51
EVAL_LIMIT = 6399  # iago clamps its evaluation to +-(64 discs - 1/100)
ZERO_RUN = -32768


def log(*parts):
    print(*parts, flush=True)


# ---- Files ---------------------------------------------------------------------------


class Features:
    """An IAGOFEA1 file: tied indices (N x 51), discs, labels (side to move), flags."""

    def __init__(self, path):
        with open(path, "rb") as f:
            head = f.read(24)
        if len(head) < 24 or head[:8] != b"IAGOFEA1":
            raise SystemExit(f"{path}: not an IAGOFEA1 file")
        n, f_count, stage_len = struct.unpack("<QII", head[8:24])
        if f_count != FEATURES:
            raise SystemExit(f"{path}: {f_count} features a position, {FEATURES} expected")
        raw = np.memmap(path, dtype=np.uint8, mode="r")
        need = 24 + n * FEATURES * 4 + 3 * n
        if raw.size != need:
            raise SystemExit(f"{path}: {raw.size} bytes, {need} expected for {n} positions")
        body = 24 + n * FEATURES * 4
        self.indices = np.frombuffer(raw, dtype="<u4", count=n * FEATURES, offset=24).reshape(n, FEATURES)
        self.discs = np.array(raw[body : body + n], dtype=np.int64)
        self.labels = np.array(raw[body + n : body + 2 * n]).view(np.int8).astype(np.float32)
        self.exact = (np.array(raw[body + 2 * n : body + 3 * n]) & 1).astype(bool)
        self.stage_len = stage_len
        self.n = n

    def game_ids(self):
        """A game starts where the disc count does not rise (positions come in game order)."""
        starts = np.ones(self.n, dtype=bool)
        if self.n > 1:
            starts[1:] = self.discs[1:] <= self.discs[:-1]
        return np.cumsum(starts) - 1


def read_canonical(path, stage_len):
    data = open(path, "rb").read()
    if data[:8] != b"IAGOCAN1":
        raise SystemExit(f"{path}: not an IAGOCAN1 file (selfplay canonical --out FILE)")
    (length,) = struct.unpack("<I", data[8:12])
    if length != stage_len or len(data) != 12 + 4 * length:
        raise SystemExit(f"{path}: {length} weights a stage, the features have {stage_len}")
    return np.frombuffer(data, dtype="<u4", offset=12).astype(np.int64)


def round_half_away(x):
    """Rust's f32::round (halves away from zero), which iago's weight files use."""
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


def encode_weights(values, stages, stage_len):
    """IAGOPAT2 bytes of `values` (hundredths, all stages; pattern.rs has the format): each
    weight's difference from the stage before as a varint, 0 + count for a run of zeros."""
    w = np.clip(round_half_away(values.astype(np.float64)), -32767, 32767).astype(np.int64)
    w = w.reshape(stages, stage_len)
    diff = np.concatenate([w[:1], w[1:] - w[:-1]]).ravel()
    zero = diff == 0
    # Runs of zero differences: where each starts and how long it is.
    edges = np.diff(np.concatenate([[0], zero.astype(np.int8), [0]]))
    run_starts, run_ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
    nonzero = np.flatnonzero(~zero)
    d = diff[nonzero]
    zigzag = np.where(d > 0, 2 * d, -2 * d - 1)
    # Tokens in file order: each run is a 0 and its length at its start position.
    keys = np.concatenate([2 * nonzero, 2 * run_starts, 2 * run_starts + 1])
    tokens = np.concatenate([zigzag, np.zeros(run_starts.size, np.int64), run_ends - run_starts])
    tokens = tokens[np.argsort(keys, kind="stable")].astype(np.uint64)
    sizes = np.ones(tokens.size, np.int64)
    for bits in (7, 14, 21, 28):
        sizes += tokens >= (1 << bits)
    owner = np.repeat(np.arange(tokens.size), sizes)
    within = np.arange(owner.size) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    body = (tokens[owner] >> (7 * within).astype(np.uint64)) & np.uint64(0x7F)
    body |= np.where(within < sizes[owner] - 1, 0x80, 0).astype(np.uint64)
    return b"IAGOPAT2" + struct.pack("<II", stages, stage_len) + body.astype(np.uint8).tobytes()


def decode_varints(body):
    """The unsigned LEB128 numbers of `body` (bytes), each of at most 32 bits."""
    b = np.frombuffer(body, dtype=np.uint8)
    ends = np.flatnonzero(b < 0x80)
    if b.size and (ends.size == 0 or ends[-1] != b.size - 1):
        raise SystemExit("IAGOPAT2: truncated number")
    starts = np.concatenate([[0], ends[:-1] + 1]).astype(np.int64)
    sizes = ends - starts + 1
    if sizes.size and sizes.max() > 5:
        raise SystemExit("IAGOPAT2: number out of range")
    within = np.arange(b.size) - np.repeat(starts, sizes)
    parts = (b & 0x7F).astype(np.uint64) << (7 * within).astype(np.uint64)
    values = np.add.reduceat(parts, starts) if b.size else np.zeros(0, np.uint64)
    if values.size and values.max() > 0xFFFFFFFF:
        raise SystemExit("IAGOPAT2: number out of range")
    return values.astype(np.int64)


def decode_weights(data):
    """(stages, stage_len, i16 values) of an IAGOPAT2 or IAGOPAT1 file."""
    if data[:8] not in (b"IAGOPAT1", b"IAGOPAT2"):
        raise SystemExit("not an IAGOPAT2 or IAGOPAT1 file")
    stages, stage_len = struct.unpack("<II", data[8:16])
    total = stages * stage_len
    if data[:8] == b"IAGOPAT2":
        tokens = decode_varints(data[16:])
        # Every 0 starts a run and the number after it is the run's length, never 0.
        marker = np.flatnonzero(tokens == 0)
        if marker.size and marker[-1] == tokens.size - 1:
            raise SystemExit("IAGOPAT2: truncated zero run")
        if np.any(tokens[marker + 1] == 0):
            raise SystemExit("IAGOPAT2: an empty run of zeros")
        lengths = np.ones(tokens.size, np.int64)
        lengths[marker] = tokens[marker + 1]
        lengths[marker + 1] = 0
        diff = np.where(tokens % 2 == 0, tokens // 2, -((tokens + 1) // 2))
        diff[marker] = 0
        if lengths.sum() != total:
            raise SystemExit(f"IAGOPAT2: {lengths.sum()} weights, {total} expected")
        w = np.repeat(diff, lengths).reshape(stages, stage_len).cumsum(axis=0)
        if w.min(initial=0) < -32768 or w.max(initial=0) > 32767:
            raise SystemExit("IAGOPAT2: a weight out of range")
        return stages, stage_len, w.ravel().astype(np.int16)
    words = np.frombuffer(data, dtype="<i2", offset=16)
    out = np.zeros(stages * stage_len, dtype=np.int16)
    at, k = 0, 0
    runs = np.flatnonzero(words == ZERO_RUN)
    for r in runs:
        if r < k:
            continue
        out[at : at + r - k] = words[k:r]
        at += r - k
        at += int(np.uint16(words[r + 1]))
        k = r + 2
    out[at : at + words.size - k] = words[k:]
    at += words.size - k
    if at != stages * stage_len:
        raise SystemExit(f"IAGOPAT1: {at} weights, {stages * stage_len} expected")
    return stages, stage_len, out


# ---- Stages --------------------------------------------------------------------------


def stage_of(discs, stages):
    """Stage of a disc count: `stages` equal slices of 4..63 (iago: 15 of 4 discs)."""
    return np.clip((np.maximum(discs, 4) - 4) * stages // 60, 0, stages - 1)


def stage_span(discs, stages, overlap):
    """First and last stage a position trains: those within `overlap` discs of it."""
    return stage_of(discs - overlap, stages), stage_of(discs + overlap, stages)


# ---- The fit -------------------------------------------------------------------------


class Backend:
    """The weights, the data and the Adam steps, in Torch (GPU or CPU) or NumPy: the same
    operations on either, so that the NumPy path checks the Torch one."""

    def __init__(self, size, device, init=None):
        self.torch = torch is not None and device != "numpy"
        if self.torch:
            self.device = torch.device(device)
        w = np.zeros(size, dtype=np.float32) if init is None else init.astype(np.float32)
        self.w = self.array(w)
        self.m = self.zeros()
        self.v = self.zeros()
        self.t = 0

    def array(self, a):
        if self.torch:
            return torch.from_numpy(np.ascontiguousarray(a)).to(self.device)
        return np.array(a)

    def long(self, x):
        return x.long() if self.torch else x.astype(np.int64)

    def zeros(self):
        return torch.zeros_like(self.w) if self.torch else np.zeros_like(self.w)

    def numpy(self, x):
        return x.detach().cpu().numpy() if self.torch else np.asarray(x)

    def unique(self, x):
        if self.torch:
            return torch.unique(x, return_inverse=True)
        return np.unique(x, return_inverse=True)

    def cat(self, parts):
        return torch.cat(parts) if self.torch else np.concatenate(parts)

    def step(self, batches, count, rate, l2, betas=(0.9, 0.999), eps=1e-8):
        """One lazy Adam step (the moments of the weights a batch uses, and only those, are
        updated, as sparse Adam does) on the mean over `count` positions of 0.5 * error^2
        (+ 0.5 * l2 * the squared weights used), over the (flat indices, labels) given."""
        flats, grads = [], []
        for flat, label in batches:
            used = self.w[flat]
            err = used.sum(1) - label
            flats.append(flat.reshape(-1))
            grads.append(((err[:, None] + l2 * used) / count).reshape(-1))
        touched, inverse = self.unique(self.cat(flats))
        grad = torch.zeros(len(touched), device=self.device) if self.torch else np.zeros(len(touched), np.float32)
        if self.torch:
            grad.index_add_(0, inverse.reshape(-1), self.cat(grads))
        else:
            np.add.at(grad, inverse.reshape(-1), self.cat(grads).astype(np.float32))
        self.t += 1
        b1, b2 = betas
        m = self.m[touched] * b1 + (1 - b1) * grad
        v = self.v[touched] * b2 + (1 - b2) * grad * grad
        self.m[touched] = m
        self.v[touched] = v
        self.w[touched] -= (rate / (1 - b1**self.t)) * m / ((v / (1 - b2**self.t)) ** 0.5 + eps)

    def weights(self):
        return self.numpy(self.w).copy()

    def set_weights(self, w):
        self.w[:] = self.array(w)


class Batches:
    """The positions on the fit's device, and their flat weight indices by stage."""

    def __init__(self, backend, data, stages, overlap):
        self.backend = backend
        self.stage_len = data.stage_len
        self.indices = backend.array(data.indices.astype(np.int32))
        self.stage = backend.array(stage_of(data.discs, stages))
        first, last = stage_span(data.discs, stages, overlap)
        self.first, self.last = backend.array(first), backend.array(last)
        self.span = int((last - first).max()) + 1 if data.n else 1
        self.labels = backend.array(data.labels.astype(np.float32))

    def own(self, rows):
        """Flat indices of `rows` (a device array) in their own stage."""
        return self.stage[rows][:, None] * self.stage_len + self.backend.long(self.indices[rows])

    def training(self, rows):
        """(flat indices, labels) of `rows` in each stage they train, one batch a stage offset."""
        idx = self.backend.long(self.indices[rows])
        first, last, labels = self.first[rows], self.last[rows], self.labels[rows]
        out = []
        for j in range(self.span):
            stage = first + j
            keep = stage <= last
            if not bool(keep.any()):
                continue
            out.append((stage[keep][:, None] * self.stage_len + idx[keep], labels[keep]))
        return out


def predictions(batches, rows, weights=None, chunk=1 << 20):
    """Each position's value (discs) by its own stage; with `weights` (hundredths, i16
    values) as iago's evaluator computes it: the integer sum, clamped, over 100."""
    backend = batches.backend
    table = backend.w if weights is None else backend.array(weights.astype(np.float32))
    out = np.empty(len(rows), dtype=np.float64)
    for start in range(0, len(rows), chunk):
        r = backend.array(rows[start : start + chunk])
        total = backend.numpy(table[batches.own(r)].sum(1)).astype(np.float64)
        if weights is not None:
            total = np.clip(np.rint(total), -EVAL_LIMIT, EVAL_LIMIT) / 100
        out[start : start + len(r)] = total
    return out


def rmse(errors):
    return float(np.sqrt(np.mean(errors**2))) if errors.size else float("nan")


def fit(data, args, log_every=True):
    stages, stage_len = args.stages, data.stage_len
    if args.split_records:
        held = (np.arange(data.n) + 1) % args.holdout == 0
    else:
        held = (data.game_ids() + 1) % args.holdout == 0
    train_rows, test_rows = np.flatnonzero(~held), np.flatnonzero(held)
    if getattr(args, "train_games", 0) and not args.split_records:
        # The first N training games alone (a learning curve's point), the same held out.
        ids = data.game_ids()[train_rows]
        distinct = np.unique(ids)
        if args.train_games < distinct.size:
            train_rows = train_rows[ids <= distinct[args.train_games - 1]]
    log(
        f"data: {data.n} positions, {len(train_rows)} training, {len(test_rows)} held out "
        f"({'every %dth position' % args.holdout if args.split_records else 'every %dth game' % args.holdout}); "
        f"{stages} stages, overlap {args.stage_overlap} discs"
    )
    device = args.device
    if device == "auto":
        device = "cuda" if torch is not None and torch.cuda.is_available() else ("cpu" if torch is not None else "numpy")
    init = None
    if args.init:
        file_stages, file_len, values = decode_weights(open(args.init, "rb").read())
        if file_stages != stages or file_len != stage_len:
            raise SystemExit(f"{args.init}: {file_stages} stages of {file_len}, the fit has {stages} of {stage_len}")
        init = values.astype(np.float32) / 100
    backend = Backend(stages * stage_len, device, init)
    log(f"device: {device}" + (f" ({torch.cuda.get_device_name(0)})" if device == "cuda" else ""))
    batches = Batches(backend, data, stages, args.stage_overlap)
    rng = np.random.default_rng(args.seed)
    steps_per_epoch = max(1, math.ceil(len(train_rows) / args.batch))
    epochs = args.epochs
    total_steps = steps_per_epoch * epochs
    best = (float("inf"), backend.weights(), 0)
    probe = train_rows[:: max(1, len(train_rows) // 200000)]
    labels = data.labels.astype(np.float64)
    start = time.time()
    step = 0
    epoch = 0
    while epoch < epochs:
        order = backend.array(rng.permutation(train_rows))
        out_of_time = False
        for b in range(steps_per_epoch):
            rows = order[b * args.batch : (b + 1) * args.batch]
            rate = args.rate * max(0.0, 1 - step / total_steps)
            backend.step(batches.training(rows), len(rows), rate, args.l2)
            step += 1
            # An epoch far slower than planned (a GPU missing, say) stops where it is.
            if args.max_seconds and time.time() - start > 1.5 * args.max_seconds:
                out_of_time = True
                log(f"out of time after {b + 1} of {steps_per_epoch} steps of epoch {epoch + 1}")
                break
        train_rmse = rmse(predictions(batches, probe) - labels[probe])
        test_rmse = rmse(predictions(batches, test_rows) - labels[test_rows])
        epoch += 1
        if log_every:
            log(f"epoch {epoch:2}: rmse train {train_rmse:.3f} held-out {test_rmse:.3f} discs ({time.time() - start:.0f} s)")
        if test_rmse < best[0]:
            best = (test_rmse, backend.weights(), epoch)
        if out_of_time:
            break
        if epoch == 1 and args.max_seconds and epochs * (time.time() - start) > args.max_seconds:
            # The schedule shrinks to the epochs that fit in the time given.
            epochs = max(1, int(args.max_seconds // (time.time() - start)))
            total_steps = steps_per_epoch * epochs
            log(f"{epochs} epochs fit in {args.max_seconds:.0f} s")
    if args.epochs:
        backend.set_weights(best[1])
        log(f"kept epoch {best[2]} (held-out {best[0]:.3f})")
    return batches, train_rows, test_rows, time.time() - start


def report(batches, data, args, train_rows, test_rows):
    """The errors of the fitted weights and of the stored ones, overall and per stage."""
    stages = args.stages
    stored = np.clip(round_half_away(batches.backend.weights().astype(np.float64) * 100), -32767, 32767)
    labels = data.labels.astype(np.float64)
    stage = stage_of(data.discs, stages)
    fitted_train = predictions(batches, train_rows) - labels[train_rows]
    fitted_test = predictions(batches, test_rows) - labels[test_rows]
    stored_test = predictions(batches, test_rows, stored) - labels[test_rows]
    log("stage  discs   train-n  train-rmse  held-n  held-rmse  stored-rmse")
    for s in range(stages):
        low = 4 + (60 * s + stages - 1) // stages
        high = 63 if s + 1 == stages else 4 + (60 * (s + 1) + stages - 1) // stages - 1
        tr, te = stage[train_rows] == s, stage[test_rows] == s
        log(
            f"{s:5}  {low:2}-{high:2}  {int(tr.sum()):8}  {rmse(fitted_train[tr]):10.3f}  {int(te.sum()):6}  "
            f"{rmse(fitted_test[te]):9.3f}  {rmse(stored_test[te]):11.3f}"
        )
    empties = 64 - data.discs[test_rows]
    late = data.exact[test_rows] & (empties >= 13) & (empties <= 20)
    summary = {
        "train": rmse(fitted_train),
        "held_out": rmse(fitted_test),
        "stored_held_out": rmse(stored_test),
        "exact_13_20": rmse(stored_test[late]),
        "exact_13_20_n": int(late.sum()),
    }
    log(
        f"overall: train {summary['train']:.3f} held-out {summary['held_out']:.3f} "
        f"stored {summary['stored_held_out']:.3f} discs; exact positions at 13-20 empties "
        f"(held out, stored weights): {summary['exact_13_20']:.3f} over {summary['exact_13_20_n']}"
    )
    return stored, summary


def write_weights(path, stored, canonical, stages, stage_len):
    """Every index gets its tied index's weight, as iago's own fit writes them."""
    values = stored.reshape(stages, stage_len)[:, canonical].reshape(-1)
    data = encode_weights(values, stages, stage_len)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)
    log(f"wrote {path} ({len(data)} bytes)")


def self_test():
    """Both paths fit the same synthetic set alike, and the weight file round-trips."""
    rng = np.random.default_rng(5)
    # Scattered weights, and a run of zeros longer than one run marker holds.
    values = rng.integers(-300, 300, size=15 * 6000).astype(np.float64)
    values[rng.random(values.size) < 0.7] = 0
    values[1000:71000] = 0
    stages, stage_len, back = decode_weights(encode_weights(values, 15, 6000))
    assert (stages, stage_len) == (15, 6000) and np.array_equal(back, values.astype(np.int16))
    # Stages alike and the extremes of i16 (differences of 65,534 either way).
    alike = np.tile(values[:6000], 60) + np.repeat(np.arange(60), 6000)
    alike[:3] = [32767, -32767, 0]
    alike[6000:6003] = [-32767, 32767, 0]
    data = encode_weights(alike, 60, 6000)
    assert len(data) < 2 * 6000 * 60, "stages alike take about a byte a weight"
    assert np.array_equal(decode_weights(data)[2], alike.astype(np.int16))
    # An IAGOPAT1 file: i16 values, zero runs as -32768 + u16.
    old = b"IAGOPAT1" + struct.pack("<II", 1, 5) + struct.pack("<hhHhh", 7, ZERO_RUN, 2, -3, 300)
    assert decode_weights(old)[2].tolist() == [7, 0, 0, -3, 300]
    assert decode_weights(b"IAGOPAT2" + struct.pack("<II", 1, 5) + bytes([14, 0, 2, 5, 0xD8, 0x04]))[2].tolist() == [
        7, 0, 0, -3, 300]
    assert round_half_away(np.array([0.5, -0.5, 1.5, 2.5])).tolist() == [1, -1, 2, 3]
    shipped = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "crates/core/src/othello/eval/weights/patterns.bin")
    if os.path.exists(shipped):
        data = open(shipped, "rb").read()
        stages, stage_len, values = decode_weights(data)
        assert encode_weights(values.astype(np.float64), stages, stage_len) == data, "patterns.bin re-encodes differently"
        log(f"self-test: {shipped} ({stages} stages of {stage_len}) decodes and re-encodes to the same bytes")

    class Synthetic:
        pass

    data = Synthetic()
    n, stage_len = 20000, 500
    data.n, data.stage_len = n, stage_len
    data.indices = rng.integers(0, stage_len, size=(n, FEATURES)).astype(np.uint32)
    data.discs = np.tile(np.arange(4, 64), n // 60 + 1)[:n].astype(np.int64)
    truth = rng.normal(0, 0.5, size=15 * stage_len)
    stage = stage_of(data.discs, 15)
    data.labels = (truth[stage[:, None] * stage_len + data.indices].sum(1) + rng.normal(0, 1, n)).astype(np.float32)
    data.exact = data.discs >= 44
    data.game_ids = lambda: np.arange(n) // 60
    args = argparse.Namespace(stages=15, split_records=False, holdout=10, stage_overlap=0, device="numpy",
                              init=None, seed=1, batch=1024, epochs=4, rate=0.05, l2=0.0, max_seconds=0)
    results = {}
    torch_device = ("cuda" if torch.cuda.is_available() else "cpu") if torch is not None else None
    for device in ["numpy"] + ([torch_device] if torch_device else []):
        args.device = device
        batches, _, test_rows, _ = fit(data, args, log_every=False)
        results[device] = rmse(predictions(batches, test_rows) - data.labels[test_rows])
    log("self-test held-out rmse:", results)
    spread = float(np.std(data.labels))
    assert all(r < 0.8 * spread for r in results.values()), (results, spread)
    if torch_device:
        assert abs(results["numpy"] - results[torch_device]) < 1e-3, results
    log("self-test passed")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("features", nargs="?")
    parser.add_argument("--canonical", help="IAGOCAN1 file (selfplay canonical --out FILE)")
    parser.add_argument("--out", help="IAGOPAT2 file to write")
    parser.add_argument("--init", help="start from these weights (IAGOPAT2 or IAGOPAT1) instead of zeros")
    parser.add_argument("--stages", type=int, default=15)
    parser.add_argument("--stage-overlap", type=int, default=6)
    parser.add_argument("--holdout", type=int, default=10)
    parser.add_argument("--split-records", action="store_true")
    parser.add_argument("--train-games", type=int, default=0, help="train on the first N training games only")
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--batch", type=int, default=8192)
    parser.add_argument("--rate", type=float, default=0.1, help="Adam's rate at the start, falling to 0")
    parser.add_argument("--l2", type=float, default=0.0005)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-seconds", type=float, default=0, help="fewer epochs if the fit would take longer")
    parser.add_argument("--device", default="auto", help="auto, cuda, cpu (PyTorch) or numpy")
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    if args.self_test:
        self_test()
        return
    if not args.features:
        parser.error("give an IAGOFEA1 file")
    if not 1 <= args.stages <= 60 or args.holdout < 2 or args.batch < 1 or args.epochs < 0:
        parser.error("--stages 1..60, --holdout at least 2, --batch at least 1, --epochs at least 0")
    if args.device in ("cuda", "cpu") and torch is None:
        parser.error(f"--device {args.device} needs PyTorch, which is not installed (--device numpy)")
    data = Features(args.features)
    if data.n == 0:
        sys.exit(f"fit.py: {args.features} holds no positions: nothing to fit")
    canonical = read_canonical(args.canonical, data.stage_len) if args.canonical else None
    if args.out and canonical is None:
        parser.error("--out needs --canonical FILE (selfplay canonical --out FILE)")
    batches, train_rows, test_rows, seconds = fit(data, args)
    stored, summary = report(batches, data, args, train_rows, test_rows)
    log(f"fit: {seconds:.1f} s")
    if args.out:
        write_weights(args.out, stored, canonical, args.stages, data.stage_len)


if __name__ == "__main__":
    sys.exit(main())
