//! A step of a game told in words, for the player at the terminal: what a decision or a throw
//! did (laps sown and their relays, pieces captured and from where, pieces placed and given,
//! sites that change owner or kind, tokens moved, sent off the board, passes), from the
//! [`Event`]s the engine records while it plays the step, with the game's own names for sites,
//! pieces, players and areas; and the end of a game with its reason and final score.
//!
//! Nothing here knows a game: every line is made from the events and the names of the `.game`
//! file, so a new game is told the same way.

use super::{outcome_text, standing};
use crate::engine::{Event, Game, Pending, State};
use crate::ir::{PieceKind, Player, SiteId, SiteKind};

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
            Event::Moved { .. } | Event::Sent { .. } => n.tokens(rest),
            Event::Passed { player } => {
                n.lines.push(format!(
                    "{} has no legal move and passes",
                    g.player_name(player)
                ));
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

/// The end of a game in one line: who won (or a draw), why, and the final score as the game
/// counts it (each player's holdings and points, his tallies, where his pieces are):
/// `Game over: North wins (by the rules). Final score: South 40 seed, North 58 seed`.
/// `None` while the game goes on.
pub fn end_text(g: &Game, st: &State) -> Option<String> {
    let o = st.outcome()?;
    let parts: Vec<String> = (0..g.players.len())
        .map(|p| {
            let p = Player(p as u8);
            format!("{} {}", g.player_name(p), standing(g, st, p))
        })
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

struct Narrator<'a> {
    g: &'a Game,
    /// who decided the step (the sower)
    mover: Player,
    book: TokenBook,
    lines: Vec<String>,
}

impl Narrator<'_> {
    fn site(&self, s: SiteId) -> &str {
        self.g.site_name(s)
    }

    /// A sowing: its laps (relays after the first) and a cycle that stopped it. Returns the
    /// events used.
    fn sowing(&mut self, events: &[Event]) -> usize {
        let mut laps = vec![];
        let mut cycle = None;
        let mut used = 0;
        for (i, e) in events.iter().enumerate() {
            match *e {
                Event::Lap {
                    from,
                    pieces,
                    last,
                    relay,
                } if i == 0 || (relay && cycle.is_none()) => laps.push((from, pieces, last)),
                Event::CycleCut { at } if cycle.is_none() => cycle = Some(at),
                _ => break,
            }
            used = i + 1;
        }
        let who = self.g.player_name(self.mover).to_string();
        let lap = |(from, pieces, last): (SiteId, u32, Option<SiteId>)| {
            let from = self.site(from);
            match (pieces, last) {
                (0, _) => format!("nothing from {from} (it is empty)"),
                (n, Some(last)) => format!("{n} from {from}, ending at {}", self.site(last)),
                (n, None) => format!("{n} from {from}"),
            }
        };
        let first_is_relay = matches!(events.first(), Some(Event::Lap { relay: true, .. }));
        let mut lines = vec![];
        if let Some((&first, relays)) = laps.split_first() {
            let verb = if first_is_relay { "relays" } else { "sows" };
            // summed up only when that saves lines: two relays or more left out
            let summed = relays.len() > RELAYS_TOLD + 2;
            let mut line = format!("{who} {verb} {}", lap(first));
            if summed {
                line.push_str(&format!(" ({} laps)", laps.len()));
            }
            lines.push(line);
            let told = if summed { RELAYS_TOLD } else { relays.len() };
            for &r in &relays[..told] {
                lines.push(format!("  relays {}", lap(r)));
            }
            if summed {
                let skipped = relays.len() - told - 1;
                lines.push(format!("  … {skipped} more relays …"));
                if let Some(&last) = relays.last() {
                    lines.push(format!("  relays {} (lap {})", lap(last), laps.len()));
                }
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
        let taken: Vec<(SiteId, u32)> = events
            .iter()
            .map_while(|e| match *e {
                Event::Captured {
                    site,
                    player: p,
                    pieces,
                } if p == player => Some((site, pieces)),
                _ => None,
            })
            .collect();
        let who = self.g.player_name(player);
        let line = match taken[..] {
            [(site, n)] => format!("{who} captures {n} from {}", self.site(site)),
            _ => {
                let total: u64 = taken.iter().map(|&(_, n)| n as u64).sum();
                let mut parts: Vec<String> = taken
                    .iter()
                    .take(SITES_NAMED)
                    .map(|&(s, n)| format!("{n} from {}", self.site(s)))
                    .collect();
                if taken.len() > SITES_NAMED {
                    let rest = &taken[SITES_NAMED..];
                    let n: u64 = rest.iter().map(|&(_, n)| n as u64).sum();
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
            match groups.iter_mut().find(|gr| gr.way == key) {
                Some(gr) => gr.tokens.push(token),
                None => groups.push(TokenGroup {
                    way: key,
                    tokens: vec![token],
                    onto,
                }),
            }
        }
        for gr in groups {
            let line = self.token_line(&gr);
            self.lines.push(line);
        }
        used.max(1)
    }

    fn token_line(&self, gr: &TokenGroup) -> String {
        let g = self.g;
        let (who, many) = self.tokens_named(&gr.tokens);
        let s = |one: &'static str, more: &'static str| if many { more } else { one };
        let area = |a: u8| g.areas.get(a as usize).map_or("?", String::as_str);
        match gr.way {
            Way::Moved { from, to } => {
                let mut line = match from {
                    Some(f) => format!(
                        "{who} {} {} → {}",
                        s("moves", "move"),
                        self.site(f),
                        self.site(to)
                    ),
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
                format!("{}'s {}", g.player_name(t.owner), kind_name(g, t.kind)),
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
}

/// Where the tokens are while the events of a step are told (each event moves one), starting
/// from the position before the step.
struct TokenBook {
    /// each token's site, if on the board
    site: Vec<Option<SiteId>>,
    /// each token's area, if in one
    area: Vec<Option<u8>>,
    /// each site's stack, bottom first
    stacks: Vec<Vec<usize>>,
}

impl TokenBook {
    fn new(g: &Game, st: &State) -> Self {
        let n = g.tokens.len();
        let site: Vec<Option<SiteId>> = (0..n).map(|t| st.tokens().site_of(t)).collect();
        let area = (0..n).map(|t| st.tokens().area_of(t)).collect();
        let stacks = if n == 0 {
            vec![]
        } else {
            (0..g.sites.len())
                .map(|s| st.tokens().stack(SiteId(s as u16)))
                .collect()
        };
        TokenBook { site, area, stacks }
    }

    fn site(&self, t: usize) -> Option<SiteId> {
        self.site.get(t).copied().flatten()
    }

    fn area(&self, t: usize) -> Option<u8> {
        self.area.get(t).copied().flatten()
    }

    fn stack(&self, s: SiteId) -> Vec<usize> {
        self.stacks.get(s.0 as usize).cloned().unwrap_or_default()
    }

    fn lift(&mut self, t: usize) {
        if let Some(s) = self.site(t)
            && let Some(stack) = self.stacks.get_mut(s.0 as usize)
        {
            stack.retain(|&u| u != t);
        }
    }

    fn put(&mut self, t: usize, s: SiteId) {
        self.lift(t);
        if let (Some(site), Some(area)) = (self.site.get_mut(t), self.area.get_mut(t)) {
            *site = Some(s);
            *area = None;
        }
        if let Some(stack) = self.stacks.get_mut(s.0 as usize) {
            stack.push(t);
        }
    }

    fn send(&mut self, t: usize, a: u8) {
        self.lift(t);
        if let (Some(site), Some(area)) = (self.site.get_mut(t), self.area.get_mut(t)) {
            *site = None;
            *area = Some(a);
        }
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
