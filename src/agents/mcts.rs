//! Monte Carlo tree search (UCT) for any described game, with no knowledge of the game beyond
//! the engine's public API.
//!
//! - **Tree.** A node stands for a position reached from the root by a path of decisions (by
//!   their index in `State::moves`, whose order is fixed) and chance outcomes (by index); the
//!   position itself is not stored but replayed from the root into a scratch state. Nodes live in
//!   a preallocated arena; the children of a node are contiguous, child `i` being decision or
//!   outcome `i`. Each decision is a level, so a turn of several decisions (a hop chain, a sowing
//!   then a direction) is several levels, and the side choosing at a node is read from
//!   `State::mover` there, never assumed to alternate.
//! - **Chance nodes** are sampled: an iteration draws one outcome by its probability
//!   (`Game::draw_chance`) and goes on into that outcome's child. Each outcome has its own
//!   subtree, whose visits follow the probabilities, so the value of a chance node converges to
//!   the expectation over outcomes at the cost of one playout per iteration (expanding every
//!   outcome at each visit would cost one playout per outcome and spend as much on a throw of
//!   probability 1/16 as on one of 6/16). The decisions above a chance node are chosen by UCB
//!   over these sampled values, as in OpenSpiel's MCTS.
//! - **Rewards** per side: 1 to the winning side, 0 to the others, 1/sides each (½ with two
//!   sides) for a draw or a game stopped by a limit. A node keeps the sum of rewards of the side
//!   that chose the decision leading to it, so UCB at a node reads its children from the view of
//!   the side to move there; players of a team share their side's reward.
//! - **Playouts** are uniformly random to the end of the game (a whole match of rounds when the
//!   game is a match), in a scratch state copied from the root with `clone_from`: no allocation
//!   per playout once the arena and the scratch state have their size.
//! - **Parallelism**: root parallelism. Each thread searches its own tree with its own generator,
//!   seeded from one number drawn from the caller's generator and the thread's index; the
//!   trees are merged by summing the visits of the root's children. With a playout budget (split
//!   between the threads) the result depends only on the seed and the number of threads.
//! - **Subtree reuse**: told every step by [`Agent::observe`], each tree moves its root down to
//!   the child of the step played; at the next decision the subtree is compacted into the
//!   arena's spare half and the search goes on from it.
//! - **Stopping**: every thread reads the clock after each batch of playouts, and with it the
//!   program's stop request ([`crate::interrupt`], one relaxed load): a search of any budget
//!   ends within a batch of a signal.

use super::{Agent, Estimate, Event, Forfeit, Progress, Thought, parse_duration};
use crate::{Game, Outcome, Pending, State};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{Rng, RngExt, SeedableRng};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// How long a search runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// until this time has passed (the clock is read every few playouts)
    Time(Duration),
    /// this many playouts a decision, split between the threads
    Playouts(u64),
}

/// The settings of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsConfig {
    pub budget: Budget,
    /// the exploration constant of UCB1 (rewards are in [0, 1])
    pub c: f64,
    /// threads, each with its own tree (root parallelism)
    pub threads: usize,
    /// nodes in each thread's tree at most (the arena starts at [`ARENA_START`] nodes and
    /// grows on demand up to this size)
    pub max_nodes: usize,
}

/// The nodes a tree's arena is allocated with (1 MiB of nodes; each of its two halves grows
/// on demand, by doubling, up to `max_nodes`): a search that stays small never holds the
/// whole cap.
pub const ARENA_START: usize = 1 << 16;

/// The exploration constant unless the spec sets one.
pub const DEFAULT_C: f64 = 1.0;

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            budget: Budget::Time(Duration::from_secs(1)),
            c: DEFAULT_C,
            threads: 1,
            max_nodes: 1 << 21,
        }
    }
}

impl MctsConfig {
    /// Applies one `key=value` setting of a spec (`time=5s`, `playouts=20000`, `c=1.4`,
    /// `threads=2`).
    pub fn set(&mut self, kv: &str) -> Result<(), String> {
        let Some((k, v)) = kv.split_once('=') else {
            return Err(format!(
                "`{kv}` is not a setting of mcts: write time=5s, playouts=20000, c=1.4 or threads=2"
            ));
        };
        let v = v.trim();
        match k.trim().to_lowercase().as_str() {
            "time" => self.budget = Budget::Time(parse_duration(v)?),
            "playouts" => match v.replace('_', "").parse::<u64>() {
                Ok(n) if (1..=1_000_000_000_000).contains(&n) => self.budget = Budget::Playouts(n),
                _ => return Err(format!("`playouts={v}`: give a whole number of at least 1")),
            },
            "c" => match v.parse::<f64>() {
                Ok(c) if c.is_finite() && (0.0..=100.0).contains(&c) => self.c = c,
                _ => return Err(format!("`c={v}`: give a number from 0 to 100")),
            },
            "threads" | "j" => match v.parse::<usize>() {
                Ok(n) if (1..=1024).contains(&n) => self.threads = n,
                _ => return Err(format!("`threads={v}`: give a whole number from 1 to 1024")),
            },
            other => {
                return Err(format!(
                    "mcts has no setting `{other}`: it has time, playouts, c and threads"
                ));
            }
        }
        Ok(())
    }

    /// `mcts, 1 s a move, 2 threads`.
    pub fn describe(&self) -> String {
        let mut parts = vec![match self.budget {
            Budget::Time(d) => format!("{} s a move", trim_float(d.as_secs_f64())),
            Budget::Playouts(n) => format!("{} playouts a move", thousands(n)),
        }];
        if self.c != DEFAULT_C {
            parts.push(format!("c={}", self.c));
        }
        parts.push(format!(
            "{} thread{}",
            self.threads,
            if self.threads == 1 { "" } else { "s" }
        ));
        format!("mcts, {}", parts.join(", "))
    }
}

fn trim_float(x: f64) -> String {
    let s = format!("{x:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// `48000` → `48,000`.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// What a node is, known once it has been expanded: the low two bits of `Node::kind`.
const LEAF: u8 = 0;
const DECISION: u8 = 1;
const CHANCE: u8 = 2;
const OVER: u8 = 3;
const KIND: u8 = 3;
/// The proven result of a node's position, in the high six bits of `Node::kind`: none, a
/// draw, or `WIN + s` when side `s` wins whatever is played (sides from 62 on are never proven).
const UNPROVEN: u8 = 0;
const DRAW: u8 = 1;
const WIN: u8 = 2;
const PROOF_SHIFT: u32 = 2;
/// No side: the root, and the children of chance nodes (whose values are never compared).
const NO_SIDE: u8 = u8::MAX;
/// The root of a tree that must be built afresh.
const NO_ROOT: u32 = u32::MAX;
/// Playouts between two readings of the clock.
const BATCH: u64 = 4;

/// A node of the tree (16 bytes).
#[derive(Clone, Copy, Debug)]
struct Node {
    /// the index of the first child (0 when not expanded: the root is never a child)
    first: u32,
    visits: u32,
    /// the sum of the rewards of the side that chose the decision leading here
    value: f32,
    /// children: legal decisions or chance outcomes
    n: u16,
    /// what the node is (`KIND`'s bits) and its proven result (the bits above)
    kind: u8,
    /// at a decision node, the side of the player to move
    side: u8,
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

    fn kind(&self) -> u8 {
        self.kind & KIND
    }

    fn proof(&self) -> u8 {
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
fn reward_of(proof: u8, side: u8, draw: f32) -> f32 {
    match proof {
        DRAW => draw,
        p if p >= WIN && p - WIN == side => 1.0,
        _ => 0.0,
    }
}

/// One thread's tree, its scratch state and its generator.
struct Tree {
    nodes: Vec<Node>,
    /// the other half of the arena, into which a reused subtree is compacted
    spare: Vec<Node>,
    root: u32,
    /// the position at the root
    root_st: State,
    /// the position of the current iteration
    st: State,
    /// the nodes of the current iteration, with the side that chose each
    path: Vec<(u32, u8)>,
    rng: Xoshiro256PlusPlus,
    max_nodes: usize,
}

impl Tree {
    fn new(st: &State, max_nodes: usize) -> Tree {
        let max_nodes = max_nodes.clamp(16, u32::MAX as usize / 2);
        Tree {
            nodes: Vec::with_capacity(ARENA_START.min(max_nodes)),
            spare: Vec::with_capacity(ARENA_START.min(max_nodes)),
            root: NO_ROOT,
            root_st: st.clone(),
            st: st.clone(),
            path: Vec::with_capacity(256),
            rng: Xoshiro256PlusPlus::seed_from_u64(0),
            max_nodes,
        }
    }

    /// Makes the tree stand for `st`: the reused subtree when there is one, else a fresh root.
    fn prepare(&mut self, st: &State, reuse: bool) {
        self.root_st.clone_from(st);
        if reuse && self.root != NO_ROOT {
            self.compact();
        } else {
            self.nodes.clear();
            self.nodes.push(Node::FRESH);
            self.root = 0;
        }
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
    fn advance(&mut self, child: Option<usize>) {
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
    fn search(
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
    /// newly proven makes its parents' proofs be looked at again, up the path.
    fn iterate(&mut self, g: &Game, c: f64, nsides: usize) {
        let Tree {
            nodes,
            root,
            root_st,
            st,
            path,
            rng,
            max_nodes,
            ..
        } = self;
        st.clone_from(root_st);
        path.clear();
        let mut node = *root;
        path.push((node, NO_SIDE));
        let draw = 1.0 / nsides as f32;
        let winner = loop {
            let n = nodes[node as usize];
            if n.proof() != UNPROVEN {
                break proven_winner(n.proof());
            }
            match n.kind() {
                LEAF => {
                    if (n.visits > 0 || node == *root || matches!(st.pending(), Pending::Over(_)))
                        && expand(nodes, node, st, g, *max_nodes)
                    {
                        continue;
                    }
                    break playout(g, st, rng).winner.map(|w| w.0);
                }
                DECISION => {
                    let i = select(nodes, &n, c, draw, rng);
                    let d = st.moves()[i];
                    g.play_unchecked(st, d);
                    node = n.first + i as u32;
                    path.push((node, n.side));
                }
                CHANCE => {
                    let o = g.draw_chance(st, rng.random());
                    let _ = g.play_chance(st, o);
                    node = n.first + o as u32;
                    path.push((node, NO_SIDE));
                }
                // an ended game whose winner no proof holds
                _ => break ended_winner(st),
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
/// when the arena is full or the position has more children than a node can hold.
fn expand(nodes: &mut Vec<Node>, node: u32, st: &State, g: &Game, max_nodes: usize) -> bool {
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
    true
}

/// UCB1 at a decision node: an unvisited child first (a random one among them), else the child
/// with the best mean reward for the side to move plus `c·sqrt(ln N / n)`; a proven child's
/// value is its result's reward, exactly (no exploration).
fn select(nodes: &[Node], n: &Node, c: f64, draw: f32, rng: &mut Xoshiro256PlusPlus) -> usize {
    let first = n.first as usize;
    let children = &nodes[first..first + n.n as usize];
    let ln_n = (n.visits.max(1) as f64).ln();
    let mut best = 0;
    let mut best_u = f64::NEG_INFINITY;
    let mut unvisited = 0;
    for (i, ch) in children.iter().enumerate() {
        if ch.visits == 0 {
            unvisited += 1;
            continue;
        }
        let v = ch.visits as f64;
        let u = match ch.proof() {
            UNPROVEN => ch.value as f64 / v + c * (ln_n / v).sqrt(),
            p => reward_of(p, n.side, draw) as f64,
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
            if ch.visits == 0 {
                if r == 0 {
                    return i;
                }
                r -= 1;
            }
        }
    }
    best
}

/// A uniformly random playout to the end of the game; returns its outcome.
fn playout(g: &Game, st: &mut State, rng: &mut Xoshiro256PlusPlus) -> Outcome {
    loop {
        match st.pending() {
            Pending::Over(o) => return o,
            Pending::ChanceFirst | Pending::Throw(_) => {
                let o = g.draw_chance(st, rng.random());
                let _ = g.play_chance(st, o);
            }
            Pending::Choice(_) | Pending::Drop(_) => {
                let m = st.moves();
                if m.is_empty() {
                    // Not produced by the engine (a player without a decision passes); a draw.
                    return Outcome {
                        winner: None,
                        reason: crate::EndReason::Rules,
                        said: None,
                    };
                }
                let d = m[rng.random_range(0..m.len())];
                g.play_unchecked(st, d);
            }
        }
    }
}

/// The MCTS agent: its settings, one tree per thread, and the position the trees stand for.
pub struct Mcts {
    cfg: MctsConfig,
    trees: Vec<Tree>,
    /// the position the roots of the trees stand for, kept up to date by `observe`
    known: Option<State>,
}

/// The statistics of the root's children, merged over the threads' trees.
#[derive(Clone, Debug, Default)]
pub struct RootStats {
    /// visits and summed reward (for the side to move) of each legal decision
    pub visits: Vec<u64>,
    pub value: Vec<f64>,
    /// the proven reward of each decision for the side to move (1 a win, 0 a loss, 1/sides a
    /// draw), when a tree proved it (the solver: a result that holds whatever is played)
    pub proven: Vec<Option<f64>>,
    pub playouts: u64,
}

impl Mcts {
    pub fn new(cfg: MctsConfig) -> Mcts {
        Mcts {
            cfg,
            trees: vec![],
            known: None,
        }
    }

    /// The settings.
    pub fn config(&self) -> &MctsConfig {
        &self.cfg
    }

    /// Searches from `st` (a decision point) within the budget and returns the statistics of
    /// the root's children merged over the threads. `seed` seeds the threads' generators.
    pub fn search(
        &mut self,
        g: &Game,
        st: &State,
        seed: u64,
        progress: &mut dyn FnMut(Progress),
    ) -> RootStats {
        let threads = self.cfg.threads.max(1);
        let reuse = self.known.as_ref() == Some(st) && self.trees.len() == threads;
        if self.trees.len() != threads {
            self.trees = (0..threads)
                .map(|_| Tree::new(st, self.cfg.max_nodes))
                .collect();
        }
        for (t, tree) in self.trees.iter_mut().enumerate() {
            tree.prepare(st, reuse);
            tree.rng = Xoshiro256PlusPlus::seed_from_u64(
                seed ^ (t as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15),
            );
        }
        let t0 = Instant::now();
        let (deadline, total) = match self.cfg.budget {
            Budget::Time(d) => (Some(t0 + d), None),
            Budget::Playouts(n) => (None, Some(n)),
        };
        let share = |t: usize| {
            total.map(|n| {
                let base = n / threads as u64;
                (base + u64::from((t as u64) < n % threads as u64)).max(1)
            })
        };
        let counter = AtomicU64::new(0);
        let c = self.cfg.c;
        let (first, rest) = self.trees.split_at_mut(1);
        std::thread::scope(|s| {
            // a tree whose thread the system refuses searches here after the first: the same
            // playouts (the same choice with a playout budget), only later
            let mut refused = vec![];
            for (i, tree) in rest.iter_mut().enumerate() {
                let counter = &counter;
                let sh = share(i + 1);
                let (tx, rx) = std::sync::mpsc::channel();
                let spawned = std::thread::Builder::new().spawn_scoped(s, move || {
                    let tree: &mut Tree = match rx.recv() {
                        Ok(t) => t,
                        Err(_) => return,
                    };
                    tree.search(g, c, sh, deadline, counter, None);
                });
                match spawned {
                    Ok(_) => {
                        let _ = tx.send(tree);
                    }
                    Err(_) => refused.push((tree, sh)),
                }
            }
            first[0].search(g, c, share(0), deadline, &counter, Some(progress));
            for (tree, sh) in refused {
                tree.search(g, c, sh, deadline, &counter, None);
            }
        });
        let k = st.moves().len();
        let mut stats = RootStats {
            visits: vec![0; k],
            value: vec![0.0; k],
            proven: vec![None; k],
            playouts: counter.load(Ordering::Relaxed),
        };
        let draw = 1.0 / g.sides.len().max(1) as f32;
        for tree in &self.trees {
            let r = tree.nodes[tree.root as usize];
            if r.kind() != DECISION || r.n as usize != k {
                continue;
            }
            let children = &tree.nodes[r.first as usize..r.first as usize + k];
            for (i, ch) in children.iter().enumerate() {
                stats.visits[i] += ch.visits as u64;
                stats.value[i] += ch.value as f64;
                if ch.proof() != UNPROVEN {
                    stats.proven[i] = Some(reward_of(ch.proof(), r.side, draw) as f64);
                }
            }
        }
        match &mut self.known {
            Some(kn) => kn.clone_from(st),
            None => self.known = Some(st.clone()),
        }
        stats
    }
}

impl Agent for Mcts {
    fn decide(
        &mut self,
        g: &Game,
        st: &State,
        rng: &mut Xoshiro256PlusPlus,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<Thought, Forfeit> {
        let moves = st.moves();
        if moves.len() == 1 {
            return Ok(Thought {
                decision: moves[0],
                estimate: None,
            });
        }
        let t0 = Instant::now();
        let seed = rng.next_u64();
        let stats = self.search(g, st, seed, progress);
        // A decision proven to win; else the most visited of those not proven to lose (ties go
        // to the better mean, then to the first).
        let proven = |i: usize| stats.proven[i];
        let best = (0..moves.len())
            .find(|&i| proven(i) == Some(1.0))
            .or_else(|| {
                let lost = |i: usize| proven(i) == Some(0.0);
                let all_lost = (0..moves.len()).all(lost);
                (0..moves.len())
                    .filter(|&i| all_lost || !lost(i))
                    .max_by(|&a, &b| {
                        let mean = |i: usize| stats.value[i] / stats.visits[i].max(1) as f64;
                        stats.visits[a]
                            .cmp(&stats.visits[b])
                            .then(mean(a).total_cmp(&mean(b)))
                            .then(b.cmp(&a))
                    })
            });
        Ok(match best {
            Some(i) if stats.visits[i] > 0 => Thought {
                decision: moves[i],
                estimate: Some(Estimate {
                    playouts: stats.playouts,
                    value: stats.proven[i].unwrap_or(stats.value[i] / stats.visits[i] as f64),
                    visits: stats.visits[i],
                    elapsed: t0.elapsed(),
                }),
            },
            // The root could not be expanded (more decisions than a node holds): at random.
            _ => Thought {
                decision: moves[rng.random_range(0..moves.len())],
                estimate: None,
            },
        })
    }

    fn observe(&mut self, g: &Game, before: &State, event: Event) {
        let Some(known) = self.known.as_mut() else {
            return;
        };
        if known != before {
            self.known = None;
            return;
        }
        let child = match event {
            Event::Decision(d) => before.moves().iter().position(|&m| m == d),
            Event::Chance(o) => usize::try_from(o).ok(),
        };
        for tree in &mut self.trees {
            tree.advance(child);
        }
        let ok = match event {
            Event::Decision(d) => g.play(known, d).is_ok(),
            Event::Chance(o) => g.play_chance(known, o).is_ok(),
        };
        if !ok {
            self.known = None;
        }
    }

    fn describe(&self) -> String {
        self.cfg.describe()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_with_thousands() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(48000), "48,000");
        assert_eq!(thousands(1234567), "1,234,567");
    }

    #[test]
    fn nodes_are_small() {
        assert_eq!(std::mem::size_of::<Node>(), 16);
    }
}
