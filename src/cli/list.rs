//! `ludic list`: the built-in games, their options, throws and variants.

use super::{FAILED, Format, OK};
use ludic::Game;
use ludic::Settings;
use ludic::{builtin, load_game};
use serde_json::json;
use std::collections::BTreeMap;
use std::io::Write;

/// For each set of dice: (name, [(value, chart name, number of ways out of all)]) in chart order.
type ThrowRows = Vec<(i64, Option<String>, usize)>;

fn throw_table(g: &Game) -> Vec<(String, ThrowRows)> {
    g.all_dice()
        .map(|d| {
            let mut rows: ThrowRows = vec![];
            for &(value, name, _) in &d.outcomes {
                match rows
                    .iter_mut()
                    .find(|(v, n, _)| *v == value && n.as_deref() == name)
                {
                    Some(r) => r.2 += 1,
                    None => rows.push((value, name.map(str::to_string), 1)),
                }
            }
            rows.sort_by_key(|r| r.0);
            (d.name.to_string(), rows)
        })
        .collect()
}

/// Each option as a line, indented by four: `    seeds        default 12     in 2..40 …`.
pub(super) fn write_options(w: &mut impl Write, g: &Game) -> std::io::Result<()> {
    for o in g.all_options() {
        let line = format!(
            "    {:<12} default {:<6} in {:<14} {}",
            o.name,
            o.default,
            o.domain,
            o.doc.unwrap_or("")
        );
        writeln!(w, "{}", line.trim_end())?;
    }
    Ok(())
}

/// Each set of dice as a line, indented by two: `  throw grains: 1 4/16, 2 6/16, …`.
pub(super) fn write_throws(w: &mut impl Write, g: &Game) -> std::io::Result<()> {
    for (name, probs) in throw_table(g) {
        let total: usize = probs.iter().map(|(_, _, k)| k).sum();
        let text: Vec<String> = probs
            .iter()
            .map(|(v, n, k)| {
                format!(
                    "{v}{} {k}/{total}",
                    n.as_ref().map(|n| format!(" {n}")).unwrap_or_default()
                )
            })
            .collect();
        writeln!(w, "  throw {name}: {}", text.join(", "))?;
    }
    Ok(())
}

/// Each variant as a line, indented by four: `    "seven holes"  holes=7 stones=7 (doc)`.
pub(super) fn write_variants(w: &mut impl Write, g: &Game) -> std::io::Result<()> {
    for v in g.all_variants() {
        let sets: Vec<String> = v.sets.iter().map(|(k, x)| format!("{k}={x}")).collect();
        writeln!(
            w,
            "    {:<14} {} ({})",
            format!("\"{}\"", v.name),
            sets.join(" "),
            v.doc.unwrap_or("")
        )?;
    }
    Ok(())
}

/// The options as data: name, default, domain, doc.
pub(super) fn options_json(g: &Game) -> Vec<serde_json::Value> {
    g.all_options()
        .map(|o| {
            json!({
                "name": o.name, "default": o.default, "domain": o.domain, "doc": o.doc,
            })
        })
        .collect()
}

/// The throws as data: each set of dice with its values and the ways to get each.
pub(super) fn throws_json(g: &Game) -> Vec<serde_json::Value> {
    throw_table(g)
        .into_iter()
        .map(|(name, probs)| {
            json!({
                "dice": name,
                "outcomes": probs.iter().map(|(v, n, k)| json!({"value": v, "name": n, "ways": k})).collect::<Vec<_>>(),
                "ways": probs.iter().map(|(_, _, k)| k).sum::<usize>(),
            })
        })
        .collect()
}

/// The variants as data: name, doc and the options each sets.
pub(super) fn variants_json(g: &Game) -> Vec<serde_json::Value> {
    g.all_variants()
        .map(|v| {
            json!({
                "name": v.name, "doc": v.doc,
                "sets": v.sets.iter().map(|(k, x)| (k.to_string(), x.clone())).collect::<BTreeMap<_, _>>(),
            })
        })
        .collect()
}

// Arguments of `ludic list`.
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  ludic list\n  ludic list --format json")]
pub struct ListArgs {
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
}

/// `ludic list`
pub fn list(args: &ListArgs) -> u8 {
    super::finish(list_to(&mut std::io::stdout().lock(), args.format))
}

/// A built-in game as `ludic list --format json` shows it (and `ludic serve`'s `/api/games`).
pub(crate) fn game_json(stem: &str, g: &Game) -> serde_json::Value {
    json!({
        "name": stem,
        "title": g.title(),
        "aliases": g.about().aliases,
        "origin": g.about().origin,
        "sides": g.sides(),
        "players": g.players(),
        "options": options_json(g),
        "throws": throws_json(g),
        "variants": variants_json(g),
    })
}

fn list_to(w: &mut impl Write, format: Format) -> std::io::Result<u8> {
    let mut out = vec![];
    for (stem, src) in builtin::GAMES {
        match load_game(src, &Settings::default()) {
            Ok(g) => out.push((stem, g)),
            Err(_) => {
                to_stderr!(
                    "error: the built-in game `{stem}` does not load (run `ludic validate` on its file)"
                );
                return Ok(FAILED);
            }
        }
    }
    match format {
        Format::Json => {
            let v: Vec<serde_json::Value> =
                out.iter().map(|(stem, g)| game_json(stem, g)).collect();
            super::write_json(w, &v)?;
        }
        Format::Text => {
            for (stem, g) in &out {
                let aka = if g.about().aliases.is_empty() {
                    String::new()
                } else {
                    format!(" (also {})", g.about().aliases.join(", "))
                };
                writeln!(w, "{stem}: {}{aka}", g.title())?;
                if let Some(o) = &g.about().origin {
                    writeln!(w, "  origin: {o}")?;
                }
                writeln!(w, "  sides: {}", g.sides().join(", "))?;
                writeln!(w, "  options:")?;
                write_options(w, g)?;
                write_throws(w, g)?;
                if g.all_variants().next().is_some() {
                    writeln!(w, "  variants:")?;
                    write_variants(w, g)?;
                }
                writeln!(w)?;
            }
        }
    }
    Ok(OK)
}
