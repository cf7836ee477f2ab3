//! Property tests: legal moves, flips, play, game end and final score on bitboards agree
//! with the array-board reference on 100,000 random positions, for every code path.

use crate::common::{ArrayBoard, random_board, random_game_positions, rng};
use iago::game::Game;
use iago::othello::Position;
use iago::othello::bitboard::{self, Kernel, Portable, Squares};

const POSITIONS: usize = 100_000;

/// Legal moves and the flips of every empty square from one kernel.
fn moves_and_flips<K: Kernel>(kernel: K, player: u64, opponent: u64) -> (u64, [u64; 64]) {
    let mut flips = [0; 64];
    for square in Squares(!(player | opponent)) {
        flips[square as usize] = kernel.flips(square, player, opponent);
    }
    (kernel.legal_moves(player, opponent), flips)
}

/// The same from the reference.
fn reference_moves_and_flips(player: u64, opponent: u64) -> (u64, [u64; 64]) {
    let board = ArrayBoard::from_bitboards(player, opponent);
    let mut flips = [0; 64];
    let mut moves = 0;
    for square in Squares(!(player | opponent)) {
        let flipped = board.flips(square as usize);
        flips[square as usize] = flipped.iter().map(|&s| 1u64 << s).sum();
        if !flipped.is_empty() {
            moves |= 1 << square;
        }
    }
    (moves, flips)
}

/// Half the positions come from random games (what a search meets), half are random
/// boards (odd patterns: long lines, crowded edges, unreachable shapes).
fn test_positions() -> impl Iterator<Item = (u64, u64)> {
    let mut rng = rng(0x1a60);
    let mut game = Vec::new();
    (0..POSITIONS).map(move |index| {
        if index % 2 == 1 {
            return random_board(&mut rng);
        }
        if game.is_empty() {
            game = random_game_positions(&mut rng);
        }
        game.pop().unwrap_or_default()
    })
}

#[test]
fn every_kernel_agrees_with_the_array_board() {
    #[cfg(target_arch = "x86_64")]
    let (avx2, bmi) = (bitboard::Avx2::detect(), bitboard::Bmi::detect());
    let mut legal_seen = 0u64;
    for (player, opponent) in test_positions() {
        let expected = reference_moves_and_flips(player, opponent);
        legal_seen += u64::from(expected.0.count_ones());
        let context = format!("player {player:#018x} opponent {opponent:#018x}");
        assert_eq!(
            moves_and_flips(Portable, player, opponent),
            expected,
            "portable, {context}"
        );
        #[cfg(target_arch = "x86_64")]
        {
            if let Some(kernel) = avx2 {
                assert_eq!(
                    moves_and_flips(kernel, player, opponent),
                    expected,
                    "avx2, {context}"
                );
            }
            if let Some(kernel) = bmi {
                assert_eq!(
                    moves_and_flips(kernel, player, opponent),
                    expected,
                    "bmi, {context}"
                );
            }
        }
        // The public functions, whichever kernel they pick.
        assert_eq!(bitboard::legal_moves(player, opponent), expected.0);
        for square in Squares(!(player | opponent)) {
            assert_eq!(
                bitboard::flips(square, player, opponent),
                expected.1[square as usize],
                "flips on {square}, {context}"
            );
        }
    }
    assert!(
        legal_seen > 500_000,
        "too few moves exercised: {legal_seen}"
    );
}

#[test]
fn play_game_end_and_score_agree_with_the_array_board() {
    for (player, opponent) in test_positions().take(POSITIONS / 4) {
        let pos = Position {
            player,
            opponent,
            side: iago::game::Color::Black,
        };
        let board = ArrayBoard::from_bitboards(player, opponent);
        assert_eq!(pos.is_game_over(), board.is_game_over());
        if pos.is_game_over() {
            assert_eq!(pos.final_disc_difference(), board.final_score());
        }
        let moves = pos.legal_moves();
        let expected_moves = board.legal_moves();
        if expected_moves.is_empty() {
            // A pass, or nothing when the game is over.
            let expected: Vec<_> = if board.is_game_over() {
                vec![]
            } else {
                vec![iago::othello::Move::PASS]
            };
            assert_eq!(moves.as_ref(), expected.as_slice());
            continue;
        }
        assert_eq!(moves.as_ref().len(), expected_moves.len());
        for (&mv, &square) in moves.as_ref().iter().zip(&expected_moves) {
            assert_eq!(mv.square(), Some(square as u8));
            let next = pos.play(mv);
            let expected = board.play(square);
            assert_eq!((next.player, next.opponent), expected.bitboards());
            assert_eq!(next.side, iago::game::Color::White);
        }
    }
}

#[test]
fn last_square_flip_count_matches_flips() {
    let mut rng = rng(7);
    for _ in 0..10_000 {
        let (player, _) = random_board(&mut rng);
        let square = rand::RngExt::random_range(&mut rng, 0..64u32);
        let player = player & !(1 << square);
        let opponent = !player & !(1 << square);
        let expected = ArrayBoard::from_bitboards(player, opponent).flips(square as usize);
        assert_eq!(
            bitboard::last_square_flip_count(square, player),
            expected.len() as u32
        );
        assert_eq!(
            Portable.last_flip_count(square, player),
            expected.len() as u32
        );
        #[cfg(target_arch = "x86_64")]
        for count in [
            bitboard::Avx2::detect().map(|k| k.last_flip_count(square, player)),
            bitboard::Bmi::detect().map(|k| k.last_flip_count(square, player)),
        ]
        .into_iter()
        .flatten()
        {
            assert_eq!(count, expected.len() as u32, "square {square}");
        }
    }
}
