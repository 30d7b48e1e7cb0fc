#!/usr/bin/env python3
"""Mutation fuzzer of augur's inputs: traces (TI, Lib-DVM), scenarios, machine files, Predictor
.par files, SimGrid platform files, stepper scripts and command lines. Each input is a seed from
the repository or ../shared with a few random mutations; augur runs on it and the outcome is
classified:

  exit 0, 1 or 2          fine (0 ok, 1 run failed, 2 bad input)
  any other status/signal abort or crash
  no exit within --timeout a hang
  exit 0 with inf or nan  a silent lie (a non-finite number reported as a result)

The same --seed gives the same inputs. Exit status 0 when nothing but fine outcomes were seen;
the failing inputs are kept under WORK/failures/ with the command that ran them."""

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time

INTERESTING = ["0", "-1", "1", "-0", "1e308", "1e-300", "4294967297", "4294967296", "2147483648", "65537",
               "99999999999999999999", "nan", "inf", "-inf", "1e3", "0x10", "", "3.5", "-5", "1000000"]
GARBAGE = [b"\xff", b"\xfe\xff", b"\xef\xbb\xbf", b"\x00", b"\x1b[31m", b"{", b"}", b"[", b"]", b":", b"'", b'"',
           b"\t", b"\r\n", b"&", b"*", b"!!binary", b"%", b"\xd0\xbf\xd1\x80", b"\xcf\xf0\xe8", b"\n\n", b"#"]
LINE_CAP = 2000  # mutated lines are kept short so that runs stay fast


def mutate_numbers(data, rng):
    spans = [m.span() for m in re.finditer(rb"-?\d+(\.\d+)?([eE][-+]?\d+)?", data)]
    if not spans:
        return data
    a, b = rng.choice(spans)
    return data[:a] + rng.choice(INTERESTING).encode() + data[b:]


def mutate_lines(data, rng):
    lines = data.split(b"\n")
    if len(lines) < 2:
        return data
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    op = rng.randrange(4)
    if op == 0:
        lines.insert(j, lines[i])
    elif op == 1:
        del lines[i]
    elif op == 2:
        lines[i], lines[j] = lines[j], lines[i]
    else:
        lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]
    return b"\n".join(lines)


def mutate_bytes(data, rng):
    if not data:
        return rng.choice(GARBAGE)
    at = rng.randrange(len(data))
    op = rng.randrange(4)
    if op == 0:
        return data[:at] + bytes([rng.randrange(256)]) + data[at + 1:]
    if op == 1:
        return data[:at] + rng.choice(GARBAGE) + data[at:]
    if op == 2:
        return data[:at] + data[at + rng.randrange(1, 16):]
    return data[:at]  # truncated


def mutate_tokens(data, rng):
    words = [m.span() for m in re.finditer(rb"[A-Za-z_]+", data)]
    if len(words) < 2:
        return data
    (a, b), (c, d) = rng.choice(words), rng.choice(words)
    return data[:a] + data[c:d] + data[b:]


MUTATORS = [mutate_numbers, mutate_numbers, mutate_numbers, mutate_lines, mutate_bytes, mutate_tokens]


def mutate(data, rng):
    for _ in range(rng.choice([1, 1, 2, 3, 5])):
        data = rng.choice(MUTATORS)(data, rng)
    return data


def read(path):
    with open(path, "rb") as f:
        return f.read()


class Seeds:
    """The seed files, from the repository (ROOT) and the project's shared folder (SHARED)."""

    def __init__(self, root, shared):
        self.root, self.shared = root, shared
        ex = os.path.join(root, "scenarios", "examples")
        self.tiny = os.path.join(shared, "ti-samples", "tiny-4")
        self.dvm = os.path.join(shared, "dvm-samples")
        self.scenarios = {}
        for name in ["default.yaml", "latency_sweep.yaml", "bus_vs_grid.yaml", "dvm_jacobi.yaml"]:
            # Relative trace paths made absolute: the mutated copy lives elsewhere.
            text = read(os.path.join(ex, name)).replace(b"trace: ti:traces/", ("trace: ti:" + ex + "/traces/").encode())
            self.scenarios[name] = text.replace(b"trace: dvm:traces/", ("trace: dvm:" + ex + "/traces/").encode())
        lib = os.path.join(root, "machines", "library")
        self.machines = {n: read(os.path.join(lib, n)) for n in sorted(os.listdir(lib)) if n.endswith(".yaml")}
        self.pars = {n: read(os.path.join(self.dvm, n)) for n in ["Predictor.mvs.par", "Predictor-NCI.par", "pred_trc.par"]}
        self.ti_shared = read(os.path.join(self.tiny, "all_ranks.txt"))
        self.ti_rank = read(os.path.join(self.tiny, "rank0.txt"))
        self.ptr = read(os.path.join(self.dvm, "jac1d.ptr"))
        self.platforms = {
            "small_platform.xml": read(os.path.join(shared, "simgrid-tesh", "cases", "replay_isend", "platform.xml")),
            "cluster.xml": read(os.path.join(shared, "ti-samples", "platform.xml")),
            "routed.xml": read(os.path.join(root, "tests", "machines", "fixtures", "platform", "routed.xml")),
            "torus_64.xml": read(os.path.join(root, "tests", "machines", "fixtures", "platform", "torus_64.xml")),
        }


def stepper_script(rng):
    words = ["break event {n}", "break lp {n}", "break lp {n} kind recv", "break lp {n} kind {w}", "step", "step {n}",
             "print", "print {n}", "blocked", "continue", "help", "quit", "{w}", "break", "delete", "step {w}"]
    lines = []
    for _ in range(rng.randrange(1, 12)):
        n = rng.choice(INTERESTING + ["2", "3", "10"])
        w = rng.choice(["abc", "send", "recv", "\xff", "x" * 300, ""])
        lines.append(rng.choice(words).format(n=n, w=w))
    return ("\n".join(lines) + "\n").encode("utf-8", "surrogateescape")


CLI_OPTIONS = ["--jobs", "--max-events", "--max-time", "--grid", "--processors", "--depth", "--procs", "--set",
               "--characteristics", "--wait-states", "--machine"]
CLI_VALUES = INTERESTING + ["2x2", "65536x65536", "0x2", "1,3-4", "machine.latency=1e308s", "model.collectives=bogus",
                            "machine.cpu_speed=1e-300flops", "machine.bandwidth_factors=0:0", "nope", "on", "off",
                            "machine.processes_per_node=4294967297", "auto", "bus", "1-99999999"]


def make_case(kind, rng, seeds, d):
    """Writes the case's files into folder `d`; returns (arguments, standard input)."""
    def put(name, data):
        path = os.path.join(d, name)
        with open(path, "wb") as f:
            f.write(data)
        return path

    json_out = os.path.join(d, "out.json")
    if kind == "ti":
        if rng.random() < 0.5:
            t = put("trace.txt", mutate(seeds.ti_shared, rng))
        else:  # an index of the sample's rank files, one of them mutated
            for r in range(4):
                data = read(os.path.join(seeds.tiny, "rank%d.txt" % r))
                put("rank%d.txt" % r, mutate(data, rng) if r == 1 else data)
            t = put("trace.txt", mutate(b"rank0.txt\nrank1.txt\nrank2.txt\nrank3.txt\n", rng) if rng.random() < 0.3
                    else b"rank0.txt\nrank1.txt\nrank2.txt\nrank3.txt\n")
        return ["run", "--trace", "ti:" + t, "--json", json_out], b""
    if kind == "dvm":
        t = put("prog.ptr", mutate(seeds.ptr, rng))
        return ["run", "--trace", "dvm:" + t, "--machine", "dvm_mvs", "--grid", rng.choice(["2x2", "4", "1"]),
                "--json", json_out], b""
    if kind == "scenario":
        name = rng.choice(sorted(seeds.scenarios))
        s = put("scenario.yaml", mutate(seeds.scenarios[name], rng))
        return ["run", s, "--json", json_out], b""
    if kind == "machine":
        name = rng.choice(sorted(seeds.machines))
        m = put("machine.yaml", mutate(seeds.machines[name], rng))
        trace = os.path.join(seeds.tiny, "all_ranks.txt")
        if b"dvm_cluster" in seeds.machines[name]:
            return ["run", "--trace", "dvm:" + os.path.join(seeds.dvm, "jac1d.ptr"), "--machine", m, "--grid", "2x2",
                    "--json", json_out], b""
        return ["run", "--trace", "ti:" + trace, "--machine", m, "--json", json_out], b""
    if kind == "par":
        name = rng.choice(sorted(seeds.pars))
        p = put("machine.par", mutate(seeds.pars[name], rng))
        return ["predict", p, os.path.join(seeds.dvm, "jac1d.ptr"), os.path.join(d, "out.html"), "2", "2",
                "--json", json_out], b""
    if kind == "platform":  # a SimGrid platform file, sometimes with a mutated hostfile
        name = rng.choice(sorted(seeds.platforms))
        p = put("platform.xml", mutate(seeds.platforms[name], rng))
        args = ["run", "--trace", "ti:" + os.path.join(seeds.tiny, "all_ranks.txt"), "--machine", p, "--json", json_out]
        if rng.random() < 0.3:
            hosts = {"small_platform.xml": b"Tremblay\nJupiter:2\nFafard\n", "routed.xml": b"a\nc-1.x:3\n"}
            args += ["--hostfile", put("hostfile", mutate(hosts.get(name, b"node-0:2\nnode-5\n"), rng))]
        return args, b""
    if kind == "stepper":
        trace = os.path.join(seeds.tiny, "all_ranks.txt")
        return ["step", "--trace", "ti:" + trace], stepper_script(rng)
    # kind == "cli": options with odd values on the small sample
    args = ["run", "--trace", "ti:" + os.path.join(seeds.tiny, "all_ranks.txt"), "--json", json_out]
    for _ in range(rng.randrange(1, 4)):
        args += [rng.choice(CLI_OPTIONS), rng.choice(CLI_VALUES)]
    return args, b""


NON_FINITE = re.compile(rb"(?<![A-Za-z_])-?(nan|inf|infinity)(?![A-Za-z_])", re.IGNORECASE)
# JSON writes a non-finite number as null; the only other null is an interval's "index".
JSON_NULL = re.compile(rb'(?<!"index"): null')


def classify(status, out, json_path, inputs):
    """`inputs`: the case's input bytes; when they hold the word inf or nan themselves (a mutated
    name), the text may quote it, and only the JSON's nulls tell a non-finite number."""
    if status is None:
        return "hang"
    if status not in (0, 1, 2):
        return "crash"
    if status == 0:
        json_text = read(json_path) if os.path.exists(json_path) else b""
        quoted = NON_FINITE.search(inputs)
        if (not quoted and NON_FINITE.search(out + json_text)) or JSON_NULL.search(json_text):
            return "non-finite"
    return "exit%d" % status


KINDS = ["ti", "dvm", "scenario", "machine", "par", "platform", "stepper", "cli"]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--augur", required=True, help="the augur executable")
    ap.add_argument("--shared", default=os.path.join(root, "..", "shared"), help="the project's shared folder")
    ap.add_argument("--work", default="fuzz-work", help="folder for the cases (emptied first)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=300, help="inputs to run")
    ap.add_argument("--kinds", default=",".join(KINDS), help="input kinds, comma-separated: " + ",".join(KINDS))
    ap.add_argument("--timeout", type=float, default=20, help="seconds before a run counts as a hang")
    ap.add_argument("--time-limit", type=float, default=0, help="stop after this many seconds (0: none)")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    seeds = Seeds(root, a.shared)
    kinds = a.kinds.split(",")
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(os.path.join(a.work, "failures"))
    counts = {}
    failures = 0
    start = time.monotonic()
    env = dict(os.environ, AUGUR_MACHINE_PATH="")
    for i in range(a.count):
        if a.time_limit and time.monotonic() - start > a.time_limit:
            break
        kind = kinds[i % len(kinds)]
        d = os.path.join(a.work, "case")
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        args, stdin = make_case(kind, rng, seeds, d)
        inputs = stdin + b"".join(read(os.path.join(d, n)) for n in sorted(os.listdir(d))) + " ".join(args).encode()
        try:
            p = subprocess.run([a.augur] + args, input=stdin, capture_output=True, timeout=a.timeout, cwd=d, env=env)
            status, out = (p.returncode if p.returncode >= 0 else 128 - p.returncode), p.stdout
        except subprocess.TimeoutExpired:
            status, out = None, b""
        outcome = classify(status, out, os.path.join(d, "out.json"), inputs)
        counts.setdefault(kind, {}).setdefault(outcome, 0)
        counts[kind][outcome] += 1
        if not outcome.startswith("exit"):
            failures += 1
            kept = os.path.join(a.work, "failures", "%05d-%s-%s" % (i, kind, outcome))
            shutil.copytree(d, kept)
            with open(os.path.join(kept, "command"), "w") as f:  # runs from the kept folder
                f.write(json.dumps([a.augur] + [x.replace(d, kept) for x in args]) + "\n")
            with open(os.path.join(kept, "stdin"), "wb") as f:
                f.write(stdin)
            print("%s: %s (%s)" % (kind, outcome, kept), file=sys.stderr)
    total = {}
    for per in counts.values():
        for k, v in per.items():
            total[k] = total.get(k, 0) + v
    print(json.dumps({"inputs": sum(total.values()), "seconds": round(time.monotonic() - start, 1), "total": total,
                      "by_kind": counts}, indent=1, sort_keys=True))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
