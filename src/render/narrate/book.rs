//! Where the tokens are while a step is told ([`TokenBook`]).

use crate::engine::{Game, State};
use crate::ir::{PieceKind, SiteId};

/// Where the tokens are while the events of a step are told (each event moves one), starting
/// from the position before the step.
pub(super) struct TokenBook {
    /// each token's site, if on the board
    site: Vec<Option<SiteId>>,
    /// each token's area, if in one
    area: Vec<Option<u8>>,
    /// each site's stack, bottom first
    stacks: Vec<Vec<usize>>,
    /// each token's kind
    kind: Vec<PieceKind>,
}

impl TokenBook {
    pub(super) fn new(g: &Game, st: &State) -> Self {
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
        let kind = (0..n).map(|t| st.tokens().kind_of(t)).collect();
        TokenBook {
            site,
            area,
            stacks,
            kind,
        }
    }

    pub(super) fn kind(&self, t: usize) -> Option<PieceKind> {
        self.kind.get(t).copied()
    }

    pub(super) fn set_kind(&mut self, t: usize, k: PieceKind) {
        if let Some(x) = self.kind.get_mut(t) {
            *x = k;
        }
    }

    pub(super) fn site(&self, t: usize) -> Option<SiteId> {
        self.site.get(t).copied().flatten()
    }

    pub(super) fn area(&self, t: usize) -> Option<u8> {
        self.area.get(t).copied().flatten()
    }

    pub(super) fn stack(&self, s: SiteId) -> Vec<usize> {
        self.stacks.get(s.0 as usize).cloned().unwrap_or_default()
    }

    pub(super) fn lift(&mut self, t: usize) {
        if let Some(s) = self.site(t)
            && let Some(stack) = self.stacks.get_mut(s.0 as usize)
        {
            stack.retain(|&u| u != t);
        }
    }

    pub(super) fn put(&mut self, t: usize, s: SiteId) {
        self.lift(t);
        if let (Some(site), Some(area)) = (self.site.get_mut(t), self.area.get_mut(t)) {
            *site = Some(s);
            *area = None;
        }
        if let Some(stack) = self.stacks.get_mut(s.0 as usize) {
            stack.push(t);
        }
    }

    pub(super) fn send(&mut self, t: usize, a: u8) {
        self.lift(t);
        if let (Some(site), Some(area)) = (self.site.get_mut(t), self.area.get_mut(t)) {
            *site = None;
            *area = Some(a);
        }
    }
}
