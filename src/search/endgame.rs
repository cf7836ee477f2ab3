//! The exact Othello endgame solver: the final disc difference under perfect play.
//!
//! Three layers, by the number of empty squares:
//! - deep (more than [`SHALLOW_MAX`] empties): principal-variation search with its own
//!   transposition table (exact bounds), fastest-first ordering (fewest opponent replies,
//!   corners counted twice), parity and hash move, and stability cutoffs;
//! - shallow (5 to [`SHALLOW_MAX`]): plain alpha-beta over the legal-move board, moves in
//!   odd-parity quadrants first, no table;
//! - the last four empties: the squares themselves in parity order, no move generation,
//!   and the last square counted without making the move.
//!
//! The recursion is written once, generic over the move-generation [`Kernel`], and
//! instantiated per kernel inside functions compiled with that kernel's CPU features.
//! Scores here are in discs; the search converts them to its units.

use std::any::Any;

use crate::game::{Color, Game, INFINITY, Score};
use crate::othello::bitboard::{self, CORNERS, Kernel, Portable, Squares, neighbours};
use crate::othello::position::{DISC, Position, mix64};

use super::as_othello;
use super::negamax::{Run, Watch};
use super::ordering::OrderingRules;
use super::probcut;
use super::probcut_params::ENDGAME_DEPTH;
use super::stability::stable_discs;

/// Up to this many empties the solver works without its table.
const SHALLOW_MAX: u32 = 7;

/// The four 4x4 quadrants: parity counts empties per quadrant.
const QUADRANTS: [u64; 4] = [
    0x0000_0000_0F0F_0F0F,
    0x0000_0000_F0F0_F0F0,
    0x0F0F_0F0F_0000_0000,
    0xF0F0_F0F0_0000_0000,
];

/// The solver's table: lower and upper bounds on exact scores, and the best move.
pub struct Solver {
    entries: Vec<Entry>,
    mask: usize,
    age: u8,
    epoch: u8,
}

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    lower: i8,
    upper: i8,
    /// Best move square, 64 for none.
    mv: u8,
    empties: u8,
    /// Selectivity of the search that found the bounds ([`EXACT`] for exact ones).
    level: u8,
    age: u8,
    epoch: u8,
}

/// The level of exact results; selective solves have lower levels.
const EXACT: u8 = u8::MAX;

const BUCKET: usize = 4;

impl Solver {
    /// A solver whose table takes about `megabytes` MiB.
    pub fn new(megabytes: usize) -> Solver {
        let bytes = megabytes.max(1) << 20;
        let per_bucket = std::mem::size_of::<Entry>() * BUCKET;
        let mut buckets = 1usize;
        while buckets * 2 * per_bucket <= bytes {
            buckets *= 2;
        }
        Solver {
            entries: vec![Entry::default(); buckets * BUCKET],
            mask: buckets - 1,
            age: 0,
            epoch: 1,
        }
    }

    /// Forgets every entry (they stay true, but a cleared searcher must not depend on
    /// earlier searches).
    pub fn clear(&mut self) {
        self.age = 0;
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.entries.iter_mut().for_each(|e| e.epoch = 0);
            self.epoch = 1;
        }
    }

    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    #[inline]
    fn probe(&self, key: u64) -> Option<Entry> {
        let start = (key as usize & self.mask) * BUCKET;
        self.entries[start..start + BUCKET]
            .iter()
            .find(|e| e.key == key && e.epoch == self.epoch)
            .copied()
    }

    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn store(&mut self, key: u64, empties: u32, level: u8, lower: i32, upper: i32, mv: u8) {
        let start = (key as usize & self.mask) * BUCKET;
        let (age, epoch) = (self.age, self.epoch);
        let bucket = &mut self.entries[start..start + BUCKET];
        let mut victim = 0;
        let mut worth = i32::MAX;
        for (i, e) in bucket.iter().enumerate() {
            if e.epoch != epoch || e.key == key {
                victim = i;
                break;
            }
            let w = i32::from(e.empties) - 2 * i32::from(age.wrapping_sub(e.age));
            if w < worth {
                victim = i;
                worth = w;
            }
        }
        bucket[victim] = Entry {
            key,
            lower: lower.clamp(-64, 64) as i8,
            upper: upper.clamp(-64, 64) as i8,
            mv,
            empties: empties as u8,
            level,
            age,
            epoch,
        };
    }
}

/// Everything the recursion needs besides the position.
struct Ctx<'w, 'a> {
    watch: &'w mut Watch<'a>,
    table: &'w mut Solver,
    rules: OrderingRules,
    /// The midgame evaluation of (player, opponent), for ordering at many empties.
    eval: &'w dyn Fn(u64, u64) -> Score,
    /// For a selective solve: the ProbCut margin in standard deviations.
    selectivity: Option<f32>,
    /// The table level of this solve's results.
    level: u8,
}

/// A selective solve prunes from this many empties on.
const SELECTIVE_FROM: u32 = 10;

/// ProbCut against the exact score: a shallow midgame search predicts it.
fn probable_cut(
    ctx: &mut Ctx,
    p: u64,
    o: u64,
    empties: u32,
    alpha: i32,
    beta: i32,
    t: f32,
) -> Option<i32> {
    let fit = probcut::endgame_fit(empties);
    let (low, high) = probcut::bounds(fit, alpha * DISC, beta * DISC, t);
    let depth = ENDGAME_DEPTH;
    if midgame(ctx, p, o, depth, high - 1, high) >= high && !ctx.watch.aborted {
        return Some(beta);
    }
    if midgame(ctx, p, o, depth, low, low + 1) <= low && !ctx.watch.aborted {
        return Some(alpha);
    }
    None
}

/// A small full-width midgame search (no table), in the search's units, for the
/// selective solve's predictions.
fn midgame(ctx: &mut Ctx, p: u64, o: u64, depth: i32, mut alpha: Score, beta: Score) -> Score {
    if ctx.watch.tick() {
        return 0;
    }
    if depth <= 0 {
        return (ctx.eval)(p, o);
    }
    let moves = bitboard::legal_moves(p, o);
    if moves == 0 {
        if bitboard::legal_moves(o, p) == 0 {
            return final_score(p, o) * DISC;
        }
        return -midgame(ctx, o, p, depth - 1, -beta, -alpha);
    }
    let mut best = -INFINITY;
    for square in Squares(moves) {
        let flipped = bitboard::flips(square, p, o);
        let score = -midgame(
            ctx,
            o ^ flipped,
            p ^ flipped ^ (1 << square),
            depth - 1,
            -beta,
            -alpha,
        );
        if score > best {
            best = score;
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    best
}

/// From this many empties on, the evaluation joins the ordering key.
const EVAL_ORDER_FROM: u32 = 12;

/// The recursive layers, instantiated per kernel (see the module comment).
trait Paths: Kernel {
    fn deep(self, ctx: &mut Ctx, player: u64, opponent: u64, alpha: i32, beta: i32) -> i32;
    fn shallow(self, ctx: &mut Ctx, player: u64, opponent: u64, alpha: i32, beta: i32) -> i32;
}

impl Paths for Portable {
    fn deep(self, ctx: &mut Ctx, player: u64, opponent: u64, alpha: i32, beta: i32) -> i32 {
        deep(self, ctx, player, opponent, alpha, beta)
    }
    fn shallow(self, ctx: &mut Ctx, player: u64, opponent: u64, alpha: i32, beta: i32) -> i32 {
        shallow(self, ctx, player, opponent, alpha, beta)
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2_paths {
    use super::*;
    use crate::othello::bitboard::Avx2;

    #[target_feature(enable = "avx2,popcnt,lzcnt,bmi1,bmi2")]
    fn deep_avx2(k: Avx2, ctx: &mut Ctx, p: u64, o: u64, alpha: i32, beta: i32) -> i32 {
        deep(k, ctx, p, o, alpha, beta)
    }

    #[target_feature(enable = "avx2,popcnt,lzcnt,bmi1,bmi2")]
    fn shallow_avx2(k: Avx2, ctx: &mut Ctx, p: u64, o: u64, alpha: i32, beta: i32) -> i32 {
        shallow(k, ctx, p, o, alpha, beta)
    }

    impl Paths for Avx2 {
        #[inline(always)]
        fn deep(self, ctx: &mut Ctx, p: u64, o: u64, alpha: i32, beta: i32) -> i32 {
            // SAFETY: an `Avx2` value proves the CPU has these features.
            unsafe { deep_avx2(self, ctx, p, o, alpha, beta) }
        }
        #[inline(always)]
        fn shallow(self, ctx: &mut Ctx, p: u64, o: u64, alpha: i32, beta: i32) -> i32 {
            // SAFETY: as above.
            unsafe { shallow_avx2(self, ctx, p, o, alpha, beta) }
        }
    }
}

/// The exact score in discs, fail-soft within (`alpha`, `beta`), on the best kernel.
fn solve(ctx: &mut Ctx, player: u64, opponent: u64, alpha: i32, beta: i32) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if let Some(k) = crate::othello::bitboard::Avx2::detect() {
        return dispatch(k, ctx, player, opponent, alpha, beta);
    }
    dispatch(Portable, ctx, player, opponent, alpha, beta)
}

#[inline(always)]
fn dispatch<K: Paths>(k: K, ctx: &mut Ctx, p: u64, o: u64, alpha: i32, beta: i32) -> i32 {
    let empties = (!(p | o)).count_ones();
    if empties > SHALLOW_MAX {
        k.deep(ctx, p, o, alpha, beta)
    } else {
        k.shallow(ctx, p, o, alpha, beta)
    }
}

/// The final disc difference of an ended game (empties to the winner).
#[inline(always)]
fn final_score(p: u64, o: u64) -> i32 {
    let mine = p.count_ones() as i32;
    let theirs = o.count_ones() as i32;
    let empties = 64 - mine - theirs;
    match mine.cmp(&theirs) {
        std::cmp::Ordering::Greater => mine - theirs + empties,
        std::cmp::Ordering::Less => mine - theirs - empties,
        std::cmp::Ordering::Equal => 0,
    }
}

/// Quadrants holding an odd number of empties.
#[inline(always)]
fn odd_quadrants(empty: u64) -> u64 {
    let mut odd = 0;
    for q in QUADRANTS {
        if (empty & q).count_ones() & 1 == 1 {
            odd |= q;
        }
    }
    odd
}

/// More than the shallow layer: table, ordering, stability.
#[inline(always)]
fn deep<K: Paths>(k: K, ctx: &mut Ctx, p: u64, o: u64, mut alpha: i32, mut beta: i32) -> i32 {
    if ctx.watch.tick() {
        return 0;
    }
    let empty = !(p | o);
    let empties = empty.count_ones();
    let moves = k.legal_moves(p, o);
    if moves == 0 {
        if k.legal_moves(o, p) == 0 {
            return final_score(p, o);
        }
        return -dispatch(k, ctx, o, p, -beta, -alpha);
    }
    if ctx.rules.stability && alpha > 0 {
        // The opponent keeps its stable discs: the mover cannot score above this.
        let ceiling = 64 - 2 * stable_discs(o, p).count_ones() as i32;
        if ceiling <= alpha {
            return ceiling;
        }
        beta = beta.min(ceiling);
    }
    let key = mix64(p ^ mix64(o));
    let mut hash_move = 64;
    if let Some(e) = ctx.table.probe(key) {
        // Bounds from a less sure search than this one only order the moves.
        if e.level >= ctx.level {
            let (lower, upper) = (i32::from(e.lower), i32::from(e.upper));
            if lower >= beta || lower == upper {
                return lower;
            }
            if upper <= alpha {
                return upper;
            }
            alpha = alpha.max(lower);
            beta = beta.min(upper);
        }
        if ctx.rules.hash_move {
            hash_move = e.mv;
        }
    }
    if let Some(t) = ctx.selectivity
        && empties >= SELECTIVE_FROM
        && let Some(bound) = probable_cut(ctx, p, o, empties, alpha, beta, t)
    {
        return bound;
    }
    // Keyed moves, picked best first (selection: a cutoff often comes early).
    let odd = if ctx.rules.parity {
        odd_quadrants(empty)
    } else {
        0
    };
    let mut list = [(0i32, 0u8, 0u64); 32];
    let mut n = 0;
    for square in Squares(moves) {
        let flipped = k.flips(square, p, o);
        let key = if square as u8 == hash_move {
            i32::MAX
        } else {
            let mut key = 0;
            if ctx.rules.mobility {
                let (cp, co) = (o ^ flipped, p ^ flipped ^ (1 << square));
                let replies = k.legal_moves(cp, co);
                key -= 16 * (replies.count_ones() + (replies & CORNERS).count_ones()) as i32;
                // Potential mobility: empties next to our discs are the opponent's
                // future moves.
                let potential = neighbours(co) & !(cp | co);
                key -= 4 * potential.count_ones() as i32;
                if ctx.rules.evaluation && empties >= EVAL_ORDER_FROM {
                    key -= (ctx.eval)(cp, co) * 8 / DISC;
                }
            }
            if odd & (1 << square) != 0 {
                key += 4;
            }
            key
        };
        list[n] = (key, square as u8, flipped);
        n += 1;
    }
    let original_alpha = alpha;
    let mut best = -65;
    let mut best_move = 64;
    for i in 0..n {
        let mut top = i;
        for j in i + 1..n {
            if list[j].0 > list[top].0 {
                top = j;
            }
        }
        list.swap(i, top);
        let (_, square, flipped) = list[i];
        let (cp, co) = (o ^ flipped, p ^ flipped ^ (1 << square));
        let score = if i == 0 {
            -dispatch(k, ctx, cp, co, -beta, -alpha)
        } else {
            let probe = -dispatch(k, ctx, cp, co, -alpha - 1, -alpha);
            if probe > alpha && probe < beta {
                -dispatch(k, ctx, cp, co, -beta, -alpha)
            } else {
                probe
            }
        };
        if ctx.watch.aborted {
            return 0;
        }
        if score > best {
            best = score;
            best_move = square;
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    let (lower, upper) = if best >= beta {
        (best, 64)
    } else if best > original_alpha {
        (best, best)
    } else {
        (-64, best)
    };
    ctx.table
        .store(key, empties, ctx.level, lower, upper, best_move);
    best
}

/// Alpha-beta without a table, odd quadrants first; four empties or fewer go to
/// [`small`].
#[inline(always)]
fn shallow<K: Paths>(k: K, ctx: &mut Ctx, p: u64, o: u64, mut alpha: i32, beta: i32) -> i32 {
    let empty = !(p | o);
    if empty.count_ones() <= 4 {
        return small(k, ctx, p, o, alpha, beta, false);
    }
    if ctx.watch.tick() {
        return 0;
    }
    let moves = k.legal_moves(p, o);
    if moves == 0 {
        if k.legal_moves(o, p) == 0 {
            return final_score(p, o);
        }
        return -k.shallow(ctx, o, p, -beta, -alpha);
    }
    let odd = if ctx.rules.parity {
        odd_quadrants(empty)
    } else {
        0
    };
    let mut best = -65;
    for squares in [moves & odd, moves & !odd] {
        for square in Squares(squares) {
            let flipped = k.flips(square, p, o);
            let score = -k.shallow(ctx, o ^ flipped, p ^ flipped ^ (1 << square), -beta, -alpha);
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        return best;
                    }
                }
            }
        }
    }
    best
}

/// The last four empties or fewer: the squares in parity order (a lone empty in its
/// quadrant first), tried directly without a move list.
#[inline(always)]
fn small<K: Kernel>(
    k: K,
    ctx: &mut Ctx,
    p: u64,
    o: u64,
    alpha: i32,
    beta: i32,
    _passed: bool,
) -> i32 {
    let empty = !(p | o);
    let mut squares = [0u8; 4];
    let mut n = 0;
    let odd = if ctx.rules.parity {
        odd_quadrants(empty)
    } else {
        0
    };
    for part in [empty & odd, empty & !odd] {
        for square in Squares(part) {
            squares[n] = square as u8;
            n += 1;
        }
    }
    match n {
        0 => final_score(p, o),
        1 => {
            ctx.watch.tick();
            last(k, p, o, squares[0] as u32)
        }
        2 => solve2(k, ctx, p, o, alpha, beta, [squares[0], squares[1]], false),
        3 => solve3(
            k,
            ctx,
            p,
            o,
            alpha,
            beta,
            [squares[0], squares[1], squares[2]],
            false,
        ),
        _ => solve4(k, ctx, p, o, alpha, beta, squares, false),
    }
}

/// The score with one empty square left: whoever can play there does (the mover
/// first), flips counted without making the move.
#[inline(always)]
fn last<K: Kernel>(k: K, p: u64, o: u64, square: u32) -> i32 {
    let base = 2 * p.count_ones() as i32 - 63;
    let mine = k.flips(square, p, o).count_ones() as i32;
    if mine > 0 {
        return base + 2 * mine + 1;
    }
    let theirs = k.flips(square, o, p).count_ones() as i32;
    if theirs > 0 {
        return base - 2 * theirs - 1;
    }
    // Nobody can play: the empty goes to the winner (63 discs never tie).
    if base > 0 { base + 1 } else { base - 1 }
}

macro_rules! small_solver {
    ($name:ident, $n:literal, $next:ident, $next_n:literal) => {
        /// The exact score with exactly this many empties, given as squares.
        #[inline(always)]
        #[allow(clippy::too_many_arguments)]
        fn $name<K: Kernel>(
            k: K,
            ctx: &mut Ctx,
            p: u64,
            o: u64,
            mut alpha: i32,
            beta: i32,
            squares: [u8; $n],
            passed: bool,
        ) -> i32 {
            if ctx.watch.tick() {
                return 0;
            }
            let mut best = -65;
            for i in 0..$n {
                let square = u32::from(squares[i]);
                let flipped = k.flips(square, p, o);
                if flipped == 0 {
                    continue;
                }
                let mut rest = [0u8; $next_n];
                let mut r = 0;
                for (j, &s) in squares.iter().enumerate() {
                    if j != i {
                        rest[r] = s;
                        r += 1;
                    }
                }
                let (cp, co) = (o ^ flipped, p ^ flipped ^ (1 << square));
                let score = -$next(k, ctx, cp, co, -beta, -alpha, rest, false);
                if score > best {
                    best = score;
                    if score > alpha {
                        alpha = score;
                        if alpha >= beta {
                            return best;
                        }
                    }
                }
            }
            if best > -65 {
                best
            } else if passed {
                final_score(p, o)
            } else {
                -$name(k, ctx, o, p, -beta, -alpha, squares, true)
            }
        }
    };
}

/// Two empties: the children are scored by [`last`].
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn solve2<K: Kernel>(
    k: K,
    ctx: &mut Ctx,
    p: u64,
    o: u64,
    alpha: i32,
    beta: i32,
    squares: [u8; 2],
    passed: bool,
) -> i32 {
    if ctx.watch.tick() {
        return 0;
    }
    let mut best = -65;
    for (square, other) in [(squares[0], squares[1]), (squares[1], squares[0])] {
        let square = u32::from(square);
        let flipped = k.flips(square, p, o);
        if flipped == 0 {
            continue;
        }
        let (cp, co) = (o ^ flipped, p ^ flipped ^ (1 << square));
        let score = -last(k, cp, co, u32::from(other));
        if score > best {
            best = score;
            if score >= beta {
                return best;
            }
        }
    }
    let _ = alpha;
    if best > -65 {
        best
    } else if passed {
        final_score(p, o)
    } else {
        -solve2(k, ctx, o, p, -beta, -alpha, squares, true)
    }
}

small_solver!(solve3, 3, solve2, 2);
small_solver!(solve4, 4, solve3, 3);

impl<G: Game> Run<'_, G> {
    /// The exact score of `pos` (in the search's units, fail-soft within the window)
    /// when the search at `depth` reaches the end of an Othello game from here.
    pub(super) fn solve_if_reachable(
        &mut self,
        pos: &G,
        depth: i32,
        alpha: Score,
        beta: Score,
    ) -> Option<Score> {
        let pos = as_othello(pos)?;
        if depth < pos.empty_count() as i32 {
            return None;
        }
        let solver = self.solver.as_deref_mut()?;
        let evaluator = self.evaluator;
        let eval = move |player: u64, opponent: u64| {
            let pos = Position {
                player,
                opponent,
                side: Color::Black,
            };
            (&pos as &dyn Any)
                .downcast_ref::<G>()
                .map_or(0, |pos| evaluator.evaluate(pos))
        };
        Some(solve_position(
            solver,
            &mut self.watch,
            self.rules,
            &eval,
            self.end_selectivity,
            pos,
            alpha,
            beta,
        ))
    }
}

/// The exact score of `pos` in [`DISC`] units, fail-soft within (`alpha`, `beta`).
#[allow(clippy::too_many_arguments)]
pub(super) fn solve_position(
    solver: &mut Solver,
    watch: &mut Watch,
    rules: OrderingRules,
    eval: &dyn Fn(u64, u64) -> Score,
    selectivity: Option<usize>,
    pos: &Position,
    alpha: Score,
    beta: Score,
) -> Score {
    // The window in whole discs that contains the caller's window.
    let low = alpha.div_euclid(DISC).clamp(-65, 65);
    let high = (beta + DISC - 1).div_euclid(DISC).clamp(-65, 65);
    let mut ctx = Ctx {
        watch,
        table: solver,
        rules,
        eval,
        selectivity: selectivity.map(|level| probcut::SELECTIVE_T[level]),
        level: selectivity.map_or(EXACT, |level| level as u8),
    };
    solve(&mut ctx, pos.player, pos.opponent, low, high.max(low + 1)) * DISC
}
