//! `ludic sweep GAME -o NAME=SPEC…`: the study of every point of a grid of options (and
//! variants), one after the other, written to `--output` after every point and resumed from
//! it; `--plan` prints the commands of its tasks for a batch scheduler (see
//! [`ludic::study::sweep`]).

use super::output::{Named, check_outputs};
use super::signals::{catch_signals, exit_code, interrupted, note_late_signal, stop_on_signal};
use super::simulate::{StudyArgs, StudyFormat, StudyOpts, after_study};
use super::{FAILED, OK, USAGE, read_text_file};
use ludic::agents::default_threads;
use ludic::study::Control;
use ludic::study::merge::parse_shard;
use ludic::study::report::Output;
use ludic::study::sweep::output::write_sweep;
use ludic::study::sweep::{Sweep, SweepError, SweepSpec, Sweeper};
use std::ops::Range;

/// The most a sweep's file may have.
const MAX_SWEEP_BYTES: u64 = 256 << 20;

/// Where the tasks of `--plan` write, by default.
const PLAN_DIR: &str = "sweep-parts";

// Arguments of `ludic sweep`.
#[derive(clap::Args)]
#[command(
    after_help = format!("GAME is a built-in game, by any name `ludic list` shows, or a .game file.\n\nEach -o NAME=SPEC with several values is an axis of the grid: SPEC is v1,v2,… (values),\nA..B (the integers from A to B) or A..B/STEP (A, A+STEP, … up to B); -o NAME=VALUE alone\nsets the option for every point. --variant NAME (repeatable; `default` is the rules without\na variant) is an axis named `variant`, after the options'. The points are in grid order: the\nfirst axis varies slowest; point K is the K-th (from 0). Each point is played exactly as\n`ludic simulate` plays it with its options, -n, --seed, --agent and --shard: every point\nwith the same seed. A point whose options the game refuses (a requirement broken, a value\noutside its domain) is reported with the game's message, and the other points are played.\n\n--output FILE (JSON, or CSV by its extension or --format) is written whole after every\npoint (a kill never leaves half a file; its folder is made if missing). When FILE is a sweep\nof the same game, grid, -n, seed, agents and --quick, its done points are kept as they are\nand only the others are played (resumed); a sweep of other settings is an error. Only JSON\nresumes: an existing CSV file is not overwritten. A signal (Ctrl-C, SIGTERM) stops the point\nbeing played: it is kept in FILE marked partial, and played again on resume.\n\n--plan prints, one a line, the command of every task (each point, in --shards M shards),\neach writing DIR/point-K-shard-I.json (--plan-dir, default {PLAN_DIR}), then a comment line\nwith the `ludic merge` that joins them: for a batch scheduler (a Slurm job array runs line\nN of the file), `parallel`, or a shell loop. The merged sweep equals a sweep played in one\nrun (its statistics bit for bit).\n\nExamples:\n  ludic sweep GAME -o stones=3..6 -n 10000 --output sweep.json --report sweep.html\n  ludic sweep GAME -o stones=2..12/2 -o rounds=1,match -n 1000 --format csv\n  ludic sweep GAME -o stones=3..5 --variant default --variant NAME -n 5000\n  ludic sweep GAME -o stones=3..6 -n 100000 --plan --shards 4 > tasks.txt\n  grep -v '^#' tasks.txt | parallel && ludic merge sweep-parts/*.json --output sweep.json\n  ludic sweep GAME -o stones=3..6 -n 100000 --only 2 --shard 1/4 --output part.json\n\nExit codes: 0 success (points refused by the game included), 1 unreadable game or sweep\nfile, unwritable output, 2 usage error (a bad range, an unknown option or variant, --output\nholding a sweep of other settings), 130 interrupted by Ctrl-C (SIGINT), 143 by SIGTERM, 129\nby SIGHUP (the points played are kept).\n\n{}\n\n{}", ludic::study::METRICS_HELP, ludic::agents::AGENT_HELP)
)]
pub struct SweepArgs {
    /// A built-in game or a .game file
    pub game: String,
    /// An axis: -o NAME=v1,v2,… | NAME=A..B | NAME=A..B/STEP; or NAME=VALUE for every point
    /// (repeatable)
    #[arg(short = 'o', long = "option", value_name = "NAME=SPEC")]
    pub options: Vec<String>,
    /// A variant of the axis `variant` (repeatable; `default`: the rules without one)
    #[arg(long = "variant", value_name = "NAME")]
    pub variants: Vec<String>,
    #[command(flatten)]
    pub study: StudyOpts,
    /// text (a row a point; the default on standard output), json (the sweep, which `ludic
    /// merge` reads) or csv (a row a point, every metric)
    #[arg(long, value_enum)]
    pub format: Option<StudyFormat>,
    /// Write the sweep to FILE after every point, and resume it if FILE holds one
    #[arg(long, value_name = "FILE")]
    pub output: Option<String>,
    /// Also write the HTML report of the sweep (charts and every metric; see `ludic report`)
    /// to FILE, once the points are played (or stopped)
    #[arg(long, value_name = "FILE")]
    pub report: Option<String>,
    /// Play only point K (from 0, in grid order)
    #[arg(long, value_name = "K")]
    pub only: Option<u64>,
    /// Print the command of every task (each point, in --shards shards) and play nothing
    #[arg(long, conflicts_with_all = ["only", "shard", "output", "format", "report"])]
    pub plan: bool,
    /// With --plan: the shards of each point
    #[arg(long, value_name = "M", requires = "plan", value_parser = clap::value_parser!(u64).range(1..))]
    pub shards: Option<u64>,
    /// With --plan: the folder the tasks write their results in
    #[arg(long, value_name = "DIR", requires = "plan")]
    pub plan_dir: Option<String>,
}

/// A word for the shell: as it is when it holds only safe characters, else in single quotes.
fn sh_quote(s: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "_-./=:,+@%".contains(c);
    if !s.is_empty() && s.chars().all(safe) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// `--plan`: the command of every task, then the merge in a comment line.
fn print_plan(args: &SweepArgs, a: &StudyArgs, size: u64) -> u8 {
    let m = args.shards.unwrap_or(1);
    let dir = args.plan_dir.as_deref().unwrap_or(PLAN_DIR);
    let mut base: Vec<String> = vec!["ludic".into(), "sweep".into(), args.game.clone()];
    for o in &args.options {
        base.extend(["-o".into(), o.clone()]);
    }
    for v in &args.variants {
        base.extend(["--variant".into(), v.clone()]);
    }
    base.extend([
        "-n".into(),
        a.n.to_string(),
        "--seed".into(),
        a.seed.to_string(),
    ]);
    if let Some(j) = a.jobs {
        base.extend(["-j".into(), j.to_string()]);
    }
    for ag in &a.agents {
        base.extend(["--agent".into(), ag.clone()]);
    }
    if a.quick {
        base.push("--quick".into());
    }
    let base: Vec<String> = base.iter().map(|w| sh_quote(w)).collect();
    let base = base.join(" ");
    let mut out = String::new();
    for k in 0..size {
        for i in 1..=m {
            let file = sh_quote(&format!("{dir}/point-{k}-shard-{i}.json"));
            out.push_str(&format!(
                "{base} --only {k} --shard {i}/{m} --format json --output {file}\n"
            ));
        }
    }
    out.push_str(&format!(
        "# ludic merge {}/*.json --format json --output sweep.json\n",
        sh_quote(dir)
    ));
    super::finish(
        std::io::Write::write_all(&mut std::io::stdout().lock(), out.as_bytes()).map(|()| OK),
    )
}

/// The output of a file, from --format or its extension (CSV for `.csv`, else JSON); a table
/// is refused.
fn file_output(path: &str, format: Option<StudyFormat>) -> Result<Output, String> {
    match format.map(Output::from) {
        Some(Output::Table) => Err(format!(
            "--output `{path}` is written as JSON or CSV, not as a table\nhint: give --format json or csv, or no --format (by the file's extension)"
        )),
        Some(o) => Ok(o),
        None if path.to_ascii_lowercase().ends_with(".csv") => Ok(Output::Csv),
        None => Ok(Output::Json),
    }
}

/// The sweep already in `path` to resume, when there is one: checked to be this sweep, its
/// points of `todo` done with the games of `range`. The error is the exit code (said).
fn resume_from(
    path: &str,
    output: Output,
    fresh: &Sweep,
    todo: &[u64],
    range: &Range<u64>,
) -> Result<Option<Sweep>, u8> {
    if std::fs::metadata(path).is_err() {
        return Ok(None);
    }
    let hint = "hint: give another --output file, or delete it to play the sweep again";
    if output == Output::Csv {
        to_stderr!(
            "error: `{path}` exists, and a sweep resumes only from its JSON\nhint: write the sweep with --output FILE.json (`ludic merge FILE.json --format csv` gives its CSV), or delete `{path}`"
        );
        return Err(USAGE);
    }
    let old = read_text_file(path, MAX_SWEEP_BYTES, "a sweep")
        .and_then(|text| Sweep::read(&text, path))
        .map_err(|e| {
            to_stderr!("error: {e}\n{hint}");
            FAILED
        })?;
    let d = old.differences(fresh);
    if !d.is_empty() {
        to_stderr!(
            "error: `{path}` holds another sweep: its {} differ (the file's first, this run's second)\n{hint}",
            d.join(", ")
        );
        return Err(USAGE);
    }
    let want = if range.is_empty() {
        vec![]
    } else {
        vec![[range.start, range.end]]
    };
    for p in old.done().filter(|p| todo.contains(&p.index)) {
        if let Some(r) = p.ranges().filter(|r| *r != want) {
            let games: Vec<String> = r.iter().map(|r| format!("{}..{}", r[0], r[1])).collect();
            to_stderr!(
                "error: `{path}` holds games {} of point {} ({}), and this run plays games {}..{}\nhint: give each shard its own --output file (`ludic merge` joins them)",
                games.join(", "),
                p.index,
                p.label,
                range.start,
                range.end
            );
            return Err(USAGE);
        }
    }
    Ok(Some(old))
}

/// Writes the sweep whole to `path` (its folder made if missing).
fn save(path: &str, sweep: &Sweep, output: Output) -> Result<(), String> {
    let mut bytes = vec![];
    write_sweep(&mut bytes, sweep, output, false).map_err(|e| e.to_string())?;
    if let Some(dir) = std::path::Path::new(path)
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
    {
        std::fs::create_dir_all(dir).map_err(|e| {
            format!(
                "cannot make the folder `{}`: {}",
                dir.display(),
                ludic::output::error_text(&e)
            )
        })?;
    }
    ludic::output::write_whole(path, &bytes, true)
        .map_err(|e| format!("cannot write `{path}`: {}", ludic::output::error_text(&e)))
}

/// `--report FILE`: the HTML report of the sweep as it stands (every point in it, played now
/// or kept from --output).
fn write_report(args: &SweepArgs, sweep: &Sweep) -> Result<(), String> {
    let Some(path) = &args.report else {
        return Ok(());
    };
    let html = ludic::study::html::sweep_report(&sweep.to_json(), &args.game)?;
    ludic::output::write_whole(path, html.as_bytes(), true).map_err(|e| {
        format!(
            "cannot write the report to `{path}`: {}",
            ludic::output::error_text(&e)
        )
    })?;
    to_stderr!("report written to {path}");
    Ok(())
}

/// `ludic sweep GAME -o NAME=SPEC…`
pub fn sweep(args: &SweepArgs, colour: bool) -> u8 {
    let a = args.study.resolve("sweep");
    catch_signals();
    let spec = SweepSpec::new(
        &args.game,
        &args.options,
        &args.variants,
        a.n,
        a.seed,
        &a.agents,
        a.quick,
    );
    let shard = a.shard.as_deref().map(parse_shard).transpose();
    let (spec, shard) = match (spec, shard) {
        (Ok(s), Ok(sh)) => (s, sh),
        (Err(e), _) | (_, Err(e)) => {
            to_stderr!("error: {e}");
            return USAGE;
        }
    };
    let output = match &args.output {
        Some(path) => match file_output(path, args.format) {
            Ok(o) => o,
            Err(e) => {
                to_stderr!("error: {e}");
                return USAGE;
            }
        },
        None => args.format.unwrap_or_default().into(),
    };
    let sweeper = match Sweeper::new(spec) {
        Ok(s) => s,
        Err(SweepError::Usage(e)) => {
            to_stderr!("error: {e}");
            return USAGE;
        }
        Err(SweepError::Game(e)) => {
            to_stderr!("error: {}", e.strip_prefix("error: ").unwrap_or(&e));
            return FAILED;
        }
    };
    if args.plan {
        return print_plan(args, &a, sweeper.size());
    }
    let todo: Vec<u64> = match args.only {
        Some(k) => match sweeper.point(k) {
            Ok(_) => vec![k],
            Err(e) => {
                to_stderr!(
                    "error: --only {k}: {e}\nhint: the points are numbered from 0 in grid order (the first axis varies slowest)"
                );
                return USAGE;
            }
        },
        None => (0..sweeper.size()).collect(),
    };
    let range = match sweeper.range(shard) {
        Ok(r) => r,
        Err(e) => {
            to_stderr!("error: {e}");
            return USAGE;
        }
    };
    play_sweep(args, &a, &sweeper, output, todo, range, colour)
}

/// Plays the points of `todo` not already done in `--output`, writing it after each.
fn play_sweep(
    args: &SweepArgs,
    a: &StudyArgs,
    sweeper: &Sweeper,
    output: Output,
    mut todo: Vec<u64>,
    range: Range<u64>,
    colour: bool,
) -> u8 {
    let mut sweep = sweeper.empty();
    let game = [Named::new("the game file", super::game_file(&args.game))];
    let mut files = vec![];
    if let Some(path) = &args.output {
        files.push(Named::new("the sweep (--output)", path));
    }
    if let Some(path) = &args.report {
        files.push(Named::new("the report (--report)", path));
    }
    if let Err(e) = check_outputs(&game, &files, args.output.is_none()) {
        to_stderr!("error: {e}");
        return USAGE;
    }
    if let Some(path) = &args.output {
        match resume_from(path, output, &sweep, &todo, &range) {
            Err(code) => return code,
            Ok(None) => {}
            Ok(Some(old)) => {
                let asked = todo.len();
                let done: Vec<u64> = old.done().map(|p| p.index).collect();
                todo.retain(|k| !done.contains(k));
                to_stderr!(
                    "{} of {asked} point{} already done in {path}{}",
                    asked - todo.len(),
                    if asked == 1 { "" } else { "s" },
                    if todo.is_empty() {
                        String::new()
                    } else {
                        format!(
                            ": playing the {} other{}",
                            todo.len(),
                            if todo.len() == 1 { "" } else { "s" }
                        )
                    }
                );
                sweep = old;
            }
        }
    }
    let threads = a.jobs.unwrap_or_else(default_threads).max(1);
    let per_point = range.end - range.start;
    let bar = super::progress::study_bar(per_point.saturating_mul(todo.len() as u64), "");
    let agents = !sweeper.agents().is_empty();
    let mut before = 0u64;
    // stopped: by a signal; cut: a point was stopped half-played (kept, marked partial)
    let (mut stopped, mut cut) = (false, false);
    for (n, &k) in todo.iter().enumerate() {
        let Ok(p) = sweeper.point(k) else { continue };
        bar.set_prefix(format!("point {}/{} {}", n + 1, todo.len(), p.label));
        let ctl = Control::default();
        stop_on_signal(&ctl, agents);
        let entry = sweeper.play(k, range.clone(), threads, &ctl, |done| {
            stop_on_signal(&ctl, agents);
            bar.set_position(before + done);
        });
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                bar.finish_and_clear();
                to_stderr!("error: {e}");
                return USAGE;
            }
        };
        before += per_point;
        if let Some(e) = &entry.error {
            bar.suspend(|| {
                to_stderr!(
                    "note: point {k} ({}) is refused by the game: {}",
                    p.label,
                    e.replace('\n', "; ")
                )
            });
        }
        if let Some(st) = entry
            .study
            .as_ref()
            .and_then(|v| ludic::study::Study::from_json(v, &p.label).ok())
        {
            bar.suspend(|| {
                after_study(
                    &st,
                    per_point,
                    &ctl,
                    sweeper.agents(),
                    &format!("point {k} ({})", p.label),
                )
            });
            (stopped, cut) = (st.partial, st.partial);
        }
        sweep.put(entry);
        if let Some(path) = &args.output
            && let Err(e) = save(path, &sweep, output)
        {
            bar.finish_and_clear();
            to_stderr!("error: {e}");
            return FAILED;
        }
        if stopped || interrupted() {
            stopped = true;
            break;
        }
    }
    bar.finish_and_clear();
    let code = if stopped { exit_code() } else { OK };
    if stopped {
        say_stopped(args.output.as_deref(), cut);
    } else {
        note_late_signal();
    }
    let code = match write_report(args, &sweep) {
        Ok(()) => code,
        Err(e) => {
            to_stderr!("error: {e}");
            return FAILED;
        }
    };
    match &args.output {
        Some(path) => {
            if todo.is_empty() {
                // (nothing played: the file is left as it was)
                return code;
            }
            let (done, size) = (sweep.done().count(), sweeper.size());
            if done < size as usize && !stopped && args.only.is_none() {
                to_stderr!("{path} holds {done} of the sweep's {size} points");
            } else {
                to_stderr!("sweep written to {path}: {done} of {size} points done");
            }
            code
        }
        None => super::finish(
            write_sweep(&mut std::io::stdout().lock(), &sweep, output, colour).map(|()| code),
        ),
    }
}

/// What a sweep stopped by a signal kept: where, and whether a point was cut half-played
/// (kept, marked partial) or the signal came between two points.
fn say_stopped(output: Option<&str>, cut: bool) {
    to_stderr!(
        "the points played are kept{}{}",
        output.map(|path| format!(" in {path}")).unwrap_or_default(),
        if cut {
            ", the point stopped marked partial"
        } else {
            " (stopped between two points)"
        }
    );
}
