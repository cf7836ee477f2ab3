//! Subcommands of the `iago` binary, one module each.

pub mod accuracy;
pub mod analyze;
pub mod args;
pub mod bench;
pub mod book;
pub mod eval_match;
pub mod features;
pub mod fit_probcut;
pub mod label;
pub mod match_cmd;
pub mod mill_eval_match;
pub mod openings;
pub mod out;
pub mod pack_games;
pub mod perft;
pub mod selfplay;
pub mod solve;
pub mod train;
