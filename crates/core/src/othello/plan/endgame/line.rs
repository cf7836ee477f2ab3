//! What a solve leaves in the tables, read back: the whole line of an exact value (from
//! the root's move to the end of the game, passes included, each move one that keeps
//! the value), a selective solve's line, and an earlier solve's value of a new root. The solver's table holds most of a line (the principal variation's nodes are
//! stored with their exact values); where it lacks a move, or holds another, a solve of
//! the child with a window around the value it must have tells. The solves have a
//! bounded cost: a line whose next move would take more stops there.

use crate::game::{Color, Score};
use crate::othello::Move;
use crate::othello::bitboard::Squares;
use crate::othello::position::{DISC, Position};
use crate::search::plan::{Bound, SearchView};

use super::table::{EXACT, table_key};
use super::{Ctx, Shared, TABLE_FROM, solve};

/// The nodes the solves of one line may take: a few milliseconds, since a line goes out
/// with each exact value found (most lines need none: their moves are in the table).
const LINE_NODES: u64 = 1 << 22;

/// The line from `pos` that starts with `first`, whose exact value for `pos`'s mover is
/// `score`: to the end of the game, or shorter where a move would cost more than
/// [`LINE_NODES`] to find (`None` for a run without the solver).
pub(in crate::othello::plan) fn exact_line(
    search: SearchView<'_, '_, Position>,
    pos: &Position,
    first: Move,
    score: Score,
) -> Option<Vec<Move>> {
    let solver = search.tables()?;
    let evaluator = search.evaluator();
    let eval = move |player: u64, opponent: u64| {
        evaluator.evaluate(&Position {
            player,
            opponent,
            side: Color::Black,
        })
    };
    let mut watch = search.side_watch(LINE_NODES);
    let shared = Shared {
        table: solver,
        rules: search.rules(),
        eval: &eval,
        selectivity: None,
        level: EXACT,
        parallel: false,
    };
    let mut ctx = Ctx::new(&mut watch, shared);
    let mut line = vec![first];
    if let Some(square) = first.square() {
        remember(&ctx, pos, score / DISC, square);
    }
    let mut pos = pos.try_play(first)?;
    // The value of `pos` for its mover, in discs.
    let mut value = -score / DISC;
    loop {
        if pos.has_no_move() {
            let passed = pos.pass();
            if passed.has_no_move() {
                return Some(line);
            }
            line.push(Move::PASS);
            (pos, value) = (passed, -value);
            continue;
        }
        let Some(mv) = keeping_move(&mut ctx, search, &pos, value) else {
            return Some(line);
        };
        remember(&ctx, &pos, value, mv.square()?);
        line.push(mv);
        pos = pos.try_play(mv)?;
        value = -value;
    }
}

/// The line of a selective solve's value from `pos` after `first`: the moves its tables
/// hold (the solver's, then the midgame table's, where a solve in the midgame left them),
/// passes included, as far as they go.
pub(in crate::othello::plan) fn table_line(
    search: SearchView<'_, '_, Position>,
    pos: &Position,
    first: Move,
) -> Option<Vec<Move>> {
    let solver = search.tables()?;
    let mut line = vec![first];
    let mut pos = pos.try_play(first)?;
    while line.len() < 64 {
        if pos.has_no_move() {
            let passed = pos.pass();
            if passed.has_no_move() {
                break;
            }
            line.push(Move::PASS);
            pos = passed;
            continue;
        }
        let moves = pos.moves();
        let solver_move = solver
            .probe(table_key(pos.player, pos.opponent))
            .map(|e| e.mv)
            .filter(|&square| square < 64);
        let midgame_move = || search.table_move(&pos).and_then(Move::square);
        let Some(square) = solver_move
            .or_else(midgame_move)
            .filter(|&square| moves & (1 << square) != 0)
        else {
            break;
        };
        line.push(Move::from_index(square));
        pos = pos.play_square(u32::from(square));
    }
    Some(line)
}

/// Stores in the solver's table that `pos` has the exact `value` (discs, for its mover)
/// and that `square` keeps it: where the principal variation's entries hold only a
/// bound (a re-search with a narrower window replaced the exact one), the next move's
/// search, after the reply the line expects, finds its answer there.
fn remember(ctx: &Ctx, pos: &Position, value: i32, square: u8) {
    let empties = pos.empty_count();
    if empties >= TABLE_FROM {
        let key = table_key(pos.player, pos.opponent);
        ctx.shared
            .table
            .store(key, empties, EXACT, value, value, square);
    }
}

/// A move of `pos` (which has one) whose child has the value `-value`: the tables'
/// move first, then the others.
fn keeping_move(
    ctx: &mut Ctx,
    search: SearchView<'_, '_, Position>,
    pos: &Position,
    value: i32,
) -> Option<Move> {
    let moves = pos.moves();
    let table_move = ctx
        .shared
        .table
        .probe(table_key(pos.player, pos.opponent))
        .map(|e| e.mv)
        .filter(|&square| square < 64 && moves & (1 << square) != 0);
    let midgame_move = search
        .table_move(pos)
        .and_then(Move::square)
        .filter(|&square| moves & (1 << square) != 0);
    let rest = Squares(moves).map(|square| square as u8);
    let mut tried = 0u64;
    for square in table_move.into_iter().chain(midgame_move).chain(rest) {
        if tried & (1 << square) != 0 {
            continue;
        }
        tried |= 1 << square;
        let child = pos.play_square(u32::from(square));
        match child_keeps(ctx, search, &child, -value) {
            Some(true) => return Some(Move::from_index(square)),
            Some(false) => {}
            None => return None,
        }
    }
    None
}

/// Whether `child` has the value `target` for its mover: from the tables where they
/// tell, else by a solve with a window of one disc on either side; `None` where that
/// solve ran out of nodes.
fn child_keeps(
    ctx: &mut Ctx,
    search: SearchView<'_, '_, Position>,
    child: &Position,
    target: i32,
) -> Option<bool> {
    if let Some(e) = ctx
        .shared
        .table
        .probe(table_key(child.player, child.opponent))
        && e.level == EXACT
    {
        let (lower, upper) = (i32::from(e.lower), i32::from(e.upper));
        if lower > target || upper < target {
            return Some(false);
        }
        if lower == upper {
            return Some(true);
        }
    }
    if let Some(value) = midgame_solved(search, child) {
        return Some(match value {
            Bounds::Exact(value) => value == target,
            Bounds::AtLeast(low) => low <= target,
            Bounds::AtMost(high) => high >= target,
        });
    }
    let found = solve(ctx, child.player, child.opponent, target - 1, target + 1);
    (!ctx.watch.aborted).then_some(found == target)
}

/// What the tables say about a position's exact value, in discs.
enum Bounds {
    Exact(i32),
    AtLeast(i32),
    AtMost(i32),
}

/// What an exact solve searched in the midgame left about `pos` in the midgame table.
fn midgame_solved(search: SearchView<'_, '_, Position>, pos: &Position) -> Option<Bounds> {
    let hit = search.solved_in_midgame(pos)?;
    let value = hit.score.div_euclid(DISC);
    Some(match hit.bound {
        Bound::Exact => Bounds::Exact(value),
        // A wipeout is the end of the scale: a bound there is the value.
        Bound::Lower if value >= 64 => Bounds::Exact(64),
        Bound::Upper if value <= -64 => Bounds::Exact(-64),
        Bound::Lower => Bounds::AtLeast(-(-hit.score).div_euclid(DISC)),
        Bound::Upper => Bounds::AtMost(value),
    })
}

/// The exact value of the root `pos` and a move that keeps it, where an earlier solve
/// left both: the solver's entry with equal bounds (a wipeout's bound among them), or
/// the midgame table's of a solve searched in the midgame.
pub(in crate::othello::plan) fn proven(
    search: SearchView<'_, '_, Position>,
    pos: &Position,
) -> Option<(Move, Score)> {
    let solver = search.tables()?;
    let moves = pos.moves();
    let legal = |square: u8| square < 64 && moves & (1 << square) != 0;
    if let Some(e) = solver.probe(table_key(pos.player, pos.opponent))
        && e.level == EXACT
        && e.lower == e.upper
        && legal(e.mv)
    {
        return Some((Move::from_index(e.mv), i32::from(e.lower) * DISC));
    }
    let Some(Bounds::Exact(value)) = midgame_solved(search, pos) else {
        return None;
    };
    let mv = search.solved_in_midgame(pos)?.mv?;
    mv.square().is_some_and(legal).then_some((mv, value * DISC))
}
