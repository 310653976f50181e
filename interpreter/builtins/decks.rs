// Deck lists: what a player brought to the game. How a builtin is added: README.md in this
// folder.

builtins! {
    /// the definitions in a section of a player's deck list
    Decklist decklist(2) -> Defs |call| {
        let p = call.player(0)?;
        let section = call.text(1, "a section name in quotes")?;
        let defs = call.state.decklists.get(p as usize).and_then(|d| d.get(section.as_ref())).cloned().unwrap_or_default();
        Value::list(defs.into_iter().map(Value::Def).collect())
    }
}
