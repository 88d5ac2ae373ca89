//! The `ludic` command: the command line (`cli`, a module of this binary) over the library.
#![forbid(unsafe_code)]

mod cli;

use clap::{CommandFactory, Parser, Subcommand, ValueEnum};
use std::io::Write;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "ludic",
    version,
    disable_help_subcommand = true,
    about = "A general game system: describe a board game in a .game file, check it, play it, study it.",
    after_help = "GAME is a built-in game, by any name `ludic list` shows, or a .game file.\n\nExamples:\n  ludic list\n  ludic rules GAME\n  ludic play GAME\n  ludic play GAME --variant NAME --agent North=random\n  ludic validate games/*.game\n  ludic fmt --check games/*.game\n  ludic simulate GAME -n 100000 --seed 7 -j 2\n  ludic compare GAME --variant default --variant NAME\n  ludic sweep GAME -o NAME=1..6 -o NAME2=on,off -n 10000 --output sweep.json\n  ludic match GAME --agent mcts --agent random -n 100\n  ludic perft my.game 4\n  ludic replay game.json --step\n  ludic draw GAME --out board.svg\n  ludic serve --port 8080\n  ludic help language       (the reference of the .game language)\n\nExit codes: 0 success, 1 invalid game file, bad record or failed command, 2 usage error, 3 a merge that lacks shards,\n130 interrupted by Ctrl-C (SIGINT) and 143 by SIGTERM (simulate, compare, sweep, match, perft:\nthe partial result printed, marked partial).\n\nFlags: -n is a number of games and -j the games played at once, wherever they apply;\n--threads is the threads of a search (play, match); playouts are an agent's setting\n(mcts:playouts=N) or `bench --playouts`."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Colours at the terminal: auto (when standard output is a terminal and NO_COLOR is not
    /// set), always, never
    #[arg(long, global = true, value_enum, default_value_t, value_name = "WHEN")]
    color: ColorWhen,
}

#[derive(Clone, Copy, ValueEnum, Default)]
enum ColorWhen {
    #[default]
    Auto,
    Always,
    Never,
}

impl ColorWhen {
    /// Whether standard output gets colours.
    fn on_stdout(self) -> bool {
        match self {
            ColorWhen::Always => true,
            ColorWhen::Never => false,
            ColorWhen::Auto => {
                anstream::AutoStream::choice(&std::io::stdout()) != anstream::ColorChoice::Never
            }
        }
    }
}

#[derive(Subcommand)]
enum Command {
    /// Check .game files and report every error with its position
    Validate(cli::validate::ValidateArgs),
    /// Rewrite .game files in the one canonical layout (--check: print a diff, change nothing)
    Fmt(cli::fmt::FmtArgs),
    /// Play a game in the terminal (a built-in game's name or a .game file)
    Play(cli::play::PlayArgs),
    /// Replay a game record, checking every step: its final position, the position after a
    /// step, or each step in turn
    Replay(cli::replay::ReplayArgs),
    /// Play N games (random playouts, or agents) on every core and report the game's metrics
    Simulate(cli::simulate::SimulateArgs),
    /// Compare variants (or games) side by side: the same study of each, differences marked
    Compare(cli::compare::CompareArgs),
    /// Study every point of a grid of options and variants (-o NAME=A..B, --variant …),
    /// resumable, or print its tasks for a batch scheduler (--plan)
    Sweep(cli::sweep::SweepArgs),
    /// Merge the JSON results of the shards of a study, a comparison or a sweep (simulate,
    /// compare or sweep --shard I/N --format json)
    Merge(cli::merge::MergeArgs),
    /// Make the HTML report (charts, every metric) of a study, a comparison or a sweep (JSON)
    Report(cli::report::ReportArgs),
    /// Play N games between two computer agents, seats alternated, and tabulate the results
    #[command(name = "match")]
    Match(cli::matches::MatchArgs),
    /// Count the distinct complete turn sequences of each depth from the start (no chance)
    Perft(cli::perft::PerftArgs),
    /// Time random playouts of games on one thread: the speed of the engine
    Bench(cli::bench::BenchArgs),
    /// Draw a board as a picture (SVG): a game's start, or a position of a record
    Draw(cli::draw::DrawArgs),
    /// Explain a game: summary, options, the start position, what each decision means
    Rules(cli::rules::RulesArgs),
    /// List the built-in games with their options and variants
    List(cli::list::ListArgs),
    /// Serve the games on a local web server: play them and check .game texts over HTTP
    Serve(cli::serve::ServeArgs),
    /// A language server for .game files (errors as you type, hover, definitions,
    /// completion…), for an editor to start
    Lsp(cli::lsp::LspArgs),
    /// Print this help, a command's help, or the reference of the .game language
    #[command(
        after_help = "Topics:\n  language   the reference of the .game language, built into ludic\n  COMMAND    the help of a command (as `ludic COMMAND --help`)\n\nExamples:\n  ludic help\n  ludic help play\n  ludic help language | less"
    )]
    Help {
        /// `language`, or a command's name
        topic: Option<String>,
    },
}

/// `ludic help [TOPIC]`: clap's help of the program or of a command, or the language reference.
fn help(topic: Option<&str>) -> u8 {
    let mut cmd = Cli::command();
    // (names the commands `ludic play` in their usage lines)
    cmd.build();
    match topic {
        None => cli::finish_output(cmd.print_help()),
        Some("language") => cli::help_language(),
        Some(name) => {
            if let Some(sub) = cmd.find_subcommand_mut(name) {
                return cli::finish_output(sub.print_help());
            }
            let mut topics = vec!["language".to_string()];
            topics.extend(cmd.get_subcommands().map(|c| c.get_name().to_string()));
            let mut msg = format!("error: no help about `{name}`");
            match ludic::diagnostic::suggest(name, topics.iter().map(String::as_str)) {
                Some(s) => msg.push_str(&format!("\nhint: did you mean `ludic help {s}`?")),
                None => msg.push_str(&format!("\nhint: the topics are {}", topics.join(", "))),
            }
            let _ = writeln!(std::io::stderr(), "{msg}");
            cli::USAGE
        }
    }
}

fn main() -> ExitCode {
    // (A closed output pipe, `ludic list | head`, ends a command quietly: see `cli::finish`.)
    let parsed = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let colour = || parsed.color.on_stdout();
    let code = match &parsed.command {
        Command::Validate(args) => cli::validate::validate(args),
        Command::Fmt(args) => cli::fmt::fmt(args),
        Command::Play(args) => cli::play::play(args, colour()),
        Command::Replay(args) => cli::replay::replay(args),
        Command::Simulate(args) => cli::simulate::simulate(args, colour()),
        Command::Compare(args) => cli::compare::compare(args, colour()),
        Command::Sweep(args) => cli::sweep::sweep(args, colour()),
        Command::Merge(args) => cli::merge::merge_results(args, colour()),
        Command::Report(args) => cli::report::report(args),
        Command::Match(args) => cli::matches::run_match(args),
        Command::Perft(args) => cli::perft::perft(args),
        Command::Bench(args) => cli::bench::bench(args),
        Command::Draw(args) => cli::draw::draw(args),
        Command::Rules(args) => cli::rules::rules(args),
        Command::List(args) => cli::list::list(args),
        Command::Serve(args) => cli::serve::serve(args),
        Command::Lsp(args) => cli::lsp::lsp(args),
        Command::Help { topic } => help(topic.as_deref()),
    };
    ExitCode::from(code)
}
