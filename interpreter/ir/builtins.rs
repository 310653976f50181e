//! The built-in functions every game may call, as the checker sees them: each one's name, arity,
//! result and one line of doc (`Builtin`, `BUILTINS`, `lookup`).
//!
//! A builtin is written once, with its implementation, in a family file of
//! `interpreter/builtins/` (lists, players, abilities, …; see the README.md there). That folder is
//! not a crate: `builtin_families!` names its files, and each crate that needs the builtins expands
//! them with a macro of its own. Here `signatures!` keeps the signatures and drops the
//! implementations; `runtime/builtins.rs` makes each family a module of functions, the
//! implementations, and dispatches to them.

/// What a builtin returns, for the checker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Returns {
    Amount,
    Pose,
    Poses,
    Int,
    Bool,
    Text,
    Player,
    Players,
    /// The type of the first argument (a zone's: a list of objects).
    Same,
    /// An item of the first argument.
    Elem,
    Objects,
    Defs,
    Ability,
    Abilities,
    Syms,
    Ints,
}

/// A builtin as the checker sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Signature {
    pub name: &'static str,
    pub builtin: Builtin,
    pub min: usize,
    pub max: usize,
    pub ret: Returns,
    /// Argument position that must be a lambda `|x| ..`, and its parameter count.
    pub lambda: Option<(usize, usize)>,
    pub doc: &'static str,
}

/// Hands the builtins' family files to a macro, in this order (the order of `BUILTINS`, in which
/// the checker suggests names). `builtin_families!(items m)` expands to `m! { lists { .. } players
/// { .. } .. }`: each family's name and its items as written in its file. `builtin_families!(files
/// m)` expands to `m! { lists "../builtins/lists.rs" .. }`: each family's name and file, for a
/// crate that makes each family a module of its own (the runtime: then the implementations are
/// the crate's own code, which clippy reads as such). The paths are from a file directly in
/// `interpreter/ir` or `interpreter/runtime`, where the expansions are. A new family's file is
/// named here.
#[macro_export]
macro_rules! builtin_families {
    ($how:ident $then:ident) => {
        $crate::__builtin_families! { $how $then [
            lists "../builtins/lists.rs"
            players "../builtins/players.rs"
            abilities "../builtins/abilities.rs"
            amounts "../builtins/amounts.rs"
            text "../builtins/text.rs"
            decks "../builtins/decks.rs"
            numbers "../builtins/numbers.rs"
            objects "../builtins/objects.rs"
            geometry "../builtins/geometry.rs"
        ] }
    };
}

/// `builtin_families!`'s work. For `items`, a loop: it includes the next family file with a
/// `builtins!` that adds the file's items to those collected so far and goes on with the rest;
/// after the last file, it calls `$then`. (`$d` is a `$`, for the `builtins!` macro it defines;
/// each `builtins!` is defined inside the expansion of the one before, so that it may shadow it.)
#[doc(hidden)]
#[macro_export]
macro_rules! __builtin_families {
    (files $then:ident [$($list:tt)*]) => {
        $then! { $($list)* }
    };
    (items $then:ident [$($list:tt)*]) => {
        $crate::__builtin_families! { ($) [] [$($list)*] $then }
    };
    (($d:tt) [$($done:tt)*] [$family:ident $file:literal $($rest:tt)*] $then:ident) => {
        macro_rules! builtins {
            ($d($d item:tt)*) => {
                $crate::__builtin_families! { ($d) [$($done)* $family { $d($d item)* }] [$($rest)*] $then }
            };
        }
        include!($file);
    };
    (($d:tt) [$($done:tt)*] [] $then:ident) => {
        $then! { $($done)* }
    };
}

/// The first of `[value]` and `default`: an optional part of a builtin's signature.
macro_rules! given_or {
    ([$given:expr] $default:expr) => {
        $given
    };
    ([] $default:expr) => {
        $default
    };
}

/// A builtin's doc, its `///` lines joined (each begins with a space) without the first space.
const fn one_line(doc: &'static str) -> &'static str {
    doc.trim_ascii_start()
}

/// The signatures: `Builtin`, `Builtin::signature` and `BUILTINS`, from every family's items (their
/// implementations and helpers are read past).
macro_rules! signatures {
    ($($family:ident {
        $(
            $(#[doc = $doc:literal])+
            $variant:ident $name:ident ($min:literal $(..= $max:literal)? $(, lambda $at:literal : $params:literal)?)
            -> $ret:ident |$call:ident| $body:block
        )*
        $(fn $helper:ident $helper_params:tt $(-> $helper_ret:ty)? $helper_body:block)*
    })*) => {
        /// A built-in function, as compiled code calls it (`ExprKindIr::Builtin`).
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Builtin {
            $($(
                $(#[doc = $doc])+
                $variant,
            )*)*
        }

        impl Builtin {
            /// Its name, arity, result and doc.
            #[inline]
            pub const fn signature(self) -> &'static Signature {
                match self {
                    $($(Builtin::$variant => {
                        const SIGNATURE: Signature = Signature {
                            name: stringify!($name),
                            builtin: Builtin::$variant,
                            min: $min,
                            max: given_or!([$($max)?] $min),
                            ret: Returns::$ret,
                            lambda: given_or!([$(Some(($at, $params)))?] None),
                            doc: one_line(concat!($($doc),+)),
                        };
                        &SIGNATURE
                    })*)*
                }
            }
        }

        /// Every builtin, family by family.
        pub const BUILTINS: &[Signature] = &[$($(*Builtin::$variant.signature(),)*)*];
    };
}

builtin_families!(items signatures);

impl Builtin {
    /// Whether one of its arguments is a function `|x| ..`: then it is called with the env.
    #[inline]
    pub const fn takes_lambda(self) -> bool {
        self.signature().lambda.is_some()
    }
}

/// The built-in of this name: looked up by hash (the checker asks for every call it lowers and
/// every function it declares).
pub fn lookup(name: &str) -> Option<&'static Signature> {
    static BY_NAME: std::sync::OnceLock<rustc_hash::FxHashMap<&'static str, &'static Signature>> = std::sync::OnceLock::new();
    BY_NAME.get_or_init(|| BUILTINS.iter().rev().map(|s| (s.name, s)).collect()).get(name).copied()
}

#[cfg(test)]
mod tests {
    /// Each family's name and its file's text.
    macro_rules! sources {
        ($($family:ident $file:literal)*) => {
            &[$((stringify!($family), include_str!($file))),*]
        };
    }
    const FAMILIES: &[(&str, &str)] = builtin_families!(files sources);

    /// The builtins' implementations are part of the runtime, held to what tests/untrusted.rs
    /// asks of its folder: no files, network, environment or clock.
    #[test]
    fn no_builtin_implementation_reaches_outside_the_game() {
        for (family, src) in FAMILIES {
            for bad in ["std::fs", "std::env", "std::net", "std::process", "std::time", "SystemTime", "Instant::", "File::open"] {
                assert!(!src.contains(bad), "interpreter/builtins/{family}.rs uses `{bad}`");
            }
        }
    }

    /// A family file that `builtin_families!` does not name would be left out without a word.
    #[test]
    fn every_family_file_is_named() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../builtins");
        let mut files: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".rs"))
            .collect();
        let mut named: Vec<String> = FAMILIES.iter().map(|(f, _)| format!("{f}.rs")).collect();
        files.sort();
        named.sort();
        assert_eq!(files, named);
    }

    /// Each family is one `builtins!`, and every builtin has a name of its own.
    #[test]
    fn each_family_file_is_one_invocation_and_names_are_unique() {
        for (family, src) in FAMILIES {
            assert_eq!(src.matches("builtins! {").count(), 1, "interpreter/builtins/{family}.rs");
        }
        let mut names: Vec<&str> = super::BUILTINS.iter().map(|s| s.name).collect();
        names.sort_unstable();
        let before = names.len();
        names.dedup();
        assert_eq!(names.len(), before, "two builtins share a name");
    }
}
