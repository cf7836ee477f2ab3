//! OBF problem files: one endgame problem a line,
//! `<position string>; <MOVE>:<score>; <MOVE>:<score>; ...`
//!
//! The position is a position string (see [`super::notation`]); each move is followed by
//! the exact final disc difference for the side to move after that move (empties go to
//! the winner), best first. The entry `--:-127` that some files append means "no move"
//! and is skipped. Blank lines and lines starting with `%` or `#` are skipped in files.

use std::path::Path;

use super::notation::{FormatError, format_position, parse_position};
use super::position::Position;
use super::square::Move;

/// One problem: a position and the exact score of each listed move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObfProblem {
    pub position: Position,
    /// (move, disc difference for the side to move) in file order, the best first.
    pub moves: Vec<(Move, i32)>,
}

impl ObfProblem {
    /// The best listed score, if any move is listed.
    pub fn best_score(&self) -> Option<i32> {
        self.moves.iter().map(|&(_, score)| score).max()
    }

    /// The problem as one OBF line (without a line break).
    pub fn to_line(&self) -> String {
        let mut line = format_position(&self.position);
        line.push(';');
        for (mv, score) in &self.moves {
            line.push_str(&format!(" {}:{score:+};", mv.to_upper()));
        }
        line
    }
}

/// Reads one problem line. Every listed move must be legal in the position (a pass only
/// where the side to move has no move), listed once, with a score between -64 and 64.
pub fn parse_obf_line(line: &str) -> Result<ObfProblem, FormatError> {
    let mut fields = line.trim().split(';');
    let board = fields.next().unwrap_or_default();
    if board.trim().is_empty() {
        return Err(FormatError::new("OBF: empty line"));
    }
    let position = parse_position(board)?;
    let mut moves: Vec<(Move, i32)> = Vec::new();
    for field in fields.map(str::trim).filter(|field| !field.is_empty()) {
        let (mv_text, score_text) = field
            .split_once(':')
            .ok_or_else(|| FormatError::new(format!("OBF: {field:?} is not MOVE:SCORE")))?;
        let (mv_text, score_text) = (mv_text.trim(), score_text.trim());
        let score: i32 = score_text
            .parse()
            .map_err(|_| FormatError::new(format!("OBF: bad score {score_text:?}")))?;
        if mv_text == "--" {
            // "No move": a terminator some files carry, not a move.
            continue;
        }
        let mv: Move = mv_text
            .parse()
            .map_err(|e| FormatError::from(e).context("OBF"))?;
        if !(-64..=64).contains(&score) {
            return Err(FormatError::new(format!(
                "OBF: score {score} of {mv} is not a disc difference (-64..64)"
            )));
        }
        if position.try_play(mv).is_none() {
            return Err(FormatError::new(format!("OBF: {mv} is not a legal move")));
        }
        if moves.iter().any(|&(listed, _)| listed == mv) {
            return Err(FormatError::new(format!("OBF: {mv} is listed twice")));
        }
        moves.push((mv, score));
    }
    Ok(ObfProblem { position, moves })
}

/// Reads every problem of an OBF file; the error names the file and the line.
pub fn read_obf_file(path: impl AsRef<Path>) -> Result<Vec<ObfProblem>, FormatError> {
    let path = path.as_ref();
    let text = crate::files::read_text(path, crate::files::PROBLEMS)
        .map_err(|e| FormatError::new(e.to_string()))?;
    text.lines()
        .enumerate()
        .filter(|(_, line)| {
            let line = line.trim();
            !(line.is_empty() || line.starts_with('%') || line.starts_with('#'))
        })
        .map(|(index, line)| {
            parse_obf_line(line)
                .map_err(|e| e.context(format!("{}: line {}", path.display(), index + 1)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_line_and_writes_it_back() {
        let line = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; \
                    G8:+18; H1:+12; H7:+6; A2:+6; A3:+4; B1:-4; A4:-22; G2:-24; --:-127;";
        let problem = parse_obf_line(line).unwrap();
        assert_eq!(problem.moves.len(), 8);
        assert_eq!(problem.moves[0], ("g8".parse().unwrap(), 18));
        assert_eq!(problem.best_score(), Some(18));
        assert_eq!(parse_obf_line(&problem.to_line()).unwrap(), problem);
    }
}
