//! The `impact` command-line tool: see the `impact_cli` library for what it does.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let options = impact_cli::Options {
        progress: stderr.is_terminal(),
    };
    let code = impact_cli::main_with_options(
        std::env::args_os().skip(1),
        &mut stdout.lock(),
        &mut stderr.lock(),
        options,
    );
    // A closed pipe (`impact run ... | head`) is not worth a second message.
    let _ = stdout.lock().flush();
    ExitCode::from(code)
}
