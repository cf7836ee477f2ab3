//! The last four empties: the squares themselves in parity order, tried without a move
//! list, and the last square's flips counted without making the move.

use crate::othello::bitboard::{Kernel, Squares};

use super::{Ctx, Paths, final_score, parity_first, stability_cut};

/// The squares next to each square: a move there must flip one of them.
static NEIGHBOURS: [u64; 64] = {
    let mut table = [0u64; 64];
    let mut square = 0;
    while square < 64 {
        let (col, row) = ((square % 8) as i32, (square / 8) as i32);
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let (c, r) = (col + dc, row + dr);
                if (dc != 0 || dr != 0) && c >= 0 && c < 8 && r >= 0 && r < 8 {
                    table[square] |= 1u64 << (r * 8 + c);
                }
                dc += 1;
            }
            dr += 1;
        }
        square += 1;
    }
    table
};

/// The last four empties or fewer: the squares in parity order (odd quadrants first),
/// tried directly without a move list.
#[inline(always)]
pub(super) fn small<K: Paths>(k: K, ctx: &mut Ctx, p: u64, o: u64, alpha: i32) -> i32 {
    let empty = !(p | o);
    let mut squares = [0u8; 4];
    let mut n = 0;
    let odd = parity_first(ctx, empty);
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
            last(k, p, squares[0] as u32)
        }
        2 => k.solve2(ctx, p, o, alpha, [squares[0], squares[1]]),
        3 => k.solve3(ctx, p, o, alpha, [squares[0], squares[1], squares[2]]),
        _ => k.solve4(ctx, p, o, alpha, squares),
    }
}

/// The score with one empty square left: whoever can play there does (the mover
/// first), flips counted without making the move.
#[inline(always)]
fn last<K: Kernel>(k: K, p: u64, square: u32) -> i32 {
    let base = 2 * p.count_ones() as i32 - 63;
    let mine = k.last_flip_count(square, p) as i32;
    if mine > 0 {
        return base + 2 * mine + 1;
    }
    let o = !p & !(1u64 << square);
    let theirs = k.last_flip_count(square, o) as i32;
    if theirs > 0 {
        return base - 2 * theirs - 1;
    }
    // Nobody can play: the empty goes to the winner (63 discs never tie).
    if base > 0 { base + 1 } else { base - 1 }
}

/// `squares` without its `skip`th, in order.
#[inline(always)]
fn without<const N: usize, const M: usize>(squares: [u8; N], skip: usize) -> [u8; M] {
    // Indexed without a branch: the skipped square changes at every call, so a branch
    // on it would often be mispredicted.
    std::array::from_fn(|r| squares[r + usize::from(r >= skip)])
}

/// A solver for exactly `$n` empties over `$next` for one fewer; with `$stability`, it
/// tries the stability cutoff first.
macro_rules! small_solver {
    ($name:ident, $n:literal, $next:ident, $next_n:literal, $stability:literal) => {
        /// The exact score with exactly this many empties, given as squares.
        #[inline(always)]
        pub(super) fn $name<K: Paths>(
            k: K,
            ctx: &mut Ctx,
            p: u64,
            o: u64,
            alpha: i32,
            squares: [u8; $n],
        ) -> i32 {
            if ctx.watch.tick() {
                return 0;
            }
            if $stability && let Some(ceiling) = stability_cut(ctx, p, o, alpha) {
                return ceiling;
            }
            let mut best = -65;
            for i in 0..$n {
                let square = u32::from(squares[i]);
                if NEIGHBOURS[square as usize] & o == 0 {
                    continue;
                }
                let flipped = k.flips(square, p, o);
                if flipped == 0 {
                    continue;
                }
                let rest: [u8; $next_n] = without(squares, i);
                let (cp, co) = (o ^ flipped, p ^ flipped ^ (1 << square));
                let score = -$next(k, ctx, cp, co, -alpha - 1, rest);
                if score > best {
                    best = score;
                    if score > alpha {
                        return best;
                    }
                }
            }
            if best > -65 {
                return best;
            }
            // A pass: the opponent's moves, if any.
            for i in 0..$n {
                let square = u32::from(squares[i]);
                if NEIGHBOURS[square as usize] & p == 0 {
                    continue;
                }
                let flipped = k.flips(square, o, p);
                if flipped == 0 {
                    continue;
                }
                let rest: [u8; $next_n] = without(squares, i);
                let (cp, co) = (p ^ flipped, o ^ flipped ^ (1 << square));
                let score = $next(k, ctx, cp, co, alpha, rest);
                if score < best || best == -65 {
                    best = score;
                    if score <= alpha {
                        return best;
                    }
                }
            }
            if best > -65 { best } else { final_score(p, o) }
        }
    };
}

/// Two empties: the children are scored by [`last`].
#[inline(always)]
pub(super) fn solve2<K: Paths>(
    k: K,
    ctx: &mut Ctx,
    p: u64,
    o: u64,
    alpha: i32,
    squares: [u8; 2],
) -> i32 {
    if ctx.watch.tick() {
        return 0;
    }
    let mut best = -65;
    for (square, other) in [(squares[0], squares[1]), (squares[1], squares[0])] {
        let square = u32::from(square);
        if NEIGHBOURS[square as usize] & o == 0 {
            continue;
        }
        let flipped = k.flips(square, p, o);
        if flipped == 0 {
            continue;
        }
        let score = -last(k, o ^ flipped, u32::from(other));
        if score > best {
            best = score;
            if score > alpha {
                return best;
            }
        }
    }
    if best > -65 {
        return best;
    }
    // A pass: the opponent's moves, if any (scores from the mover's side).
    let mut worst = 65;
    for (square, other) in [(squares[0], squares[1]), (squares[1], squares[0])] {
        let square = u32::from(square);
        if NEIGHBOURS[square as usize] & p == 0 {
            continue;
        }
        let flipped = k.flips(square, o, p);
        if flipped == 0 {
            continue;
        }
        let score = last(k, p ^ flipped, u32::from(other));
        if score < worst {
            worst = score;
            if score <= alpha {
                return worst;
            }
        }
    }
    if worst < 65 { worst } else { final_score(p, o) }
}

small_solver!(solve3, 3, solve2, 2, false);
small_solver!(solve4, 4, solve3, 3, true);
