//! The exact Othello endgame solver: the final disc difference under perfect play.
//!
//! Principal-variation search where the window is wider than null (the root and the
//! principal variation); everywhere else null-window searches, in layers by the number
//! of empty squares:
//! - from [`TABLE_FROM`] empties: the solver's own transposition table (exact bounds
//!   and best move), stability cutoffs, enhanced transposition cutoffs, and ordering
//!   by hash move, fewest opponent replies (corners counted twice), potential mobility,
//!   parity and, from [`EVAL_ORDER_FROM`] empties, the evaluation or a shallow search
//!   (whose values are remembered beside the table);
//!   where a less sure search (a selective solve) failed low before, neither enhanced
//!   transposition cutoffs nor ordering beyond parity, since all moves are likely
//!   searched;
//! - from [`ORDER_FROM`] empties: no table, fastest-first ordering;
//! - five empties: moves in odd-parity quadrants first;
//! - the last four empties: the squares themselves in parity order, no move
//!   generation, a stability cutoff at four (not below: too rare to pay), and the last
//!   square's flips counted without making the move.
//!
//! With several threads (from [`PARALLEL_FROM`] empties), all search the same position
//! and share the table; at a table node each puts off the moves (but the first) that
//! another is searching at the time, so that the threads part ways and each finds the
//! others' results in the table (ABDADA's idea on top of a shared table).
//!
//! The recursion is written once, generic over the move-generation [`Kernel`], and
//! instantiated per kernel inside functions compiled with that kernel's CPU features.
//! Scores here are in discs; the search converts them to its units.
//!
//! Submodules: [`table`] holds the solver's transposition table, [`last`] the solvers
//! for the last four empties; the layers above them are here.

mod last;
mod line;
mod table;

use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering::Relaxed;

use crate::game::{Color, INFINITY, Score};
use crate::othello::bitboard::{CORNERS, Kernel, Portable, Squares, neighbours};
use crate::othello::position::{DISC, Position};
use crate::search::plan::{SearchMut, Tables};
use crate::search::probcut::{beyond, bounds};
use crate::search::{OrderingRules, OutOfMemory, Watch};

use super::probcut::{SELECTIVE_T, endgame_fit, surest_level};
use super::probcut_params::ENDGAME_DEPTH;
use super::stability::stable_discs;

use last::{small, solve2, solve3, solve4};
pub(super) use line::{exact_line, proven, table_line};
pub use table::Solver;
use table::{EXACT, table_key};

/// The four 4x4 quadrants: parity counts empties per quadrant.
const QUADRANTS: [u64; 4] = [
    0x0000_0000_0F0F_0F0F,
    0x0000_0000_F0F0_F0F0,
    0x0F0F_0F0F_0000_0000,
    0xF0F0_F0F0_0000_0000,
];

/// Everything the recursion needs besides the position: this thread's node count and
/// clock, and what the threads of a solve share.
struct Ctx<'w, 'a> {
    watch: &'w mut Watch<'a>,
    shared: Shared<'w>,
    /// The surest level the node under way's result holds at so far: the least sure of
    /// the probable cuts and table entries it rests on ([`EXACT`]: none). Its entry is
    /// stored at that level, so that surer solves find it too (see [`own_level`]).
    holds_to: u8,
}

impl<'w, 'a> Ctx<'w, 'a> {
    /// A thread's context for a solve: nothing rested on yet.
    fn new(watch: &'w mut Watch<'a>, shared: Shared<'w>) -> Ctx<'w, 'a> {
        Ctx {
            watch,
            shared,
            holds_to: EXACT,
        }
    }

    /// The node under way rests on a result that holds up to `level`.
    #[inline(always)]
    fn rest_on(&mut self, level: u8) {
        self.holds_to = self.holds_to.min(level);
    }
}

/// The search of a node by `search`: its result holds at the level its own search
/// found, and its parent's at no surer one.
#[inline(always)]
fn own_level<R>(ctx: &mut Ctx, search: impl FnOnce(&mut Ctx) -> R) -> R {
    let outer = std::mem::replace(&mut ctx.holds_to, EXACT);
    let result = search(ctx);
    ctx.holds_to = ctx.holds_to.min(outer);
    result
}

/// What every thread of a solve shares.
#[derive(Clone, Copy)]
struct Shared<'w> {
    table: &'w Solver,
    rules: OrderingRules,
    /// The midgame evaluation of (player, opponent), for ordering at many empties.
    eval: &'w (dyn Fn(u64, u64) -> Score + Sync),
    /// For a selective solve: the ProbCut margin in standard deviations.
    selectivity: Option<f32>,
    /// The table level of this solve's results.
    level: u8,
    /// Whether other threads search beside this one.
    parallel: bool,
}

/// A solve searched in the midgame (`Plan::solves_in_midgame`) hands over to the solver
/// at this many empties: at 38 empties, a selective solve searched 138 M nodes handing
/// over at 22 empties, 175 M at 24 and 309 M at 20.
pub(super) const SOLVER_FROM: u32 = 22;

/// A selective solve prunes from this many empties on.
const SELECTIVE_FROM: u32 = 10;

/// ProbCut against the exact score: a shallow midgame search predicts it. Null window
/// (`alpha`, `alpha + 1`).
#[inline(always)]
fn probable_cut<K: Paths>(
    k: K,
    ctx: &mut Ctx,
    p: u64,
    o: u64,
    empties: u32,
    alpha: i32,
    t: f32,
) -> Option<i32> {
    let fit = endgame_fit(empties);
    let depth = ENDGAME_DEPTH;
    let (low_bound, high_bound) = (alpha * DISC, (alpha + 1) * DISC);
    let (low, high) = bounds(fit, low_bound, high_bound, t);
    let asked = usize::from(ctx.shared.level);
    // A midgame value never leaves (-64, 64) discs, so a bound beyond is never reached.
    if high <= 64 * DISC {
        let value = k.midgame(ctx, p, o, depth, high - 1, high);
        if value >= high && !ctx.watch.aborted {
            ctx.rest_on(surest_level(beyond(fit, value, high_bound), asked) as u8);
            return Some(alpha + 1);
        }
    }
    if low >= -64 * DISC {
        let value = k.midgame(ctx, p, o, depth, low, low + 1);
        if value <= low && !ctx.watch.aborted {
            ctx.rest_on(surest_level(-beyond(fit, value, low_bound), asked) as u8);
            return Some(alpha);
        }
    }
    None
}

/// A small full-width midgame search (no table), in the search's units: the selective
/// solve's predictions and the ordering at many empties.
#[inline(always)]
fn midgame<K: Paths>(
    k: K,
    ctx: &mut Ctx,
    p: u64,
    o: u64,
    depth: i32,
    mut alpha: Score,
    beta: Score,
) -> Score {
    if ctx.watch.tick() {
        return 0;
    }
    if depth <= 0 {
        return (ctx.shared.eval)(p, o);
    }
    let moves = k.legal_moves(p, o);
    if moves == 0 {
        if k.legal_moves(o, p) == 0 {
            return final_score(p, o) * DISC;
        }
        return -k.midgame(ctx, o, p, depth - 1, -beta, -alpha);
    }
    let mut best = -INFINITY;
    for square in Squares(moves) {
        let flipped = k.flips(square, p, o);
        let (cp, co) = (o ^ flipped, p ^ flipped ^ (1 << square));
        let score = -k.midgame(ctx, cp, co, depth - 1, -beta, -alpha);
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

/// Null-window nodes with at least this many empties use the table, the full ordering
/// key and enhanced transposition cutoffs (from [`ETC_FROM`]); fewer empties are not
/// worth a table access (a cache miss, most of the time).
const TABLE_FROM: u32 = 9;

/// From this many empties on (below the table), moves are ordered fastest first;
/// below, odd-parity quadrants first only.
const ORDER_FROM: u32 = 6;

/// From this many empties on, the evaluation after the move joins the ordering key.
const EVAL_ORDER_FROM: u32 = 12;

/// From this many empties on, a shallow search replaces that evaluation, one ply
/// deeper every [`SEARCH_ORDER_STEP`] empties.
const SEARCH_ORDER_FROM: u32 = 16;
const SEARCH_ORDER_STEP: u32 = 3;

/// From this many empties on, the children are looked up in the table before any
/// is searched (enhanced transposition cutoff).
const ETC_FROM: u32 = 12;

/// Ordering key weights: per opponent reply (corners count twice), per empty square
/// next to the mover's discs (the opponent's potential moves), for a move into an
/// odd quadrant, and per disc of evaluation or shallow search value.
const MOBILITY_WEIGHT: i32 = 16;
const POTENTIAL_WEIGHT: i32 = 4;
const PARITY_WEIGHT: i32 = 4;
const EVAL_WEIGHT: i32 = 4;
const SEARCH_WEIGHT: i32 = 8;

/// In a parallel solve, from this many empties on, a move (but the first) that another
/// thread is searching now is put off until the others have been searched.
const DEFER_FROM: u32 = 12;

/// The stability cutoff is tried only where the opponent has this many discs more
/// than it would need all stable to cut: stable discs are costly to count and are
/// rarely nearly all of a colour.
const STABILITY_SLACK: i32 = 8;

/// The recursive layers, instantiated per kernel (see the module comment). All but
/// `pv` search the null window (`alpha`, `alpha + 1`).
trait Paths: Kernel {
    fn pv(self, ctx: &mut Ctx, p: u64, o: u64, alpha: i32, beta: i32) -> i32;
    fn nws_table(self, ctx: &mut Ctx, p: u64, o: u64, alpha: i32) -> i32;
    fn nws_ordered(self, ctx: &mut Ctx, p: u64, o: u64, alpha: i32) -> i32;
    fn nws_parity(self, ctx: &mut Ctx, p: u64, o: u64, alpha: i32) -> i32;
    fn solve4(self, ctx: &mut Ctx, p: u64, o: u64, alpha: i32, squares: [u8; 4]) -> i32;
    fn solve3(self, ctx: &mut Ctx, p: u64, o: u64, alpha: i32, squares: [u8; 3]) -> i32;
    fn solve2(self, ctx: &mut Ctx, p: u64, o: u64, alpha: i32, squares: [u8; 2]) -> i32;
    fn midgame(self, ctx: &mut Ctx, p: u64, o: u64, depth: i32, alpha: Score, beta: Score)
    -> Score;
}

/// One method of [`Paths`] for a kernel: it calls the generic body of the same name
/// through a function compiled with `$features`, so that the kernel's code inlines
/// into it.
macro_rules! compiled_for {
    ($kernel:ty, $features:literal, $name:ident($($arg:ident: $ty:ty),*) -> $ret:ty) => {
        #[inline(always)]
        fn $name(self, ctx: &mut Ctx, $($arg: $ty),*) -> $ret {
            #[target_feature(enable = $features)]
            fn f(k: $kernel, ctx: &mut Ctx, $($arg: $ty),*) -> $ret {
                $name(k, ctx, $($arg),*)
            }
            // SAFETY: a value of the kernel type proves the CPU has the features.
            unsafe { f(self, ctx, $($arg),*) }
        }
    };
}

/// Implements [`Paths`] for a kernel compiled with `$features`.
macro_rules! paths {
    ($kernel:ty, $features:literal) => {
        impl Paths for $kernel {
            compiled_for!($kernel, $features, pv(p: u64, o: u64, alpha: i32, beta: i32) -> i32);
            compiled_for!($kernel, $features, nws_table(p: u64, o: u64, alpha: i32) -> i32);
            compiled_for!($kernel, $features, nws_ordered(p: u64, o: u64, alpha: i32) -> i32);
            compiled_for!($kernel, $features, nws_parity(p: u64, o: u64, alpha: i32) -> i32);
            compiled_for!($kernel, $features, solve4(p: u64, o: u64, alpha: i32, sq: [u8; 4]) -> i32);
            compiled_for!($kernel, $features, solve3(p: u64, o: u64, alpha: i32, sq: [u8; 3]) -> i32);
            compiled_for!($kernel, $features, solve2(p: u64, o: u64, alpha: i32, sq: [u8; 2]) -> i32);
            compiled_for!(
                $kernel,
                $features,
                midgame(p: u64, o: u64, depth: i32, alpha: Score, beta: Score) -> Score
            );
        }
    };
}

paths!(Portable, "popcnt");
#[cfg(target_arch = "x86_64")]
paths!(
    crate::othello::bitboard::Avx2,
    "avx2,popcnt,lzcnt,bmi1,bmi2"
);

/// The exact score in discs, fail-soft within (`alpha`, `beta`), on the best kernel.
fn solve(ctx: &mut Ctx, player: u64, opponent: u64, alpha: i32, beta: i32) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if let Some(k) = crate::othello::bitboard::Avx2::detect() {
        return k.pv(ctx, player, opponent, alpha, beta);
    }
    Portable.pv(ctx, player, opponent, alpha, beta)
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

/// The quadrants whose squares go first: those holding an odd number of empties, or
/// none where the parity rule is switched off.
#[inline(always)]
fn parity_first(ctx: &Ctx, empty: u64) -> u64 {
    if ctx.shared.rules.parity {
        odd_quadrants(empty)
    } else {
        0
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

/// The null-window search at any number of empties.
#[inline(always)]
fn nws<K: Paths>(k: K, ctx: &mut Ctx, p: u64, o: u64, alpha: i32) -> i32 {
    let empties = (!(p | o)).count_ones();
    if empties >= TABLE_FROM {
        k.nws_table(ctx, p, o, alpha)
    } else if empties >= ORDER_FROM {
        k.nws_ordered(ctx, p, o, alpha)
    } else if empties > 4 {
        k.nws_parity(ctx, p, o, alpha)
    } else {
        small(k, ctx, p, o, alpha)
    }
}

/// The start of a null-window node with a move list: the node count, the end of the
/// game or a pass, and the stability cutoff. `Ok` holds the mover's legal moves (at least
/// one); `Err` the node's score.
#[inline(always)]
fn enter_nws<K: Paths>(k: K, ctx: &mut Ctx, p: u64, o: u64, alpha: i32) -> Result<u64, i32> {
    if ctx.watch.tick() {
        return Err(0);
    }
    let moves = k.legal_moves(p, o);
    if moves == 0 {
        if k.legal_moves(o, p) == 0 {
            return Err(final_score(p, o));
        }
        return Err(-nws(k, ctx, o, p, -alpha - 1));
    }
    match stability_cut(ctx, p, o, alpha) {
        Some(ceiling) => Err(ceiling),
        None => Ok(moves),
    }
}

/// The opponent keeps its stable discs, so the mover cannot score above
/// `64 - 2 * stable`: that ceiling when it is at most `alpha`.
#[inline(always)]
fn stability_cut(ctx: &Ctx, p: u64, o: u64, alpha: i32) -> Option<i32> {
    if !ctx.shared.rules.stability || 64 - 2 * (o.count_ones() as i32 - STABILITY_SLACK) > alpha {
        return None;
    }
    let ceiling = 64 - 2 * stable_discs(o, p).count_ones() as i32;
    (ceiling <= alpha).then_some(ceiling)
}

/// A move list, sorted lazily: (key, square, flipped discs).
type MoveList<const N: usize> = [(i32, u8, u64); N];

/// The moves of `p` keyed for ordering, best first once picked: the hash move, then
/// fewest opponent replies and, in the table layer, potential mobility and from
/// [`EVAL_ORDER_FROM`] the evaluation or a shallow search; odd quadrants first on ties.
#[inline(always)]
fn keyed_moves<K: Paths, const N: usize>(
    k: K,
    ctx: &mut Ctx,
    p: u64,
    o: u64,
    moves: u64,
    hash_move: u8,
    list: &mut MoveList<N>,
) -> usize {
    let empty = !(p | o);
    let empties = empty.count_ones();
    let table_layer = empties >= TABLE_FROM;
    let odd = parity_first(ctx, empty);
    let mut n = 0;
    for square in Squares(moves) {
        let flipped = k.flips(square, p, o);
        let key = if square as u8 == hash_move {
            i32::MAX
        } else {
            let mut key = 0;
            if ctx.shared.rules.mobility {
                let (cp, co) = (o ^ flipped, p ^ flipped ^ (1 << square));
                let replies = k.legal_moves(cp, co);
                key -= MOBILITY_WEIGHT
                    * (replies.count_ones() + (replies & CORNERS).count_ones()) as i32;
                if empties > TABLE_FROM && empties < ETC_FROM {
                    // The child will look itself up: start loading its bucket now.
                    ctx.shared.table.prefetch(table_key(cp, co));
                }
                if table_layer {
                    // Empties next to the mover's discs are the opponent's future moves.
                    let potential = neighbours(co) & !(cp | co);
                    key -= POTENTIAL_WEIGHT * potential.count_ones() as i32;
                }
                if ctx.shared.rules.evaluation && empties >= SEARCH_ORDER_FROM {
                    let depth = 1 + (empties - SEARCH_ORDER_FROM) / SEARCH_ORDER_STEP;
                    let value = shallow_value(k, ctx, cp, co, depth as u8);
                    key -= value * SEARCH_WEIGHT / DISC;
                } else if ctx.shared.rules.evaluation && empties >= EVAL_ORDER_FROM {
                    key -= (ctx.shared.eval)(cp, co) * EVAL_WEIGHT / DISC;
                }
            }
            if odd & (1 << square) != 0 {
                key += PARITY_WEIGHT;
            }
            key
        };
        list[n] = (key, square as u8, flipped);
        n += 1;
    }
    n
}

/// The moves of `p` in odd quadrants first, then the others, each in square order,
/// all keyed alike (so that [`pick`] keeps this order).
#[inline(always)]
fn parity_moves<K: Paths, const N: usize>(
    k: K,
    ctx: &Ctx,
    p: u64,
    o: u64,
    moves: u64,
    list: &mut MoveList<N>,
) -> usize {
    let odd = parity_first(ctx, !(p | o));
    let mut n = 0;
    for square in Squares(moves & odd).chain(Squares(moves & !odd)) {
        list[n] = (0, square as u8, k.flips(square, p, o));
        n += 1;
    }
    n
}

/// The value of a full-window midgame search of `depth` plies, remembered.
#[inline(always)]
fn shallow_value<K: Paths>(k: K, ctx: &mut Ctx, p: u64, o: u64, depth: u8) -> Score {
    let key = table_key(p, o);
    if let Some(value) = ctx.shared.table.ordering(key, depth) {
        return value;
    }
    let value = k.midgame(ctx, p, o, i32::from(depth), -INFINITY, INFINITY);
    if !ctx.watch.aborted {
        ctx.shared.table.remember_ordering(key, depth, value);
    }
    value
}

/// Moves the best-keyed move of `list[i..n]` to `i` (selection: a cutoff often comes
/// early, so a full sort would be wasted).
#[inline(always)]
fn pick<const N: usize>(list: &mut MoveList<N>, i: usize, n: usize) -> (u8, u64) {
    let mut top = i;
    for j in i + 1..n {
        if list[j].0 > list[top].0 {
            top = j;
        }
    }
    list.swap(i, top);
    (list[i].1, list[i].2)
}

/// A principal-variation node: window (`alpha`, `beta`) wider than null.
#[inline(always)]
fn pv<K: Paths>(k: K, ctx: &mut Ctx, p: u64, o: u64, alpha: i32, beta: i32) -> i32 {
    if beta - alpha <= 1 {
        return nws(k, ctx, p, o, alpha);
    }
    own_level(ctx, |ctx| pv_node(k, ctx, p, o, alpha, beta))
}

/// The body of [`pv`].
#[inline(always)]
fn pv_node<K: Paths>(k: K, ctx: &mut Ctx, p: u64, o: u64, mut alpha: i32, mut beta: i32) -> i32 {
    if ctx.watch.tick() {
        return 0;
    }
    let empties = (!(p | o)).count_ones();
    let moves = k.legal_moves(p, o);
    if moves == 0 {
        if k.legal_moves(o, p) == 0 {
            return final_score(p, o);
        }
        return -k.pv(ctx, o, p, -beta, -alpha);
    }
    let key = table_key(p, o);
    let use_table = empties >= TABLE_FROM;
    let mut hash_move = 64;
    if use_table && let Some(e) = ctx.shared.table.probe(key) {
        if e.level >= ctx.shared.level {
            ctx.rest_on(e.level);
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
        if ctx.shared.rules.hash_move {
            hash_move = e.mv;
        }
    }
    let mut list: MoveList<34> = [(0, 0, 0); 34];
    let n = keyed_moves(k, ctx, p, o, moves, hash_move, &mut list);
    let original_alpha = alpha;
    let mut best = -65;
    let mut best_move = 64;
    for i in 0..n {
        let (square, flipped) = pick(&mut list, i, n);
        let (cp, co) = (o ^ flipped, p ^ flipped ^ (1 << square));
        let score = if i == 0 {
            -k.pv(ctx, cp, co, -beta, -alpha)
        } else {
            let probe = -nws(k, ctx, cp, co, -alpha - 1);
            if probe > alpha && probe < beta {
                -k.pv(ctx, cp, co, -beta, -alpha)
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
    if use_table {
        let (lower, upper) = proven_bounds(best, original_alpha, beta);
        ctx.shared
            .table
            .store(key, empties, ctx.holds_to, lower, upper, best_move);
    }
    best
}

/// A null-window node with the table: stability and table cutoffs, enhanced
/// transposition cutoffs, the full ordering key.
#[inline(always)]
fn nws_table<K: Paths>(k: K, ctx: &mut Ctx, p: u64, o: u64, alpha: i32) -> i32 {
    own_level(ctx, |ctx| nws_table_node(k, ctx, p, o, alpha))
}

/// The body of [`nws_table`].
#[inline(always)]
fn nws_table_node<K: Paths>(k: K, ctx: &mut Ctx, p: u64, o: u64, alpha: i32) -> i32 {
    // Step 1. The node count, the end of the game or a pass, the stability cutoff.
    let moves = match enter_nws(k, ctx, p, o, alpha) {
        Ok(moves) => moves,
        Err(score) => return score,
    };
    let empties = (!(p | o)).count_ones();
    let key = table_key(p, o);
    // Step 2. The table: a cutoff, or the move to try first.
    let (hash_move, expected_all) = match probe_nws(ctx, key, alpha) {
        Ok(found) => found,
        Err(score) => return score,
    };
    // Step 3. A probable cut, in a selective solve.
    if let Some(t) = ctx.shared.selectivity
        && empties >= SELECTIVE_FROM
        && let Some(bound) = probable_cut(k, ctx, p, o, empties, alpha, t)
    {
        return bound;
    }
    // Step 4. Enhanced transposition cutoffs: a child's entry that already proves the
    // node fails high.
    if empties >= ETC_FROM
        && !expected_all
        && let Some(score) = transposition_cutoff(k, ctx, (p, o), moves, key, alpha)
    {
        return score;
    }
    // Step 5. The moves, the hash move first.
    let Some((best, best_move)) = nws_moves(k, ctx, (p, o), moves, hash_move, expected_all, alpha)
    else {
        return 0;
    };
    // Step 6. What the node proves, into the table.
    let (lower, upper) = proven_bounds(best, alpha, alpha + 1);
    ctx.shared
        .table
        .store(key, empties, ctx.holds_to, lower, upper, best_move);
    best
}

/// The table's entry for a null-window node of `key` at `alpha`: `Err` holds the
/// node's score where its bounds settle it; `Ok` the hash move (64 for none) and
/// whether every move is expected to fail low.
#[inline(always)]
fn probe_nws(ctx: &mut Ctx, key: u64, alpha: i32) -> Result<(u8, bool), i32> {
    let mut hash_move = 64;
    // A search of this position failed low here before (a selective one, or the
    // exact one with another window): expect every move to fail low again, so that
    // neither enhanced transposition cutoffs nor ordering would pay.
    let mut expected_all = false;
    if let Some(e) = ctx.shared.table.probe(key) {
        expected_all = i32::from(e.upper) <= alpha;
        // Bounds from a less sure search than this one only order the moves.
        if e.level >= ctx.shared.level {
            let (lower, upper) = (i32::from(e.lower), i32::from(e.upper));
            if lower > alpha || upper <= alpha {
                ctx.rest_on(e.level);
                return Err(if lower > alpha { lower } else { upper });
            }
        }
        if ctx.shared.rules.hash_move {
            hash_move = e.mv;
        }
    }
    Ok((hash_move, expected_all))
}

/// The score of a child of (`p`, `o`) (whose `moves` they are) whose entry proves the
/// node above `alpha`, stored for the node of `key` on the way; `None` where no child's
/// does.
#[inline(always)]
fn transposition_cutoff<K: Paths>(
    k: K,
    ctx: &mut Ctx,
    (p, o): (u64, u64),
    moves: u64,
    key: u64,
    alpha: i32,
) -> Option<i32> {
    let empties = (!(p | o)).count_ones();
    // The children's buckets are all requested first, to wait for memory once.
    for square in Squares(moves) {
        let flipped = k.flips(square, p, o);
        ctx.shared
            .table
            .prefetch(table_key(o ^ flipped, p ^ flipped ^ (1 << square)));
    }
    for square in Squares(moves) {
        let flipped = k.flips(square, p, o);
        let (cp, co) = (o ^ flipped, p ^ flipped ^ (1 << square));
        if let Some(e) = ctx.shared.table.probe(table_key(cp, co))
            && e.level >= ctx.shared.level
            && -i32::from(e.upper) > alpha
        {
            let score = -i32::from(e.upper);
            ctx.rest_on(e.level);
            ctx.shared
                .table
                .store(key, empties, ctx.holds_to, score, 64, square as u8);
            return Some(score);
        }
    }
    None
}

/// The moves of a null-window node of (`p`, `o`) at `alpha`, searched until one fails
/// high: the hash move first (64: none), then the others keyed (or, where every move
/// is `expected_all` to fail low, by parity only), beside other threads those they are
/// searching put off to the end. The best score and its move (64: none); `None` where
/// the search was stopped.
#[inline(always)]
fn nws_moves<K: Paths>(
    k: K,
    ctx: &mut Ctx,
    (p, o): (u64, u64),
    moves: u64,
    hash_move: u8,
    expected_all: bool,
    alpha: i32,
) -> Option<(i32, u8)> {
    let empties = (!(p | o)).count_ones();
    let mut best = -65;
    let mut best_move = 64;
    let mut rest = moves;
    if hash_move < 64 && moves & (1 << hash_move) != 0 {
        // The hash move first, before the others are keyed: it often cuts alone.
        let square = u32::from(hash_move);
        let flipped = k.flips(square, p, o);
        best = -nws(k, ctx, o ^ flipped, p ^ flipped ^ (1 << square), -alpha - 1);
        if ctx.watch.aborted {
            return None;
        }
        best_move = hash_move;
        rest &= !(1 << square);
    }
    if best > alpha || rest == 0 {
        return Some((best, best_move));
    }
    let mut list: MoveList<34> = [(0, 0, 0); 34];
    let n = if expected_all {
        // Odd quadrants first, no keys: all moves are likely searched anyway.
        parity_moves(k, ctx, p, o, rest, &mut list)
    } else {
        keyed_moves(k, ctx, p, o, rest, hash_move, &mut list)
    };
    let defer = ctx.shared.parallel && empties >= DEFER_FROM;
    let mut deferred = 0u64;
    for i in 0..n {
        let (square, flipped) = pick(&mut list, i, n);
        let (cp, co) = (o ^ flipped, p ^ flipped ^ (1 << square));
        // Another thread's move is put off, but never the first one searched here.
        if defer && (i > 0 || hash_move < 64) && ctx.shared.table.busy.is_busy(table_key(cp, co)) {
            deferred |= 1 << square;
            continue;
        }
        let score = -child(k, ctx, cp, co, alpha, defer);
        if ctx.watch.aborted {
            return None;
        }
        if score > best {
            best = score;
            best_move = square;
            if score > alpha {
                return Some((best, best_move));
            }
        }
    }
    for square in Squares(deferred) {
        let flipped = k.flips(square, p, o);
        let (cp, co) = (o ^ flipped, p ^ flipped ^ (1 << square));
        let score = -child(k, ctx, cp, co, alpha, true);
        if ctx.watch.aborted {
            return None;
        }
        if score > best {
            best = score;
            best_move = square as u8;
            if score > alpha {
                break;
            }
        }
    }
    Some((best, best_move))
}

/// The bounds on the exact score that a fail-soft result `best` of the window
/// (`alpha`, `beta`) proves.
#[inline(always)]
fn proven_bounds(best: i32, alpha: i32, beta: i32) -> (i32, i32) {
    if best >= beta {
        (best, 64)
    } else if best > alpha {
        (best, best)
    } else {
        (-64, best)
    }
}

/// A child of a table node, marked busy while it is searched where other threads could
/// defer it.
#[inline(always)]
fn child<K: Paths>(k: K, ctx: &mut Ctx, cp: u64, co: u64, alpha: i32, mark: bool) -> i32 {
    if !mark {
        return nws(k, ctx, cp, co, -alpha - 1);
    }
    let key = table_key(cp, co);
    ctx.shared.table.busy.enter(key);
    let score = nws(k, ctx, cp, co, -alpha - 1);
    ctx.shared.table.busy.leave(key);
    score
}

/// A null-window node below the table: stability cutoff and fastest-first ordering.
#[inline(always)]
fn nws_ordered<K: Paths>(k: K, ctx: &mut Ctx, p: u64, o: u64, alpha: i32) -> i32 {
    let moves = match enter_nws(k, ctx, p, o, alpha) {
        Ok(moves) => moves,
        Err(score) => return score,
    };
    if moves & (moves - 1) == 0 {
        // A single move needs no ordering.
        let square = moves.trailing_zeros();
        let flipped = k.flips(square, p, o);
        return -nws(k, ctx, o ^ flipped, p ^ flipped ^ (1 << square), -alpha - 1);
    }
    // Below the table: fewer than `TABLE_FROM` empties, so as many moves at most.
    let mut list: MoveList<{ TABLE_FROM as usize - 1 }> = [(0, 0, 0); TABLE_FROM as usize - 1];
    let n = keyed_moves(k, ctx, p, o, moves, 64, &mut list);
    let mut best = -65;
    for i in 0..n {
        let (square, flipped) = pick(&mut list, i, n);
        let score = -nws(k, ctx, o ^ flipped, p ^ flipped ^ (1 << square), -alpha - 1);
        if score > best {
            best = score;
            if score > alpha {
                break;
            }
        }
    }
    best
}

/// A null-window node with few empties: stability cutoff, moves in odd quadrants first.
#[inline(always)]
fn nws_parity<K: Paths>(k: K, ctx: &mut Ctx, p: u64, o: u64, alpha: i32) -> i32 {
    let moves = match enter_nws(k, ctx, p, o, alpha) {
        Ok(moves) => moves,
        Err(score) => return score,
    };
    let empty = !(p | o);
    let odd = parity_first(ctx, empty);
    let mut best = -65;
    for squares in [moves & odd, moves & !odd] {
        for square in Squares(squares) {
            let flipped = k.flips(square, p, o);
            let score = -nws(k, ctx, o ^ flipped, p ^ flipped ^ (1 << square), -alpha - 1);
            if score > best {
                best = score;
                if score > alpha {
                    return best;
                }
            }
        }
    }
    best
}

/// The exact score of `pos` (in the search's units, fail-soft within the window) when
/// the search at `depth` reaches the end of the game from here; `None` where it does
/// not, or where the run has no solver (a helper thread's).
#[inline(always)]
pub(super) fn solve_if_reachable(
    mut search: SearchMut<'_, '_, Position>,
    pos: &Position,
    depth: i32,
    alpha: Score,
    beta: Score,
) -> Option<Score> {
    let empties = pos.empty_count();
    let view = search.view();
    if depth < empties as i32 || view.solves_in_midgame() && empties > SOLVER_FROM {
        return None;
    }
    let solver = view.tables()?;
    let evaluator = view.evaluator();
    let (rules, selectivity) = (view.rules(), view.end_selectivity());
    // A solve in the midgame calls the solver many times: no threads for each.
    let threads = if view.solves_in_midgame() {
        1
    } else {
        view.threads()
    };
    // The side only names the colours; the solver's positions need none.
    let eval = move |player: u64, opponent: u64| {
        evaluator.evaluate(&Position {
            player,
            opponent,
            side: Color::Black,
        })
    };
    let pos = &Position {
        player: pos.player,
        opponent: pos.opponent,
        side: Color::Black,
    };
    let (score, holds_to) = solve_position(
        solver,
        search.watch(),
        rules,
        &eval,
        selectivity,
        threads,
        pos,
        alpha,
        beta,
    );
    search.rest_on((holds_to != EXACT).then_some(usize::from(holds_to)));
    Some(score)
}

/// The solver's table as the plan's tables: half the hash size.
impl Tables for Solver {
    const SIZED: bool = true;

    fn new(megabytes: usize) -> Result<Solver, OutOfMemory> {
        Solver::new(megabytes)
    }

    fn bytes(megabytes: usize) -> Option<Vec<usize>> {
        Solver::bytes(megabytes).map(|sizes| sizes.to_vec())
    }

    fn clear(&mut self) {
        Solver::clear(self);
    }

    fn new_search(&mut self) {
        Solver::new_search(self);
    }
}

/// A solve of this many empties or more uses the helper threads; below, starting them
/// costs more than they save.
const PARALLEL_FROM: u32 = 18;

/// The exact score of `pos` in [`DISC`] units, fail-soft within (`alpha`, `beta`). With
/// `threads` > 1 and enough empties, helper threads search the same position beside
/// this one, sharing the table: each puts off the moves another is searching at the
/// time (so that they part ways), and their results serve the others through the
/// table. The calling thread's result is returned, with the level it holds to
/// ([`EXACT`] where exact).
#[allow(clippy::too_many_arguments)]
fn solve_position(
    solver: &Solver,
    watch: &mut Watch,
    rules: OrderingRules,
    eval: &(dyn Fn(u64, u64) -> Score + Sync),
    selectivity: Option<usize>,
    threads: usize,
    pos: &Position,
    alpha: Score,
    beta: Score,
) -> (Score, u8) {
    // The window in whole discs that contains the caller's window.
    let low = alpha.div_euclid(DISC).clamp(-65, 65);
    let high = (beta + DISC - 1)
        .div_euclid(DISC)
        .clamp(-65, 65)
        .max(low + 1);
    let (player, opponent) = (pos.player, pos.opponent);
    let shared = Shared {
        table: solver,
        rules,
        eval,
        selectivity: selectivity.map(|level| SELECTIVE_T[level]),
        level: selectivity.map_or(EXACT, |level| level as u8),
        parallel: threads > 1 && pos.empty_count() >= PARALLEL_FROM,
    };
    if !shared.parallel {
        let ctx = &mut Ctx::new(watch, shared);
        let score = solve(ctx, player, opponent, low, high);
        return (score * DISC, ctx.holds_to);
    }
    let finished = AtomicBool::new(false);
    let deadline = watch.deadline;
    std::thread::scope(|scope| {
        // A helper the system cannot start is done without: it only speeds the solve.
        let helpers: Vec<_> = (1..threads)
            .filter_map(|_| {
                let finished = &finished;
                let started = std::thread::Builder::new()
                    .name("solver".into())
                    .spawn_scoped(scope, move || {
                        let mut own = Watch::new(finished, deadline, u64::MAX);
                        solve(&mut Ctx::new(&mut own, shared), player, opponent, low, high);
                        own.nodes
                    });
                started
                    .map_err(|e| log::warn!("solver thread not started: {e}"))
                    .ok()
            })
            .collect();
        let ctx = &mut Ctx::new(watch, shared);
        let score = solve(ctx, player, opponent, low, high);
        let holds_to = ctx.holds_to;
        finished.store(true, Relaxed);
        for helper in helpers {
            match helper.join() {
                Ok(nodes) => watch.nodes += nodes,
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        (score * DISC, holds_to)
    })
}

#[cfg(test)]
mod tests {
    use super::super::probcut::LEVEL_73;
    use super::*;
    use crate::game::mix64;
    use crate::othello::bitboard;

    /// Plain alpha-beta to the end of the game, no ordering: the reference.
    fn reference(p: u64, o: u64, mut alpha: i32, beta: i32) -> i32 {
        let moves = bitboard::legal_moves(p, o);
        if moves == 0 {
            if bitboard::legal_moves(o, p) == 0 {
                return final_score(p, o);
            }
            return -reference(o, p, -beta, -alpha);
        }
        for square in Squares(moves) {
            let flipped = bitboard::flips(square, p, o);
            alpha = alpha.max(-reference(
                o ^ flipped,
                p ^ flipped ^ (1 << square),
                -beta,
                -alpha,
            ));
            if alpha >= beta {
                break;
            }
        }
        alpha
    }

    /// Positions of a pseudo-random game with `empties` empties (or the game's end).
    fn position(seed: u64, empties: u32) -> (u64, u64) {
        let mut pos = Position::start();
        let mut state = seed;
        while pos.empty_count() > empties {
            let moves = pos.moves();
            if moves == 0 {
                if bitboard::legal_moves(pos.opponent, pos.player) == 0 {
                    break;
                }
                pos = Position {
                    player: pos.opponent,
                    opponent: pos.player,
                    side: pos.side,
                };
                continue;
            }
            state = mix64(state.wrapping_add(0x9E37_79B9_7F4A_7C15));
            let pick = (state % u64::from(moves.count_ones())) as usize;
            pos = pos.play_square(Squares(moves).nth(pick).unwrap());
        }
        (pos.player, pos.opponent)
    }

    fn solve_with<K: Paths>(k: K, p: u64, o: u64, alpha: i32, beta: i32) -> i32 {
        let stop = AtomicBool::new(false);
        let mut watch = Watch::new(&stop, None, u64::MAX);
        let table = Solver::new(1).unwrap();
        let eval = |p: u64, o: u64| (p.count_ones() as i32 - o.count_ones() as i32) * DISC;
        let shared = Shared {
            table: &table,
            rules: OrderingRules::default(),
            eval: &eval,
            selectivity: None,
            level: EXACT,
            parallel: false,
        };
        let mut ctx = Ctx::new(&mut watch, shared);
        k.pv(&mut ctx, p, o, alpha, beta)
    }

    /// A selective solve's result holds at the level it says: solved afresh at that
    /// level, every position scores the same (each cut had that much margin to spare,
    /// so the surer solve makes the same cuts and searches the same tree); and some
    /// results hold at surer levels than asked, some only at the level asked.
    #[test]
    fn a_selective_result_holds_at_the_level_it_says() {
        let eval = |p: u64, o: u64| (p.count_ones() as i32 - o.count_ones() as i32) * DISC;
        let solve_at = |pos: &Position, level: usize| {
            let stop = AtomicBool::new(false);
            let mut watch = Watch::new(&stop, None, u64::MAX);
            let table = Solver::new(1).unwrap();
            let rules = OrderingRules::default();
            let (alpha, beta) = (-65 * DISC, 65 * DISC);
            solve_position(
                &table,
                &mut watch,
                rules,
                &eval,
                Some(level),
                1,
                pos,
                alpha,
                beta,
            )
        };
        let (mut surer, mut asked) = (0, 0);
        for seed in 0..24 {
            let (player, opponent) = position(seed, 16 + (seed % 3) as u32);
            let pos = Position {
                player,
                opponent,
                side: Color::Black,
            };
            for level in [0, LEVEL_73] {
                let (score, holds_to) = solve_at(&pos, level);
                if holds_to == EXACT {
                    continue;
                }
                let holds_to = usize::from(holds_to);
                assert!(holds_to >= level, "seed {seed}: {holds_to} below {level}");
                if holds_to > level {
                    surer += 1;
                    let (again, holds_again) = solve_at(&pos, holds_to);
                    assert_eq!(
                        (again, usize::from(holds_again)),
                        (score, holds_to),
                        "seed {seed}, level {level}"
                    );
                } else {
                    asked += 1;
                }
            }
        }
        assert!(surer > 0 && asked > 0, "{surer} surer, {asked} as asked");
    }

    /// Fail-soft: the result is the value inside the window, or a bound on the right
    /// side of it.
    fn consistent(result: i32, exact: i32, alpha: i32, beta: i32) -> bool {
        if result <= alpha {
            exact <= result
        } else if result >= beta {
            exact >= result
        } else {
            exact == result
        }
    }

    #[test]
    fn every_kernel_solves_like_plain_alpha_beta() {
        for seed in 0..40 {
            let empties = 6 + (seed % 9) as u32;
            let (p, o) = position(seed, empties);
            let exact = reference(p, o, -65, 65);
            for (alpha, beta) in [
                (-65, 65),
                (exact - 1, exact + 1),
                (exact, exact + 1),
                (exact - 1, exact),
            ] {
                let portable = solve_with(Portable, p, o, alpha, beta);
                assert!(consistent(portable, exact, alpha, beta), "seed {seed}");
                #[cfg(target_arch = "x86_64")]
                if let Some(k) = crate::othello::bitboard::Avx2::detect() {
                    let avx2 = solve_with(k, p, o, alpha, beta);
                    assert!(consistent(avx2, exact, alpha, beta), "seed {seed}");
                }
            }
        }
    }
}
