//! The bottom of the house: what the checker produces and the runtime runs. The compiled game
//! (`game`), its code with every name resolved (`code`), the values rules compute (`value`) and
//! the built-in functions' signatures (`builtins`). It uses neither `check` nor `runtime`; both
//! use it.

pub mod builtins;
pub mod call_reads;
pub mod code;
pub mod display;
pub mod fast;
pub mod game;
pub mod ids;
pub mod operators;
pub mod scenario;
pub mod value;

pub use call_reads::*;
pub use code::*;
pub use game::*;
pub use ids::*;

/// A table from names to what they name, in the order they were added. Its hasher is FxHash
/// (rustc's): the checker looks names up hundreds of thousands of times in a check of every
/// file, and the keys are names from rule files, not from the network.
pub type NameMap<V> = indexmap::IndexMap<String, V, rustc_hash::FxBuildHasher>;
