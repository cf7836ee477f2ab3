//! GTP's unit tests: its grammar, and a session's answer to a search that cannot start.

use super::*;
use crate::options::BookChoice;
use crate::othello::Position;
use std::sync::Mutex;

/// What a session wrote, shared with the test.
#[derive(Clone, Default)]
struct Written(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Written {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_search_that_cannot_start_is_an_error_reply_and_the_next_one_plays() {
    let written = Written::default();
    let settings = Settings {
        book: BookChoice::None,
        depth: Some(2),
        ..Settings::default()
    };
    let mut session = Gtp::<Position>::resume(
        games::find("othello").unwrap(),
        Carry::new(settings),
        Arc::new(|| {}),
        Output::new(Box::new(written.clone())),
    )
    .unwrap();
    // No system gives a thread a petabyte of stack.
    session.engine.job_stack = Some(1 << 50);
    session.line(Ok("1 genmove b".into()));
    assert!(session.busy(), "the reply is the event loop's to take");
    session.wake();
    assert!(!session.busy());
    session.engine.job_stack = None;
    session.line(Ok("2 genmove b".into()));
    session.finish();
    let text = String::from_utf8(written.0.lock().unwrap().clone()).unwrap();
    assert!(
        text.starts_with("?1 cannot start the search thread: "),
        "{text}"
    );
    assert!(text.contains("\n\n=2 "), "{text}");
    assert_eq!(session.engine.record().moves.len(), 1, "{text}");
}

#[test]
fn preprocessing_and_ids() {
    assert_eq!(preprocess("1 play\tb d3 # comment\r"), "1 play b d3 ");
    assert_eq!(split_id("12 name"), (Some("12".into()), " name"));
    assert_eq!(split_id("name"), (None, "name"));
}

#[test]
fn unknown_and_syntax_errors_differ() {
    assert!(matches!(
        parse::<Position>("frobnicate"),
        Err(ParseError::Unknown(_))
    ));
    assert!(matches!(
        parse::<Position>("play x d3"),
        Err(ParseError::Syntax { .. })
    ));
    assert!(matches!(
        parse::<Position>("play b z9"),
        Err(ParseError::Syntax { .. })
    ));
    assert!(matches!(
        parse::<Position>("boardsize"),
        Err(ParseError::Syntax { .. })
    ));
    assert!(matches!(
        parse::<Position>("set_depth 99"),
        Err(ParseError::OutOfRange { .. })
    ));
    assert_eq!(
        parse::<Position>("play BLACK D3"),
        Ok(Command::Play(Color::Black, "d3".parse().unwrap()))
    );
    assert_eq!(
        parse::<Position>("set_depth none"),
        Ok(Command::Set(
            options::by_gtp("set_depth").unwrap(),
            "none".into()
        ))
    );
}
