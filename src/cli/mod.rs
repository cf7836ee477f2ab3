//! Subcommands of the `iago` binary, one module each.

pub mod book;
pub mod engine;
pub mod perft;
