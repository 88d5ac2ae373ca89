//! The words of a game at the terminal: what happened, the moves, the prompt, the commands.

use ludic::Game;
use ludic::Player;
use ludic::agents::Estimate;
use ludic::{Pending, State};

/// What changed between two states, in words: captures, passes, sowings cut as cycles.
pub(super) fn what_happened(g: &Game, before: &State, after: &State) -> String {
    parenthesized(happenings(g, before, after))
}

/// ` (a; b)`, or nothing when there are no parts.
pub(super) fn parenthesized(parts: Vec<String>) -> String {
    if parts.is_empty() {
        String::new()
    } else {
        format!(" ({})", parts.join("; "))
    }
}

/// A search's estimate in words: `wins 71% of 48,000 playouts`.
pub(super) fn estimate_text(e: &Estimate) -> String {
    format!(
        "wins {:.0}% of {} playouts",
        100.0 * e.value,
        ludic::agents::mcts::thousands(e.playouts)
    )
}

/// What changed between two states, as a list of phrases.
pub(super) fn happenings(g: &Game, before: &State, after: &State) -> Vec<String> {
    let mut parts = vec![];
    let round_over = after.round() != before.round()
        || (g.is_between_rounds(after) && !g.is_between_rounds(before));
    if round_over {
        parts.push("the round is over".to_string());
    }
    for p in (0..g.players().len()).filter(|_| !round_over && !g.is_between_rounds(after)) {
        let p = Player(p as u8);
        let gained = after.score(g, p) - before.score(g, p);
        if gained > 0 {
            parts.push(format!(
                "{} gains {gained} point{}",
                g.player_name(p),
                if gained == 1 { "" } else { "s" }
            ));
        }
    }
    if after.is_over() && g.has_rounds() && after.round() > 1 {
        parts.push(format!("the match ends after {} rounds", after.round()));
    }
    parts
}

/// Which way a ring direction goes on the screen, for the mover ([`ludic::render::direction_hint`]).
pub(super) fn direction_hint(g: &Game, st: &State, word: &str) -> Option<String> {
    ludic::render::direction_hint(g, st, word)
}

pub(super) fn moves_text(g: &Game, st: &State) -> String {
    let names: Vec<String> = g
        .legal_notations(st)
        .into_iter()
        .map(|n| {
            let last = n.rsplit(' ').next().unwrap_or("");
            match direction_hint(g, st, last) {
                Some(h) => format!("{n} ({h})"),
                None => n,
            }
        })
        .collect();
    let mut out = String::new();
    for (i, n) in names.iter().enumerate() {
        out.push_str(&format!("  {:>2}. {n}", i + 1));
        if (i + 1) % 6 == 0 || i + 1 == names.len() {
            out.push('\n');
        }
    }
    out
}

pub(super) fn prompt_header(g: &Game, st: &State) -> String {
    let what = match st.pending() {
        Pending::Drop(k) => format!(
            " (where in this lap is the {} dropped? step 1 is the next site)",
            g.piece_kind(k).map_or("piece", |p| p.name)
        ),
        _ => String::new(),
    };
    format!(
        "Turn {}: {} to decide{what}",
        st.turn() + 1,
        g.player_name(st.mover())
    )
}

/// The commands typed at a turn, besides decisions.
pub(super) const COMMANDS: [&str; 7] = ["undo", "board", "moves", "help", "quit", "exit", "rules"];

/// The game's summary and what each decision label means (`rules` at a turn; `ludic rules GAME`
/// says more).
pub(super) fn rules_text(g: &Game) -> String {
    let mut out = String::new();
    if let Some(summary) = g.about().summary {
        for line in summary.lines() {
            out.push_str(line.trim());
            out.push('\n');
        }
    }
    let width = g.all_labels().map(|l| l.name.len()).max().unwrap_or(0);
    for l in g.all_labels().filter(|l| l.doc.is_some()) {
        out.push_str(&format!(
            "  {:width$}  {}\n",
            l.name,
            l.doc.unwrap_or_default()
        ));
    }
    out.push_str("(`ludic rules GAME` shows the options, variants and more)");
    out
}

/// A line of one word that is no decision but close to a command: the refusal says which.
pub(super) fn command_typo(line: &str) -> Option<String> {
    if line.contains(char::is_whitespace) {
        return None;
    }
    ludic::diagnostic::suggest(line, COMMANDS)
        .map(|c| format!("`{line}` is neither a move nor a command; did you mean `{c}`?"))
}

/// `1 line`, `2 lines`.
pub(crate) fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}
