//! The search on Mill positions: wins it must see, determinism at a fixed depth, and the
//! switches of its Mill-specific parts (reductions, quiescence) keep it sound.

use std::sync::atomic::AtomicBool;

use iago::game::{Color, Game, WIN_SCORE};
use iago::mill::board::point_by_name;
use iago::mill::eval::mill_evaluator;
use iago::mill::{MillPosition, Rules};
use iago::search::{Limits, OrderingRules, Searcher};

fn set(names: &[&str]) -> u32 {
    names
        .iter()
        .map(|n| 1u32 << point_by_name(n).expect("a point"))
        .sum()
}

fn position(side: Color, white: &[&str], black: &[&str], hands: [u8; 2]) -> MillPosition {
    MillPosition::setup([set(white), set(black)], hands, side, Rules::default())
        .expect("valid position")
}

fn search(pos: &MillPosition, depth: u32, rules: OrderingRules) -> (String, i32, u64) {
    search_with_threads(pos, depth, rules, 1)
}

fn search_with_threads(
    pos: &MillPosition,
    depth: u32,
    rules: OrderingRules,
    threads: usize,
) -> (String, i32, u64) {
    let mut searcher = Searcher::new(mill_evaluator("phased").unwrap());
    searcher.set_hash_mb(4);
    searcher.set_ordering(rules);
    searcher.set_threads(threads);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let report = searcher.search(pos, &limits, &AtomicBool::new(false), &mut |_| {});
    let mv = report.best_move.expect("a move");
    assert!(pos.legal_moves().as_ref().contains(&mv));
    (pos.format_move(mv), report.score, report.nodes)
}

/// Every combination of the Mill search's switches.
fn variants() -> Vec<OrderingRules> {
    let mut all = Vec::new();
    for bits in 0..8 {
        all.push(OrderingRules {
            reductions: bits & 1 != 0,
            quiescence: bits & 2 != 0,
            killers: bits & 4 != 0,
            ..OrderingRules::default()
        });
    }
    all
}

/// Both flying: b4-g7 closes a7 d7 g7 and a removal leaves Black two stones.
fn flying() -> MillPosition {
    position(
        Color::White,
        &["a7", "d7", "b4"],
        &["e3", "c5", "f2"],
        [0, 0],
    )
}

/// Black slides d6-d7 and White, blocked, loses.
fn blocking() -> MillPosition {
    position(
        Color::Black,
        &["c5", "g1", "a4", "a7"],
        &["d5", "c4", "d6", "b4", "g4", "d1", "a1"],
        [0, 0],
    )
}

#[test]
fn immediate_wins_are_found_with_every_switch() {
    let (flying, blocking) = (flying(), blocking());
    for rules in variants() {
        for depth in [1, 3, 5] {
            let (mv, score, _) = search(&flying, depth, rules);
            assert!(mv.starts_with("b4-g7x"), "{mv} {rules:?}");
            assert!(score >= WIN_SCORE - 10, "{score}");
            let (mv, score, _) = search(&blocking, depth, rules);
            assert_eq!(mv, "d6-d7", "{rules:?}");
            assert!(score >= WIN_SCORE - 10, "{score}");
        }
    }
}

#[test]
fn fixed_depth_searches_repeat_exactly() {
    let mut pos = MillPosition::start();
    for text in ["d6", "d5", "f4", "b4", "e4"] {
        pos = pos.play(pos.parse_move(text).unwrap());
    }
    for rules in variants() {
        let first = search(&pos, 6, rules);
        assert_eq!(first, search(&pos, 6, rules), "{rules:?}");
    }
    // Reductions and quiescence change the tree.
    let plain = OrderingRules {
        reductions: false,
        quiescence: false,
        ..OrderingRules::default()
    };
    assert_ne!(
        search(&pos, 6, plain).2,
        search(&pos, 6, OrderingRules::default()).2
    );
}

/// With two threads (iterations from depth 6 share out their moves), the same wins at
/// depths where the helpers run, and a legal move from the opening.
#[test]
fn parallel_searches_find_the_wins_too() {
    let rules = OrderingRules::default();
    for depth in [6, 7, 8] {
        let (mv, score, _) = search_with_threads(&flying(), depth, rules, 2);
        assert!(mv.starts_with("b4-g7x"), "{mv}");
        assert!(score >= WIN_SCORE - 10, "{score}");
        let (mv, score, _) = search_with_threads(&blocking(), depth, rules, 2);
        assert_eq!(mv, "d6-d7");
        assert!(score >= WIN_SCORE - 10, "{score}");
    }
    let mut pos = MillPosition::start();
    for text in ["d6", "d5", "f4", "b4", "e4"] {
        pos = pos.play(pos.parse_move(text).unwrap());
    }
    search_with_threads(&pos, 9, rules, 2);
}
