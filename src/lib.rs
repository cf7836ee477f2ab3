//! iago: an Othello engine, with Nine Men's Morris on the same search and protocols.
//!
//! The engine is the `iago-core` crate and the tools around it are `iago-tools`; this
//! crate is the `iago` command that puts both behind one binary, and names their modules
//! in one place for the integration tests.

pub use iago_core::{book, engine, eval, game, mill, options, othello, protocol, search, text};
pub use iago_tools::{arena, book_build, corpus, label, train};
