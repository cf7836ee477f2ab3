use std::path::PathBuf;

use rand::SeedableRng;
use rand::rngs::StdRng;

use super::*;
use crate::othello::eval::othello_evaluator;
use crate::othello::symmetry::Symmetry;

fn searcher() -> Searcher<Position> {
    Searcher::new(othello_evaluator("default").expect("default evaluator"))
}

fn play(moves: &str) -> (Position, Vec<Move>) {
    let mut pos = Position::start();
    let mut list = Vec::new();
    for chunk in moves.as_bytes().chunks(2) {
        let mv: Move = std::str::from_utf8(chunk).unwrap().parse().unwrap();
        pos = pos.try_play(mv).unwrap();
        list.push(mv);
    }
    (pos, list)
}

/// A fresh directory in the temporary directory, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir =
            std::env::temp_dir().join(format!("iago-book-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    /// A book path inside; the file does not exist yet.
    fn book(&self) -> PathBuf {
        self.0.join("book.bin")
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn embedded_book_loads_and_knows_the_start() {
    let book = Book::embedded();
    assert!(
        book.len() > 100,
        "embedded book has {} positions",
        book.len()
    );
    let moves = book
        .moves(&Position::start())
        .expect("start position in book");
    let mut squares: Vec<String> = moves.iter().map(|m| m.mv.to_string()).collect();
    squares.sort();
    assert_eq!(squares, ["c4", "d3", "e6", "f5"]);
    // The four openings are one up to symmetry: equal values.
    assert!(moves.iter().all(|m| m.value == moves[0].value && m.in_book));
}

#[test]
fn lookup_is_symmetric_all_eight_transforms_hit() {
    let book = Book::embedded();
    for line in ["f5", "f5d6", "f5d6c3", "f5f6e6f4", "c4c3", "d3c5f6"] {
        let (pos, _) = play(line);
        let moves = book
            .moves(&pos)
            .unwrap_or_else(|| panic!("{line} not in book"));
        assert!(!moves.is_empty());
        for symmetry in Symmetry::ALL {
            let image = pos.transformed(symmetry);
            let image_moves = book
                .moves(&image)
                .unwrap_or_else(|| panic!("{line} under {symmetry:?} missed"));
            let expected: Vec<(Move, Score)> = moves
                .iter()
                .map(|m| (m.mv.transformed(symmetry), m.value))
                .collect();
            let mut got: Vec<(Move, Score)> = image_moves.iter().map(|m| (m.mv, m.value)).collect();
            let mut expected_sorted = expected.clone();
            got.sort();
            expected_sorted.sort();
            assert_eq!(got, expected_sorted, "{line} under {symmetry:?}");
            for m in &image_moves {
                assert!(image.try_play(m.mv).is_some(), "book move {} illegal", m.mv);
            }
        }
    }
}

#[test]
fn values_are_the_minimax_of_children_and_leaf() {
    let book = Book::embedded();
    let mut checked = 0;
    for (key, entry) in book.entries().into_iter().take(500) {
        let pos = position_of(key);
        let moves = book.moves(&pos).unwrap();
        let best = moves
            .iter()
            .map(|m| m.value)
            .max()
            .unwrap_or(entry.leaf_value);
        assert_eq!(entry.value, best, "position {key:x?}");
        checked += 1;
    }
    assert_eq!(checked, 500);
}

#[test]
fn choice_respects_value_threshold_and_seeded_randomness() {
    let book = Book::embedded();
    let start = Position::start();
    let best = book.choose(&start, &BookPolicy::default(), None).unwrap();
    assert_eq!(best, book.moves(&start).unwrap()[0]);
    let strict = BookPolicy {
        min_value: best.value + 1,
        randomness: 0,
    };
    assert_eq!(book.choose(&start, &strict, None), None);
    // The four first moves are equal: a wide enough window picks all of them.
    let varied = BookPolicy {
        min_value: -6400,
        randomness: 100,
    };
    let pick = |seed| {
        let mut rng = StdRng::seed_from_u64(seed);
        book.choose(&start, &varied, Some(&mut rng)).unwrap().mv
    };
    let picks: std::collections::BTreeSet<Move> = (0..64).map(pick).collect();
    assert_eq!(picks.len(), 4);
    assert_eq!(pick(7), pick(7), "same seed, same choice");
}

#[test]
fn learn_then_reload_keeps_positions_and_values() {
    let dir = TempDir::new("learn");
    let path = dir.book();
    let mut book = Book::new();
    book.set_path(Some(path.clone()));
    let (_, game) = play("f5d6c3d3c4f4f6f3e6e7d7g6");
    let settings = LearnSettings {
        depth: 3,
        plies: 60,
    };
    let report = book
        .learn_game(&Position::start(), &game, &mut searcher(), &settings)
        .unwrap();
    assert_eq!(report.added, game.len() + 1);
    let reloaded = Book::open(&path).unwrap();
    assert_eq!(reloaded.entries(), book.entries());
    let mut pos = Position::start();
    for &mv in &game {
        let moves = reloaded.moves(&pos).expect("game position learned");
        assert!(moves.iter().any(|m| m.mv == mv && m.in_book));
        assert_eq!(reloaded.entry(&pos).unwrap().games, 1);
        pos = pos.play(mv);
    }

    // A second game sharing the first moves: shared positions count two games.
    let (_, second) = play("f5d6c3d3c4f4c5b3");
    let report = book
        .learn_game(&Position::start(), &second, &mut searcher(), &settings)
        .unwrap();
    assert_eq!(report.added, 2, "after c5 and after b3");
    let reloaded = Book::open(&path).unwrap();
    assert_eq!(reloaded.entry(&play("f5d6c3d3c4f4").0).unwrap().games, 2);
    assert_eq!(
        reloaded.entry(&play("f5d6c3d3c4f4c5b3").0).unwrap().games,
        1
    );
    assert_eq!(reloaded.entry(&play("f5d6c3d3c4f4f6").0).unwrap().games, 1);
}

#[test]
fn learning_refreshes_a_leaf_that_now_leads_into_the_book() {
    let mut book = Book::new();
    let settings = LearnSettings {
        depth: 2,
        plies: 60,
    };
    let (_, game) = play("f5d6");
    book.learn_game(&Position::start(), &game, &mut searcher(), &settings)
        .unwrap();
    let after_f5 = play("f5").0;
    let leaf = book.entry(&after_f5).unwrap().leaf_move.unwrap();
    let image = canonical(&after_f5);
    // Learn the game that plays the leaf move: afterwards no stale leaf remains.
    let next = vec![game[0], leaf.transformed(image.1.inverse())];
    book.learn_game(&Position::start(), &next, &mut searcher(), &settings)
        .unwrap();
    let entry = book.entry(&after_f5).unwrap();
    let (canon, _) = canonical(&after_f5);
    assert!(
        entry.leaf_move.is_none() || book.live_leaf(&canon, entry).is_some(),
        "leaf still points into the book"
    );
}

#[test]
fn illegal_game_is_refused_and_changes_nothing() {
    let mut book = Book::embedded();
    let before = book.entries();
    let game = vec![Move::from_index(0)];
    let error = book
        .learn_game(
            &Position::start(),
            &game,
            &mut searcher(),
            &LearnSettings::default(),
        )
        .unwrap_err();
    assert!(error.to_string().contains("illegal"), "{error}");
    assert_eq!(book.entries(), before);
}

#[test]
fn damaged_bytes_are_reported_never_accepted() {
    let bytes = Book::embedded().to_bytes();
    let name = std::path::Path::new("test.bin");
    assert!(Book::from_bytes(&bytes, name).is_ok());
    // Every truncation, including to nothing.
    for len in (0..bytes.len())
        .step_by(97)
        .chain([0, 31, 32, bytes.len() - 1])
    {
        let error = Book::from_bytes(&bytes[..len], name).unwrap_err();
        assert!(matches!(error, BookError::Corrupt { .. }), "{error}");
    }
    // Single flipped bits anywhere.
    let mut rng = StdRng::seed_from_u64(42);
    for _ in 0..200 {
        let mut damaged = bytes.clone();
        let at = rand::RngExt::random_range(&mut rng, 0..damaged.len());
        damaged[at] ^= 1 << rand::RngExt::random_range(&mut rng, 0..8);
        let error = Book::from_bytes(&damaged, name).unwrap_err();
        assert!(matches!(error, BookError::Corrupt { .. }), "{error}");
    }
    // Random bytes of various lengths.
    for len in [1, 40, 1000, 32 + 24 * 10] {
        let noise: Vec<u8> = (0..len)
            .map(|_| rand::RngExt::random_range(&mut rng, 0..=255u8))
            .collect();
        assert!(Book::from_bytes(&noise, name).is_err());
    }
}

#[test]
fn damaged_file_is_reported_and_the_engine_goes_on_without_it() {
    let dir = TempDir::new("damaged");
    let path = dir.book();
    let bytes = Book::embedded().to_bytes();
    std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    let error = Book::open(&path).unwrap_err();
    let message = error.to_string();
    assert!(
        message.contains("damaged") && message.contains("truncated"),
        "{message}"
    );
    assert!(Book::open_choice(&BookChoice::File(path.clone())).is_err());
    // Learning never overwrites the damaged file.
    let mut book = Book::new();
    book.set_path(Some(path.clone()));
    let (_, game) = play("f5d6");
    let result = book.learn_game(
        &Position::start(),
        &game,
        &mut searcher(),
        &LearnSettings {
            depth: 1,
            plies: 60,
        },
    );
    assert!(matches!(result, Err(BookError::Corrupt { .. })));
    assert_eq!(std::fs::read(&path).unwrap(), &bytes[..bytes.len() / 2]);
}

#[test]
fn book_choice_from_arguments() {
    assert_eq!(BookChoice::from_arg("none"), BookChoice::None);
    assert_eq!(BookChoice::from_arg("NONE"), BookChoice::None);
    assert_eq!(
        BookChoice::from_arg("my.book"),
        BookChoice::File(PathBuf::from("my.book"))
    );
    assert!(matches!(Book::open_choice(&BookChoice::None), Ok(None)));
    assert!(matches!(
        Book::open_choice(&BookChoice::Default),
        Ok(Some(_))
    ));
}
