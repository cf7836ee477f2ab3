//! Nine Men's Morris rules: perft against the figures in the reference (mill.md, cross-checked
//! there by two generators and Sanmill), seeded random games checking the invariants, and
//! the draw rules.

use iago::game::{Color, Game, WIN_SCORE, perft};
use iago::mill::board::{ALL, point_by_name, points};
use iago::mill::moves::removable;
use iago::mill::notation::{format_position, parse_position};
use iago::mill::{MillPosition, Rules};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

fn set(names: &[&str]) -> u32 {
    names
        .iter()
        .map(|n| 1u32 << point_by_name(n).expect("a point"))
        .fold(0, |a, b| a | b)
}

fn position(
    side: Color,
    white: &[&str],
    black: &[&str],
    hands: [u8; 2],
    rules: Rules,
) -> MillPosition {
    MillPosition::setup([set(white), set(black)], hands, side, rules).expect("valid position")
}

fn moves_text(pos: &MillPosition) -> Vec<String> {
    pos.legal_moves()
        .as_ref()
        .iter()
        .map(|&m| pos.format_move(m))
        .collect()
}

fn play_all(pos: &MillPosition, moves: &[&str]) -> MillPosition {
    moves.iter().fold(pos.clone(), |p, m| {
        let mv = p.parse_move(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        p.play(mv)
    })
}

#[test]
fn perft_from_the_start_matches_the_reference() {
    let start = MillPosition::start();
    let expected = [24, 552, 12_144, 255_024, 5_140_800];
    for (depth, &count) in expected.iter().enumerate() {
        assert_eq!(
            perft(&start, depth as u32 + 1),
            count,
            "depth {}",
            depth + 1
        );
    }
    // The seed's variant differs only deeper than the reference's depth 6.
    let seed = MillPosition::with_rules(Rules {
        removal_per_mill: true,
        ..Rules::default()
    });
    assert_eq!(perft(&seed, 5), 5_140_800);
}

#[test]
fn a_mill_by_placement_expands_into_removal_choices() {
    let pos = play_all(&MillPosition::start(), &["a7", "b4", "d7", "b6"]);
    let moves = moves_text(&pos);
    assert_eq!(moves.len(), 21);
    assert!(moves.contains(&"g7xb4".to_string()) && moves.contains(&"g7xb6".to_string()));
    assert!(!moves.contains(&"g7".to_string()));
}

#[test]
fn stones_in_mills_are_protected_while_a_free_stone_exists() {
    let rules = Rules::default();
    let all_in_mills = position(
        Color::White,
        &["a1", "d1"],
        &["a7", "d7", "g7"],
        [7, 6],
        rules,
    );
    let moves = moves_text(&all_in_mills);
    assert_eq!(moves.len(), 21);
    for m in ["g1xa7", "g1xd7", "g1xg7"] {
        assert!(moves.contains(&m.to_string()), "{m}");
    }
    let one_free = position(
        Color::White,
        &["a1", "d1", "f4"],
        &["a7", "d7", "g7", "b4"],
        [5, 5],
        rules,
    );
    let moves = moves_text(&one_free);
    assert_eq!(moves.len(), 17);
    assert_eq!(
        moves.iter().filter(|m| m.contains('x')).collect::<Vec<_>>(),
        ["g1xb4"]
    );
}

#[test]
fn perft_in_the_moving_phase() {
    let pos = position(
        Color::Black,
        &["c5", "g1", "a4", "a7"],
        &["d5", "c4", "d6", "b4", "g4", "d1", "a1"],
        [0, 0],
        Rules::default(),
    );
    assert_eq!(pos.legal_moves().as_ref().len(), 10);
    let expected = [17, 169, 806, 9465];
    for (i, &count) in expected.iter().enumerate() {
        assert_eq!(perft(&pos, i as u32 + 2), count, "depth {}", i + 2);
    }
    // After d6-d7 White cannot move and has lost.
    let blocked = play_all(&pos, &["d6-d7"]);
    assert!(blocked.is_game_over());
    assert_eq!(blocked.final_score(), -WIN_SCORE);
    assert_eq!(blocked.winner(), Some(Color::Black));
}

#[test]
fn perft_with_a_flying_side() {
    let pos = position(
        Color::White,
        &["d6", "d1", "a7"],
        &["b4", "d7", "g4", "a1"],
        [0, 0],
        Rules::default(),
    );
    assert_eq!(pos.legal_moves().as_ref().len(), 51);
    let expected = [483, 24_882, 229_955, 11_631_549];
    for (i, &count) in expected.iter().enumerate() {
        assert_eq!(perft(&pos, i as u32 + 2), count, "depth {}", i + 2);
    }
}

#[test]
fn perft_with_both_sides_flying() {
    let pos = position(
        Color::White,
        &["a7", "d7", "b4"],
        &["e3", "c5", "f2"],
        [0, 0],
        Rules::default(),
    );
    assert_eq!(pos.legal_moves().as_ref().len(), 56);
    assert_eq!(perft(&pos, 2), 2865);
    assert_eq!(perft(&pos, 3), 158_121);
    assert_eq!(perft(&pos, 4), 8_370_672);
    // b4-g7 closes a mill; the removal leaves Black with two stones.
    let won = play_all(&pos, &["b4-g7xe3"]);
    assert!(won.is_game_over());
    assert_eq!(won.winner(), Some(Color::White));
}

#[test]
fn a_double_mill_removes_one_stone_or_two_in_the_seed_variant() {
    let white = ["a7", "d7", "g4", "g1"];
    let black = ["d5", "f4", "d2", "b4"];
    let standard = position(Color::White, &white, &black, [5, 5], Rules::default());
    assert_eq!(standard.legal_moves().as_ref().len(), 19);
    let expected = [289, 5174, 78_952, 1_319_608];
    for (i, &count) in expected.iter().enumerate() {
        assert_eq!(perft(&standard, i as u32 + 2), count, "depth {}", i + 2);
    }
    let seed_rules = Rules {
        removal_per_mill: true,
        ..Rules::default()
    };
    let seed = position(Color::White, &white, &black, [5, 5], seed_rules);
    let moves = moves_text(&seed);
    assert_eq!(moves.len(), 21);
    assert!(moves.contains(&"g7xb4xd5".to_string()));
    // Either order of the removals is accepted.
    let mv = seed.parse_move("g7xd5xb4").expect("legal");
    assert_eq!(seed.play(mv).stones(Color::Black).count_ones(), 2);
}

#[test]
#[ignore = "deep perft: run with --ignored in release"]
fn deep_perft_from_the_start() {
    let start = MillPosition::start();
    assert_eq!(perft(&start, 6), 99_274_176);
    assert_eq!(perft(&start, 7), 1_873_562_112);
    let seed = MillPosition::with_rules(Rules {
        removal_per_mill: true,
        ..Rules::default()
    });
    assert_eq!(perft(&seed, 6), 99_274_176);
}

#[test]
fn position_strings_round_trip_and_bad_ones_are_refused() {
    let mut rng = StdRng::seed_from_u64(7);
    let mut pos = MillPosition::start();
    for _ in 0..60 {
        let text = format_position(&pos);
        let back = parse_position(&text, Rules::default()).expect(&text);
        assert_eq!(format_position(&back), text);
        assert_eq!(back.hash(), pos.hash());
        let moves = pos.legal_moves();
        if moves.as_ref().is_empty() {
            break;
        }
        pos = pos.play(moves.as_ref()[rng.random_range(0..moves.as_ref().len())]);
    }
    assert_eq!(
        format_position(&MillPosition::start()),
        "--------/--------/-------- w 9 9 0"
    );
    for bad in [
        "",
        "--------/--------/------- w 9 9",
        "--------/--------/-------- x 9 9",
        "--------/--------/-------- w 10 9",
        "WWWWWWWW/WW------/-------- w 0 9",
        "--------/--------/-------Z w 9 9",
        "--------/--------/-------- w 9 9 1000",
        "--------/--------/-------- w 9 9 0 extra",
    ] {
        assert!(parse_position(bad, Rules::default()).is_err(), "{bad:?}");
    }
    let start = MillPosition::start();
    for bad in [
        "",
        "z9",
        "d6-",
        "d6xx",
        "a1-a4",
        "d6xa1",
        "a7xb1xc1xd1",
        "-",
        "x",
    ] {
        assert!(start.parse_move(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn random_games_keep_counts_phases_and_the_mill_rule() {
    for seed in 0..40 {
        let per_mill = seed % 2 == 1;
        let rules = Rules {
            removal_per_mill: per_mill,
            ..Rules::default()
        };
        let mut rng = StdRng::seed_from_u64(seed);
        let mut pos = MillPosition::with_rules(rules);
        let mut removed = [0u32; 2];
        for _ in 0..400 {
            let moves = pos.legal_moves();
            let moves = moves.as_ref();
            if moves.is_empty() {
                assert!(pos.is_game_over());
                break;
            }
            assert!(!pos.is_game_over());
            let side = pos.side_to_move();
            let (me, them) = (side, side.opponent());
            let own = pos.stones(me);
            let opp = pos.stones(them);
            let empty = ALL & !(own | opp);
            for &mv in moves {
                // The action matches the mover's phase.
                if pos.hand(me) > 0 {
                    assert!(mv.is_placement());
                } else {
                    assert!(!mv.is_placement());
                    assert!(own & (1 << mv.from) != 0);
                    if own.count_ones() > 3 {
                        let from = usize::from(mv.from);
                        assert!(iago::mill::board::NEIGHBOURS[from] & (1 << mv.to) != 0);
                    }
                }
                assert!(empty & (1 << mv.to) != 0);
                // The first removal obeys the mill rule.
                if mv.removals().next().is_some() {
                    let ok = mv.removals().any(|r| removable(opp) & (1 << r) != 0);
                    assert!(ok, "{} in {:?}", pos.format_move(mv), pos);
                    assert!(mv.removals().all(|r| opp & (1 << r) != 0));
                }
                if !per_mill {
                    assert!(mv.remove[1] == u8::MAX);
                }
            }
            let mv = moves[rng.random_range(0..moves.len())];
            let next = pos.play(mv);
            removed[match them {
                Color::White => 0,
                Color::Black => 1,
            }] += mv.removals().count() as u32;
            for (c, color) in [Color::White, Color::Black].into_iter().enumerate() {
                let on_board = next.stones(color).count_ones();
                assert_eq!(on_board + u32::from(next.hand(color)) + removed[c], 9);
                assert!(points(next.stones(color)).all(|p| p < 24));
            }
            assert_eq!(next.stones(Color::White) & next.stones(Color::Black), 0);
            // White places first, so the hands differ by at most one.
            assert!(next.hand(Color::Black) >= next.hand(Color::White));
            assert!(next.hand(Color::Black) - next.hand(Color::White) <= 1);
            pos = next;
        }
        assert!(
            pos.is_game_over(),
            "seed {seed}: a game ends within 400 plies"
        );
    }
}

#[test]
fn threefold_repetition_is_a_draw() {
    // Both sides shuttle a stone back and forth.
    let pos = position(
        Color::White,
        &["a7", "d7", "b6", "d2"],
        &["g1", "d1", "f2", "e3"],
        [0, 0],
        Rules::default(),
    );
    let shuttle = ["a7-a4", "g1-g4", "a4-a7", "g4-g1"];
    let once = play_all(&pos, &shuttle);
    assert_eq!(once.occurrences(), 2);
    assert!(!once.is_game_over());
    // The search sees the first recurrence already; positions in between do not recur.
    assert!(once.repeats() && !pos.repeats());
    let twice = play_all(&once, &shuttle);
    assert_eq!(twice.occurrences(), 3);
    assert!(twice.is_draw() && twice.is_game_over());
    assert_eq!(twice.final_score(), 0);
    assert!(twice.legal_moves().as_ref().is_empty());
    // Perft (like the search) sees the draw: the third occurrence is one leaf.
    let before = play_all(&once, &shuttle[..3]);
    let drawn = before.play(before.parse_move("g4-g1").expect("legal"));
    assert_eq!(perft(&drawn, 2), 1);
    // Without the repetition rule play goes on.
    let free = Rules {
        repetitions: 0,
        ..Rules::default()
    };
    let pos = MillPosition::setup(
        [pos.stones(Color::White), pos.stones(Color::Black)],
        [0, 0],
        Color::White,
        free,
    )
    .expect("valid");
    assert!(!play_all(&pos, &[&shuttle[..], &shuttle[..]].concat()).is_game_over());
}

#[test]
fn the_move_count_rule_draws_after_quiet_plies_and_a_mill_resets_it() {
    let rules = Rules {
        draw_plies: 40,
        repetitions: 0,
        ..Rules::default()
    };
    let pos = position(
        Color::White,
        &["a7", "d7", "b6", "d2"],
        &["g1", "d1", "f2", "e3"],
        [0, 0],
        rules,
    );
    let shuttle = ["a7-a4", "g1-g4", "a4-a7", "g4-g1"];
    let mut p = pos.clone();
    for i in 0..40 {
        assert!(!p.is_game_over(), "ply {i}");
        assert_eq!(p.quiet_plies(), i);
        p = play_all(&p, &[shuttle[i as usize % 4]]);
    }
    assert!(p.is_draw() && p.is_game_over());
    assert_eq!(p.final_score(), 0);
    // A mill resets the counter.
    let text = "W-------/W-------/--------".to_string();
    let q = parse_position(&format!("{text} w 0 0 39"), rules).map(|q| q.quiet_plies());
    assert_eq!(q, Ok(39));
    let mill = position(
        Color::White,
        &["a7", "a1", "b4", "c5"],
        &["g1", "d1", "f2", "e3"],
        [0, 0],
        rules,
    );
    let mut mill = mill;
    mill.set_quiet_plies(39).expect("in range");
    let after = play_all(&mill, &["b4-a4xe3"]);
    assert_eq!(after.quiet_plies(), 0);
    assert!(!after.is_game_over());
    let quiet = play_all(&mill, &["c5-c4"]);
    assert!(quiet.is_draw());
}

#[test]
fn rule_words_read_back_and_bad_ones_are_refused() {
    use iago::mill::notation::{format_rules, parse_rules};
    let rules = parse_rules(
        "draw-plies=0 repetitions=0 removal=per-mill flying=off",
        Rules::default(),
    )
    .expect("valid");
    assert!(rules.removal_per_mill && !rules.flying);
    assert_eq!((rules.draw_plies, rules.repetitions), (0, 0));
    assert_eq!(
        parse_rules(&format_rules(rules), Rules::default()),
        Ok(rules)
    );
    assert_eq!(parse_rules("standard", rules), Ok(Rules::default()));
    for bad in [
        "draw-plies=101",
        "removal=two",
        "flying",
        "x=1",
        "repetitions=-1",
    ] {
        assert!(parse_rules(bad, Rules::default()).is_err(), "{bad}");
    }
}

#[test]
fn move_hints_put_mills_first_then_blocks() {
    // White to place: g7 closes a7-d7-g7; a1 blocks Black's g1-d1 line.
    let pos = position(
        Color::White,
        &["a7", "d7"],
        &["g1", "d1", "b4"],
        [7, 6],
        Rules::default(),
    );
    let hint = |text: &str| pos.move_hint(pos.parse_move(text).expect("legal")).unwrap();
    assert!(hint("g7xb4") > hint("a1"));
    assert!(hint("a1") > hint("c3"));
    assert!(
        hint("g7xg1") > hint("g7xb4"),
        "taking a stone of an open line is preferred"
    );
}
