// Players: who is still in the game, seats and turn order, and what a player may know. How a
// builtin is added: README.md in this folder.

builtins! {
    /// players still in the game, in seat order
    Players players(0) -> Players |call| {
        call.seats_list(None, || players_value(call.state.active_seats()))
    }

    /// every seat, out or not
    AllPlayers all_players(0) -> Players |call| {
        players_value((0..call.state.player_count()).map(|i| Seat::try_from(i).unwrap_or(0)).collect())
    }

    /// the other players still in the game, in turn order after p
    Opponents opponents(1) -> Players |call| {
        let p = call.player(0)?;
        call.seats_list(Some(p), || players_value(call.turn_order(p).into_iter().filter(|x| *x != p).collect()))
    }

    /// the next player still in the game to the left
    NextPlayer next_player(1) -> Player |call| {
        let p = call.player(0)?;
        call.next_active(p).map(Value::Player).unwrap_or_default()
    }

    /// a player's seat number, from 1
    Seat seat(1) -> Int |call| {
        Value::Int(i64::from(call.player(0)?) + 1)
    }

    /// how many players are still in the game
    PlayerCount player_count(0) -> Int |call| {
        Value::Int(call.state.active_seats().len() as i64)
    }

    /// whether a player has left the game
    IsOut is_out(1) -> Bool |call| {
        Value::Bool(call.state.players.get(call.player(0)? as usize).is_none_or(|p| p.out))
    }

    /// whether player p may know which object o is (none as p: everyone's view, true)
    Knows knows(2) -> Bool |call| {
        let Value::Obj(o) = call.arg(1) else { return Err(call.expected(1, "an object")) };
        match call.arg(0) {
            Value::None => Value::Bool(true),
            Value::Player(p) => Value::Bool(call.knows(o, p)),
            _ => return Err(call.expected(0, "a player or none")),
        }
    }

    /// players still in the game, starting with p and going left
    TurnOrder turn_order(1) -> Players |call| {
        players_value(call.turn_order(call.player(0)?))
    }

    fn players_value(seats: Vec<Seat>) -> Value {
        Value::list(seats.into_iter().map(Value::Player).collect())
    }
}
