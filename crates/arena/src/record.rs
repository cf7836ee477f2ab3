//! Game records in GGF, the format NBoard and GGS use, for the games that declare it
//! ([`EngineGame::GGF`]: Othello): sent to NBoard engines with `set game`, and written
//! one per line to the match's output file. Other games are written as a line of fields
//! instead ([`record_line`]).
//!
//! The arena writes GGF itself because its records carry fields a general game record
//! does not (`PC`, `DT`, a forfeit comment `C[...]`); reading GGF back is `othello::ggf`'s.

use std::fmt::Write as _;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::driver::Fault;

use iago_core::engine::{EngineGame, GgfFormat};
use iago_core::game::{Color, Game};

/// One move of a game as the arena records it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RecordedMove<M> {
    pub mv: M,
    /// The mover's evaluation in discs, from the mover's point of view, if it gave one.
    pub eval: Option<f64>,
    /// Wall-clock seconds the mover took (opening moves have none).
    pub seconds: Option<f64>,
}

/// A game in progress or finished.
#[derive(Clone, Debug, PartialEq)]
pub struct ArenaRecord<G: Game> {
    pub start: G,
    pub moves: Vec<RecordedMove<G::Move>>,
    pub black: String,
    pub white: String,
    /// The game's clock per player (`TI`), if it has one.
    pub time_control: Option<Duration>,
    /// The result for Black ([`iago_core::engine::EngineGame::black_result`]); `None`
    /// while the game goes on.
    pub result: Option<i32>,
    /// Why the game ended early, if it did.
    pub comment: Option<String>,
    /// Seconds since the Unix epoch when the game started.
    pub started: u64,
}

impl<G: Game> ArenaRecord<G> {
    pub fn new(start: G, black: &str, white: &str) -> ArenaRecord<G> {
        ArenaRecord {
            start,
            moves: Vec::new(),
            black: black.to_string(),
            white: white.to_string(),
            time_control: None,
            result: None,
            comment: None,
            started: SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
        }
    }

    /// The colour that plays move number `index` (0-based), passes counted as moves.
    pub fn mover_of(&self, index: usize) -> Color {
        let first = self.start.side_to_move();
        if index.is_multiple_of(2) {
            first
        } else {
            first.opponent()
        }
    }
}

impl<G: EngineGame> ArenaRecord<G> {
    /// The record as one line of GGF, written as `ggf` says: `(;GM[Othello]...;)`.
    pub fn to_ggf(&self, ggf: &GgfFormat<G>) -> String {
        let mut text = format!("(;GM[{}]PC[iago match]", ggf.game);
        let _ = write!(text, "DT[{}]", format_utc(self.started));
        let _ = write!(
            text,
            "PB[{}]PW[{}]",
            escape(&self.black),
            escape(&self.white)
        );
        match self.result {
            Some(diff) => {
                let _ = write!(text, "RE[{}]", format_result(diff));
            }
            None => text.push_str("RE[?]"),
        }
        if let Some(clock) = self.time_control {
            let _ = write!(text, "TI[{}]", format_clock(clock));
        }
        let _ = write!(text, "TY[{}]BO[{}]", ggf.kind, (ggf.board)(&self.start));
        for (index, recorded) in self.moves.iter().enumerate() {
            let tag = match self.mover_of(index) {
                Color::Black => 'B',
                Color::White => 'W',
            };
            let _ = write!(text, "{tag}[{}]", format_move(ggf, recorded));
        }
        if let Some(comment) = &self.comment {
            let _ = write!(text, "C[{}]", escape(comment));
        }
        text.push_str(";)");
        text
    }
}

/// Game `number` (from 1) of a match as its output file holds it: GGF for the games
/// that have it, [`record_line`] for the others.
pub fn record_text<G: EngineGame>(
    number: u32,
    record: &ArenaRecord<G>,
    ending: Option<&str>,
    fault: Option<&Fault>,
) -> String {
    match &G::GGF {
        Some(ggf) => record.to_ggf(ggf),
        None => record_line(number, record, ending, fault),
    }
}

/// A game as one line of fields: `game=3 white=a black=b result=1-0 end=blocked
/// opening=2 moves=d6,d5,...`, the result White's first (`1-0`: White won), `end` how
/// it ended, `fault` the forfeit if there was one, `opening` the plies played before
/// the engines took over.
pub fn record_line<G: Game>(
    number: u32,
    record: &ArenaRecord<G>,
    ending: Option<&str>,
    fault: Option<&Fault>,
) -> String {
    let result = match record.result.map(i32::signum) {
        Some(-1) => "1-0",
        Some(1) => "0-1",
        Some(_) => "1/2-1/2",
        None => "*",
    };
    let mut pos = record.start.clone();
    let mut moves = Vec::new();
    for recorded in &record.moves {
        moves.push(pos.format_move(recorded.mv));
        pos = pos.play(recorded.mv);
    }
    let mut line = format!(
        "game={number} white={} black={} result={result}",
        record.white, record.black
    );
    if let Some(ending) = ending {
        let _ = write!(line, " end={}", ending.replace(' ', "-"));
    }
    if let Some(fault) = fault {
        let _ = write!(line, " fault={:?}", fault.to_string());
    }
    let opening_plies = record.moves.iter().filter(|m| m.seconds.is_none()).count();
    let _ = write!(line, " opening={opening_plies} moves={}", moves.join(","));
    line
}

/// A move as GGF and NBoard write it: `F5`, `F5/1.50/0.25`, `PA//0.01`.
pub fn format_move<G: EngineGame>(ggf: &GgfFormat<G>, recorded: &RecordedMove<G::Move>) -> String {
    let mut text = (ggf.write_move)(recorded.mv);
    if recorded.eval.is_some() || recorded.seconds.is_some() {
        text.push('/');
        if let Some(eval) = recorded.eval {
            text.push_str(&format_number(eval, 2));
        }
        if let Some(seconds) = recorded.seconds {
            text.push('/');
            text.push_str(&format_number(seconds, 3));
        }
    }
    text
}

/// A number with a fixed count of decimals: never an exponent, which NBoard cannot read.
fn format_number(value: f64, decimals: usize) -> String {
    if value.is_finite() {
        format!("{value:.decimals$}")
    } else {
        "0".into()
    }
}

/// `+12`, `-4`, `0`: the Black disc difference.
fn format_result(diff: i32) -> String {
    if diff > 0 {
        format!("+{diff}")
    } else {
        diff.to_string()
    }
}

/// `m:ss`, or `h:mm:ss` from an hour on; whole seconds, rounded up.
pub fn format_clock(clock: Duration) -> String {
    let total = clock.as_secs() + u64::from(clock.subsec_nanos() > 0);
    let (hours, minutes, seconds) = (total / 3600, total / 60 % 60, total % 60);
    if hours > 0 {
        format!("{hours}:{minutes:02}:{seconds:02}")
    } else {
        format!("{minutes}:{seconds:02}")
    }
}

/// GGF field values end at `]`; keep free text from closing the field or breaking the line.
fn escape(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            ']' => ')',
            '[' => '(',
            '\\' => '/',
            c if c.is_control() => ' ',
            c => c,
        })
        .collect()
}

/// `YYYY-MM-DD HH:MM:SS GMT` for seconds since the Unix epoch.
fn format_utc(seconds: u64) -> String {
    let days = (seconds / 86_400) as i64;
    let rest = seconds % 86_400;
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02} GMT",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

/// The proleptic Gregorian date of a day count since 1970-01-01.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * month_index + 2) / 5 + 1) as u32;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(format_utc(0), "1970-01-01 00:00:00 GMT");
        assert_eq!(format_utc(951_782_400), "2000-02-29 00:00:00 GMT");
        assert_eq!(format_utc(1_795_359_108), "2026-11-22 14:51:48 GMT");
    }

    #[test]
    fn clocks() {
        assert_eq!(format_clock(Duration::from_secs(300)), "5:00");
        assert_eq!(format_clock(Duration::from_millis(2500)), "0:03");
        assert_eq!(format_clock(Duration::from_secs(3725)), "1:02:05");
    }

    use iago_core::othello::{Move, Position};

    #[test]
    fn a_record_line() {
        let mut record = ArenaRecord::new(Position::start(), "a", "b]x");
        record.started = 0;
        record.time_control = Some(Duration::from_secs(60));
        record.moves.push(RecordedMove {
            mv: "f5".parse().unwrap(),
            eval: None,
            seconds: None,
        });
        record.moves.push(RecordedMove {
            mv: "d6".parse().unwrap(),
            eval: Some(-0.5),
            seconds: Some(0.0125),
        });
        record.moves.push(RecordedMove {
            mv: Move::PASS,
            eval: None,
            seconds: Some(1.0),
        });
        record.result = Some(-64);
        record.comment = Some("black forfeits: illegal move a1".into());
        assert_eq!(
            record.to_ggf(&Position::GGF.unwrap()),
            "(;GM[Othello]PC[iago match]DT[1970-01-01 00:00:00 GMT]PB[a]PW[b)x]RE[-64]TI[1:00]\
             TY[8]BO[8 ---------------------------O*------*O--------------------------- *]\
             B[F5]W[D6/-0.50/0.013]B[PA//1.000]C[black forfeits: illegal move a1];)"
        );
    }
}
