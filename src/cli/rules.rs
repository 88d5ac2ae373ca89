//! `ludic rules GAME`: what a player needs before the first move, all from the game file: its
//! name, origin and source, its summary, sides, options, variants and throws, a picture of the
//! start position, the glossary of its decision labels, and how a decision is typed.

use super::list::{
    options_json, throws_json, variants_json, write_options, write_throws, write_variants,
};
use super::{Format, OK, OptionArgs, fmt_options, load_for_command};
use ludic::render::{board_text, state_json};
use ludic::{Game, Pending, State};
use serde_json::json;
use std::io::Write;

// Arguments of `ludic rules`.
#[derive(clap::Args)]
#[command(
    after_help = "GAME is a built-in game, by any name `ludic list` shows, or a .game file. Options and a\nvariant apply as in `play`: the start position drawn is theirs.\n\nExamples:\n  ludic rules GAME\n  ludic rules GAME --variant NAME -o NAME=VALUE\n  ludic rules my.game --format json\n\nExit codes: 0 success, 1 unknown or invalid game or unwritable output, 2 usage error."
)]
pub struct RulesArgs {
    /// A built-in game or a .game file
    pub game: String,
    #[command(flatten)]
    pub opts: OptionArgs,
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
}

/// `ludic rules`
pub fn rules(args: &RulesArgs) -> u8 {
    let (label, _, g) =
        match load_for_command(&args.game, &args.opts.options, args.opts.variant.as_deref()) {
            Ok(x) => x,
            Err(code) => return code,
        };
    let in_force = !args.opts.options.is_empty() || args.opts.variant.is_some();
    super::finish(rules_to(
        &mut std::io::stdout().lock(),
        &label,
        &g,
        in_force,
        args.format,
    ))
}

/// The first decision point from the start, reached by taking the first outcome of each
/// chance event on the way (or, when that never reaches a decision, as when equal dice are
/// thrown again, the outcomes in turn: the first, the second…): the chance events in words,
/// and the state there (`None` when the game ends or nothing is decided within a few steps).
fn first_decision(g: &Game) -> (Vec<String>, Option<State>) {
    match first_decision_by(g, |_| 0) {
        (_, None) => first_decision_by(g, |k| k),
        found => found,
    }
}

/// [`first_decision`], taking outcome `pick(k)` (modulo their number) at the `k`th chance event.
fn first_decision_by(g: &Game, pick: impl Fn(usize) -> usize) -> (Vec<String>, Option<State>) {
    let mut st = g.start();
    let mut chances = vec![];
    for k in 0..64 {
        let nth = |n: usize| pick(k) % n.max(1);
        let text = match st.pending() {
            Pending::Choice(_) | Pending::Drop(_) => return (chances, Some(st)),
            Pending::Over(_) => break,
            Pending::ChanceFirst => {
                let outcomes = g.chance_outcomes(&st);
                outcomes
                    .get(nth(outcomes.len()))
                    .map(|&(o, _)| (o, format!("{} plays first", g.outcome_name(&st, o))))
            }
            Pending::Throw(d) => {
                let outcomes = g.chance_outcomes(&st);
                outcomes.get(nth(outcomes.len())).map(|&(o, _)| {
                    (
                        o,
                        format!(
                            "{} throws {}",
                            g.player_name(st.mover()),
                            g.throw_text(d, o as u16)
                        ),
                    )
                })
            }
        };
        let Some((o, text)) = text else { break };
        if g.play_chance(&mut st, o).is_err() {
            break;
        }
        chances.push(text);
    }
    (chances, None)
}

pub(super) fn rules_to(
    w: &mut impl Write,
    label: &str,
    g: &Game,
    in_force: bool,
    format: Format,
) -> std::io::Result<u8> {
    let facts = Facts::of(g);
    if format == Format::Json {
        write_rules_json(w, label, g, &facts)?;
        return Ok(OK);
    }
    write_heading(w, label, g)?;
    write_settings(w, g, in_force)?;
    writeln!(w)?;
    writeln!(w, "The start:")?;
    writeln!(w, "{}", board_text(g, &facts.start).trim_end())?;
    writeln!(w)?;
    writeln!(w, "Decisions:")?;
    write_glossary(w, g, &facts)?;
    write_typing(w, label, &facts)?;
    Ok(OK)
}

/// What the rules say that is worked out from the game rather than written in it.
struct Facts {
    start: State,
    /// the chance outcomes before the first decision
    chances: Vec<String>,
    /// the legal decisions at the first decision
    examples: Vec<String>,
    /// values typed alone (see [`Game::unlabeled_values`])
    values: Vec<String>,
    /// a lap may carry pieces of several kinds (see [`Game::orders_drops`])
    drops: bool,
}

impl Facts {
    fn of(g: &Game) -> Facts {
        let (chances, at) = first_decision(g);
        Facts {
            start: g.start(),
            chances,
            examples: at
                .as_ref()
                .map(|st| g.legal_notations(st))
                .unwrap_or_default(),
            values: g.unlabeled_values().into_iter().map(String::from).collect(),
            drops: g.orders_drops(),
        }
    }
}

/// The rules as JSON.
fn write_rules_json(
    w: &mut impl Write,
    label: &str,
    g: &Game,
    facts: &Facts,
) -> std::io::Result<()> {
    let Facts {
        start,
        chances,
        examples,
        values,
        drops,
    } = facts;
    let m = g.about();
    let v = json!({
        "name": label,
        "title": m.title,
        "aliases": m.aliases,
        "origin": m.origin,
        "source": m.source,
        "summary": m.summary,
        "based_on": m.based_on,
        "changes": m.changes,
        "sides": g.sides(),
        "players": g.players(),
        "options": options_json(g),
        "in_force": g.all_options().map(|o| (o.name, o.value)).collect::<std::collections::BTreeMap<_, _>>(),
        "variants": variants_json(g),
        "throws": throws_json(g),
        "start": {
            "board": board_text(g, start),
            "state": state_json(g, start),
        },
        "labels": g.all_labels().map(|l| json!({"label": l.name, "description": l.doc})).collect::<Vec<_>>(),
        "values_alone": values,
        "ordered_drops": drops,
        "example": {
            "after": chances,
            "decisions": examples,
        },
        "guide": guide_of(label),
    });
    super::write_json(w, &v)
}

/// The name, origin, source, file, base, summary, sides and players.
fn write_heading(w: &mut impl Write, label: &str, g: &Game) -> std::io::Result<()> {
    let m = g.about();
    let aka = if m.aliases.is_empty() {
        String::new()
    } else {
        format!(" (also {})", m.aliases.join(", "))
    };
    writeln!(w, "{}{aka}", m.title)?;
    if let Some(o) = m.origin {
        writeln!(w, "  origin: {o}")?;
    }
    if let Some(s) = m.source {
        for (i, line) in wrap(s, 88).iter().enumerate() {
            writeln!(
                w,
                "  {}{line}",
                if i == 0 { "source: " } else { "        " }
            )?;
        }
    }
    if ludic::builtin::find(label).is_none() {
        writeln!(w, "  file: {label}")?;
    }
    if let Some(base) = m.based_on {
        writeln!(w, "  based on {base}; changes: {}", m.changes.join(", "))?;
    }
    if let Some(s) = m.summary {
        writeln!(w)?;
        for line in s.lines() {
            writeln!(w, "  {line}")?;
        }
    }
    writeln!(w)?;
    writeln!(w, "Sides: {} (in turn order)", g.sides().join(", "))?;
    if g.players().len() > g.sides().len() {
        writeln!(w, "Players: {}", g.players().join(", "))?;
    }
    Ok(())
}

/// The options (and those in force), the variants and the throws.
fn write_settings(w: &mut impl Write, g: &Game, in_force: bool) -> std::io::Result<()> {
    if g.all_options().next().is_some() {
        writeln!(w)?;
        writeln!(w, "Options (set with -o NAME=VALUE):")?;
        write_options(w, g)?;
        if in_force {
            writeln!(w, "  in force: {}", fmt_options(g))?;
        }
    }
    if g.all_variants().next().is_some() {
        writeln!(w)?;
        writeln!(w, "Variants (play with --variant NAME):")?;
        write_variants(w, g)?;
    }
    if g.all_dice().next().is_some() {
        writeln!(w)?;
        writeln!(w, "Throws (value, ways out of all):")?;
        write_throws(w, g)?;
    }
    Ok(())
}

/// What each decision label means, the values typed alone and the drops of a lap.
fn write_glossary(w: &mut impl Write, g: &Game, facts: &Facts) -> std::io::Result<()> {
    let (values, drops) = (&facts.values, facts.drops);
    let mut rows: Vec<(String, String)> = g
        .all_labels()
        .map(|l| {
            let doc = l.doc.unwrap_or("(not described)");
            (l.name.to_string(), doc.to_string())
        })
        .collect();
    if !values.is_empty() {
        rows.push((
            values.join(" "),
            "a choice among these values, typed alone".to_string(),
        ));
    }
    if drops {
        // the kinds after the first are the ones placed in a lap
        let piece = g
            .piece_kind(ludic::PieceKind(1))
            .or(g.piece_kind(ludic::PieceKind(0)));
        rows.push((
            format!("{}@3", piece.map_or("piece", |p| p.name)),
            "when a lap carries pieces of several kinds: drop this one at the lap's 3rd step"
                .to_string(),
        ));
    }
    let width = rows
        .iter()
        .map(|(n, _)| n.chars().count())
        .max()
        .unwrap_or(0);
    for (name, doc) in &rows {
        writeln!(w, "  {name:<width$}  {doc}")?;
    }
    Ok(())
}

/// How a decision is typed, the legal decisions at the start, and the player's guide.
fn write_typing(w: &mut impl Write, label: &str, facts: &Facts) -> std::io::Result<()> {
    let (chances, examples) = (&facts.chances, &facts.examples);
    writeln!(w)?;
    writeln!(
        w,
        "A decision is typed as its label and value (`{}`), as its number in the list of legal\ndecisions, or as its last word when only one decision ends with it; several decisions\nmay be typed on one line.",
        examples
            .first()
            .map(String::as_str)
            .unwrap_or("LABEL VALUE")
    )?;
    if !examples.is_empty() {
        let after = if chances.is_empty() {
            " ".to_string()
        } else {
            format!(", after: {};\n", chances.join("; "))
        };
        let shown: Vec<String> = examples.iter().take(2).map(|e| format!("`{e}`")).collect();
        let more = if examples.len() > 2 {
            format!(", … ({} in all)", examples.len())
        } else {
            String::new()
        };
        writeln!(
            w,
            "For example, at the start{after}the legal decisions are {}{more}.",
            shown.join(", ")
        )?;
    }
    if let Some(guide) = guide_of(label) {
        let place = if ludic::builtin::find(label).is_some() {
            " (in the ludic repository)"
        } else {
            ""
        };
        writeln!(w)?;
        writeln!(
            w,
            "The player's guide, with what ludic decided where the source is silent:\n  {guide}{place}"
        )?;
    }
    Ok(())
}

/// The player's guide of a game: `games/STEM.md` of the ludic repository for a built-in game,
/// the `.md` file beside a `.game` file when there is one, else none.
fn guide_of(label: &str) -> Option<String> {
    if let Some((stem, _)) = ludic::builtin::find(label) {
        return Some(ludic::builtin::guide_path(stem));
    }
    let md = std::path::Path::new(label).with_extension("md");
    (md.is_file() && md != std::path::Path::new(label)).then(|| md.display().to_string())
}

/// Words of `text` in lines of at most `width` characters (a longer word alone on its line).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = vec![];
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(l) if l.chars().count() + 1 + word.chars().count() <= width => {
                l.push(' ');
                l.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}
