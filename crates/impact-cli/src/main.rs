//! The `impact` command-line tool: see the `impact_cli` library for what it does.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut stdout = std::io::stdout();
    let mut stderr = std::io::stderr();
    let options = impact_cli::Options {
        progress: stderr.is_terminal(),
    };
    // The handles, not their locks: `impact view` logs from its connections' threads, which
    // would wait forever on a lock this thread held for the whole command.
    let code = impact_cli::main_with_options(
        std::env::args_os().skip(1),
        &mut stdout,
        &mut stderr,
        options,
    );
    // A closed pipe (`impact run ... | head`) is not worth a second message.
    let _ = stdout.flush();
    ExitCode::from(code)
}
