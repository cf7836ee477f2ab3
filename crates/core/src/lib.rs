//! iago: an Othello engine, with Nine Men's Morris on the same search and protocols.

pub mod engine;
pub mod files;
pub mod game;
pub mod games;
pub mod mill;
pub mod options;
pub mod othello;
pub mod protocol;
pub mod search;
pub mod text;
pub mod tictactoe;
