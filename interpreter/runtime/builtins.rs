//! The built-in functions every game may call. The table gives the checker each one's arity
//! and result; `eval` implements them.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Builtin {
    Count,
    Sum,
    Min,
    Max,
    First,
    Last,
    Top,
    Bottom,
    Reverse,
    Distinct,
    IndexOf,
    Rotate,
    Take,
    Drop,
    Concat,
    Without,
    CountOf,
    SortBy,
    Lowest,
    Highest,
    Players,
    AllPlayers,
    Opponents,
    NextPlayer,
    Seat,
    PlayerCount,
    IsOut,
    TurnOrder,
    Abilities,
    Ability,
    CanUse,
    DistinctMatch,
    Qty,
    Kinds,
    QtyOf,
    Text,
    Decklist,
    Abs,
    Clamp,
    Objects,
    Active,
    Pile,
    Flatten,
    Nth,
    Range,
    Definitions,
}

/// What a builtin returns, for the checker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ret {
    Int,
    Bool,
    Text,
    Player,
    Players,
    Same,
    Elem,
    Objects,
    Defs,
    Ability,
    Abilities,
    Syms,
    Ints,
}

pub struct Sig {
    pub name: &'static str,
    pub builtin: Builtin,
    pub min: usize,
    pub max: usize,
    pub ret: Ret,
    /// Argument position that must be a lambda `|x| ..`, and its parameter count.
    pub lambda: Option<(usize, usize)>,
    pub doc: &'static str,
}

const fn sig(name: &'static str, builtin: Builtin, min: usize, max: usize, ret: Ret, doc: &'static str) -> Sig {
    Sig { name, builtin, min, max, ret, lambda: None, doc }
}

const fn sig_l(name: &'static str, builtin: Builtin, n: usize, ret: Ret, lambda: (usize, usize), doc: &'static str) -> Sig {
    Sig { name, builtin, min: n, max: n, ret, lambda: Some(lambda), doc }
}

pub const BUILTINS: &[Sig] = &[
    sig("count", Builtin::Count, 1, 1, Ret::Int, "number of items in a list or objects in a zone"),
    sig("sum", Builtin::Sum, 1, 1, Ret::Int, "sum of a list of numbers"),
    sig("min", Builtin::Min, 1, 1, Ret::Int, "smallest number in a list (none when empty)"),
    sig("max", Builtin::Max, 1, 1, Ret::Int, "largest number in a list (none when empty)"),
    sig("first", Builtin::First, 1, 1, Ret::Elem, "first item (none when empty)"),
    sig("last", Builtin::Last, 1, 1, Ret::Elem, "last item (none when empty)"),
    sig("top", Builtin::Top, 1, 1, Ret::Elem, "top object of a zone (its first), none when empty"),
    sig("bottom", Builtin::Bottom, 1, 1, Ret::Elem, "bottom object of a zone (its last), none when empty"),
    sig("reverse", Builtin::Reverse, 1, 1, Ret::Same, "the list backwards"),
    sig("distinct", Builtin::Distinct, 1, 1, Ret::Same, "the list without repeats, first occurrences kept"),
    sig("index_of", Builtin::IndexOf, 2, 2, Ret::Int, "position of an item (0-based), -1 when absent"),
    sig("rotate", Builtin::Rotate, 2, 2, Ret::Same, "the list rotated left by n"),
    sig("take", Builtin::Take, 2, 2, Ret::Same, "the first n items"),
    sig("drop", Builtin::Drop, 2, 2, Ret::Same, "all but the first n items"),
    sig("concat", Builtin::Concat, 2, 2, Ret::Same, "two lists joined"),
    sig("without", Builtin::Without, 2, 2, Ret::Same, "the list without an item (or without every item of a list)"),
    sig("count_of", Builtin::CountOf, 2, 2, Ret::Int, "how many times an item occurs"),
    sig_l("sort_by", Builtin::SortBy, 2, Ret::Same, (1, 1), "the list sorted by a key, stable"),
    sig_l("lowest", Builtin::Lowest, 2, Ret::Same, (1, 1), "the items whose key is lowest"),
    sig_l("highest", Builtin::Highest, 2, Ret::Same, (1, 1), "the items whose key is highest"),
    sig("players", Builtin::Players, 0, 0, Ret::Players, "players still in the game, in seat order"),
    sig("all_players", Builtin::AllPlayers, 0, 0, Ret::Players, "every seat, out or not"),
    sig("opponents", Builtin::Opponents, 1, 1, Ret::Players, "the other players still in the game, in turn order after p"),
    sig("next_player", Builtin::NextPlayer, 1, 1, Ret::Player, "the next player still in the game to the left"),
    sig("seat", Builtin::Seat, 1, 1, Ret::Int, "a player's seat number, from 1"),
    sig("player_count", Builtin::PlayerCount, 0, 0, Ret::Int, "how many players are still in the game"),
    sig("is_out", Builtin::IsOut, 1, 1, Ret::Bool, "whether a player has left the game"),
    sig("turn_order", Builtin::TurnOrder, 1, 1, Ret::Players, "players still in the game, starting with p and going left"),
    sig("abilities", Builtin::Abilities, 2, 2, Ret::Abilities, "an object's abilities in a slot, like abilities(c, \"action\")"),
    sig("ability", Builtin::Ability, 2, 2, Ret::Ability, "an object's first ability in a slot, or none"),
    sig(
        "can_use",
        Builtin::CanUse,
        1,
        2,
        Ret::Bool,
        "whether an ability's costs, requirements and targets can be met (by its controller, or by the player given)",
    ),
    sig_l(
        "distinct_match",
        Builtin::DistinctMatch,
        3,
        Ret::Bool,
        (2, 2),
        "whether each requirement can be met by a different item: distinct_match(units, reqs, |u, r| ..)",
    ),
    sig("qty", Builtin::Qty, 1, 1, Ret::Int, "the total of an amount (`3 gold` → 3)"),
    sig("kinds", Builtin::Kinds, 1, 1, Ret::Syms, "the kinds named in an amount"),
    sig("qty_of", Builtin::QtyOf, 2, 2, Ret::Int, "how much of one kind an amount holds"),
    sig("text", Builtin::Text, 1, 1, Ret::Text, "a value as text"),
    sig("decklist", Builtin::Decklist, 2, 2, Ret::Defs, "the definitions in a section of a player's deck list"),
    sig("abs", Builtin::Abs, 1, 1, Ret::Int, "absolute value"),
    sig("clamp", Builtin::Clamp, 3, 3, Ret::Int, "clamp(x, lo, hi)"),
    sig("objects", Builtin::Objects, 1, 1, Ret::Objects, "the objects in a zone as a list"),
    sig("active", Builtin::Active, 1, 1, Ret::Bool, "whether an object's abilities are in effect (in an active zone, not blank)"),
    sig(
        "definitions",
        Builtin::Definitions,
        1,
        1,
        Ret::Defs,
        "every definition of a kind, in the order written, like definitions(\"card\")",
    ),
    sig("range", Builtin::Range, 2, 2, Ret::Ints, "the whole numbers from lo to hi, both included"),
    sig("nth", Builtin::Nth, 2, 2, Ret::Elem, "the item at a position (0-based), none when out of range"),
    sig("flatten", Builtin::Flatten, 1, 1, Ret::Elem, "a list of lists joined into one list"),
    sig("pile", Builtin::Pile, 1, 1, Ret::Objects, "an object followed by every object under it"),
];

pub fn lookup(name: &str) -> Option<&'static Sig> {
    BUILTINS.iter().find(|s| s.name == name)
}
