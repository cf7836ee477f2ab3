//! What the evaluation and the book are made from: self-play games and their compact
//! records ([`corpus`]), positions scored by search ([`label`]), the pattern weights
//! fitted to them ([`train`]) and a book built from game records ([`book_build`]). It
//! depends on the engine (`iago-core`) only; the `iago` command's subcommands run it.

pub mod book_build;
pub mod corpus;
pub mod label;
pub mod train;
