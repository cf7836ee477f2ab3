//! The house rules of docs/design.md, held by a scan of the sources: no function of the
//! non-test code over 120 lines, the text protocols grammar and formatting only (each
//! under 500 lines), the generic search and the protocols knowing no Othello, and no
//! tool telling games apart by their type at run time.

use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The longest function the non-test code may have, in lines.
const MAX_FUNCTION_LINES: usize = 120;
/// The longest a text protocol's session may be, in lines (tests included).
const MAX_PROTOCOL_LINES: usize = 500;

/// Every `.rs` file under `dir`.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The non-test code's files: the crates' and the command's sources, without the test
/// modules kept in files of their own (`tests.rs`, `*_tests.rs`).
fn product_sources() -> Vec<PathBuf> {
    let root = Path::new(ROOT);
    let mut files = sources(&root.join("src"));
    if let Ok(crates) = std::fs::read_dir(root.join("crates")) {
        for krate in crates.flatten() {
            files.extend(sources(&krate.path().join("src")));
        }
    }
    files.retain(|path| {
        let name = path.file_name().unwrap().to_string_lossy();
        name != "tests.rs" && !name.ends_with("_tests.rs")
    });
    files
}

/// `text` with its comments, string and character literals blanked (their lines kept),
/// so that braces inside them are not counted.
fn code_only(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    let blank = |out: &mut Vec<u8>, b: u8| out.push(if b == b'\n' { b'\n' } else { b' ' });
    while i < bytes.len() {
        let rest = &bytes[i..];
        if rest.starts_with(b"//") {
            while i < bytes.len() && bytes[i] != b'\n' {
                out.push(b' ');
                i += 1;
            }
        } else if rest.starts_with(b"/*") {
            let mut depth = 0;
            while i < bytes.len() {
                if bytes[i..].starts_with(b"/*") {
                    depth += 1;
                    out.extend_from_slice(b"  ");
                    i += 2;
                } else if bytes[i..].starts_with(b"*/") {
                    depth -= 1;
                    out.extend_from_slice(b"  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    blank(&mut out, bytes[i]);
                    i += 1;
                }
            }
        } else if let Some(hashes) = raw_string_start(rest) {
            let close: Vec<u8> = std::iter::once(b'"')
                .chain(std::iter::repeat_n(b'#', hashes))
                .collect();
            let open = 2 + hashes + usize::from(rest[0] == b'b');
            out.extend(std::iter::repeat_n(b' ', open));
            i += open;
            while i < bytes.len() && !bytes[i..].starts_with(&close) {
                blank(&mut out, bytes[i]);
                i += 1;
            }
            out.extend(std::iter::repeat_n(b' ', close.len()));
            i += close.len();
        } else if bytes[i] == b'"' {
            out.push(b' ');
            i += 1;
            while i < bytes.len() && bytes[i] != b'"' {
                if bytes[i] == b'\\' {
                    out.push(b' ');
                    i += 1;
                }
                if i < bytes.len() {
                    blank(&mut out, bytes[i]);
                    i += 1;
                }
            }
            out.push(b' ');
            i += 1;
        } else if bytes[i] == b'\'' && is_char_literal(rest) {
            let end = rest[1..]
                .iter()
                .position(|&b| b == b'\'')
                .map_or(1, |p| p + 2);
            let end = if rest[1] == b'\\' {
                rest[2..]
                    .iter()
                    .position(|&b| b == b'\'')
                    .map_or(2, |p| p + 3)
            } else {
                end
            };
            out.extend(std::iter::repeat_n(b' ', end));
            i += end;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The number of `#`s of a raw string (`r"`, `r#"`, `br"`) starting `rest`.
fn raw_string_start(rest: &[u8]) -> Option<usize> {
    let rest = rest.strip_prefix(b"b").unwrap_or(rest);
    let rest = rest.strip_prefix(b"r")?;
    let hashes = rest.iter().take_while(|&&b| b == b'#').count();
    (rest.get(hashes) == Some(&b'"')).then_some(hashes)
}

/// Whether the `'` starting `rest` opens a character literal (not a lifetime).
fn is_char_literal(rest: &[u8]) -> bool {
    match rest {
        [b'\'', b'\\', ..] => true,
        [b'\'', _, b'\'', ..] => true,
        // A character of several bytes (UTF-8).
        [b'\'', first, ..] if *first >= 0x80 => true,
        _ => false,
    }
}

/// The functions of a file's non-test code: name, first line and length in lines. A
/// `#[cfg(test)]` item (the tests module) is left out.
fn functions(text: &str) -> Vec<(String, usize, usize)> {
    let code = code_only(text);
    let lines: Vec<&str> = code.lines().collect();
    let mut found = Vec::new();
    let mut skip_until = 0;
    for (index, line) in lines.iter().enumerate() {
        if index < skip_until {
            continue;
        }
        let trimmed = line.trim_start();
        if trimmed.starts_with("#[cfg(test)]") {
            skip_until = item_end(&lines, index + 1).unwrap_or(lines.len());
            continue;
        }
        let Some(at) = fn_keyword(trimmed) else {
            continue;
        };
        let name: String = trimmed[at + 3..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if let Some(end) = item_end(&lines, index) {
            found.push((name, index + 1, end - index));
        }
    }
    found
}

/// A file's code without its comments, literals and `#[cfg(test)]` items.
fn non_test_code(text: &str) -> String {
    let code = code_only(text);
    let lines: Vec<&str> = code.lines().collect();
    let mut kept = Vec::with_capacity(lines.len());
    let mut index = 0;
    while index < lines.len() {
        if lines[index].trim_start().starts_with("#[cfg(test)]") {
            index = item_end(&lines, index + 1).unwrap_or(lines.len());
            continue;
        }
        kept.push(lines[index]);
        index += 1;
    }
    kept.join("\n")
}

/// Where `fn ` starts in a line that declares a function.
fn fn_keyword(line: &str) -> Option<usize> {
    let mut rest = line;
    let mut at = 0;
    for prefix in [
        "pub(crate) ",
        "pub(super) ",
        "pub ",
        "const ",
        "async ",
        "unsafe ",
    ] {
        if let Some(after) = rest.strip_prefix(prefix) {
            at += prefix.len();
            rest = after;
        }
    }
    rest.starts_with("fn ").then_some(at)
}

/// The line after the end of the item starting at line `start`: where its braces close
/// again; `None` for a declaration without a body.
fn item_end(lines: &[&str], start: usize) -> Option<usize> {
    let mut depth = 0i32;
    let mut opened = false;
    for (index, line) in lines.iter().enumerate().skip(start) {
        for c in line.chars() {
            match c {
                '{' => {
                    depth += 1;
                    opened = true;
                }
                '}' => depth -= 1,
                ';' if !opened && depth == 0 => return None,
                _ => {}
            }
        }
        if opened && depth <= 0 {
            return Some(index + 1);
        }
    }
    None
}

fn relative(path: &Path) -> String {
    path.strip_prefix(ROOT)
        .unwrap_or(path)
        .display()
        .to_string()
}

#[test]
fn the_scanner_finds_functions_and_skips_strings_and_tests() {
    let text = "fn a() {\n    let s = \"}}}\";\n    let c = '}';\n}\n\
                pub fn b<'a>(x: &'a str) -> &'a str {\n    // }\n    x\n}\n\
                #[cfg(test)]\nmod tests {\n    fn long() {\n\n\n    }\n}\n\
                fn c() { r#\"{\"#; }\n";
    let found = functions(text);
    let names: Vec<(&str, usize, usize)> =
        found.iter().map(|(n, l, c)| (n.as_str(), *l, *c)).collect();
    assert_eq!(names, [("a", 1, 4), ("b", 5, 4), ("c", 16, 1)]);
    assert!(!non_test_code(text).contains("long"));
}

#[test]
fn no_function_is_longer_than_its_steps_can_be_read() {
    let mut long = Vec::new();
    for path in product_sources() {
        let text = std::fs::read_to_string(&path).unwrap();
        for (name, line, length) in functions(&text) {
            if length > MAX_FUNCTION_LINES {
                long.push(format!("{}:{line} {name}: {length} lines", relative(&path)));
            }
        }
    }
    assert!(
        long.is_empty(),
        "functions over {MAX_FUNCTION_LINES} lines:\n{}",
        long.join("\n")
    );
}

#[test]
fn the_text_protocols_are_grammar_and_formatting() {
    let protocol = Path::new(ROOT).join("crates/core/src/protocol");
    for name in ["gtp.rs", "ugi.rs", "nboard.rs"] {
        let text = std::fs::read_to_string(protocol.join(name)).unwrap();
        let lines = text.lines().count();
        assert!(
            lines <= MAX_PROTOCOL_LINES,
            "{name}: {lines} lines, over {MAX_PROTOCOL_LINES}"
        );
    }
    for path in sources(&protocol) {
        let text = non_test_code(&std::fs::read_to_string(&path).unwrap());
        assert!(
            !text.contains("othello::bitboard"),
            "{} reads bitboards",
            relative(&path)
        );
    }
}

#[test]
fn the_search_knows_no_game_and_no_tool_asks_a_type() {
    let root = Path::new(ROOT);
    for path in sources(&root.join("crates/core/src/search")) {
        let text = non_test_code(&std::fs::read_to_string(&path).unwrap());
        for game in ["crate::othello", "crate::mill", "crate::tictactoe"] {
            assert!(!text.contains(game), "{} imports {game}", relative(&path));
        }
    }
    for path in product_sources() {
        let text = non_test_code(&std::fs::read_to_string(&path).unwrap());
        // A game's type asked at run time: a type id, or a value seen as `dyn Any` to be
        // cast to a game (an error's source cast to its own type is no such check).
        for word in ["is_othello", "dyn Any", "TypeId::of"] {
            assert!(
                !text.contains(word),
                "{} tells games apart by type ({word})",
                relative(&path)
            );
        }
    }
}

#[test]
fn othello_is_one_module_tree() {
    let core = Path::new(ROOT).join("crates/core/src");
    for name in ["eval", "book"] {
        assert!(
            !core.join(name).exists(),
            "crates/core/src/{name} is Othello's: it belongs under othello/"
        );
    }
    for path in sources(&core) {
        let text = non_test_code(&std::fs::read_to_string(&path).unwrap());
        let inside = path.starts_with(core.join("othello"));
        if !inside {
            for word in ["crate::eval::", "crate::book::"] {
                assert!(!text.contains(word), "{} reaches {word}", relative(&path));
            }
        }
    }
}
