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
    for p in (0..g.players.len()).filter(|_| !round_over && !g.is_between_rounds(after)) {
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
    if after.is_over() && g.between_start.is_some() && after.round() > 1 {
        parts.push(format!("the match ends after {} rounds", after.round()));
    }
    parts
}

/// Which way a ring direction goes on the screen, for the mover: `to the right along your
/// row` when the mover's own sites follow one another that way (or the whole ring's, when the
/// mover owns none); None when the ring does not go one way along a row.
pub(super) fn direction_hint(g: &Game, st: &State, word: &str) -> Option<String> {
    let names = g.dir_names.as_ref()?;
    let d = names.iter().position(|n| n.eq_ignore_ascii_case(word))?;
    let mover = st.mover();
    let mine = |s: usize| g.sites[s].owner == Some(mover);
    let owns_any = (0..g.sites.len()).any(mine);
    let (mut right, mut left) = (0, 0);
    for (s, &t) in g.next[d].iter().enumerate() {
        let t = t as usize;
        if t >= g.sites.len() || (owns_any && !(mine(s) && mine(t))) {
            continue;
        }
        if g.sites[s].y == g.sites[t].y {
            match g.sites[t].x.cmp(&g.sites[s].x) {
                std::cmp::Ordering::Greater => right += 1,
                std::cmp::Ordering::Less => left += 1,
                std::cmp::Ordering::Equal => {}
            }
        }
    }
    let whose = if owns_any { "your" } else { "the" };
    match (right > 0, left > 0) {
        (true, false) => Some(format!("to the right along {whose} row")),
        (false, true) => Some(format!("to the left along {whose} row")),
        _ => None,
    }
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
            g.pieces[k.0 as usize].name
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
    if let Some(summary) = &g.meta.summary {
        for line in summary.lines() {
            out.push_str(line.trim());
            out.push('\n');
        }
    }
    let width = g.labels.iter().map(|l| l.name.len()).max().unwrap_or(0);
    for l in g.labels.iter().filter(|l| l.doc.is_some()) {
        out.push_str(&format!(
            "  {:width$}  {}\n",
            l.name,
            l.doc.as_deref().unwrap_or_default()
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
