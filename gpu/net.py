#!/usr/bin/env python3
"""Trains iago's evaluation network (crates/core/src/othello/eval/network.rs) on IAGOFEA1 features
(`iago features`), with PyTorch on the GPU when there is one, else on the CPU; NumPy alone
runs the quantised pass, the file format and the self-test's fixture check.

The model, in discs for the side to move, one set of layers after the accumulator per
phase bucket (by disc count, the 60 moves spread evenly):

    acc = b1 + sum of the embedding rows of the 51 tied features   (width W)
    a = clamp(acc, 0, 1);  h = clamp(L2 a + b2, 0, 1)                (H hidden units)
    y = V h + S acc + c

trained on the squared error against the game's result (exact where the game was solved
from there), Adam (sparse for the embedding), the rate falling linearly to zero, the
epoch with the lowest held-out error kept. Held out: every --holdout-th game of the
training file, and the --test file whole (the exact positions at 13-20 empties apart).
The written file (IAGONET1) holds the weights quantised as the engine computes them, and
the error reported for it is the engine's: the integer pass of `quantised_values`.

    python3 gpu/net.py FEATURES --canonical CAN --test TEST.fea --out net.bin [--width 32]
    python3 gpu/net.py FEATURES --canonical CAN --test TEST.fea --curve 12500,25000,50000
    python3 gpu/net.py --self-test
"""

import argparse
import json
import math
import os
import struct
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fit import Features, decode_weights, read_canonical, stage_of  # noqa: E402

try:
    import torch
except ImportError:
    torch = None

QA, QW, QO = 255, 64, 256  # network.rs: the accumulator's, the hidden weights', the output's
EVAL_LIMIT = 6399
MAGIC = b"IAGONET1"
# The model predicts the label over this, so that Adam's steps suit the output layer too.
OUTPUT_SCALE = 16.0
# Embedding and bias bounds (float) that keep the int16 accumulator from overflowing.
EMBED_BOUND, BIAS_BOUND = 2.4, 1.0
GOLDEN = 0x9E3779B97F4A7C15
FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "crates/core/src/othello/eval/network_fixture.txt")


def log(*parts):
    print(*parts, flush=True)


# ---- The tied rows, the file ---------------------------------------------------------


def tied_rows(canonical):
    """For each tied index, its embedding row (the tied indices in increasing order)."""
    own = np.flatnonzero(canonical == np.arange(canonical.size))
    row_of = np.full(canonical.size, -1, np.int64)
    row_of[own] = np.arange(own.size)
    return row_of, own.size


class Net:
    """Quantised weights as the file holds them (int64 arrays)."""

    def __init__(self, stage_len, rows, width, hidden, buckets, embedding, bias, l2, b2, out, skip, c):
        self.stage_len, self.rows, self.width, self.hidden, self.buckets = stage_len, rows, width, hidden, buckets
        self.embedding, self.bias = embedding.reshape(rows, width), bias
        self.l2, self.b2 = l2.reshape(buckets, hidden, width), b2.reshape(buckets, hidden)
        self.out, self.skip, self.c = out.reshape(buckets, hidden), skip.reshape(buckets, width), c.reshape(buckets)

    def encode(self):
        head = MAGIC + struct.pack("<5I", self.stage_len, self.rows, self.width, self.hidden, self.buckets)
        parts = [head, self.embedding.astype("<i2").tobytes(), self.bias.astype("<i2").tobytes()]
        for b in range(self.buckets):
            parts += [self.l2[b].astype("<i2").tobytes(), self.b2[b].astype("<i4").tobytes(),
                      self.out[b].astype("<i4").tobytes(), self.skip[b].astype("<i4").tobytes(),
                      np.array([self.c[b]]).astype("<i4").tobytes()]
        return b"".join(parts)

    @staticmethod
    def decode(data):
        if data[:8] != MAGIC:
            raise SystemExit("not an IAGONET1 file")
        stage_len, rows, width, hidden, buckets = struct.unpack("<5I", data[8:28])
        at = [28]

        def take(n, dtype):
            size = np.dtype(dtype).itemsize * n
            chunk = np.frombuffer(data, dtype=dtype, count=n, offset=at[0]).astype(np.int64)
            at[0] += size
            return chunk

        embedding, bias = take(rows * width, "<i2"), take(width, "<i2")
        l2, b2, out, skip, c = [], [], [], [], []
        for _ in range(buckets):
            l2.append(take(hidden * width, "<i2"))
            b2.append(take(hidden, "<i4"))
            out.append(take(hidden, "<i4"))
            skip.append(take(width, "<i4"))
            c.append(take(1, "<i4"))
        if at[0] != len(data):
            raise SystemExit(f"IAGONET1: {len(data) - at[0]} bytes left over")
        cat = np.concatenate
        return Net(stage_len, rows, width, hidden, buckets, embedding, bias, cat(l2), cat(b2), cat(out), cat(skip), cat(c))


def mix64(x):
    """SplitMix64's finaliser on uint64 arrays (game.rs's mix64)."""
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


def seeded_net(seed, stage_len, rows, width, hidden, buckets):
    """The seeded network of network_tests.rs: the k-th parameter in file order is
    mix64(seed + k * golden) mod (2m + 1) - m, m the bound of its kind."""
    bounds = [40, 100, 40, 5000, 3000, 20, 50000]
    sizes = [(rows * width, bounds[0]), (width, bounds[1])]
    for _ in range(buckets):
        sizes += [(hidden * width, bounds[2]), (hidden, bounds[3]), (hidden, bounds[4]), (width, bounds[5]), (1, bounds[6])]
    total = sum(n for n, _ in sizes)
    with np.errstate(over="ignore"):
        k = np.arange(total, dtype=np.uint64)
        x = mix64(np.uint64(seed) + k * np.uint64(GOLDEN))
    values, at = [], 0
    for n, m in sizes:
        values.append((x[at : at + n] % np.uint64(2 * m + 1)).astype(np.int64) - m)
        at += n
    emb, bias = values[0], values[1]
    per = [values[2 + 5 * b : 7 + 5 * b] for b in range(buckets)]
    cat = lambda j: np.concatenate([p[j] for p in per])  # noqa: E731
    return Net(stage_len, rows, width, hidden, buckets, emb, bias, cat(0), cat(1), cat(2), cat(3), cat(4))


# ---- The passes ----------------------------------------------------------------------


def quantised_values(net, rows, discs, chunk=8192):
    """The engine's integer pass: hundredths of a disc, unclamped (network.rs forward)."""
    out = np.empty(len(rows), np.int64)
    bucket_all = stage_of(discs, net.buckets)
    for s in range(0, len(rows), chunk):
        r, bucket = rows[s : s + chunk], bucket_all[s : s + chunk]
        acc = net.bias + net.embedding[r].sum(1)
        # Wrapping as i16 (a file within its bounds never wraps).
        acc = ((acc + 32768) & 0xFFFF) - 32768
        a = np.clip(acc, 0, QA)
        pre = np.einsum("nhw,nw->nh", net.l2[bucket], a) + net.b2[bucket]
        h = np.clip(pre >> 6, 0, QA)
        total = net.c[bucket] + (h * net.out[bucket]).sum(1) + (acc * net.skip[bucket]).sum(1)
        out[s : s + chunk] = (total * 100) // (QA * QO)
    return out


def float_values(net, rows, discs):
    """The float pass over the dequantised weights, in hundredths (network_tests.rs)."""
    bucket = stage_of(discs, net.buckets)
    acc = (net.bias + net.embedding[rows].sum(1)) / QA
    a = np.clip(acc, 0, 1)
    pre = np.einsum("nhw,nw->nh", net.l2[bucket] / QW, a) + net.b2[bucket] / (QA * QW)
    h = np.clip(pre, 0, 1)
    y = net.c[bucket] / (QA * QO) + (h * net.out[bucket] / QO).sum(1) + (acc * net.skip[bucket] / QO).sum(1)
    return y * 100


def engine_errors(values, labels):
    """The engine's view: clamped hundredths, in discs, against the labels."""
    return np.clip(values, -EVAL_LIMIT, EVAL_LIMIT) / 100 - labels


def rmse(errors):
    return float(np.sqrt(np.mean(np.square(errors)))) if errors.size else float("nan")


# ---- The model in PyTorch ------------------------------------------------------------


def make_model(rows, width, hidden, buckets, seed):
    torch.manual_seed(seed)
    nn = torch.nn

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            # The embedding is no parameter of the module: LazyAdam updates the rows a
            # batch uses, and only those (PyTorch's SparseAdam takes ten times as long).
            self.register_buffer("embedding", torch.randn(rows, width) * 0.02)
            self.bias = nn.Parameter(torch.full((width,), 0.5))
            self.l2 = nn.Parameter(torch.randn(buckets, hidden, width) * (1.0 / math.sqrt(width)))
            self.b2 = nn.Parameter(torch.zeros(buckets, hidden))
            self.out = nn.Parameter(torch.randn(buckets, hidden) * 0.1)
            self.skip = nn.Parameter(torch.zeros(buckets, width))
            self.c = nn.Parameter(torch.zeros(buckets))

        def forward(self, rows, bucket, used=None):
            """`used`: the rows' embedding as a leaf tensor (training), with `rows` then
            indices into it."""
            table = self.embedding if used is None else used
            acc = self.bias + table[rows].sum(1)
            a = acc.clamp(0, 1)
            h = (torch.einsum("nhw,nw->nh", self.l2[bucket], a) + self.b2[bucket]).clamp(0, 1)
            return (h * self.out[bucket]).sum(1) + (acc * self.skip[bucket]).sum(1) + self.c[bucket]

        def clamp_(self):
            with torch.no_grad():
                self.bias.clamp_(-BIAS_BOUND, BIAS_BOUND)
                self.l2.clamp_(-8, 8)

    return Model()


class LazyAdam:
    """Adam on the embedding rows a batch uses (their moments only, as fit.py's fit)."""

    def __init__(self, table, betas=(0.9, 0.999), eps=1e-8):
        self.table, self.betas, self.eps, self.t = table, betas, eps, 0
        self.m, self.v = torch.zeros_like(table), torch.zeros_like(table)

    def gather(self, rows):
        """The rows a batch uses as a leaf tensor, and the batch's indices into it."""
        touched, inverse = torch.unique(rows, return_inverse=True)
        used = self.table[touched].clone().requires_grad_(True)
        return touched, used, inverse

    def step(self, touched, grad, rate):
        self.t += 1
        b1, b2 = self.betas
        m = self.m[touched] * b1 + (1 - b1) * grad
        v = self.v[touched] * b2 + (1 - b2) * grad * grad
        self.m[touched], self.v[touched] = m, v
        step = (rate / (1 - b1**self.t)) * m / ((v / (1 - b2**self.t)).sqrt() + self.eps)
        self.table[touched] = (self.table[touched] - step).clamp(-EMBED_BOUND, EMBED_BOUND)


def quantise(model, stage_len, rows, buckets):
    """The model's weights as the file holds them (the output layer scaled to discs)."""
    get = lambda p: p.detach().cpu().double().numpy()  # noqa: E731
    r = lambda x, lo, hi: np.clip(np.rint(x), lo, hi).astype(np.int64)  # noqa: E731
    i16, i32 = (-32767, 32767), (-(2**31) + 1, 2**31 - 1)
    width = model.bias.shape[0]
    hidden = model.l2.shape[1]
    return Net(
        stage_len, rows, width, hidden, buckets,
        r(get(model.embedding) * QA, *i16), r(get(model.bias) * QA, *i16),
        r(get(model.l2) * QW, *i16), r(get(model.b2) * QA * QW, *i32),
        r(get(model.out) * OUTPUT_SCALE * QO, *i32), r(get(model.skip) * OUTPUT_SCALE * QO, *i32),
        r(get(model.c) * OUTPUT_SCALE * QA * QO, *i32),
    )


class Corpus:
    """The positions of one or more IAGOFEA1 files: embedding rows of the 51 features
    (int32), disc counts, labels, exact flags and game numbers, game after game."""

    def __init__(self, paths, row_of):
        files = [Features(p) for p in paths]
        n = sum(f.n for f in files)
        row_of = row_of.astype(np.int32)
        self.rows = np.empty((n, 51), np.int32)
        self.discs, self.labels = np.empty(n, np.int64), np.empty(n, np.float64)
        self.exact, self.games = np.empty(n, bool), np.empty(n, np.int64)
        at, first_game = 0, 0
        for f in files:
            for s in range(0, f.n, 1 << 20):
                chunk = row_of[f.indices[s : s + (1 << 20)]]
                if (chunk < 0).any():
                    raise SystemExit("a feature index is not tied: the features and the canonical table differ")
                self.rows[at + s : at + s + len(chunk)] = chunk
            part = slice(at, at + f.n)
            self.discs[part], self.labels[part], self.exact[part] = f.discs, f.labels, f.exact
            ids = f.game_ids() + first_game
            self.games[part] = ids
            first_game = int(ids[-1]) + 1 if f.n else first_game
            at += f.n
        self.n = n


class Data:
    """Some positions of a corpus, copied out (for held-out sets and small fits)."""

    def __init__(self, corpus, keep):
        self.rows, self.discs = corpus.rows[keep], corpus.discs[keep]
        self.labels, self.exact = corpus.labels[keep], corpus.exact[keep]
        self.n = len(keep)


def evenly(keep, most):
    """At most `most` of `keep`, evenly spaced."""
    return keep if len(keep) <= most else keep[np.linspace(0, len(keep) - 1, most).astype(np.int64)]


def train(corpus, keep, held, args, rows, stage_len, log_every=True):
    """Fits a model on the positions `keep` of `corpus`, keeping the epoch with the lowest
    error (the engine's integer pass) on `held`."""
    device = args.device
    if device == "auto":
        device = "cuda" if torch.cuda.is_available() else "cpu"
    device = torch.device(device)
    model = make_model(rows, args.width, args.hidden, args.buckets, args.seed).to(device)
    lazy = LazyAdam(model.embedding)
    adam = torch.optim.Adam(model.parameters(), lr=args.rate * args.dense_rate)
    t_rows = torch.from_numpy(corpus.rows).to(device)
    t_bucket = torch.from_numpy(stage_of(corpus.discs, args.buckets)).to(device)
    t_labels = torch.from_numpy((corpus.labels / OUTPUT_SCALE).astype(np.float32)).to(device)
    t_keep = torch.from_numpy(np.asarray(keep, np.int64)).to(device)
    n = len(keep)
    steps = max(1, math.ceil(n / args.batch))
    epochs, total = args.epochs, steps * args.epochs
    generator = torch.Generator(device="cpu").manual_seed(args.seed)
    best = (float("inf"), None, 0)
    start, step = time.time(), 0
    epoch = 0
    while epoch < epochs:
        order = t_keep[torch.randperm(n, generator=generator).to(device)]
        for b in range(steps):
            batch = order[b * args.batch : (b + 1) * args.batch]
            scale = max(0.0, 1 - step / total)
            for group in adam.param_groups:
                group["lr"] = args.rate * args.dense_rate * scale
            touched, used, inverse = lazy.gather(t_rows[batch].long())
            pred = model(inverse, t_bucket[batch], used)
            loss = torch.mean((pred - t_labels[batch]) ** 2)
            adam.zero_grad()
            loss.backward()
            with torch.no_grad():
                lazy.step(touched, used.grad, args.rate * scale)
            adam.step()
            model.clamp_()
            step += 1
            if args.max_seconds and time.time() - start > 1.5 * args.max_seconds:
                log(f"out of time in epoch {epoch + 1}")
                epochs = epoch + 1
                break
        net = quantise(model, stage_len, rows, args.buckets)
        held_rmse = rmse(engine_errors(quantised_values(net, held.rows, held.discs), held.labels))
        epoch += 1
        if log_every:
            log(f"epoch {epoch:2}: held-out {held_rmse:.3f} discs (the engine's integer pass; {time.time() - start:.0f} s)")
        if held_rmse < best[0]:
            best = (held_rmse, net, epoch)
        if epoch == 1 and args.max_seconds and epochs * (time.time() - start) > args.max_seconds:
            epochs = max(1, int(args.max_seconds // (time.time() - start)))
            total = steps * epochs
            log(f"{epochs} epochs fit in {args.max_seconds:.0f} s")
    seconds = time.time() - start
    log(f"kept epoch {best[2]} (held-out {best[0]:.3f}); {n} positions, {seconds:.0f} s, "
        f"{n * epoch / max(1e-9, seconds):.0f} positions/s")
    return best[1], seconds


def pattern_values(path, paths, keep):
    """An IAGOPAT2 file's evaluation of the positions `keep` (numbered across `paths`, as
    in a Corpus), in hundredths: the weights are tied, so a tied index reads its own."""
    stages, stage_len, w = decode_weights(open(path, "rb").read())
    w = w.astype(np.int64).reshape(stages, stage_len)
    out = np.empty(len(keep), np.int64)
    first = 0
    for p in paths:
        f = Features(p)
        at = np.flatnonzero((keep >= first) & (keep < first + f.n))
        for s in range(0, len(at), 1 << 18):
            k = keep[at[s : s + (1 << 18)]] - first
            out[at[s : s + len(k)]] = w[stage_of(f.discs[k], stages)[:, None], f.indices[k]].sum(1)
        first += f.n
    return out


def report(name, values, data):
    """The errors of an evaluation's values (hundredths) on a set, overall and exact 13-20."""
    err = engine_errors(values, data.labels)
    empties = 64 - data.discs
    late = data.exact & (empties >= 13) & (empties <= 20)
    result = {"rmse": rmse(err), "exact_13_20": rmse(err[late]), "n": int(data.n), "exact_n": int(late.sum())}
    log(f"{name}: rmse {result['rmse']:.3f} discs over {data.n}; exact at 13-20 empties {result['exact_13_20']:.3f} over {result['exact_n']}")
    return result


# ---- Self-test -----------------------------------------------------------------------


def read_fixture(path):
    """The fixture's network (seed, width, hidden, buckets), its row count, the rows of
    the tied indices it uses, and its positions."""
    lines = open(path).read().splitlines()
    rows = int(next(l for l in lines if l.startswith("# rows ")).split()[2])
    pairs = next(l for l in lines if l.startswith("# rows of the indices:")).split(":", 1)[1].split()
    row_of = dict(tuple(int(x) for x in p.split(":")) for p in pairs)
    lines = [l for l in lines if l and not l.startswith("#")]
    shape = tuple(int(w) for w in lines[0].split() if w.isdigit())
    entries = []
    for line in lines[1:]:
        position, indices, quantised, floating = line.split("|")
        entries.append((position, [int(x) for x in indices.split()], int(quantised), float(floating)))
    return shape, rows, row_of, entries


def fixture_lines(canonical, features, positions, seed=7, width=16, hidden=8, buckets=4, every=3):
    """The fixture of network_tests.rs: the seeded network's values on these positions."""
    row_of, rows = tied_rows(canonical)
    net = seeded_net(seed, canonical.size, rows, width, hidden, buckets)
    keep = np.arange(0, features.n, every)
    r = row_of[features.indices[keep]]
    q = quantised_values(net, r, features.discs[keep])
    f = float_values(net, r, features.discs[keep])
    used = sorted({int(i) for i in features.indices[keep].ravel()})
    out = ["# The seeded network of network_tests.rs and its values by gpu/net.py, written by",
           "# `python3 gpu/net.py --write-fixture FEATURES POSITIONS --canonical CAN` from",
           "# `iago features data/test/d6e20-s99.gam --games 3 --all --out F --positions P --canonical C`:",
           "# position | tied feature indices | quantised value (hundredths, unclamped) | float value",
           f"# rows {rows}",
           "# rows of the indices: " + " ".join(f"{i}:{row_of[i]}" for i in used),
           f"seed {seed} width {width} hidden {hidden} buckets {buckets}"]
    for j, k in enumerate(keep):
        idx = " ".join(str(int(x)) for x in features.indices[k])
        out.append(f"{positions[k]}|{idx}|{int(q[j])}|{f[j]:.9f}")
    return out


def self_test():
    self_test_fixture()
    self_test_format()
    if torch is not None:
        self_test_training()
    else:
        log("self-test: PyTorch is not installed: the training step is not tested")
    log("self-test passed")


def self_test_fixture():
    """The engine's test compares its values with the fixture's; here they are computed
    again from the fixture's features by this script's passes."""
    (seed, width, hidden, buckets), rows, row_of, entries = read_fixture(FIXTURE)
    net = seeded_net(seed, 0, rows, width, hidden, buckets)
    r = np.array([[row_of[i] for i in e[1]] for e in entries])
    discs = np.array([sum(c in "XO" for c in e[0].split()[0]) for e in entries])
    q = quantised_values(net, r, discs)
    f = float_values(net, r, discs)
    assert [int(x) for x in q] == [e[2] for e in entries], "the quantised pass differs from the fixture"
    assert np.allclose(f, [e[3] for e in entries], atol=1e-6), "the float pass differs from the fixture"
    log(f"self-test: the fixture's {len(entries)} quantised and float values computed again, equal")


def self_test_format():
    rng = np.random.default_rng(3)
    net = seeded_net(11, 100, 40, 16, 4, 3)
    back = Net.decode(net.encode())
    for name in ("embedding", "bias", "l2", "b2", "out", "skip", "c"):
        assert np.array_equal(getattr(net, name), getattr(back, name)), name
    rows = rng.integers(0, 40, size=(500, 51))
    discs = rng.integers(4, 64, size=500)
    q, f = quantised_values(net, rows, discs), float_values(net, rows, discs)
    tolerance = (np.abs(net.out).sum(1).max() / QO / QA * 100) + 1
    assert np.all(np.abs(q - f) <= tolerance), "the quantised pass strays from the float pass"
    log("self-test: IAGONET1 round-trips; quantised within its rounding of the float pass")


def self_test_training():
    """A synthetic set with a nonlinear target: the model learns it, and its file's values
    (the engine's integer pass) follow the PyTorch model's."""
    rng = np.random.default_rng(5)
    n, rows = 20000, 300
    indices = rng.integers(0, rows, size=(n, 51))
    discs = rng.integers(4, 64, size=n)
    table = rng.normal(0, 0.4, size=rows)
    linear = table[indices].sum(1)
    labels = np.clip(3 * linear + 0.3 * np.abs(linear) ** 1.5 * np.sign(linear) + rng.normal(0, 1, n), -64, 64)

    class Set:
        pass

    corpus = Set()
    corpus.rows, corpus.discs, corpus.labels = indices.astype(np.int32), discs, labels
    corpus.exact, corpus.n = np.zeros(n, bool), n
    held = Data(corpus, np.arange(18000, n))
    args = argparse.Namespace(device="cpu", width=16, hidden=8, buckets=2, seed=1, rate=0.01, dense_rate=1.0,
                              batch=512, epochs=6, max_seconds=0)
    net, _ = train(corpus, np.arange(18000), held, args, rows, rows, log_every=False)
    error = rmse(engine_errors(quantised_values(net, held.rows, held.discs), held.labels))
    spread = float(np.std(held.labels))
    log(f"self-test: synthetic held-out rmse {error:.3f} against a spread of {spread:.3f}")
    assert error < 0.5 * spread, (error, spread)


# ---- Main ----------------------------------------------------------------------------


def write_file(path, data):
    tmp = f"{path}.tmp-{os.getpid()}"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("features", nargs="*", help="IAGOFEA1 files (`iago features`)")
    parser.add_argument("--canonical", help="IAGOCAN1 file (`iago features --canonical FILE`)")
    parser.add_argument("--test", help="IAGOFEA1 file held out whole (data/test)")
    parser.add_argument("--out", help="IAGONET1 file to write")
    parser.add_argument("--width", type=int, default=32)
    parser.add_argument("--hidden", type=int, default=16)
    parser.add_argument("--buckets", type=int, default=15)
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--batch", type=int, default=4096)
    parser.add_argument("--rate", type=float, default=0.003, help="the embedding's Adam rate, falling to 0")
    parser.add_argument("--dense-rate", type=float, default=1.0, help="the other layers' rate, times --rate")
    parser.add_argument("--holdout", type=int, default=10)
    parser.add_argument("--held-sample", type=int, default=200000, help="held-out positions that choose the epoch")
    parser.add_argument("--held-max", type=int, default=2000000, help="held-out positions reported at the end")
    parser.add_argument("--games", type=int, default=0, help="train on the first N training games only")
    parser.add_argument("--curve", help="comma-separated game counts: one fit each, the same held-out sets")
    parser.add_argument("--pattern", action="append", default=[], help="IAGOPAT2 weights to report beside")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=0, help="PyTorch CPU threads (0: its default)")
    parser.add_argument("--max-seconds", type=float, default=0,
                        help="the fits' time in all (a curve's shared by their positions; 0: no limit)")
    parser.add_argument("--device", default="auto", help="auto, cuda or cpu")
    parser.add_argument("--json", help="write the figures as JSON here")
    parser.add_argument("--self-test", action="store_true")
    parser.add_argument("--write-fixture", nargs=2, metavar=("FEATURES", "POSITIONS"))
    parser.add_argument("--seeded-net", metavar="FILE", help="write the seeded network of this shape (cost tests)")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    if not args.canonical:
        parser.error("--canonical FILE is required")
    raw = open(args.canonical, "rb").read()
    (length,) = struct.unpack("<I", raw[8:12])
    canonical = read_canonical(args.canonical, length)
    if args.seeded_net:
        row_of, rows = tied_rows(canonical)
        net = seeded_net(args.seed, canonical.size, rows, args.width, args.hidden, args.buckets)
        write_file(args.seeded_net, net.encode())
        log(f"wrote {args.seeded_net}: the seeded network of width {args.width}, hidden {args.hidden}, {args.buckets} buckets")
        return
    if args.write_fixture:
        features = Features(args.write_fixture[0])
        positions = open(args.write_fixture[1]).read().splitlines()
        print("\n".join(fixture_lines(canonical, features, positions)))
        return
    if not args.features:
        parser.error("give an IAGOFEA1 file")
    if torch is None:
        sys.exit("net.py: training needs PyTorch (pip install torch)")
    if args.threads:
        torch.set_num_threads(args.threads)
    if args.width % 16 or not 16 <= args.width <= 512 or not 1 <= args.hidden <= 64 or not 1 <= args.buckets <= 60:
        parser.error("--width a multiple of 16 up to 512, --hidden 1..64, --buckets 1..60")
    paths = args.features
    for path in paths + ([args.test] if args.test else []):
        if Features(path).stage_len != canonical.size:
            raise SystemExit(f"{path}: another feature layout than the canonical table's ({canonical.size})")
    row_of, rows = tied_rows(canonical)
    corpus = Corpus(paths, row_of)
    held_all = np.flatnonzero((corpus.games + 1) % args.holdout == 0)
    train_keep = np.flatnonzero((corpus.games + 1) % args.holdout != 0)
    held_keep = evenly(held_all, args.held_max)
    held, held_epoch = Data(corpus, held_keep), Data(corpus, evenly(held_all, args.held_sample))
    test = None
    if args.test:
        test_corpus = Corpus([args.test], row_of)
        test = Data(test_corpus, np.arange(test_corpus.n))
    figures = {"width": args.width, "hidden": args.hidden, "buckets": args.buckets, "fits": []}
    for path in args.pattern:
        figures.setdefault("pattern", {})[path] = {
            "held_out": report(f"pattern {path}, held out", pattern_values(path, paths, held_keep), held),
            "test": report(f"pattern {path}, test", pattern_values(path, [args.test], np.arange(test.n)), test)
            if test else None,
        }
    counts = [int(c) for c in args.curve.split(",")] if args.curve else [args.games]
    device = args.device if args.device != "auto" else ("cuda" if torch.cuda.is_available() else "cpu")
    log(f"device: {device}; {corpus.n} positions, {len(train_keep)} training, {len(held_all)} held out "
        f"(every {args.holdout}th game; {held.n} of them reported, {held_epoch.n} choose the epoch)"
        + (f"; test {test.n}" if test else ""))
    distinct = np.unique(corpus.games[train_keep])
    keeps = []
    for games in counts:
        keep = train_keep
        if games and games < distinct.size:
            keep = train_keep[corpus.games[train_keep] <= distinct[games - 1]]
        keeps.append(keep)
    # --max-seconds is the whole curve's: each fit's share is its share of the positions,
    # so that a small fit does not take the time a large one needs.
    total_positions = sum(len(keep) for keep in keeps)
    budget = args.max_seconds
    net = None
    for keep in keeps:
        games_used = int(np.unique(corpus.games[keep]).size)
        log(f"fit: width {args.width}, hidden {args.hidden}, buckets {args.buckets}, {games_used} games, {len(keep)} positions")
        args.max_seconds = budget * len(keep) / max(1, total_positions)
        net, seconds = train(corpus, keep, held_epoch, args, rows, canonical.size)
        fit = {"games": games_used, "positions": int(len(keep)), "seconds": round(seconds, 1),
               "held_out": report("network, held out", quantised_values(net, held.rows, held.discs), held)}
        if test:
            fit["test"] = report("network, test", quantised_values(net, test.rows, test.discs), test)
        figures["fits"].append(fit)
    if args.out and net is not None:
        write_file(args.out, net.encode())
        log(f"wrote {args.out} ({os.path.getsize(args.out)} bytes)")
    if args.json:
        write_file(args.json, json.dumps(figures, indent=1).encode())


if __name__ == "__main__":
    sys.exit(main())
