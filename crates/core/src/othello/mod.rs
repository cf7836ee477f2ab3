//! Othello (Reversi): the first [`Game`](crate::game::Game).

pub mod bitboard;
pub mod position;
pub mod square;

pub use position::{DISC, Position};
pub use square::Move;
pub mod book;
pub mod engine;
pub mod eval;
pub mod game_input;
pub mod ggf;
pub mod notation;
pub mod obf;
pub mod perft;
pub mod plan;
pub mod symmetry;
pub mod wthor;
