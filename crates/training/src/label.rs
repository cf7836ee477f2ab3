//! Training labels from iago's own searches: positions scored by an exact solve where
//! the solver can afford it, by a fixed-depth search elsewhere.
//!
//! Human game results are noisy labels (every later mistake of either player moves
//! them); a search is a far better estimate of a position's value, and an exact solve is
//! the value itself. `iago label` writes the scored positions to a file that `iago train
//! --samples` fits on (see `crates/core/src/othello/eval/README.md`).
//!
//! File format, little-endian: the magic `IAGOLBL1`, the record count (u64), then per
//! record the side to move's discs (u64), the opponent's (u64), the score for the side
//! to move in hundredths of a disc (i16), the search depth (u8; [`EXACT_DEPTH`] for
//! an exact solve) and the label the game itself gives the position, in discs for the
//! side to move (i8; `i8::MIN` for none), so that training can blend the two. Files are written to a temporary name and renamed, so an
//! interrupted run never leaves a truncated file behind.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use iago_core::game::Color;
use iago_core::othello::Position;
use iago_core::othello::eval::othello_evaluator;
use iago_core::search::{Confidence, Limits, Searcher};

const MAGIC: &[u8; 8] = b"IAGOLBL1";
const RECORD: usize = 20;
const NO_GAME_LABEL: i8 = i8::MIN;

/// The depth recorded for an exact solve.
pub const EXACT_DEPTH: u8 = u8::MAX;

/// One scored position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Labelled {
    pub player: u64,
    pub opponent: u64,
    /// The value for the side to move, in hundredths of a disc.
    pub score: i16,
    /// The search depth behind the score, [`EXACT_DEPTH`] for an exact solve.
    pub depth: u8,
    /// What the game the position comes from says of it (its result or theoretical
    /// score, in discs for the side to move), if known.
    pub game: Option<i8>,
}

impl Labelled {
    pub fn position(&self) -> Position {
        Position {
            player: self.player,
            opponent: self.opponent,
            side: Color::Black,
        }
    }
}

/// How positions are scored.
#[derive(Clone, Debug)]
pub struct LabelConfig {
    /// Positions with at most this many empties are solved exactly.
    pub exact_empties: u32,
    /// The depth of the search for the other positions.
    pub depth: u32,
    /// Worker threads, each with its own searcher.
    pub threads: usize,
    /// The evaluator of the searches (a name for [`othello_evaluator`]).
    pub eval: String,
    /// Transposition table per thread, MiB.
    pub hash_mb: usize,
}

impl Default for LabelConfig {
    fn default() -> Self {
        LabelConfig {
            exact_empties: 18,
            depth: 8,
            threads: 1,
            eval: "default".into(),
            hash_mb: 16,
        }
    }
}

/// Scores `positions` (none may be over), in order. Deterministic: each thread takes
/// every `threads`-th position and searches it from cleared tables. `progress(done)` is
/// called from the workers now and then.
pub fn label_positions(
    positions: &[Position],
    config: &LabelConfig,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Vec<Labelled>, String> {
    let threads = config.threads.max(1);
    let done = std::sync::atomic::AtomicUsize::new(0);
    interleaved(positions.len(), threads, &|t| {
        let mut searcher = Searcher::new(othello_evaluator(&config.eval)?);
        searcher.set_hash_mb(config.hash_mb);
        searcher.allocate_tables().map_err(|e| e.to_string())?;
        let stop = AtomicBool::new(false);
        let mut out = Vec::new();
        for pos in positions.iter().skip(t).step_by(threads) {
            out.push(label_one(&mut searcher, &stop, pos, config));
            let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            if n.is_multiple_of(1000) {
                progress(n);
            }
        }
        Ok(out)
    })
}

/// Runs `work(t)` for each `t` in `0..threads` on its own thread, where `work(t)` returns
/// the results of items `t`, `t + threads`, `t + 2 * threads`, ... of `items`; all the
/// results in item order, or the first error.
fn interleaved<R: Send>(
    items: usize,
    threads: usize,
    work: &(dyn Fn(usize) -> Result<Vec<R>, String> + Sync),
) -> Result<Vec<R>, String> {
    let parts: Vec<Result<Vec<R>, String>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads).map(|t| scope.spawn(move || work(t))).collect();
        workers
            .into_iter()
            .map(|w| {
                w.join()
                    .unwrap_or_else(|_| Err("a worker thread panicked".into()))
            })
            .collect()
    });
    let parts: Vec<Vec<R>> = parts.into_iter().collect::<Result<_, _>>()?;
    // Item i came from thread i % threads.
    let mut iters: Vec<_> = parts.into_iter().map(Vec::into_iter).collect();
    Ok((0..items)
        .filter_map(|i| iters[i % threads].next())
        .collect())
}

fn label_one(
    searcher: &mut Searcher<Position>,
    stop: &AtomicBool,
    pos: &Position,
    config: &LabelConfig,
) -> Labelled {
    searcher.clear();
    let exact = pos.empty_count() <= config.exact_empties;
    let limits = Limits {
        depth: Some(if exact { 64 } else { config.depth }),
        ..Limits::default()
    };
    let report = searcher.search(pos, &limits, stop, &mut |_| {});
    let depth = if report.confidence == Confidence::Exact {
        EXACT_DEPTH
    } else {
        report.depth.min(u32::from(EXACT_DEPTH) - 1) as u8
    };
    Labelled {
        player: pos.player,
        opponent: pos.opponent,
        score: report.score.clamp(i16::MIN.into(), i16::MAX.into()) as i16,
        depth,
        game: None,
    }
}

/// A game of iago against itself: its positions in order (those where the side to move
/// must pass left out) and Black's final disc difference.
#[derive(Clone, Debug, PartialEq)]
pub struct SelfPlayGame {
    pub positions: Vec<Position>,
    pub black_result: i32,
}

/// `games` games of iago against itself, for training positions unlike human play:
/// each game opens with `random_plies` uniformly random moves, then both sides search
/// `depth` plies with the evaluator named `eval` and pick at random among the moves
/// within two discs of the best. Deterministic for a given `seed`, whatever the number
/// of `threads` (each game is played from cleared tables; thread `t` plays every
/// `threads`-th game).
pub fn selfplay_games(
    eval: &str,
    games: usize,
    depth: u32,
    random_plies: u32,
    seed: u64,
    threads: usize,
) -> Result<Vec<SelfPlayGame>, String> {
    let threads = threads.clamp(1, games.max(1));
    interleaved(games, threads, &|t| {
        let mut searcher = Searcher::new(othello_evaluator(eval)?);
        searcher.set_hash_mb(16);
        Ok((t..games)
            .step_by(threads)
            .map(|game| selfplay_game(&mut searcher, game, depth, random_plies, seed))
            .collect())
    })
}

/// Self-play game number `game` (see [`selfplay_games`]).
fn selfplay_game(
    searcher: &mut Searcher<Position>,
    game: usize,
    depth: u32,
    random_plies: u32,
    seed: u64,
) -> SelfPlayGame {
    use iago_core::game::Game;
    use iago_core::game::mix64;
    use iago_core::search::Variety;
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut state = mix64(seed ^ mix64(game as u64 + 1));
    searcher.clear();
    let mut pos = Position::start();
    let mut positions = Vec::new();
    let mut ply = 0;
    loop {
        let moves = pos.legal_moves();
        let moves = moves.as_ref();
        if moves.is_empty() {
            break;
        }
        if !pos.has_no_move() {
            positions.push(pos);
        }
        state = mix64(state);
        let mv = if ply < random_plies || moves.len() == 1 {
            moves[(state % moves.len() as u64) as usize]
        } else {
            searcher.set_variety(Some(Variety {
                tolerance: 2 * iago_core::othello::DISC,
                seed: state,
            }));
            let report = searcher.search(&pos, &limits, &stop, &mut |_| {});
            report.best_move.unwrap_or(moves[0])
        };
        pos = pos.play(mv);
        ply += 1;
    }
    let result = pos.final_disc_difference();
    SelfPlayGame {
        positions,
        black_result: if pos.side == Color::Black {
            result
        } else {
            -result
        },
    }
}

/// The file bytes of `records`.
pub fn encode(records: &[Labelled]) -> Vec<u8> {
    let mut out = Vec::with_capacity(16 + records.len() * RECORD);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&(records.len() as u64).to_le_bytes());
    for r in records {
        out.extend_from_slice(&r.player.to_le_bytes());
        out.extend_from_slice(&r.opponent.to_le_bytes());
        out.extend_from_slice(&r.score.to_le_bytes());
        out.push(r.depth);
        out.push(r.game.unwrap_or(NO_GAME_LABEL) as u8);
    }
    out
}

/// Reads file bytes written by [`encode`], checking every record's position.
pub fn decode(bytes: &[u8]) -> Result<Vec<Labelled>, String> {
    let header = bytes
        .get(..16)
        .ok_or("label file: shorter than its header")?;
    if &header[..8] != MAGIC {
        return Err("label file: not an IAGOLBL1 file".into());
    }
    let mut count = [0u8; 8];
    count.copy_from_slice(&header[8..16]);
    let count = u64::from_le_bytes(count);
    let body = &bytes[16..];
    if body.len() as u64 != count.saturating_mul(RECORD as u64) {
        return Err(format!(
            "label file: {count} records announced, {} bytes of records",
            body.len()
        ));
    }
    body.chunks_exact(RECORD)
        .enumerate()
        .map(|(i, chunk)| {
            let word = |at: usize| {
                let mut b = [0u8; 8];
                b.copy_from_slice(&chunk[at..at + 8]);
                u64::from_le_bytes(b)
            };
            let (player, opponent) = (word(0), word(8));
            if player & opponent != 0 {
                return Err(format!("label file: record {i} has overlapping discs"));
            }
            Ok(Labelled {
                player,
                opponent,
                score: i16::from_le_bytes([chunk[16], chunk[17]]),
                depth: chunk[18],
                game: Some(chunk[19] as i8).filter(|&g| g != NO_GAME_LABEL),
            })
        })
        .collect()
}

/// Reads a label file.
pub fn read(path: &Path) -> Result<Vec<Labelled>, String> {
    let bytes = iago_core::files::read(path, iago_core::files::LABELS)?;
    decode(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// Writes a label file crash-safely ([`iago_core::files::write`]).
pub fn write(path: &Path, records: &[Labelled]) -> Result<(), String> {
    Ok(iago_core::files::write(path, &encode(records))?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_round_trip_and_damage_is_an_error() {
        let records = vec![
            Labelled {
                player: 0x0000_0008_1000_0000,
                opponent: 0x0000_0010_0800_0000,
                score: -250,
                depth: 8,
                game: Some(-12),
            },
            Labelled {
                player: 1,
                opponent: 2,
                score: 6400,
                depth: EXACT_DEPTH,
                game: None,
            },
        ];
        let bytes = encode(&records);
        assert_eq!(decode(&bytes).unwrap(), records);
        assert!(decode(&bytes[..bytes.len() - 1]).is_err());
        assert!(decode(b"IAGOLBL2\0\0\0\0\0\0\0\0").is_err());
        let mut overlapping = bytes.clone();
        overlapping[16] = 3;
        overlapping[24] = 1;
        assert!(decode(&overlapping).is_err());
    }

    #[test]
    fn small_positions_are_solved_exactly_and_threads_do_not_change_labels() {
        // A line of the first legal move each time, then every position from 14 empties.
        let mut pos = Position::start();
        let mut positions = Vec::new();
        while !pos.has_no_move() {
            if pos.empty_count() <= 14 {
                positions.push(pos);
            }
            pos = pos.play_square(pos.moves().trailing_zeros());
        }
        let config = LabelConfig {
            exact_empties: 10,
            depth: 4,
            hash_mb: 1,
            ..LabelConfig::default()
        };
        let one = label_positions(&positions, &config, &|_| {}).unwrap();
        let two = label_positions(
            &positions,
            &LabelConfig {
                threads: 2,
                ..config.clone()
            },
            &|_| {},
        )
        .unwrap();
        assert_eq!(one, two);
        assert_eq!(one.len(), positions.len());
        for (labelled, pos) in one.iter().zip(&positions) {
            assert_eq!(
                (labelled.player, labelled.opponent),
                (pos.player, pos.opponent)
            );
            let exact = pos.empty_count() <= 10;
            assert_eq!(labelled.depth == EXACT_DEPTH, exact, "{pos:?}");
            if exact {
                assert_eq!(labelled.score % iago_core::othello::DISC as i16, 0);
            }
        }
    }

    #[test]
    fn selfplay_games_are_repeatable_and_varied() {
        let a = selfplay_games("default", 3, 2, 4, 9, 1).unwrap();
        assert_eq!(a, selfplay_games("default", 3, 2, 4, 9, 1).unwrap());
        assert_eq!(
            a,
            selfplay_games("default", 3, 2, 4, 9, 2).unwrap(),
            "same on two threads"
        );
        assert_ne!(a[0], a[1], "games differ");
        for game in &a {
            let positions = &game.positions;
            assert_eq!(positions[0], Position::start());
            assert!(
                positions.len() > 40,
                "to the end: {} positions",
                positions.len()
            );
            assert!(positions.iter().all(|p| !p.has_no_move()));
            assert!(game.black_result.abs() <= 64);
        }
    }
}
