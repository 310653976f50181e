//! What Arbiter's users run, built on the layers below: the scenario runner ([`scenario`]),
//! checking files ([`check_files`]), saved games ([`save`]), the bots ([`agents`]), many games at
//! once ([`sim`]), the language server ([`lsp`]), the web table ([`web`]) and the entry points
//! for untrusted input ([`fuzz`]). It uses `arbiter-check` to build a game and
//! `arbiter-runtime` to run it; nothing below uses it.

pub mod agents;
pub mod check_files;
pub mod fuzz;
pub mod lsp;
pub mod save;
pub mod scenario;
pub mod sim;
pub mod web;
