//! One thread's search tree: its nodes in an arena, the iteration (selection, expansion,
//! playout, backing up of rewards and proofs) and the solver's proofs.

use super::ARENA_START;
use super::cache::States;
use crate::agents::Progress;
use crate::{Game, Outcome, Pending, State};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// What a node is, known once it has been expanded: the low two bits of `Node::kind`.
const LEAF: u8 = 0;
pub(super) const DECISION: u8 = 1;
const CHANCE: u8 = 2;
const OVER: u8 = 3;
const KIND: u8 = 3;
/// The proven result of a node's position, in the high six bits of `Node::kind`: none, a
/// draw, or `WIN + s` when side `s` wins whatever is played (sides from 62 on are never proven).
pub(super) const UNPROVEN: u8 = 0;
const DRAW: u8 = 1;
const WIN: u8 = 2;
const PROOF_SHIFT: u32 = 2;
/// No side: the root, and the children of chance nodes (whose values are never compared).
const NO_SIDE: u8 = u8::MAX;
/// The root of a tree that must be built afresh.
const NO_ROOT: u32 = u32::MAX;
/// Playouts between two readings of the clock.
const BATCH: u64 = 4;
/// Positions of inner nodes kept a search (see [`States`]), at most, and at most one for
/// every [`KEPT_PER_NODES`] nodes of the arena's cap.
pub(super) const KEPT: usize = 4096;
const KEPT_PER_NODES: usize = 16;

/// A node of the tree (16 bytes).
#[derive(Clone, Copy, Debug)]
pub(super) struct Node {
    /// the index of the first child (0 when not expanded: the root is never a child)
    pub(super) first: u32,
    pub(super) visits: u32,
    /// the sum of the rewards of the side that chose the decision leading here
    pub(super) value: f32,
    /// children: legal decisions or chance outcomes
    pub(super) n: u16,
    /// what the node is (`KIND`'s bits) and its proven result (the bits above)
    kind: u8,
    /// at a decision node, the side of the player to move
    pub(super) side: u8,
}

impl Node {
    const FRESH: Node = Node {
        first: 0,
        visits: 0,
        value: 0.0,
        n: 0,
        kind: LEAF,
        side: NO_SIDE,
    };

    pub(super) fn kind(&self) -> u8 {
        self.kind & KIND
    }

    pub(super) fn proof(&self) -> u8 {
        self.kind >> PROOF_SHIFT
    }

    fn set_proof(&mut self, p: u8) {
        self.kind = (self.kind & KIND) | (p << PROOF_SHIFT);
    }
}

/// The proof of an ended game: its winner's `WIN + side`, or `DRAW`; none for a side the
/// proof's six bits cannot hold.
fn proof_of(winner: Option<u8>) -> u8 {
    match winner {
        None => DRAW,
        Some(w) if (w as u32) < (1 << (8 - PROOF_SHIFT)) - WIN as u32 => WIN + w,
        Some(_) => UNPROVEN,
    }
}

/// The reward of `side` in a proven result.
pub(super) fn reward_of(proof: u8, side: u8, draw: f32) -> f32 {
    match proof {
        DRAW => draw,
        p if p >= WIN && p - WIN == side => 1.0,
        _ => 0.0,
    }
}

/// One thread's tree, its scratch state and its generator. Aligned to two cache lines so that
/// the threads' trees, side by side in one `Vec`, share no line (a line written by one thread
/// and read by another is passed between the cores at each write: false sharing).
#[repr(align(128))]
pub(super) struct Tree {
    pub(super) nodes: Vec<Node>,
    /// the other half of the arena, into which a reused subtree is compacted
    spare: Vec<Node>,
    pub(super) root: u32,
    /// the position at the root
    root_st: State,
    /// the position of the current iteration
    st: State,
    /// a scratch position to look one decision ahead when a node is expanded
    probe: State,
    /// the nodes of the current iteration, with the side that chose each
    path: Vec<(u32, u8)>,
    pub(super) rng: Xoshiro256PlusPlus,
    max_nodes: usize,
    /// the kept positions of inner nodes
    states: States,
}

impl Tree {
    pub(super) fn new(st: &State, max_nodes: usize) -> Tree {
        Tree::keeping(st, max_nodes, KEPT.min(max_nodes / KEPT_PER_NODES))
    }

    /// A tree that keeps at most `kept` positions of inner nodes a search.
    pub(super) fn keeping(st: &State, max_nodes: usize, kept: usize) -> Tree {
        let max_nodes = max_nodes.clamp(16, u32::MAX as usize / 2);
        Tree {
            nodes: Vec::with_capacity(ARENA_START.min(max_nodes)),
            spare: Vec::with_capacity(ARENA_START.min(max_nodes)),
            root: NO_ROOT,
            root_st: st.clone(),
            st: st.clone(),
            probe: st.clone(),
            path: Vec::with_capacity(256),
            rng: Xoshiro256PlusPlus::seed_from_u64(0),
            max_nodes,
            states: States::new(kept),
        }
    }

    /// Makes the tree stand for `st`: the reused subtree when there is one, else a fresh root.
    pub(super) fn prepare(&mut self, st: &State, reuse: bool) {
        self.root_st.clone_from(st);
        if reuse && self.root != NO_ROOT {
            self.compact();
        } else {
            self.nodes.clear();
            self.nodes.push(Node::FRESH);
            self.root = 0;
        }
        self.states.reset(self.nodes.len(), &self.root_st, &self.st);
    }

    /// Copies the subtree of the root to the front of the spare half (breadth first, so that
    /// children stay contiguous) and makes it the tree.
    fn compact(&mut self) {
        if self.root == 0 {
            return;
        }
        let (old, new) = (&self.nodes, &mut self.spare);
        new.clear();
        new.push(old[self.root as usize]);
        let mut q = 0;
        while q < new.len() {
            let nd = new[q];
            if nd.first != 0 {
                let f = new.len() as u32;
                let (a, b) = (nd.first as usize, nd.first as usize + nd.n as usize);
                new.extend_from_slice(&old[a..b]);
                new[q].first = f;
            }
            q += 1;
        }
        std::mem::swap(&mut self.nodes, &mut self.spare);
        self.root = 0;
    }

    /// Moves the root to the child of a step played (or marks the tree to be built afresh).
    pub(super) fn advance(&mut self, child: Option<usize>) {
        if self.root == NO_ROOT {
            return;
        }
        let r = self.nodes[self.root as usize];
        self.root = match child {
            Some(i) if r.first != 0 && i < r.n as usize => r.first + i as u32,
            _ => NO_ROOT,
        };
    }

    /// Searches until the budget is spent: `share` playouts, or until `deadline` or the
    /// root's result is proven, or at once when the program is asked to stop ([`crate::interrupt`], read with the clock after
    /// each batch). Returns the playouts run.
    pub(super) fn search(
        &mut self,
        g: &Game,
        c: f64,
        share: Option<u64>,
        deadline: Option<Instant>,
        counter: &AtomicU64,
        mut progress: Option<&mut dyn FnMut(Progress)>,
    ) -> u64 {
        let t0 = Instant::now();
        let mut last_report = t0;
        let nsides = g.sides.len().max(1);
        let mut done = 0u64;
        loop {
            let batch = share.map_or(BATCH, |s| BATCH.min(s - done));
            for _ in 0..batch {
                self.iterate(g, c, nsides);
            }
            done += batch;
            counter.fetch_add(batch, Ordering::Relaxed);
            if share.is_some_and(|s| done >= s) {
                break;
            }
            // a proven root: nothing more to learn (a playout budget is still spent, each
            // iteration ending at the root at once, so that it plays as many as it is given)
            if share.is_none() && self.nodes[self.root as usize].proof() != UNPROVEN {
                break;
            }
            let now = Instant::now();
            if deadline.is_some_and(|d| now >= d) || crate::interrupt::requested() {
                break;
            }
            if let Some(p) = progress.as_mut()
                && now.duration_since(last_report) >= Duration::from_millis(100)
            {
                last_report = now;
                p(Progress {
                    playouts: counter.load(Ordering::Relaxed),
                    elapsed: now.duration_since(t0),
                });
            }
        }
        done
    }

    /// One iteration: selection from the root (UCB at decision nodes, sampling at chance
    /// nodes), expansion of the node reached if it was visited before (or at once when its
    /// game is over), a random playout, and the backing up of its rewards along the path. A
    /// proven node ends the selection: its result is backed up without a playout, and a node
    /// newly proven makes its parents' proofs be looked at again, up the path. The path is
    /// walked without its position, which is made only where one is needed (see [`States`]).
    fn iterate(&mut self, g: &Game, c: f64, nsides: usize) {
        let Tree {
            nodes,
            root,
            root_st,
            st,
            probe,
            path,
            rng,
            max_nodes,
            states,
            ..
        } = self;
        path.clear();
        let mut node = *root;
        path.push((node, NO_SIDE));
        let mut walk = Walk {
            g,
            root_st,
            at: None,
        };
        let draw = 1.0 / nsides as f32;
        let winner = loop {
            let n = nodes[node as usize];
            if n.proof() != UNPROVEN {
                break proven_winner(n.proof());
            }
            match n.kind() {
                LEAF => {
                    walk.reach(nodes, states, st, path, path.len() - 1);
                    if (n.visits > 0 || node == *root || matches!(st.pending(), Pending::Over(_)))
                        && expand(nodes, node, st, probe, g, *max_nodes)
                    {
                        states.grow(nodes.len());
                        if matches!(nodes[node as usize].kind(), DECISION | CHANCE) {
                            states.keep(node, st);
                        }
                        continue;
                    }
                    break playout(g, st, rng).winner.map(|w| w.0);
                }
                DECISION => {
                    let i = select(nodes, &n, c, draw, rng);
                    node = n.first + i as u32;
                    path.push((node, n.side));
                }
                CHANCE => {
                    walk.reach(nodes, states, st, path, path.len() - 1);
                    let o = g.draw_chance(st, rng.random());
                    node = n.first + o as u32;
                    path.push((node, NO_SIDE));
                }
                // an ended game whose winner no proof holds
                _ => {
                    walk.reach(nodes, states, st, path, path.len() - 1);
                    break ended_winner(st);
                }
            }
            // an inner node reached without a kept position (in a reused subtree): keep it
            if matches!(nodes[node as usize].kind(), DECISION | CHANCE)
                && states.room()
                && !states.has(node)
            {
                walk.reach(nodes, states, st, path, path.len() - 1);
                states.keep(node, st);
            }
        };
        for &(i, side) in path.iter() {
            let nd = &mut nodes[i as usize];
            nd.visits = nd.visits.saturating_add(1);
            if side != NO_SIDE {
                nd.value += match winner {
                    Some(w) if w == side => 1.0,
                    Some(_) => 0.0,
                    None => draw,
                };
            }
        }
        // the proofs, from the node reached up, as long as they change
        for k in (0..path.len() - 1).rev() {
            let (child, parent) = (path[k + 1].0, path[k].0);
            if nodes[child as usize].proof() == UNPROVEN
                || nodes[parent as usize].proof() != UNPROVEN
            {
                break;
            }
            let p = prove(nodes, parent, draw);
            if p == UNPROVEN {
                break;
            }
            nodes[parent as usize].set_proof(p);
        }
    }
}

/// The making of an iteration's positions along its path.
struct Walk<'a> {
    g: &'a Game,
    root_st: &'a State,
    /// the index in the path of the node whose position the iteration's state holds
    at: Option<usize>,
}

impl Walk<'_> {
    /// Makes `st` the position of the node at `path[to]`: from the position it holds when that
    /// is of a node above on the path, else copied from the deepest kept position on the path
    /// (the root's at worst), then the decisions and outcomes below played again.
    fn reach(
        &mut self,
        nodes: &[Node],
        states: &States,
        st: &mut State,
        path: &[(u32, u8)],
        to: usize,
    ) {
        if self.at == Some(to) {
            return;
        }
        let kept = (1..=to).rev().find(|&k| states.has(path[k].0)).unwrap_or(0);
        let from = match self.at {
            Some(a) if a >= kept && a < to => a,
            _ => {
                match states.get(path[kept].0).filter(|_| kept > 0) {
                    Some(p) => st.clone_from(p),
                    None => st.clone_from(self.root_st),
                }
                kept
            }
        };
        for k in from + 1..=to {
            let parent = nodes[path[k - 1].0 as usize];
            let i = (path[k].0 - parent.first) as usize;
            if parent.kind() == CHANCE {
                let _ = self.g.play_chance(st, i as i64);
            } else {
                let d = st.moves()[i];
                self.g.play_unchecked(st, d);
            }
        }
        self.at = Some(to);
    }
}

/// The winning side of a proven result (none for a draw).
fn proven_winner(proof: u8) -> Option<u8> {
    (proof >= WIN).then(|| proof - WIN)
}

/// The winner of the ended game in `st` (none for a draw, or when it is not over).
fn ended_winner(st: &State) -> Option<u8> {
    match st.pending() {
        Pending::Over(o) => o.winner.map(|w| w.0),
        _ => None,
    }
}

/// The proof of an expanded node from its children's: at a decision, a child won by the
/// side to move, or every child proven and all those best for the side to move alike; at a
/// chance node, every outcome proven alike.
fn prove(nodes: &[Node], node: u32, draw: f32) -> u8 {
    let n = nodes[node as usize];
    let children = &nodes[n.first as usize..n.first as usize + n.n as usize];
    let mut best = UNPROVEN;
    let mut best_r = -1.0f32;
    let mut alike = true;
    for ch in children {
        let p = ch.proof();
        if p == UNPROVEN {
            if n.kind() == DECISION {
                // an unproven child unless another wins: go on looking for one
                best_r = f32::INFINITY;
                continue;
            }
            return UNPROVEN;
        }
        if n.kind() == CHANCE {
            if best != UNPROVEN && p != best {
                return UNPROVEN;
            }
            best = p;
            continue;
        }
        let r = reward_of(p, n.side, draw);
        if r >= 1.0 {
            return p;
        }
        if r > best_r {
            (best, best_r, alike) = (p, r, true);
        } else if r == best_r && p != best {
            alike = false;
        }
    }
    if best_r.is_infinite() || !alike {
        return UNPROVEN;
    }
    best
}

/// Gives a node its children (all the decisions or chance outcomes of its position); false
/// when the arena is full or the position has more children than a node can hold. Each
/// decision is played once on `probe`: a child whose game is over is known at once, with its
/// result proven (a win in one is found before any of the node's children is visited).
fn expand(
    nodes: &mut Vec<Node>,
    node: u32,
    st: &State,
    probe: &mut State,
    g: &Game,
    max_nodes: usize,
) -> bool {
    let (kind, k, side) = match st.pending() {
        Pending::Over(o) => {
            let nd = &mut nodes[node as usize];
            nd.kind = OVER;
            nd.set_proof(proof_of(o.winner.map(|w| w.0)));
            return true;
        }
        Pending::Choice(_) | Pending::Drop(_) => {
            (DECISION, st.moves().len(), g.side_of(st.mover()).0)
        }
        Pending::ChanceFirst | Pending::Throw(_) => (CHANCE, g.chance_count(st), NO_SIDE),
    };
    if k > u16::MAX as usize || nodes.len() + k > max_nodes || k == 0 {
        return false;
    }
    let first = nodes.len() as u32;
    nodes.extend(std::iter::repeat_n(Node::FRESH, k));
    let nd = &mut nodes[node as usize];
    nd.kind = kind;
    nd.first = first;
    nd.n = k as u16;
    nd.side = side;
    if kind == DECISION {
        for (i, &d) in st.moves().iter().enumerate() {
            probe.clone_from(st);
            g.play_unchecked(probe, d);
            if let Pending::Over(o) = probe.pending() {
                let ch = &mut nodes[first as usize + i];
                ch.kind = OVER;
                ch.set_proof(proof_of(o.winner.map(|w| w.0)));
            }
        }
    }
    true
}

/// UCB1 at a decision node: a child proven to win for the side to move at once; else an
/// unvisited child (a random one among the unproven), else the child with the best mean reward
/// for the side to move plus `c·sqrt(ln N / n)`, a proven child's value being its result's
/// reward, exactly (no exploration).
fn select(nodes: &[Node], n: &Node, c: f64, draw: f32, rng: &mut Xoshiro256PlusPlus) -> usize {
    let first = n.first as usize;
    let children = &nodes[first..first + n.n as usize];
    let ln_n = (n.visits.max(1) as f64).ln();
    let mut best = 0;
    let mut best_u = f64::NEG_INFINITY;
    let mut unvisited = 0;
    for (i, ch) in children.iter().enumerate() {
        let p = ch.proof();
        if p == UNPROVEN && ch.visits == 0 {
            unvisited += 1;
            continue;
        }
        let v = ch.visits as f64;
        let u = match p {
            UNPROVEN => ch.value as f64 / v + c * (ln_n / v).sqrt(),
            p => {
                let r = reward_of(p, n.side, draw);
                if r >= 1.0 {
                    return i;
                }
                r as f64
            }
        };
        if u > best_u {
            best_u = u;
            best = i;
        }
    }
    if unvisited > 0 {
        let mut r = if unvisited > 1 {
            rng.random_range(0..unvisited)
        } else {
            0
        };
        for (i, ch) in children.iter().enumerate() {
            if ch.proof() == UNPROVEN && ch.visits == 0 {
                if r == 0 {
                    return i;
                }
                r -= 1;
            }
        }
    }
    best
}

/// A uniformly random playout to the end of the game; returns its outcome. The `leaving`
/// tests of the decisions are deferred to the one drawn ([`State::defer_leaving`]) during
/// the playout only: the tree's positions list every legal decision.
fn playout(g: &Game, st: &mut State, rng: &mut Xoshiro256PlusPlus) -> Outcome {
    st.defer_leaving(true);
    let outcome = loop {
        match st.pending() {
            Pending::Over(o) => break o,
            Pending::ChanceFirst | Pending::Throw(_) => {
                let o = g.draw_chance(st, rng.random());
                let _ = g.play_chance(st, o);
            }
            Pending::Choice(_) | Pending::Drop(_) => {
                if st.moves().is_empty() {
                    // Not produced by the engine (a player without a decision passes); a draw.
                    break Outcome {
                        winner: None,
                        reason: crate::EndReason::Rules,
                        said: None,
                    };
                }
                let d = crate::agents::draw_legal(g, st, rng);
                g.play_unchecked(st, d);
            }
        }
    };
    st.defer_leaving(false);
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A node's first child, visits, value (its bits), children and kind.
    type Summary = Vec<(u32, u32, u32, u16, u8)>;

    /// Each node's statistics, kind and children, to compare two trees.
    fn summary(t: &Tree) -> Summary {
        t.nodes
            .iter()
            .map(|n| (n.first, n.visits, n.value.to_bits(), n.n, n.kind))
            .collect()
    }

    /// A search of `playouts` from `st`, then another from the position after the most
    /// visited decision of the root (its subtree reused), keeping at most `kept` positions.
    fn two_searches(g: &Game, st: &State, kept: usize, playouts: u64) -> Vec<Summary> {
        let mut t = Tree::keeping(st, 1 << 16, kept);
        let counter = AtomicU64::new(0);
        t.prepare(st, false);
        t.rng = Xoshiro256PlusPlus::seed_from_u64(11);
        t.search(g, 0.5, Some(playouts), None, &counter, None);
        let first = summary(&t);
        let r = t.nodes[t.root as usize];
        let mut next = st.clone();
        if r.kind() == DECISION {
            let best = (0..r.n as usize)
                .max_by_key(|&i| t.nodes[r.first as usize + i].visits)
                .unwrap_or(0);
            g.play_unchecked(&mut next, st.moves()[best]);
            t.advance(Some(best));
        } else {
            let o = g.draw_chance(&next, 0.5);
            let _ = g.play_chance(&mut next, o);
            t.advance(Some(o as usize));
        }
        t.prepare(&next, true);
        t.search(g, 0.5, Some(playouts), None, &counter, None);
        vec![first, summary(&t)]
    }

    /// Keeping the positions of inner nodes changes nothing of the search: the same trees
    /// whether none, a few or many are kept, with decisions, chance outcomes and a reused
    /// subtree (whose inner nodes are kept when a walk first passes them), in every built-in
    /// game (fewer playouts in a game of long playouts or many decisions).
    #[test]
    fn kept_positions_change_nothing() {
        for (name, src) in crate::builtin::GAMES {
            let g = crate::load_game(src, &crate::Settings::default()).expect("it loads");
            let mut st = g.start();
            let mut x = 0.3;
            while matches!(st.pending(), Pending::ChanceFirst | Pending::Throw(_)) {
                // (a throw drawn again until it decides, as who starts: vary it)
                x = (x + 0.37) % 1.0;
                let o = g.draw_chance(&st, x);
                let _ = g.play_chance(&mut st, o);
            }
            let mut probe = st.clone();
            let _ = playout(&g, &mut probe, &mut Xoshiro256PlusPlus::seed_from_u64(3));
            let long = probe.turn() - st.turn() > 200 || st.moves().len() > 100;
            let playouts = if long { 20 } else { 400 };
            let none = two_searches(&g, &st, 0, playouts);
            assert!(none[0][0].1 as u64 >= playouts, "{name}: the search ran");
            for kept in [1, 7, KEPT] {
                assert!(
                    two_searches(&g, &st, kept, playouts) == none,
                    "{name}: {kept} kept positions change the search"
                );
            }
        }
    }
}
