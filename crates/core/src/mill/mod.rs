//! Nine Men's Morris (Mühle), iago's second game: the board model of the seed (three rings
//! of eight points), the standard rules with the seed's variant as an option, and the
//! draw rules tracked inside the position.

pub mod board;
pub mod engine;
pub mod eval;
pub mod moves;
pub mod notation;
pub mod position;

pub use moves::Move;
pub use position::{MillPosition, Rules};
