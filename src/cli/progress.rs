//! Progress on standard error for the commands that play many games (simulate, compare, match):
//! a bar redrawn in place when standard error is a terminal, nothing otherwise (scripts and
//! tests read a clean standard error).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// The bar's characters, shared by every command.
const BAR_CHARS: &str = "=> ";

/// A bar of `total` games on standard error when it is a terminal, else a hidden one.
pub(crate) fn games_bar(total: u64) -> ProgressBar {
    if std::io::stderr().is_terminal() {
        ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    }
}

/// The bar of a study (simulate, compare): games done, their rate and the time left.
pub(crate) fn study_bar(total: u64, label: &str) -> ProgressBar {
    let bar = games_bar(total);
    if let Ok(style) = ProgressStyle::with_template(
        "{prefix} [{bar:24}] {human_pos}/{human_len} games, {rate}, ETA {eta}",
    ) {
        let rate = |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = write!(w, "{:.0}/s", s.per_sec());
        };
        bar.set_style(style.progress_chars(BAR_CHARS).with_key("rate", rate));
    }
    bar.set_prefix(label.chars().take(24).collect::<String>());
    bar
}

/// A duration as a person reads it: `42 s`, `3 min 05 s`, `2 h 07 min`.
pub(crate) fn human_duration(d: Duration) -> String {
    let s = d.as_secs();
    if s == 0 {
        "under 1 s".to_string()
    } else if s < 60 {
        format!("{s} s")
    } else if s < 3600 {
        format!("{} min {:02} s", s / 60, s % 60)
    } else {
        format!("{} h {:02} min", s / 3600, (s % 3600) / 60)
    }
}

/// The progress of a match: games done of all, agent A's score so far, the playouts a second
/// of the searches and the time left (estimated from the games finished: their mean length
/// and the games played at once). Before the first game ends: the time so far and the
/// playouts a second, so that a long first game is seen to be working.
pub(crate) struct MatchProgress {
    bar: ProgressBar,
    t0: Instant,
    total: u64,
    jobs: u64,
    done: u64,
    /// A's wins, draws and losses so far
    wdl: (u64, u64, u64),
    /// the games finished, each for its own length
    played: Duration,
    playouts: u64,
    /// Ctrl-C was pressed: the games being played are finished, then the match stops
    stopping: bool,
}

impl MatchProgress {
    pub(crate) fn new(total: u64, jobs: usize, label: &str) -> MatchProgress {
        let bar = games_bar(total);
        if let Ok(style) = ProgressStyle::with_template("{prefix} [{bar:20}] {msg}") {
            bar.set_style(style.progress_chars(BAR_CHARS));
        }
        bar.set_prefix(label.chars().take(20).collect::<String>());
        let mut p = MatchProgress {
            bar,
            t0: Instant::now(),
            total,
            jobs: jobs.max(1) as u64,
            done: 0,
            wdl: (0, 0, 0),
            played: Duration::ZERO,
            playouts: 0,
            stopping: false,
        };
        p.redraw();
        p
    }

    /// A game ended: A's result in it (1 a win, ½ a draw, 0 a loss) and its length (shown at
    /// the next tick).
    pub(crate) fn game_done(&mut self, a_reward: f64, length: Duration) {
        self.done += 1;
        self.played += length;
        if a_reward == 1.0 {
            self.wdl.0 += 1;
        } else if a_reward == 0.0 {
            self.wdl.2 += 1;
        } else {
            self.wdl.1 += 1;
        }
    }

    /// Now and then: the playouts of every search so far.
    pub(crate) fn tick(&mut self, playouts: u64) {
        self.playouts = playouts;
        self.redraw();
    }

    /// A signal stops the match: says that the games in progress are dropped.
    pub(crate) fn stopping(&mut self) {
        self.stopping = true;
    }

    fn redraw(&mut self) {
        if self.bar.is_hidden() {
            return;
        }
        let elapsed = self.t0.elapsed();
        let rate = if self.playouts > 0 && elapsed.as_secs_f64() > 0.0 {
            format!(
                ", {} playouts/s",
                ludic::agents::mcts::thousands(
                    (self.playouts as f64 / elapsed.as_secs_f64()) as u64
                )
            )
        } else {
            String::new()
        };
        let msg = if self.done == 0 {
            format!(
                "0/{} games, {} at once: {} so far{rate}",
                self.total,
                self.jobs.min(self.total),
                human_duration(elapsed)
            )
        } else {
            let (w, d, l) = self.wdl;
            let score = 100.0 * (w as f64 + 0.5 * d as f64) / self.done as f64;
            let left = self.total.saturating_sub(self.done);
            let mean = self.played.as_secs_f64() / self.done as f64;
            let eta =
                Duration::from_secs_f64(mean * left as f64 / self.jobs.min(left).max(1) as f64);
            format!(
                "{}/{} games, A {score:.1}% ({w} win{}, {d} draw{}, {l} loss{}){rate}, ETA {}",
                self.done,
                self.total,
                if w == 1 { "" } else { "s" },
                if d == 1 { "" } else { "s" },
                if l == 1 { "" } else { "es" },
                human_duration(eta)
            )
        };
        let msg = if self.stopping {
            format!("{msg}; stopping: the games in progress are dropped (Ctrl-C again: quit now)")
        } else {
            msg
        };
        self.bar.set_position(self.done);
        self.bar.set_message(msg);
    }

    /// Erases the bar.
    pub(crate) fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
