//! GGF game records as NBoard sends them with `set game`:
//! `(;GM[Othello]PB[..]PW[..]RE[?]TI[5:00]TY[8]BO[8 <64 squares> <side>]B[d3//0.01]W[c3/3.00/0.01];)`.
//!
//! Fields may come in any order; fields other than `BO`, `B`, `W`, `TI`, `PB`, `PW` and `RE`
//! are skipped. Moves are checked against the rules while reading, so a record that parses
//! is a legal game. A move by the colour not to move, when the side to move has no move, is
//! read as a pass followed by that move (some writers leave passes out).

use std::fmt::Write as _;
use std::time::Duration;

use nom::IResult;
use nom::Parser;
use nom::bytes::complete::{tag, take_while1};
use nom::character::complete::multispace0;
use nom::multi::many0;
use nom::sequence::{delimited, preceded};

use super::notation::{FormatError, format_position, parse_position};
use super::{Move, Position};
use crate::game::{Color, Game};

/// One move of a record, with what its player said about it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GgfMove {
    pub color: Color,
    pub mv: Move,
    /// The mover's evaluation in discs, if recorded.
    pub eval: Option<f64>,
    /// Seconds the mover used, if recorded.
    pub seconds: Option<f64>,
}

/// The game's time control per player (`TI[main/increment/grace]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub main: Duration,
    pub increment: Duration,
    pub grace: Duration,
}

/// A game record.
#[derive(Clone, Debug, PartialEq)]
pub struct GgfGame {
    pub start: Position,
    /// The moves as recorded, passes included where the record has them.
    pub moves: Vec<GgfMove>,
    pub time: Option<TimeControl>,
    pub black: Option<String>,
    pub white: Option<String>,
    /// `RE[...]` as written (`?` while unfinished).
    pub result: Option<String>,
}

impl GgfGame {
    /// A game from the standard start, no moves yet.
    pub fn new(start: Position) -> GgfGame {
        GgfGame {
            start,
            moves: Vec::new(),
            time: None,
            black: None,
            white: None,
            result: None,
        }
    }

    /// The moves with every pass explicit, in the order they were played.
    pub fn played_moves(&self) -> Vec<Move> {
        let mut pos = self.start;
        let mut moves = Vec::with_capacity(self.moves.len());
        for m in &self.moves {
            if m.color != pos.side && !m.mv.is_pass() {
                moves.push(Move::PASS);
                pos = pos.pass();
            }
            moves.push(m.mv);
            pos = pos.play(m.mv);
        }
        moves
    }

    /// How many of [`GgfGame::played_moves`] lead up to the first move with a time, when
    /// later moves have one and the first ones none: the opening a match played for its
    /// players (`iago match` records opening moves without a time), not their moves. 0
    /// where no move has a time, or the first one has.
    pub fn untimed_opening(&self) -> usize {
        let Some(first_timed) = self.moves.iter().position(|m| m.seconds.is_some()) else {
            return 0;
        };
        let opening = GgfGame {
            moves: self.moves[..first_timed].to_vec(),
            ..self.clone()
        };
        opening.played_moves().len()
    }

    /// The position after all moves.
    pub fn final_position(&self) -> Position {
        self.played_moves()
            .iter()
            .fold(self.start, |pos, &mv| pos.play(mv))
    }

    /// Seconds recorded for `color`'s moves.
    pub fn seconds_used(&self, color: Color) -> f64 {
        self.moves
            .iter()
            .filter(|m| m.color == color)
            .filter_map(|m| m.seconds)
            .sum()
    }

    /// The record as one line.
    pub fn to_ggf(&self) -> String {
        let mut text = String::from("(;GM[Othello]");
        if let Some(name) = &self.black {
            let _ = write!(text, "PB[{}]", escape(name));
        }
        if let Some(name) = &self.white {
            let _ = write!(text, "PW[{}]", escape(name));
        }
        if let Some(result) = &self.result {
            let _ = write!(text, "RE[{}]", escape(result));
        }
        if let Some(time) = &self.time {
            let _ = write!(text, "TI[{}", format_clock(time.main));
            if !time.increment.is_zero() || !time.grace.is_zero() {
                let _ = write!(
                    text,
                    "/{}/{}",
                    format_clock(time.increment),
                    format_clock(time.grace)
                );
            }
            text.push(']');
        }
        let board = format_position(&self.start);
        let (squares, side) = board.split_at(64);
        let to_ggf = |c: char| match c {
            'X' => '*',
            'O' => 'O',
            _ => '-',
        };
        let squares: String = squares.chars().map(to_ggf).collect();
        let side = to_ggf(side.trim().chars().next().unwrap_or('X'));
        let _ = write!(text, "TY[8]BO[8 {squares} {side}]");
        for m in &self.moves {
            let letter = match m.color {
                Color::Black => 'B',
                Color::White => 'W',
            };
            let _ = write!(text, "{letter}[{}", m.mv.to_upper());
            if m.eval.is_some() || m.seconds.is_some() {
                text.push('/');
                if let Some(eval) = m.eval {
                    let _ = write!(text, "{eval}");
                }
                if let Some(seconds) = m.seconds {
                    let _ = write!(text, "/{seconds}");
                }
            }
            text.push(']');
        }
        text.push_str(";)");
        text
    }
}

fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

/// `h:mm:ss`, `m:ss` or `s`, whichever is shortest for the value (whole seconds).
fn format_clock(duration: Duration) -> String {
    let total = duration.as_secs();
    let (hours, minutes, seconds) = (total / 3600, total / 60 % 60, total % 60);
    if hours > 0 {
        format!("{hours}:{minutes:02}:{seconds:02}")
    } else {
        format!("{minutes}:{seconds:02}")
    }
}

/// One `KEY[value]` field, the value unescaped.
fn field(input: &str) -> IResult<&str, (&str, String)> {
    let (input, key) =
        preceded(multispace0, take_while1(|c: char| c.is_ascii_alphabetic())).parse(input)?;
    let (input, _) = tag("[").parse(input)?;
    let (input, value) = value(input)?;
    let (input, _) = tag("]").parse(input)?;
    Ok((input, (key, value)))
}

/// A field value up to the first `]` not escaped by a backslash.
fn value(input: &str) -> IResult<&str, String> {
    let mut out = String::new();
    let mut chars = input.char_indices();
    while let Some((index, c)) = chars.next() {
        match c {
            ']' => return Ok((&input[index..], out)),
            '\\' => match chars.next() {
                Some((_, escaped)) => out.push(escaped),
                None => break,
            },
            _ => out.push(c),
        }
    }
    Err(nom::Err::Error(nom::error::Error::new(
        input,
        nom::error::ErrorKind::TakeUntil,
    )))
}

/// The whole record: `(;` fields `;)`.
fn record(input: &str) -> IResult<&str, Vec<(&str, String)>> {
    delimited(
        (multispace0, tag("("), multispace0, tag(";")),
        many0(field),
        (multispace0, tag(";"), multispace0, tag(")"), multispace0),
    )
    .parse(input)
}

/// The GGF records of a text that holds one or more (`iago match --out` writes one a
/// line), each with the line it starts on; anything but white space between them is an
/// error. Each record is read later, with [`parse_ggf`].
pub fn split_records(text: &str) -> Result<Vec<(usize, String)>, FormatError> {
    let mut records = Vec::new();
    let mut line = 1;
    let mut rest = text;
    loop {
        let trimmed = rest.trim_start();
        line += rest[..rest.len() - trimmed.len()].matches('\n').count();
        if trimmed.is_empty() {
            return Ok(records);
        }
        match record(trimmed) {
            Ok((after, _)) => {
                let consumed = &trimmed[..trimmed.len() - after.len()];
                records.push((line, consumed.trim().to_string()));
                line += consumed.matches('\n').count();
                rest = after;
            }
            Err(_) => {
                // The record's own error, from the full parser.
                let cut = trimmed.find(";)").map_or(trimmed.len(), |end| end + 2);
                let error = parse_ggf(&trimmed[..cut])
                    .err()
                    .unwrap_or_else(|| FormatError::new("GGF: expected a record `(;...;)`"));
                // The first record is often the only one: its error needs no number.
                if records.is_empty() {
                    return Err(error);
                }
                return Err(error.context(format!("record {} (line {line})", records.len() + 1)));
            }
        }
    }
}

/// Reads one GGF game record (see the module documentation).
pub fn parse_ggf(text: &str) -> Result<GgfGame, FormatError> {
    let fields = match record(text) {
        Ok(("", fields)) => fields,
        Ok((rest, _)) => {
            return Err(FormatError::new(format!(
                "GGF: unexpected text after the record: {:?}",
                shorten(rest)
            )));
        }
        Err(nom::Err::Error(e) | nom::Err::Failure(e)) => {
            return Err(FormatError::new(format!(
                "GGF: expected `(;`, `KEY[value]` fields and `;)`, stuck at {:?}",
                shorten(e.input)
            )));
        }
        Err(nom::Err::Incomplete(_)) => return Err(FormatError::new("GGF: record cut short")),
    };
    let mut game = GgfGame::new(Position::start());
    let mut raw_moves: Vec<(Color, String)> = Vec::new();
    let mut board_seen = false;
    for (key, value) in fields {
        match key {
            "BO" => {
                game.start = parse_board(&value)?;
                board_seen = true;
            }
            "B" => raw_moves.push((Color::Black, value)),
            "W" => raw_moves.push((Color::White, value)),
            "TI" => game.time = Some(parse_time_control(&value)?),
            "PB" => game.black = Some(value),
            "PW" => game.white = Some(value),
            "RE" => game.result = Some(value),
            "GM" if !value.eq_ignore_ascii_case("othello") => {
                return Err(FormatError::new(format!(
                    "GGF: game {value:?} is not Othello"
                )));
            }
            _ => {}
        }
    }
    if !board_seen {
        log::debug!("GGF record without BO[]: assuming the standard start");
    }
    let mut pos = game.start;
    for (index, (color, text)) in raw_moves.iter().enumerate() {
        let number = index + 1;
        let m = parse_move_field(*color, text).map_err(|e| e.context(format!("move {number}")))?;
        if m.color != pos.side && !m.mv.is_pass() {
            if pos.has_no_move() && !pos.pass().has_no_move() {
                pos = pos.pass();
            } else {
                return Err(FormatError::new(format!(
                    "GGF: move {number} ({}) is played by {} but {} is to move",
                    m.mv, m.color, pos.side
                )));
            }
        }
        if m.color != pos.side {
            return Err(FormatError::new(format!(
                "GGF: move {number} is a pass by {} but {} is to move",
                m.color, pos.side
            )));
        }
        pos = pos
            .try_play(m.mv)
            .ok_or_else(|| FormatError::new(format!("GGF: move {number} ({}) is illegal", m.mv)))?;
        game.moves.push(m);
    }
    Ok(game)
}

/// `BO[8 <64 squares> <side>]`.
fn parse_board(value: &str) -> Result<Position, FormatError> {
    let value = value.trim();
    let rest = value
        .strip_prefix('8')
        .filter(|rest| rest.starts_with(char::is_whitespace))
        .ok_or_else(|| {
            FormatError::new(format!("GGF: BO[{}] is not an 8x8 board", shorten(value)))
        })?;
    parse_position(rest).map_err(|e| e.context("GGF: BO"))
}

/// `mv[/eval[/time]]`; an eval pair `v1,v2` keeps its first value.
fn parse_move_field(color: Color, text: &str) -> Result<GgfMove, FormatError> {
    let mut parts = text.split('/');
    let mv: Move = parts.next().unwrap_or("").trim().parse()?;
    let eval = match parts.next().map(str::trim) {
        None | Some("") => None,
        Some(eval) => Some(parse_number(eval.split(',').next().unwrap_or(""))?),
    };
    let seconds = match parts.next().map(str::trim) {
        None | Some("") => None,
        Some(time) => Some(parse_seconds(time)?),
    };
    Ok(GgfMove {
        color,
        mv,
        eval,
        seconds,
    })
}

/// A plain decimal number (no exponent, no `inf`/`nan`).
fn parse_number(text: &str) -> Result<f64, FormatError> {
    let text = text.trim();
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    let plain = !digits.is_empty()
        && digits.chars().all(|c| c.is_ascii_digit() || c == '.')
        && digits.chars().filter(|&c| c == '.').count() <= 1
        && digits.chars().any(|c| c.is_ascii_digit());
    match text.parse::<f64>() {
        Ok(value) if plain && value.is_finite() => Ok(value),
        _ => Err(FormatError::new(format!(
            "not a number: {:?}",
            shorten(text)
        ))),
    }
}

/// Seconds as a number or a clock (`m:ss`, `h:mm:ss`).
fn parse_seconds(text: &str) -> Result<f64, FormatError> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(0.0);
    }
    let mut total = 0.0;
    let parts: Vec<&str> = text.split(':').collect();
    if parts.len() > 3 {
        return Err(FormatError::new(format!("not a time: {:?}", shorten(text))));
    }
    for part in parts {
        let value = parse_number(part)?;
        // `-0:05` is negative although its first part, -0, is not below zero.
        if value < 0.0 || part.trim_start().starts_with('-') {
            return Err(FormatError::new(format!(
                "negative time: {:?}",
                shorten(text)
            )));
        }
        total = total * 60.0 + value;
    }
    if total > 1e9 {
        return Err(FormatError::new(format!(
            "time too large: {:?}",
            shorten(text)
        )));
    }
    Ok(total)
}

/// `TI[main[/increment[/grace]]]`, each a time; an empty part is zero (`05:00//02:00`).
fn parse_time_control(value: &str) -> Result<TimeControl, FormatError> {
    let mut parts = value.split('/').map(|part| part.trim().to_string());
    let mut next = || -> Result<Duration, FormatError> {
        match parts.next() {
            None => Ok(Duration::ZERO),
            Some(part) => parse_seconds(&part)
                .map(Duration::from_secs_f64)
                .map_err(|e| e.context("GGF: TI")),
        }
    };
    Ok(TimeControl {
        main: next()?,
        increment: next()?,
        grace: next()?,
    })
}

fn shorten(text: &str) -> String {
    crate::text::shorten(text, 40)
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "8 ---------------------------O*------*O--------------------------- *";

    #[test]
    fn reads_what_nboard_sends() {
        let text = format!(
            "(;GM[Othello]PC[NBoard]DT[2026-11-22 10:31:48 GMT]PB[root]PW[iago]RE[?]TI[5:00]TY[8]BO[{START}]B[d3//0.01]W[C3/3.00/0.01];)"
        );
        let game = parse_ggf(&text).unwrap();
        assert_eq!(game.start, Position::start());
        assert_eq!(game.black.as_deref(), Some("root"));
        assert_eq!(game.white.as_deref(), Some("iago"));
        assert_eq!(game.result.as_deref(), Some("?"));
        assert_eq!(game.time.unwrap().main, Duration::from_secs(300));
        assert_eq!(game.moves.len(), 2);
        assert_eq!(game.moves[0].mv, "d3".parse().unwrap());
        assert_eq!(game.moves[0].eval, None);
        assert_eq!(game.moves[0].seconds, Some(0.01));
        assert_eq!(game.moves[1].color, Color::White);
        assert_eq!(game.moves[1].eval, Some(3.0));
        assert!((game.seconds_used(Color::White) - 0.01).abs() < 1e-12);
    }

    #[test]
    fn white_to_move_start_and_explicit_and_implicit_passes() {
        let white_start = "(;GM[Othello]BO[8 *------------------O-------O*------*O--------------------------- O]W[E3//8.949]B[F5//3.12];)";
        let game = parse_ggf(white_start).unwrap();
        assert_eq!(game.start.side, Color::White);
        assert_eq!(game.moves.len(), 2);
        // Black has no move here: an explicit pass, and the same game without it.
        let board = "8 OOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOO*-- *";
        let pos = parse_position(&board[2..]).unwrap();
        assert!(pos.has_no_move() && !pos.pass().has_no_move());
        let explicit = parse_ggf(&format!("(;BO[{board}]B[PA]W[G8];)")).unwrap();
        let implicit = parse_ggf(&format!("(;BO[{board}]W[G8];)")).unwrap();
        assert_eq!(explicit.played_moves(), implicit.played_moves());
        assert_eq!(explicit.final_position(), implicit.final_position());
    }

    #[test]
    fn fields_in_any_order_unknown_fields_ignored() {
        let text = format!("(;B[f5]ZZ[what\\]ever]BO[{START}]KM[0]TI[1:00:00/5/0]W[f6];)");
        let game = parse_ggf(&text).unwrap();
        assert_eq!(game.moves.len(), 2);
        let time = game.time.unwrap();
        assert_eq!(time.main, Duration::from_secs(3600));
        assert_eq!(time.increment, Duration::from_secs(5));
    }

    #[test]
    fn round_trip() {
        let texts = [
            format!("(;GM[Othello]PB[a]PW[b]RE[?]TI[5:00]TY[8]BO[{START}]B[D3//0.01]W[C3/3/0.25]B[C4];)"),
            format!("(;GM[Othello]PB[x\\]y]TY[8]BO[{START}];)"),
            "(;GM[Othello]TI[1:00:00/0:05/0:00]TY[8]BO[8 *------------------O-------O*------*O--------------------------- O]W[E3/-8.949];)".to_string(),
        ];
        for text in texts {
            let game = parse_ggf(&text).unwrap();
            let written = game.to_ggf();
            assert_eq!(parse_ggf(&written).unwrap(), game, "{written}");
            assert_eq!(parse_ggf(&written).unwrap().to_ggf(), written);
        }
    }

    #[test]
    fn bad_records_are_errors() {
        let bad = [
            String::new(),
            "(;".into(),
            "(;GM[Othello];".into(),
            "(;GM[Othello]BO[8 ---];)".into(),
            "(;GM[Chess];)".into(),
            format!("(;BO[{START}]B[a1];)"),
            format!("(;BO[{START}]W[d3];)"),
            format!("(;BO[{START}]B[PA];)"),
            format!("(;BO[{START}]B[z9];)"),
            format!("(;BO[{START}]B[d3/1e5];)"),
            format!("(;BO[{START}]B[d3/1/inf];)"),
            format!("(;BO[{START}]TI[abc];)"),
            format!("(;BO[{START}]TI[-0:01];)"),
            format!("(;BO[{START}]TI[5:00/-0:05];)"),
            format!("(;BO[{START}]B[d3//-0:01];)"),
            format!("(;BO[10 {}];)", &START[2..]),
            format!("(;BO[{START}]B[d3;)"),
            format!("(;BO[{START}];) trailing"),
        ];
        for text in bad {
            assert!(parse_ggf(&text).is_err(), "{text:?}");
        }
    }

    #[test]
    fn records_are_split_where_they_end() {
        let one = format!("(;GM[Othello]BO[{START}]B[d3];)");
        let text = format!("{one}\n(;GM[Othello]\n  B[f5]W[f6];)\n\n{one}  {one}\n");
        let records = split_records(&text).unwrap();
        let lines: Vec<usize> = records.iter().map(|(line, _)| *line).collect();
        assert_eq!(lines, [1, 2, 5, 5]);
        assert_eq!(records[1].1, "(;GM[Othello]\n  B[f5]W[f6];)");
        for (_, record) in &records {
            assert!(parse_ggf(record).is_ok(), "{record}");
        }
        let error = split_records(&format!("{one}\n{one} and text")).unwrap_err();
        assert!(
            error.to_string().starts_with("record 3 (line 2): GGF:"),
            "{error}"
        );
    }

    #[test]
    fn random_input_never_panics() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let alphabet: Vec<char> = "(;)[]\\/:BWOTIPAd3f5*O-8 .,é\u{0}".chars().collect();
        let good = format!("(;GM[Othello]TI[5:00]BO[{START}]B[d3/1.5/0.2]W[c3];)");
        for _ in 0..5000 {
            let text: String = if rng.random_bool(0.5) {
                let len = rng.random_range(0..60);
                (0..len)
                    .map(|_| alphabet[rng.random_range(0..alphabet.len())])
                    .collect()
            } else {
                let mut chars: Vec<char> = good.chars().collect();
                for _ in 0..rng.random_range(1..4) {
                    let i = rng.random_range(0..chars.len());
                    chars[i] = alphabet[rng.random_range(0..alphabet.len())];
                }
                chars.into_iter().collect()
            };
            let _ = parse_ggf(&text);
        }
    }
}
