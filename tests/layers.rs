//! The house's layers are crates, and a crate may use only the layers below it (ARCHITECTURE.md):
//! `arbiter-syntax` → `arbiter-ir` → `arbiter-check` and `arbiter-runtime` (neither uses the
//! other) → `arbiter-tools` → `arbiter-web` and `arbiter-lsp` (neither uses the other) →
//! `arbiter`. The compiler forbids a cycle; this test forbids an
//! upward or sideways dependency, in any section of any manifest, and a crate no layer names.

#![allow(clippy::panic, clippy::indexing_slicing, reason = "a test fails loudly by design")]

use std::path::Path;

/// Each crate of the workspace with its layer: a crate may depend only on crates of a lower one.
const LAYERS: [(&str, &str, u32); 8] = [
    ("arbiter-syntax", "interpreter/syntax", 0),
    ("arbiter-ir", "interpreter/ir", 1),
    ("arbiter-check", "interpreter/check", 2),
    ("arbiter-runtime", "interpreter/runtime", 2),
    ("arbiter-tools", "interpreter/tools", 3),
    ("arbiter-web", "interpreter/web", 4),
    ("arbiter-lsp", "interpreter/lsp", 4),
    ("arbiter", ".", 5),
];

fn manifest(dir: &str) -> toml::Table {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir).join("Cargo.toml");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.parse().unwrap_or_else(|e| panic!("{} is not TOML: {e}", path.display()))
}

fn layer_of(name: &str) -> Option<u32> {
    LAYERS.iter().find(|(n, _, _)| *n == name).map(|(_, _, l)| *l)
}

/// The workspace's own crates a manifest depends on, in every dependency section.
fn own_dependencies(m: &toml::Table) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for section in ["dependencies", "dev-dependencies", "build-dependencies"] {
        if let Some(deps) = m.get(section).and_then(|d| d.as_table()) {
            for name in deps.keys().filter(|n| n.starts_with("arbiter")) {
                out.push((section.to_string(), name.clone()));
            }
        }
    }
    out
}

/// What is wrong with a crate's dependencies: each one on a crate of its own layer or above, or
/// on a crate no layer names.
fn violations(name: &str, m: &toml::Table) -> Vec<String> {
    let layer = layer_of(name).unwrap_or(0);
    let mut wrong = Vec::new();
    for (section, dep) in own_dependencies(m) {
        match layer_of(&dep) {
            Some(l) if l < layer => {}
            Some(l) => wrong.push(format!("{name} (layer {layer}) has `{dep}` (layer {l}) in [{section}]")),
            None => wrong.push(format!("{name} depends on `{dep}`, which no layer of this test names")),
        }
    }
    wrong
}

#[test]
fn every_crate_uses_only_the_layers_below_it() {
    let mut wrong = Vec::new();
    for (name, dir, _) in LAYERS {
        let m = manifest(dir);
        let declared = m.get("package").and_then(|p| p.get("name")).and_then(|n| n.as_str());
        assert_eq!(declared, Some(name), "{dir}/Cargo.toml names another package");
        wrong.extend(violations(name, &m));
    }
    assert!(wrong.is_empty(), "a crate reaches up or sideways:\n{}", wrong.join("\n"));
}

#[test]
fn the_workspace_holds_exactly_the_layers_crates() {
    let root = manifest(".");
    let members: Vec<&str> = root["workspace"]["members"].as_array().into_iter().flatten().filter_map(|m| m.as_str()).collect();
    let mut expected: Vec<&str> = LAYERS.iter().map(|(_, d, _)| *d).filter(|d| *d != ".").collect();
    let mut found = members.clone();
    expected.sort_unstable();
    found.sort_unstable();
    assert_eq!(found, expected, "a crate was added or removed: give it a layer in this test and in ARCHITECTURE.md");
    // Each crate's folder has its manifest, and the workspace table maps each name to its folder.
    let paths = root["workspace"]["dependencies"].as_table().cloned().unwrap_or_default();
    for (name, dir, _) in LAYERS.iter().filter(|(_, d, _)| *d != ".") {
        let path = paths.get(*name).and_then(|d| d.get("path")).and_then(|p| p.as_str());
        assert_eq!(path, Some(*dir), "[workspace.dependencies] {name} should point at {dir}");
    }
}

/// The check above would pass on manifests that name nothing: it fails on an upward edge, a
/// sideways one (the checker and the runtime share a layer) and an unknown crate, in any section.
#[test]
fn an_upward_or_sideways_dependency_is_caught() {
    let parse = |text: &str| -> toml::Table { text.parse().unwrap_or_else(|e| panic!("{e}")) };
    assert_eq!(violations("arbiter-ir", &parse("[dependencies]\narbiter-runtime = { path = \"../runtime\" }\n")).len(), 1);
    assert_eq!(violations("arbiter-check", &parse("[dev-dependencies]\narbiter-runtime = \"*\"\n")).len(), 1);
    assert_eq!(violations("arbiter-syntax", &parse("[build-dependencies]\narbiter-ir = \"*\"\n")).len(), 1);
    assert_eq!(violations("arbiter-tools", &parse("[dependencies]\narbiter-extra = \"*\"\n")).len(), 1);
    assert!(violations("arbiter-tools", &parse("[dependencies]\narbiter-check = \"*\"\narbiter-runtime = \"*\"\n")).is_empty());
}
