//! The search through its public API: legal moves under every kind of limit, determinism
//! of fixed-depth searches, and exact endgame results.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use iago::eval::othello_evaluator;
use iago::game::Game;
use iago::othello::notation::parse_position;
use iago::othello::symmetry::Symmetry;
use iago::othello::{Move, Position};
use iago::search::{Clock, Confidence, Limits, SearchReport, Searcher};

fn searcher() -> Searcher<Position> {
    let mut searcher = Searcher::new(othello_evaluator("default").expect("default evaluator"));
    searcher.set_hash_mb(8);
    searcher
}

fn search(
    searcher: &mut Searcher<Position>,
    pos: &Position,
    limits: &Limits,
) -> SearchReport<Move> {
    let stop = AtomicBool::new(false);
    searcher.search(pos, limits, &stop, &mut |_| {})
}

fn midgame() -> Position {
    let mut pos = Position::start();
    for mv in ["f5", "d6", "c3", "d3", "c4", "f4", "c5", "b3", "c2", "e6"] {
        pos = pos.try_play(mv.parse().unwrap()).unwrap();
    }
    pos
}

#[test]
fn a_legal_move_under_every_limit() {
    let clock = Clock {
        remaining: Duration::from_millis(5),
        increment: Duration::ZERO,
        moves_to_go: None,
    };
    let limits = [
        Limits {
            depth: Some(1),
            ..Limits::default()
        },
        Limits {
            nodes: Some(1),
            ..Limits::default()
        },
        Limits {
            nodes: Some(5000),
            ..Limits::default()
        },
        Limits {
            movetime: Some(Duration::from_millis(1)),
            ..Limits::default()
        },
        Limits {
            movetime: Some(Duration::ZERO),
            ..Limits::default()
        },
        Limits {
            clock: Some(clock),
            ..Limits::default()
        },
    ];
    let pass = parse_position("XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOO-- O")
        .unwrap();
    for pos in [Position::start(), midgame(), pass] {
        for limit in &limits {
            let report = search(&mut searcher(), &pos, limit);
            let mv = report.best_move.expect("a move");
            assert!(
                pos.legal_moves().as_ref().contains(&mv),
                "{mv} under {limit:?}"
            );
            assert_eq!(report.pv.first(), Some(&mv));
        }
    }
}

/// A search with two threads stopped by its limit still gives a legal move: under the
/// node limit the selective solve starts (no clock) and is cut short, and its helper
/// thread stops with it (the test would hang otherwise).
#[test]
fn a_parallel_solve_out_of_time_gives_a_move() {
    // FFO #49: 26 empties, far more than 50 ms of solving.
    let problem = iago::othello::obf::parse_obf_line(
        "--OX-O----XXOO--OOOOOXX-OOOOOX--OOOXOXX-OOOOXX-----OOX----X-O--- X; E1:+16;",
    )
    .unwrap();
    let pos = problem.position;
    let mut searcher = searcher();
    searcher.set_threads(2);
    for limits in [
        Limits {
            movetime: Some(Duration::from_millis(50)),
            ..Limits::default()
        },
        Limits {
            nodes: Some(3_000_000),
            ..Limits::default()
        },
    ] {
        let report = search(&mut searcher, &pos, &limits);
        let mv = report.best_move.expect("a move");
        assert!(pos.legal_moves().as_ref().contains(&mv), "{limits:?}");
    }
}

/// With two threads the midgame iterations from depth 6 run helper threads that share
/// the table: the move and the whole principal variation (read from that table) are
/// legal under a depth limit, a node limit and a time limit, and the search returns.
#[test]
fn parallel_midgame_searches_give_legal_moves_and_lines() {
    let ffo_49 =
        parse_position("--OX-O----XXOO--OOOOOXX-OOOOOX--OOOXOXX-OOOOXX-----OOX----X-O--- X")
            .unwrap();
    let mut searcher = searcher();
    searcher.set_threads(2);
    for pos in [Position::start(), midgame(), ffo_49] {
        for limits in [
            Limits {
                depth: Some(10),
                ..Limits::default()
            },
            Limits {
                nodes: Some(200_000),
                ..Limits::default()
            },
            Limits {
                movetime: Some(Duration::from_millis(30)),
                ..Limits::default()
            },
        ] {
            let report = search(&mut searcher, &pos, &limits);
            assert_eq!(report.pv.first(), report.best_move.as_ref());
            let mut line = pos;
            for &mv in &report.pv {
                assert!(line.legal_moves().as_ref().contains(&mv), "{limits:?}");
                line = line.play(mv);
            }
        }
    }
}

/// With two threads, an iteration ends when either thread completes it (a helper one ply
/// ahead may complete the next depth first and stand for it): the reports still come in
/// rising depth, each a legal line, and a depth limit is the depth reported at the end.
#[test]
fn parallel_iterations_report_rising_depths_up_to_the_limit() {
    let mut searcher = searcher();
    searcher.set_threads(2);
    for pos in [Position::start(), midgame()] {
        for depth in [6, 9, 12] {
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            let stop = AtomicBool::new(false);
            let mut depths = Vec::new();
            let report = searcher.search(&pos, &limits, &stop, &mut |report| {
                depths.push(report.depth);
                let mut line = pos;
                for &mv in &report.pv {
                    assert!(line.legal_moves().as_ref().contains(&mv));
                    line = line.play(mv);
                }
            });
            assert!(depths.windows(2).all(|w| w[0] < w[1]), "{depths:?}");
            assert_eq!(depths.last(), Some(&depth));
            assert_eq!(report.depth, depth);
        }
    }
}

#[test]
fn a_stop_flag_raised_before_the_search_still_gives_a_move() {
    let stop = AtomicBool::new(true);
    let pos = midgame();
    let report = searcher().search(&pos, &Limits::default(), &stop, &mut |_| {});
    assert!(
        pos.legal_moves()
            .as_ref()
            .contains(&report.best_move.unwrap())
    );
}

#[test]
fn fixed_depth_searches_repeat_exactly() {
    let limits = Limits {
        depth: Some(7),
        ..Limits::default()
    };
    let pos = midgame();
    let first = search(&mut searcher(), &pos, &limits);
    let mut reused = searcher();
    for _ in 0..2 {
        let again = search(&mut reused, &pos, &limits);
        assert_eq!(again.best_move, first.best_move);
        assert_eq!(again.score, first.score);
        assert_eq!(again.nodes, first.nodes);
        assert_eq!(again.pv, first.pv);
        reused.clear();
    }
    // Node-limited searches stop at the same node.
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    let a = search(&mut searcher(), &pos, &limits);
    let b = search(&mut searcher(), &pos, &limits);
    assert_eq!(
        (a.best_move, a.score, a.nodes),
        (b.best_move, b.score, b.nodes)
    );
    assert!(a.nodes <= 20_000, "{} nodes", a.nodes);
}

#[test]
fn iterations_are_reported_deeper_each_time() {
    let mut depths = Vec::new();
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(5),
        ..Limits::default()
    };
    let report = searcher().search(&midgame(), &limits, &stop, &mut |r| depths.push(r.depth));
    assert_eq!(depths, vec![1, 2, 3, 4, 5]);
    assert_eq!(report.depth, 5);
}

#[test]
fn an_ended_game_has_no_move() {
    let full = parse_position("XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXO X")
        .unwrap();
    let report = search(&mut searcher(), &full, &Limits::default());
    assert_eq!(report.best_move, None);
    assert_eq!(report.score, 62 * 100);
}

/// Solves every problem of an OBF file in tests/data and checks score and move.
fn check_obf(name: &str) {
    check_obf_with_threads(name, 1);
}

fn check_obf_with_threads(name: &str, threads: usize) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    let problems = iago::othello::obf::read_obf_file(&path).expect("test data");
    let mut searcher = searcher();
    searcher.set_threads(threads);
    for problem in problems {
        searcher.clear();
        let report = search(&mut searcher, &problem.position, &Limits::default());
        let expected = problem.best_score().unwrap();
        assert_eq!(report.confidence, Confidence::Exact);
        assert_eq!(report.score, expected * 100, "{}", problem.to_line());
        let played = problem
            .moves
            .iter()
            .find(|(mv, _)| Some(*mv) == report.best_move)
            .map(|&(_, score)| score);
        assert_eq!(played, Some(expected), "{}", problem.to_line());
    }
}

#[test]
fn exact_solves_of_ffo_1_to_19() {
    check_obf("fforum-1-19.obf");
}

#[test]
fn exact_solves_of_a_sample_of_hard_20() {
    check_obf("hard-20-sample.obf");
}

/// With two threads (from 18 empties the solver's helpers share its table), the same
/// exact results; on a one-core machine the second thread is not started, and the test
/// checks the single-threaded solve again.
#[test]
fn parallel_solves_are_exact() {
    check_obf_with_threads("hard-20-sample.obf", 2);
    check_obf_with_threads("fforum-1-19.obf", 2);
}

#[test]
fn solves_agree_under_the_eight_symmetries() {
    let problems = iago::othello::obf::read_obf_file(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fforum-1-19.obf"),
    )
    .unwrap();
    let problem = &problems[2];
    for symmetry in Symmetry::ALL {
        let pos = problem.position.transformed(symmetry);
        let report = search(&mut searcher(), &pos, &Limits::default());
        assert_eq!(
            report.score,
            problem.best_score().unwrap() * 100,
            "{symmetry:?}"
        );
        let mv = report.best_move.unwrap();
        let original = mv.transformed(symmetry.inverse());
        assert!(
            problem
                .moves
                .iter()
                .any(|&(m, s)| m == original && Some(s) == problem.best_score()),
            "{symmetry:?}: {mv}"
        );
    }
}

/// The test scenarios of the Kotlin seed, with their exact answers.
#[test]
fn seed_scenarios() {
    let scenarios = [
        (
            "XXXXXOX- XXXOOOOO XXXXXOOO XXXXOOXO XXXXXOXO OOOXXOXO OOXXXOXO OOOOOO-O X",
            "g8",
            2,
        ),
        (
            "OOOOOXOO XOOOOXOX XXOXXXXX -XXOOOOX OXOOOOOX XXXXXOOX OOOXOXXX -O-XXXXX X",
            "a4",
            8,
        ),
        (
            "XXX-O-XX XOX--OXX XXXXXXXX OOXXXXOX OOXXXOOX XOXOXOOO XOOXOOOO XOOOOOOO O",
            "e2",
            -2,
        ),
        (
            "OXXXXXXX -OOOOOXX OOOOXXOX OOOOOOOX OOOOOOOX OOOXOOO- OOOOXOOX OOOOOOOO X",
            "h6",
            0,
        ),
    ];
    for (text, best, score) in scenarios {
        let pos = parse_position(text).unwrap();
        let report = search(&mut searcher(), &pos, &Limits::default());
        assert_eq!(report.best_move, Some(best.parse().unwrap()), "{text}");
        assert_eq!(report.score, score * 100, "{text}");
        assert_eq!(report.confidence, Confidence::Exact);
    }
    // Scenario 4: a2 loses by 20.
    let pos = parse_position(scenarios[3].0).unwrap();
    let after = pos.play("a2".parse().unwrap());
    assert_eq!(
        search(&mut searcher(), &after, &Limits::default()).score,
        20 * 100
    );
}

/// The bench node count is the search's signature: a change of search behaviour changes
/// it, and its commit must say so with a `Bench: N` line. Update the number here in that
/// same commit.
#[test]
fn the_bench_signature_is_the_announced_one() {
    const SIGNATURE: u64 = 325_745;
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_iago"))
        .arg("bench")
        .output()
        .expect("run iago bench");
    assert!(output.status.success());
    let stdout = String::from_utf8_lossy(&output.stdout);
    let nodes: u64 = stdout
        .lines()
        .find_map(|line| line.strip_prefix("bench depth 10: "))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|count| count.parse().ok())
        .unwrap_or_else(|| panic!("no bench line in {stdout}"));
    assert_eq!(
        nodes, SIGNATURE,
        "the bench signature changed: if the search was meant to change, say `Bench: {nodes}` in the commit and update SIGNATURE"
    );
}
