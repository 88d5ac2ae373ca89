//! The fixed tables of a game that compiled code reads during play: the board's graph, ring,
//! tracks and coordinates as flat arrays indexed by site, and fixed sets of sites and tokens as
//! bit sets.

use crate::engine::bits::{self, Layout};
use crate::ir::eval::{self, Fixed};
use crate::ir::{Game as Ir, RegionId, TrackInfo};

const NONE: u16 = u16::MAX;

pub(crate) struct Tables {
    pub(crate) nsites: usize,
    pub(crate) nk: usize,
    pub(crate) players: usize,
    pub(crate) sides: usize,
    pub(crate) layout: Layout,
    /// every site, as a set (the bits past the last site are clear)
    pub(crate) all_sites: Vec<u64>,
    /// no site (and no token), as a set
    pub(crate) zeros: Vec<u64>,
    /// next site along the ring in each direction (`u16::MAX` off the ring)
    pub(crate) next: [Vec<u16>; 2],
    pub(crate) opposite: Vec<u16>,
    /// each region as a set of sites
    pub(crate) regions: Vec<Vec<u64>>,
    /// for each site, the sites one step away along a line, in the order of the lines
    pub(crate) near: Vec<Vec<u16>>,
    /// for each site, (the site two steps away along a line, the site between), in that order
    pub(crate) far: Vec<Vec<(u16, u16)>>,
    /// the number of sites in `near` of each site
    pub(crate) degree: Vec<u32>,
    /// the same as sets of sites (`w` words a site), on boards of at most 256 sites
    pub(crate) near_bits: Vec<u64>,
    pub(crate) far_bits: Vec<u64>,
    pub(crate) x: Vec<i64>,
    pub(crate) y: Vec<i64>,
    /// the site at each point, and the board's named directions
    pub(crate) grid: crate::ir::grid::SiteGrid,
    pub(crate) compass: crate::ir::grid::Compass,
    pub(crate) original_owner: Vec<i64>,
    /// the track of each player's side, by player
    pub(crate) tracks: Vec<Option<TrackInfo>>,
    /// the first position of each site on each player's track, by player then site (-1 where
    /// the track does not pass, or the player has none)
    track_pos_at: Vec<i32>,
    pub(crate) tok_owner: Vec<u8>,
    /// the position before its side's track, for each token
    pub(crate) tok_before: Vec<i32>,
    pub(crate) ntokens: usize,
    /// words of a set of tokens
    pub(crate) tw: usize,
    /// every token, as a set
    pub(crate) tok_all: Vec<u64>,
    /// the tokens of each player, of each side
    pub(crate) tok_of_player: Vec<Vec<u64>>,
    pub(crate) tok_of_side: Vec<Vec<u64>>,
    /// the value of each piece kind
    pub(crate) values: Vec<i64>,
    /// the opponent of each player (the side after his)
    /// the side of each player (`side_of`), by player
    pub(crate) side: Vec<i64>,
    pub(crate) opponent: Vec<u8>,
    /// the keys of the position's hash, when the rules ask `repeated`
    pub(crate) keys: Option<std::sync::Arc<crate::engine::history::Keys>>,
    /// the lines of the board: line `i` is `line_sites[line_at[i]..line_at[i + 1]]`
    pub(crate) line_sites: Vec<u16>,
    pub(crate) line_at: Vec<u32>,
    /// the lines through each site: those of site `s` are `site_lines[site_line_at[s]..site_line_at[s + 1]]`
    pub(crate) site_lines: Vec<u32>,
    pub(crate) site_line_at: Vec<u32>,
}

impl Tables {
    pub(crate) fn new(g: &Ir) -> Self {
        let n = g.sites.len();
        let nt = g.tokens.len();
        let sides = g.sides.len().max(1);
        let near = (0..n)
            .map(|s| {
                g.step
                    .iter()
                    .map(|st| st[s])
                    .filter(|&t| t != NONE)
                    .collect()
            })
            .collect();
        let far = (0..n)
            .map(|s| {
                g.step
                    .iter()
                    .filter_map(|st| {
                        let b = st[s];
                        (b != NONE && st[b as usize] != NONE).then(|| (st[b as usize], b))
                    })
                    .collect()
            })
            .collect();
        let w = bits::words(n);
        let as_sets = |lists: &Vec<Vec<u16>>| -> Vec<u64> {
            if n > 256 {
                return vec![];
            }
            let mut v = vec![0u64; n * w];
            for (s, list) in lists.iter().enumerate() {
                for &x in list {
                    v[s * w + x as usize / 64] |= 1 << (x % 64);
                }
            }
            v
        };
        let near: Vec<Vec<u16>> = near;
        let far: Vec<Vec<(u16, u16)>> = far;
        let near_bits = as_sets(&near);
        let far_bits = as_sets(
            &far.iter()
                .map(|l| l.iter().map(|p| p.0).collect())
                .collect(),
        );
        Tables {
            nsites: n,
            nk: g.pieces.len(),
            players: g.players.len(),
            sides,
            layout: Layout::new(n, g.players.len()),
            all_sites: bits::from_fn(n, |_| true),
            zeros: vec![0; bits::words(n.max(nt))],
            next: g.next.clone(),
            opposite: g.opposite.clone(),
            regions: g
                .regions
                .iter()
                .map(|(_, m)| bits::from_fn(n, |s| m[s]))
                .collect(),
            degree: near.iter().map(|l| l.len() as u32).collect(),
            near,
            far,
            near_bits,
            far_bits,
            x: g.sites.iter().map(|s| s.x).collect(),
            grid: g.grid.clone(),
            compass: g.compass.clone(),
            y: g.sites.iter().map(|s| s.y).collect(),
            original_owner: g
                .sites
                .iter()
                .map(|s| s.owner.map(|p| p.0 as i64).unwrap_or(-1))
                .collect(),
            // each player's side's track, by player (no division on the way)
            tracks: (0..g.players.len())
                .map(|p| g.tracks.get(p % sides).cloned().flatten())
                .collect(),
            track_pos_at: (0..g.players.len())
                .flat_map(|p| {
                    let tr = g.tracks.get(p % sides).and_then(|t| t.as_ref());
                    (0..g.sites.len()).map(move |s| {
                        tr.and_then(|t| t.pos_of.get(s).copied())
                            .filter(|&x| x >= 0)
                            .unwrap_or(-1)
                    })
                })
                .collect(),
            tok_owner: g.tokens.iter().map(|t| t.owner.0).collect(),
            tok_before: g.tokens.iter().map(|t| g.before_track(t.owner)).collect(),
            ntokens: nt,
            tw: bits::words(nt),
            tok_all: bits::from_fn(nt, |_| true),
            tok_of_player: (0..g.players.len())
                .map(|p| bits::from_fn(nt, |t| g.tokens[t].owner.0 as usize == p))
                .collect(),
            tok_of_side: (0..sides)
                .map(|s| bits::from_fn(nt, |t| g.tokens[t].owner.0 as usize % sides == s))
                .collect(),
            values: g.pieces.iter().map(|p| p.value).collect(),
            side: (0..g.players.len()).map(|p| (p % sides) as i64).collect(),
            opponent: (0..g.players.len())
                .map(|p| ((p % sides + 1) % sides) as u8)
                .collect(),
            keys: g
                .history
                .then(|| std::sync::Arc::new(crate::engine::history::Keys::new(g))),
            line_sites: vec![],
            line_at: vec![],
            site_lines: vec![],
            site_line_at: vec![],
        }
        .with_lines(g)
    }

    /// The lines of the board as flat tables.
    fn with_lines(mut self, g: &Ir) -> Self {
        let n = self.nsites;
        self.line_at.push(0);
        let mut through: Vec<Vec<u32>> = vec![vec![]; n];
        for (i, l) in g.lines.iter().enumerate() {
            self.line_sites.extend_from_slice(l);
            self.line_at.push(self.line_sites.len() as u32);
            for &s in l {
                through[s as usize].push(i as u32);
            }
        }
        self.site_line_at.push(0);
        for l in through {
            self.site_lines.extend(l);
            self.site_line_at.push(self.site_lines.len() as u32);
        }
        self
    }

    /// The lines through a site.
    #[inline(always)]
    pub(crate) fn lines_through(&self, s: usize) -> &[u32] {
        &self.site_lines[self.site_line_at[s] as usize..self.site_line_at[s + 1] as usize]
    }

    /// The sites of a line, in order.
    #[inline(always)]
    pub(crate) fn line(&self, l: u32) -> &[u16] {
        &self.line_sites[self.line_at[l as usize] as usize..self.line_at[l as usize + 1] as usize]
    }

    /// Whether every link of the board goes both ways (`neighbours`: q next to s when s is next
    /// to q).
    pub(crate) fn links_both_ways(&self) -> bool {
        self.near.iter().enumerate().all(|(s, qs)| {
            qs.iter()
                .all(|&q| self.near[q as usize].contains(&(s as u16)))
        })
    }

    /// A site index, if the value names a site.
    #[inline(always)]
    pub(crate) fn site(&self, v: i64) -> Option<usize> {
        usize::try_from(v).ok().filter(|&s| s < self.nsites)
    }

    /// A token index, if the value names a token.
    #[inline(always)]
    pub(crate) fn token(&self, v: i64) -> Option<usize> {
        usize::try_from(v).ok().filter(|&t| t < self.ntokens)
    }

    /// A player index, if the value names a player.
    #[inline(always)]
    pub(crate) fn player(&self, v: i64) -> Option<usize> {
        usize::try_from(v).ok().filter(|&p| p < self.players)
    }

    /// The track of a player's side.
    #[inline(always)]
    pub(crate) fn track_of(&self, p: usize) -> Option<&TrackInfo> {
        self.tracks.get(p)?.as_ref()
    }

    /// `track_site(p, n)` of values: the site at position `n` of player `p`'s track (-1
    /// where there is none).
    #[inline(always)]
    pub(crate) fn track_site_of(&self, p: i64, n: i64) -> i64 {
        let Some(tr) = self.player(p).and_then(|p| self.track_of(p)) else {
            return -1;
        };
        n.checked_sub(tr.first)
            .and_then(|i| usize::try_from(i).ok())
            .and_then(|i| tr.sites.get(i))
            .map_or(-1, |&s| s as i64)
    }

    /// `track_pos(p, s)` of values: site `s`'s position on player `p`'s track (-1 where it
    /// is not on it).
    #[inline(always)]
    pub(crate) fn track_pos_of(&self, p: i64, s: i64) -> i64 {
        match (self.player(p), self.site(s)) {
            (Some(p), Some(s)) => self.track_pos(p, s),
            _ => -1,
        }
    }

    /// `track_end(p)` of a value: the last position of player `p`'s track (-1 where none).
    #[inline(always)]
    pub(crate) fn track_end_of(&self, p: i64) -> i64 {
        self.player(p)
            .and_then(|p| self.track_of(p))
            .map_or(-1, |tr| tr.first + tr.sites.len() as i64 - 1)
    }

    /// The first position of site `s` on the track of player `p` (-1 if it is not on it).
    #[inline(always)]
    pub(crate) fn track_pos(&self, p: usize, s: usize) -> i64 {
        if s >= self.nsites {
            return -1;
        }
        self.track_pos_at
            .get(p * self.nsites + s)
            .map_or(-1, |&x| x as i64)
    }

    /// `next(s, d, n)`: n steps along the ring (backward for a negative n), going round it as
    /// often as needed; -1 where the ring stops.
    pub(crate) fn walk(&self, site: i64, dir: i64, steps: i64) -> i64 {
        if let Some(i) = self.compass.index(dir) {
            return self.site(site).map_or(-1, |s| {
                self.compass
                    .walk(&self.grid, i, s, (self.x[s], self.y[s]), steps)
            });
        }
        eval::walk(&self.next, self.nsites, site, dir, steps)
    }

    /// The site between `a` and `c` on a line, one step from each (-1 if none).
    #[inline(always)]
    pub(crate) fn between(&self, a: i64, c: i64) -> i64 {
        let (Some(a), Some(c)) = (self.site(a), self.site(c)) else {
            return -1;
        };
        for &(to, mid) in &self.far[a] {
            if to as usize == c {
                return mid as i64;
            }
        }
        -1
    }
}

/// The engine's flat tables answer the static evaluator as the IR's own do.
impl Fixed for Tables {
    fn nsites(&self) -> usize {
        self.nsites
    }
    fn site_at(&self, x: i64, y: i64) -> i64 {
        self.grid.at(x, y)
    }
    fn in_region(&self, r: RegionId, s: usize) -> bool {
        bits::test(&self.regions[r.0 as usize], s)
    }
    fn opposite_of(&self, s: usize) -> u16 {
        self.opposite[s]
    }
    fn coord_x(&self, s: usize) -> i64 {
        self.x[s]
    }
    fn coord_y(&self, s: usize) -> i64 {
        self.y[s]
    }
    fn first_owner(&self, s: usize) -> i64 {
        self.original_owner[s]
    }
    fn between_sites(&self, a: i64, c: i64) -> i64 {
        self.between(a, c)
    }
    fn ring_walk(&self, s: i64, d: i64, n: i64) -> i64 {
        self.walk(s, d, n)
    }
}
