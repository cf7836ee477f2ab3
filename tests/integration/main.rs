//! The integration tests, gathered in one test binary: each module was once a binary of
//! its own, and linking each with the release profile's LTO took most of the suite's build
//! time. `cargo test --release --test integration nboard::` runs one module's tests.
//! Tests that drive the real binary reach it through `protocol_io::IAGO`, and run it with the helpers in `common`. A new test file
//! goes here as a module declared below; a file directly under `tests/` would be a binary
//! of its own, linked separately.

mod common;
mod protocol_io;

mod analyze;
mod arena_match;
mod arena_stats;
mod book_file;
mod cli_eval;
mod cli_perft;
mod cli_solve;
mod files;
mod formats;
mod gpu_generator;
mod gtp;
mod gtp_mill;
mod house;
mod mill_match;
mod mill_rules;
mod mill_search;
mod movegen;
mod nboard;
mod network;
mod perft;
mod pipes;
mod protocol_fuzz;
mod referee;
mod regress;
mod search;
mod selfplay;
mod symmetry;
mod tictactoe;
mod tools_attacked;
mod ugi;
mod web;
