//! Building a position by hand (for tests, puzzles and rule authors): an empty board at the
//! start of a turn, then pieces, captures, site kinds and owners, and whose turn it is.
//!
//! ```
//! # let src = r#"
//! # game "Mini" { }
//! # option max_turns = 100 in 1..1000
//! # sides South North
//! # limit max_turns turns
//! # board { row s[1..3] at y 0 owner South  row n[3..1] at y 1 owner North
//! #         ring s[1..3] n[1..3] forward ccw backward cw }
//! # pieces { stone }
//! # turn { choose sow h where owner(h) == mover and count(h) > 0 {
//! #   sow h toward ccw, lap ends at e { } } }
//! # "#;
//! # let g = ludic::load_game(src, &Default::default()).unwrap();
//! let st = ludic::setup::Setup::new(&g)
//!     .put("s3", "stone", 1).unwrap()
//!     .put("n1", "stone", 4).unwrap()
//!     .mover("South").unwrap()
//!     .build();
//! assert_eq!(g.legal_notations(&st), vec!["sow s3"]);
//! ```

use crate::engine::tokens::UNPLACED;
use crate::engine::{Game, Pending, State};
use crate::ir::*;

/// A position under construction.
pub struct Setup<'g> {
    g: &'g Game,
    st: State,
}

impl<'g> Setup<'g> {
    /// An empty board (sites with the kinds and owners of the description), nothing captured,
    /// at the start of the first side's turn.
    pub fn new(g: &'g Game) -> Self {
        let mut st = g.empty();
        st.b.set_round(1);
        st.pc = g.turn_start;
        st.pending = Pending::Choice(0);
        Setup { g, st }
    }

    fn site(&self, name: &str) -> Result<usize, String> {
        self.g
            .site_index
            .get(name)
            .map(|s| s.0 as usize)
            .ok_or_else(|| format!("unknown site `{name}`"))
    }

    fn piece(&self, name: &str) -> Result<usize, String> {
        self.g
            .pieces
            .iter()
            .position(|p| p.name == name)
            .ok_or_else(|| format!("unknown piece `{name}`"))
    }

    /// A player by name (a side's name is its first player).
    fn side(&self, name: &str) -> Result<usize, String> {
        self.g
            .players
            .iter()
            .position(|p| p == name)
            .or_else(|| self.g.sides.iter().position(|p| p == name))
            .ok_or_else(|| format!("unknown player `{name}`"))
    }

    /// Sets the number of pieces of a kind at a site.
    pub fn put(mut self, site: &str, piece: &str, n: u32) -> Result<Self, String> {
        let (s, k) = (self.site(site)?, self.piece(piece)?);
        self.st.b.set_count(s, k, n);
        Ok(self)
    }

    /// Sets the number of pieces of a kind a side has captured.
    pub fn captured(mut self, side: &str, piece: &str, n: u32) -> Result<Self, String> {
        let (p, k) = (self.side(side)?, self.piece(piece)?);
        self.st.b.set_captured(p, k, n);
        Ok(self)
    }

    /// Sets a site's kind (`hole`, `store`, `cell`, `point`).
    pub fn kind(mut self, site: &str, kind: &str) -> Result<Self, String> {
        let s = self.site(site)?;
        let k = SiteKind::ALL
            .iter()
            .find(|k| k.name() == kind)
            .ok_or_else(|| format!("unknown kind `{kind}`"))?;
        self.st.b.set_kind_by_hand(s, *k);
        Ok(self)
    }

    /// Sets a site's owner (`None` for nobody).
    pub fn owner(mut self, site: &str, side: Option<&str>) -> Result<Self, String> {
        let s = self.site(site)?;
        let owner = match side {
            Some(p) => self.side(p)? as i8,
            None => -1,
        };
        self.st.b.set_owner_by_hand(s, owner);
        Ok(self)
    }

    /// Puts one of a side's tokens of a kind, not placed yet, on top of a site.
    pub fn token(mut self, side: &str, piece: &str, site: &str) -> Result<Self, String> {
        let (p, k, s) = (self.side(side)?, self.piece(piece)?, self.site(site)?);
        let t = self.unplaced(p, k)?;
        let pos = self
            .g
            .track_pos_of(p, s as u16)
            .map(|x| x as i32)
            .unwrap_or_else(|| self.g.before_track(Player(p as u8)));
        self.st.b.toks.place_by_hand(t, s as u16, pos);
        Ok(self)
    }

    /// Puts one of a player's tokens of a kind, not placed yet, at a position of its track.
    pub fn token_at(mut self, side: &str, piece: &str, pos: i64) -> Result<Self, String> {
        let (p, k) = (self.side(side)?, self.piece(piece)?);
        let track = self.g.track_of(p).ok_or("no track")?;
        let s = usize::try_from(pos - track.first)
            .ok()
            .and_then(|i| track.sites.get(i))
            .copied()
            .ok_or_else(|| format!("no position {pos} on the track"))?;
        let t = self.unplaced(p, k)?;
        self.st.b.toks.place_by_hand(t, s, pos as i32);
        Ok(self)
    }

    /// Puts one of a player's tokens of a kind, not placed yet, in an area.
    pub fn token_in(mut self, side: &str, piece: &str, area: &str) -> Result<Self, String> {
        let (p, k) = (self.side(side)?, self.piece(piece)?);
        let a = self
            .g
            .areas
            .iter()
            .position(|x| x == area)
            .ok_or_else(|| format!("unknown area `{area}`"))?;
        let t = self.unplaced(p, k)?;
        self.st.b.toks.put_in_area_by_hand(t, a as u8);
        Ok(self)
    }

    fn unplaced(&self, p: usize, k: usize) -> Result<usize, String> {
        (0..self.g.tokens.len())
            .find(|&t| {
                self.st.b.toks.area[t] == UNPLACED
                    && self.g.tokens[t].owner.0 as usize == p
                    && self.st.b.toks.kind[t] as usize == k
            })
            .ok_or_else(|| "no token of that side and kind left to place".to_string())
    }

    /// Whose turn it is.
    pub fn mover(mut self, side: &str) -> Result<Self, String> {
        let p = self.side(side)? as u8;
        self.st.b.set_mover(p);
        Ok(self)
    }

    /// Sets a tally (for a side when it is kept `per player`).
    pub fn tally(mut self, name: &str, side: Option<&str>, value: i64) -> Result<Self, String> {
        let t = self
            .g
            .tallies
            .iter()
            .find(|t| t.name == name)
            .ok_or_else(|| format!("unknown tally `{name}`"))?;
        if t.per_site {
            return Err(format!("`{name}` is kept per site: use site_tally"));
        }
        let i = match (t.per_player, side) {
            (true, Some(p)) => t.slot as usize + self.side(p)?,
            (false, None) => t.slot as usize,
            (true, None) => return Err(format!("`{name}` is kept per player: name one")),
            (false, Some(_)) => return Err(format!("`{name}` is one number for the game")),
        };
        self.st.b.set_tally(i, value);
        Ok(self)
    }

    /// Sets a `per site` tally at a site.
    pub fn site_tally(mut self, name: &str, site: &str, value: i64) -> Result<Self, String> {
        let t = self
            .g
            .tallies
            .iter()
            .find(|t| t.name == name && t.per_site)
            .ok_or_else(|| format!("no tally `{name}` kept per site"))?;
        let i = t.slot as usize + self.site(site)?;
        self.st.b.set_tally(i, value);
        Ok(self)
    }

    /// Who played first in this round (`first_player`).
    pub fn first_player(mut self, side: &str) -> Result<Self, String> {
        let p = self.side(side)? as u8;
        self.st.b.set_first_player(p);
        Ok(self)
    }

    /// How many turns have been played (for the turn limit).
    pub fn turns_played(mut self, n: u32) -> Self {
        self.st.turn = n;
        self
    }

    /// The position, with the turn program run up to its first decision.
    pub fn build(mut self) -> State {
        self.g.resume(&mut self.st);
        self.st
    }
}
