//! `iago analyze GAME [OPTIONS]`: every move of a game next to the engine's best move,
//! with both scores and the discs each move lost; a summary per player; as a table, as
//! JSON, and as an SVG score curve.

use std::fmt::Write as _;
use std::path::Path;
use std::sync::atomic::AtomicBool;

use clap::Parser;

use super::args::{self, EngineOptions, Flags, is_option, ranged};
use super::out::{Failure, out};
use iago_core::engine::review::{Review, review_game};
use iago_core::files;
use iago_core::game::{Color, Score};
use iago_core::options::Range;
use iago_core::othello::eval::othello_evaluator;
use iago_core::othello::game_input::{GameFile, GameInput};
use iago_core::othello::notation::format_position;
use iago_core::othello::wthor::read_wthor_players;
use iago_core::othello::{DISC, Move};
use iago_core::search::Searcher;

/// Searches every position of a game and prints, for each move: its number (a pass
/// counts as a move, as NBoard numbers them; a pass has no row), the player, the move
/// played and its score, the best move and its score (scores in discs, from the mover's
/// view), the discs the move lost (best minus played before they are rounded, 0 for the
/// best move) and whether the scores are exact (`exact`) or searched to a depth (`d14`).
/// Both scores come from searches of the same position to the same depth, each with
/// fresh tables (the played move's limited to that move); the depth is --depth, or one
/// less where that would end the searches at an odd number of empty squares, so that
/// every search ends with the same side to move (the evaluation swings by about 3 discs
/// between the two). Where the played move's search scores it above the best move's (two
/// selective searches may disagree by a disc), the played move is the row's best. A move
/// that search finds short of the best, or best by less than 2 discs, is searched again
/// the same way to the --verify depth, and its row has those scores: which moves lose
/// discs, and how many, is then decided by searches of one depth whatever --depth is
/// (searches of neighbouring depths disagree by a disc or two on such moves). Then a
/// summary per player: moves, mistakes (moves that lost discs), discs lost, and the move
/// from which the player's scores are exact; and the result when the game is over. The
/// opening of a match's record (`iago match --out`: its first moves have no time, the
/// players' have) is analysed but not counted as the players' moves.
///
/// GAME is a file or the text itself (`-` reads stdin): a GGF record, a transcript from
/// the standard start (`f5d6c3d3`, any case, passes may be left out), or a position (64
/// squares and the side to move, `X O -`, or the GGS board string `[8 <64> <side>]`)
/// followed by the moves from there. A file may hold many games: GGF records (as `iago
/// match --out` writes them), one game a line, a WTHOR database (`.wtb`), or iago's game
/// records (`iago selfplay --out`); --game N picks one. A file is read up to 64 MiB.
#[derive(Parser, Debug)]
#[command(
    name = "iago analyze",
    override_usage = "iago analyze GAME [OPTIONS]\n       iago analyze --wthor FILE.wtb --game N [OPTIONS]",
    after_help = JSON_HELP
)]
struct AnalyzeArgs {
    /// The game: a file, the text itself, or `-` for stdin
    #[arg(value_name = "GAME")]
    game: Option<String>,
    /// The game of a file that holds several (from 1; default 1)
    #[arg(long = "game", value_name = "N", value_parser = ranged(&GAME))]
    game_number: Option<usize>,
    /// A WTHOR database, whatever its name; the players' names come from the WTHOR.JOU
    /// beside a WTHOR file
    #[arg(long, value_name = "FILE")]
    wthor: Option<String>,
    /// Midgame search depth; the moves in doubt are searched again to --verify (18) whatever --depth is, so a small --depth mostly saves time on the moves not in doubt (--verify 0: none)
    #[arg(long, value_name = "N", default_value = "14", value_parser = ranged(&iago_core::options::DEPTH))]
    depth: u32,
    /// Depth of the second search of moves in doubt (0: none; no second search where it
    /// would be no deeper than --depth)
    #[arg(long, value_name = "N", default_value = "18", value_parser = ranged(&VERIFY))]
    verify: u32,
    /// Solve exactly from N empty squares on
    #[arg(long, value_name = "N", default_value = "22", value_parser = ranged(&SOLVE))]
    solve: u32,
    #[command(flatten)]
    engine: EngineOptions<AnalyzeFlags>,
    /// Print JSON instead of the table (schema below)
    #[arg(long)]
    json: bool,
    /// Also draw the score curve (Black's view) with the mistakes marked
    #[arg(long, value_name = "FILE")]
    svg: Option<String>,
}

#[derive(Clone, Debug, Default)]
struct AnalyzeFlags;

impl Flags for AnalyzeFlags {
    const FLAGS: &'static [&'static str] = &["--eval", "--hash", "--threads"];
}

const JSON_HELP: &str = "JSON: one object
  {\"start\": POSITION, \"black\": NAME|null, \"white\": NAME|null, \"depth\": N,
   \"verify\": N, \"solve\": N, \"moves\": [MOVE...],
   \"players\": {\"black\": PLAYER, \"white\": PLAYER}, \"result\": DISCS|null}
  MOVE   = {\"number\": N, \"color\": \"black\"|\"white\", \"empties\": N,
            \"depth\": N, \"played\": \"f5\", \"played_score\": DISCS, \"best\": \"f5\",
            \"best_score\": DISCS, \"lost\": DISCS, \"exact\": true|false}
  PLAYER = {\"moves\": N, \"mistakes\": N, \"lost\": DISCS, \"exact_from\": N|null}
POSITION is 64 characters and the side (`X`/`O`); scores are whole discs from the
mover's view; a move's depth is that of the searches its scores come from; passes have
no entry; result is the final disc difference for Black. With more than one thread the
midgame scores may vary from run to run.";

/// The game of a WTHOR file, from 1.
const GAME: Range<usize> = Range {
    name: "game",
    default: Some(1),
    min: 1,
    max: usize::MAX,
    unit: "",
};

/// The depth of the second search of the moves in doubt.
const VERIFY: Range<u32> = Range {
    name: "verify",
    default: Some(18),
    min: 0,
    max: 64,
    unit: "",
};

/// The empty squares from which the analysis solves exactly.
const SOLVE: Range<u32> = Range {
    name: "solve",
    default: Some(22),
    min: 0,
    max: 60,
    unit: " empty squares",
};

struct Options {
    game: Option<String>,
    wthor: Option<String>,
    game_number: Option<usize>,
    depth: u32,
    verify: u32,
    solve: u32,
    eval: String,
    hash_mb: usize,
    threads: usize,
    json: bool,
    svg: Option<String>,
}

fn parse_args(args: &[String]) -> Result<Option<Options>, Failure> {
    let is_argument = |word: &str| !is_option(word);
    let Some(given) = args::parse_mixed::<AnalyzeArgs>("analyze", args, is_argument)? else {
        return Ok(None);
    };
    let settings = given.engine.settings;
    let options = Options {
        game: given.game,
        wthor: given.wthor,
        game_number: given.game_number,
        depth: given.depth,
        verify: given.verify,
        solve: given.solve,
        eval: settings.eval.unwrap_or_else(|| "default".into()),
        hash_mb: settings
            .hash_mb
            .unwrap_or(iago_core::search::DEFAULT_HASH_MB),
        threads: settings.threads.unwrap_or(1),
        json: given.json,
        svg: given.svg,
    };
    if options.game.is_some() && options.wthor.is_some() {
        return Err("analyze: a GAME and --wthor: give one of them".into());
    }
    if options.game.is_none() && options.wthor.is_none() {
        return Err("analyze: missing GAME (try `iago analyze --help`)".into());
    }
    Ok(Some(options))
}

/// Whether a word that is no game was meant as a file name.
fn looks_like_a_path(text: &str) -> bool {
    !text.contains(char::is_whitespace)
        && (text.contains('/')
            || text.contains('\\')
            || Path::new(text)
                .extension()
                .is_some_and(|ext| ext.to_str().is_some_and(|e| e.len() <= 4)))
}

/// The games the options name: a file, stdin, or the text itself; with the name errors
/// about them give (none for the text itself).
fn read_games(options: &Options) -> Result<(GameFile, Option<String>), String> {
    if let Some(path) = &options.wthor {
        let games = GameFile::read(Path::new(path), true).map_err(|e| e.to_string())?;
        return Ok((games, Some(path.clone())));
    }
    let game = options.game.as_deref().unwrap_or_default();
    if game == "-" {
        let bytes = files::read_bounded(std::io::stdin().lock(), files::GAMES)
            .map_err(|e| format!("stdin: {e}"))?;
        let games = GameFile::from_bytes(bytes, false).map_err(|e| format!("stdin: {e}"))?;
        return Ok((games, Some("stdin".into())));
    }
    let path = Path::new(game);
    if std::fs::metadata(path).is_ok() {
        // Any file: a device or a pipe too (its bound stops an endless one).
        let bytes = files::read(path, files::GAMES).map_err(|e| e.to_string())?;
        let games = match record_games(&bytes) {
            Some(games) => games.map_err(|e| format!("{game}: {e}"))?,
            None => {
                let wthor = path
                    .extension()
                    .is_some_and(|ext| ext.eq_ignore_ascii_case("wtb"));
                GameFile::from_bytes(bytes, wthor).map_err(|e| format!("{game}: {e}"))?
            }
        };
        return Ok((games, Some(game.to_string())));
    }
    match GameFile::from_text(game).and_then(|games| games.game(1).map(|_| games)) {
        Ok(games) => Ok((games, None)),
        Err(_) if looks_like_a_path(game) => Err(format!("{game}: no such file")),
        Err(e) => Err(e.to_string()),
    }
}

/// The games of iago's own record files (`iago selfplay`, `pack-games`), as transcripts
/// (numbered by record); `None` for bytes of any other kind.
fn record_games(bytes: &[u8]) -> Option<Result<GameFile, String>> {
    if !iago_training::corpus::records::is_record_file(bytes) {
        return None;
    }
    Some(iago_training::corpus::records::decode(bytes).map(|games| {
        let transcript = |game: &iago_training::corpus::records::GameRecord| -> String {
            game.moves
                .iter()
                .map(|&square| Move::from_index(square).to_string())
                .collect()
        };
        GameFile::Text(
            games
                .iter()
                .enumerate()
                .map(|(i, game)| (i + 1, transcript(game)))
                .collect(),
        )
    }))
}

/// The game the options name: game `--game N` (default 1) of what they name.
fn read_game(options: &Options) -> Result<GameInput, String> {
    let (games, name) = read_games(options)?;
    let number = options.game_number.unwrap_or(1);
    if options.game_number.is_none() && games.len() > 1 {
        log::warn!(
            "{} holds {} games: analyzing game 1 (--game N for another)",
            name.as_deref().unwrap_or("the text"),
            games.len()
        );
    }
    let mut input = games.game(number).map_err(|e| match &name {
        Some(name) => format!("{name}: {e}"),
        None => e.to_string(),
    })?;
    // A WTHOR database's players are named in the players file beside it.
    if let (GameFile::Wthor(_), Some(path)) = (&games, &name)
        && let Some((black, white)) = read_wthor_players(path, number)
    {
        (input.black, input.white) = (Some(black), Some(white));
    }
    Ok(input)
}

/// One analysed move.
#[derive(Clone, Debug)]
struct Row {
    number: usize,
    color: Color,
    /// The depth of the move's midgame searches.
    depth: u32,
    empties: u32,
    played: Move,
    played_score: i32,
    best: Move,
    best_score: i32,
    /// The discs lost, rounded once from the scores as searched (the scores shown are
    /// rounded each, so that their difference may be a disc off).
    lost: i32,
    exact: bool,
}

impl Row {
    /// A score of this row from Black's view.
    fn for_black(&self, score: i32) -> i32 {
        match self.color {
            Color::Black => score,
            Color::White => -score,
        }
    }
}

/// A score in whole discs, rounded half away from zero.
fn discs(score: Score) -> i32 {
    let half = DISC / 2;
    if score >= 0 {
        (score + half) / DISC
    } else {
        (score - half) / DISC
    }
}

fn analyze(options: &Options, game: &GameInput) -> Result<Vec<Row>, String> {
    let mut searcher = Searcher::new(othello_evaluator(&options.eval)?);
    searcher.set_hash_mb(options.hash_mb);
    searcher.set_threads(options.threads);
    searcher
        .allocate_tables()
        .map_err(|e| format!("analyze: --hash {}: {e}", options.hash_mb))?;
    let stop = AtomicBool::new(false);
    let review = Review {
        depth: options.depth,
        verify: options.verify,
        solve: options.solve,
    };
    let positions = game.positions();
    let mut rows = Vec::new();
    review_game(
        &mut searcher,
        &game.start,
        &game.moves,
        &review,
        &stop,
        |row| {
            log::info!("analyze: move {} ({})", row.number, row.played);
            let (pos, _) = positions[row.number - 1];
            rows.push(Row {
                number: row.number,
                color: row.color,
                depth: row.depth,
                empties: pos.empty_count(),
                played: row.played,
                played_score: discs(row.played_score),
                best: row.best,
                best_score: discs(row.best_score),
                lost: discs(row.lost()),
                exact: row.exact,
            });
        },
    );
    Ok(rows)
}

/// A player's summary.
struct Summary {
    moves: usize,
    mistakes: usize,
    lost: i32,
    exact_from: Option<usize>,
}

/// The summary of `color`'s moves after the game's `opening` (moves an opening played
/// for the players are not theirs).
fn summary(rows: &[Row], color: Color, opening: usize) -> Summary {
    let own: Vec<&Row> = rows
        .iter()
        .filter(|row| row.color == color && row.number > opening)
        .collect();
    Summary {
        moves: own.len(),
        mistakes: own.iter().filter(|row| row.lost > 0).count(),
        lost: own.iter().map(|row| row.lost).sum(),
        exact_from: own.iter().find(|row| row.exact).map(|row| row.number),
    }
}

/// The final disc difference for Black, when the game is over.
fn result(game: &GameInput) -> Option<i32> {
    let end = game.final_position();
    (end.has_no_move() && end.pass().has_no_move()).then(|| {
        let diff = end.final_disc_difference();
        match end.side {
            Color::Black => diff,
            Color::White => -diff,
        }
    })
}

fn name(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// `1 move`, `2 moves`.
fn count(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

fn table(game: &GameInput, rows: &[Row]) -> String {
    let mut text = String::new();
    let who = |name: &Option<String>| name.clone().unwrap_or_else(|| "?".into());
    let _ = writeln!(
        text,
        "Black: {}   White: {}   start: {}",
        who(&game.black),
        who(&game.white),
        format_position(&game.start)
    );
    let _ = writeln!(
        text,
        "{:>3} {:<5} {:>3} {:>6} {:>5} {:>6} {:>5} {:>4}  search",
        "#", "color", "emp", "played", "score", "best", "score", "lost"
    );
    for row in rows {
        let lost = row.lost;
        let _ = writeln!(
            text,
            "{:>3} {:<5} {:>3} {:>6} {:>+5} {:>6} {:>+5} {:>4}  {}{}",
            row.number,
            name(row.color),
            row.empties,
            row.played.to_string(),
            row.played_score,
            row.best.to_string(),
            row.best_score,
            lost,
            if row.exact {
                "exact".to_string()
            } else {
                format!("d{}", row.depth)
            },
            if lost > 0 { "  <" } else { "" }
        );
    }
    if game.opening > 0 {
        let _ = writeln!(
            text,
            "moves 1-{}: the match's opening (recorded without a time), not counted below",
            game.opening
        );
    }
    for color in [Color::Black, Color::White] {
        let s = summary(rows, color, game.opening);
        let _ = writeln!(
            text,
            "{}: {}, {}, {}; {}",
            if color == Color::Black {
                "Black"
            } else {
                "White"
            },
            count(s.moves, "move"),
            count(s.mistakes, "mistake"),
            count(s.lost.unsigned_abs() as usize, "disc") + " lost",
            s.exact_from
                .map_or("no exact scores".to_string(), |n| format!(
                    "exact from move {n}"
                ))
        );
    }
    let end = game.final_position();
    let _ = match result(game) {
        Some(diff) => writeln!(
            text,
            "result: {} - {} ({:+} for Black)",
            end.black().count_ones(),
            end.white().count_ones(),
            diff
        ),
        None => writeln!(
            text,
            "result: not over, {} empty squares left",
            end.empty_count()
        ),
    };
    text
}

/// `text` as a JSON string.
fn json_string(text: &str) -> String {
    let mut out = String::from('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn json(options: &Options, game: &GameInput, rows: &[Row]) -> String {
    let name_or_null = |name: &Option<String>| name.as_deref().map_or("null".into(), json_string);
    let moves: Vec<String> = rows
        .iter()
        .map(|row| {
            format!(
                "{{\"number\": {}, \"color\": \"{}\", \"empties\": {}, \"depth\": {}, \"played\": \"{}\", \"played_score\": {}, \"best\": \"{}\", \"best_score\": {}, \"lost\": {}, \"exact\": {}}}",
                row.number,
                name(row.color),
                row.empties,
                row.depth,
                row.played,
                row.played_score,
                row.best,
                row.best_score,
                row.lost,
                row.exact
            )
        })
        .collect();
    let player = |color| {
        let s = summary(rows, color, game.opening);
        format!(
            "{{\"moves\": {}, \"mistakes\": {}, \"lost\": {}, \"exact_from\": {}}}",
            s.moves,
            s.mistakes,
            s.lost,
            s.exact_from.map_or("null".into(), |n| n.to_string())
        )
    };
    format!(
        "{{\"start\": \"{}\", \"black\": {}, \"white\": {}, \"depth\": {}, \"verify\": {}, \"solve\": {},\n \"moves\": [\n  {}\n ],\n \"players\": {{\"black\": {}, \"white\": {}}},\n \"result\": {}}}\n",
        format_position(&game.start),
        name_or_null(&game.black),
        name_or_null(&game.white),
        options.depth,
        options.verify,
        options.solve,
        moves.join(",\n  "),
        player(Color::Black),
        player(Color::White),
        result(game).map_or("null".into(), |d| d.to_string())
    )
}

/// Font size of the mistakes' labels, and the space a label takes: about 0.6 of the font
/// size a character, the font size high.
const LABEL_FONT: f64 = 11.0;
const LABEL_CHAR_WIDTH: f64 = 0.6 * LABEL_FONT;

/// What the mistakes' labels must not cover, as boxes (left, top, right, bottom): every
/// mistake's dot, and the labels placed so far; and the frame they stay inside.
struct Labels {
    boxes: Vec<(f64, f64, f64, f64)>,
    frame: (f64, f64, f64, f64),
}

impl Labels {
    /// Room for labels inside `frame`, none of them over a dot of `dots` (x, y, radius).
    fn new(frame: (f64, f64, f64, f64), dots: &[(f64, f64, f64)]) -> Labels {
        Labels {
            boxes: dots
                .iter()
                .map(|&(x, y, r)| (x - r, y - r, x + r, y + r))
                .collect(),
            frame,
        }
    }

    /// Where `text` goes next to a dot of `radius` at (`x`, `y`): its centre and
    /// baseline. Below the dot when `below`, else above, further out (then on the other
    /// side) where that space is taken, always inside the frame (a label near its left
    /// or right side is moved in).
    fn place(&mut self, x: f64, y: f64, radius: f64, text: &str, below: bool) -> (f64, f64) {
        let half = text.chars().count() as f64 * LABEL_CHAR_WIDTH / 2.0;
        let (left, top, right, bottom) = self.frame;
        let x = x.clamp(left + half + 2.0, right - half - 2.0);
        let frame = |baseline: f64| (x - half, baseline - LABEL_FONT, x + half, baseline + 2.0);
        let free = |b: (f64, f64, f64, f64), boxes: &[(f64, f64, f64, f64)]| {
            b.1 >= top
                && b.3 <= bottom
                && boxes
                    .iter()
                    .all(|o| b.2 <= o.0 || o.2 <= b.0 || b.3 <= o.1 || o.3 <= b.1)
        };
        let below_at = |step: f64| y + radius + LABEL_FONT + 2.0 + step * (LABEL_FONT + 2.0);
        let above_at = |step: f64| y - radius - 5.0 - step * (LABEL_FONT + 2.0);
        let tries = (0..24).flat_map(|step| {
            let step = f64::from(step);
            if below {
                [below_at(step), above_at(step)]
            } else {
                [above_at(step), below_at(step)]
            }
        });
        let inside = |baseline: f64| baseline.clamp(top + LABEL_FONT, bottom - 2.0);
        let mut chosen = inside(if below { below_at(0.0) } else { above_at(0.0) });
        for baseline in tries {
            if free(frame(baseline), &self.boxes) {
                chosen = baseline;
                break;
            }
        }
        self.boxes.push(frame(chosen));
        (x, chosen)
    }
}

/// The picture's size and margins, in pixels.
const WIDTH: f64 = 900.0;
const HEIGHT: f64 = 420.0;
const LEFT: f64 = 60.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 50.0;
const BOTTOM: f64 = 50.0;
const PLOT_W: f64 = WIDTH - LEFT - RIGHT;
const PLOT_H: f64 = HEIGHT - TOP - BOTTOM;

/// Where the score curve's moves and scores go on the picture.
struct Plot {
    /// The last move's number: the right end of the horizontal axis.
    moves: usize,
    /// The vertical axis runs from `-range` to `+range` discs, with a grid line every
    /// `step`.
    range: i32,
    step: i32,
}

impl Plot {
    /// Room for `points` (move number, score for Black): the vertical range is a
    /// multiple of 8 discs, at least 16, with room for the labels, and of the grid's
    /// step, so that the grid has a line at 0.
    fn new(rows: &[Row], points: &[(usize, i32)]) -> Plot {
        let peak = points.iter().map(|&(_, s)| s.abs()).max().unwrap_or(0);
        let range = ((peak + 4 + 7) / 8 * 8).clamp(16, 64);
        let step = if range > 32 { 16 } else { 8 };
        Plot {
            moves: rows.last().map_or(1, |row| row.number),
            range: (range + step - 1) / step * step,
            step,
        }
    }

    fn x(&self, i: usize) -> f64 {
        LEFT + PLOT_W * i as f64 / self.moves as f64
    }

    fn y(&self, s: i32) -> f64 {
        TOP + PLOT_H * (1.0 - (s + self.range) as f64 / (2 * self.range) as f64)
    }
}

/// The score curve as an SVG picture: for Black, the value of the position after each
/// move (before the first, the start), mistakes as red dots sized by the discs lost,
/// the exactly solved part shaded.
fn svg(game: &GameInput, rows: &[Row]) -> String {
    let mut points: Vec<(usize, i32)> = Vec::with_capacity(rows.len() + 1);
    if let Some(first) = rows.first() {
        points.push((0, first.for_black(first.best_score)));
    }
    for row in rows {
        points.push((row.number, row.for_black(row.played_score)));
    }
    let plot = Plot::new(rows, &points);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" font-family=\"sans-serif\" font-size=\"12\">"
    );
    let _ = writeln!(
        out,
        "<rect width=\"{WIDTH}\" height=\"{HEIGHT}\" fill=\"white\"/>"
    );
    let _ = writeln!(
        out,
        "<text x=\"{LEFT}\" y=\"22\" font-size=\"16\" font-weight=\"bold\">{}</text>",
        svg_title(game)
    );
    svg_exact_part(&mut out, &plot, rows, &points);
    svg_axes(&mut out, &plot);
    // The curve.
    let path: Vec<String> = points
        .iter()
        .map(|&(i, s)| format!("{:.1},{:.1}", plot.x(i), plot.y(s)))
        .collect();
    let _ = writeln!(
        out,
        "<polyline points=\"{}\" fill=\"none\" stroke=\"#222\" stroke-width=\"2\"/>",
        path.join(" ")
    );
    svg_mistakes(&mut out, &plot, rows);
    // The legend, top right.
    let legend_x = LEFT + PLOT_W - 330.0;
    let _ = writeln!(
        out,
        "<circle cx=\"{legend_x:.1}\" cy=\"18\" r=\"5\" fill=\"#d62728\"/><text x=\"{:.1}\" y=\"22\">Black's mistake</text>",
        legend_x + 9.0
    );
    let _ = writeln!(
        out,
        "<circle cx=\"{:.1}\" cy=\"18\" r=\"5\" fill=\"#ff7f0e\"/><text x=\"{:.1}\" y=\"22\">White's mistake (size: discs lost)</text>",
        legend_x + 110.0,
        legend_x + 119.0
    );
    out.push_str("</svg>\n");
    out
}

/// The picture's title: the players if the game names them, escaped for XML.
fn svg_title(game: &GameInput) -> String {
    let who = |name: &Option<String>| {
        name.as_deref()
            .unwrap_or("?")
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    };
    match (&game.black, &game.white) {
        (None, None) => "Score for Black".to_string(),
        _ => format!(
            "{} (Black) vs {} (White): score for Black",
            who(&game.black),
            who(&game.white)
        ),
    }
}

/// The exactly solved part, shaded and labelled, if any.
fn svg_exact_part(out: &mut String, plot: &Plot, rows: &[Row], points: &[(usize, i32)]) {
    let Some(first) = rows.iter().find(|row| row.exact) else {
        return;
    };
    let from = plot.x(first.number - 1);
    // The label in the half the curve leaves free there.
    let exact_scores = points.iter().filter(|&&(i, _)| i + 1 >= first.number);
    let above: i32 = exact_scores.map(|&(_, s)| s.signum()).sum();
    let label_y = if above >= 0 {
        TOP + PLOT_H - 8.0
    } else {
        TOP + 16.0
    };
    let _ = writeln!(
        out,
        "<rect x=\"{from:.1}\" y=\"{TOP}\" width=\"{:.1}\" height=\"{PLOT_H}\" fill=\"#dcebfa\"/>",
        LEFT + PLOT_W - from
    );
    let _ = writeln!(
        out,
        "<text x=\"{:.1}\" y=\"{label_y:.1}\" fill=\"#3a6ea5\">exact from move {}</text>",
        from + 4.0,
        first.number
    );
}

/// The grid, the axes, their ticks and their names.
fn svg_axes(out: &mut String, plot: &Plot) {
    let mut s = -plot.range;
    while s <= plot.range {
        let color = if s == 0 { "#555" } else { "#ddd" };
        let _ = writeln!(
            out,
            "<line x1=\"{LEFT}\" y1=\"{0:.1}\" x2=\"{1:.1}\" y2=\"{0:.1}\" stroke=\"{color}\"/>",
            plot.y(s),
            LEFT + PLOT_W
        );
        let _ = writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{s:+}</text>",
            LEFT - 6.0,
            plot.y(s) + 4.0
        );
        s += plot.step;
    }
    let mut i = 0;
    while i <= plot.moves {
        let _ = writeln!(
            out,
            "<line x1=\"{0:.1}\" y1=\"{1:.1}\" x2=\"{0:.1}\" y2=\"{2:.1}\" stroke=\"#555\"/>",
            plot.x(i),
            TOP + PLOT_H,
            TOP + PLOT_H + 5.0
        );
        let _ = writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{i}</text>",
            plot.x(i),
            TOP + PLOT_H + 18.0
        );
        i += 10;
    }
    let _ = writeln!(
        out,
        "<rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{PLOT_W}\" height=\"{PLOT_H}\" fill=\"none\" stroke=\"#555\"/>"
    );
    let _ = writeln!(
        out,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">move</text>",
        LEFT + PLOT_W / 2.0,
        HEIGHT - 10.0
    );
    let _ = writeln!(
        out,
        "<text x=\"14\" y=\"{:.1}\" text-anchor=\"middle\" transform=\"rotate(-90 14 {:.1})\">discs for Black (above 0: Black ahead)</text>",
        TOP + PLOT_H / 2.0,
        TOP + PLOT_H / 2.0
    );
}

/// The mistakes: a dot for each, a label for those of two discs or more (over no dot,
/// inside the frame).
fn svg_mistakes(out: &mut String, plot: &Plot, rows: &[Row]) {
    let mistakes: Vec<&Row> = rows.iter().filter(|row| row.lost > 0).collect();
    let dot = |row: &Row| {
        (
            plot.x(row.number),
            plot.y(row.for_black(row.played_score)),
            3.0 + 2.0 * f64::from(row.lost).sqrt(),
        )
    };
    let dots: Vec<(f64, f64, f64)> = mistakes.iter().map(|row| dot(row)).collect();
    let mut labels = Labels::new((LEFT, TOP, LEFT + PLOT_W, TOP + PLOT_H), &dots);
    for (row, &(cx, cy, radius)) in mistakes.iter().zip(&dots) {
        let lost = row.lost;
        let fill = if row.color == Color::Black {
            "#d62728"
        } else {
            "#ff7f0e"
        };
        let _ = writeln!(
            out,
            "<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{radius:.1}\" fill=\"{fill}\" fill-opacity=\"0.8\" stroke=\"#222\" stroke-width=\"0.5\"><title>{}. {} {} (best {}): -{lost}</title></circle>",
            row.number,
            name(row.color),
            row.played,
            row.best
        );
        if lost >= 2 {
            let text = format!("{}.{} -{lost}", row.number, row.played);
            // Below the curve when it fell there (a Black mistake), above it otherwise.
            let (x, baseline) = labels.place(cx, cy, radius, &text, row.color == Color::Black);
            let _ = writeln!(
                out,
                "<text x=\"{x:.1}\" y=\"{baseline:.1}\" text-anchor=\"middle\" font-size=\"{LABEL_FONT}\">{text}</text>"
            );
        }
    }
}

pub fn run(args: &[String]) -> Result<(), Failure> {
    let Some(options) = parse_args(args)? else {
        return Ok(());
    };
    if let Some(svg) = &options.svg {
        let inputs = [options.game.clone(), options.wthor.clone()]
            .into_iter()
            .flatten()
            .map(std::path::PathBuf::from)
            .chain(super::args::evaluator_file(&options.eval));
        let inputs: Vec<_> = inputs.collect();
        iago_core::files::refuse_input_as_output(
            "analyze",
            Path::new(svg),
            inputs.iter().map(|path| path.as_path()),
        )?;
    }
    let game = read_game(&options).map_err(|e| format!("analyze: {e}"))?;
    if game.moves.iter().all(|mv| mv.is_pass()) {
        return Err("analyze: the game has no moves to analyze".into());
    }
    let rows = analyze(&options, &game)?;
    if let Some(path) = &options.svg {
        iago_core::files::write(Path::new(path), svg(&game, &rows).as_bytes())
            .map_err(|e| format!("analyze: --svg {e}"))?;
    }
    if options.json {
        out!("{}", json(&options, &game, &rows))
    } else {
        out!("{}", table(&game, &rows))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn discs_round_half_away_from_zero() {
        assert_eq!(discs(149), 1);
        assert_eq!(discs(150), 2);
        assert_eq!(discs(-150), -2);
        assert_eq!(discs(-49), 0);
    }

    #[test]
    fn json_strings_are_escaped() {
        assert_eq!(json_string("a\"b\\c\n"), "\"a\\\"b\\\\c\\u000a\"");
    }
}
