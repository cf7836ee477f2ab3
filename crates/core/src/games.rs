//! The games the engine plays, one line each: adding a game is its module (the rules as a
//! [`Game`](crate::game::Game), the plan it is searched with, and what the engine needs
//! of it as an [`EngineGame`]) and its line in the registry at the end of this file.
//! Everything that serves more than one game (the protocols' `--game` and GTP's
//! `set_game`, the match runner, perft) finds the game here by its name and is handed
//! its type through a [`GameVisitor`].

use crate::engine::EngineGame;

/// What the registry knows of a game besides its type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameEntry {
    /// The name of `--game` (`othello`), lower case.
    pub id: &'static str,
    /// The name GTP's `list_games` and `set_game` and GoGui use (`Othello`).
    pub name: &'static str,
    /// The only size GTP's `boardsize` accepts; the board GoGui draws for a game whose
    /// moves are points ([`EngineGame::GOGUI_GRID`]).
    pub board_size: u32,
}

/// Something done with a game whose type is chosen at run time by its name.
pub trait GameVisitor {
    type Output;
    fn visit<G: EngineGame>(self, game: &'static GameEntry) -> Self::Output;
}

/// The entry of the game called `name`: its id or its GTP name, in any case.
pub fn find(name: &str) -> Option<&'static GameEntry> {
    GAMES
        .iter()
        .find(|game| game.id.eq_ignore_ascii_case(name) || game.name.eq_ignore_ascii_case(name))
}

/// The ids of the games, for messages: `othello, mill`.
pub fn ids() -> String {
    GAMES
        .iter()
        .map(|game| game.id)
        .collect::<Vec<_>>()
        .join(", ")
}

/// An error naming the games there are, for an unknown `name`.
pub fn unknown(name: &str) -> String {
    format!(
        "unknown game {:?} (one of: {})",
        crate::text::shorten(name, 40),
        ids()
    )
}

/// The registry: each line a game's type and its entry. [`GAMES`] lists the entries in
/// order (the first is the default game); [`visit`] calls a visitor with the type of the
/// game of an id.
macro_rules! registry {
    ($($game:ty => $entry:expr;)+) => {
        /// Every game, the default (`--game` not given) first.
        pub const GAMES: &[GameEntry] = &[$($entry),+];

        /// Calls `visitor` with the game whose id is `id`; `None` for no such game.
        pub fn visit<V: GameVisitor>(id: &str, visitor: V) -> Option<V::Output> {
            let mut index = 0;
            $(
                if GAMES[index].id == id {
                    return Some(visitor.visit::<$game>(&GAMES[index]));
                }
                index += 1;
            )+
            let _ = index;
            None
        }
    };
}

registry! {
    crate::othello::Position => GameEntry { id: "othello", name: "Othello", board_size: 8 };
    crate::mill::MillPosition => GameEntry { id: "mill", name: "Mill", board_size: 7 };
    crate::tictactoe::TicTacToe => GameEntry { id: "tictactoe", name: "TicTacToe", board_size: 3 };
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Name;

    impl GameVisitor for Name {
        type Output = &'static str;
        fn visit<G: EngineGame>(self, game: &'static GameEntry) -> &'static str {
            game.name
        }
    }

    #[test]
    fn games_are_found_by_id_or_name_and_visited_by_id() {
        assert_eq!(find("OTHELLO").map(|game| game.id), Some("othello"));
        assert_eq!(find("Mill").map(|game| game.id), Some("mill"));
        assert_eq!(find("go"), None);
        assert_eq!(visit("mill", Name), Some("Mill"));
        assert_eq!(visit("Mill", Name), None);
        assert!(GAMES.iter().all(|game| game.id == game.id.to_lowercase()));
        assert!(unknown("go").contains("othello, mill, tictactoe"));
    }
}
