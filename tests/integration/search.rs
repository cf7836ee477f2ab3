//! The search through its public API: legal moves under every kind of limit, determinism
//! of fixed-depth searches, and exact endgame results.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::protocol_io::IAGO;
use iago::game::Game;
use iago::othello::eval::othello_evaluator;
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
    const SIGNATURE: u64 = 330_214;
    let output = std::process::Command::new(IAGO)
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

/// Collects what a focused search tells its observer.
#[derive(Default)]
struct Seen {
    lines: std::cell::RefCell<Vec<SearchReport<Move>>>,
    iterations: std::cell::RefCell<Vec<u32>>,
}

impl iago::search::Observer<Move> for Seen {
    fn iteration(&self, report: &SearchReport<Move>) {
        self.iterations.borrow_mut().push(report.depth);
    }

    fn line(&self, report: &SearchReport<Move>) {
        self.lines.borrow_mut().push(report.clone());
    }
}

/// Positions with `empties` empties along seeded random games, with their mover to move.
fn endgame_positions(seed: u64, count: usize, empties: u32) -> Vec<Position> {
    use rand::RngExt;
    let mut rng = crate::common::rng(seed);
    let mut found = Vec::new();
    while found.len() < count {
        let mut pos = Position::start();
        while pos.empty_count() > empties && !pos.is_game_over() {
            let moves = pos.legal_moves();
            let moves = moves.as_ref();
            pos = pos.play(moves[rng.random_range(0..moves.len())]);
        }
        if pos.empty_count() == empties && pos.legal_moves().as_ref().len() >= 4 {
            found.push(pos);
        }
    }
    found
}

/// A search for the best three lines scores each of them exactly, as a separate solve
/// (plain alpha-beta over an array board) finds them, and tells them as it finds them,
/// also inside an iteration; one restricted to some root moves searches those alone.
#[test]
fn several_lines_are_each_their_moves_value() {
    use iago::search::Focus;
    let stop = AtomicBool::new(false);
    for pos in endgame_positions(46, 8, 10) {
        let board = crate::common::ArrayBoard::from_position(&pos);
        let exact = |mv: Move| -board.play(mv.square().unwrap().into()).solve() * 100;
        let seen = Seen::default();
        let focus = Focus {
            lines: 3,
            ..Focus::default()
        };
        let report = searcher().search_focused(&pos, &Limits::default(), &stop, &focus, &seen);
        assert_eq!(report.confidence, Confidence::Exact);
        let lines = seen.lines.borrow();
        let exact_lines: Vec<&SearchReport<Move>> = lines
            .iter()
            .filter(|line| line.confidence == Confidence::Exact)
            .collect();
        let moves: std::collections::HashSet<Move> = exact_lines
            .iter()
            .map(|line| line.best_move.unwrap())
            .collect();
        assert!(moves.len() >= 3, "{lines:?}");
        for line in &exact_lines {
            assert_eq!(
                line.score,
                exact(line.best_move.unwrap()),
                "{line:?} in {pos:?}"
            );
            assert_eq!(line.pv.first(), line.best_move.as_ref());
        }
        // The best of them is the report's, the best of all moves.
        let best = pos.legal_moves().as_ref().iter().map(|&mv| exact(mv)).max();
        assert_eq!(Some(report.score), best);
        // Lines come inside iterations: more than one for some iteration's depth.
        let depths: Vec<u32> = lines.iter().map(|line| line.depth).collect();
        assert!(depths.windows(2).any(|w| w[0] == w[1]), "{depths:?}");
        // Restricted to the worst move, the search scores that move.
        let worst = *pos
            .legal_moves()
            .as_ref()
            .iter()
            .min_by_key(|&&mv| exact(mv))
            .unwrap();
        let focus = Focus {
            moves: Some(vec![worst]),
            ..Focus::default()
        };
        let report = searcher().search_focused(&pos, &Limits::default(), &stop, &focus, &());
        assert_eq!(report.best_move, Some(worst));
        assert_eq!(report.score, exact(worst));
    }
}
