//! Engine mode: reads protocol commands on stdin and answers on stdout.

/// Runs the engine with command-line options `args`.
pub fn run(args: &[String]) -> Result<(), String> {
    if let Some(unknown) = args.first() {
        return Err(format!(
            "unknown option or subcommand {unknown:?} (try `iago help`)"
        ));
    }
    Err("engine mode is not implemented yet".into())
}
