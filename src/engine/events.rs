//! What a decision did, in events the engine records while it plays it (only when asked: a
//! playout records nothing): laps sown, pieces captured, placed and given, sites that change
//! owner or kind, tokens moved and sent off, passes. The terminal narrates them.

use crate::ir::{PieceKind, Player, SiteId, SiteKind};

/// One effect of the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// a lap of sowing: the pieces picked up at `from` (`relay`: after the first lap), sown
    /// along the ring, the last one on `last`
    Lap {
        from: SiteId,
        pieces: u32,
        last: Option<SiteId>,
        relay: bool,
        /// where the pieces of every kind but the first (the plain pieces) went in this lap:
        /// the site each was dropped on, or the player whose store took it
        went: Vec<(PieceKind, Landing)>,
    },
    /// the position at the start of a lap repeated: the hand was put back at a site
    CycleCut { at: SiteId },
    /// pieces of a site captured by a player (held by him); `kinds`: how many of each kind
    /// (the kinds taken, in their order)
    Captured {
        site: SiteId,
        player: Player,
        pieces: u32,
        kinds: Vec<(PieceKind, u32)>,
    },
    /// pieces put on a site (`from`: taken from a player's holdings)
    Placed {
        site: SiteId,
        kind: PieceKind,
        pieces: u32,
        from: Option<Player>,
    },
    /// held pieces that changed hands
    Given {
        from: Player,
        to: Player,
        kind: PieceKind,
        pieces: u32,
    },
    /// a site's owner changed
    Owner { site: SiteId, owner: Option<Player> },
    /// a site's kind changed
    Kind { site: SiteId, kind: SiteKind },
    /// a token's kind changed (`set kind(t) = K`); `site`: where it is, if on the board
    TokenKind {
        token: usize,
        kind: PieceKind,
        site: Option<SiteId>,
    },
    /// a token went onto a site (from a site, or from off the board)
    Moved {
        token: usize,
        from: Option<SiteId>,
        to: SiteId,
    },
    /// a token left the board for an area
    Sent {
        token: usize,
        from: Option<SiteId>,
        area: u8,
    },
    /// a player had no legal decision and passed
    Passed { player: Player },
    /// `another turn`: the player who just played plays the next turn too
    AnotherTurn { player: Player },
}

/// Where a piece dropped in a lap of sowing went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Landing {
    /// onto a site
    Site(SiteId),
    /// into a store, which sends it at once to its owner's holdings
    Held(Player),
}

/// The events of the decision being played, when they are recorded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Log {
    pub(crate) on: bool,
    pub(crate) events: Vec<Event>,
}

impl crate::engine::fields::Room for Log {
    fn room_like(&mut self, o: &Self) {
        crate::engine::fields::reserve_like(&mut self.events, &o.events);
    }
    /// (An event may hold buffers of its own: only an empty log is surely copied without
    /// allocating.)
    fn fits(&self, o: &Self) -> bool {
        o.events.is_empty()
    }
    /// (The events' own buffers are not counted.)
    fn bytes(&self) -> usize {
        self.events.capacity() * std::mem::size_of::<Event>()
    }
}

impl Log {
    #[inline(always)]
    pub(crate) fn push(&mut self, e: impl FnOnce() -> Event) {
        if self.on {
            self.record(e);
        }
    }

    #[cold]
    #[inline(never)]
    fn record(&mut self, e: impl FnOnce() -> Event) {
        self.events.push(e());
    }
}
