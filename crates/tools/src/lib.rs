//! What is built around the engine (`iago-core`): the match runner, training and
//! labelling, book building, and the command-line subcommands that run them and the
//! benchmarks. Nothing in the engine depends on it.

pub mod arena;
pub mod book_build;
pub mod cli;
pub mod corpus;
pub mod label;
pub mod train;
