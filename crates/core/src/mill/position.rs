//! A Mill position with everything its future depends on: stones, hands, side to move,
//! the rules in force and the draw-rule state (plies since the last mill, and the hashes
//! since the last irreversible move), so that copy-make search sees draws by itself.

use super::board::{POINTS, Points, points};
use super::moves::{MillMoves, Move, NONE};
use super::notation;
use crate::game::{Color, Game, Score, WIN_SCORE};
use crate::search::plan::{Plain, Searchable};

/// Longest supported move-count rule, in plies; it bounds the repetition history too.
pub const MAX_DRAW_PLIES: u32 = 100;

/// The rule variants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// One removal per mill closed (the seed's variant); the standard (WMD, Gasser,
    /// Malom) removes one stone even when a placement closes two mills.
    pub removal_per_mill: bool,
    /// A player with three stones may fly.
    pub flying: bool,
    /// Plies of sliding/flying without a mill after which the game is drawn (0: never).
    /// The WMD default is 20 moves by each player.
    pub draw_plies: u32,
    /// Occurrences of a position (same side to move) that make a draw.
    pub repetitions: u32,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            removal_per_mill: false,
            flying: true,
            draw_plies: 40,
            repetitions: 3,
        }
    }
}

const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

const fn make_keys<const N: usize>(seed: u64) -> [[u64; N]; 2] {
    let mut keys = [[0; N]; 2];
    let mut i = 0;
    while i < N {
        keys[0][i] = splitmix(seed + 2 * i as u64);
        keys[1][i] = splitmix(seed + 2 * i as u64 + 1);
        i += 1;
    }
    keys
}

const STONE_KEYS: [[u64; POINTS]; 2] = make_keys(0x4d69_6c6c);
const HAND_KEYS: [[u64; 10]; 2] = make_keys(0x4861_6e64);
const BLACK_KEY: u64 = splitmix(0x5369_6465);
const QUIET_SEED: u64 = 0x5175_6965_7400;
/// Plies before the move-count rule from which the search's hash tells the counter.
const QUIET_HORIZON: u32 = 32;

/// A Nine Men's Morris position. Index 0 is White (who moves first), 1 Black.
#[derive(Clone)]
pub struct MillPosition {
    stones: [Points; 2],
    hand: [u8; 2],
    side: u8,
    rules: Rules,
    /// Plies of sliding or flying since the last removal.
    quiet: u32,
    hash: u64,
    /// Hashes of the positions since the last irreversible move (a placement or a
    /// removal), the current one last.
    history: [u64; MAX_DRAW_PLIES as usize + 1],
    history_len: u8,
}

fn index(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl MillPosition {
    /// The empty board, nine stones in each hand, White to move, standard rules.
    pub fn start() -> Self {
        Self::with_rules(Rules::default())
    }

    pub fn with_rules(rules: Rules) -> Self {
        Self::setup([0, 0], [9, 9], Color::White, rules).expect("the start position is valid")
    }

    /// A position from its stones (White, Black), hands and side to move; the draw
    /// counters start at zero.
    pub fn setup(
        stones: [Points; 2],
        hand: [u8; 2],
        side: Color,
        rules: Rules,
    ) -> Result<Self, String> {
        if stones[0] & stones[1] != 0 {
            return Err("a point holds two stones".into());
        }
        if stones.iter().any(|&s| s >> POINTS != 0) {
            return Err("no such point".into());
        }
        for c in 0..2 {
            if stones[c].count_ones() + u32::from(hand[c]) > 9 {
                return Err(format!(
                    "{} has more than 9 stones on the board and in hand",
                    ["white", "black"][c]
                ));
            }
        }
        if rules.draw_plies > MAX_DRAW_PLIES {
            return Err(format!(
                "the move-count rule is at most {MAX_DRAW_PLIES} plies"
            ));
        }
        let mut pos = MillPosition {
            stones,
            hand,
            side: index(side) as u8,
            rules,
            quiet: 0,
            hash: 0,
            history: [0; MAX_DRAW_PLIES as usize + 1],
            history_len: 0,
        };
        pos.hash = pos.compute_hash();
        pos.history[0] = pos.hash;
        pos.history_len = 1;
        Ok(pos)
    }

    fn compute_hash(&self) -> u64 {
        let mut h = if self.side == 1 { BLACK_KEY } else { 0 };
        for c in 0..2 {
            for p in points(self.stones[c]) {
                h ^= STONE_KEYS[c][p];
            }
            h ^= HAND_KEYS[c][usize::from(self.hand[c])];
        }
        h
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The same position under other rules (the draw counters are kept).
    pub fn set_rules(&mut self, rules: Rules) -> Result<(), String> {
        if rules.draw_plies > MAX_DRAW_PLIES {
            return Err(format!(
                "the move-count rule is at most {MAX_DRAW_PLIES} plies"
            ));
        }
        self.rules = rules;
        Ok(())
    }

    /// The stones of a colour.
    pub fn stones(&self, color: Color) -> Points {
        self.stones[index(color)]
    }

    /// The stones still in a colour's hand.
    pub fn hand(&self, color: Color) -> u8 {
        self.hand[index(color)]
    }

    pub(super) fn hand_of(&self, side: usize) -> u8 {
        self.hand[side]
    }

    pub(super) fn side_to_move_index(&self) -> usize {
        usize::from(self.side)
    }

    /// The mover's stones.
    pub fn own(&self) -> Points {
        self.stones[usize::from(self.side)]
    }

    /// The opponent's stones.
    pub fn theirs(&self) -> Points {
        self.stones[1 - usize::from(self.side)]
    }

    /// Plies of sliding or flying since the last mill (the move-count rule's counter).
    pub fn quiet_plies(&self) -> u32 {
        self.quiet
    }

    /// Sets the move-count rule's counter (from a position string).
    pub fn set_quiet_plies(&mut self, plies: u32) -> Result<(), String> {
        if plies > MAX_DRAW_PLIES {
            return Err(format!("the move counter is at most {MAX_DRAW_PLIES}"));
        }
        self.quiet = plies;
        Ok(())
    }

    /// Stones on the board and in hand.
    fn material(&self, side: usize) -> u32 {
        self.stones[side].count_ones() + u32::from(self.hand[side])
    }

    /// The side that has lost on material or by being blocked, if any.
    fn loser(&self) -> Option<usize> {
        let side = usize::from(self.side);
        if self.material(side) < 3 || !self.can_move() {
            Some(side)
        } else if self.material(1 - side) < 3 {
            Some(1 - side)
        } else {
            None
        }
    }

    /// How often the current position has occurred since the last irreversible move.
    pub fn occurrences(&self) -> u32 {
        let len = usize::from(self.history_len);
        self.history[..len]
            .iter()
            .rev()
            .step_by(2)
            .filter(|&&h| h == self.hash)
            .count() as u32
    }

    /// True when the game is drawn by repetition or by the move-count rule.
    pub fn is_draw(&self) -> bool {
        self.loser().is_none() && self.drawn_by_rules()
    }

    /// The draw rules alone (a position that recurs needs at least 4 plies per repeat).
    fn drawn_by_rules(&self) -> bool {
        let repetitions = self.rules.repetitions;
        (self.rules.draw_plies > 0 && self.quiet >= self.rules.draw_plies)
            || (repetitions > 0
                && u32::from(self.history_len) > 4 * (repetitions - 1)
                && self.occurrences() >= repetitions)
    }

    /// True when the position occurred before with the same side to move, since the last
    /// irreversible move.
    pub fn repeats(&self) -> bool {
        let len = usize::from(self.history_len);
        len >= 5
            && self.history[..len - 4]
                .iter()
                .rev()
                .step_by(2)
                .any(|&h| h == self.hash)
    }

    /// The winner of a finished game, `None` for a draw or a game still going.
    pub fn winner(&self) -> Option<Color> {
        self.loser()
            .map(|l| if l == 0 { Color::Black } else { Color::White })
    }
}

impl std::fmt::Debug for MillPosition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&notation::format_position(self))
    }
}

impl PartialEq for MillPosition {
    /// Equal when the game state is (board, hands, side, rules, counters).
    fn eq(&self, other: &Self) -> bool {
        self.stones == other.stones
            && self.hand == other.hand
            && self.side == other.side
            && self.rules == other.rules
            && self.quiet == other.quiet
    }
}

/// Mill is searched by plain iterative deepening: no solver, no probable cuts, a clock
/// shared out equally.
impl Searchable for MillPosition {
    type Plan = Plain;
}

impl Game for MillPosition {
    type Move = Move;
    type Moves = MillMoves;

    #[inline]
    fn legal_moves(&self) -> MillMoves {
        let mut list = MillMoves::new();
        if self.loser().is_none() && !self.drawn_by_rules() {
            self.generate(&mut list);
        }
        list
    }

    fn play(&self, mv: Move) -> Self {
        let mut next = self.clone();
        let me = usize::from(self.side);
        let them = 1 - me;
        if mv.from == NONE {
            next.hash ^= HAND_KEYS[me][usize::from(next.hand[me])];
            next.hand[me] -= 1;
            next.hash ^= HAND_KEYS[me][usize::from(next.hand[me])];
        } else {
            next.stones[me] &= !(1 << mv.from);
            next.hash ^= STONE_KEYS[me][usize::from(mv.from)];
        }
        next.stones[me] |= 1 << mv.to;
        next.hash ^= STONE_KEYS[me][usize::from(mv.to)];
        for r in mv.removals() {
            next.stones[them] &= !(1 << r);
            next.hash ^= STONE_KEYS[them][r];
        }
        next.side = them as u8;
        next.hash ^= BLACK_KEY;

        let removed = mv.remove[0] != NONE;
        if removed {
            next.quiet = 0;
        } else if mv.from != NONE {
            next.quiet = (next.quiet + 1).min(MAX_DRAW_PLIES);
        }
        if removed || mv.from == NONE {
            next.history_len = 0;
        }
        if usize::from(next.history_len) == next.history.len() {
            // Only with the move-count rule off: forget the oldest positions.
            next.history.copy_within(2.., 0);
            next.history_len -= 2;
        }
        next.history[usize::from(next.history_len)] = next.hash;
        next.history_len += 1;
        next
    }

    fn is_game_over(&self) -> bool {
        self.loser().is_some() || self.is_draw()
    }

    fn final_score(&self) -> Score {
        match self.loser() {
            Some(l) if l == usize::from(self.side) => -WIN_SCORE,
            Some(_) => WIN_SCORE,
            None => 0,
        }
    }

    fn side_to_move(&self) -> Color {
        if self.side == 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The position's hash, with the move-count rule's counter mixed in once the rule is
    /// near: a table entry made a few plies from a draw by that rule must not stand for
    /// the same stones far from it, nor the other way round.
    fn hash(&self) -> u64 {
        let limit = self.rules.draw_plies;
        if limit > 0 && self.quiet + QUIET_HORIZON >= limit {
            self.hash ^ splitmix(QUIET_SEED.wrapping_add(u64::from(self.quiet)))
        } else {
            self.hash
        }
    }

    fn parse_move(&self, text: &str) -> Result<Move, String> {
        notation::parse_move(self, text)
    }

    fn format_move(&self, mv: Move) -> String {
        notation::format_move(mv)
    }

    fn move_hint(&self, mv: Move) -> Option<Score> {
        Some(self.hint(mv))
    }

    const HAS_CAPTURES: bool = true;

    fn is_capture(&self, mv: Move) -> bool {
        mv.remove[0] != NONE
    }

    fn move_hints(&self, moves: &[Move], hints: &mut [Score]) {
        self.hints(moves, hints);
    }

    /// Origin (24 for a placement) and target: at most 25 x 24 slots.
    fn history_slot(&self, mv: Move) -> usize {
        let from = if mv.from == NONE {
            POINTS
        } else {
            usize::from(mv.from)
        };
        from * POINTS + usize::from(mv.to)
    }

    fn repeats(&self) -> bool {
        MillPosition::repeats(self)
    }
}
