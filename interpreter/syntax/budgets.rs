//! Every budget in one place: the limits that stop a runaway rule or an oversized file with a
//! spanned error instead of a hang or a crash. Each is checked where the work happens (the
//! parser, the evaluator, the engine), and each error names its budget and says how to mend the
//! rule.

// ---------------------------------------------------------------------------------------------
// Reading files

/// The largest source file accepted.
pub const FILE_LIMIT: usize = 1 << 20;
/// How deeply brackets may nest in a source file.
pub const NESTING_LIMIT: usize = 96;
/// How deeply one expression may nest (operators, `if`, quantifiers, lists, calls).
pub const EXPR_NESTING: u32 = 64;

// ---------------------------------------------------------------------------------------------
// Evaluating one expression

/// How deep function calls and field reads may nest before a rule is stopped.
pub const DEPTH_BUDGET: u32 = 200;
/// The longest list an expression may build.
pub const SIZE_BUDGET: usize = 100_000;
/// How many steps one evaluation may take before the rule is stopped.
pub const EVAL_BUDGET: u64 = 5_000_000;
/// How deeply lists may nest inside lists.
pub const NEST_BUDGET: u32 = 100;
/// The longest text a rule may build, in bytes.
pub const TEXT_BUDGET: usize = 1 << 20;
/// Item and requirement pairs one `distinct_match` may weigh.
pub const MATCH_BUDGET: usize = 1_000_000;
/// Bytes of texts and lists the rules may build between two decisions (a list item counts as
/// the size of a value). Counted where they are built, so that it costs an addition.
pub const MEMORY_BUDGET: u64 = 256 << 20;

/// Rules pest may enter while parsing one file. Real files need about five a byte (the whole
/// repository: 9 million for 1.9 MB); a few nested brackets that each admit two readings
/// (`[x in [x in ..]]`, `if(if(..))`) make it try every combination, which never ends in
/// practice: this stops it with an error, within about a second.
pub const PARSE_CALLS: usize = 30_000_000;

/// Variants one game may declare, all its files together: each is compiled and checked with the
/// whole game on its own (`arbiter check`), so that thousands took minutes.
pub const VARIANT_LIMIT: usize = 256;

/// Comparisons of letters the did-you-mean helps of one compile may make (each help compares the
/// mistaken name with the names it might have meant): past it, mistakes get no such help.
pub const SUGGESTION_BUDGET: u64 = 50_000_000;

/// Cards one deck list may hold, all its lines together (a line `1000000000 "Some Card"` was
/// expanded into memory card by card).
pub const DECK_LIMIT: u64 = 10_000;

/// The stack a file is parsed on: enough for the largest file accepted (`FILE_LIMIT`), its
/// operators chained without brackets. Reserved, not used unless needed.
pub const PARSE_STACK: usize = 256 << 20;

// ---------------------------------------------------------------------------------------------
// Running the game

/// Statements one advance may execute before the rule is stopped.
pub const STEP_BUDGET: u64 = 2_000_000;
/// Frames that may be open at once.
pub const FRAME_BUDGET: usize = 400;
/// Turns a game may last.
pub const TURN_BUDGET: u32 = 2_000;
/// Evaluation steps (expressions evaluated, list items walked by builtins) between two decisions.
pub const WORK_BUDGET: u64 = 20_000_000;
/// Objects a game may hold (every object ever created, wherever it is now).
pub const OBJECT_BUDGET: usize = 20_000;
/// Bytes a game's event log may hold and keep alive, about (`Event::weight`: a fixed weight an
/// event, its texts, and the items of its values' lists with their texts, each list and long text
/// once an event; a field's change keeps the old value and the new for as long as the game
/// lasts), or what its values show when that is more (up to `SHOWN_LIMIT` a value), so that
/// `--log` prints about this much at most. A whole game of the rulebooks here logs under 1 MiB.
pub const LOG_BUDGET: u64 = 64 << 20;

// ---------------------------------------------------------------------------------------------
// Showing the game (what the engine makes to show, not what the rules build)

/// The most bytes of one value the table shows (a field, a value in an event): past it, the
/// value is cut and ends in `…`. A list holding one text of a megabyte a thousand times costs the
/// rules little, but shown whole it is a gigabyte.
pub const SHOWN_LIMIT: usize = 16 << 10;
/// The most bytes one view of the table shows (`arbiter play --view`, `state` at the terminal, a
/// seat's view on the web table): its values and objects together. Past it, what is left shows as
/// `…`. The rulebooks' largest view is about 30 KB.
pub const VIEW_LIMIT: usize = 1 << 20;
/// The largest save file written (`play --save`, `save`, the web table's Save): the rulebooks'
/// saves are under 1 MiB. A list holding one long text many times is small in memory, but a save
/// writes it out whole (a 400-byte house file made a 601 MB save at every decision).
pub const SAVE_LIMIT: usize = 64 << 20;
/// The largest picture of the table drawn (`picture` as SVG, `text_picture` as text), in bytes,
/// about (it stops after the drawing or line that passes it). The rulebooks' largest is 34 KB.
pub const PICTURE_LIMIT: usize = 4 << 20;
/// The most bytes of pictures `play --svg` writes for one game (a picture a turn): past it, no
/// more are written and the game goes on (`PICTURE_LIMIT` a turn for `TURN_BUDGET` turns was 8
/// GB of disk). The rulebooks' largest picture, 34 KB, fits 1,900 times.
pub const PICTURES_WRITTEN_LIMIT: usize = 64 << 20;

// ---------------------------------------------------------------------------------------------
// The web table's bots (`arbiter serve`)

/// The most playouts a web table's search bot may be asked for (`mcts:PLAYOUTS`); a table asking
/// for more is refused (422).
pub const WEB_PLAYOUTS: u32 = 5_000;
/// The deepest a web table's search bot may be asked to play out (`mcts:PLAYOUTS:DEPTH`).
pub const WEB_DEPTH: u32 = 200;
/// How long a web table's bot thinks about one decision at most, unless `--think` says less: it
/// answers then with the best it has found.
pub const WEB_THINK: std::time::Duration = std::time::Duration::from_secs(10);
/// How long a web table's bots go on thinking when no seat asks about the table (its players
/// have left), unless `--bot-idle` says otherwise; they think again when a seat comes back.
pub const WEB_IDLE: std::time::Duration = std::time::Duration::from_secs(20);
/// How long the quick bots (`random`, `greedy`) play on in the request that let them move before
/// the rest of their moves goes to the bots' own threads.
pub const WEB_INLINE: std::time::Duration = std::time::Duration::from_millis(250);
/// The largest request body taken (an answer, a new game).
pub const WEB_BODY_LIMIT: usize = 64 * 1024;
/// How many games one server keeps at once.
pub const WEB_TABLES_KEPT: usize = 64;
/// How many secrets one request may carry.
pub const WEB_SECRETS_SENT: usize = 64;
/// How many saves the saves folder may hold before a server writes no more (a server on the
/// network could otherwise be made to fill a disk).
pub const WEB_SAVES_KEPT: usize = 1000;
/// How many replays one server keeps.
pub const WEB_REPLAYS_KEPT: usize = 64;
/// How many of the newest events a seat is sent.
pub const WEB_EVENTS_SENT: usize = 300;

// ---------------------------------------------------------------------------------------------
// The search bot (`mcts`)

/// How long a searching bot of `arbiter play` thinks about one decision at most, unless `--think`
/// says otherwise: it answers then with the best it has found (a rule that works near the step
/// budget at every decision made a game take hours). `sim` has no such limit unless asked, so
/// that a seed plays the same on any machine.
pub const PLAY_THINK: std::time::Duration = std::time::Duration::from_secs(10);

/// The deepest a playout goes down the tree before playing on at random.
pub const SEARCH_TREE_DEPTH: usize = 64;
/// A playout without hints plays on to the end, but no further than this many decisions.
pub const PLAYOUT_DECISIONS: u32 = 5_000;

// ---------------------------------------------------------------------------------------------
// Checking

/// Function calls followed into before giving up (the fact then reads everything).
pub const READS_CALL_DEPTH: u32 = 8;
