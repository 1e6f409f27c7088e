#!/usr/bin/python3
"""WordVeil's Hamming search beside FAISS, on the same codes, in one run.

Usage (from the repository root; Debian's python3-faiss and python3-numpy):
    apt-get install python3-faiss python3-numpy
    /usr/bin/python3 bench/faiss_compare.py [--sizes 50000,200000] [--codes FILE]

For each database size it writes a database and query files (32-byte codes,
the layout both libraries use), runs `go test -bench BenchmarkExternal` on
them, then times FAISS IndexBinaryFlat (exact) and IndexBinaryMultiHash
(16 tables of 16 bits; FAISS probes a FIXED flip radius, so it is not exact:
its recall against the exact answer is printed beside it). Everything is
single-threaded with one query per call, as on a phone.

Debian's FAISS 1.7.3 is built without the popcnt instruction, so its flat
scan is ~7x slower than an AVX2 build; docs/BENCHMARKS.md compares against
the AVX2 figure measured separately on the development machine (61 us per 1-NN at N = 50k) too.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

import faiss
import numpy as np

BYTES = 32


def random_codes(rng, n):
    return rng.integers(0, 256, size=(n, BYTES), dtype=np.uint8)


def flip(rng, codes, nbits):
    """Flip nbits distinct random bits of each code."""
    out = codes.copy()
    for row in out:
        for b in rng.choice(256, size=nbits, replace=False):
            row[b // 8] ^= np.uint8(1 << (b % 8))
    return out


def clustered_codes(rng, n):
    """Groups of ~50 codes within 40 bits of a centre, 10% exact duplicates
    (the shape hamming/bench_test.go uses)."""
    centres = random_codes(rng, max(1, n // 50))
    pick = centres[rng.integers(0, len(centres), size=n)]
    out = pick.copy()
    # flip a random number (0..39) of random bits per code; 10% untouched
    nflips = rng.integers(0, 40, size=n)
    nflips[rng.random(n) < 0.1] = 0
    bits = np.unpackbits(out, axis=1, bitorder="little")
    for i in range(n):
        if nflips[i]:
            idx = rng.choice(256, size=nflips[i], replace=False)
            bits[i, idx] ^= 1
    return np.packbits(bits, axis=1, bitorder="little")


def go_bench(db_path, q_path, op, benchtime):
    env = dict(os.environ, WV_BENCH_DB=db_path, WV_BENCH_QUERIES=q_path, WV_BENCH_OP=op)
    out = subprocess.run(
        ["go", "test", "./internal/hamming/", "-run", "^$", "-bench", "BenchmarkExternal",
         "-benchtime", benchtime, "-count", "1"],
        env=env, capture_output=True, text=True, check=True).stdout
    res = {}
    for m in re.finditer(r"BenchmarkExternal/(\w+)-\d+\s+\d+\s+([\d.]+) ns/op", out):
        res[m.group(1)] = float(m.group(2)) / 1e3
    kernel = subprocess.run(["go", "run", "./internal/tools/kernelname"], capture_output=True, text=True).stdout.strip()
    return res, kernel


def faiss_time(index, queries, k=1, reps=1):
    """Mean microseconds per single-query search, and the results."""
    ids = np.empty(len(queries), dtype=np.int64)
    dists = np.empty(len(queries), dtype=np.int64)
    start = time.perf_counter()
    for _ in range(reps):
        for i in range(len(queries)):
            d, I = index.search(queries[i:i + 1], k)
            ids[i], dists[i] = I[0, 0], d[0, 0]
    el = (time.perf_counter() - start) / (reps * len(queries)) * 1e6
    return el, ids, dists


def faiss_range_time(index, queries, r):
    start = time.perf_counter()
    for i in range(len(queries)):
        index.range_search(queries[i:i + 1], r + 1)  # FAISS keeps d < radius
    return (time.perf_counter() - start) / len(queries) * 1e6


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="50000,200000")
    ap.add_argument("--data", default="clustered", choices=["clustered", "random"])
    ap.add_argument("--codes", help="raw 32-byte codes to use as the database instead (e.g. an asset's codes)")
    ap.add_argument("--queries", type=int, default=300)
    ap.add_argument("--benchtime", default="2s")
    args = ap.parse_args()
    faiss.omp_set_num_threads(1)
    rng = np.random.default_rng(2026)
    tmp = tempfile.mkdtemp(prefix="wv-faiss-")
    rows = []
    for n in [int(s) for s in args.sizes.split(",")]:
        if args.codes:
            db = np.fromfile(args.codes, dtype=np.uint8).reshape(-1, BYTES)[:n]
            n = len(db)
            label = os.path.basename(args.codes)
        else:
            db = clustered_codes(rng, n) if args.data == "clustered" else random_codes(rng, n)
            label = args.data
        db_path = os.path.join(tmp, f"db{n}.bin")
        db.tofile(db_path)
        flat = faiss.IndexBinaryFlat(256)
        flat.add(db)
        mh = faiss.IndexBinaryMultiHash(256, 16, 16)
        mh.add(db)
        for flips in (5, 40, 80):
            q = flip(rng, db[rng.integers(0, n, size=args.queries)], flips)
            q_path = os.path.join(tmp, f"q{n}_{flips}.bin")
            q.tofile(q_path)
            ours, kernel = go_bench(db_path, q_path, "knn1", args.benchtime)
            t_flat, _, d_exact = faiss_time(flat, q)
            row = dict(n=n, data=label, op=f"1-NN, {flips} bits flipped", kernel=kernel,
                       scan=ours.get("scan"), mih=ours.get("mih"), planner=ours.get("planner"),
                       faiss_flat=t_flat)
            for nflip in (1, 2):
                mh.nflip = nflip
                t_mh, _, d_mh = faiss_time(mh, q)
                recall = float(np.mean(d_mh == d_exact))
                row[f"faiss_mh{nflip}"] = (t_mh, recall)
            rows.append(row)
        for r in (0, 8, 16, 32, 48):
            q = db[rng.integers(0, n, size=args.queries)]
            q_path = os.path.join(tmp, f"qr{n}.bin")
            q.tofile(q_path)
            ours, kernel = go_bench(db_path, q_path, f"range:{r}", args.benchtime)
            t_flat = faiss_range_time(flat, q, r)
            rows.append(dict(n=n, data=label, op=f"range r={r}", kernel=kernel, scan=ours.get("scan"),
                             mih=ours.get("mih"), planner=ours.get("planner"), faiss_flat=t_flat))
    print(f"# WordVeil vs FAISS {faiss.__version__} (Debian build), one thread, one query per call, microseconds per query")
    print("| N | data | query | WordVeil scan | WordVeil MIH | WordVeil planner | FAISS Flat | FAISS MultiHash nflip=1 (recall) | nflip=2 (recall) | Flat / our scan |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        mh1 = r.get("faiss_mh1")
        mh2 = r.get("faiss_mh2")
        fmt = lambda v: "—" if v is None else f"{v:.1f}"
        fmh = lambda v: "—" if v is None else f"{v[0]:.1f} ({v[1]:.2f})"
        ratio = r["faiss_flat"] / r["scan"] if r.get("scan") else float("nan")
        print(f"| {r['n']} | {r['data']} | {r['op']} | {fmt(r['scan'])} | {fmt(r['mih'])} | {fmt(r['planner'])} | "
              f"{fmt(r['faiss_flat'])} | {fmh(mh1)} | {fmh(mh2)} | {ratio:.1f}x |")
    print(f"\nGo kernel: {rows[0]['kernel'] if rows else '?'}; data files in {tmp}")


if __name__ == "__main__":
    sys.exit(main())
