//! Showing a position: the board as text for people, the state as JSON for scripts, and what
//! a step did in words ([`narrate`]).

mod directions;
mod lattice;
mod marks;
pub mod narrate;
pub mod svg;
mod tallies;

pub use directions::direction_hint;
use lattice::lattice_text;
pub(crate) use marks::kind_letters;
use marks::{Marks, initials, only_tokens};
pub(crate) use tallies::tallies_shown;
pub use tallies::tallies_that_change;

use crate::engine::Game as Engine;
use crate::engine::{EndReason, Outcome, Pending, State};
use crate::ir::*;
use serde_json::{Map, Value, json};

/// How a board is drawn: in colour or not, and the sites to mark (the last move's).
#[derive(Clone, Copy, Default)]
pub struct Look<'a> {
    /// ANSI colours: each side's pieces and sites in its colour, marked sites in reverse video
    pub colour: bool,
    /// sites to mark: in reverse video with colour, else between brackets (`[5]`)
    pub marked: &'a [SiteId],
}

/// The terminal colour of each side, in the order of the sides.
const SIDE_STYLES: [anstyle::AnsiColor; 6] = [
    anstyle::AnsiColor::Cyan,
    anstyle::AnsiColor::Yellow,
    anstyle::AnsiColor::Magenta,
    anstyle::AnsiColor::Green,
    anstyle::AnsiColor::Blue,
    anstyle::AnsiColor::Red,
];

/// `text` in the colour of `side` (if any), reversed when `marked`; plain without colour.
fn paint(look: &Look, text: &str, side: Option<usize>, marked: bool) -> String {
    if !look.colour {
        return text.to_string();
    }
    let mut style = anstyle::Style::new();
    if let Some(side) = side {
        style = style
            .fg_color(Some(SIDE_STYLES[side % SIDE_STYLES.len()].into()))
            .bold();
    }
    if marked {
        style = style.invert();
    }
    format!("{}{text}{}", style.render(), style.render_reset())
}

/// The side whose colour a site takes: its top token's, else its owner's.
fn site_side(g: &Game, st: &State, s: SiteId) -> Option<usize> {
    if !g.tokens.is_empty()
        && let Some(&t) = st.tokens().stack(s).last()
    {
        return Some(g.side_of(g.tokens[t].owner).0 as usize);
    }
    st.site_owner(s).map(|p| g.side_of(p).0 as usize)
}

/// The contents of a site in a few characters: `12`, `0+big`, `3+2big`; for tokens, the
/// owners' marks from the top of the stack down (`SN`, `S1N2` in teams), `.` when empty.
fn contents(g: &Game, st: &State, s: SiteId) -> String {
    // every kind a kind of tokens: the tokens' marks (with their kinds when there are several)
    if only_tokens(g) {
        let marks = Marks::new(g);
        let stack = st.tokens().stack(s);
        if stack.is_empty() {
            return ".".into();
        }
        return stack.iter().rev().map(|&t| marks.of(g, st, t)).collect();
    }
    let mut out = st.count(g, s, PieceKind(0)).to_string();
    for k in 1..g.pieces.len() {
        let c = st.count(g, s, PieceKind(k as u8));
        if c == 1 {
            out.push_str(&format!("+{}", g.pieces[k].name));
        } else if c > 1 {
            out.push_str(&format!("+{c}{}", g.pieces[k].name));
        }
    }
    out
}

/// The widest cell of the board, in characters: longer contents are cut with `…`.
const CELL: usize = 24;

/// The width of a board drawn as text that the cells of stacks of tokens try to keep within.
const BOARD_WIDTH: usize = 80;

/// The pieces of kind `k` in the game (counters on the board and held by the players).
pub(crate) fn pieces_of_kind(g: &Game, st: &State, k: PieceKind) -> u64 {
    let on: u64 = (0..g.sites.len())
        .map(|s| st.count(g, SiteId(s as u16), k) as u64)
        .sum();
    let held: u64 = (0..g.players.len())
        .map(|p| st.captured(g, Player(p as u8), k) as u64)
        .sum();
    on + held
}

/// The widest contents a site of this game can show, so that the columns keep their widths
/// from move to move: with counters, every piece of the game on one site (the number of plain
/// pieces, then `+2big` for each other kind), as much of it as lets `cols` columns fit in
/// [`BOARD_WIDTH`] characters; with tokens, a stack of all the tokens (each
/// owner's mark), as much of it as lets `cols` columns fit in [`BOARD_WIDTH`] characters (at
/// least two marks, or the longest site name): a taller stack shows its top (`SNS+4`).
fn widest_contents(g: &Game, st: &State, cols: usize) -> usize {
    if only_tokens(g) {
        let marks = Marks::new(g);
        let mark = (0..g.tokens.len())
            .map(|t| marks.of(g, st, t).chars().count())
            .max()
            .unwrap_or(1);
        let name = g
            .sites
            .iter()
            .map(|s| s.name.chars().count())
            .max()
            .unwrap_or(1);
        let room = (BOARD_WIDTH / cols.max(1)).saturating_sub(2).max(2 * mark);
        return (mark * g.tokens.len()).min(room).max(name).max(1);
    }
    let total = |k: usize| pieces_of_kind(g, st, PieceKind(k as u8));
    let digits = |n: u64| n.max(1).to_string().len();
    let mut w = digits(total(0));
    for k in 1..g.pieces.len() {
        let n = total(k);
        w += 1 + g.pieces[k].name.chars().count() + if n > 1 { digits(n) } else { 0 };
    }
    // within a board of BOARD_WIDTH characters (with the marks of the last move and the
    // spaces between columns): rarer, wider contents widen their column for that position only
    let room = (BOARD_WIDTH / cols.max(1))
        .saturating_sub(4)
        .max(digits(total(0)));
    w.min(CELL).min(room)
}

/// A stack of tokens too tall for its cell: its top marks and the number of the others
/// (`SNS+4`); None for counters.
fn shortened_stack(g: &Game, st: &State, s: SiteId, width: usize) -> Option<String> {
    if !only_tokens(g) {
        return None;
    }
    let marks = Marks::new(g);
    let stack = st.tokens().stack(s);
    let mut out = String::new();
    for (i, &t) in stack.iter().rev().enumerate() {
        let mark = marks.of(g, st, t);
        let rest = format!("+{}", stack.len() - i);
        if out.chars().count() + mark.chars().count() + rest.len() > width && i > 0 {
            return Some(out + &rest);
        }
        out.push_str(&mark);
    }
    Some(out)
}

/// `text` centred in `width` characters (cut with `…` when longer), as `{:^width$}` would
/// without its limit on widths.
fn centered(text: &str, width: usize) -> String {
    let len = text.chars().count();
    let (shown, len) = if len > width {
        let cut: String = text.chars().take(width.saturating_sub(1)).collect();
        (cut + "…", width)
    } else {
        (text.to_string(), len)
    };
    let left = (width - len) / 2;
    format!(
        "{}{shown}{}",
        " ".repeat(left),
        " ".repeat(width - len - left)
    )
}

/// A site whose kind or owner is no longer what the board gave it.
fn changed(g: &Game, st: &State, s: SiteId) -> bool {
    let info = &g.sites[s.0 as usize];
    st.site_kind(s) != info.kind || st.site_owner(s) != info.owner
}

/// `1 point`, `3 points`.
fn points(n: i64) -> String {
    format!("{n} point{}", if n == 1 { "" } else { "s" })
}

/// Text escaped for XML and HTML (the pictures, the reports): the five special characters as
/// entities, and a control character other than a newline or a tab (which XML does not allow)
/// as a space.
///
/// ```
/// assert_eq!(ludic::render::xml_escape("a<b & 'c'\u{1}"), "a&lt;b &amp; &#39;c&#39; ");
/// ```
pub fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() && c != '\n' && c != '\t' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// What a player holds, in words: `3 stone`, `1 stone + big (8 points)`: the points when they
/// are not simply the number of pieces (several kinds, or a kind worth more than one).
pub fn holdings(g: &Game, st: &State, p: Player) -> String {
    let mut parts = vec![];
    for (k, piece) in g.pieces.iter().enumerate() {
        let c = st.captured(g, p, PieceKind(k as u8));
        if k == 0 || c > 0 {
            parts.push(if k > 0 && c == 1 {
                piece.name.clone()
            } else {
                format!("{c} {}", piece.name)
            });
        }
    }
    let plain = g.pieces.len() == 1 && g.pieces.iter().all(|p| p.value == 1);
    if plain {
        parts.join(" + ")
    } else {
        format!("{} ({})", parts.join(" + "), points(st.score(g, p)))
    }
}

/// Where a player stands, as the game counts it: his holdings (and their points) when the
/// game has counters, his tallies that are not zero, and where his tokens are: `40 seed`,
/// `12 stone + big (19 points), debt 2`, `2 on the board, 3 killed`.
pub fn standing(g: &Game, st: &State, p: Player) -> String {
    let mut parts = vec![];
    if g.tokens.is_empty() || g.pieces.len() > 1 {
        parts.push(holdings(g, st, p));
    }
    for t in g.tallies.iter().filter(|t| t.per_player) {
        match st.tally_value(t, Some(p)) {
            Some(v) if v != 0 => parts.push(format!("{} {v}", t.name)),
            _ => {}
        }
    }
    if !g.tokens.is_empty() {
        parts.push(tokens_text(g, st, p));
    }
    parts.join(", ")
}

/// Where a player's tokens are: `2 on the board, 1 waiting, 1 finished`.
fn tokens_text(g: &Game, st: &State, p: Player) -> String {
    let mine: Vec<usize> = (0..g.tokens.len())
        .filter(|&t| g.tokens[t].owner == p)
        .collect();
    let on_board = mine
        .iter()
        .filter(|&&t| st.tokens().site_of(t).is_some())
        .count();
    let mut parts = vec![format!("{on_board} on the board")];
    for (a, name) in g.areas.iter().enumerate() {
        let n = mine
            .iter()
            .filter(|&&t| st.tokens().area_of(t) == Some(a as u8))
            .count();
        parts.push(format!("{n} {name}"));
    }
    parts.join(", ")
}

/// The board as text: one row of sites per y coordinate (highest first), each site as its name
/// above its contents; marks for sites whose kind or owner changed; the captures; whose turn.
pub fn board_text(g: &Game, st: &State) -> String {
    board_view(g, st, &Look::default())
}

/// The board as text, in colour or not, with the sites of `look.marked` marked.
pub fn board_view(g: &Game, st: &State, look: &Look) -> String {
    let n = g.sites.len();
    if n == 0 {
        return String::new();
    }
    if !g.dirs.is_empty() {
        return lattice_text(g, st, look) + &summary_text(g, st);
    }
    let is_marked = |i: usize| look.marked.contains(&SiteId(i as u16));
    let min_x = g.sites.iter().map(|s| s.x).min().unwrap_or(0);
    let max_x = g.sites.iter().map(|s| s.x).max().unwrap_or(0);
    let mut ys: Vec<i64> = g.sites.iter().map(|s| s.y).collect();
    ys.sort_unstable_by(|a, b| b.cmp(a));
    ys.dedup();
    let cols = (max_x - min_x + 1).clamp(1, 200) as usize;
    let stable = widest_contents(g, st, cols);
    let stacks = only_tokens(g);
    let cells: Vec<(String, String)> = (0..n)
        .map(|i| {
            let s = SiteId(i as u16);
            let bracket = is_marked(i) && !look.colour;
            let mut c = contents(g, st, s);
            if changed(g, st, s) {
                c.push('*');
            }
            if bracket {
                c = format!("[{c}]");
            }
            // a stack too tall for its cell: its top marks and how many more (the brackets of
            // the last move are left out when even that does not fit)
            if stacks && c.chars().count() > stable {
                c = shortened_stack(g, st, s, stable.saturating_sub(2 * usize::from(bracket)))
                    .filter(|_| bracket)
                    .map(|c| format!("[{c}]"))
                    .filter(|c| c.chars().count() <= stable)
                    .unwrap_or_else(|| shortened_stack(g, st, s, stable).unwrap_or(c));
            }
            (g.sites[i].name.clone(), c)
        })
        .collect();
    // The same widths all game long: from the widest contents the game can show, with room
    // for the marks of the last move (`[…]`, without colour; stacks of tokens are shortened
    // to fit instead).
    let marks = if look.colour || stacks { 0 } else { 2 };
    let width = cells
        .iter()
        .map(|(a, b)| a.chars().count().max(b.chars().count()))
        .chain([stable + marks])
        .max()
        .unwrap_or(1)
        .min(CELL)
        + 2;
    let mut out = String::new();
    for y in ys {
        let mut names = vec![" ".repeat(width); cols];
        let mut vals = vec![" ".repeat(width); cols];
        for (i, s) in g.sites.iter().enumerate() {
            if s.y != y {
                continue;
            }
            let col = (s.x - min_x).clamp(0, cols as i64 - 1) as usize;
            names[col] = centered(&cells[i].0, width);
            // coloured after centring, so that the escapes take no room
            let side = site_side(g, st, SiteId(i as u16));
            vals[col] = centered(&cells[i].1, width);
            if look.colour && (side.is_some() || is_marked(i)) {
                let v = &vals[col];
                let (lead, rest) = v.split_at(v.len() - v.trim_start().len());
                let body = rest.trim_end();
                let trail = &rest[body.len()..];
                vals[col] = format!("{lead}{}{trail}", paint(look, body, side, is_marked(i)));
            }
        }
        out.push_str(names.concat().trim_end());
        out.push('\n');
        out.push_str(vals.concat().trim_end());
        out.push('\n');
    }
    let mut notes = vec![];
    for i in 0..n {
        let s = SiteId(i as u16);
        let kind = st.site_kind(s);
        let special = kind == SiteKind::Store || changed(g, st, s);
        if special {
            let owner = st
                .site_owner(s)
                .map(|p| g.player_name(p).to_string())
                .unwrap_or_else(|| "nobody".into());
            let mark = if changed(g, st, s) { "*" } else { "" };
            notes.push(format!(
                "{}{mark}: {} of {owner}",
                g.sites[i].name,
                kind.name()
            ));
        }
    }
    for (name, members) in &g.regions {
        let sites: Vec<&str> = (0..n)
            .filter(|&i| members[i])
            .map(|i| g.sites[i].name.as_str())
            .collect();
        if !sites.is_empty() && sites.len() < n {
            out.push_str(&format!("{name}: {}\n", sites.join(" ")));
        }
    }
    if !notes.is_empty() {
        out.push_str(&wrap(
            &format!("special sites: {}", notes.join(", ")),
            WRAP,
            "  ",
        ));
    }
    out + &summary_text(g, st)
}

/// What a tally means, as the game file says (` - pieces put in each hole…`), or nothing.
fn tally_doc(t: &TallyInfo) -> String {
    t.doc
        .as_ref()
        .map(|d| format!(" - {}", d.trim()))
        .unwrap_or_default()
}

/// Captures, tokens per area, for each player.
fn summary_text(g: &Game, st: &State) -> String {
    let mut out = String::new();
    if g.between_start.is_some() && st.round() > 1 {
        out.push_str(&format!("round {}\n", st.round()));
    }
    let shown = tallies_shown(g, st);
    for (t, _) in g.tallies.iter().zip(&shown).filter(|&(_, &s)| s) {
        if t.per_player {
            let vals: Vec<String> = (0..g.players.len())
                .map(|p| {
                    let v = st.tally_value(t, Some(Player(p as u8))).unwrap_or(0);
                    format!("{} {v}", g.players[p])
                })
                .collect();
            out.push_str(&wrap(
                &format!("{}: {}{}", t.name, vals.join(", "), tally_doc(t)),
                WRAP,
                "  ",
            ));
        } else if t.per_site {
            out.push_str(&wrap(
                &format!("{}: {}{}", t.name, st.site_tally_text(g, t), tally_doc(t)),
                WRAP,
                "  ",
            ));
        } else {
            let v = st.tally_value(t, None).unwrap_or(0);
            out.push_str(&wrap(
                &format!("{}: {v}{}", t.name, tally_doc(t)),
                WRAP,
                "  ",
            ));
        }
    }
    let has_counters = g.tokens.is_empty() || g.pieces.len() > 1;
    for p in 0..g.players.len() {
        let p = Player(p as u8);
        if has_counters {
            out.push_str(&format!(
                "{} holds off the board: {}\n",
                g.player_name(p),
                holdings(g, st, p)
            ));
        }
    }
    if !g.tokens.is_empty() {
        if g.players.len() > g.sides.len() {
            for side in 0..g.sides.len() {
                out.push_str(&team_tokens_text(g, st, Player(side as u8)));
            }
        } else {
            for p in 0..g.players.len() {
                let p = Player(p as u8);
                out.push_str(&format!(
                    "{}'s pieces: {}\n",
                    g.player_name(p),
                    tokens_text(g, st, p)
                ));
            }
        }
    }
    out
}

/// Where a team's tokens are, in one line for the side: how many on the board and in each
/// area, and whose (by their marks on the board): `South: 3 on the board (S1, S3×2), 20
/// waiting (…), 9 finished (S2×4, S4×4, S5)`.
fn team_tokens_text(g: &Game, st: &State, side: Player) -> String {
    let ini = initials(g);
    let members: Vec<Player> = (0..g.players.len())
        .map(|p| Player(p as u8))
        .filter(|&p| g.side_of(p) == side)
        .collect();
    let place = |t: usize| match st.tokens().site_of(t) {
        Some(_) => None,
        None => Some(st.tokens().area_of(t)),
    };
    let mut places: Vec<(String, Option<Option<u8>>)> = vec![("on the board".into(), None)];
    for (a, name) in g.areas.iter().enumerate() {
        places.push((name.clone(), Some(Some(a as u8))));
    }
    let parts: Vec<String> = places
        .iter()
        .map(|(name, at)| {
            let mut whose = vec![];
            let mut total = 0;
            for &p in &members {
                let n = (0..g.tokens.len())
                    .filter(|&t| g.tokens[t].owner == p && place(t) == *at)
                    .count();
                total += n;
                if n > 0 {
                    let mark = format!(
                        "{}{}",
                        ini[side.0 as usize],
                        p.0 as usize / g.sides.len() + 1
                    );
                    whose.push(if n == 1 { mark } else { format!("{mark}×{n}") });
                }
            }
            if whose.is_empty() {
                format!("{total} {name}")
            } else {
                format!("{total} {name} ({})", whose.join(", "))
            }
        })
        .collect();
    // wrapped between the parts (and between a part's players), never inside one
    let mut out = format!("{}:", g.side_name(side));
    let mut len = out.chars().count();
    let words: Vec<String> = parts
        .iter()
        .enumerate()
        .flat_map(|(i, p)| {
            let last = i + 1 == parts.len();
            let pieces: Vec<&str> = p.split(", ").collect();
            let n = pieces.len();
            pieces
                .into_iter()
                .enumerate()
                .map(move |(j, w)| {
                    if j + 1 < n || !last {
                        format!("{w},")
                    } else {
                        w.to_string()
                    }
                })
                .collect::<Vec<_>>()
        })
        .collect();
    for w in words {
        let wl = w.chars().count();
        if len + 1 + wl > WRAP {
            out.push_str("\n  ");
            len = 2;
        } else {
            out.push(' ');
            len += 1;
        }
        out.push_str(&w);
        len += wl;
    }
    out.push('\n');
    out
}

/// The width at which long lines of the board's notes are wrapped.
const WRAP: usize = 78;

/// `text` wrapped at spaces to `width` characters, each line after the first indented with
/// `indent`; a word longer than a line stays whole.
fn wrap(text: &str, width: usize, indent: &str) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let len = line.chars().count();
        if len > 0 && len + 1 + word.chars().count() > width {
            out.push_str(line.trim_end());
            out.push('\n');
            line = indent.to_string();
        } else if len > 0 {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push_str(line.trim_end());
    out.push('\n');
    out
}

/// The result in words: who won (or a draw) and why: `North wins (by the rules)`, `draw (the
/// turn limit of 40 was reached)`. [`narrate::end_text`] adds the final score.
pub fn outcome_text(g: &Game, o: Outcome) -> String {
    let who = match o.winner {
        Some(p) => format!("{} wins", g.side_name(p)),
        None => "draw".to_string(),
    };
    match o.reason {
        EndReason::Rules => match g.end_statement(o.said) {
            Some((_, Some(why))) => format!("{who} ({why})"),
            // `end game` (or `end round` without rounds): the scores decide
            Some((EndRule::Score, None)) | None => match o.winner {
                Some(_) => format!("{who} (the higher score wins)"),
                None => format!("{who} (equal scores)"),
            },
            Some((_, None)) => format!("{who} (by the rules)"),
        },
        EndReason::TurnLimit => format!("{who} (the turn limit of {} was reached)", g.turn_limit),
        EndReason::StepLimit => format!("{who} (the rules ran too long without a decision)"),
        EndReason::DecisionLimit => format!(
            "{who} (one turn went on for more than {} decisions)",
            crate::engine::DECISION_LIMIT
        ),
        EndReason::RoundLimit => format!(
            "{who} (the match went on for more than {} rounds)",
            crate::engine::ROUND_LIMIT
        ),
        EndReason::Fault(f) => format!("{who} (the game was stopped: {f})"),
        EndReason::MoveLimit => format!("{who} (the move limit of {} was reached)", g.move_limit),
    }
}

/// The result as JSON.
pub fn outcome_json(g: &Game, o: Outcome) -> Value {
    let mut v = json!({
        "winner": o.winner.map(|p| g.side_name(p).to_string()),
        "reason": o.reason.code(),
    });
    if let Some((_, Some(why))) = g.end_statement(o.said) {
        v["why"] = json!(why);
    }
    if let EndReason::Fault(f) = o.reason {
        v["fault"] = json!(f.to_string());
    }
    v
}

/// The last position of a record: a digest of [`state_json`] (FNV-1a of its text: any change
/// of the board, holdings, scores, tallies or result changes it) and each side's score (its
/// players' scores summed).
pub fn final_position(g: &Engine, st: &State) -> crate::record::FinalPosition {
    let text = state_json(g, st).to_string();
    let score = (0..g.sides.len())
        .map(|s| {
            let points: i64 = (0..g.players.len())
                .map(|p| Player(p as u8))
                .filter(|&p| g.side_of(p).0 as usize == s)
                .map(|p| st.score(g, p))
                .sum();
            (g.sides[s].clone(), points)
        })
        .collect();
    crate::record::FinalPosition {
        digest: crate::source_hash(&text),
        score,
    }
}

/// The state as JSON: every site by name with its contents, each side's captures and score,
/// whose turn, what is pending, the result.
pub fn state_json(g: &Engine, st: &State) -> Value {
    let mut sites = Map::new();
    for (i, info) in g.sites.iter().enumerate() {
        let s = SiteId(i as u16);
        let mut pieces = Map::new();
        for (k, p) in g.pieces.iter().enumerate() {
            let c = st.count(g, s, PieceKind(k as u8));
            if c > 0 {
                pieces.insert(p.name.clone(), json!(c));
            }
        }
        sites.insert(
            info.name.clone(),
            json!({
                "kind": st.site_kind(s).name(),
                "owner": st.site_owner(s).map(|p| g.player_name(p).to_string()),
                "pieces": pieces,
                "count": st.total_at(g, s),
            }),
        );
    }
    let mut captured = Map::new();
    let mut scores = Map::new();
    for p in 0..g.players.len() {
        let pl = Player(p as u8);
        let mut m = Map::new();
        for (k, piece) in g.pieces.iter().enumerate() {
            m.insert(
                piece.name.clone(),
                json!(st.captured(g, pl, PieceKind(k as u8))),
            );
        }
        captured.insert(g.players[p].clone(), Value::Object(m));
        scores.insert(g.players[p].clone(), json!(st.score(g, pl)));
    }
    let pending = match st.pending() {
        Pending::Choice(_) | Pending::Drop(_) => "decision",
        Pending::ChanceFirst | Pending::Throw(_) => "chance",
        Pending::Over(_) => "over",
    };
    let tokens: Vec<serde_json::Value> = (0..g.tokens.len())
        .map(|t| {
            json!({
                "owner": g.player_name(g.tokens[t].owner),
                "kind": g.pieces[st.tokens().kind_of(t).0 as usize].name,
                "site": st.tokens().site_of(t).map(|s| g.site_name(s).to_string()),
                "area": st.tokens().area_of(t).map(|a| g.areas[a as usize].clone()),
                "pos": st.tokens().position(t),
            })
        })
        .collect();
    json!({
        "game": g.meta.name,
        "tokens": tokens,
        "turn": st.turn() + 1,
        "mover": g.player_name(st.mover()),
        "pending": pending,
        "legal": g.legal_notations(st),
        "sites": sites,
        "captured": captured,
        "scores": scores,
        "result": st.outcome().map(|o| outcome_json(g, o)),
        "cycles_cut": st.cycles_cut(),
        "round": st.round(),
        "tallies": tallies_json(g, st),
    })
}

/// Each tally's value (an object by player for `per player` tallies).
fn tallies_json(g: &Game, st: &State) -> Value {
    let mut m = Map::new();
    for t in &g.tallies {
        let v = if t.per_player {
            let mut by = Map::new();
            for p in 0..g.players.len() {
                by.insert(
                    g.players[p].clone(),
                    json!(st.tally_value(t, Some(Player(p as u8))).unwrap_or(0)),
                );
            }
            Value::Object(by)
        } else if t.per_site {
            // the sites where it is not 0
            let mut by = Map::new();
            for s in 0..g.sites.len() {
                let v = st.tally_at(t, crate::ir::SiteId(s as u16)).unwrap_or(0);
                if v != 0 {
                    by.insert(g.sites[s].name.clone(), json!(v));
                }
            }
            Value::Object(by)
        } else {
            json!(st.tally_value(t, None).unwrap_or(0))
        };
        m.insert(t.name.clone(), v);
    }
    Value::Object(m)
}

#[cfg(test)]
mod tests {
    use super::centered;

    #[test]
    fn cells_are_centred_like_format_and_cut_when_too_long() {
        for (text, width) in [("s1", 6), ("store", 9), ("", 3), ("abc", 3), ("ab", 5)] {
            assert_eq!(centered(text, width), format!("{text:^width$}"));
        }
        assert_eq!(
            centered(&"x".repeat(70_000), 8),
            format!("{}…", "x".repeat(7))
        );
    }
}
