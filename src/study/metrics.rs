//! What a study measures: [`Observer`] watches one game (cheaply: a few additions a decision,
//! and the score leader when every metric is asked for), [`Stats`] holds the sufficient
//! statistics of many games, and [`Stats::metrics`] derives the metrics with their intervals.
//!
//! The metrics come from the engine's generic state only: the sides, the legal decisions, the
//! outcome, the turns and rounds, and each side's score (the value of what its players
//! captured, as `end game` scores it).

use super::stats::{FIXED_ONE, Histogram, Moments, mean_interval, to_fixed, wilson};
use crate::Player;
use crate::{EndReason, Game, Outcome, State};
use serde::{Deserialize, Serialize};

/// Tenths of a game, for the branching factor over the game's course.
pub const TENTHS: usize = 10;

/// Wins, draws and losses of one agent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wdl {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Wdl {
    fn merge(&mut self, o: &Wdl) {
        self.wins += o.wins;
        self.draws += o.draws;
        self.losses += o.losses;
    }
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }
    /// A win 1, a draw ½, over the games.
    pub fn score(&self) -> f64 {
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games() as f64
    }
}

/// The statistics of the metrics that follow the score (not kept in a quick study).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreStats {
    /// legal decisions summed by tenth of the game (decision k of D is in tenth ⌊10k/D⌋)
    pub course_sum: [u64; TENTHS],
    /// decisions by tenth of the game
    pub course_n: [u64; TENTHS],
    /// changes of the score leader, one value a game
    pub lead_changes: Moments,
    /// games won, with at least one decision, whose winner leads by score at the end: the
    /// share of decisions after which the winner led for good, in units of 2^-32
    pub decisive: Moments,
    /// games won (with at least one decision) whose winner does not lead by score at the end
    pub winner_not_leading: u64,
}

impl ScoreStats {
    fn merge(&mut self, o: &ScoreStats) {
        for t in 0..TENTHS {
            self.course_sum[t] += o.course_sum[t];
            self.course_n[t] += o.course_n[t];
        }
        self.lead_changes.merge(&o.lead_changes);
        self.decisive.merge(&o.decisive);
        self.winner_not_leading += o.winner_not_leading;
    }
}

/// The sufficient statistics of a set of games: counts, sums, sums of squares and exact
/// histograms, all integers, so that they merge exactly in any order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stats {
    pub games: u64,
    /// games won, by side
    pub wins: Vec<u64>,
    pub draws: u64,
    /// games ended by the game's turn limit (`limit N turns`)
    pub turn_limit: u64,
    /// games ended by the game's move limit (`limit N moves`; absent from the results of
    /// older versions, which counted them in `turn_limit`: then 0)
    #[serde(default)]
    pub move_limit: u64,
    /// games stopped by the step, decision or round limit of the engine
    pub other_limit: u64,
    pub faults: u64,
    /// games with at least one decision, and how the side that took the first one did
    pub first: Wdl,
    /// turns played, decisions and rounds, one value a game
    pub turns: Histogram,
    pub decisions: Histogram,
    pub rounds: Histogram,
    /// legal decisions at each decision: their sum and sum of squares (the count is the sum of
    /// the decisions histogram), and the decisions with a single one
    pub choices: Moments,
    /// legal decision sequences of each turn with a decision, estimated by the product of the
    /// legal decisions at the turn's decisions (saturating at 2^64 - 1): their count, sum and
    /// sum of squares (absent from the results of older versions: then empty)
    #[serde(default)]
    pub turn_choices: Moments,
    pub forced: u64,
    pub cycles_cut: u64,
    pub score: Option<ScoreStats>,
    /// with two agents: agent A's and agent B's results
    pub agents: Option<[Wdl; 2]>,
    /// games that ended because an agent could not decide (counted as lost by its side;
    /// absent when none, and from the results of older versions)
    #[serde(default, skip_serializing_if = "is_zero")]
    pub forfeits: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl Stats {
    pub fn new(sides: usize, full: bool, two_agents: bool) -> Stats {
        Stats {
            games: 0,
            wins: vec![0; sides],
            draws: 0,
            turn_limit: 0,
            move_limit: 0,
            other_limit: 0,
            faults: 0,
            first: Wdl::default(),
            turns: Histogram::default(),
            decisions: Histogram::default(),
            rounds: Histogram::default(),
            choices: Moments::default(),
            turn_choices: Moments::default(),
            forced: 0,
            cycles_cut: 0,
            score: full.then(ScoreStats::default),
            agents: two_agents.then(Default::default),
            forfeits: 0,
        }
    }

    /// Adds the statistics of other games (of the same study).
    pub fn merge(&mut self, o: &Stats) {
        self.games += o.games;
        for (a, b) in self.wins.iter_mut().zip(&o.wins) {
            *a += b;
        }
        self.draws += o.draws;
        self.turn_limit += o.turn_limit;
        self.move_limit += o.move_limit;
        self.other_limit += o.other_limit;
        self.faults += o.faults;
        self.forfeits += o.forfeits;
        self.first.merge(&o.first);
        self.turns.merge(&o.turns);
        self.decisions.merge(&o.decisions);
        self.rounds.merge(&o.rounds);
        self.choices.merge(&o.choices);
        self.turn_choices.merge(&o.turn_choices);
        self.forced += o.forced;
        self.cycles_cut += o.cycles_cut;
        if let (Some(a), Some(b)) = (&mut self.score, &o.score) {
            a.merge(b);
        }
        if let (Some(a), Some(b)) = (&mut self.agents, &o.agents) {
            a[0].merge(&b[0]);
            a[1].merge(&b[1]);
        }
    }
}

impl Stats {
    /// Adds the statistics of other games like [`Stats::merge`], but refuses a sum that does
    /// not fit its integer (results edited by hand, or not of one study), naming it; `self`
    /// is unchanged then.
    pub fn checked_merge(&mut self, o: &Stats) -> Result<(), &'static str> {
        fn add(a: &mut u64, b: u64, what: &'static str) -> Result<(), &'static str> {
            *a = a.checked_add(b).ok_or(what)?;
            Ok(())
        }
        fn moments(a: &mut Moments, b: &Moments, what: &'static str) -> Result<(), &'static str> {
            a.n = a.n.checked_add(b.n).ok_or(what)?;
            a.sum = a.sum.checked_add(b.sum).ok_or(what)?;
            a.sum_sq = a.sum_sq.checked_add(b.sum_sq).ok_or(what)?;
            Ok(())
        }
        fn wdl(a: &mut Wdl, b: &Wdl, what: &'static str) -> Result<(), &'static str> {
            add(&mut a.wins, b.wins, what)?;
            add(&mut a.draws, b.draws, what)?;
            add(&mut a.losses, b.losses, what)
        }
        let mut t = self.clone();
        add(&mut t.games, o.games, "games")?;
        if t.wins.len() != o.wins.len() {
            return Err("wins");
        }
        for (a, b) in t.wins.iter_mut().zip(&o.wins) {
            add(a, *b, "wins")?;
        }
        add(&mut t.draws, o.draws, "draws")?;
        add(&mut t.turn_limit, o.turn_limit, "turn_limit")?;
        add(&mut t.move_limit, o.move_limit, "move_limit")?;
        add(&mut t.other_limit, o.other_limit, "other_limit")?;
        add(&mut t.faults, o.faults, "faults")?;
        add(&mut t.forfeits, o.forfeits, "forfeits")?;
        wdl(&mut t.first, &o.first, "first")?;
        moments(&mut t.choices, &o.choices, "choices")?;
        moments(&mut t.turn_choices, &o.turn_choices, "turn_choices")?;
        add(&mut t.forced, o.forced, "forced")?;
        add(&mut t.cycles_cut, o.cycles_cut, "cycles_cut")?;
        // a histogram's counts are each at most its games, checked above
        for (h, g) in [
            (&o.turns, "turns"),
            (&o.decisions, "decisions"),
            (&o.rounds, "rounds"),
        ] {
            if h.iter().try_fold(0u64, |a, (_, c)| a.checked_add(c)) != Some(o.games) {
                return Err(g);
            }
        }
        t.turns.merge(&o.turns);
        t.decisions.merge(&o.decisions);
        t.rounds.merge(&o.rounds);
        match (&mut t.score, &o.score) {
            (Some(a), Some(b)) => {
                for k in 0..TENTHS {
                    add(&mut a.course_sum[k], b.course_sum[k], "score.course_sum")?;
                    add(&mut a.course_n[k], b.course_n[k], "score.course_n")?;
                }
                moments(&mut a.lead_changes, &b.lead_changes, "score.lead_changes")?;
                moments(&mut a.decisive, &b.decisive, "score.decisive")?;
                add(
                    &mut a.winner_not_leading,
                    b.winner_not_leading,
                    "score.winner_not_leading",
                )?;
            }
            (None, None) => {}
            _ => return Err("score"),
        }
        match (&mut t.agents, &o.agents) {
            (Some(a), Some(b)) => {
                wdl(&mut a[0], &b[0], "agents")?;
                wdl(&mut a[1], &b[1], "agents")?;
            }
            (None, None) => {}
            _ => return Err("agents"),
        }
        *self = t;
        Ok(())
    }

    /// Whether the statistics of `games` games agree with one another: every game won or
    /// drawn once, one length of each kind a game, a decision counted once. The field that
    /// does not, if any.
    pub fn inconsistency(&self) -> Option<&'static str> {
        let won = self
            .wins
            .iter()
            .try_fold(self.draws, |a, w| a.checked_add(*w));
        if won != Some(self.games) {
            return Some("wins and draws");
        }
        for (h, what) in [
            (&self.turns, "turns"),
            (&self.decisions, "decisions"),
            (&self.rounds, "rounds"),
        ] {
            if h.iter().try_fold(0u64, |a, (_, c)| a.checked_add(c)) != Some(self.games) {
                return Some(what);
            }
        }
        if u128::from(self.choices.n) != self.decisions.moments().sum {
            return Some("choices");
        }
        if self.first.games() > self.games || self.forced > self.choices.n {
            return Some("first or forced");
        }
        None
    }
}

const NONE: i16 = -1;

/// Watches one game: told of each decision point and of the end, it adds the game to a
/// [`Stats`]. With `FULL`, it also follows the score leader and keeps the number of legal
/// decisions of each decision (in a buffer reused from game to game).
pub struct Observer<const FULL: bool> {
    decisions: u64,
    choices: u64,
    choices_sq: u64,
    forced: u64,
    first: i16,
    /// the turn being played (1 + its number; 0 before the first decision) and the product of
    /// the legal decisions at its decisions so far
    turn: u64,
    product: u64,
    /// the products of the turns ended so far
    turns: Moments,
    /// legal decisions at each decision of the game (FULL)
    ms: Vec<u32>,
    /// the last side that led, the leader changes, the current run of one leader (NONE: no
    /// leader) and the decision count at which it began
    last_leader: i16,
    changes: u64,
    run_leader: i16,
    run_start: u64,
}

impl<const FULL: bool> Default for Observer<FULL> {
    fn default() -> Self {
        Observer {
            decisions: 0,
            choices: 0,
            choices_sq: 0,
            forced: 0,
            first: NONE,
            turn: 0,
            product: 1,
            turns: Moments::default(),
            ms: Vec::with_capacity(if FULL { 1024 } else { 0 }),
            last_leader: NONE,
            changes: 0,
            run_leader: NONE,
            run_start: 0,
        }
    }
}

/// The side whose score is strictly above every other side's (NONE when none is).
fn leader(g: &Game, st: &State) -> i16 {
    let sides = g.sides.len();
    if sides == 2 && g.players.len() == 2 {
        // the common case, without the loops
        let (a, b) = (st.score(g.ir(), Player(0)), st.score(g.ir(), Player(1)));
        return match a.cmp(&b) {
            std::cmp::Ordering::Greater => 0,
            std::cmp::Ordering::Less => 1,
            std::cmp::Ordering::Equal => NONE,
        };
    }
    let (mut best, mut best_score, mut tie) = (NONE, i64::MIN, false);
    for side in 0..sides {
        let mut s = 0i64;
        let mut p = side;
        while p < g.players.len() {
            s = s.saturating_add(st.score(g.ir(), Player(p as u8)));
            p += sides;
        }
        if s > best_score {
            (best, best_score, tie) = (side as i16, s, false);
        } else if s == best_score {
            tie = true;
        }
    }
    if tie { NONE } else { best }
}

impl<const FULL: bool> Observer<FULL> {
    /// Before a game.
    #[inline]
    pub fn reset(&mut self) {
        self.decisions = 0;
        self.choices = 0;
        self.choices_sq = 0;
        self.forced = 0;
        self.first = NONE;
        self.turn = 0;
        self.product = 1;
        self.turns = Moments::default();
        if FULL {
            self.ms.clear();
            self.last_leader = NONE;
            self.changes = 0;
            self.run_leader = NONE;
            self.run_start = 0;
        }
    }

    /// The score leader after `k` decisions.
    #[inline]
    fn snapshot(&mut self, l: i16, k: u64) {
        if l != NONE {
            if self.last_leader != NONE && l != self.last_leader {
                self.changes += 1;
            }
            self.last_leader = l;
        }
        if l != self.run_leader {
            self.run_leader = l;
            self.run_start = k;
        }
    }

    /// At a decision point of `st` with `m` legal decisions (before the decision is taken).
    #[inline(always)]
    pub fn decision(&mut self, g: &Game, st: &State, m: usize) {
        if self.decisions == 0 {
            self.first = g.side_of(st.mover()).0 as i16;
        }
        if FULL {
            let l = leader(g, st);
            self.snapshot(l, self.decisions);
            self.ms.push(m as u32);
        }
        let m = m as u64;
        let turn = u64::from(st.turn()) + 1;
        if turn != self.turn {
            self.end_turn();
            self.turn = turn;
        }
        self.product = self.product.saturating_mul(m);
        self.decisions += 1;
        self.choices += m;
        self.choices_sq += m * m;
        self.forced += u64::from(m == 1);
    }

    /// Closes the turn being played, if a decision was taken in it.
    #[inline]
    fn end_turn(&mut self) {
        if self.turn != 0 {
            self.turns.add(self.product);
        }
        self.product = 1;
    }

    /// At the end of the game: adds it to `s`. `a_side` is the side agent A played (with two
    /// agents).
    pub fn end(&mut self, g: &Game, st: &State, s: &mut Stats, a_side: Option<Player>) {
        let Some(o) = st.outcome() else { return };
        self.end_as(g, st, s, a_side, o, None);
    }

    /// At the end of a game that ended with outcome `o` (the state's, or after a forfeit
    /// the one it gives): adds it to `s`. `a_won` overrides agent A's result (after a
    /// forfeit: whether A is the agent that did not forfeit).
    pub fn end_as(
        &mut self,
        g: &Game,
        st: &State,
        s: &mut Stats,
        a_side: Option<Player>,
        o: Outcome,
        a_won: Option<bool>,
    ) {
        s.games += 1;
        match o.winner {
            Some(p) => s.wins[p.0 as usize] += 1,
            None => s.draws += 1,
        }
        match o.reason {
            EndReason::TurnLimit => s.turn_limit += 1,
            EndReason::MoveLimit => s.move_limit += 1,
            EndReason::StepLimit | EndReason::DecisionLimit | EndReason::RoundLimit => {
                s.other_limit += 1
            }
            EndReason::Fault(_) => s.faults += 1,
            EndReason::Rules => {}
        }
        if self.first != NONE {
            match o.winner {
                Some(p) if p.0 as i16 == self.first => s.first.wins += 1,
                Some(_) => s.first.losses += 1,
                None => s.first.draws += 1,
            }
        }
        if let (Some(a), Some(agents)) = (a_side, &mut s.agents) {
            let winner = match a_won {
                Some(true) => Some(a),
                Some(false) => Some(Player(u8::from(a.0 == 0))),
                None => o.winner,
            };
            match winner {
                Some(w) if w == a => {
                    agents[0].wins += 1;
                    agents[1].losses += 1;
                }
                Some(_) => {
                    agents[0].losses += 1;
                    agents[1].wins += 1;
                }
                None => {
                    agents[0].draws += 1;
                    agents[1].draws += 1;
                }
            }
        }
        s.turns.add(st.turns_played() as u64);
        s.decisions.add(self.decisions);
        s.rounds.add(st.round() as u64);
        s.choices.n += self.decisions;
        s.choices.sum += self.choices as u128;
        s.choices.sum_sq += self.choices_sq as u128;
        s.forced += self.forced;
        self.end_turn();
        self.turn = 0;
        s.turn_choices.merge(&self.turns);
        s.cycles_cut += st.cycles_cut() as u64;
        if FULL && let Some(sc) = &mut s.score {
            let d = self.decisions;
            let l = leader(g, st);
            self.snapshot(l, d);
            sc.lead_changes.add(self.changes);
            if let (Some(w), true) = (o.winner, d > 0) {
                if self.run_leader == w.0 as i16 {
                    // decisions k ≥ 1 after which the winner led every time to the end
                    let led = d - self.run_start.max(1) + 1;
                    sc.decisive.add(to_fixed(led, d));
                } else {
                    sc.winner_not_leading += 1;
                }
            }
            for (k, &m) in self.ms.iter().enumerate() {
                let t = k * TENTHS / self.ms.len();
                sc.course_sum[t] += m as u64;
                sc.course_n[t] += 1;
            }
        }
    }
}

/// How a metric is compared between two studies.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Test {
    /// a proportion: `x` successes (a draw may count half) of `n` trials
    Proportion { x: f64, n: u64 },
    /// a mean of `n` values with their sample variance
    Mean { mean: f64, var: f64, n: u64 },
    /// not tested (extremes, percentiles, spreads)
    None,
}

/// One derived metric.
#[derive(Clone, Debug, PartialEq)]
pub struct Metric {
    /// its key in JSON and CSV (`win.South`, `turns.p50`)
    pub key: String,
    /// its name in the table
    pub label: String,
    pub value: f64,
    /// the 95% interval, where it is a proportion (Wilson) or a mean (normal approximation)
    pub ci: Option<(f64, f64)>,
    /// shown as a percentage
    pub percent: bool,
    pub test: Test,
}

fn proportion(key: &str, label: &str, x: f64, n: u64) -> Metric {
    let p = x / n as f64;
    Metric {
        key: key.into(),
        label: label.into(),
        value: p,
        ci: (n > 0).then(|| wilson(p, n)),
        percent: true,
        test: Test::Proportion { x, n },
    }
}

fn mean(key: &str, label: &str, m: &Moments, scale: f64) -> Metric {
    let (mu, var) = (m.mean() / scale, m.var() / (scale * scale));
    Metric {
        key: key.into(),
        label: label.into(),
        value: mu,
        ci: (m.n > 1).then(|| mean_interval(mu, var, m.n)),
        percent: false,
        test: Test::Mean {
            mean: mu,
            var,
            n: m.n,
        },
    }
}

fn plain(key: String, label: String, value: f64) -> Metric {
    Metric {
        key,
        label,
        value,
        ci: None,
        percent: false,
        test: Test::None,
    }
}

/// A length's mean (with its interval), spread, extremes and percentiles.
fn lengths(out: &mut Vec<Metric>, key: &str, label: &str, h: &Histogram) {
    let m = h.moments();
    out.push(mean(
        &format!("{key}.mean"),
        &format!("{label}: mean"),
        &m,
        1.0,
    ));
    out.push(plain(
        format!("{key}.sd"),
        format!("{label}: standard deviation"),
        m.var().sqrt(),
    ));
    let opt = |x: Option<u64>| x.map(|v| v as f64).unwrap_or(f64::NAN);
    out.push(plain(
        format!("{key}.min"),
        format!("{label}: min"),
        opt(h.min()),
    ));
    for p in [10, 50, 90] {
        out.push(plain(
            format!("{key}.p{p}"),
            format!("{label}: {p}th percentile"),
            opt(h.percentile(p)),
        ));
    }
    out.push(plain(
        format!("{key}.max"),
        format!("{label}: max"),
        opt(h.max()),
    ));
}

impl Stats {
    /// The metrics, in the order of the table, for a game with these sides (`rounds`: whether
    /// the game has rounds, whose counts are then shown).
    pub fn metrics(&self, sides: &[String], agents: &[String]) -> Vec<Metric> {
        let n = self.games;
        let mut out = vec![];
        for (i, side) in sides.iter().enumerate() {
            let w = self.wins.get(i).copied().unwrap_or(0);
            out.push(proportion(
                &format!("win.{side}"),
                &format!("{side} wins"),
                w as f64,
                n,
            ));
        }
        out.push(proportion("draw", "draws", self.draws as f64, n));
        let f = &self.first;
        out.push(proportion(
            "first_player_win",
            "first player wins",
            f.wins as f64,
            f.games(),
        ));
        out.push(proportion(
            "first_player_score",
            "first player's score (draw 1/2)",
            f.wins as f64 + 0.5 * f.draws as f64,
            f.games(),
        ));
        if let Some(a) = &self.agents {
            for (k, name) in ["A", "B"].iter().enumerate() {
                let who = agents.get(k).map(String::as_str).unwrap_or(name);
                out.push(proportion(
                    &format!("agent.{name}.win"),
                    &format!("{name} ({who}) wins"),
                    a[k].wins as f64,
                    a[k].games(),
                ));
                out.push(proportion(
                    &format!("agent.{name}.score"),
                    &format!("{name}'s score (draw 1/2)"),
                    a[k].wins as f64 + 0.5 * a[k].draws as f64,
                    a[k].games(),
                ));
            }
        }
        out.push(proportion(
            "turn_limit",
            "ended by the turn limit",
            self.turn_limit as f64,
            n,
        ));
        out.push(proportion(
            "move_limit",
            "ended by the move limit",
            self.move_limit as f64,
            n,
        ));
        out.push(proportion(
            "other_limit",
            "stopped by the step/decision/round limit",
            self.other_limit as f64,
            n,
        ));
        out.push(proportion(
            "fault",
            "stopped by a fault of the rules",
            self.faults as f64,
            n,
        ));
        lengths(&mut out, "turns", "turns", &self.turns);
        lengths(&mut out, "decisions", "decisions", &self.decisions);
        lengths(&mut out, "rounds", "rounds", &self.rounds);
        out.push(mean(
            "branching",
            "branching per decision (legal decisions)",
            &self.choices,
            1.0,
        ));
        out.push(mean(
            "branching.turn",
            "branching per turn (decision sequences)",
            &self.turn_choices,
            1.0,
        ));
        out.push(proportion(
            "forced",
            "forced decisions (one legal)",
            self.forced as f64,
            self.choices.n,
        ));
        if let Some(sc) = &self.score {
            for t in 0..TENTHS {
                out.push(plain(
                    format!("branching.t{}", t + 1),
                    format!("legal decisions, tenth {} of the game", t + 1),
                    sc.course_sum[t] as f64 / sc.course_n[t] as f64,
                ));
            }
            let won = sc.decisive.n + sc.winner_not_leading;
            out.push(proportion(
                "winner_leads_at_end",
                "won games: winner leads by score at the end",
                sc.decisive.n as f64,
                won,
            ));
            out.push(mean(
                "decisiveness",
                "decisiveness (share led for good)",
                &sc.decisive,
                FIXED_ONE as f64,
            ));
            out.push(mean(
                "lead_changes",
                "lead changes a game",
                &sc.lead_changes,
                1.0,
            ));
        }
        out
    }
}
