//! The files users name, as users name them: written through symbolic links, into pipes
//! and devices without replacing them, whole or not at all on a full disk; every reader
//! bounded; every kind of game file read alike by `analyze` and `book learn`.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use crate::common::{iago, random_match_args, scratch, stderr, stdout};

use crate::protocol_io::IAGO;

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// `iago match` of two games between random players, its records written to `out`.
fn short_match(out: &Path) -> Output {
    let args = random_match_args(out.to_str().unwrap());
    iago(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

/// Makes a special file with the system's tool (`mkfifo`, `mknod`), if this user may.
fn make(tool: &str, path: &Path, args: &[&str]) -> bool {
    Command::new(tool)
        .arg(path)
        .args(args)
        .status()
        .is_ok_and(|status| status.success())
}

#[test]
fn out_writes_the_file_a_symbolic_link_names_and_keeps_the_link() {
    let dir = scratch("files", "link");
    std::fs::write(dir.join("games.ggf"), "old\n").unwrap();
    std::os::unix::fs::symlink("games.ggf", dir.join("link.ggf")).unwrap();
    let output = short_match(&dir.join("link.ggf"));
    assert!(output.status.success(), "{}", stderr(&output));
    let link = std::fs::symlink_metadata(dir.join("link.ggf")).unwrap();
    assert!(link.file_type().is_symlink(), "the link was replaced");
    let records = std::fs::read_to_string(dir.join("games.ggf")).unwrap();
    assert_eq!(records.lines().count(), 2, "{records}");
    assert!(records.starts_with("(;GM[Othello]"), "{records}");
    // A book reached through a link: learned into the file it names.
    std::os::unix::fs::symlink("book.bin", dir.join("book-link.bin")).unwrap();
    let book_link = dir.join("book-link.bin");
    let games = dir.join("games.ggf");
    let learned = iago(&[
        "book",
        "learn",
        "--depth",
        "1",
        "--plies",
        "8",
        "--book",
        book_link.to_str().unwrap(),
        games.to_str().unwrap(),
    ]);
    assert!(learned.status.success(), "{}", stderr(&learned));
    assert!(
        std::fs::symlink_metadata(&book_link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(std::fs::metadata(dir.join("book.bin")).unwrap().len() > 1000);
    assert_eq!(
        names(&dir),
        ["book-link.bin", "book.bin", "games.ggf", "link.ggf"]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn out_into_a_pipe_or_a_device_writes_into_it_and_never_replaces_it() {
    use std::os::unix::fs::FileTypeExt;
    let dir = scratch("files", "special");
    let fifo = dir.join("fifo");
    assert!(make("mkfifo", &fifo, &[]));
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let output = short_match(&fifo);
    // Checked before the reader is joined: it waits for ever on a pipe nobody opened.
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        std::fs::metadata(&fifo).unwrap().file_type().is_fifo(),
        "the pipe was replaced"
    );
    assert_eq!(reader.join().unwrap().lines().count(), 2);
    // A device of its own, made like /dev/full where this user may: every write fails.
    let full = dir.join("full");
    if make("mknod", &full, &["c", "1", "7"]) {
        let output = short_match(&full);
        assert_eq!(output.status.code(), Some(2));
        assert!(
            stderr(&output).contains("No space left on device"),
            "{}",
            stderr(&output)
        );
        assert!(
            std::fs::metadata(&full)
                .unwrap()
                .file_type()
                .is_char_device()
        );
        let analyzed = iago(&[
            "analyze",
            "f5d6",
            "--depth",
            "1",
            "--svg",
            full.to_str().unwrap(),
        ]);
        assert!(stderr(&analyzed).contains("No space left on device"));
        assert!(
            std::fs::metadata(&full)
                .unwrap()
                .file_type()
                .is_char_device()
        );
    }
    let mut left = names(&dir);
    left.retain(|name| name != "full");
    assert_eq!(left, ["fifo"], "a temporary file was left");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_full_disk_leaves_the_old_file_whole_and_no_temporary_file() {
    // A file size limit stands for a full disk: writes past it fail (SIGXFSZ ignored,
    // as the limit's signal would otherwise end the process).
    let dir = scratch("files", "full-disk");
    let book = dir.join("book.bin");
    let games = dir.join("games.txt");
    std::fs::write(&games, "f5d6c3\n").unwrap();
    let learn = |limit_kib: u64| {
        Command::new("bash")
            .arg("-c")
            .arg(format!(
                "trap '' XFSZ; ulimit -f {}; exec \"$0\" \"$@\"",
                limit_kib * 2
            ))
            .arg(IAGO)
            .args(["book", "learn", "--depth", "1", "--book"])
            .arg(&book)
            .arg(&games)
            .output()
            .unwrap()
    };
    // A first learn makes the book (the built-in one and the game, some 170 KB).
    let made = learn(1 << 20);
    assert!(made.status.success(), "{}", stderr(&made));
    let before = std::fs::read(&book).unwrap();
    std::fs::write(&games, "d3c3c4\n").unwrap();
    let failed = learn(64);
    assert_eq!(failed.status.code(), Some(2));
    assert!(
        stderr(&failed).contains("File too large"),
        "{}",
        stderr(&failed)
    );
    assert_eq!(std::fs::read(&book).unwrap(), before, "the book changed");
    assert_eq!(names(&dir), ["book.bin", "games.txt"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs `iago ARGS` with at most 2 GiB of address space, stdin from `stdin`: a reader
/// without a bound fails on memory rather than with its bound's error.
fn run_limited(args: &[&str], stdin: Stdio) -> Output {
    Command::new("bash")
        .arg("-c")
        .arg("ulimit -v 2097152 && exec \"$0\" \"$@\"")
        .arg(IAGO)
        .args(args)
        .stdin(stdin)
        .output()
        .unwrap()
}

#[test]
fn every_reader_stops_at_its_bound_and_says_it() {
    let zero = "/dev/zero";
    let null = || Stdio::null();
    let zeros = || Stdio::from(std::fs::File::open("/dev/zero").unwrap());
    let dir = scratch("files", "bounds");
    let lines = |text: &str| {
        let path = dir.join(format!("{}.txt", text.len()));
        std::fs::write(&path, text).unwrap();
        Stdio::from(std::fs::File::open(path).unwrap())
    };
    let book = dir.join("book.bin");
    let book = book.to_str().unwrap();
    let cases: Vec<(Vec<&str>, Stdio, &str)> = vec![
        (
            vec!["--eval", "pattern:/dev/zero"],
            null(),
            "64 MiB, the most a weights file",
        ),
        (
            vec![],
            lines("set_eval pattern:/dev/zero\n"),
            "64 MiB, the most a weights file",
        ),
        (
            vec!["--protocol", "ugi"],
            lines("setoption name Eval value pattern:/dev/zero\n"),
            "64 MiB, the most a weights file",
        ),
        (
            vec!["solve", zero],
            null(),
            "64 MiB, the most a problem file",
        ),
        (
            vec!["accuracy", "--file", zero, "--depths", "1"],
            null(),
            "64 MiB, the most a problem file",
        ),
        (
            vec!["analyze", zero],
            null(),
            "64 MiB, the most a games file",
        ),
        (
            vec!["analyze", "-"],
            zeros(),
            "64 MiB, the most a games file",
        ),
        (
            vec!["analyze", "--wthor", zero],
            null(),
            "64 MiB, the most a games file",
        ),
        (
            vec!["book", "learn", "--book", book, zero],
            null(),
            "64 MiB, the most a games file",
        ),
        (
            vec![
                "match",
                "--openings",
                zero,
                "--engine",
                "a=gtp:x",
                "--engine",
                "b=gtp:y",
            ],
            null(),
            "16 MiB, the most an openings file",
        ),
        (
            vec!["eval-match", "pattern", "simple", "--openings", zero],
            null(),
            "16 MiB, the most an openings file",
        ),
        (
            vec!["train", "--samples", zero, "--out", "/dev/null"],
            null(),
            "512 MiB, the most a label file",
        ),
    ];
    for (args, stdin, bound) in cases {
        let output = run_limited(&args, stdin);
        let said = format!("{}{}", stdout(&output), stderr(&output));
        assert!(
            said.contains(&format!("more than {bound}")),
            "iago {args:?} did not state its bound:\n{said}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn analyze_and_book_learn_read_every_kind_of_game_file() {
    let dir = scratch("files", "games");
    let ggf = dir.join("games.ggf");
    let output = short_match(&ggf);
    assert!(output.status.success(), "{}", stderr(&output));
    let analyze = |file: &Path, extra: &[&str]| {
        let mut args = vec![
            "analyze",
            file.to_str().unwrap(),
            "--depth",
            "1",
            "--solve",
            "2",
        ];
        args.extend_from_slice(extra);
        iago(&args)
    };
    // `iago match --out`'s records, one a line: any game by its number.
    let second = analyze(&ggf, &["--game", "2", "--json"]);
    assert!(second.status.success(), "{}", stderr(&second));
    assert!(
        stdout(&second).contains("\"black\": \"b\""),
        "{}",
        stdout(&second)
    );
    let third = analyze(&ggf, &["--game", "3"]);
    assert_eq!(third.status.code(), Some(2));
    assert!(
        stderr(&third).contains("no game 3: the file holds games 1 to 2"),
        "{}",
        stderr(&third)
    );
    // A transcript file with a byte order mark, and a WTHOR database.
    let transcript = dir.join("game.txt");
    std::fs::write(&transcript, "\u{feff}f5d6c3d3c4\n").unwrap();
    let read = analyze(&transcript, &[]);
    assert!(read.status.success(), "{}", stderr(&read));
    let moves: Vec<iago::othello::Move> =
        iago::othello::game_input::parse_transcript("f5d6c3").unwrap();
    let game = iago::othello::wthor::WthorGame {
        moves,
        black_discs: 0,
        theoretical_black: 0,
        year: 2026,
    };
    let wtb = dir.join("games.wtb");
    std::fs::write(
        &wtb,
        iago::othello::wthor::encode_wthor(&[game.clone(), game], 2026).unwrap(),
    )
    .unwrap();
    let read = analyze(&wtb, &["--game", "2"]);
    assert!(read.status.success(), "{}", stderr(&read));
    let empty = dir.join("empty.wtb");
    std::fs::write(
        &empty,
        iago::othello::wthor::encode_wthor(&[], 2026).unwrap(),
    )
    .unwrap();
    let read = analyze(&empty, &[]);
    assert!(
        stderr(&read).contains("no game 1: the file holds no game"),
        "{}",
        stderr(&read)
    );
    // The same files teach the book: every game, or the one --game names.
    let book = dir.join("book.bin");
    for (file, extra, learned) in [
        (&ggf, vec![], 2),
        (&wtb, vec!["--game", "1"], 1),
        (&transcript, vec![], 1),
    ] {
        let mut args = vec!["book", "learn", "--depth", "1", "--plies", "6"];
        args.extend(extra);
        args.extend(["--book", book.to_str().unwrap(), file.to_str().unwrap()]);
        let output = iago(&args);
        assert!(output.status.success(), "{}", stderr(&output));
        assert_eq!(
            stdout(&output)
                .lines()
                .filter(|l| l.starts_with("learned game"))
                .count(),
            learned,
            "{}",
            stdout(&output)
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn analyze_names_a_device_it_cannot_read_and_subcommands_explain_themselves() {
    let output = iago(&["analyze", "/dev/zero"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("/dev/zero: more than 64 MiB"),
        "{}",
        stderr(&output)
    );
    let dir = scratch("files", "empty-problems");
    let empty = dir.join("empty.obf");
    std::fs::write(&empty, "% no problem here\n").unwrap();
    let output = iago(&["solve", empty.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("holds no problem"),
        "{}",
        stderr(&output)
    );
    std::fs::remove_dir_all(&dir).unwrap();
    for sub in ["build", "learn", "show", "check"] {
        let output = iago(&["book", sub, "--help"]);
        assert!(output.status.success(), "book {sub}: {}", stderr(&output));
        assert!(
            stdout(&output).starts_with(&format!("usage: iago book {sub}")),
            "{}",
            stdout(&output)
        );
    }
    for (args, error) in [
        (
            &["openings", "--plies", "99"][..],
            "--plies 99: plies must be between 1 and 20",
        ),
        (
            &["openings", "--max-eval", "-1"],
            "max-eval must be between 0 and 64 discs",
        ),
        (&["openings", "--count", "0"], "count must be at least 1"),
    ] {
        let output = iago(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(stderr(&output).contains(error), "{}", stderr(&output));
    }
}

#[test]
fn a_damaged_book_is_reported_once_and_learn_gives_the_cause() {
    let dir = scratch("files", "damaged");
    let book = dir.join("damaged.bin");
    std::fs::write(&book, b"not a book at all, and longer than a header").unwrap();
    let mut command = Command::new(IAGO);
    command.args(["--book", book.to_str().unwrap()]);
    let (out, code, log) = {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(b"nboard 2\nlearn\n")
            .unwrap();
        let output = child.wait_with_output().unwrap();
        (stdout(&output), output.status.code(), stderr(&output))
    };
    assert_eq!(code, Some(0));
    assert_eq!(log.matches("playing without a book").count(), 1, "{log}");
    // The cause goes to the GUI's status line (NBoard reads stderr as protocol input).
    let learn = out
        .lines()
        .find(|l| l.starts_with("status learning failed:"))
        .unwrap_or_default();
    assert!(
        learn.contains("no book to learn into: book") && learn.contains("damaged"),
        "{out}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
