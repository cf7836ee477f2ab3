//! The few things a search needs to know about a game.
//!
//! Othello is the first implementation, Nine Men's Morris the second. The search, the
//! engine controller and the perft harness are generic over [`Game`], which holds the
//! rules; how a game is searched beyond them (its iterations, clock schedule, solver and
//! ProbCut values) is the plan it names (`search::plan`).

use std::fmt;
use std::mem::MaybeUninit;

/// A search score, from the point of view of the side to move.
///
/// Each game chooses its unit: Othello counts in hundredths of a disc
/// (see `othello::DISC`), Nine Men's Morris in its own evaluation units with
/// [`WIN_SCORE`] for a won game.
pub type Score = i32;

/// Larger than any score a game or evaluation may return.
pub const INFINITY: Score = 1_000_000;

/// The score of a won game in games that have no margin of victory (mill); a win found
/// `n` plies from the root scores `WIN_SCORE - n`, so that faster wins are preferred.
pub const WIN_SCORE: Score = 100_000;

/// The two players. Othello's first player is Black, Nine Men's Morris's is White.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    Black,
    White,
}

impl Color {
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A move as 32 bits, so that a table shared between search threads can keep it in an
/// atomic word.
pub trait MoveBits: Copy {
    fn to_bits(self) -> u32;
    /// Some move for any bits (an entry torn by two threads' writes may hold any): it
    /// need not be legal, and callers check it against the legal moves before use.
    fn from_bits(bits: u32) -> Self;
}

/// A game position that the search can explore.
///
/// Positions are small values: `play` returns a new one (copy-make), which keeps the
/// search free of undo bookkeeping.
pub trait Game: Clone + Send + Sync + fmt::Debug + 'static {
    /// One move, including a pass where the game has passes.
    type Move: Copy + Eq + fmt::Debug + Send + Sync + 'static + MoveBits;
    /// The legal moves of a position: a fixed-capacity list for games with few moves.
    type Moves: AsRef<[Self::Move]>;

    /// The legal moves. Empty exactly when the game is over; a side that must pass gets
    /// the single pass move.
    fn legal_moves(&self) -> Self::Moves;

    /// The number of [`Game::legal_moves`] (a game can count faster than it lists).
    fn move_count(&self) -> usize {
        self.legal_moves().as_ref().len()
    }

    /// The position after `mv`, which must be one of `legal_moves()`.
    fn play(&self, mv: Self::Move) -> Self;

    /// True when the game has ended.
    fn is_game_over(&self) -> bool;

    /// The result of an ended game from the side to move's point of view, in the game's
    /// score unit.
    fn final_score(&self) -> Score;

    /// The player to move.
    fn side_to_move(&self) -> Color;

    /// A 64-bit hash of everything that decides the game's future.
    fn hash(&self) -> u64;

    /// Parses a move in the game's standard notation, checking it is legal here.
    fn parse_move(&self, text: &str) -> Result<Self::Move, String>;

    /// Writes a move in the game's standard notation (lower case).
    fn format_move(&self, mv: Self::Move) -> String;

    /// A cheap guess of how promising `mv` is for the mover (higher first), for games
    /// whose search orders moves by such guesses, killer moves and a history table
    /// instead of evaluating every child (Othello's way). `None`: order by evaluation.
    /// A hint of 1000 or more marks a tactical move (a capture, a block), which the
    /// search never reduces; quieter moves late in the order are searched less deep first.
    fn move_hint(&self, _mv: Self::Move) -> Option<Score> {
        None
    }

    /// The hints of all `moves` into `hints` (of the same length): a game may share the
    /// work between moves.
    fn move_hints(&self, moves: &[Self::Move], hints: &mut [Score]) {
        for (hint, &mv) in hints.iter_mut().zip(moves) {
            *hint = self.move_hint(mv).unwrap_or(0);
        }
    }

    /// The slot of `mv` in the history table, below [`HISTORY_SLOTS`]; used with
    /// [`Game::move_hint`].
    fn history_slot(&self, _mv: Self::Move) -> usize {
        0
    }

    /// Whether the game has captures at all ([`Game::is_capture`]): where it has none,
    /// a leaf of the search needs no move list.
    const HAS_CAPTURES: bool = false;

    /// True when `mv` captures (a Mill move closing a mill): the search follows captures
    /// past its horizon.
    fn is_capture(&self, _mv: Self::Move) -> bool {
        false
    }

    /// True when this position, with the same side to move, occurred earlier in the game
    /// or the search since the last irreversible move: inside a search such a repetition
    /// is scored as a draw, as the game would be drawn if it went on repeating.
    fn repeats(&self) -> bool {
        false
    }
}

/// A static evaluation from the side to move's point of view, in the game's score unit.
/// Evaluators are chosen by name at run time (`--eval NAME`), so the search holds a
/// boxed one.
pub trait Evaluator<G: Game>: Send + Sync {
    fn evaluate(&self, pos: &G) -> Score;
    /// The name the evaluator is selected by.
    fn name(&self) -> &'static str;
}

/// A 64-bit mix (the finaliser of SplitMix64): every input bit changes half the output bits.
#[inline]
pub fn mix64(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// Size of the history table of [`Game::history_slot`].
pub const HISTORY_SLOTS: usize = 1024;

/// A list of at most `N` moves on the stack: move generation allocates nothing, and the
/// unused capacity is never written (a list is made at every node of a search).
#[derive(Clone, Copy)]
pub struct MoveList<M: Copy + Default, const N: usize> {
    /// `moves[..len]` are initialised.
    moves: [MaybeUninit<M>; N],
    len: usize,
}

impl<M: Copy + Default, const N: usize> MoveList<M, N> {
    #[inline]
    pub fn new() -> Self {
        MoveList {
            moves: [MaybeUninit::uninit(); N],
            len: 0,
        }
    }

    /// Adds a move; the capacity is chosen above the game's maximum, so this never fails
    /// (it panics rather than write past the end).
    #[inline]
    pub fn push(&mut self, mv: M) {
        self.moves[self.len] = MaybeUninit::new(mv);
        self.len += 1;
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn as_mut_slice(&mut self) -> &mut [M] {
        // SAFETY: the first `len` elements were written by `push`, and `MaybeUninit<M>`
        // has the layout of `M`.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr().cast::<M>(), self.len) }
    }
}

impl<M: Copy + Default, const N: usize> Default for MoveList<M, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<M: Copy + Default, const N: usize> AsRef<[M]> for MoveList<M, N> {
    #[inline]
    fn as_ref(&self) -> &[M] {
        // SAFETY: as in `as_mut_slice`.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr().cast::<M>(), self.len) }
    }
}

impl<M: Copy + Default + fmt::Debug, const N: usize> fmt::Debug for MoveList<M, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_ref()).finish()
    }
}

/// Counts the leaves of the game tree `depth` plies deep. A game that ends earlier is one
/// leaf; a pass is a ply.
pub fn perft<G: Game>(pos: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    let moves = moves.as_ref();
    if moves.is_empty() {
        return 1;
    }
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&mv| perft(&pos.play(mv), depth - 1))
        .sum()
}
