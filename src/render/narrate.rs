//! A step of a game told in words, for the player at the terminal: what a decision or a throw
//! did (laps sown and their relays, pieces captured and from where, pieces placed and given,
//! sites that change owner or kind, tokens moved, sent off the board, passes), from the
//! [`Event`]s the engine records while it plays the step, with the game's own names for sites,
//! pieces, players and areas; and the end of a game with its reason and final score.
//!
//! Nothing here knows a game: every line is made from the events and the names of the `.game`
//! file, so a new game is told the same way.

mod book;

use super::{holdings, outcome_text};
use crate::engine::{Event, Game, Landing, Pending, State};
use crate::ir::{PieceKind, Player, SiteId, SiteKind};
use book::TokenBook;

/// Relays of one sowing told one by one before the others are summed up in a line (the last
/// one is always told: what follows the sowing happens where it ends). A sowing of up to
/// `RELAYS_TOLD + 3` laps is told lap by lap.
const RELAYS_TOLD: usize = 4;
/// Sites a line names before it sums up the others.
const SITES_NAMED: usize = 8;

/// What one step did, as short lines in English: `South sows 6 from s3, ending at n2`,
/// `  relays 5 from n3, ending at s1`, `South captures 4 from n2`, `n5 now belongs to North`,
/// `s2 becomes a store`, `North's chip moves c4 → c7`, `North's chip on c7 leaves the board
/// (waiting)`, `South has no legal move and passes`. `before` is the position before the step
/// (its mover is the one who sows; its tokens say what a moved piece lands on); `events` are
/// those [`Game::play_narrated`] or [`Game::play_chance_narrated`] returned for it. A long
/// sowing is summed up: a step gives a few lines, never one per lap.
pub fn narrate(g: &Game, before: &State, events: &[Event]) -> Vec<String> {
    let mut n = Narrator {
        g,
        mover: before.mover(),
        book: TokenBook::new(g, before),
        lines: vec![],
        unique: unique_kinds(g),
    };
    let mut i = 0;
    while i < events.len() {
        let rest = &events[i..];
        i += match rest[0] {
            Event::Lap { .. } | Event::CycleCut { .. } => n.sowing(rest),
            Event::Captured { .. } => n.captures(rest),
            Event::Placed { .. } => n.placed(rest),
            Event::Given {
                from,
                to,
                kind,
                pieces,
            } => {
                let line = format!(
                    "{} gives {pieces} {} to {}",
                    g.player_name(from),
                    kind_name(g, kind),
                    g.player_name(to)
                );
                n.lines.push(line);
                1
            }
            Event::Owner { .. } | Event::Kind { .. } => n.site_changes(rest),
            Event::TokenKind { token, kind, site } => {
                let (who, _) = n.tokens_named(&[token]);
                let at = site.map_or(String::new(), |s| format!(" on {}", n.site(s)));
                n.lines
                    .push(format!("{who}{at} becomes a {}", kind_name(g, kind)));
                n.book.set_kind(token, kind);
                1
            }
            Event::Moved { .. } | Event::Sent { .. } => n.tokens(rest),
            Event::Passed { player } => {
                n.lines.push(format!(
                    "{} has no legal move and passes",
                    g.player_name(player)
                ));
                1
            }
            Event::AnotherTurn { player } => {
                n.lines
                    .push(format!("another turn for {}", g.player_name(player)));
                1
            }
        };
    }
    n.lines
}

/// A chance outcome in words, as `before` (the position where it is pending) sees it:
/// `South throws marked blank blank blank = 1`, `Chance: North plays first`.
pub fn chance_text(g: &Game, before: &State, outcome: i64) -> String {
    match before.pending() {
        Pending::Throw(d) => match u16::try_from(outcome)
            .ok()
            .filter(|&o| (o as usize) < g.dice[d as usize].outcomes.len())
        {
            Some(o) => format!(
                "{} throws {}",
                g.player_name(before.mover()),
                g.throw_text(d, o)
            ),
            None => format!("{} throws {outcome}", g.player_name(before.mover())),
        },
        Pending::ChanceFirst => format!("Chance: {} plays first", g.outcome_name(before, outcome)),
        _ => format!("chance: {}", g.outcome_name(before, outcome)),
    }
}

/// The end of a game in one line: who won (or a draw), the rule that ended it, and the final
/// score of each side, compact: `Game over: North wins (the round is over: the higher score
/// wins). Final score: South 40, North 58`. A side's score is its points (with what it holds
/// when it holds pieces of several kinds, and its tallies that are not zero: `North 44 (31
/// seed + big + bag)`, `South 0 (debt 3)`); in a game of tokens, where its pieces are (`White
/// 1 on the board, 19 captured`). A team is summed up as its side. `None` while the game goes
/// on.
pub fn end_text(g: &Game, st: &State) -> Option<String> {
    let o = st.outcome()?;
    let parts: Vec<String> = (0..g.sides.len())
        .map(|s| format!("{} {}", g.sides[s], side_score(g, st, Player(s as u8))))
        .collect();
    let sep = if parts.iter().any(|p| p.contains(", ")) {
        "; "
    } else {
        ", "
    };
    Some(format!(
        "Game over: {}. Final score: {}",
        outcome_text(g, o),
        parts.join(sep)
    ))
}

/// A side's final score in a few words (see [`end_text`]).
fn side_score(g: &Game, st: &State, side: Player) -> String {
    let members: Vec<Player> = (0..g.players.len())
        .map(|p| Player(p as u8))
        .filter(|&p| g.side_of(p) == side)
        .collect();
    if g.tokens.is_empty() || g.pieces.len() > 1 {
        let points: i64 = members.iter().map(|&p| st.score(g, p)).sum();
        let mut notes = vec![];
        let plain = g.pieces.len() == 1 && g.pieces.iter().all(|p| p.value == 1);
        if !plain {
            for &p in &members {
                let h = holdings(g, st, p);
                notes.push(
                    h.rsplit_once(" (")
                        .map_or(h.clone(), |(a, _)| a.to_string()),
                );
            }
        }
        for t in g.tallies.iter().filter(|t| t.per_player) {
            for &p in &members {
                match st.tally_value(t, Some(p)) {
                    Some(v) if v != 0 => notes.push(format!("{} {v}", t.name)),
                    _ => {}
                }
            }
        }
        if notes.is_empty() {
            points.to_string()
        } else {
            format!("{points} ({})", notes.join(", "))
        }
    } else {
        let mine = |t: &crate::ir::TokenInfo| members.contains(&t.owner);
        let on_board = (0..g.tokens.len())
            .filter(|&t| mine(&g.tokens[t]) && st.tokens().site_of(t).is_some())
            .count();
        let mut parts = vec![format!("{on_board} on the board")];
        for (a, name) in g.areas.iter().enumerate() {
            let n = (0..g.tokens.len())
                .filter(|&t| mine(&g.tokens[t]) && st.tokens().area_of(t) == Some(a as u8))
                .count();
            parts.push(format!("{n} {name}"));
        }
        parts.join(", ")
    }
}

struct Narrator<'a> {
    g: &'a Game,
    /// for each kind of piece, whether the game has one piece of it (`the king`)
    unique: Vec<bool>,
    /// who decided the step (the sower)
    mover: Player,
    book: TokenBook,
    lines: Vec<String>,
}

impl Narrator<'_> {
    fn site(&self, s: SiteId) -> &str {
        self.g.site_name(s)
    }

    /// Named pieces (of kinds other than the plain one) in words, by kind in their order:
    /// `the king`, `the king and the queen`, `2 big`; None when there are none.
    fn pieces_named(&self, kinds: impl Iterator<Item = PieceKind>) -> Option<String> {
        let mut counts: Vec<(PieceKind, u32)> = vec![];
        for k in kinds.filter(|k| k.0 > 0) {
            match counts.iter_mut().find(|(c, _)| *c == k) {
                Some((_, n)) => *n += 1,
                None => counts.push((k, 1)),
            }
        }
        counts.sort_by_key(|&(k, _)| k.0);
        let parts: Vec<String> = counts.iter().map(|&(k, n)| self.kind_count(k, n)).collect();
        (!parts.is_empty()).then(|| and_list(&parts))
    }

    /// `the king` (the only piece of its kind), `a big`, `3 big`.
    fn kind_count(&self, k: PieceKind, n: u32) -> String {
        let name = kind_name(self.g, k);
        match n {
            1 if self.unique.get(k.0 as usize) == Some(&true) => format!("the {name}"),
            1 => format!("a {name}"),
            n => format!("{n} {name}"),
        }
    }

    /// Where the named pieces of a lap went, a line for each place: `the king goes to North's
    /// store`, `the king is dropped on n3`.
    fn landings(&self, went: &[(PieceKind, Landing)]) -> Vec<String> {
        let mut places: Vec<Landing> = vec![];
        for &(_, l) in went {
            if !places.contains(&l) {
                places.push(l);
            }
        }
        places
            .into_iter()
            .filter_map(|place| {
                let here = went.iter().filter(|&&(_, l)| l == place).map(|&(k, _)| k);
                let what = self.pieces_named(here)?;
                let one =
                    !what.contains(" and ") && !what.starts_with(|c: char| c.is_ascii_digit());
                Some(match place {
                    Landing::Held(p) => format!(
                        "{what} {} to {}'s store",
                        if one { "goes" } else { "go" },
                        self.g.player_name(p)
                    ),
                    Landing::Site(s) => format!(
                        "{what} {} dropped on {}",
                        if one { "is" } else { "are" },
                        self.site(s)
                    ),
                })
            })
            .collect()
    }

    /// What a capture took from a site: `4`, or with its named pieces `the king and 4
    /// seed`.
    fn taken_text(&self, pieces: u32, kinds: &[(PieceKind, u32)]) -> String {
        let named: Vec<String> = kinds
            .iter()
            .filter(|&&(k, n)| k.0 > 0 && n > 0)
            .map(|&(k, n)| self.kind_count(k, n))
            .collect();
        if named.is_empty() {
            return pieces.to_string();
        }
        let plain: u32 = kinds
            .iter()
            .filter(|&&(k, _)| k.0 == 0)
            .map(|&(_, n)| n)
            .sum();
        let mut parts = named;
        if plain > 0 {
            parts.push(format!("{plain} {}", kind_name(self.g, PieceKind(0))));
        }
        and_list(&parts)
    }

    /// A sowing: its laps (relays after the first) and a cycle that stopped it. Returns the
    /// events used.
    fn sowing(&mut self, events: &[Event]) -> usize {
        let mut laps = vec![];
        let mut went: Vec<&[(PieceKind, Landing)]> = vec![];
        let mut cycle = None;
        let mut used = 0;
        for (i, e) in events.iter().enumerate() {
            match e {
                Event::Lap {
                    from,
                    pieces,
                    last,
                    relay,
                    went: w,
                } if i == 0 || (*relay && cycle.is_none()) => {
                    laps.push((*from, *pieces, *last));
                    went.push(w);
                }
                Event::CycleCut { at } if cycle.is_none() => cycle = Some(*at),
                _ => break,
            }
            used = i + 1;
        }
        let who = self.g.player_name(self.mover).to_string();
        let only_named = |i: usize| laps[i].1 > 0 && laps[i].1 as usize == went[i].len();
        let lap = |i: usize| {
            let (from, pieces, last) = laps[i];
            let from = self.site(from);
            // the named pieces in hand: `5 (with the king) from s3`
            let named = self.pieces_named(went[i].iter().map(|&(k, _)| k));
            let n = match named {
                // only named pieces: `the king from east`
                Some(w) if only_named(i) => w,
                Some(w) => format!("{pieces} (with {w})"),
                None => pieces.to_string(),
            };
            match (pieces, last) {
                (0, _) => format!("nothing from {from} (it is empty)"),
                (_, Some(last)) => format!("{n} from {from}, ending at {}", self.site(last)),
                (_, None) => format!("{n} from {from}"),
            }
        };
        // where the named pieces of a lap went: `  the king goes to North's store` (not said
        // when the lap was that piece alone, dropped where it ends)
        let landings = |i: usize| -> Vec<String> {
            let (_, _, last) = laps[i];
            let told = |l: &Landing| only_named(i) && last.map(Landing::Site) == Some(*l);
            let w: Vec<(PieceKind, Landing)> =
                went[i].iter().copied().filter(|(_, l)| !told(l)).collect();
            self.landings(&w)
        };
        let first_is_relay = matches!(events.first(), Some(Event::Lap { relay: true, .. }));
        let mut lines = vec![];
        if !laps.is_empty() {
            let relays = laps.len() - 1;
            let verb = if first_is_relay { "relays" } else { "sows" };
            // summed up only when that saves lines: two relays or more left out
            let summed = relays > RELAYS_TOLD + 2;
            let mut line = format!("{who} {verb} {}", lap(0));
            if summed {
                line.push_str(&format!(" ({} laps)", laps.len()));
            }
            lines.push(line);
            lines.extend(landings(0).into_iter().map(|l| format!("  {l}")));
            let told = if summed { RELAYS_TOLD } else { relays };
            for r in 1..=told {
                lines.push(format!("  relays {}", lap(r)));
                lines.extend(landings(r).into_iter().map(|l| format!("  {l}")));
            }
            if summed {
                let skipped = relays - told - 1;
                lines.push(format!("  … {skipped} more relays …"));
                // the named pieces are told even in the laps summed up
                for (r, w) in went.iter().enumerate().take(relays).skip(told + 1) {
                    for l in self.landings(w) {
                        lines.push(format!("  {l} (lap {})", r + 1));
                    }
                }
                lines.push(format!("  relays {} (lap {})", lap(relays), laps.len()));
                lines.extend(landings(relays).into_iter().map(|l| format!("  {l}")));
            }
        }
        if let Some(at) = cycle {
            let indent = if laps.is_empty() { "" } else { "  " };
            lines.push(format!(
                "{indent}a cycle (the sowing would go on for ever): the hand is put back on {}",
                self.site(at)
            ));
        }
        self.lines.extend(lines);
        used.max(1)
    }

    /// Captures in a row by one player.
    fn captures(&mut self, events: &[Event]) -> usize {
        let Event::Captured { player, .. } = events[0] else {
            return 1;
        };
        let taken: Vec<(SiteId, u32, String)> = events
            .iter()
            .map_while(|e| match e {
                Event::Captured {
                    site,
                    player: p,
                    pieces,
                    kinds,
                } if *p == player => Some((*site, *pieces, self.taken_text(*pieces, kinds))),
                _ => None,
            })
            .collect();
        let who = self.g.player_name(player);
        let line = match &taken[..] {
            [(site, _, what)] => format!("{who} captures {what} from {}", self.site(*site)),
            _ => {
                let total: u64 = taken.iter().map(|&(_, n, _)| n as u64).sum();
                let mut parts: Vec<String> = taken
                    .iter()
                    .take(SITES_NAMED)
                    .map(|(s, _, what)| format!("{what} from {}", self.site(*s)))
                    .collect();
                if taken.len() > SITES_NAMED {
                    let rest = &taken[SITES_NAMED..];
                    let n: u64 = rest.iter().map(|&(_, n, _)| n as u64).sum();
                    parts.push(format!("{n} from {} other sites", rest.len()));
                }
                format!("{who} captures {total}: {}", parts.join(", "))
            }
        };
        self.lines.push(line);
        taken.len()
    }

    /// Pieces placed in a row, the same number of the same kind from the same player.
    fn placed(&mut self, events: &[Event]) -> usize {
        let Event::Placed {
            kind, pieces, from, ..
        } = events[0]
        else {
            return 1;
        };
        let sites: Vec<SiteId> = events
            .iter()
            .map_while(|e| match *e {
                Event::Placed {
                    site,
                    kind: k,
                    pieces: n,
                    from: f,
                } if (k, n, f) == (kind, pieces, from) => Some(site),
                _ => None,
            })
            .collect();
        let on = if sites.len() == 1 {
            self.site(sites[0]).to_string()
        } else {
            format!("each of {}", self.site_list(&sites))
        };
        let what = format!("{pieces} {}", kind_name(self.g, kind));
        self.lines.push(match from {
            Some(p) => format!("{} places {what} on {on}", self.g.player_name(p)),
            None => format!(
                "{what} {} placed on {on}",
                if pieces == 1 { "is" } else { "are" }
            ),
        });
        sites.len()
    }

    /// Sites that change owner or kind: a site that changes both at once in one line
    /// (`s4 becomes South's store`), otherwise the sites that change in the same way in a row.
    fn site_changes(&mut self, events: &[Event]) -> usize {
        let both = match events {
            [
                Event::Owner { site: a, owner },
                Event::Kind { site: b, kind },
                ..,
            ]
            | [
                Event::Kind { site: a, kind },
                Event::Owner { site: b, owner },
                ..,
            ] if a == b => Some((*a, *owner, *kind)),
            _ => None,
        };
        if let Some((site, owner, kind)) = both {
            let line = match owner {
                Some(p) => format!(
                    "{} becomes {}'s {}",
                    self.site(site),
                    self.g.player_name(p),
                    kind.name()
                ),
                None => format!("{} becomes {} with no owner", self.site(site), a_kind(kind)),
            };
            self.lines.push(line);
            return 2;
        }
        match events[0] {
            Event::Owner { owner, .. } => {
                let sites: Vec<SiteId> = events
                    .iter()
                    .map_while(|e| match *e {
                        Event::Owner { site, owner: o } if o == owner => Some(site),
                        _ => None,
                    })
                    .collect();
                let one = sites.len() == 1;
                let list = self.site_list(&sites);
                self.lines.push(match owner {
                    Some(p) => format!(
                        "{list} now {} to {}",
                        if one { "belongs" } else { "belong" },
                        self.g.player_name(p)
                    ),
                    None => format!(
                        "{list} no longer {} to anyone",
                        if one { "belongs" } else { "belong" }
                    ),
                });
                sites.len()
            }
            Event::Kind { kind, .. } => {
                let sites: Vec<SiteId> = events
                    .iter()
                    .map_while(|e| match *e {
                        Event::Kind { site, kind: k } if k == kind => Some(site),
                        _ => None,
                    })
                    .collect();
                let list = self.site_list(&sites);
                self.lines.push(if sites.len() == 1 {
                    format!("{list} becomes {}", a_kind(kind))
                } else if kind == SiteKind::Void {
                    format!("{list} become void")
                } else {
                    format!("{list} become {}s", kind.name())
                });
                sites.len()
            }
            _ => 1,
        }
    }

    /// Tokens moved and sent off in a row: those that went the same way are told together,
    /// in the order they first went.
    fn tokens(&mut self, events: &[Event]) -> usize {
        let mut groups: Vec<TokenGroup> = vec![];
        let mut used = 0;
        for e in events {
            let (key, token, onto) = match *e {
                Event::Moved { token, from, to } => {
                    let from = from.or_else(|| self.book.site(token));
                    let onto = self.book.stack(to);
                    self.book.put(token, to);
                    (Way::Moved { from, to }, token, onto)
                }
                Event::Sent { token, from, area } => {
                    let from = from.or_else(|| self.book.site(token));
                    let was = self.book.area(token);
                    self.book.send(token, area);
                    let key = match from {
                        Some(s) => Way::Left { from: s, area },
                        None => Way::Off { was, area },
                    };
                    (key, token, vec![])
                }
                _ => break,
            };
            used += 1;
            // a piece that goes on from where it went (hops of a chain): one path
            if let Way::Moved { from: Some(f), to } = key
                && let Some(gr) = groups.iter_mut().find(|gr| {
                    gr.tokens == [token] && matches!(gr.way, Way::Moved { to: t, .. } if t == f)
                })
                && let Way::Moved { to: t, .. } = &mut gr.way
            {
                gr.via.push(f);
                *t = to;
                continue;
            }
            match groups.iter_mut().find(|gr| gr.way == key) {
                Some(gr) => gr.tokens.push(token),
                None => groups.push(TokenGroup {
                    way: key,
                    tokens: vec![token],
                    onto,
                    via: vec![],
                }),
            }
        }
        // pieces of one player taken off the board by another side's decision: one line
        // (`Black loses 2 pieces on d6, d8 (captured)`)
        let mut lost: Vec<(Player, u8, Vec<SiteId>, Vec<usize>)> = vec![];
        let mut lines: Vec<Option<String>> = vec![];
        for gr in &groups {
            if let Way::Left { from, area } = gr.way
                && let Some(p) = self.lost_by(&gr.tokens)
            {
                match lost.iter_mut().find(|l| l.0 == p && l.1 == area) {
                    Some(l) => {
                        l.2.push(from);
                        l.3.extend(&gr.tokens);
                    }
                    None => {
                        lost.push((p, area, vec![from], gr.tokens.clone()));
                        lines.push(None);
                    }
                }
                continue;
            }
            lines.push(Some(self.token_line(gr)));
        }
        let mut lost = lost.into_iter();
        for line in lines {
            let line = match line {
                Some(l) => l,
                None => {
                    let Some((p, area, sites, tokens)) = lost.next() else {
                        continue;
                    };
                    let what = match &tokens[..] {
                        [t] => format!(
                            "a {}",
                            self.book.kind(*t).map_or("piece", |k| kind_name(self.g, k))
                        ),
                        _ => format!("{} pieces", tokens.len()),
                    };
                    format!(
                        "{} loses {what} on {} ({})",
                        self.g.player_name(p),
                        self.site_list(&sites),
                        self.g.areas.get(area as usize).map_or("?", String::as_str)
                    )
                }
            };
            self.lines.push(line);
        }
        used.max(1)
    }

    /// The player who loses these tokens when they leave the board: their one owner, when his
    /// side is not the side of the player who decided.
    fn lost_by(&self, tokens: &[usize]) -> Option<Player> {
        let g = self.g;
        let owner = g.tokens.get(*tokens.first()?)?.owner;
        let one = tokens
            .iter()
            .all(|&t| g.tokens.get(t).is_some_and(|t| t.owner == owner));
        (one && g.side_of(owner) != g.side_of(self.mover)).then_some(owner)
    }

    fn token_line(&self, gr: &TokenGroup) -> String {
        let g = self.g;
        let (who, many) = self.tokens_named(&gr.tokens);
        let s = |one: &'static str, more: &'static str| if many { more } else { one };
        let area = |a: u8| g.areas.get(a as usize).map_or("?", String::as_str);
        match gr.way {
            Way::Moved { from, to } => {
                let mut line = match from {
                    Some(f) => {
                        let mut path = vec![self.site(f)];
                        path.extend(gr.via.iter().map(|&v| self.site(v)));
                        path.push(self.site(to));
                        format!("{who} {} {}", s("moves", "move"), path.join(" → "))
                    }
                    None => format!(
                        "{who} {} the board at {}",
                        s("enters", "enter"),
                        self.site(to)
                    ),
                };
                // Tokens of another side under the landing place are worth saying.
                let side = gr
                    .tokens
                    .last()
                    .and_then(|&t| g.tokens.get(t))
                    .map(|t| g.side_of(t.owner));
                let under_other = gr.onto.iter().any(|&t| {
                    g.tokens
                        .get(t)
                        .is_some_and(|t| Some(g.side_of(t.owner)) != side)
                });
                if under_other {
                    line.push_str(&format!(", onto {}", self.tokens_named(&gr.onto).0));
                }
                line
            }
            Way::Left { from, area: a } => format!(
                "{who} on {} {} the board ({})",
                self.site(from),
                s("leaves", "leave"),
                area(a)
            ),
            Way::Off { was, area: a } => match was {
                Some(w) if w == a => format!("{who} {} to {}", s("goes back", "go back"), area(a)),
                Some(w) => format!("{who} {} from {} to {}", s("goes", "go"), area(w), area(a)),
                None => format!("{who} {} to {}", s("goes", "go"), area(a)),
            },
        }
    }

    /// Some tokens in words (and whether they are several): `North's chip`, `South's 3
    /// pieces`, `3 pieces (South's 2, North's 1)`.
    fn tokens_named(&self, tokens: &[usize]) -> (String, bool) {
        let g = self.g;
        let info: Vec<_> = tokens.iter().filter_map(|&t| g.tokens.get(t)).collect();
        let mut owners: Vec<(Player, usize)> = vec![];
        for t in &info {
            match owners.iter_mut().find(|(p, _)| *p == t.owner) {
                Some((_, n)) => *n += 1,
                None => owners.push((t.owner, 1)),
            }
        }
        match (&info[..], &owners[..]) {
            ([t], _) => (
                format!(
                    "{}'s {}",
                    g.player_name(t.owner),
                    kind_name(g, self.book.kind(tokens[0]).unwrap_or(t.kind))
                ),
                false,
            ),
            (_, [(p, n)]) => (format!("{}'s {n} pieces", g.player_name(*p)), true),
            _ => {
                let each: Vec<String> = owners
                    .iter()
                    .map(|(p, n)| format!("{}'s {n}", g.player_name(*p)))
                    .collect();
                (format!("{} pieces ({})", info.len(), each.join(", ")), true)
            }
        }
    }

    /// Sites by name, the first few of a long list: `s1, s2, s3`, `a1, b1, … and 5 more`.
    fn site_list(&self, sites: &[SiteId]) -> String {
        let mut names: Vec<&str> = sites
            .iter()
            .take(SITES_NAMED)
            .map(|&s| self.site(s))
            .collect();
        let more = sites.len().saturating_sub(SITES_NAMED);
        if more > 0 {
            names.push("…");
            return format!("{} and {more} more", names.join(", "));
        }
        names.join(", ")
    }
}

/// Which way tokens went.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Way {
    /// onto a site, from a site or from off the board
    Moved { from: Option<SiteId>, to: SiteId },
    /// off the board, from a site, into an area
    Left { from: SiteId, area: u8 },
    /// from an area (or from nowhere yet) into an area
    Off { was: Option<u8>, area: u8 },
}

/// Tokens that went the same way, and what was where the first of them landed.
struct TokenGroup {
    way: Way,
    tokens: Vec<usize>,
    onto: Vec<usize>,
    /// the sites a piece went through on its way (hops of a chain)
    via: Vec<SiteId>,
}

/// For each kind of piece, whether the game starts with exactly one piece of it (on the
/// board or held): such a piece is `the king`.
fn unique_kinds(g: &Game) -> Vec<bool> {
    let st = g.start();
    (0..g.pieces.len())
        .map(|k| {
            g.tokens.is_empty() && crate::render::pieces_of_kind(g, &st, PieceKind(k as u8)) == 1
        })
        .collect()
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(parts: &[String]) -> String {
    match parts {
        [] => String::new(),
        [a] => a.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// A kind of piece by name.
fn kind_name(g: &Game, k: PieceKind) -> &str {
    g.pieces.get(k.0 as usize).map_or("?", |p| p.name.as_str())
}

/// `a hole`, `a store`, `void`.
fn a_kind(k: SiteKind) -> String {
    match k {
        SiteKind::Void => "void".into(),
        k => format!("a {}", k.name()),
    }
}
