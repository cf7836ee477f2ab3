//! Subcommands of the `iago` binary, one module each.

pub mod engine;
pub mod perft;
