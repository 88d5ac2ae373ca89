//! What a front end reads of a game's description: its players and sides, sites, pieces,
//! tallies, options, variants and dice, without the IR's fields.

use crate::engine::Game;
use crate::ir::{PieceKind, Player, SiteId, SiteKind};

/// A site of the board, as described.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SiteDesc<'g> {
    /// its number
    pub id: SiteId,
    /// its name in notation (`s7`)
    pub name: &'g str,
    /// its column in the board's layout
    pub x: i64,
    /// its row in the board's layout
    pub y: i64,
    /// its kind at the start
    pub kind: SiteKind,
    /// its owner at the start
    pub owner: Option<Player>,
}

/// A piece kind and its value for scoring.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceDesc<'g> {
    /// its number
    pub kind: PieceKind,
    /// its name (`seed`)
    pub name: &'g str,
    /// what one is worth in a score
    pub value: i64,
}

/// A tally (a number kept across turns and rounds).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TallyDesc<'g> {
    /// its name
    pub name: &'g str,
    /// what it means, as the file says
    pub doc: Option<&'g str>,
    /// one value for each player
    pub per_player: bool,
    /// one value for each site
    pub per_site: bool,
    /// its value at the start
    pub initial: i64,
}

/// An option of the game, with the value it has in this game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionDesc<'g> {
    /// its name (`-o NAME=VALUE`)
    pub name: &'g str,
    /// what it means, as the file says
    pub doc: Option<&'g str>,
    /// its value here, as written in a setting (`7`, `on`, `ccw`)
    pub value: String,
    /// its value by default
    pub default: String,
    /// the values it may take, in words (`1..12`, `on | off`, `cw | ccw`)
    pub domain: String,
    /// for an option whose values are words (`cw | ccw`), those words; empty otherwise
    pub words: Vec<&'g str>,
}

/// A variant of the game: option values under one name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantDesc<'g> {
    /// its name (`--variant NAME`)
    pub name: &'g str,
    /// what it is, as the file says
    pub doc: Option<&'g str>,
    /// the options it sets, with their values
    pub sets: Vec<(&'g str, String)>,
}

/// A set of dice or sticks and its chart.
#[derive(Clone, Debug, PartialEq)]
pub struct DiceDesc<'g> {
    /// the name of the set
    pub name: &'g str,
    /// each die's name and faces
    pub dice: Vec<(&'g str, Vec<&'g str>)>,
    /// each outcome of a throw, by number: its value, its name in the chart, its probability
    pub outcomes: Vec<(i64, Option<&'g str>, f64)>,
}

/// What the `game { … }` block says of the game: its title, other names, origin and source,
/// summary, and the game it is built on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct About<'g> {
    /// its title (`My Game`)
    pub title: &'g str,
    /// its other names
    pub aliases: &'g [String],
    /// where it is played, as the file says
    pub origin: Option<&'g str>,
    /// where its rules come from, as the file says
    pub source: Option<&'g str>,
    /// its rules in a few lines, as the file says
    pub summary: Option<&'g str>,
    /// `from "base.game"`: the name of the game this one is built on
    pub based_on: Option<&'g str>,
    /// what it changes of its base: `option holes (5 -> 7)`, `turn replaced`…
    pub changes: &'g [String],
}

/// A label of decisions (`sow`, `capture`) and what it means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LabelDesc<'g> {
    /// the label, as typed in a decision
    pub name: &'g str,
    /// what it means, as the file says
    pub doc: Option<&'g str>,
}

/// An individual piece (pieces declared with `tokens N`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TokenDesc {
    /// the player it belongs to
    pub owner: Player,
    /// its kind
    pub kind: PieceKind,
}

impl Game {
    /// Token number `t` (tokens are numbered from 0, below [`Game::num_tokens`]).
    pub fn token(&self, t: usize) -> Option<TokenDesc> {
        self.tokens.get(t).map(|t| TokenDesc {
            owner: t.owner,
            kind: t.kind,
        })
    }

    /// The number of an area off the board, by its name (what
    /// [`Tokens::area_of`](crate::Tokens::area_of) gives).
    pub fn area_named(&self, name: &str) -> Option<u8> {
        self.areas.iter().position(|a| a == name).map(|a| a as u8)
    }

    /// The site at position `pos` of side `side`'s track, if it has one that passes there.
    pub fn track_site(&self, side: usize, pos: i64) -> Option<SiteId> {
        let t = self.tracks.get(side)?.as_ref()?;
        let i = usize::try_from(pos.checked_sub(t.first)?).ok()?;
        t.sites.get(i).map(|&s| SiteId(s))
    }

    /// The lines of the board (`line …`, `lines N`), each its sites in order.
    pub fn lines(&self) -> impl Iterator<Item = Vec<SiteId>> + '_ {
        self.lines
            .iter()
            .map(|l| l.iter().map(|&s| SiteId(s)).collect())
    }

    /// The names of the two ring directions (forward, backward), if the board has a ring.
    pub fn direction_names(&self) -> Option<[&str; 2]> {
        self.dir_names
            .as_ref()
            .map(|[f, b]| [f.as_str(), b.as_str()])
    }

    /// The next site along the ring from `s`: forward for `dir` 0, backward for 1; None off
    /// the ring.
    pub fn next_site(&self, dir: usize, s: SiteId) -> Option<SiteId> {
        let t = *self.next.get(dir)?.get(s.0 as usize)?;
        (t != u16::MAX).then_some(SiteId(t))
    }

    /// The sites next to `s` along the board's lines, one for each direction that goes on
    /// from it.
    pub fn neighbours(&self, s: SiteId) -> impl Iterator<Item = SiteId> + '_ {
        self.step
            .iter()
            .filter_map(move |d| d.get(s.0 as usize).copied())
            .filter(|&t| t != u16::MAX)
            .map(SiteId)
    }

    /// `limit N turns`: the turns allowed in a round.
    pub fn turn_limit(&self) -> u32 {
        self.turn_limit
    }

    /// `limit N moves`: the decisions allowed in a round, if the game limits them.
    pub fn move_limit(&self) -> Option<u32> {
        (self.move_limit != u32::MAX).then_some(self.move_limit)
    }

    /// The name of site `s` (`?` for no site of the game).
    pub fn site_name(&self, s: SiteId) -> &str {
        self.ir().site_name(s)
    }

    /// The name of player `p` (`?` for no player of the game).
    pub fn player_name(&self, p: Player) -> &str {
        self.ir().player_name(p)
    }

    /// The side player `p` plays for (itself, without teams).
    pub fn side_of(&self, p: Player) -> Player {
        self.ir().side_of(p)
    }

    /// The name of side `s` (`?` for no side of the game).
    pub fn side_name(&self, s: Player) -> &str {
        self.ir().side_name(s)
    }

    /// The words of the `end game` statement that ended a game (see
    /// [`Outcome::said`](crate::Outcome::said)): None when no statement ended it, `Some(None)`
    /// when the statement gives no words (`end game winner P "why"` gives them).
    pub fn end_words(&self, said: Option<u32>) -> Option<Option<&str>> {
        self.ir().end_statement(said).map(|(_, why)| why)
    }

    /// What the `game { … }` block says: title, other names, origin, source, summary, base.
    pub fn about(&self) -> About<'_> {
        let m = &self.meta;
        About {
            title: &m.name,
            aliases: &m.aliases,
            origin: m.origin.as_deref(),
            source: m.source.as_deref(),
            summary: m.summary.as_deref(),
            based_on: m.based_on.as_deref(),
            changes: &m.changes,
        }
    }

    /// The labels of decisions, in the order of the file, with what each means.
    pub fn all_labels(&self) -> impl Iterator<Item = LabelDesc<'_>> {
        self.labels.iter().map(|l| LabelDesc {
            name: &l.name,
            doc: l.doc.as_deref(),
        })
    }

    /// Whether the game is played in rounds (it has a `between rounds` part).
    pub fn has_rounds(&self) -> bool {
        self.between_start.is_some()
    }

    /// The game's title (`My Game`).
    pub fn title(&self) -> &str {
        &self.meta.name
    }

    /// The players, in turn order, by name: one per side, or with teams `South1 North1
    /// South2 North2 …` (player `p` plays for side `p % sides`). Players are numbered by
    /// their place here.
    pub fn players(&self) -> &[String] {
        &self.players
    }

    /// The sides, in order (`South North`). A side wins or loses; with teams, all its
    /// players.
    pub fn sides(&self) -> &[String] {
        &self.sides
    }

    /// How many sites the board has (sites are numbered from 0).
    pub fn num_sites(&self) -> usize {
        self.sites.len()
    }

    /// Site number `id`, as described.
    pub fn site(&self, id: SiteId) -> Option<SiteDesc<'_>> {
        self.sites.get(id.0 as usize).map(|s| SiteDesc {
            id,
            name: &s.name,
            x: s.x,
            y: s.y,
            kind: s.kind,
            owner: s.owner,
        })
    }

    /// Every site, in order.
    pub fn all_sites(&self) -> impl Iterator<Item = SiteDesc<'_>> {
        (0..self.sites.len()).filter_map(|i| self.site(SiteId(i as u16)))
    }

    /// The site of a name.
    pub fn site_named(&self, name: &str) -> Option<SiteId> {
        self.site_index.get(name).copied()
    }

    /// The piece kinds, in order (the first is the plain piece).
    pub fn piece_kinds(&self) -> impl Iterator<Item = PieceDesc<'_>> {
        self.pieces.iter().enumerate().map(|(k, p)| PieceDesc {
            kind: PieceKind(k as u8),
            name: &p.name,
            value: p.value,
        })
    }

    /// Piece kind `k`, as described.
    pub fn piece_kind(&self, k: PieceKind) -> Option<PieceDesc<'_>> {
        self.piece_kinds().nth(k.0 as usize)
    }

    /// How many individual pieces (tokens) the game has.
    pub fn num_tokens(&self) -> usize {
        self.tokens.len()
    }

    /// The tallies, in order.
    pub fn all_tallies(&self) -> impl Iterator<Item = TallyDesc<'_>> {
        self.tallies.iter().map(|t| TallyDesc {
            name: &t.name,
            doc: t.doc.as_deref(),
            per_player: t.per_player,
            per_site: t.per_site,
            initial: t.init,
        })
    }

    /// The game's options, with their values in this game.
    pub fn all_options(&self) -> impl Iterator<Item = OptionDesc<'_>> {
        self.options.iter().map(|o| OptionDesc {
            name: &o.name,
            doc: o.doc.as_deref(),
            value: o.value.to_string(),
            default: o.default.to_string(),
            domain: o.domain.to_string(),
            words: match &o.domain {
                crate::ir::OptDomain::Words(w) => w.iter().map(String::as_str).collect(),
                _ => vec![],
            },
        })
    }

    /// The options' values in this game, by name, as written in a setting (what a record
    /// keeps).
    pub fn option_values(&self) -> std::collections::BTreeMap<String, String> {
        crate::check::option_map(self)
    }

    /// The values that choices without a label offer (`ccw`, `cw`), each once, in the order of
    /// the file: a player types them alone.
    pub fn unlabeled_values(&self) -> Vec<&str> {
        let mut out: Vec<&str> = vec![];
        for a in self.choices.iter().flat_map(|c| &c.alts) {
            if let (None, crate::ir::Domain::Values(vals)) = (&a.label, &a.domain) {
                for (_, name) in vals {
                    if !out.contains(&name.as_str()) {
                        out.push(name);
                    }
                }
            }
        }
        out
    }

    /// Whether some sowing lets the sower order the drops of a lap (decisions `piece@step`).
    pub fn orders_drops(&self) -> bool {
        self.code
            .iter()
            .any(|i| matches!(i, crate::ir::Instr::SowLap { orders: true, .. }))
    }

    /// The game's variants.
    pub fn all_variants(&self) -> impl Iterator<Item = VariantDesc<'_>> {
        self.variants.iter().map(|v| VariantDesc {
            name: &v.name,
            doc: v.doc.as_deref(),
            sets: v
                .sets
                .iter()
                .map(|(n, x)| (n.as_str(), x.to_string()))
                .collect(),
        })
    }

    /// The game's dice (or sticks), each set with its chart.
    pub fn all_dice(&self) -> impl Iterator<Item = DiceDesc<'_>> {
        self.dice.iter().map(|d| DiceDesc {
            name: &d.name,
            dice: d
                .dice
                .iter()
                .map(|(n, faces)| (n.as_str(), faces.iter().map(String::as_str).collect()))
                .collect(),
            outcomes: d
                .outcomes
                .iter()
                .map(|o| (o.value, o.name.as_deref(), o.prob))
                .collect(),
        })
    }
}
