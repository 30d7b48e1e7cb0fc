#!/usr/bin/env python3
"""Fits a skeleton's compute parameters from a recorded trace's TI conversion (`augur convert`).

Per rank: setup = the compute before its first `--loop-start` record; an iteration's compute =
the compute between two consecutive `--mark` records (one per iteration: N marks give N - 1
samples), the rank's figure their median — robust to the iterations in which a process of the
shared, oversubscribed machine was descheduled (the trace records that time as compute). The
fitted values are the means over the ranks; flops as the conversion writes them (recorded
nanoseconds at 1 Gflop/s).

  fit_compute.py TI_DIR --iterations N [--loop-start isend] [--mark waitall]
prints `setup_flops=S iter_flops=F` (whole numbers, as a skeleton's flops must be), and one line
per rank on standard error. A rank with other than N marks is an error (exit status 1)."""
import argparse
import pathlib
import statistics
import sys


def fit_rank(path, loop_start, mark, iterations):
    """(setup, median per-iteration) compute of one rank file of `R compute FLOPS` records."""
    setup, samples, current = 0.0, [], None  # current: compute since the last mark, None before
    in_loop = False
    for line in open(path):
        fields = line.split()
        if len(fields) < 2:
            continue
        if fields[1] == loop_start:
            in_loop = True
        if fields[1] == mark:
            if current is not None:
                samples.append(current)
            current = 0.0
        elif fields[1] == "compute":
            if current is not None:
                current += float(fields[2])
            elif not in_loop:
                setup += float(fields[2])
    if len(samples) != iterations - 1:
        sys.exit(f"{path}: error: {len(samples) + (current is not None)} '{mark}' records, not {iterations}")
    return setup, statistics.median(samples) if samples else 0.0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ti_dir", type=pathlib.Path)
    parser.add_argument("--iterations", type=int, required=True)
    parser.add_argument("--loop-start", default="isend")
    parser.add_argument("--mark", default="waitall")
    args = parser.parse_args()
    if args.iterations < 2:
        sys.exit("fit_compute.py: error: --iterations must be at least 2")
    index = args.ti_dir / "trace.txt"
    ranks = [args.ti_dir / name.strip() for name in open(index) if name.strip()]
    fits = [fit_rank(r, args.loop_start, args.mark, args.iterations) for r in ranks]
    for i, (setup, per_iter) in enumerate(fits):
        print(f"# rank {i}: setup {setup:.0f}, median per iteration {per_iter:.0f}", file=sys.stderr)
    setup = sum(f[0] for f in fits) / len(fits)
    per_iter = sum(f[1] for f in fits) / len(fits)
    print(f"setup_flops={round(setup)} iter_flops={round(per_iter)}")


if __name__ == "__main__":
    main()
