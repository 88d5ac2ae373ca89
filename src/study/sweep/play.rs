//! Playing the points of a sweep: the game read once, each point loaded with its settings and
//! studied as `ludic simulate` studies it (the same seed, games, shard and agents), or
//! reported with the game's refusal of its options.

use super::{FORMAT, Point, Sweep, SweepPoint, SweepSpec, VARIANT_AXIS};
use crate::agents::AgentSpec;
use crate::study::merge::shard_range;
use crate::study::run::{Control, Plan, study};
use crate::{LoadError, Settings, load_game};
use std::ops::Range;

/// Why a sweep cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SweepError {
    /// the grid or the settings do not fit the game: an option or a variant it does not have,
    /// an agent that cannot play, a point or a shard that does not exist (a usage error)
    #[error("{0}")]
    Usage(String),
    /// the game cannot be read, or does not load with its default settings
    #[error("{0}")]
    Game(String),
}

/// Why a game did not load, in words (a file's diagnostics rendered; the settings' problems
/// one a line).
fn load_error(label: &str, text: &str, e: LoadError) -> String {
    match e {
        LoadError::File(d) => crate::diagnostic::render(label, text, &d)
            .trim_end()
            .to_string(),
        LoadError::Options(errs) => errs.join("\n"),
    }
}

/// The agents of a study from their specs, as `simulate` takes them: none (random playouts),
/// one (on every side) or two (A against B); `random` alone is random playouts.
fn study_agents(given: &[String]) -> Result<Vec<AgentSpec>, String> {
    if given.len() > 2 {
        return Err("give --agent once (it plays every side) or twice (A against B)".into());
    }
    let mut specs = vec![];
    for a in given {
        match AgentSpec::parse(a, 1)? {
            AgentSpec::Human => {
                return Err("a study is played by computer agents: `human` cannot play".into());
            }
            s => specs.push(s),
        }
    }
    if specs == [AgentSpec::Random] {
        specs.clear();
    }
    Ok(specs)
}

/// A sweep ready to play: its spec checked against the game, whose text is read once.
pub struct Sweeper {
    spec: SweepSpec,
    /// the game's name in messages (a built-in game's stem, or the path)
    label: String,
    text: String,
    hash: String,
    title: String,
    agents: Vec<AgentSpec>,
    size: u64,
}

impl Sweeper {
    /// Reads the game and checks the spec against it: every option named is one of the game's,
    /// every variant one of its variants (or `default`), the agents can play a study.
    pub fn new(spec: SweepSpec) -> Result<Sweeper, SweepError> {
        let usage = |e: String| SweepError::Usage(e);
        let size = spec.size().ok_or_else(|| {
            usage(format!(
                "the grid has more than {} points",
                super::MAX_POINTS
            ))
        })?;
        let agents = study_agents(&spec.agents).map_err(usage)?;
        let (label, text) =
            crate::gamefile::resolve_game(&spec.source).map_err(SweepError::Game)?;
        let g = load_game(&text, &Settings::default())
            .map_err(|e| SweepError::Game(load_error(&label, &text, e)))?;
        let names: Vec<&str> = g.all_options().map(|o| o.name).collect();
        let swept = spec.axes.iter().map(|a| a.name.as_str());
        for n in swept.chain(spec.fixed.keys().map(String::as_str)) {
            // (the axis of --variant; `-o variant=…` is refused by `SweepSpec::new`)
            if n == VARIANT_AXIS {
                continue;
            }
            if !names.contains(&n) {
                let mut msg = format!("unknown option `{n}`");
                match crate::diagnostic::suggest(n, names.iter().copied()) {
                    Some(s) => msg.push_str(&format!(": did you mean `{s}`?")),
                    None => msg.push_str(&format!(" (options: {})", names.join(", "))),
                }
                msg.push_str("\nhint: `ludic list` shows every game's options and variants");
                return Err(usage(msg));
            }
        }
        let variants: Vec<&str> = g.all_variants().map(|v| v.name).collect();
        let asked = spec.axes.iter().filter(|a| a.name == VARIANT_AXIS);
        for v in asked.flat_map(|a| &a.values) {
            if v != "default" && !variants.contains(&v.as_str()) {
                let mut msg = format!("unknown variant `{v}`");
                match crate::diagnostic::suggest(v, variants.iter().copied()) {
                    Some(s) => msg.push_str(&format!(": did you mean `{s}`?")),
                    None if variants.is_empty() => msg.push_str(": this game has no variants"),
                    None => msg.push_str(&format!(" (variants: {})", variants.join(", "))),
                }
                msg.push_str("\nhint: `default` is the rules without a variant; `ludic list` shows every game's variants");
                return Err(usage(msg));
            }
        }
        Ok(Sweeper {
            hash: crate::source_hash(&text),
            title: g.title().to_string(),
            spec,
            label,
            text,
            agents,
            size,
        })
    }

    pub fn spec(&self) -> &SweepSpec {
        &self.spec
    }

    /// The number of points.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The agents that play each point (none: random playouts).
    pub fn agents(&self) -> &[AgentSpec] {
        &self.agents
    }

    /// The point of index `index`.
    pub fn point(&self, index: u64) -> Result<Point, SweepError> {
        self.spec.point(index).ok_or_else(|| {
            SweepError::Usage(format!(
                "there is no point {index}: the grid has {} point{} (0 to {})",
                self.size,
                if self.size == 1 { "" } else { "s" },
                self.size.saturating_sub(1)
            ))
        })
    }

    /// The games of each point that shard `i` of `n` plays (all of them without a shard).
    pub fn range(&self, shard: Option<(u64, u64)>) -> Result<Range<u64>, SweepError> {
        match shard {
            None => Ok(0..self.spec.games),
            Some((i, n)) if n > 0 && (1..=n).contains(&i) => Ok(shard_range(self.spec.games, i, n)),
            Some((i, n)) => Err(SweepError::Usage(format!(
                "there is no shard {i} of {n}: the shards are 1/N to N/N"
            ))),
        }
    }

    /// The sweep's file with no point yet.
    pub fn empty(&self) -> Sweep {
        Sweep {
            format: FORMAT.into(),
            game: self.title.clone(),
            source: self.spec.source.clone(),
            source_hash: self.hash.clone(),
            axes: self.spec.axes.clone(),
            fixed: self.spec.fixed.clone(),
            games: self.spec.games,
            seed: self.spec.seed,
            agents: self.agents.iter().map(AgentSpec::describe).collect(),
            quick: self.spec.quick,
            points: vec![],
            partial: self.size > 0,
        }
    }

    /// Plays the games `range` of point `index` on `threads` threads (the study a shard of the
    /// point when the range is not all its games), as `ludic simulate` with the point's
    /// options, the seed and that shard plays them; `tick` is told the games done now and
    /// then. When `ctl` stops it, the point's study is partial. A point whose options the game
    /// refuses has its `error`.
    pub fn play(
        &self,
        index: u64,
        range: Range<u64>,
        threads: usize,
        ctl: &Control,
        tick: impl FnMut(u64),
    ) -> Result<SweepPoint, SweepError> {
        let p = self.point(index)?;
        if range.start > range.end || range.end > self.spec.games {
            return Err(SweepError::Usage(format!(
                "games {}..{} are not games of a point of {} games",
                range.start, range.end, self.spec.games
            )));
        }
        let mut entry = SweepPoint {
            index,
            point: p.point,
            variant: p.variant,
            label: p.label,
            study: None,
            error: None,
        };
        match load_game(&self.text, &p.settings) {
            Err(e) => entry.error = Some(load_error(&self.label, &self.text, e)),
            Ok(mut g) => {
                g.set_origin(&self.label, &self.text);
                let plan = Plan {
                    seed: self.spec.seed,
                    range,
                    threads: threads.max(1),
                    full: !self.spec.quick,
                    agents: &self.agents,
                };
                let s = study(&g, &self.hash, self.spec.games, &plan, ctl, tick);
                entry.study = Some(s.to_json());
            }
        }
        Ok(entry)
    }
}

/// One task of a sweep: point `index` (or shard `i` of `n` of its games) played on `jobs`
/// threads, as [`Sweeper::play`] plays it; what a worker of a cluster runs. The results of
/// the tasks of a sweep, put in [`Sweep`]s, join with [`super::merge`].
pub fn run_task(
    spec: &SweepSpec,
    index: u64,
    shard: Option<(u64, u64)>,
    jobs: usize,
    control: &Control,
) -> Result<SweepPoint, SweepError> {
    let s = Sweeper::new(spec.clone())?;
    let range = s.range(shard)?;
    s.play(index, range, jobs, control, |_| {})
}
