//! What Arbiter's users run, built on the layers below: the scenario runner ([`scenario`]),
//! checking files ([`check_files`]), saved games ([`save`]), the bots ([`agents`]), many games at
//! once ([`sim`]) and the entry points for untrusted input ([`fuzz`]). It uses `arbiter-check` to
//! build a game and `arbiter-runtime` to run it; nothing below uses it. The web table
//! (`arbiter-web`) and the language server (`arbiter-lsp`) are built on it, each a crate of its
//! own so that they compile side by side.

pub mod agents;
pub mod check_files;
pub mod fuzz;
pub mod save;
pub mod scenario;
pub mod sim;
