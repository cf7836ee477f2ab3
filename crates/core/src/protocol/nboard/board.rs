//! The order a running hint's lines go to the NBoard GUI in, so that no square it has
//! shown a value on goes blank.
//!
//! The GUI keeps one value per square, with the depth text it came with (`24`, `85%`).
//! A search line of another depth than the last one's first takes off every square
//! whose depth is not the last one's, then shows the new line (the rest it greys as
//! older). So its board holds two depths at most. The lines of a hint do not always
//! come level by level: a thread with nothing left of a level tells a line of the next
//! one while this level's last move is still searched, and that line would take off the
//! square of the move still searched, whose value is two depths behind. Here a line
//! that would take a square off for good waits until it no longer does (the move still
//! searched told its new value) or the iteration ends; a square it takes off that a
//! line of the new depth puts back is told again at once.

/// A hint line as the GUI gets it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Told {
    /// The square (the move's text), the depth text, its rank (deeper or surer
    /// searches rank higher), the whole line.
    mv: String,
    depth: String,
    rank: u32,
    text: String,
}

/// The lines of one running hint: those told, those waiting, and what the GUI shows.
#[derive(Debug, Default)]
pub struct HintBoard {
    /// The newest line told of each move.
    told: Vec<Told>,
    /// Lines that would take a square off for good now, oldest first (one a move).
    waiting: Vec<Told>,
    /// The GUI's squares: each move with the depth it shows, and the depth's rank.
    shown: Vec<(String, String, u32)>,
    /// The depth of the last line the GUI got.
    last_depth: Option<String>,
    /// The book lines printed.
    books: Vec<String>,
}

impl HintBoard {
    /// A new hint: nothing told, nothing shown (the GUI keeps the last hint's squares
    /// only until a line of this one comes).
    pub fn clear(&mut self) {
        *self = HintBoard::default();
    }

    /// A search line of move `mv` at `depth` (of `rank`): the lines to print now, in
    /// order (none where this line was told already, for an iteration's line repeats
    /// the one found inside it).
    pub fn tell(&mut self, mv: &str, depth: &str, rank: u32, text: String) -> Vec<String> {
        if self
            .told
            .iter()
            .chain(&self.waiting)
            .any(|t| t.text == text)
        {
            return Vec::new();
        }
        self.waiting.retain(|t| t.mv != mv);
        self.waiting.push(Told {
            mv: mv.to_string(),
            depth: depth.to_string(),
            rank,
            text,
        });
        self.flush(false)
    }

    /// An iteration of `rank` ended: its lines are all told, and a square of a lower
    /// rank (its move fell out of the lines asked for) is no longer waited for; the GUI
    /// takes it off at its next depth, as it does between any two levels.
    pub fn iteration_done(&mut self, rank: u32) -> Vec<String> {
        let last = self.last_depth.clone();
        self.shown
            .retain(|(_, shown, of)| Some(shown) == last.as_ref() || *of >= rank);
        self.flush(false)
    }

    /// The hint's end: every line still waiting, those that take off no square first.
    pub fn finish(&mut self) -> Vec<String> {
        let mut lines = self.flush(false);
        lines.extend(self.flush(true));
        lines
    }

    /// A book line: printed once (the GUI never takes a book value off).
    pub fn tell_book(&mut self, text: String) -> Option<String> {
        (!self.books.contains(&text)).then(|| {
            self.books.push(text.clone());
            text
        })
    }

    /// Prints the waiting lines that may go now (all of them if `all`), each followed by
    /// the lines that put back what it took off.
    fn flush(&mut self, all: bool) -> Vec<String> {
        let mut lines = Vec::new();
        while let Some(index) = self
            .waiting
            .iter()
            .position(|t| all || !self.takes_off_for_good(&t.depth))
        {
            let line = self.waiting.remove(index);
            self.show(line, &mut lines);
        }
        lines
    }

    /// Whether a line of `depth` now would take off a square that no line of `depth`
    /// puts back.
    fn takes_off_for_good(&self, depth: &str) -> bool {
        let Some(last) = &self.last_depth else {
            return false;
        };
        last != depth
            && self
                .shown
                .iter()
                .any(|(mv, shown, _)| shown != last && self.newest_depth(mv) != Some(depth))
    }

    /// The depth of the newest line of `mv`, waiting or told.
    fn newest_depth(&self, mv: &str) -> Option<&str> {
        self.waiting
            .iter()
            .chain(&self.told)
            .find(|t| t.mv == mv)
            .map(|t| t.depth.as_str())
    }

    /// Prints `line` and follows it on the GUI's board; then puts back the squares it
    /// took off whose newest line told is of its depth.
    fn show(&mut self, line: Told, lines: &mut Vec<String>) {
        self.gui_takes(&line);
        lines.push(line.text.clone());
        self.told.retain(|t| t.mv != line.mv);
        self.told.push(line);
        let depth = self.last_depth.clone();
        let put_back: Vec<Told> = self
            .told
            .iter()
            .filter(|t| Some(&t.depth) == depth.as_ref())
            .filter(|t| !self.shown.iter().any(|(mv, _, _)| *mv == t.mv))
            .filter(|t| !self.waiting.iter().any(|w| w.mv == t.mv))
            .cloned()
            .collect();
        for line in put_back {
            self.gui_takes(&line);
            lines.push(line.text);
        }
    }

    /// What the GUI does with a search line.
    fn gui_takes(&mut self, line: &Told) {
        if self.last_depth.as_ref() != Some(&line.depth) {
            let last = self.last_depth.take();
            self.shown
                .retain(|(_, shown, _)| Some(shown) == last.as_ref());
            self.last_depth = Some(line.depth.clone());
        }
        self.shown.retain(|(shown, _, _)| *shown != line.mv);
        self.shown
            .push((line.mv.clone(), line.depth.clone(), line.rank));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The GUI's rule, written again for the check: squares with their depths, and the
    /// last depth.
    #[derive(Default)]
    struct Gui {
        squares: Vec<(String, String)>,
        last: Option<String>,
    }

    impl Gui {
        fn take(&mut self, line: &str) {
            let words: Vec<&str> = line.split_whitespace().collect();
            let (mv, depth) = (words[1][..2].to_string(), words[4].to_string());
            if self.last.as_ref() != Some(&depth) {
                let last = self.last.replace(depth.clone());
                self.squares.retain(|(_, d)| Some(d) == last.as_ref());
            }
            self.squares.retain(|(m, _)| *m != mv);
            self.squares.push((mv, depth));
        }

        fn has(&self, mv: &str) -> bool {
            self.squares.iter().any(|(m, _)| m == mv)
        }
    }

    fn line(mv: &str, depth: u32) -> (String, String, String) {
        let depth = format!("{depth}%");
        let text = format!("search {mv}-A1 +1.00 0 {depth}");
        (mv.to_string(), depth, text)
    }

    /// Plays `lines` through a board and the GUI: the printed lines, and whether every
    /// square the GUI showed stayed shown until the hint's end.
    /// An iteration ends once every move of `moves` has a line of its level (the
    /// search tells it then).
    fn replay_ending(lines: &[(&str, u32)], moves: usize) -> (Vec<String>, bool) {
        let (mut board, mut gui) = (HintBoard::default(), Gui::default());
        let (mut printed, mut kept) = (Vec::new(), true);
        let mut seen: Vec<String> = Vec::new();
        let mut levels: Vec<(&str, u32)> = Vec::new();
        let mut done = 0;
        for &(mv, rank) in lines {
            let (square, depth, text) = line(mv, rank);
            let mut out = board.tell(&square, &depth, rank, text);
            levels.retain(|&(m, _)| m != mv);
            levels.push((mv, rank));
            let all = levels.iter().map(|&(_, r)| r).min().unwrap_or(0);
            if levels.len() == moves && all > done {
                done = all;
                out.extend(board.iteration_done(done));
            }
            // A square taken off and told again at once blinks; between two lines
            // of the search, every square shows.
            for text in out {
                gui.take(&text);
                seen.push(text[7..9].to_string());
                printed.push(text);
            }
            kept &= seen.iter().all(|m| gui.has(m));
        }
        for out in board.finish() {
            gui.take(&out);
            printed.push(out);
        }
        (printed, kept)
    }

    fn replay(lines: &[(&str, u32)]) -> (Vec<String>, bool) {
        replay_ending(lines, usize::MAX)
    }

    #[test]
    fn lines_level_by_level_go_out_as_they_come() {
        let lines = [("B1", 80), ("F2", 80), ("B1", 81), ("F2", 81), ("B1", 82)];
        let (printed, kept) = replay(&lines);
        let expected: Vec<String> = lines.iter().map(|&(m, d)| line(m, d).2).collect();
        assert_eq!(printed, expected);
        assert!(kept);
    }

    #[test]
    fn a_line_ahead_waits_for_the_move_still_searched() {
        // F7 is still at 83% when B1 comes at 85%: told at once, B1 would take F7 off.
        let lines = [
            ("B1", 83),
            ("F7", 83),
            ("B1", 84),
            ("F2", 84),
            ("B1", 85),
            ("F7", 84),
            ("F2", 85),
        ];
        let (printed, kept) = replay(&lines);
        assert!(kept, "{printed:?}");
        let b1_85 = printed.iter().position(|l| *l == line("B1", 85).2).unwrap();
        let f7_84 = printed.iter().position(|l| *l == line("F7", 84).2).unwrap();
        assert!(f7_84 < b1_85, "{printed:?}");
        // Every line is printed, each once, and the GUI ends with the newest of each.
        for (mv, depth) in [("B1", 85), ("F7", 84), ("F2", 85)] {
            assert_eq!(
                printed.iter().filter(|l| **l == line(mv, depth).2).count(),
                1
            );
        }
    }

    #[test]
    fn a_square_taken_off_is_told_again_at_the_new_depth() {
        // F7's first line (71%) comes after G3's 72%: the GUI takes off B1's 71%, which
        // is told again right after F7's.
        let lines = [("G3", 71), ("B1", 71), ("G3", 72), ("F7", 71)];
        let (printed, kept) = replay(&lines);
        assert!(kept, "{printed:?}");
        let expected: Vec<String> = [("G3", 71), ("B1", 71), ("G3", 72), ("F7", 71), ("B1", 71)]
            .iter()
            .map(|&(m, d)| line(m, d).2)
            .collect();
        assert_eq!(printed, expected);
    }

    #[test]
    fn a_move_that_fell_out_of_the_lines_holds_nothing_past_its_iteration() {
        let mut board = HintBoard::default();
        let tell = |board: &mut HintBoard, mv: &str, rank: u32| {
            let (mv, depth, text) = line(mv, rank);
            board.tell(&mv, &depth, rank, text)
        };
        tell(&mut board, "G3", 79);
        tell(&mut board, "B1", 80);
        tell(&mut board, "F2", 80);
        // Told now, B1's 81% would take G3's 79% off: it waits for G3's 80%.
        assert!(tell(&mut board, "B1", 81).is_empty());
        // The iteration of 80% ends without G3 (no longer among the best lines).
        assert_eq!(board.iteration_done(80), vec![line("B1", 81).2]);
        assert_eq!(tell(&mut board, "F2", 81), vec![line("F2", 81).2]);
    }

    #[test]
    fn the_end_of_an_iteration_still_waits_for_its_own_level() {
        // F2's 80% came before the iteration of 79% ended; B1 is still at 79%, and its
        // 80% is yet to come: F2's 81% must wait for it.
        let mut board = HintBoard::default();
        for (mv, rank) in [("B1", 79), ("F2", 79), ("F2", 80)] {
            let (mv, depth, text) = line(mv, rank);
            board.tell(&mv, &depth, rank, text);
        }
        assert!(board.iteration_done(79).is_empty());
        let (mv, depth, text) = line("F2", 81);
        assert!(board.tell(&mv, &depth, 81, text).is_empty());
        let (mv, depth, text) = line("B1", 80);
        assert_eq!(
            board.tell(&mv, &depth, 80, text),
            vec![line("B1", 80).2, line("F2", 81).2]
        );
    }

    #[test]
    fn a_line_told_again_by_its_iteration_is_not_printed_twice() {
        let (printed, _) = replay(&[("B1", 80), ("B1", 80), ("F2", 80)]);
        assert_eq!(printed, vec![line("B1", 80).2, line("F2", 80).2]);
    }

    #[test]
    fn no_square_goes_blank_in_any_order_of_levels() {
        // Every sequence of four moves' lines where each move's levels rise and the
        // moves run at most two levels apart (a level's lines, and the next's ahead).
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        let moves = ["B1", "F2", "F7", "G3"];
        for _ in 0..2000 {
            let mut levels = [70u32; 4];
            let mut lines = Vec::new();
            for _ in 0..24 {
                let low = *levels.iter().min().unwrap();
                let which = next(4) as usize;
                if levels[which] < low + 2 {
                    levels[which] += 1;
                    lines.push((moves[which], levels[which]));
                }
            }
            let (printed, kept) = replay_ending(&lines, 4);
            assert!(kept, "{lines:?} -> {printed:?}");
            // A line waiting when its move's next one came is left out; each move's
            // newest line is printed, and the GUI ends with it.
            for mv in moves {
                if let Some(&(_, depth)) = lines.iter().rev().find(|(m, _)| *m == mv) {
                    let text = line(mv, depth).2;
                    assert!(printed.contains(&text), "{text} missing from {printed:?}");
                }
            }
        }
    }
}
