#!/usr/bin/env python3
"""The test of contrib/ray/sim.py (run by tests/ray.rs): on a local Ray cluster of two nodes, a
sharded sim merges into exactly the bytes one machine's `arbiter sim` writes, its shards are played
on both nodes, a request the script must not run is refused with a reason, and a shard that
fails stops the run with its error.

    python contrib/ray/check_local_cluster.py --arbiter PATH
"""

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import sim  # noqa: E402

CASES = [
    # (name, shards, `arbiter sim` arguments)
    ("tic-tac-toe, 4 shards", 4, ["tic-tac-toe", "--games", "300", "--seed", "7"]),
    (
        "bsg-ccg with a deck file and a variant compared, 3 shards",
        3,
        ["bsg-ccg", "--games", "12", "--deck", "1=tests/tour/my-cards.arb", "--compare", "first-player-random-tie"],
    ),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--arbiter", required=True)
    args = ap.parse_args()
    from ray import cluster_utils

    cluster = cluster_utils.Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    failed = 0
    try:
        for name, shards, argv in CASES:
            with tempfile.TemporaryDirectory() as tmp:
                tmp = Path(tmp)
                one = [args.arbiter, "sim", *argv, "--jobs", "1", "--json", str(tmp / "one.json"), "--csv", str(tmp / "one.csv")]
                subprocess.run(one, cwd=sim.REPO, check=True, capture_output=True)
                asked = ["--arbiter", args.arbiter, "--shards", str(shards), "--json", str(tmp / "ray.json"), "--csv", str(tmp / "ray.csv"), "--", *argv]
                code, nodes = sim.run(asked, address=cluster.address)
                same = all((tmp / f"one.{x}").read_bytes() == (tmp / f"ray.{x}").read_bytes() for x in ("json", "csv"))
                ok = code == 0 and same and len(nodes) == shards and len(set(nodes)) == 2
                print(f"{'ok' if ok else 'FAILED'}: {name}: exit {code}, {len(nodes)} shards on {len(set(nodes))} nodes, "
                      f"merged JSON and CSV {'the same bytes as' if same else 'DIFFERENT from'} one machine's")
                failed += not ok
        for refused in (["--", "tic-tac-toe", "--jobs", "2"], ["--", "--games", "3"], ["--shards", "0", "--", "tic-tac-toe"]):
            try:
                sim.run(["--arbiter", args.arbiter, *refused], address=cluster.address)
                print(f"FAILED: {' '.join(refused)} was run")
                failed += 1
            except sim.Refused as e:
                print(f"ok: {' '.join(refused)} refused: {e}")
        # A shard whose `arbiter sim` fails stops the run with what it said.
        try:
            sim.run(["--arbiter", args.arbiter, "--shards", "2", "--", "no-such-game", "--games", "4"], address=cluster.address)
            print("FAILED: a run of a game that does not exist went through")
            failed += 1
        except sim.ShardFailed as e:
            ok = "no game `no-such-game`" in str(e)
            print(f"{'ok' if ok else 'FAILED'}: a failing shard stops the run with its error: {str(e).splitlines()[0]}")
            failed += not ok
    finally:
        cluster.shutdown()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
