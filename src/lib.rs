//! iago: an Othello engine, with Nine Men's Morris on the same search and protocols.
//!
//! The engine is the `iago-core` crate; the match runner is `iago-arena`, the training
//! tools `iago-training`. This crate is the `iago` command that puts them behind one
//! binary: engine mode (`main.rs`, `engine_mode.rs`) and the subcommands ([`cli`], one
//! module each); it names their modules in one place for the integration tests.

pub mod cli;

pub use iago_arena as arena;
pub use iago_core::{engine, game, mill, options, othello, protocol, search, text};
pub use iago_training::{book_build, corpus, label, train};
