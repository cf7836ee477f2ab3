//! The tools as an attacker and a careless user try them: links planted beside every
//! output, outputs that name an input, runs resumed on their own file, requests for
//! games that would all be the same, limits out of reach, useless fits; and what a
//! newcomer meets first. docs/hostile-inputs.md has each attack and what happens.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::common::{ArrayBoard, iago, random_match_args, rng, scratch, stderr, stdout, stdout_of};
use crate::protocol_io::{IAGO, run_all, with_memory_limit};
use iago::corpus::records;
use iago::othello::Position;
use iago::othello::wthor::{WthorGame, encode_wthor};
use rand::RngExt;

const VICTIM: &[u8] = b"precious\n";

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Runs `iago ARGS` in `dir` with symbolic links to `dir/victim.txt` planted first at
/// every name a writer of `outputs` (relative to `dir`) ever used beside them: `.partial`
/// (match), `.tmp-PID` (every other writer: the shell becomes iago, so `$$` is its
/// PID), `.tmp` and `.lock` (the lock of a file that is not a book; a book refuses a
/// link there, see the next test).
fn run_with_planted_links(dir: &Path, outputs: &[&str], args: &[&str]) -> Output {
    let links: Vec<String> = outputs
        .iter()
        .flat_map(|out| {
            let lock = if args[0] == "book" { ".tmp" } else { ".lock" };
            [".partial", ".tmp-$$", ".tmp", lock]
                .map(|suffix| format!("ln -sf victim.txt \"{out}{suffix}\""))
        })
        .collect();
    Command::new("sh")
        .arg("-c")
        .arg(format!("{} && exec \"$0\" \"$@\"", links.join(" && ")))
        .arg(IAGO)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("sh runs")
}

/// A folder with a victim file and a WTHOR database of `games` random games.
fn attacked_folder(test: &str, games: usize) -> PathBuf {
    let dir = scratch("attacked", test);
    std::fs::write(dir.join("victim.txt"), VICTIM).unwrap();
    let wthor = dir.join("wthor");
    std::fs::create_dir(&wthor).unwrap();
    std::fs::write(
        wthor.join("WTH_2001.wtb"),
        encode_wthor(&random_wthor_games(games), 2001).unwrap(),
    )
    .unwrap();
    dir
}

/// Games of random legal moves to the end (a fixed generator).
fn random_wthor_games(count: usize) -> Vec<WthorGame> {
    let mut rng = rng(74);
    (0..count)
        .map(|_| {
            let mut pos = Position::start();
            let mut moves = Vec::new();
            while !iago::game::Game::is_game_over(&pos) {
                let legal = iago::game::Game::legal_moves(&pos);
                let legal = legal.as_ref();
                let mv = legal[rng.random_range(0..legal.len())];
                pos = iago::game::Game::play(&pos, mv);
                moves.push(mv);
            }
            WthorGame {
                moves,
                black_discs: 32,
                theoretical_black: 32,
                year: 2001,
            }
        })
        .collect()
}

/// The victim is untouched, each output a regular file of its own, the links still links.
fn assert_nothing_followed(dir: &Path, outputs: &[&str], what: &str) {
    assert_eq!(
        std::fs::read(dir.join("victim.txt")).unwrap(),
        VICTIM,
        "{what}"
    );
    for out in outputs {
        let meta = std::fs::symlink_metadata(dir.join(out)).unwrap();
        assert!(meta.is_file(), "{what}: {out} is not a regular file");
        let link = std::fs::symlink_metadata(dir.join(format!("{out}.partial"))).unwrap();
        assert!(link.file_type().is_symlink(), "{what}: a planted link went");
    }
}

/// `iago selfplay` of a few quick games into `out`, with more options.
fn quick_selfplay(out: &str, more: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = [
        "selfplay",
        "--games",
        "4",
        "--depth",
        "1",
        "--exact",
        "6",
        "--threads",
        "2",
        "--out",
        out,
    ]
    .map(String::from)
    .to_vec();
    args.extend(more.iter().map(|s| s.to_string()));
    args
}

/// Item 1: every writer, with links planted at every name it may use beside its output.
#[test]
fn no_writer_writes_through_a_link_planted_beside_its_output() {
    let dir = attacked_folder("planted", 30);
    stdout_of(&iago(&[
        "selfplay",
        "--games",
        "6",
        "--depth",
        "1",
        "--exact",
        "6",
        "--out",
        s(&dir.join("games.gam")),
    ]));
    let runs: Vec<(&str, Vec<String>)> = vec![
        ("out.ggf", random_match_args("out.ggf")),
        ("s.gam", quick_selfplay("s.gam", &[])),
        (
            "p.gam",
            ["pack-games", "games.gam", "--out", "p.gam"]
                .map(String::from)
                .to_vec(),
        ),
        (
            "w.bin",
            [
                "train",
                "--games",
                "games.gam",
                "--epochs",
                "1",
                "--stages",
                "1",
                "--out",
                "w.bin",
            ]
            .map(String::from)
            .to_vec(),
        ),
        (
            "c.svg",
            [
                "analyze", "f5d6c3", "--depth", "1", "--verify", "0", "--svg", "c.svg",
            ]
            .map(String::from)
            .to_vec(),
        ),
        (
            "l.bin",
            [
                "label",
                "--wthor",
                "wthor",
                "--games",
                "2",
                "--per-game",
                "1",
                "--depth",
                "1",
                "--exact-empties",
                "4",
                "--out",
                "l.bin",
            ]
            .map(String::from)
            .to_vec(),
        ),
        (
            "pc.rs",
            [
                "fit-probcut",
                "--wthor",
                "wthor",
                "--games",
                "30",
                "--deep",
                "8",
                "--out",
                "pc.rs",
            ]
            .map(String::from)
            .to_vec(),
        ),
        (
            "b.bin",
            [
                "book",
                "build",
                "--wthor",
                "wthor",
                "--plies",
                "2",
                "--min-games",
                "1",
                "--depth",
                "1",
                "--out",
                "b.bin",
            ]
            .map(String::from)
            .to_vec(),
        ),
    ];
    for (out, args) in &runs {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let output = run_with_planted_links(&dir, &[out], &args);
        assert!(output.status.success(), "{args:?}: {}", stderr(&output));
        assert_nothing_followed(&dir, &[out], &args.join(" "));
    }
    // The book learns into a book of its own beside the links, not through them.
    let book = "learned.bin";
    std::fs::copy(dir.join("b.bin"), dir.join(book)).unwrap();
    let ggf = "out.ggf";
    let learn = [
        "book", "learn", "--depth", "1", "--plies", "4", "--book", book, ggf,
    ];
    let planted = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ln -s victim.txt {book}.tmp-$$ && ln -s victim.txt {book}.partial && exec \"$0\" \"$@\""
        ))
        .arg(IAGO)
        .args(learn)
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(planted.status.success(), "{}", stderr(&planted));
    assert_nothing_followed(&dir, &[book], "book learn");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Item 1: the book's lock file is never opened through a link: book learn refuses it.
#[test]
fn a_link_planted_at_the_books_lock_is_refused() {
    let dir = attacked_folder("lock", 4);
    let games = dir.join("games.txt");
    std::fs::write(&games, "f5d6c3d3c4\n").unwrap();
    let book = dir.join("book.bin");
    std::os::unix::fs::symlink("victim.txt", dir.join("book.bin.lock")).unwrap();
    std::os::unix::fs::symlink("made-by-the-lock", dir.join("dangling.bin.lock")).unwrap();
    for (book, name) in [
        (&book, "book.bin.lock"),
        (&dir.join("dangling.bin"), "dangling.bin.lock"),
    ] {
        let output = iago(&[
            "book",
            "learn",
            "--depth",
            "1",
            "--book",
            s(book),
            s(&games),
        ]);
        assert_eq!(output.status.code(), Some(2), "{}", stdout(&output));
        assert!(
            stderr(&output).contains("not a lock file"),
            "{}",
            stderr(&output)
        );
        assert!(
            std::fs::symlink_metadata(dir.join(name))
                .unwrap()
                .file_type()
                .is_symlink()
        );
    }
    assert!(
        !dir.join("made-by-the-lock").exists(),
        "the dangling link made a file"
    );
    assert_eq!(std::fs::read(dir.join("victim.txt")).unwrap(), VICTIM);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Item 2: an output that names an input, as the same name, `./name`, a hard link or a
/// symbolic link, is refused by every tool with inputs and an output.
#[test]
fn an_output_naming_an_input_is_refused_by_every_tool() {
    let dir = attacked_folder("input", 4);
    let d = |name: &str| s(&dir.join(name)).to_string();
    stdout_of(&iago(
        &quick_selfplay(&d("corpus.gam"), &[])
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    ));
    std::fs::hard_link(dir.join("corpus.gam"), dir.join("hard.gam")).unwrap();
    std::os::unix::fs::symlink("corpus.gam", dir.join("soft.gam")).unwrap();
    std::fs::write(dir.join("op.txt"), "f5d6\nf5f6\n").unwrap();
    std::fs::write(dir.join("g.ggf"), "f5d6c3\n").unwrap();
    std::fs::write(dir.join("g2.ggf"), "f5d6c3\n").unwrap();
    let wtb = d("wthor/WTH_2001.wtb");
    let runs: Vec<Vec<String>> = vec![
        vec![
            "train".into(),
            "--games".into(),
            d("corpus.gam"),
            "--out".into(),
            d("corpus.gam"),
        ],
        vec![
            "train".into(),
            "--games".into(),
            d("corpus.gam"),
            "--out".into(),
            format!("{}/./corpus.gam", s(&dir)),
        ],
        vec![
            "train".into(),
            "--games".into(),
            d("corpus.gam"),
            "--out".into(),
            d("hard.gam"),
        ],
        vec![
            "train".into(),
            "--games".into(),
            d("corpus.gam"),
            "--out".into(),
            d("soft.gam"),
        ],
        vec![
            "pack-games".into(),
            d("corpus.gam"),
            "--out".into(),
            d("hard.gam"),
        ],
        vec![
            "analyze".into(),
            d("g.ggf"),
            "--depth".into(),
            "1".into(),
            "--svg".into(),
            d("g.ggf"),
        ],
        random_match_args(&d("op.txt"))
            .into_iter()
            .chain(["--openings".into(), d("op.txt")])
            .collect(),
        quick_selfplay(
            &d("op.txt"),
            &["--openings", &d("op.txt"), "--random-plies", "1"],
        ),
        vec![
            "label".into(),
            "--wthor".into(),
            d("wthor"),
            "--out".into(),
            wtb.clone(),
        ],
        vec![
            "fit-probcut".into(),
            "--wthor".into(),
            d("wthor"),
            "--out".into(),
            wtb.clone(),
        ],
        vec![
            "book".into(),
            "build".into(),
            "--wthor".into(),
            d("wthor"),
            "--out".into(),
            wtb.clone(),
        ],
        vec![
            "book".into(),
            "learn".into(),
            "--book".into(),
            d("g2.ggf"),
            d("g2.ggf"),
        ],
    ];
    let before: Vec<Vec<u8>> = [
        "corpus.gam",
        "op.txt",
        "g.ggf",
        "g2.ggf",
        "wthor/WTH_2001.wtb",
    ]
    .iter()
    .map(|name| std::fs::read(dir.join(name)).unwrap())
    .collect();
    for args in &runs {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let output = iago(&args);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            stdout(&output)
        );
        assert!(
            stderr(&output).contains("is an input too"),
            "{args:?}: {}",
            stderr(&output)
        );
    }
    let after: Vec<Vec<u8>> = [
        "corpus.gam",
        "op.txt",
        "g.ggf",
        "g2.ggf",
        "wthor/WTH_2001.wtb",
    ]
    .iter()
    .map(|name| std::fs::read(dir.join(name)).unwrap())
    .collect();
    assert!(before == after, "an input changed");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Item 3: a run resumed on its own file keeps every game it had: never replaced,
/// `--append` adds the rest, the same games as one run of them all.
#[test]
fn resuming_selfplay_keeps_the_games_played() {
    let dir = scratch("attacked", "resume");
    let (first, whole) = (dir.join("first.gam"), dir.join("whole.gam"));
    let run = |out: &Path, games: &str, more: &[&str]| {
        let mut args = vec![
            "selfplay",
            "--games",
            games,
            "--depth",
            "2",
            "--exact",
            "8",
            "--seed",
            "4",
            "--out",
            s(out),
        ];
        args.extend(more);
        iago(&args)
    };
    stdout_of(&run(&first, "3", &[]));
    let kept = std::fs::read(&first).unwrap();
    let replaced = run(&first, "3", &["--first", "3"]);
    assert_eq!(replaced.status.code(), Some(2));
    assert!(
        stderr(&replaced).contains("holds 3 games already"),
        "{}",
        stderr(&replaced)
    );
    assert_eq!(
        std::fs::read(&first).unwrap(),
        kept,
        "the games were replaced"
    );
    let appended = stdout_of(&run(&first, "3", &["--first", "3", "--append"]));
    assert!(appended.contains("(6 games, 6 distinct)"), "{appended}");
    stdout_of(&run(&whole, "6", &[]));
    assert_eq!(
        records::read(&first).unwrap(),
        records::read(&whole).unwrap()
    );
    // Appended at the wrong number: the repeats are counted.
    let again = stdout_of(&run(&first, "2", &["--append"]));
    assert!(again.contains("(8 games, 6 distinct)"), "{again}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Item 4: `--exact E` solves from E empties whatever the depth (at depth 2 the solve
/// started at 12).
#[test]
fn selfplay_solves_from_the_empties_asked() {
    let dir = scratch("attacked", "exact");
    let out = dir.join("e.gam");
    let summary = stdout_of(&iago(&[
        "selfplay",
        "--games",
        "3",
        "--depth",
        "2",
        "--exact",
        "15",
        "--out",
        s(&out),
    ]));
    assert!(summary.contains("3 games"), "{summary}");
    for game in records::read(&out).unwrap() {
        assert_eq!(
            Some(exact_from_empties(&game)),
            first_empties_at_most(&game, 15)
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The empties of a game's first exactly solved position.
fn exact_from_empties(game: &records::GameRecord) -> u32 {
    let positions = game.replay().unwrap();
    positions[usize::from(game.exact_from.expect("solved"))]
        .position
        .empty_count()
}

/// The empties of the first searched position with at most `empties` (passes skip
/// some), if the game gets there.
fn first_empties_at_most(game: &records::GameRecord, empties: u32) -> Option<u32> {
    game.replay()
        .unwrap()
        .iter()
        .skip(usize::from(game.opening))
        .map(|p| p.position.empty_count())
        .find(|&e| e <= empties)
}

/// Item 4: the shipped test set is solved from the 20 empties its name says.
#[test]
fn the_shipped_test_set_is_solved_from_20_empties() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/test/d6e20-s99.gam");
    let games = records::read(&path).unwrap();
    assert_eq!(games.len(), 1000);
    let mut from_20 = 0;
    for game in &games {
        // Solved from 20 empties, or earlier where a wipe-out sent the search to its
        // solve at once (or where the game ended before 20 empties).
        if let Some(empties) = first_empties_at_most(game, 20) {
            assert!(exact_from_empties(game) >= empties, "{game:?}");
            from_20 += usize::from(exact_from_empties(game) == empties);
        }
    }
    assert!(
        from_20 > 950,
        "{from_20} games solved from their first position at 20"
    );
}

/// Item 5: games that would repeat one another are refused; with random moves after
/// the openings, game i and game i + n differ; the tools count the distinct games.
#[test]
fn selfplay_plays_no_game_twice_and_the_tools_count_the_distinct_ones() {
    let dir = scratch("attacked", "distinct");
    let openings = dir.join("op.txt");
    std::fs::write(&openings, "f5d6\nf5f6\n").unwrap();
    let out = dir.join("d.gam");
    for more in [
        vec!["--random-plies", "0"],
        vec!["--openings", s(&openings)],
    ] {
        let mut args = quick_selfplay(s(&out), &more);
        args[2] = "3".into();
        let output = iago(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(output.status.code(), Some(2), "{more:?}");
        assert!(stderr(&output).contains("same game") || stderr(&output).contains("would repeat"));
        assert!(!out.exists());
    }
    let args = quick_selfplay(
        s(&out),
        &[
            "--openings",
            s(&openings),
            "--random-plies",
            "3",
            "--seed",
            "9",
        ],
    );
    stdout_of(&iago(&args.iter().map(String::as_str).collect::<Vec<_>>()));
    let games = records::read(&out).unwrap();
    assert_ne!(games[0].moves, games[2].moves, "game i + n repeats game i");
    assert_eq!(games[0].moves[..2], games[2].moves[..2], "the same opening");
    let packed = dir.join("twice.gam");
    let summary = stdout_of(&iago(&[
        "pack-games",
        s(&out),
        s(&out),
        "--out",
        s(&packed),
    ]));
    assert!(summary.contains("8 games (4 distinct)"), "{summary}");
    let fit = stdout_of(&iago(&[
        "train",
        "--games",
        s(&packed),
        "--epochs",
        "1",
        "--stages",
        "1",
        "--out",
        s(&dir.join("w.bin")),
    ]));
    assert!(
        fit.contains("self-play data: 8 games (4 distinct)"),
        "{fit}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Item 6: GTP's solve stops at the limit set and says where; without a limit, from
/// where a solve takes hours, quit stops it; within reach it is exact.
#[test]
fn gtp_solve_honours_the_limits_and_quit_ends_an_endless_one() {
    let input = b"play b f5\nsolve\nquit\n";
    for (limit, reply) in [
        (["--depth", "5"], "depth 5"),
        (["--level", "3"], "depth 3"),
        (["--nodes", "2000"], "depth "),
        (["--movetime", "100"], "depth "),
    ] {
        let mut args = vec!["--book", "none"];
        args.extend(limit);
        let (out, code) = run_all(&args, input);
        assert_eq!(code, Some(0));
        let answer = out
            .lines()
            .find(|l| l.starts_with("= ") && l.len() > 2)
            .unwrap();
        assert!(answer.contains(reply), "{limit:?}: {out}");
        assert!(!answer.contains("exact"), "{limit:?}: {out}");
    }
    // No limit from 59 empties: quit (and the end of input) stop it.
    for input in [&b"play b f5\nsolve\nquit\n"[..], b"play b f5\nsolve\n"] {
        let (out, code) = run_all(&["--book", "none"], input);
        assert_eq!(code, Some(0));
        assert!(out.contains(" depth "), "{out}");
    }
    // 8 empties, no limit: solved, exact, as it always was.
    let (out, _) = run_all(
        &["--book", "none"],
        b"set_position OXXXXX--OOXOOOO-OXOXOO-OXOOOOOOX--OXOOX-XXXOXXOXXXXXXXOOX-XXXOOO X\nsolve\nquit\n",
    );
    assert!(out.contains("= a5 -14.00 exact"), "{out}");
}

/// Item 7: NBoard is Othello's protocol: another game is refused before any reply.
#[test]
fn nboard_with_another_game_is_refused() {
    for game in ["mill", "tictactoe"] {
        let mut command = Command::new(IAGO);
        command.args(["--game", game]);
        let output = pipe(command, b"nboard 2\nset depth 2\ngo\n");
        assert_eq!(output.status.code(), Some(2), "{game}");
        assert_eq!(stdout(&output), "", "{game}");
        assert!(
            stderr(&output).contains("NBoard speaks Othello only"),
            "{}",
            stderr(&output)
        );
    }
}

fn pipe(mut command: Command, input: &[u8]) -> Output {
    use std::io::Write;
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(input);
    child.wait_with_output().unwrap()
}

/// Item 8 and item 10's first: no panic and no lost game for any --games or --threads.
#[test]
fn selfplay_games_and_threads_are_bounded_and_threads_that_fail_lose_nothing() {
    let dir = scratch("attacked", "threads");
    let out = dir.join("t.gam");
    for (games, threads) in [
        ("0", "1"),
        ("18446744073709551615", "1"),
        ("100000000000", "1"),
        ("4", "2000"),
    ] {
        let output = iago(&[
            "selfplay",
            "--games",
            games,
            "--threads",
            threads,
            "--out",
            s(&out),
        ]);
        assert_eq!(output.status.code(), Some(2), "{games} {threads}");
        assert!(
            stderr(&output).contains("must be between"),
            "{}",
            stderr(&output)
        );
        assert!(!stderr(&output).contains("panicked"));
    }
    // 400 threads in 2 GB: most cannot allocate their tables; the others play them all.
    let output = with_memory_limit(
        2_000_000,
        &[
            "selfplay",
            "--games",
            "500",
            "--threads",
            "400",
            "--depth",
            "1",
            "--exact",
            "4",
            "--out",
            s(&out),
        ],
    )
    .output()
    .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(records::read(&out).unwrap().len(), 500);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Item 9: a fit of nothing, of absurd rates, or one that diverges writes nothing; train
/// without --out writes nowhere.
#[test]
fn train_refuses_useless_fits_and_writes_nothing() {
    let dir = scratch("attacked", "train");
    let empty = dir.join("empty.gam");
    std::fs::write(&empty, records::encode(&[])).unwrap();
    let games = dir.join("games.gam");
    let args = quick_selfplay(s(&games), &[]);
    stdout_of(&iago(&args.iter().map(String::as_str).collect::<Vec<_>>()));
    let out = dir.join("w.bin");
    for (file, more, message) in [
        (&empty, vec![], "no training positions"),
        (&games, vec!["--l2", "inf"], "--l2 between 0 and 1"),
        (&games, vec!["--l2", "1e30"], "--l2 between 0 and 1"),
        (&games, vec!["--rate", "1e30"], "--rate must be"),
        (&games, vec!["--rate", "NaN"], "--rate must be"),
        (&games, vec!["--rate", "1", "--l2", "1"], "the fit diverged"),
    ] {
        let mut args = vec![
            "train",
            "--games",
            s(file),
            "--epochs",
            "1",
            "--out",
            s(&out),
        ];
        args.extend(more);
        let output = iago(&args);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            stdout(&output)
        );
        assert!(
            stderr(&output).contains(message),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(!out.exists(), "{args:?} wrote weights");
    }
    let output = Command::new(IAGO)
        .args(["train", "--games", s(&games), "--epochs", "1"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("--out FILE is required"));
    assert!(
        !dir.join("crates").exists(),
        "wrote the shipped weights' path"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A transcript with a pass of the standard game that it leaves out, found by random
/// play (a fixed generator): the moves up to just after the pass.
fn transcript_with_a_pass_left_out() -> String {
    let mut rng = rng(7);
    loop {
        let mut board = ArrayBoard::from_position(&Position::start());
        let mut moves = Vec::new();
        while !board.is_game_over() {
            let legal = board.legal_moves();
            if legal.is_empty() {
                board = board.swapped();
                let next = board.legal_moves()[0];
                moves.push(next);
                if moves.len() < 50 {
                    return moves
                        .iter()
                        .map(|&i| format!("{}{}", (b'a' + (i % 8) as u8) as char, i / 8 + 1))
                        .collect();
                }
                board = board.play(next);
                continue;
            }
            let square = legal[rng.random_range(0..legal.len())];
            moves.push(square);
            board = board.play(square);
        }
    }
}

/// Item 10: the smaller ones.
#[test]
fn the_smaller_attacks_get_clear_answers() {
    let dir = scratch("attacked", "smaller");
    // An openings file of a transcript with its pass left out, as analyze reads it.
    let openings = dir.join("op.txt");
    std::fs::write(
        &openings,
        format!("{}\n", transcript_with_a_pass_left_out()),
    )
    .unwrap();
    let out = dir.join("o.gam");
    let args = quick_selfplay(
        s(&out),
        &["--openings", s(&openings), "--random-plies", "2"],
    );
    stdout_of(&iago(&args.iter().map(String::as_str).collect::<Vec<_>>()));
    // Record files joined with cat: named as such, with the command that joins them.
    let joined = dir.join("joined.gam");
    let mut bytes = std::fs::read(&out).unwrap();
    bytes.extend(std::fs::read(&out).unwrap());
    std::fs::write(&joined, bytes).unwrap();
    let output = iago(&["pack-games", s(&joined), "--out", s(&dir.join("j.gam"))]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("joined with `cat`"),
        "{}",
        stderr(&output)
    );
    assert!(
        stderr(&output).contains("iago pack-games A B"),
        "{}",
        stderr(&output)
    );
    // iago's own records analysed.
    let analyzed = stdout_of(&iago(&[
        "analyze",
        s(&out),
        "--game",
        "2",
        "--depth",
        "1",
        "--verify",
        "0",
    ]));
    assert!(analyzed.contains("result:"), "{analyzed}");
    // An unknown option of mill-eval-match.
    let output = iago(&["mill-eval-match", "phased", "--bogus", "--games", "2"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("--bogus"), "{}", stderr(&output));
    // --depth 0 and --nodes 0 are no limit, as the help says (hostile-inputs.md said
    // they were refused), and --game names every game.
    let (out, code) = run_all(&["--depth", "0", "--nodes", "0"], b"quit\n");
    assert_eq!((out.as_str(), code), ("= \n\n", Some(0)));
    let help = stdout_of(&iago(&["--help"]));
    assert!(help.contains("othello, mill, tictactoe"), "{help}");
    // iago help match is match's help; analyze's help says what --verify does to --depth.
    assert!(stdout_of(&iago(&["help", "match"])).starts_with("usage: iago match"));
    let help = stdout_of(&iago(&["analyze", "--help"]));
    // The help is wrapped to its width: its words, one space apart.
    let words = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains("again to --verify (18) whatever --depth is"),
        "{help}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A newcomer at a terminal gets a line on stderr of what to type; a pipe gets nothing.
#[test]
fn the_engine_at_a_terminal_says_what_to_type_and_a_pipe_sees_nothing_new() {
    let (out, _) = run_all(&[], b"quit\n");
    assert_eq!(out, "= \n\n");
    let piped = pipe(Command::new(IAGO), b"quit\n");
    assert_eq!(stderr(&piped), "");
    // `script` gives the engine a terminal, where the system has it.
    let at_terminal = pipe(
        {
            let mut command = Command::new("script");
            command.args(["-qc", IAGO, "/dev/null"]);
            command
        },
        b"quit\n",
    );
    if !at_terminal.status.success() {
        eprintln!("skipped: no `script` to give the engine a terminal");
        return;
    }
    let seen = stdout(&at_terminal);
    assert!(
        seen.contains("type GTP commands (`help` lists them, `quit` ends)"),
        "{seen}"
    );
}

/// Item 10: a match's opening is not counted as its players' mistakes.
#[test]
fn analyze_leaves_a_matchs_opening_out_of_the_players_summaries() {
    let dir = scratch("attacked", "opening");
    let out = dir.join("m.ggf");
    let args = random_match_args(s(&out));
    let output = iago(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(output.status.success(), "{}", stderr(&output));
    let analyzed = stdout_of(&iago(&[
        "analyze",
        s(&out),
        "--depth",
        "1",
        "--verify",
        "0",
    ]));
    assert!(
        analyzed.contains("moves 1-8: the match's opening"),
        "{analyzed}"
    );
    let moves: usize = analyzed
        .lines()
        .filter(|l| (l.starts_with("Black:") || l.starts_with("White:")) && l.contains(" moves, "))
        .map(|l| {
            l.split_whitespace()
                .nth(1)
                .unwrap()
                .parse::<usize>()
                .unwrap()
        })
        .sum();
    let rows = analyzed
        .lines()
        .filter(|l| {
            l.split_whitespace()
                .next()
                .is_some_and(|w| w.parse::<usize>().is_ok())
        })
        .count();
    assert_eq!(moves + 8, rows, "{analyzed}");
    std::fs::remove_dir_all(&dir).unwrap();
}
