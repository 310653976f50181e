//! The numbers compiled code names things by: symbols (interned names) and the indices of kinds,
//! zones, definitions, procedures, functions, checks, events, blocks and local slots.

use indexmap::IndexMap;

pub type Sym = u32;

/// Hashes a symbol or another small integer key by itself, with one multiplication: symbol-keyed
/// maps are read on every field access, and evaluation remembers values by object and field.
#[derive(Default, Clone, Copy)]
pub struct SymHasher(u64);

impl std::hash::Hasher for SymHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 << 8 | u64::from(*b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }
    fn write_u32(&mut self, n: u32) {
        self.0 = u64::from(n).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
    /// Two numbers in one key (`a << 32 | b`): the high bits folded into the low ones, which pick
    /// the bucket.
    fn write_u64(&mut self, n: u64) {
        let x = n.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = x ^ (x >> 32);
    }
}

/// A map keyed by symbols, hashed cheaply.
pub type SymMap<V> = IndexMap<Sym, V, std::hash::BuildHasherDefault<SymHasher>>;
pub type KindId = u16;
pub type ZoneId = u16;
pub type DefId = u32;
pub type ProcId = u32;
pub type FuncId = u32;
pub type CheckId = u32;
pub type EventId = u32;
pub type BlockId = u32;
pub type Slot = u16;
