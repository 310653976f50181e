//! The sharded sim on a real cluster engine: `contrib/ray/sim.py` runs `arbiter sim --shard K/N`
//! as Ray tasks and merges the shards. On a local Ray cluster of two nodes
//! (`contrib/ray/check_local_cluster.py`), the merged JSON and CSV are byte for byte what one
//! machine's `arbiter sim` writes, the shards ran on both nodes, requests the script must not run
//! are refused, and a shard that fails stops the run with its error. Ray comes from the package
//! registry (`contrib/ray/install.sh`, into target/ray-venv).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "a test fails loudly by design")]

use std::path::Path;
use std::process::Command;

#[test]
fn a_sharded_sim_on_a_local_ray_cluster_of_two_nodes_merges_into_one_machines_bytes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let install = Command::new(root.join("contrib/ray/install.sh")).output().expect("run contrib/ray/install.sh");
    assert!(install.status.success(), "installing Ray failed:\n{}", String::from_utf8_lossy(&install.stderr));
    let python = String::from_utf8(install.stdout).unwrap().trim().to_string();
    // Ray's session folders (logs, sockets) and the archive each node unpacks go under a temporary
    // folder of this test's own, removed when it ends: run after run they would fill the disk.
    // (Under the system's temporary folder: a short path, for Ray's sockets live in it and a
    // socket's path may not pass 107 bytes.)
    let tmp = tempfile::Builder::new().prefix("arbiter-ray-test-").tempdir().expect("make the test's temporary folder");
    let out = Command::new(&python)
        .arg(root.join("contrib/ray/check_local_cluster.py"))
        .arg("--arbiter")
        .arg(env!("CARGO_BIN_EXE_arbiter"))
        .env("TMPDIR", tmp.path())
        .env_remove("RAY_TMPDIR")
        .current_dir(root)
        .output()
        .expect("run contrib/ray/check_local_cluster.py");
    let said = String::from_utf8_lossy(&out.stdout);
    let verdicts: Vec<&str> = said.lines().filter(|l| l.starts_with("ok: ") || l.starts_with("FAILED: ")).collect();
    assert!(
        out.status.success() && verdicts.len() == 6 && verdicts.iter().all(|l| l.starts_with("ok: ")),
        "the Ray check failed:\n{}\n{}",
        verdicts.join("\n"),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(verdicts.iter().filter(|l| l.contains("on 2 nodes") && l.contains("the same bytes as one machine's")).count() == 2);
}
