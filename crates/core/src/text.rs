//! Text helpers shared by the parsers, the protocols and the match runner.

/// `text` cut to at most `limit` characters (then `...`), so that an error message
/// quoting a huge or hostile input stays one readable line.
pub fn shorten(text: &str, limit: usize) -> String {
    if text.chars().count() <= limit {
        text.to_string()
    } else {
        let cut: String = text.chars().take(limit).collect();
        format!("{cut}...")
    }
}

#[cfg(test)]
mod tests {
    use super::shorten;

    #[test]
    fn cuts_long_text_on_character_boundaries() {
        assert_eq!(shorten("abc", 3), "abc");
        assert_eq!(shorten("abcd", 3), "abc...");
        assert_eq!(shorten("ééééé", 2), "éé...");
    }
}
