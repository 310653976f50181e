#!/usr/bin/env python3
"""A sharded `arbiter sim` on a Ray cluster.

    python contrib/ray/sim.py [--address ADDR] [--shards N] [--json F] [--csv F] [--svg F] -- GAME [SIM OPTIONS]

Everything after `--` is what `arbiter sim` takes (the game, `--games`, `--players`, `--variant`,
`--deck`, `--bots`, `--compare`, `--rules`, `--seed`, `--cards`). The script splits the games into
N shards (`arbiter sim ... --shard K/N`), runs one Ray task per shard anywhere on the cluster, and
adds the shards up with `arbiter sim merge`, which prints the report and writes the outputs asked
for. Game `i` uses seed `SEED + i` whoever plays it, so the merged result is byte for byte the one
`arbiter sim` gives on one machine.

What runs on the nodes is shipped with the job through Ray's object store: the `arbiter` binary,
the project's `rulebooks/`, `stdlib/` and `cards/`, and the files named by `--rules` and `--deck`,
as one archive each node unpacks once into its temporary folder. The nodes need nothing but Ray
and a Linux like the driver's (the binary is the driver's).

Ray does the scheduling; this script only says what one shard is.
"""

import argparse
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
# What the binary reads on a node, relative to the project's root.
PROJECT_DIRS = ["rulebooks", "stdlib", "cards"]
# Options of `arbiter sim` this script sets itself, or writes from the merged result.
OWN = {"--shard", "--jobs", "--json", "--csv", "--svg"}


class Refused(Exception):
    """A request this script will not run, with the reason in words."""


class ShardFailed(Exception):
    """A shard's `arbiter sim` failed: what it said."""


def parse(argv):
    ap = argparse.ArgumentParser(
        prog="contrib/ray/sim.py",
        description="Run `arbiter sim` in shards on a Ray cluster and merge the shards.",
        epilog="Example: python contrib/ray/sim.py --shards 16 --json all.json -- bsg-board --players 5 --games 20000",
    )
    ap.add_argument("--address", default=None, help="the Ray cluster (`auto` for the one this machine belongs to; none: start one here)")
    ap.add_argument("--shards", type=int, default=None, help="how many shards (default: the cluster's CPUs)")
    ap.add_argument("--arbiter", default=None, help="the arbiter binary to ship (default: target/release/arbiter, else `arbiter` on PATH)")
    ap.add_argument("--json", help="write the merged results as JSON")
    ap.add_argument("--csv", help="write the merged results as CSV")
    ap.add_argument("--svg", help="draw the merged results as an SVG chart")
    ap.add_argument("sim", nargs=argparse.REMAINDER, help="`--` then the game and `arbiter sim` options")
    args = ap.parse_args(argv)
    sim = args.sim[1:] if args.sim[:1] == ["--"] else args.sim
    if not sim or sim[0].startswith("-"):
        raise Refused("name the game after `--`, e.g. `-- tic-tac-toe --games 1000`")
    for a in sim:
        if a.split("=", 1)[0] in OWN:
            raise Refused(f"`{a}` is this script's to set: give --json, --csv or --svg before `--`; shards and jobs are worked out here")
    if args.shards is not None and args.shards < 1:
        raise Refused("--shards must be at least 1")
    args.sim = sim
    return args


def binary(given):
    if given:
        p = Path(given)
    elif (REPO / "target" / "release" / "arbiter").is_file():
        p = REPO / "target" / "release" / "arbiter"
    else:
        found = shutil.which("arbiter")
        if not found:
            raise Refused("no arbiter binary: build one (`cargo build --release`) or pass --arbiter PATH")
        p = Path(found)
    if not p.is_file():
        raise Refused(f"no such file: {p}")
    return p.resolve()


def stage(arbiter, sim, into):
    """Copy what a node needs into `into`; return the sim arguments with file paths made relative
    to it, and the deck arguments as one machine's `arbiter sim` records them (for the shards'
    JSON, which records where the nodes found the files)."""
    into = Path(into)
    shutil.copy2(arbiter, into / "arbiter")
    for d in PROJECT_DIRS:
        shutil.copytree(REPO / d, into / d)
    (into / "given").mkdir()
    out, decks, shipped = [], [], 0

    def ship(path):
        # A file of the project keeps its place (a card file may say its game by its folder);
        # any other goes into a folder of its own.
        nonlocal shipped
        full = Path(path).resolve()
        if full.is_relative_to(REPO):
            rel = full.relative_to(REPO)
        else:
            shipped += 1
            rel = Path("given") / str(shipped) / full.name
        if not (into / rel).exists():
            (into / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(full, into / rel)
        return str(rel)

    i = 0
    while i < len(sim):
        a = sim[i]
        name, eq, inline = a.partition("=")
        if name in ("--rules", "--deck"):
            value = inline if eq else (sim[i + 1] if i + 1 < len(sim) else None)
            if value is None:
                raise Refused(f"`{name}` needs a value")
            if name == "--rules":
                if not Path(value).is_file():
                    raise Refused(f"--rules {value}: no such file")
                value = ship(value)
            else:
                seat, is_seat, what = value.partition("=")
                seat = str(int(seat)) if seat.isdigit() else seat
                if is_seat and Path(what).is_file():
                    decks.append(f"{seat}={Path(what).resolve()}")
                    value = f"{seat}={ship(what)}"
                else:
                    decks.append(f"{seat}{is_seat}{what}")
            out += [name, value]
            i += 1 if eq else 2
            continue
        out.append(a)
        i += 1
    return out, decks


def pack(staging):
    """The staged folder as one gzipped tar (what the nodes unpack), and its digest."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz", compresslevel=1) as tar:
        tar.add(staging, arcname=".")
    data = buf.getvalue()
    return data, hashlib.sha256(data).hexdigest()[:16]


def unpacked(digest, payload, ray):
    """The job's files on this node: unpacked once per node (and digest) into the node's temporary
    folder, by whichever task gets there first (the others find it there)."""
    home = Path(tempfile.gettempdir()) / f"arbiter-ray-{os.getuid()}"
    here = home / digest
    if (here / "arbiter").is_file():
        return here
    home.mkdir(parents=True, exist_ok=True)
    fresh = Path(tempfile.mkdtemp(dir=home))
    with tarfile.open(fileobj=io.BytesIO(ray.get(payload[0])), mode="r:gz") as tar:
        tar.extractall(fresh, filter="data")
    os.chmod(fresh / "arbiter", 0o755)
    try:
        os.rename(fresh, here)
    except OSError:
        shutil.rmtree(fresh, ignore_errors=True)  # another task unpacked it first
    return here


def shard_task(ray):
    # max_calls=1: a worker plays one shard and exits, so every shard is placed by Ray's SPREAD
    # policy. Otherwise the driver hands queued shards to a worker it already holds, and short
    # shards all land on the first node whose worker started.
    @ray.remote(num_cpus=1, scheduling_strategy="SPREAD", max_calls=1)
    def shard(k, n, sim, digest, payload):
        """One shard, played on whichever node Ray chose, in the job's files there."""
        here = unpacked(digest, payload, ray)
        with tempfile.TemporaryDirectory() as tmp:
            part = Path(tmp) / "part.json"
            cmd = [str(here / "arbiter"), "sim", *sim, "--shard", f"{k}/{n}", "--jobs", "1", "--json", str(part)]
            r = subprocess.run(cmd, cwd=here, capture_output=True, text=True)
            if r.returncode != 0:
                said = "\n".join(x.strip("\n") for x in (r.stdout, r.stderr) if x.strip())
                raise ShardFailed(f"shard {k}/{n}: `arbiter sim` exited with {r.returncode}:\n{said}")
            return part.read_text(), ray.get_runtime_context().get_node_id()

    return shard


def run(argv, address=None):
    """Run the request; return (exit code, the node ids that played shards)."""
    args = parse(argv)
    import ray

    arbiter = binary(args.arbiter)
    with tempfile.TemporaryDirectory(prefix="arbiter-ray-") as staging:
        sim, decks = stage(arbiter, args.sim, staging)
        data, digest = pack(staging)
    ray.init(address=address or args.address, log_to_driver=False)
    try:
        n = args.shards or max(1, int(ray.cluster_resources().get("CPU", 1)))
        shard = shard_task(ray)
        # In a list, so that a task fetches the files only on a node that has not unpacked them.
        payload = [ray.put(data)]
        try:
            parts = ray.get([shard.remote(k, n, sim, digest, payload) for k in range(1, n + 1)])
        except ray.exceptions.RayTaskError as e:
            cause = getattr(e, "cause", None)
            raise ShardFailed(str(cause) if isinstance(cause, ShardFailed) else str(e)) from None
    finally:
        ray.shutdown()
    with tempfile.TemporaryDirectory(prefix="arbiter-merge-") as tmp:
        files = []
        for k, (text, _) in enumerate(parts, 1):
            part = json.loads(text)
            # The nodes found the deck files where the job put them; the run is the one asked for.
            part["decks"] = decks
            f = Path(tmp) / f"part-{k}.json"
            f.write_text(json.dumps(part, ensure_ascii=False))
            files.append(str(f))
        outputs = []
        for flag in ("json", "csv", "svg"):
            if getattr(args, flag):
                outputs += [f"--{flag}", getattr(args, flag)]
        code = subprocess.run([str(arbiter), "sim", "merge", *files, *outputs]).returncode
    return code, [node for _, node in parts]


def main():
    try:
        code, nodes = run(sys.argv[1:])
    except Refused as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except ShardFailed as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print(f"({len(nodes)} shards on {len(set(nodes))} Ray nodes)", file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main())
