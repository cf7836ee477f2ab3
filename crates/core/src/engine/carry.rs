//! The settings the engine keeps per game, and what it carries over a switch to another
//! game (GTP's `set_game`), so that a session switching games keeps what it was told.

use std::sync::Arc;

use crate::games::GameEntry;
use crate::options::Settings;
use crate::search::time::TimeControl;

use super::{Engine, EngineGame};

/// What a session keeps across a switch of game: the settings (depth, limits, hash,
/// threads, seed), the time control, and per game its rules and evaluator (a game not
/// played yet takes the last evaluator named where it has one of that name, else its
/// default).
#[derive(Clone, Debug)]
pub struct Carry {
    settings: Settings,
    time_control: TimeControl,
    /// What each game played so far had, by [`GameEntry::id`].
    games: Vec<(&'static str, GameSettings)>,
}

/// The settings that belong to one game.
#[derive(Clone, Debug, Default)]
pub(super) struct GameSettings {
    /// The rule settings so far (the game's words, see [`EngineGame::with_rules`]),
    /// applied to every new game.
    pub(super) rules: String,
    eval: Option<String>,
}

impl Carry {
    /// A session's start: the command line's settings.
    pub fn new(settings: Settings) -> Carry {
        Carry {
            settings,
            time_control: TimeControl::default(),
            games: Vec::new(),
        }
    }
}

impl<G: EngineGame> Engine<G> {
    /// An engine for `game` that starts where `carry` leaves off: the command line's
    /// settings, or another game's engine ([`Engine::carry`]).
    pub fn resume(
        game: &'static GameEntry,
        carry: Carry,
        wake: Arc<dyn Fn() + Send + Sync>,
    ) -> Result<Engine<G>, String> {
        let Carry {
            mut settings,
            time_control,
            games,
        } = carry;
        let (mine, other_games): (Vec<_>, Vec<_>) =
            games.into_iter().partition(|(id, _)| *id == game.id);
        let mine = mine.into_iter().next().map(|(_, mine)| mine);
        if let Some(GameSettings { eval, .. }) = &mine {
            settings.eval = eval.clone();
        } else if let Some(name) = &settings.eval
            && G::evaluator(name).is_err()
        {
            log::info!("{}: no evaluator {name:?}, using its default", game.name);
            settings.eval = None;
        }
        let mut engine = Engine::new(settings, wake)?;
        engine.time_control = time_control;
        engine.game_settings = mine.unwrap_or_default();
        engine.other_games = other_games;
        Ok(engine)
    }

    /// What the engine of the next game keeps of this one, `game`.
    pub fn carry(&self, game: &GameEntry) -> Carry {
        let settings = self.settings().clone();
        let mut games = self.other_games.clone();
        games.push((
            game.id,
            GameSettings {
                rules: self.game_settings.rules.clone(),
                eval: settings.eval.clone(),
            },
        ));
        Carry {
            settings,
            time_control: self.time_control,
            games,
        }
    }

    /// Adds the rule settings `text` to the game's (the game's own words, see
    /// protocol.md) and starts a new game under them; rules the game cannot read change
    /// nothing.
    pub fn set_rules(&mut self, text: &str) -> Result<(), String> {
        let rules = format!("{} {text}", self.game_settings.rules);
        let start = G::start().with_rules(&rules)?;
        self.game_settings.rules = rules.trim().to_string();
        self.start_game(start);
        Ok(())
    }

    /// `pos` under the game's rules (checked when they were set).
    pub(super) fn with_rules(&self, pos: G) -> G {
        let rules = &self.game_settings.rules;
        if rules.is_empty() {
            return pos;
        }
        pos.with_rules(rules).unwrap_or_else(|error| {
            log::warn!("rules {rules:?} no longer apply: {error}");
            G::start()
        })
    }
}
