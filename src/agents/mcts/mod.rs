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
//! - **Solver** (MCTS-Solver): a node whose game is over is proven (its winner, or a draw);
//!   each decision of a node being expanded is played once on a scratch state, so that a
//!   child that ends the game is proven before it is visited (a win in one is seen at once). A
//!   decision node with a child won by its mover is won; one whose children are all proven is
//!   proven when the results best for its mover agree (with two sides, minimax); a chance node
//!   when all its outcomes agree. Proofs are backed up the path as they appear. Selection takes
//!   a proven win at once and values a proven child by its exact reward (no exploration); an
//!   iteration that reaches a proven node backs its result up without a playout. The root's
//!   proven win is chosen, its proven losses avoided; a search for a time ends once the root is
//!   proven.
//! - **Subtree reuse**: told every step by [`Agent::observe`], each tree moves its root down to
//!   the child of the step played; at the next decision the subtree is compacted into the
//!   arena's spare half and the search goes on from it.
//! - **Stopping**: every thread reads the clock after each batch of playouts, and with it the
//!   program's stop request ([`crate::interrupt`], one relaxed load): a search of any budget
//!   ends within a batch of a signal.

use super::{Agent, Estimate, Event, Forfeit, Progress, Thought, parse_duration};
use crate::{Game, State};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{Rng, RngExt, SeedableRng};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
#[cfg(test)]
use tree::Node;
use tree::{DECISION, Tree, UNPROVEN, reward_of};

mod cache;
mod tree;

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

/// The exploration constant unless the spec sets one (rewards in [0, 1]): 0.5, the best of
/// 0.3, 0.4, 0.5, 0.7 and 1 against OpenSpiel's MCTSBot on two of its games at equal CPU time
/// (tests/python/bench_mcts_vs_openspiel.py), one value for every game.
pub const DEFAULT_C: f64 = 0.5;

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
