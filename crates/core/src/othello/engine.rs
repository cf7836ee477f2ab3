//! Othello as an [`EngineGame`], and the adapter from the opening book to the engine.

use rand::rngs::StdRng;

use crate::engine::{
    BookHint, EngineBook, EngineGame, GgfFormat, GoguiGrid, OpeningFormat, Played, Record,
};
use crate::game::{Color, Evaluator, Game, Score};
use crate::options::BookChoice;
use crate::othello::book::{Book, BookPolicy, EXACT_DEPTH, LearnSettings};
use crate::othello::eval::{OTHELLO_EVALUATORS, othello_evaluator};
use crate::othello::game_input::{GameInput, parse_game, parse_transcript};
use crate::othello::ggf::{GgfGame, GgfMove, TimeControl};
use crate::othello::notation::{format_fen, format_position, parse_fen};
use crate::othello::{DISC, Move, Position};
use crate::search::Searcher;

impl EngineGame for Position {
    fn start() -> Self {
        Position::start()
    }

    /// `depth`, or one ply less where that would end the search at an odd number of
    /// empty squares (the evaluation swings by about 3 discs between the two), as `iago
    /// analyze` does: NBoard's Analyze Game over the book's line zigzagged by 0.9 disc
    /// a move on average.
    fn analysis_depth(&self, depth: u32) -> u32 {
        if (self.empty_count() + depth).is_multiple_of(2) || depth <= 1 {
            depth
        } else {
            depth - 1
        }
    }

    /// Any game or position [`parse_game`] reads: the position after its moves.
    fn parse_position(text: &str) -> Result<Self, String> {
        parse_game(text)
            .map(|game| game.final_position())
            .map_err(|e| e.to_string())
    }

    fn format_position(&self) -> String {
        format_position(self)
    }

    fn parse_fen(text: &str) -> Result<Self, String> {
        parse_fen(text).map_err(|e| e.to_string())
    }

    fn format_fen(&self) -> String {
        format_fen(self)
    }

    fn parse_move_text(text: &str) -> Result<Move, String> {
        text.parse()
            .map_err(|e: crate::othello::square::NotationError| e.to_string())
    }

    fn forced_pass(&self) -> Option<Move> {
        (self.has_no_move() && !self.pass().has_no_move()).then_some(Move::PASS)
    }

    fn board_text(&self) -> String {
        let (black, white, moves) = (self.black(), self.white(), self.moves());
        let mut text = String::from("  a b c d e f g h\n");
        for row in 0..8 {
            text.push_str(&format!("{}", row + 1));
            for column in 0..8 {
                let bit = 1u64 << (row * 8 + column);
                text.push(' ');
                text.push(if black & bit != 0 {
                    'X'
                } else if white & bit != 0 {
                    'O'
                } else if moves & bit != 0 {
                    '.'
                } else {
                    '-'
                });
            }
            text.push_str(&format!(" {}", row + 1));
            match row {
                0 if self.is_game_over() => text.push_str("  game over"),
                0 => text.push_str(&format!("  {} to move", self.side)),
                1 => text.push_str(&format!("  black X: {}", black.count_ones())),
                2 => text.push_str(&format!("  white O: {}", white.count_ones())),
                3 => text.push_str(&format!("  empties: {}", self.empty_count())),
                _ => {}
            }
            text.push('\n');
        }
        text.push_str("  a b c d e f g h");
        text
    }

    /// The disc difference for Black, the empty squares to the winner.
    fn black_result(&self) -> i32 {
        match self.side {
            Color::Black => self.final_disc_difference(),
            Color::White => -self.final_disc_difference(),
        }
    }

    /// All 64 discs.
    const MAX_RESULT: i32 = 64;

    /// Beyond 30 empties an exact solve takes hours (the plan's `pre_solve_depth`).
    fn unlimited_search_ends(&self) -> bool {
        self.empty_count() <= 30
    }

    fn score_to_text(score: Score) -> String {
        crate::engine::units_text(score, DISC)
    }

    fn evaluator_names() -> &'static [&'static str] {
        OTHELLO_EVALUATORS
    }

    fn evaluator(name: &str) -> Result<Box<dyn Evaluator<Self>>, String> {
        othello_evaluator(name)
    }

    const OPENINGS: Option<OpeningFormat<Self>> = Some(OpeningFormat {
        read: read_opening,
        default_set: BALANCED_OPENINGS,
    });

    const GGF: Option<GgfFormat<Self>> = Some(GgfFormat {
        game: "Othello",
        kind: "8",
        board: ggf_board,
        write_move: ggf_move,
        read: |text| {
            crate::othello::ggf::parse_ggf(text)
                .map(|game| record_from_ggf(&game))
                .map_err(|e| e.to_string())
        },
        write: |record| ggf_from_record(record).to_ggf(),
    });

    /// GGF, a transcript (`f5d6c3`, passes left out or not), a position string or a
    /// position followed by moves ([`parse_game`]).
    fn read_game(text: &str) -> Result<Record<Self>, String> {
        let game = parse_game(text).map_err(|e| e.to_string())?;
        let mut record = Record::new(game.start);
        record.moves = game
            .moves
            .into_iter()
            .map(|mv| Played { mv, seconds: None })
            .collect();
        Ok(record)
    }

    /// The moves without their passes: `f5d6c3`.
    fn transcript(record: &Record<Self>) -> String {
        record
            .moves
            .iter()
            .filter(|played| !played.mv.is_pass())
            .map(|played| played.mv.to_string())
            .collect()
    }

    fn open_book(choice: &BookChoice) -> Result<Option<Box<dyn EngineBook<Self>>>, String> {
        Ok(Book::open_choice(choice)
            .map_err(|error| error.to_string())?
            .map(|book| Box::new(BookAdapter { book }) as Box<dyn EngineBook<Self>>))
    }

    fn perft(&self, depth: u32) -> u64 {
        crate::othello::perft::perft(self, depth)
    }

    const GOGUI_GRID: Option<GoguiGrid<Self>> = Some(GoguiGrid {
        move_at: grid_move,
        square_of: move_grid,
        stone: grid_stone,
    });

    /// The winner, the margin with the empty squares given to the winner (as
    /// `black_result` counts it) and the discs on the board.
    fn result_text(&self) -> String {
        let (black, white) = (self.black().count_ones(), self.white().count_ones());
        let winner = match self.black_result() {
            0 => "Draw".into(),
            n if n > 0 => format!("Black wins by {n}"),
            n => format!("White wins by {}", -n),
        };
        format!("{winner}: Black {black}, White {white} discs.")
    }
}

/// The game of a GGF record, passes made explicit.
pub fn record_from_ggf(game: &GgfGame) -> Record<Position> {
    let mut record = Record::new(game.start);
    let mut pos = game.start;
    for m in &game.moves {
        if m.color != pos.side && !m.mv.is_pass() {
            record.moves.push(Played {
                mv: Move::PASS,
                seconds: None,
            });
            pos = pos.pass();
        }
        record.moves.push(Played {
            mv: m.mv,
            seconds: m.seconds,
        });
        pos = pos.play(m.mv);
    }
    if let Some(time) = game.time {
        record.clock = (!time.main.is_zero()).then_some(time.main);
        record.increment = time.increment;
    }
    record
}

/// The balanced openings a match plays by default: positions a few plies from the start
/// that a search scores near 0 (its header has the command that made it).
pub const BALANCED_OPENINGS: &str = include_str!("balanced-openings.txt");

/// One opening: a move sequence from `start` (`f5d6c3`, spaces and commas allowed,
/// passes written `pa` or left out, as `analyze` and `book learn` read them), each move
/// checked; `-` or `start` for none.
pub fn read_opening(start: &Position, text: &str) -> Result<Vec<Move>, String> {
    match text.trim() {
        "-" | "start" => Ok(Vec::new()),
        moves => {
            let moves = parse_transcript(moves).map_err(|e| format!("{text:?}: {e}"))?;
            GameInput::from_moves(*start, &moves)
                .map(|game| game.moves)
                .map_err(|e| format!("{text:?}: {e}"))
        }
    }
}

/// The 64 squares a1..h8 (`*` black, `O` white, `-` empty) and the side to move, after
/// the board's size: iago's position string with GGF's mark for Black.
fn ggf_board(pos: &Position) -> String {
    format!("8 {}", format_position(pos).replace('X', "*"))
}

fn ggf_move(mv: Move) -> String {
    if mv.is_pass() {
        "PA".into()
    } else {
        mv.to_upper()
    }
}

/// The GGF record of a game: its start, moves (passes explicit), seconds and clock.
pub fn ggf_from_record(record: &Record<Position>) -> GgfGame {
    let mut game = GgfGame::new(record.start);
    let mut pos = record.start;
    for played in &record.moves {
        game.moves.push(GgfMove {
            color: pos.side,
            mv: played.mv,
            eval: None,
            seconds: played.seconds,
        });
        pos = pos.play(played.mv);
    }
    if let Some(main) = record.clock {
        game.time = Some(TimeControl {
            main,
            increment: record.increment,
            grace: std::time::Duration::ZERO,
        });
    }
    if pos.is_game_over() {
        let result = pos.black_result();
        game.result = Some(if result > 0 {
            format!("+{result}")
        } else {
            result.to_string()
        });
    }
    game
}

/// The opening book seen by the engine.
struct BookAdapter {
    book: Book,
}

/// Book lines are cut to this many moves.
const BOOK_PV: usize = 12;

impl BookAdapter {
    fn hint(
        &self,
        pos: &Position,
        mv: Move,
        value: Score,
        games: u32,
        depth: u8,
    ) -> BookHint<Move> {
        BookHint {
            mv,
            pv: self.book.line(pos, mv, BOOK_PV),
            score: value,
            games,
            depth: depth.into(),
            exact: depth >= EXACT_DEPTH,
        }
    }
}

impl EngineBook<Position> for BookAdapter {
    fn choose(&self, pos: &Position, rng: Option<&mut StdRng>) -> Option<BookHint<Move>> {
        let policy = BookPolicy {
            randomness: if rng.is_some() { DISC } else { 0 },
            ..BookPolicy::default()
        };
        let chosen = self.book.choose(pos, &policy, rng)?;
        Some(self.hint(pos, chosen.mv, chosen.value, chosen.games, chosen.depth))
    }

    fn hints(&self, pos: &Position) -> Vec<BookHint<Move>> {
        self.book
            .moves(pos)
            .unwrap_or_default()
            .into_iter()
            .map(|m| self.hint(pos, m.mv, m.value, m.games, m.depth))
            .collect()
    }

    fn value(&self, pos: &Position) -> Option<Score> {
        self.book.entry(pos).map(|entry| entry.value)
    }

    fn learn(
        &mut self,
        start: &Position,
        moves: &[Move],
        searcher: &mut Searcher<Position>,
    ) -> Result<String, String> {
        let report = self
            .book
            .learn_game(start, moves, searcher, &LearnSettings::default())
            .map_err(|e| e.to_string())?;
        Ok(format!(
            "{} positions added, {} searched, book of {}",
            report.added,
            report.searched,
            self.book.len()
        ))
    }
}

/// The move on the grid square `column`, `row`: row 0 is Othello's row 1, the top one.
fn grid_move(column: u32, row: u32) -> Option<Move> {
    (column < 8 && row < 8).then(|| Move::from_coords(column as u8, row as u8))
}

/// The grid square of a move, `None` for a pass.
fn move_grid(mv: Move) -> Option<(u32, u32)> {
    mv.square()
        .map(|square| (u32::from(square % 8), u32::from(square / 8)))
}

/// The disc on the grid square `column`, `row`.
fn grid_stone(pos: &Position, column: u32, row: u32) -> Option<Color> {
    if column >= 8 || row >= 8 {
        return None;
    }
    let bit = 1u64 << (row * 8 + column);
    if pos.black() & bit != 0 {
        Some(Color::Black)
    } else if pos.white() & bit != 0 {
        Some(Color::White)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_print_in_discs_without_exponents() {
        assert_eq!(Position::score_to_text(0), "0.00");
        assert_eq!(Position::score_to_text(150), "1.50");
        assert_eq!(Position::score_to_text(-7), "-0.07");
        assert_eq!(Position::score_to_text(-6400), "-64.00");
    }

    /// Analysis searches of every position of a game end at an even number of empties.
    #[test]
    fn analysis_depths_end_at_an_even_number_of_empties() {
        let start = Position::start();
        let after_one = start.play_square(19);
        assert_eq!((start.empty_count(), after_one.empty_count()), (60, 59));
        assert_eq!(start.analysis_depth(16), 16);
        assert_eq!(after_one.analysis_depth(16), 15);
        assert_eq!(after_one.analysis_depth(1), 1);
    }

    #[test]
    fn final_score_text() {
        let pos = Position::parse_position(&format!("{}{}---- O", "X".repeat(40), "O".repeat(20)))
            .unwrap();
        assert_eq!(pos.black_result(), 24);
        assert_eq!(Position::start().black_result(), 0);
        assert_eq!(
            pos.result_text(),
            "Black wins by 24: Black 40, White 20 discs."
        );
    }

    #[test]
    fn positions_come_in_every_game_form() {
        let after = Position::start().play("f5".parse().unwrap());
        let start = format_position(&Position::start());
        let ggs = format!("[8 {}]", start.replace('X', "*"));
        for text in [
            "f5".to_string(),
            format!("{start} F5"),
            format!("{ggs} f5"),
            "(;GM[Othello]B[f5];)".to_string(),
        ] {
            assert_eq!(Position::parse_position(&text), Ok(after), "{text}");
        }
        assert_eq!(Position::parse_position(&ggs), Ok(Position::start()));
        assert!(Position::parse_position("f5 a1").is_err());
    }

    /// A search that may last for hours (no deadline, no node limit, a solve beyond 30
    /// empties) grows the tables where no size was set, and no other search does.
    #[test]
    fn a_long_analysis_grows_the_tables_where_no_size_was_set() {
        use crate::othello::eval::othello_evaluator;
        use crate::search::{DEFAULT_HASH_MB, LONG_SEARCH_HASH_MB, Limits, Searcher};
        use std::sync::atomic::AtomicBool;
        let at = |empties: u32| {
            let mut pos = Position::start();
            while pos.empty_count() > empties {
                pos = pos.play(pos.legal_moves().as_ref()[0]);
            }
            pos
        };
        // Stopped before it starts: the tables are made, nothing is searched.
        let stop = AtomicBool::new(true);
        let searched = |pos: &Position, limits: &Limits, hash: Option<usize>| {
            let mut searcher = Searcher::new(othello_evaluator("default").unwrap());
            if let Some(mb) = hash {
                searcher.set_hash_mb(mb);
            }
            searcher.search(pos, limits, &stop, &mut |_| {});
            searcher.hash_mb()
        };
        let open = Limits::default();
        let grown = crate::search::memory_available_mb()
            .map_or(LONG_SEARCH_HASH_MB, |mb| LONG_SEARCH_HASH_MB.min(mb / 4))
            .max(DEFAULT_HASH_MB);
        assert_eq!(searched(&at(38), &open, None), grown);
        assert_eq!(searched(&at(38), &open, Some(64)), 64);
        assert_eq!(searched(&at(24), &open, None), DEFAULT_HASH_MB);
        let limited = [
            Limits {
                nodes: Some(1_000_000),
                ..Limits::default()
            },
            Limits {
                movetime: Some(std::time::Duration::from_secs(60)),
                ..Limits::default()
            },
            Limits {
                depth: Some(20),
                ..Limits::default()
            },
        ];
        for limits in limited {
            assert_eq!(
                searched(&at(38), &limits, None),
                DEFAULT_HASH_MB,
                "{limits:?}"
            );
        }
    }

    /// A selective solve's entries outlive the shallow searches its probable cuts make
    /// of the same positions, and a cut with margin to spare serves surer levels: a
    /// second analysis of a position (31 empties, FFO #74) reaches the first one's last
    /// level in a small part of the first one's nodes.
    #[test]
    fn a_second_analysis_finds_the_first_ones_levels_in_the_table() {
        use crate::othello::eval::othello_evaluator;
        use crate::search::{Confidence, Limits, Searcher};
        use std::sync::atomic::AtomicBool;
        let pos = Position::parse_position(
            "--X--X----XXX---OOXXXX---OOXXX---OXOXXO-OOOXXXX-O--OXO---------- O",
        )
        .unwrap();
        let mut searcher = Searcher::new(othello_evaluator("default").unwrap());
        let stop = AtomicBool::new(false);
        let limits = Limits {
            nodes: Some(40_000_000),
            ..Limits::default()
        };
        let levels = |searcher: &mut Searcher<Position>| {
            let mut reached = Vec::new();
            searcher.search(&pos, &limits, &stop, &mut |report| {
                if let Confidence::Probable(percent) = report.confidence {
                    reached.push((percent, report.nodes));
                }
            });
            reached
        };
        let first = levels(&mut searcher);
        let &(last, first_nodes) = first.last().expect("no selective level in the first");
        assert!(
            last >= 50,
            "the first analysis reached {last}% only: {first:?}"
        );
        let second = levels(&mut searcher);
        let &(_, second_nodes) = second
            .iter()
            .find(|&&(percent, _)| percent == last)
            .expect("the second analysis does not reach the first one's last level");
        assert!(
            second_nodes * 5 < first_nodes,
            "{last}%: {second_nodes} nodes the second time, {first_nodes} the first"
        );
    }
}
