//! The rules commute with the 8 board symmetries: legal moves, flips and perft of a
//! transformed position are the transformed ones.

use crate::common::{random_board, random_game_positions, rng};
use iago::game::{Color, Game};
use iago::othello::bitboard::{self, Squares};
use iago::othello::perft::perft;
use iago::othello::symmetry::{Symmetry, canonical, transform_board};
use iago::othello::{Move, Position};

fn sample_positions() -> Vec<Position> {
    let mut rng = rng(8);
    let mut positions = Vec::new();
    for _ in 0..40 {
        for (player, opponent) in random_game_positions(&mut rng) {
            positions.push(Position {
                player,
                opponent,
                side: Color::Black,
            });
        }
    }
    for _ in 0..1_000 {
        let (player, opponent) = random_board(&mut rng);
        positions.push(Position {
            player,
            opponent,
            side: Color::White,
        });
    }
    positions
}

#[test]
fn legal_moves_and_flips_commute_with_every_symmetry() {
    for pos in sample_positions() {
        let moves = pos.moves();
        for symmetry in Symmetry::ALL {
            let image = pos.transformed(symmetry);
            assert_eq!(
                image.moves(),
                transform_board(moves, symmetry),
                "{symmetry:?}"
            );
            for square in Squares(moves) {
                let mv = Move::from_index(square as u8).transformed(symmetry);
                let image_square = u32::from(mv.square().unwrap());
                assert_eq!(
                    bitboard::flips(image_square, image.player, image.opponent),
                    transform_board(bitboard::flips(square, pos.player, pos.opponent), symmetry),
                    "{symmetry:?} square {square}"
                );
                assert_eq!(
                    image.play(mv),
                    pos.play(Move::from_index(square as u8))
                        .transformed(symmetry)
                );
            }
        }
    }
}

#[test]
fn perft_is_invariant_under_every_symmetry() {
    let mut rng = rng(9);
    let game = random_game_positions(&mut rng);
    // An opening, a middle game and an endgame position of one game, and the start.
    let mut positions = vec![Position::start()];
    for ply in [6, 24, game.len().saturating_sub(12)] {
        let (player, opponent) = game[ply.min(game.len() - 1)];
        positions.push(Position {
            player,
            opponent,
            side: Color::Black,
        });
    }
    for pos in positions {
        let expected = perft(&pos, 7);
        for symmetry in Symmetry::ALL {
            assert_eq!(
                perft(&pos.transformed(symmetry), 7),
                expected,
                "{symmetry:?}"
            );
        }
    }
}

#[test]
fn inverse_undoes_and_canonical_is_the_smallest_image() {
    for pos in sample_positions().into_iter().step_by(7) {
        let (canon, symmetry) = canonical(&pos);
        assert_eq!(pos.transformed(symmetry), canon);
        assert_eq!(canon.transformed(symmetry.inverse()), pos);
        for other in Symmetry::ALL {
            let image = pos.transformed(other);
            assert_eq!(image.transformed(other.inverse()), pos);
            assert!((canon.player, canon.opponent) <= (image.player, image.opponent));
            // Every image has the same representative.
            assert_eq!(canonical(&image).0, canon);
        }
    }
    assert_eq!(Move::PASS.transformed(Symmetry::Rotate90), Move::PASS);
}
