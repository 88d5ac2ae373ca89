//! Merging a derived game onto its base (`game "…" from "base.game"`): the derived file's
//! blocks and declarations replace the base's of the same name, and the changes are listed
//! for `ludic rules`. Works on syntax trees only: `parse` calls it on the files of a composed
//! text, the deepest base first.

use crate::ast::{self, GameFile, OptionValue};

fn value_text(v: &OptionValue) -> String {
    match v {
        OptionValue::Int(n) => n.to_string(),
        OptionValue::Bool(true) => "on".into(),
        OptionValue::Bool(false) => "off".into(),
        OptionValue::Word(w) => w.clone(),
    }
}

/// Replaces the items of `base` by the items of `derived` of the same name, in place, and
/// adds the others at the end; `change` makes the replacement (and says what changed).
fn by_name<T>(
    base: Vec<T>,
    derived: Vec<T>,
    name: impl Fn(&T) -> String,
    what: &str,
    changes: &mut Vec<String>,
    mut change: impl FnMut(T, T) -> (T, String),
) -> Vec<T> {
    let mut out: Vec<(T, bool)> = base.into_iter().map(|b| (b, true)).collect();
    for d in derived {
        let n = name(&d);
        match out
            .iter()
            .position(|(b, from_base)| *from_base && name(b) == n)
        {
            Some(i) => {
                let (old, _) = out.remove(i);
                let (new, said) = change(old, d);
                changes.push(said);
                out.insert(i, (new, false));
            }
            None => {
                changes.push(format!("{what} {n} added"));
                out.push((d, false));
            }
        }
    }
    out.into_iter().map(|(x, _)| x).collect()
}

/// Replaces a block that is one per game, when the derived file has one.
fn whole<T>(base: Vec<T>, derived: Vec<T>, what: &str, changes: &mut Vec<String>) -> Vec<T> {
    if derived.is_empty() {
        base
    } else {
        changes.push(format!("{what} replaced"));
        derived
    }
}

/// The base with the derived file's declarations (see the module's doc).
pub fn merge(base: GameFile, derived: GameFile) -> GameFile {
    let mut ch = vec![];
    let mut meta = derived.meta;
    let base_meta = base.meta.into_iter().next().unwrap_or_default();
    if let Some(m) = meta.first_mut() {
        m.base = None;
        m.origin = m.origin.take().or(base_meta.origin);
        m.source = m.source.take().or(base_meta.source);
        m.summary = m.summary.take().or(base_meta.summary);
    }
    let options = by_name(
        base.options,
        derived.options,
        |o| o.name.name.clone(),
        "option",
        &mut ch,
        |b, d| {
            let was = value_text(&b.default);
            let now = value_text(&d.default);
            let name = d.name.name.clone();
            if d.domain.is_some() {
                (d, format!("option {name} redeclared ({was} -> {now})"))
            } else {
                let kept = ast::OptionDecl {
                    name: d.name,
                    default: d.default,
                    default_span: d.default_span,
                    domain: b.domain,
                    doc: d.doc.or(b.doc),
                    span: d.span,
                };
                let said = if was == now {
                    format!("option {name} ({now}, unchanged)")
                } else {
                    format!("option {name} ({was} -> {now})")
                };
                (kept, said)
            }
        },
    );
    let variants = by_name(
        base.variants,
        derived.variants,
        |v| format!("\"{}\"", v.name),
        "variant",
        &mut ch,
        |_, d| {
            let said = format!("variant \"{}\" replaced", d.name);
            (d, said)
        },
    );
    macro_rules! named {
        ($field:ident, $what:expr, $name:expr) => {
            by_name(
                base.$field,
                derived.$field,
                $name,
                $what,
                &mut ch,
                |_, d| {
                    let said = format!("{} {} replaced", $what, $name(&d));
                    (d, said)
                },
            )
        };
    }
    let defs = named!(defs, "def", |d: &ast::Def| d.name.name.clone());
    let actions = named!(actions, "action", |d: &ast::ActionDecl| d.name.name.clone());
    let dice = named!(dice, "dice", |d: &ast::DiceDecl| d.name.name.clone());
    let tallies = named!(tallies, "tally", |d: &ast::TallyDecl| d.name.name.clone());
    let labels = named!(labels, "label", |d: &ast::LabelDoc| d.label.name.clone());
    // pieces: by name within the base's block; a second block of the derived file stays, to
    // be reported as one too many
    let mut pieces = base.pieces;
    let mut derived_pieces = derived.pieces.into_iter();
    if let Some(first) = derived_pieces.next() {
        if pieces.is_empty() {
            ch.push("pieces added".into());
            pieces.push(first);
        } else {
            let b = std::mem::take(&mut pieces[0]);
            pieces[0] = by_name(
                b,
                first,
                |p: &ast::PieceDecl| p.name.name.clone(),
                "piece",
                &mut ch,
                |_, d| {
                    let said = format!("piece {} replaced", d.name.name);
                    (d, said)
                },
            );
        }
        pieces.extend(derived_pieces);
    }
    let (sides, sides_spans) = if derived.sides.is_empty() {
        (base.sides, base.sides_spans)
    } else {
        ch.push("sides replaced".into());
        (derived.sides, derived.sides_spans)
    };
    let mut requires = base.requires;
    if !derived.requires.is_empty() {
        ch.push(format!("{} require added", derived.requires.len()));
    }
    requires.extend(derived.requires);
    let boards = whole(base.boards, derived.boards, "board", &mut ch);
    let starts = whole(base.starts, derived.starts, "start", &mut ch);
    let turns = whole(base.turns, derived.turns, "turn", &mut ch);
    let betweens = whole(base.betweens, derived.betweens, "between rounds", &mut ch);
    let limits = whole(base.limits, derived.limits, "limit", &mut ch);
    let positions = whole(base.positions, derived.positions, "position", &mut ch);
    let team_size = whole(
        base.team_size,
        derived.team_size,
        "players per side",
        &mut ch,
    );
    GameFile {
        meta,
        options,
        variants,
        requires,
        sides,
        sides_spans,
        boards,
        pieces,
        starts,
        defs,
        turns,
        limits,
        dice,
        actions,
        team_size,
        tallies,
        positions,
        betweens,
        labels,
        version: derived.version.or(base.version),
        span: derived.span,
        derivation: Some(ast::Derivation {
            base: base_meta.name,
            changes: ch,
        }),
    }
}
