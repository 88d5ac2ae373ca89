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
    after_help = "GAME is a built-in game, by any name `ludic list` shows, or a .game file.\n\nExamples:\n  ludic list\n  ludic rules GAME\n  ludic play GAME\n  ludic play GAME --variant NAME --agent North=random\n  ludic validate games/*.game\n  ludic simulate GAME -n 100000 --seed 7 -j 2\n  ludic compare GAME --variant default --variant NAME\n  ludic match GAME --agent mcts --agent random -n 100\n  ludic perft my.game 4\n  ludic replay game.json --step\n  ludic draw GAME --out board.svg\n  ludic help language       (the reference of the .game language)\n\nExit codes: 0 success, 1 invalid game file, bad record or failed command, 2 usage error, 3 a merge that lacks shards,\n130 interrupted by Ctrl-C (SIGINT) and 143 by SIGTERM (simulate, compare, match, perft: the\npartial result printed, marked partial).\n\nFlags: -n is a number of games and -j the games played at once, wherever they apply;\n--threads is the threads of a search (play, match); playouts are an agent's setting\n(mcts:playouts=N) or `bench --playouts`."
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

#[derive(Clone, Copy, ValueEnum, Default)]
enum Format {
    #[default]
    Text,
    Json,
}

impl From<Format> for cli::Format {
    fn from(f: Format) -> Self {
        match f {
            Format::Text => cli::Format::Text,
            Format::Json => cli::Format::Json,
        }
    }
}

/// Output of the study commands (simulate, compare, merge).
#[derive(Clone, Copy, ValueEnum, Default)]
enum StudyFormat {
    /// a table
    #[default]
    Text,
    Json,
    Csv,
}

impl From<StudyFormat> for ludic::study::Output {
    fn from(f: StudyFormat) -> Self {
        match f {
            StudyFormat::Text => ludic::study::Output::Table,
            StudyFormat::Json => ludic::study::Output::Json,
            StudyFormat::Csv => ludic::study::Output::Csv,
        }
    }
}

/// How the games of a study are played (simulate, compare).
#[derive(clap::Args, Clone)]
struct StudyOpts {
    /// Number of games (random playouts, or games of the agents)
    #[arg(short = 'n', long = "games", value_name = "N", default_value_t = 1000)]
    n: u64,
    /// The old spelling of -n (deprecated)
    #[arg(long = "playouts", value_name = "N", hide = true, conflicts_with = "n")]
    old_playouts: Option<u64>,
    /// Seed of the run: game i draws from generators seeded by (seed, i)
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// No agent: random playouts; once: that agent on every side; twice: A against B, seats
    /// alternated (see Agents below)
    #[arg(long = "agent", value_name = "AGENT")]
    agents: Vec<String>,
    /// Games played at once (default: every core); the results do not depend on it
    #[arg(short = 'j', long = "jobs", value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    jobs: Option<u16>,
    /// The old spelling of -j (deprecated)
    #[arg(long = "threads", value_name = "N", hide = true, conflicts_with = "jobs", value_parser = clap::value_parser!(u16).range(1..))]
    old_threads: Option<u16>,
    /// Play only shard I of N (a block of the games; see `ludic merge`)
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    /// Only the cheap metrics: no following of the score (decisiveness, lead changes, branching
    /// by tenth of the game)
    #[arg(long)]
    quick: bool,
}

impl StudyOpts {
    /// The arguments, with a note on standard error for each old spelling used in `command`.
    fn into_args(self, command: &str) -> cli::StudyArgs {
        if self.old_playouts.is_some() {
            deprecated(&format!(
                "`--playouts` in {command} is the number of games: write `-n N` (or `--games N`)"
            ));
        }
        if self.old_threads.is_some() {
            deprecated(&format!(
                "`--threads` in {command} is the number of games played at once: write `-j N` (or `--jobs N`); `--threads` is the threads of a search in play and match"
            ));
        }
        cli::StudyArgs {
            n: self.old_playouts.unwrap_or(self.n),
            seed: self.seed,
            agents: self.agents,
            jobs: self.jobs.or(self.old_threads).map(usize::from),
            shard: self.shard,
            quick: self.quick,
        }
    }
}

#[derive(clap::Args, Clone)]
struct OptionArgs {
    /// Set an option: -o NAME=VALUE, e.g. -o stones=8 (repeatable)
    #[arg(short = 'o', long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// Play a named variant (several options at once): --variant 'big board'
    #[arg(long)]
    variant: Option<String>,
}

#[derive(Subcommand)]
enum Command {
    /// Check .game files and report every error with its position
    #[command(
        after_help = "Examples:\n  ludic validate games/*.game\n  ludic validate --format json my.game\n\nExit codes: 0 all valid, 1 some file invalid or unreadable, 2 usage error."
    )]
    Validate {
        /// The files to check
        #[arg(required = true)]
        files: Vec<String>,
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// Play a game in the terminal (a built-in game's name or a .game file)
    #[command(
        after_help = format!("GAME is a built-in game, by any name `ludic list` shows, or a .game file.\n\nExamples:\n  ludic play GAME                        (you play the first side against the computer)\n  ludic play GAME --agent North=human    (two people at one terminal)\n  ludic play GAME --agent North=mcts:time=5s\n  ludic play GAME --agent South=mcts --agent North=mcts   (watch two computers)\n  ludic play GAME --agent North=mcts:playouts=20000 --threads 2\n  ludic play GAME --variant NAME --seed 3\n  ludic play my.game -o NAME=VALUE --record game.json\n  printf 'sow s7\\n' | ludic play GAME --agent North=random --format json\n\nAt your turn type the number of a move, its notation (`sow s7`) or its last word (`s7`),\nseveral decisions on one line (`s5 ccw`), or: undo, board, help, quit.\nWith input that is not a terminal (a script), a line that cannot be played stops the game\nat the position before it, and input that ends before the game does is an error: both\nexit 1 (--keep-going and --allow-partial relax them). A closed standard output\n(`| head`) stops the game, said on standard error, exit 1; the record keeps its steps.\nBy default the first side is human and the others `mcts` (about 1 s a decision).\nAfter a searched decision the computer says how often it won in its playouts.\n\n{}", ludic::agents::AGENT_HELP)
    )]
    Play {
        /// A built-in game (see `ludic list`) or the path of a .game file
        game: String,
        #[command(flatten)]
        opts: OptionArgs,
        /// Seed of the random generator (chance events and the computer's moves)
        #[arg(long)]
        seed: Option<u64>,
        /// Who plays a side: --agent North=mcts:time=5s (repeatable; see Agents below)
        #[arg(long = "agent", value_name = "SIDE=AGENT")]
        agents: Vec<String>,
        /// Threads of a searching agent's search (default: every core)
        #[arg(long = "threads", value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
        threads: Option<u16>,
        /// The old spelling of --threads (deprecated: -j is the games played at once elsewhere)
        #[arg(short = 'j', value_name = "N", hide = true, conflicts_with = "threads", value_parser = clap::value_parser!(u16).range(1..))]
        old_j: Option<u16>,
        /// Write the game record (JSON) to this file
        #[arg(long, value_name = "FILE")]
        record: Option<String>,
        /// Print the final state as JSON at the end
        #[arg(long, value_enum, default_value_t)]
        format: Format,
        /// Keep a picture (SVG) of the position in this file, rewritten after every step
        #[arg(long, value_name = "FILE")]
        svg: Option<String>,
        /// With input that is not a terminal: input that ends before the game is not an error
        #[arg(long)]
        allow_partial: bool,
        /// With input that is not a terminal: a line that cannot be played is reported and the
        /// game goes on (by default it stops the game, exit 1)
        #[arg(long)]
        keep_going: bool,
    },
    /// Replay a game record, checking every step: its final position, the position after a
    /// step, or each step in turn
    #[command(
        after_help = "With --at N, the position after step N (0: the start) with what step N did, in words;\nwith --step, the record one step at a time: Enter shows the next step, b goes back one,\na number goes to that step, q quits. Input that is not a terminal is read line by line,\nthe same commands (for scripts and tests).\n\nExamples:\n  ludic replay game.json\n  ludic replay game.json --at 12\n  ludic replay game.json --at 12 --format json\n  ludic replay game.json --step\n  ludic replay game.json --step --at 40      (from step 40)\n  printf '\\n\\nb\\n7\\nq\\n' | ludic replay game.json --step\n  ludic replay game.json --game my-variant.game\n\nExit codes: 0 success, 1 unreadable or bad record, 2 usage error (--at past the end)."
    )]
    Replay {
        /// The record (JSON) written by `ludic play --record`
        record: String,
        /// The .game file to use instead of the one the record names
        #[arg(long)]
        game: Option<String>,
        /// Show the position after step N (0: the start), with what that step did
        #[arg(long, value_name = "N")]
        at: Option<usize>,
        /// Step through the record: Enter for the next step, b back, a number, q to quit
        #[arg(long)]
        step: bool,
        /// Text, or the state as JSON (with --at: after step N) as `play --format json` prints it
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// Play N games (random playouts, or agents) on every core and report the game's metrics
    #[command(
        after_help = format!("GAME is a built-in game, by any name `ludic list` shows, or a .game file.\n\nsimulate reports the game's metrics; for the agents' own table (wins, score, Elo) and the\nrecords of their games, see `ludic match`.\n\nGame i of a run plays with generators seeded by (seed, i): the results are the same for any\n-j. A searching agent uses one thread (mcts:threads=K for more). At a terminal a progress\nbar shows the rate and the time left. Ctrl-C (SIGINT), SIGTERM or SIGHUP stops the run\nwithin a second and prints the games finished, marked partial (JSON \"partial\": true, a\n`# PARTIAL` first line in CSV); an agents' game in progress is dropped, its search stopped;\nwith -j 1 the games finished are the first ones. A second signal ends at once.\n\nExamples:\n  ludic simulate GAME -n 100000\n  ludic simulate GAME -n 1000 --variant NAME --seed 1 --format json\n  ludic simulate GAME -n 1000 -o rounds=match --format csv\n  ludic simulate GAME -n 200 --agent mcts:playouts=300           (the agent on every side)\n  ludic simulate GAME -n 200 --agent mcts:playouts=1000 --agent mcts:playouts=100   (skill)\n  ludic simulate GAME -n 1000000 --shard 3/8 --format json > part3.json   (see `ludic merge`)\n\n{}\n\nExit codes: 0 success, 1 invalid game file or unwritable output, 2 usage error, 130\ninterrupted by Ctrl-C (SIGINT), 143 by SIGTERM, 129 by SIGHUP (the partial results are\nprinted).\n\n{}", ludic::study::METRICS_HELP, ludic::agents::AGENT_HELP)
    )]
    Simulate {
        /// A built-in game or a .game file
        game: String,
        #[command(flatten)]
        study: StudyOpts,
        #[command(flatten)]
        opts: OptionArgs,
        /// text (a table), json (with the statistics `ludic merge` reads) or csv
        #[arg(long, value_enum, default_value_t)]
        format: StudyFormat,
    },
    /// Compare variants (or games) side by side: the same study of each, differences marked
    #[command(
        after_help = format!("GAME is a built-in game, by any name `ludic list` shows, or a .game file. The columns are\neach --variant of each GAME (or each GAME): `--variant default` is the rules without a\nvariant, and a value with `=` is a set of options (`--variant stones=4,holes=6`); -o applies\nto every column. Every column is played with the same seed, number of games and agents.\nA value marked * differs from the first column's at p < 0.05 (two-sided: a two-proportion\nz-test for proportions, Welch's test with the normal approximation for means; no correction\nfor the number of metrics compared).\n\nExamples:\n  ludic compare GAME --variant default --variant NAME -n 100000\n  ludic compare GAME --variant default --variant rounds=match -n 10000 --format csv\n  ludic compare mine.game theirs.game -n 20000 --format json\n\n{}\n\nA signal stops the comparison as it stops simulate: every column is printed, those not\nfinished marked partial (JSON \"partial\": true at the top, a `# PARTIAL` first line in CSV).\n\nExit codes: 0 success, 1 invalid game file or unwritable output, 2 usage error, 130\ninterrupted by Ctrl-C (SIGINT), 143 by SIGTERM, 129 by SIGHUP (the partial results are\nprinted).\n\n{}", ludic::study::METRICS_HELP, ludic::agents::AGENT_HELP)
    )]
    Compare {
        /// Built-in games or .game files
        #[arg(required = true)]
        games: Vec<String>,
        /// A column: a variant's name, `default`, or options NAME=VALUE,… (repeatable)
        #[arg(long = "variant", value_name = "VARIANT")]
        variants: Vec<String>,
        /// Set an option in every column: -o NAME=VALUE (repeatable)
        #[arg(short = 'o', long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
        #[command(flatten)]
        study: StudyOpts,
        #[arg(long, value_enum, default_value_t)]
        format: StudyFormat,
    },
    /// Merge the JSON results of the shards of a study or a comparison (simulate or compare
    /// --shard I/N --format json)
    #[command(
        after_help = "The shards must come from one study: the same game file, options, seed, agents, -n and\n--quick, none stopped by Ctrl-C, no shard twice, each shard's statistics agreeing with its\nranges and -n. The merged result equals that of one run of all the games (its statistics bit\nfor bit); with shards missing it is the result of those given, marked partial (exit 3).\nThe shards of a comparison (compare --shard I/N) merge column by column, with the same\nchecks, into the comparison's table.\n\nExamples:\n  for i in 1 2 3 4; do ludic simulate GAME -n 1000000 --shard $i/4 --format json > part$i.json; done\n  ludic merge part*.json\n  parallel ludic simulate GAME -n 100000000 --shard {}/64 --format json '>' part{}.json ::: $(seq 64)\n  ludic merge part*.json --format json > study.json\n  ludic compare GAME --variant default --variant NAME -n 10000 --shard 1/2 --format json > c1.json\n  ludic compare GAME --variant default --variant NAME -n 10000 --shard 2/2 --format json > c2.json\n  ludic merge c1.json c2.json\n\nExit codes: 0 success, 1 unreadable, mismatched or damaged results, 2 usage error, 3 shards\nmissing (the partial result is printed)."
    )]
    Merge {
        /// The results (JSON) of `simulate --shard I/N --format json`
        #[arg(required = true)]
        files: Vec<String>,
        #[arg(long, value_enum, default_value_t)]
        format: StudyFormat,
    },
    /// Play N games between two computer agents, seats alternated, and tabulate the results
    #[command(
        name = "match",
        after_help = format!("GAME is a built-in game, by any name `ludic list` shows, or a .game file.\n\nAgent A plays the first side in even games (0, 2, ...) and the second side in odd games;\nwith more than two sides, A plays one side a game in turn and B all the others. The table\ngives each agent's wins, draws and losses, its score (a win 1, a draw 1/2) with a 95%\nWilson interval, the Elo difference with its interval, and the share of decisions that\nwere real choices (more than one legal decision). For the game's own metrics (balance,\nlength, branching, and skill as a score) played by agents, see `ludic simulate --agent A\n--agent B`; match is for the agents: their table, Elo and the records of their games.\n\n-j games are played at once (default: every core), each search on one thread unless\n--threads or the agent's spec (mcts:threads=K) says more; by default -j is the cores\ndivided by the threads of a search. Game i plays with generators seeded by (seed, i): the\nsame seed gives the same games for any -j when the agents have a playout budget (not a\ntime budget). At a terminal a progress line shows the games done, A's score so far, the\nplayouts a second and the time left. Ctrl-C (SIGINT), SIGTERM or SIGHUP stops the match at\nonce: the games in progress are dropped (their searches stopped), the games finished are\nprinted, marked partial, and with --record-dir each has its record. A second signal ends at\nonce.\n\nExamples:\n  ludic match GAME --agent mcts --agent random -n 100\n  ludic match GAME --agent mcts:playouts=2000 --agent mcts:playouts=200 -n 20\n  ludic match GAME --agent mcts:playouts=20000 --agent mcts --threads 2 -j 1\n  ludic match GAME --agent random --agent random -n 1000 --format json\n  ludic match GAME --agent mcts:time=200ms --agent random -n 10 --record-dir games/\n\nExit codes: 0 success, 1 invalid game file or unwritable record, 2 usage error, 130\ninterrupted by Ctrl-C (SIGINT), 143 by SIGTERM, 129 by SIGHUP (the partial results are\nprinted).\n\n{}", ludic::agents::AGENT_HELP)
    )]
    Match {
        /// A built-in game or a .game file
        game: String,
        /// An agent (give two: A, then B; see Agents below)
        #[arg(long = "agent", value_name = "AGENT", required = true)]
        agents: Vec<String>,
        /// Number of games
        #[arg(short = 'n', long = "games", value_name = "N", default_value_t = 100)]
        n: u64,
        /// Games played at once (default: every core, shared with the searches' threads); the
        /// results do not depend on it
        #[arg(short = 'j', long = "jobs", value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
        jobs: Option<u16>,
        /// Threads of each search, unless an agent's spec says (default: 1)
        #[arg(long = "threads", value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
        threads: Option<u16>,
        /// Seed of the match: game i draws from generators seeded by (seed, i)
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[command(flatten)]
        opts: OptionArgs,
        #[arg(long, value_enum, default_value_t)]
        format: Format,
        /// Write each game's record (as `play --record` does) into this folder (new or empty)
        #[arg(long, value_name = "DIR")]
        record_dir: Option<String>,
        /// Write the records into a folder that is not empty (files of the same names are
        /// replaced)
        #[arg(long, requires = "record_dir")]
        force: bool,
    },
    /// Count the distinct complete turn sequences of each depth from the start (no chance)
    #[command(
        after_help = "perft(d) is the number of distinct sequences of exactly d complete turns from the start,\nby the move generator play uses. A turn is complete when the next one starts or the game\nends; each decision inside a turn (a hop of a chain, stopping) is part of its sequence. A\nsequence after which the game is over before d turns counts for nothing at depth d (as\ncheckmate does in chess perft).\n\nPerft stops (exit 1) past 50,000,000 positions or 1,000,000,000 units of the engine's work\n(statements run, sites visited, decisions listed) at one depth: raise them with --max-positions and --max-work.\n\nCtrl-C (SIGINT) or SIGTERM stops the count at once: the depths done are printed, then the\ndepth stopped, marked partial with the sequences counted so far, not its total (in JSON a\nlast row with \"partial\": true and \"counted\", without \"count\"); exit 130 or 143.\n\nGAME is a built-in game, by any name `ludic list` shows, or a .game file without chance events.\n\nExamples:\n  ludic perft GAME 4\n  ludic perft my.game 3 -o NAME=VALUE --format json"
    )]
    Perft {
        /// A built-in game or a .game file
        game: String,
        /// The deepest count, in turns
        depth: u32,
        #[command(flatten)]
        opts: OptionArgs,
        /// Positions one depth may visit before perft stops
        #[arg(long, value_name = "N", default_value_t = ludic::perft::PERFT_LIMIT)]
        max_positions: u64,
        /// Work (statements run, sites visited) one depth may take before perft stops
        #[arg(long, value_name = "N", default_value_t = ludic::perft::PERFT_WORK_LIMIT)]
        max_work: u64,
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// Time random playouts of games on one thread: the speed of the engine
    #[command(
        after_help = "Without GAME: every built-in game, each of its variants, and a match of each game with an\noption that takes the value `match`. Options and a variant given apply to every GAME.\nWith --playouts N, each game plays exactly N playouts (the same ones on any machine): for\ncomparing two builds by counts that do not depend on the load, e.g. instructions under\n`valgrind --tool=callgrind`.\n\nExamples:\n  ludic bench\n  ludic bench GAME --seconds 5\n  ludic bench my.game --variant NAME --format json\n  valgrind --tool=callgrind ludic bench GAME --playouts 2000"
    )]
    Bench {
        /// Built-in games or .game files (default: every built-in game)
        games: Vec<String>,
        /// Seconds of playouts for each game
        #[arg(long, default_value_t = 2.0)]
        seconds: f64,
        /// Play exactly this many playouts for each game instead of timing --seconds
        #[arg(long, value_name = "N", conflicts_with = "seconds")]
        playouts: Option<u64>,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[command(flatten)]
        opts: OptionArgs,
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// Draw a board as a picture (SVG): a game's start, or a position of a record
    #[command(
        after_help = "GAME is a built-in game, by any name `ludic list` shows, or a .game file. With --record, the\nposition after N steps of the record is drawn (all of them without --at), with the sites of\nthe last decision marked; GAME then replaces the description the record names.\n\nExamples:\n  ludic draw GAME --out board.svg\n  ludic draw GAME -o NAME=VALUE --variant NAME > board.svg\n  ludic draw --record game.json --at 12 --out board.svg\n  ludic play GAME --svg board.svg     (a picture kept up to date while you play)\n\nExit codes: 0 success, 1 unreadable game, record or output file, 2 usage error (an output\nthat is an input, standard output, or not a regular file)."
    )]
    Draw {
        /// A built-in game or a .game file (with --record: instead of the one the record names)
        game: Option<String>,
        /// Write the picture to this file (default: standard output)
        #[arg(long, value_name = "FILE")]
        out: Option<String>,
        /// Draw a position of this record (written by `ludic play --record`)
        #[arg(long, value_name = "FILE")]
        record: Option<String>,
        /// The position after this many steps of the record (0: the start)
        #[arg(long, value_name = "N", requires = "record")]
        at: Option<usize>,
        #[command(flatten)]
        opts: OptionArgs,
    },
    /// Explain a game: summary, options, the start position, what each decision means
    #[command(
        after_help = "GAME is a built-in game, by any name `ludic list` shows, or a .game file. Options and a\nvariant apply as in `play`: the start position drawn is theirs.\n\nExamples:\n  ludic rules GAME\n  ludic rules GAME --variant NAME -o NAME=VALUE\n  ludic rules my.game --format json\n\nExit codes: 0 success, 1 unknown or invalid game or unwritable output, 2 usage error."
    )]
    Rules {
        /// A built-in game or a .game file
        game: String,
        #[command(flatten)]
        opts: OptionArgs,
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// List the built-in games with their options and variants
    #[command(after_help = "Examples:\n  ludic list\n  ludic list --format json")]
    List {
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
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

/// A one-line note on standard error about an old spelling that still works.
fn deprecated(note: &str) {
    let _ = writeln!(std::io::stderr(), "note: {note}");
}

/// Whether the command line gave the short flag `-C` (as `-C N`, `-CN` or `-C=N`), as opposed
/// to its long spelling: for a flag whose short spelling changed meaning.
fn gave_short_flag(c: char) -> bool {
    let short = format!("-{c}");
    std::env::args()
        .skip(1)
        .take_while(|a| a != "--")
        .any(|a| a == short || (a.starts_with(&short) && !a.starts_with("--")))
}

fn main() -> ExitCode {
    // (A closed output pipe, `ludic list | head`, ends a command quietly: see `cli::finish`.)
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let code = match cli.command {
        Command::Validate { files, format } => cli::validate(&files, format.into()),
        Command::Play {
            game,
            opts,
            seed,
            agents,
            threads,
            old_j,
            record,
            format,
            svg,
            allow_partial,
            keep_going,
        } => cli::play(&cli::PlayArgs {
            game,
            options: opts.options,
            variant: opts.variant,
            seed,
            agents,
            threads: threads
                .or_else(|| {
                    old_j.inspect(|_| {
                        deprecated("`-j` in play is now `--threads N` (the threads of a search); `-j` is the number of games played at once in match, simulate and compare")
                    })
                })
                .map(usize::from),
            record,
            format: format.into(),
            svg,
            allow_partial,
            keep_going,
            colour: cli.color.on_stdout(),
        }),
        Command::Replay {
            record,
            game,
            at,
            step,
            format,
        } => cli::replay(&cli::ReplayArgs {
            record,
            game,
            format: format.into(),
            at,
            step,
        }),
        Command::Simulate {
            game,
            study,
            opts,
            format,
        } => cli::simulate(&cli::SimulateArgs {
            game,
            options: opts.options,
            variant: opts.variant,
            study: study.into_args("simulate"),
            output: format.into(),
            colour: cli.color.on_stdout(),
        }),
        Command::Compare {
            games,
            variants,
            options,
            study,
            format,
        } => cli::compare(&cli::CompareArgs {
            games,
            variants,
            options,
            study: study.into_args("compare"),
            output: format.into(),
            colour: cli.color.on_stdout(),
        }),
        Command::Merge { files, format } => {
            cli::merge_results(&files, format.into(), cli.color.on_stdout())
        }
        Command::List { format } => cli::list(format.into()),
        Command::Help { topic } => help(topic.as_deref()),
        Command::Rules { game, opts, format } => cli::rules(&cli::RulesArgs {
            game,
            options: opts.options,
            variant: opts.variant,
            format: format.into(),
        }),
        Command::Draw {
            game,
            out,
            record,
            at,
            opts,
        } => cli::draw(&cli::DrawArgs {
            game,
            out,
            record,
            at,
            options: opts.options,
            variant: opts.variant,
        }),
        Command::Bench {
            games,
            seconds,
            playouts,
            seed,
            opts,
            format,
        } => cli::bench(
            &games,
            match playouts {
                Some(n) => cli::BenchFor::Playouts(n),
                None => cli::BenchFor::Seconds(seconds),
            },
            seed,
            &opts.options,
            opts.variant.as_deref(),
            format.into(),
        ),
        Command::Match {
            game,
            agents,
            n,
            jobs,
            threads,
            seed,
            opts,
            format,
            record_dir,
            force,
        } => {
            if jobs.is_some() && gave_short_flag('j') {
                deprecated(
                    "`-j` in match now means games played at once (it meant the threads of a search: write `--threads N` for that); old scripts play N games at once, one search thread each, and a seed gives the same games for any -j",
                );
            }
            cli::run_match(&cli::MatchArgs {
            game,
            options: opts.options,
            variant: opts.variant,
            agents,
            games: n,
            jobs: jobs.map(usize::from),
            threads: threads.map(usize::from),
            seed,
            format: format.into(),
            record_dir,
            force,
        })
        }
        Command::Perft {
            game,
            depth,
            opts,
            max_positions,
            max_work,
            format,
        } => cli::perft(
            &game,
            depth,
            &opts.options,
            opts.variant.as_deref(),
            ludic::perft::PerftLimits {
                positions: max_positions,
                work: max_work,
            },
            format.into(),
        ),
    };
    ExitCode::from(code)
}
