//! Studying a rule set: many games (random playouts, or agents) on every core, the metrics
//! that describe the game (balance, length, branching, decisiveness, drama, skill) with their
//! intervals, side by side for variants, in shards that merge exactly.
//!
//! - [`stats`]: sufficient statistics that merge exactly, intervals and tests;
//! - [`metrics`]: what one game adds ([`metrics::Observer`]) and the metrics derived;
//! - [`run`](mod@run): playing the games on several threads, the same results for any number (the
//!   runner of `match` too: [`run_games`]);
//! - [`merge`]: shards and merging their results;
//! - [`report`]: a study's result and its table, JSON and CSV;
//! - [`compare`]: studies side by side, with significant differences marked;
//! - [`html`]: the report of a study, a comparison or a sweep as one HTML file with charts.
//! - [`sweep`]: a study of every point of a grid of options and variants, resumable, in
//!   shards and tasks that merge exactly.

pub mod compare;
pub mod html;
pub mod merge;
pub mod metrics;
pub mod report;
pub mod run;
pub mod stats;
pub mod sweep;

pub use metrics::{Metric, Stats};
pub use report::{Output, Study};
pub use run::{Control, Plan, random_playout, run, run_games, stream_seed};

/// The metrics, one line each with how they are computed (for `--help`; the README has them
/// too). Intervals are 95%: Wilson for proportions, mean ± 1.96·sd/√n for means.
pub const METRICS_HELP: &str =
    "Metrics (95% intervals: Wilson for proportions, mean ± 1.96 sd/√n for means):
  win.SIDE             share of games won by SIDE
  draw                 share of games drawn (by the rules, a limit or a fault)
  first_player_win     share, of games with a decision, won by the side that took the first one
  first_player_score   the same with a draw counted 1/2 (0.5: no advantage between two sides)
  agent.A.win/.score   with two agents: A's share of wins, and its score (draw 1/2): skill
  turn_limit           share of games ended by the game's turn limit (`limit N turns`)
  move_limit           share of games ended by the game's move limit (`limit N moves`)
  other_limit          share stopped by the engine's step, decision or round limit
  fault                share stopped because the rules asked for something impossible
  turns.*              turns played (a turn the game ended in counts if it had a decision):
                       mean, sd, min, p10, p50, p90, max (percentiles by nearest rank, exact)
  decisions.*          decisions taken in a game, the same figures
  rounds.*             rounds of a match (games with rounds), the same figures
  branching            legal decisions at a decision, mean over all decisions
  forced               share of decisions with a single legal decision
  branching.t1..t10    mean legal decisions in each tenth of the game (decision k of D is in
                       tenth 1 + floor(10k/D))
  winner_leads_at_end  share of won games whose winner's score (the value of its captures,
                       summed over its players) is strictly above every other side's at the end
  decisiveness         over those games: the share of the game's D decisions after which the
                       winner's score led strictly every time to the end ((D - k + 1)/D, k the
                       decision after which it took the lead for good; 1: led from the first)
  lead_changes         times a game the strict score leader became another side (the first
                       lead, and ties, are no change)
  (--quick leaves out the last four and branching.t1..t10: no score is followed)";
