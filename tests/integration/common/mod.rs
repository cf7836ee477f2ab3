//! Helpers shared by the integration tests: a slow, obviously-correct Othello on an array
//! of squares (the reference the bitboard code is checked against) and seeded random
//! positions, and running the binary as scripts do.

use iago::othello::Position;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// The 8 directions as (column step, row step).
const DIRECTIONS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// A square's content.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Cell {
    Empty,
    Mine,
    Theirs,
}

/// A board as 64 cells (index `8 * row + column`, a1 = 0), seen from the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ArrayBoard {
    pub cells: [Cell; 64],
}

impl ArrayBoard {
    pub fn from_bitboards(player: u64, opponent: u64) -> ArrayBoard {
        let mut cells = [Cell::Empty; 64];
        for (index, cell) in cells.iter_mut().enumerate() {
            if player >> index & 1 == 1 {
                *cell = Cell::Mine;
            } else if opponent >> index & 1 == 1 {
                *cell = Cell::Theirs;
            }
        }
        ArrayBoard { cells }
    }

    pub fn from_position(pos: &Position) -> ArrayBoard {
        ArrayBoard::from_bitboards(pos.player, pos.opponent)
    }

    /// (player, opponent) bitboards.
    pub fn bitboards(&self) -> (u64, u64) {
        let mut player = 0;
        let mut opponent = 0;
        for (index, cell) in self.cells.iter().enumerate() {
            match cell {
                Cell::Mine => player |= 1 << index,
                Cell::Theirs => opponent |= 1 << index,
                Cell::Empty => {}
            }
        }
        (player, opponent)
    }

    /// The squares the side to move flips by playing `index`, walking each direction.
    pub fn flips(&self, index: usize) -> Vec<usize> {
        let mut flipped = Vec::new();
        if self.cells[index] != Cell::Empty {
            return flipped;
        }
        let (column, row) = ((index % 8) as i32, (index / 8) as i32);
        for (dc, dr) in DIRECTIONS {
            let mut run = Vec::new();
            let (mut c, mut r) = (column + dc, row + dr);
            while (0..8).contains(&c) && (0..8).contains(&r) {
                let square = (r * 8 + c) as usize;
                match self.cells[square] {
                    Cell::Theirs => run.push(square),
                    Cell::Mine => {
                        flipped.extend(run.iter().copied());
                        break;
                    }
                    Cell::Empty => break,
                }
                c += dc;
                r += dr;
            }
        }
        flipped.sort_unstable();
        flipped
    }

    /// The squares where the side to move may play, ascending.
    pub fn legal_moves(&self) -> Vec<usize> {
        (0..64).filter(|&i| !self.flips(i).is_empty()).collect()
    }

    /// The board after the side to move plays `index`, seen from the other side.
    pub fn play(&self, index: usize) -> ArrayBoard {
        let mut next = *self;
        for square in self.flips(index) {
            next.cells[square] = Cell::Mine;
        }
        next.cells[index] = Cell::Mine;
        next.swapped()
    }

    /// The same board seen from the other side (a pass).
    pub fn swapped(&self) -> ArrayBoard {
        let mut next = *self;
        for cell in next.cells.iter_mut() {
            *cell = match *cell {
                Cell::Mine => Cell::Theirs,
                Cell::Theirs => Cell::Mine,
                Cell::Empty => Cell::Empty,
            };
        }
        next
    }

    pub fn is_game_over(&self) -> bool {
        self.legal_moves().is_empty() && self.swapped().legal_moves().is_empty()
    }

    /// The exact value for the side to move, by plain alpha-beta over this slow board: a
    /// solve that shares no code with the engine's search.
    pub fn solve(&self) -> i32 {
        self.solve_within(-65, 65)
    }

    fn solve_within(&self, mut alpha: i32, beta: i32) -> i32 {
        let moves = self.legal_moves();
        if moves.is_empty() {
            let passed = self.swapped();
            if passed.legal_moves().is_empty() {
                return self.final_score();
            }
            return -passed.solve_within(-beta, -alpha);
        }
        let mut best = -65;
        for square in moves {
            let score = -self.play(square).solve_within(-beta, -alpha);
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// Final disc difference for the side to move, empties to the winner.
    pub fn final_score(&self) -> i32 {
        let mine = self.cells.iter().filter(|&&c| c == Cell::Mine).count() as i32;
        let theirs = self.cells.iter().filter(|&&c| c == Cell::Theirs).count() as i32;
        let empties = 64 - mine - theirs;
        if mine > theirs {
            mine - theirs + empties
        } else if mine < theirs {
            mine - theirs - empties
        } else {
            0
        }
    }
}

/// What the reference perft saw besides leaves: how often a side had to pass and how
/// often the game ended before the depth ran out.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct TreeStats {
    pub leaves: u64,
    pub passes: u64,
    pub early_ends: u64,
}

/// The perft convention of the reference notes, written the slow, direct way: a pass is
/// a ply; a game that ends before the depth is one leaf.
pub fn reference_perft(board: &ArrayBoard, depth: u32, stats: &mut TreeStats) {
    if depth == 0 {
        stats.leaves += 1;
        return;
    }
    let moves = board.legal_moves();
    if moves.is_empty() {
        if board.swapped().legal_moves().is_empty() {
            stats.early_ends += 1;
            stats.leaves += 1;
        } else {
            stats.passes += 1;
            reference_perft(&board.swapped(), depth - 1, stats);
        }
        return;
    }
    for square in moves {
        reference_perft(&board.play(square), depth - 1, stats);
    }
}

pub fn rng(seed: u64) -> StdRng {
    StdRng::seed_from_u64(seed)
}

/// Every position (as player, opponent) along one random game from the start, the start
/// included; passes are forced moves.
pub fn random_game_positions(rng: &mut StdRng) -> Vec<(u64, u64)> {
    let mut board = ArrayBoard::from_position(&Position::start());
    let mut positions = vec![board.bitboards()];
    while !board.is_game_over() {
        let moves = board.legal_moves();
        board = if moves.is_empty() {
            board.swapped()
        } else {
            board.play(moves[rng.random_range(0..moves.len())])
        };
        positions.push(board.bitboards());
    }
    positions
}

/// A board with every square drawn at random (not necessarily reachable in a game), with
/// a random density of discs so that both crowded and sparse boards come up.
pub fn random_board(rng: &mut StdRng) -> (u64, u64) {
    let fill: f64 = rng.random_range(0.05..1.0);
    let black_share: f64 = rng.random_range(0.1..0.9);
    let (mut player, mut opponent) = (0u64, 0u64);
    for index in 0..64 {
        if rng.random_bool(fill) {
            if rng.random_bool(black_share) {
                player |= 1 << index;
            } else {
                opponent |= 1 << index;
            }
        }
    }
    (player, opponent)
}

/// The shared data directory (FFO problems, WTHOR games) if this checkout can see it:
/// `$IAGO_DATA_DIR`, else `shared/data` next to the checkout or one level further up.
/// Tests that need it skip (saying so) where it is absent, as on a fresh clone.
pub fn shared_data_dir() -> Option<std::path::PathBuf> {
    if let Some(dir) = std::env::var_os("IAGO_DATA_DIR") {
        return Some(dir.into());
    }
    let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    ["../shared/data", "../../shared/data"]
        .iter()
        .map(|relative| manifest.join(relative))
        .find(|dir| dir.is_dir())
}

/// The arguments of `iago match` of two games between random players over GTP, at
/// depth 1, its records written to `out`.
pub fn random_match_args(out: &str) -> Vec<String> {
    let random = format!(
        "{} --player random --book none --hash 1",
        crate::protocol_io::IAGO
    );
    [
        "match",
        "--games",
        "2",
        "--depth",
        "1",
        "--quiet",
        "--engine",
        &format!("a=gtp:{random} --seed 1"),
        "--engine",
        &format!("b=gtp:{random} --seed 2"),
        "--out",
        out,
    ]
    .map(String::from)
    .to_vec()
}

/// Runs the iago binary with `args` and its input closed, as a script runs it.
pub fn iago(args: &[&str]) -> std::process::Output {
    std::process::Command::new(crate::protocol_io::IAGO)
        .args(args)
        .output()
        .expect("the iago binary runs")
}

/// What a run printed on stdout.
pub fn stdout(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// What a run printed on stderr.
pub fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The stdout of a run that must succeed; a failure shows both streams.
pub fn stdout_of(output: &std::process::Output) -> String {
    assert!(
        output.status.success(),
        "failed\nstdout:\n{}\nstderr:\n{}",
        stdout(output),
        stderr(output)
    );
    stdout(output)
}

/// A fresh, empty scratch directory for the test `test` of the file `suite`.
pub fn scratch(suite: &str, test: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("iago-{suite}-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}
