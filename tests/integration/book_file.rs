//! The book file under real processes: SIGKILL while learning, two learners at once,
//! damaged files given to the binary.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use iago::game::Game;
use iago::othello::book::Book;
use iago::othello::{Move, Position};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use crate::protocol_io::IAGO;
/// Plies of each game that are learned (must match `--plies` below).
const PLIES: usize = 24;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("iago-book-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temporary directory");
    dir
}

/// `count` random legal games (seeded), as lines of moves.
fn random_games(seed: u64, count: usize) -> Vec<Vec<Move>> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..count)
        .map(|_| {
            let mut pos = Position::start();
            let mut game = Vec::new();
            while !pos.is_game_over() {
                let moves = pos.legal_moves();
                let moves = moves.as_ref();
                let mv = moves[rng.random_range(0..moves.len())];
                game.push(mv);
                pos = pos.play(mv);
            }
            game
        })
        .collect()
}

fn write_games(path: &Path, games: &[Vec<Move>]) {
    let text: String = games
        .iter()
        .map(|game| {
            let moves: String = game
                .iter()
                .filter(|m| !m.is_pass())
                .map(|m| m.to_string())
                .collect();
            moves + "\n"
        })
        .collect();
    std::fs::write(path, text).expect("games file");
}

/// True when every position of the game's first plies is in the book.
fn game_is_in(book: &Book, game: &[Move]) -> bool {
    let mut pos = Position::start();
    if !book.contains(&pos) {
        return false;
    }
    for &mv in game.iter().take(PLIES) {
        pos = pos.play(mv);
        if !book.contains(&pos) {
            return false;
        }
    }
    true
}

fn learn_command(book: &Path, games: &Path) -> Command {
    let mut command = Command::new(IAGO);
    command
        .args(["book", "learn", "--depth", "2", "--plies"])
        .arg(PLIES.to_string())
        .arg("--book")
        .arg(book)
        .arg(games)
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    command
}

#[test]
fn sigkill_while_learning_never_damages_the_book() {
    let dir = temp_dir("crash");
    let book_path = dir.join("book.bin");
    let games = random_games(1, 400);
    let mut rng = StdRng::seed_from_u64(2);
    let mut confirmed = 0; // games reported learned (so saved) so far, in order
    let mut kills = 0;
    for round in 0..30 {
        if confirmed >= games.len() {
            break;
        }
        let games_file = dir.join(format!("games-{round}.txt"));
        write_games(&games_file, &games[confirmed..]);
        let mut child = learn_command(&book_path, &games_file)
            .spawn()
            .expect("spawn iago");
        let stdout = child.stdout.take().expect("stdout");
        let (sender, receiver) = mpsc::channel();
        let reader = std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if line.starts_with("learned game") && sender.send(()).is_err() {
                    break;
                }
            }
        });
        // Let it learn for a random while (sometimes none at all), then SIGKILL it.
        std::thread::sleep(Duration::from_millis(rng.random_range(0..250)));
        child.kill().expect("SIGKILL");
        kills += 1;
        let _ = child.wait();
        let _ = reader.join();
        let newly: usize = receiver.try_iter().count();
        confirmed += newly;
        eprintln!("round {round}: killed after {newly} more games, {confirmed} learned");

        let book = Book::open(&book_path)
            .unwrap_or_else(|error| panic!("round {round}: book damaged after SIGKILL: {error}"));
        for (index, game) in games[..confirmed].iter().enumerate() {
            assert!(
                game_is_in(&book, game),
                "round {round}: game {index}, reported learned, is missing"
            );
        }
        // At most the game in flight may be there beyond the reported ones.
        if let Some(game) = games.get(confirmed + 1) {
            assert!(!game_is_in(&book, game) || confirmed + 1 >= games.len());
        }
    }
    assert!(kills >= 10, "only {kills} kills");
    assert!(confirmed > 0, "no game was ever learned");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn two_learners_at_once_keep_both_games_sets() {
    let dir = temp_dir("concurrent");
    let book_path = dir.join("book.bin");
    let first = random_games(10, 15);
    let second = random_games(11, 15);
    write_games(&dir.join("first.txt"), &first);
    write_games(&dir.join("second.txt"), &second);
    let mut a = learn_command(&book_path, &dir.join("first.txt"))
        .stdout(Stdio::null())
        .spawn()
        .expect("spawn");
    let mut b = learn_command(&book_path, &dir.join("second.txt"))
        .stdout(Stdio::null())
        .spawn()
        .expect("spawn");
    assert!(a.wait().expect("wait").success());
    assert!(b.wait().expect("wait").success());
    let book = Book::open(&book_path).expect("book loads");
    for game in first.iter().chain(&second) {
        assert!(game_is_in(&book, game), "a game was lost");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn damaged_book_files_give_a_clear_message_and_no_crash() {
    let dir = temp_dir("damaged");
    let good = dir.join("good.bin");
    let output = Command::new(IAGO)
        .args(["book", "learn", "--depth", "1", "--book"])
        .arg(&good)
        .arg({
            let games = dir.join("games.txt");
            std::fs::write(&games, "f5d6c3d3c4\n").expect("write");
            games
        })
        .output()
        .expect("run iago");
    assert!(output.status.success());
    let bytes = std::fs::read(&good).expect("book written");

    let mut rng = StdRng::seed_from_u64(3);
    let truncated = bytes[..bytes.len() - 7].to_vec();
    let mut flipped = bytes.clone();
    let at = rng.random_range(40..flipped.len());
    flipped[at] ^= 0x10;
    let noise: Vec<u8> = (0..5000).map(|_| rng.random_range(0..=255u8)).collect();
    for (name, content) in [
        ("truncated", truncated),
        ("flipped", flipped),
        ("noise", noise),
        ("empty", Vec::new()),
    ] {
        let path = dir.join(format!("{name}.bin"));
        std::fs::write(&path, &content).expect("write");
        for args in [vec!["book", "check"], vec!["book", "show", "--book"]] {
            let output = Command::new(IAGO)
                .args(&args)
                .arg(&path)
                .output()
                .expect("run iago");
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert_eq!(output.status.code(), Some(2), "{name} {args:?}: {stderr}");
            assert!(stderr.contains("damaged"), "{name}: {stderr}");
            assert!(!stderr.contains("panicked"), "{name}: {stderr}");
        }
        assert_eq!(
            std::fs::read(&path).expect("read"),
            content,
            "{name} was modified"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_endless_file_is_refused_without_being_read_into_memory() {
    // At most 1 GB of address space: a reader that keeps going runs out of it at once
    // instead of running the machine out of memory.
    for args in [
        "book check /dev/zero",
        "book show --book /dev/zero",
        "--book /dev/zero --protocol gtp",
    ] {
        let output = Command::new("bash")
            .arg("-c")
            .arg(format!("ulimit -v 1000000 && exec \"$0\" {args}"))
            .arg(IAGO)
            .stdin(Stdio::null())
            .output()
            .expect("run bash");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains("book /dev/zero is damaged or not a book (no IAGOBOOK signature)"),
            "{args}: {stderr}"
        );
        assert!(!stderr.contains("memory allocation"), "{args}: {stderr}");
        let expected = if args.starts_with("book") { 2 } else { 0 };
        assert_eq!(output.status.code(), Some(expected), "{args}: {stderr}");
    }
}
