//! A table: one game in progress on the server, its seats (a person by a token, or a computer
//! agent), the steps played, the narration, undo, and the computers' and chance's turns.
//!
//! A table is drawn as `ludic play` draws its game: chance from a generator seeded by the
//! seed, the computers from one seeded by `seed ^ 0x9e37_79b9_7f4a_7c15`, so that the same
//! seed and the same decisions give the same game.
//!
//! The lock of a table is held for the engine's calls, never while a computer thinks: the
//! search runs on a copy of the position, and its decision is dropped if the game moved in
//! the meantime (an undo, a resignation).

use super::request::{Move, NewTable, bad, spec_of};
use super::{ApiError, err};
use axum::http::StatusCode;
use ludic::agents::{Agent, AgentSpec, Event as AgentEvent, Seat};
use ludic::limits::shorten;
use ludic::record::{FORMAT, Record, Step};
use ludic::render::narrate::{chance_text, narrate};
use ludic::render::svg::{event_sites, svg};
use ludic::{Game, Pending, Player, SiteId, State, Status};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Instant;
use tokio::sync::broadcast;

/// A table and what watches it.
pub(crate) struct Cell {
    id: String,
    table: Mutex<Table>,
    /// (the kind of event, its data)
    tx: broadcast::Sender<(&'static str, String)>,
    used: Mutex<Instant>,
    /// the threads of this table's searching computers at most (0: none searches); its
    /// computers' turns take that many permits of the server's searches
    searches: usize,
}

/// A position to go back to: before a person's decision.
struct Undo {
    player: Player,
    st: State,
    steps: usize,
    narration: usize,
    last_sites: Vec<SiteId>,
}

struct Table {
    g: Arc<Game>,
    /// the built-in game's name, or `<text>`
    label: String,
    seed: u64,
    st: State,
    specs: Vec<AgentSpec>,
    /// each player's seat token (a person's; none for a computer)
    tokens: Vec<Option<String>>,
    computers: Vec<Option<Box<dyn Agent>>>,
    chance_rng: Xoshiro256PlusPlus,
    agent_rng: Xoshiro256PlusPlus,
    steps: Vec<Step>,
    narration: Vec<String>,
    last_sites: Vec<SiteId>,
    undo: Vec<Undo>,
    /// an end other than the rules': a resignation or a computer's forfeit (its JSON and
    /// its sentence)
    ended: Option<(Value, String)>,
    /// bumped at each change
    version: u64,
    /// the player whose computer is thinking
    thinking: Option<Player>,
    /// the engine failed on this table (a bug): nothing more is played
    broken: bool,
}

/// A game by its built-in name (`game`) or its text (`text`), with options (`NAME=VALUE`) and a
/// variant; also its label (the built-in game's name, or `<text>`). A name is only looked up
/// among the built-in games, and a text's bases are built-in games: nothing from the client
/// reaches the file system.
pub(crate) fn load(
    game: Option<&str>,
    text: Option<&str>,
    options: &[String],
    variant: Option<&str>,
) -> Result<(Game, String), ApiError> {
    let (label, source) = match (game, text) {
        (Some(name), _) => match ludic::builtin::lookup(name) {
            ludic::builtin::Lookup::Found(stem, src) => (stem.to_string(), src.to_string()),
            ludic::builtin::Lookup::Ambiguous(stems) => {
                return Err(bad(
                    format!("`{}` names several games", shorten(name, 40)),
                    format!("say which: {}", stems.join(", ")),
                ));
            }
            // only built-in games: a name never reaches the file system
            ludic::builtin::Lookup::NotFound => {
                return Err(err(
                    StatusCode::NOT_FOUND,
                    format!("no built-in game `{}`", shorten(name, 40)),
                    "GET /api/games lists them; post a game of your own as `text`",
                ));
            }
        },
        // its bases only built-in games: a text never reaches the file system
        (None, Some(text)) => match ludic::gamefile::compose_text(text, "<text>") {
            Ok(composed) => ("<text>".to_string(), composed),
            Err(e) => {
                return Err(err(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    format!("the game text has errors:\n{}", shorten(&e, 2000)),
                    "POST the text to /api/check for every error with its line and column",
                ));
            }
        },
        (None, None) => return Err(bad("no game", "give `game` or `text`")),
    };
    let settings = crate::cli::settings_from(options, variant)
        .map_err(|e| bad(e, "options are {\"NAME\": VALUE}"))?;
    let mut g = match ludic::load_game(&source, &settings) {
        Ok(g) => g,
        Err(ludic::LoadError::File(d)) => {
            let text = ludic::diagnostic::render(&label, &source, &d);
            return Err(err(
                StatusCode::UNPROCESSABLE_ENTITY,
                format!("the game text has errors:\n{}", shorten(&text, 2000)),
                "POST the text to /api/check for every error with its line and column",
            ));
        }
        Err(ludic::LoadError::Options(e)) => {
            return Err(bad(
                shorten(&e.join("; "), 300),
                "GET /api/games lists every game's options and variants",
            ));
        }
    };
    g.set_origin(&label, &source);
    Ok((g, label))
}

/// Creates a table (the engine's calls: run on the blocking pool).
pub(crate) fn create(id: String, req: NewTable, tokens: Vec<String>) -> Result<Cell, ApiError> {
    let (g, label) = load(
        req.game.as_deref(),
        req.text.as_deref(),
        &req.options,
        req.variant.as_deref(),
    )?;
    let n = g.players().len();
    let seats = req.seats.unwrap_or_else(|| {
        (0..n)
            .map(|i| if i == 0 { "human" } else { "random" }.to_string())
            .collect()
    });
    if seats.len() != n {
        return Err(bad(
            format!(
                "{} seats for the {n} players of {} ({})",
                seats.len(),
                g.title(),
                g.players().join(", ")
            ),
            "give one seat per player, in the order of the game's players",
        ));
    }
    let specs = seats
        .iter()
        .map(|s| spec_of(s))
        .collect::<Result<Vec<_>, _>>()?;
    let seed = req.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs())
    });
    let tokens: Vec<Option<String>> = specs
        .iter()
        .zip(tokens)
        .map(|(s, t)| (*s == AgentSpec::Human).then_some(t))
        .collect();
    let mut table = Table {
        st: g.start(),
        g: Arc::new(g),
        label,
        seed,
        computers: vec![],
        specs,
        tokens,
        chance_rng: Xoshiro256PlusPlus::seed_from_u64(seed),
        agent_rng: Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x9e37_79b9_7f4a_7c15),
        steps: vec![],
        narration: vec![],
        last_sites: vec![],
        undo: vec![],
        ended: None,
        version: 0,
        thinking: None,
        broken: false,
    };
    table.build_computers();
    let searches = table
        .specs
        .iter()
        .map(|s| match s {
            AgentSpec::Mcts(m) => m.threads.max(1),
            _ => 0,
        })
        .max()
        .unwrap_or(0);
    let (tx, _) = broadcast::channel(256);
    Ok(Cell {
        id,
        table: Mutex::new(table),
        tx,
        used: Mutex::new(Instant::now()),
        searches,
    })
}

impl Table {
    /// The computer players, anew, each told its player.
    fn build_computers(&mut self) {
        self.computers = self.specs.iter().map(AgentSpec::build).collect();
        for (p, c) in self.computers.iter_mut().enumerate() {
            if let Some(c) = c {
                c.begin(
                    &self.g,
                    &Seat {
                        players: vec![Player(p as u8)],
                        seed: self.seed,
                        index: 0,
                    },
                );
            }
        }
    }

    fn over(&self) -> bool {
        self.ended.is_some() || self.st.is_over()
    }

    /// Plays a decision by its id: told to the computers, narrated, recorded.
    fn decide(&mut self, a: ludic::Action) -> Result<(), String> {
        let g = self.g.clone();
        let d = g
            .decision_of(&self.st, a)
            .filter(|d| self.st.moves().contains(d))
            .ok_or_else(|| format!("decision {a} is not legal here"))?;
        let player = g.player_name(self.st.mover()).to_string();
        let notation = g.action_to_string(&self.st, a);
        for c in self.computers.iter_mut().flatten() {
            c.observe(&g, &self.st, AgentEvent::Decision(d));
        }
        let before = self.st.clone();
        let events = g
            .apply_action_narrated(&mut self.st, a)
            .map_err(|e| e.to_string())?;
        self.narration.extend(narrate(&g, &before, &events));
        self.last_sites = event_sites(&events);
        self.steps.push(Step::Decision { player, notation });
        self.version += 1;
        Ok(())
    }

    /// Draws and plays the pending chance event, as `ludic play` does.
    fn chance(&mut self) -> Result<(), String> {
        let g = self.g.clone();
        let outs = g.chance_outcomes(&self.st);
        let o = crate::cli::sample(&mut self.chance_rng, &outs);
        let name = g.outcome_name(&self.st, o);
        for c in self.computers.iter_mut().flatten() {
            c.observe(&g, &self.st, AgentEvent::Chance(o));
        }
        let before = self.st.clone();
        let events = g
            .play_chance_narrated(&mut self.st, o)
            .map_err(|e| e.to_string())?;
        // the throw with every face, as the terminal says it, then what it did
        self.narration.push(chance_text(&g, &before, o));
        self.narration.extend(narrate(&g, &before, &events));
        self.steps.push(Step::Chance { outcome: name });
        self.version += 1;
        Ok(())
    }

    /// The seat of a token (403 for a token of no seat).
    fn seat(&self, token: &str) -> Result<Player, ApiError> {
        self.tokens
            .iter()
            .position(|t| t.as_deref() == Some(token))
            .map(|p| Player(p as u8))
            .ok_or_else(|| {
                err(
                    StatusCode::FORBIDDEN,
                    "this seat token is not a seat of this table",
                    "use the token (or the link) the table was created with",
                )
            })
    }

    /// How the game ended, as records write it (none while it goes on).
    fn end_json(&self) -> Option<Value> {
        match &self.ended {
            Some((v, _)) => Some(v.clone()),
            None => self
                .st
                .outcome()
                .map(|o| ludic::render::outcome_json(&self.g, o)),
        }
    }

    fn end_text(&self) -> Option<String> {
        match &self.ended {
            Some((_, t)) => Some(t.clone()),
            None => self
                .st
                .outcome()
                .map(|o| ludic::render::outcome_text(&self.g, o)),
        }
    }

    fn summary(&self) -> Value {
        let g = &self.g;
        let (status, turn) = if self.over() {
            ("over", None)
        } else {
            match g.status(&self.st) {
                Status::Decision(p) => ("decision", Some(g.player_name(p).to_string())),
                Status::Chance => ("chance", None),
                Status::Over(_) => ("over", None),
            }
        };
        json!({
            "version": self.version,
            "steps": self.steps.len(),
            "status": status,
            "turn": turn,
            "thinking": self.thinking.map(|p| g.player_name(p).to_string()),
        })
    }
}

impl Cell {
    pub(crate) fn id(&self) -> &str {
        &self.id
    }

    /// The table; one whose lock was poisoned (the engine panicked while it was held) is
    /// marked broken.
    fn lock(&self) -> MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(|e| {
            let mut t = e.into_inner();
            t.broken = true;
            t
        })
    }

    pub(crate) fn touch(&self) {
        *self.used.lock().unwrap_or_else(PoisonError::into_inner) = Instant::now();
    }

    pub(crate) fn last_used(&self) -> Instant {
        *self.used.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(crate) fn subscribe(&self) -> broadcast::Receiver<(&'static str, String)> {
        self.tx.subscribe()
    }

    pub(crate) fn summary(&self) -> Value {
        self.lock().summary()
    }

    fn tell(&self, t: &Table) {
        // (nobody listening is no error)
        let _ = self.tx.send(("step", t.summary().to_string()));
    }

    /// The threads of this table's searching computers (0: none searches): their turns are
    /// long, and wait for as many permits.
    pub(crate) fn searches(&self) -> usize {
        self.searches
    }

    pub(crate) fn has_person(&self) -> bool {
        self.lock().tokens.iter().any(Option::is_some)
    }

    /// The answer to the table's creation: its id, and each seat's token and link.
    pub(crate) fn created(&self) -> Value {
        let t = self.lock();
        let seats: Vec<Value> = t
            .specs
            .iter()
            .enumerate()
            .map(|(p, s)| {
                let token = &t.tokens[p];
                json!({
                    "player": t.g.player_name(Player(p as u8)),
                    "agent": s.describe(),
                    "token": token,
                    "link": token.as_ref().map(|k| format!("/api/tables/{}?seat={k}", self.id)),
                })
            })
            .collect();
        json!({
            "id": self.id,
            "game": t.label,
            "title": t.g.title(),
            "seed": t.seed,
            "seats": seats,
        })
    }

    /// Plays chance and the computers until a person's decision or the end. The lock is let
    /// go while a computer thinks; its decision is dropped if the game changed meanwhile.
    pub(crate) fn advance(&self) {
        loop {
            let (g, st, version, mover, mut agent, mut rng) = {
                let mut t = self.lock();
                if t.broken || t.over() || t.thinking.is_some() {
                    return;
                }
                match t.st.pending() {
                    Pending::Over(_) => return,
                    Pending::ChanceFirst | Pending::Throw(_) => {
                        if t.chance().is_err() {
                            t.broken = true;
                        }
                        self.tell(&t);
                        continue;
                    }
                    Pending::Choice(_) | Pending::Drop(_) => {
                        let mover = t.st.mover();
                        let i = mover.0 as usize;
                        let Some(agent) = t.computers.get_mut(i).and_then(Option::take) else {
                            return;
                        };
                        t.thinking = Some(mover);
                        self.tell(&t);
                        (
                            t.g.clone(),
                            t.st.clone(),
                            t.version,
                            mover,
                            agent,
                            t.agent_rng.clone(),
                        )
                    }
                }
            };
            let thought = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                // the search's progress to the watchers, four times a second
                let name = g.player_name(mover);
                let mut said = std::time::Duration::ZERO;
                agent.decide(&g, &st, &mut rng, &mut |p| {
                    if p.elapsed >= said + std::time::Duration::from_millis(250) {
                        said = p.elapsed;
                        let _ = self.tx.send((
                            "thinking",
                            json!({
                                "thinking": name,
                                "playouts": p.playouts,
                                "ms": p.elapsed.as_millis() as u64,
                            })
                            .to_string(),
                        ));
                    }
                })
            }));
            let mut t = self.lock();
            t.thinking = None;
            let Ok(thought) = thought else {
                t.broken = true;
                self.tell(&t);
                return;
            };
            if t.version != version {
                // an undo or a resignation came first: the computers were built anew
                self.tell(&t);
                return;
            }
            t.agent_rng = rng;
            t.computers[mover.0 as usize] = Some(agent);
            let played = match thought {
                Ok(th) => match g.action_of(&st, th.decision) {
                    Some(a) => t
                        .decide(a)
                        .map_err(|e| format!("decided `{}`: {e}", g.notation_of(&st, th.decision))),
                    None => Err("decided a decision that is not legal".to_string()),
                },
                Err(f) => Err(f.reason),
            };
            if let Err(reason) = played {
                let by = t.specs[mover.0 as usize].describe();
                let side = g.side_of(mover);
                let winner = (g.sides().len() == 2).then(|| g.side_name(Player(1 - side.0.min(1))));
                let why = format!("{} ({by}) forfeits: {reason}", g.player_name(mover));
                let v = json!({
                    "winner": winner,
                    "reason": "forfeit",
                    "loser": g.side_name(side),
                    "forfeit": {"player": g.player_name(mover), "agent": by, "reason": reason},
                    "why": why,
                });
                t.ended = Some((v, why));
                t.version += 1;
            }
            self.tell(&t);
        }
    }

    /// A person's decision (409 when it is not their turn, 400 when it is not legal).
    pub(crate) fn play(&self, token: &str, what: Move) -> Result<(), ApiError> {
        let mut t = self.lock();
        let p = t.seat(token)?;
        if t.broken {
            return Err(broken());
        }
        if t.over() {
            return Err(err(
                StatusCode::CONFLICT,
                "the game is over",
                "GET the record, or create a new table",
            ));
        }
        let g = t.g.clone();
        let mover = match g.status(&t.st) {
            Status::Decision(m) => m,
            _ => {
                return Err(err(
                    StatusCode::CONFLICT,
                    "it is not a decision's turn",
                    "wait for the events",
                ));
            }
        };
        if mover != p || t.thinking.is_some() {
            return Err(err(
                StatusCode::CONFLICT,
                format!(
                    "it is not your turn ({} is to play, you are {})",
                    g.player_name(mover),
                    g.player_name(p)
                ),
                "wait for your turn: GET the state or listen to the events",
            ));
        }
        let legal = |st: &State| {
            let names: Vec<String> = g
                .legal_actions(st)
                .into_iter()
                .map(|a| g.action_to_string(st, a))
                .collect();
            format!("the legal decisions: {}", shorten(&names.join(", "), 300))
        };
        let a = match what {
            Move::Action(a) => match u32::try_from(a) {
                Ok(a) if g.legal_actions(&t.st).contains(&a) => a,
                _ => {
                    return Err(bad(
                        format!("{a} is not the id of a legal decision"),
                        legal(&t.st),
                    ));
                }
            },
            Move::Notation(text) => g.string_to_action(&t.st, &text).map_err(|e| {
                bad(
                    format!("`{}`: {}", shorten(&text, 60), shorten(&e, 300)),
                    legal(&t.st),
                )
            })?,
        };
        let undo = Undo {
            player: p,
            st: t.st.clone(),
            steps: t.steps.len(),
            narration: t.narration.len(),
            last_sites: t.last_sites.clone(),
        };
        if let Err(e) = t.decide(a) {
            return Err(bad(e, legal(&t.st)));
        }
        t.undo.push(undo);
        self.tell(&t);
        Ok(())
    }

    /// Takes back the seat's last decision and what followed it (409 when there is none, or
    /// when another person decided since).
    pub(crate) fn undo(&self, token: &str) -> Result<(), ApiError> {
        let mut t = self.lock();
        let p = t.seat(token)?;
        if t.ended.is_some() {
            return Err(err(
                StatusCode::CONFLICT,
                "the game ended by a resignation or a forfeit",
                "create a new table",
            ));
        }
        let Some(k) = t.undo.iter().rposition(|u| u.player == p) else {
            return Err(err(
                StatusCode::CONFLICT,
                "you have no decision to take back",
                "undo takes back your last decision and what followed it",
            ));
        };
        if t.undo[k + 1..].iter().any(|u| u.player != p) {
            return Err(err(
                StatusCode::CONFLICT,
                "another person decided since your last decision",
                "undo takes back only your own decisions",
            ));
        }
        let u = t.undo.split_off(k).swap_remove(0);
        t.st = u.st;
        t.steps.truncate(u.steps);
        t.narration.truncate(u.narration);
        t.last_sites = u.last_sites;
        t.thinking = None;
        t.version += 1;
        // the computers' trees followed the game taken back
        t.build_computers();
        self.tell(&t);
        Ok(())
    }

    /// The seat's side resigns: it loses.
    pub(crate) fn resign(&self, token: &str) -> Result<(), ApiError> {
        let mut t = self.lock();
        let p = t.seat(token)?;
        if t.over() {
            return Err(err(StatusCode::CONFLICT, "the game is over", ""));
        }
        let g = t.g.clone();
        let side = g.side_of(p);
        let winner = (g.sides().len() == 2).then(|| g.side_name(Player(1 - side.0.min(1))));
        let why = format!("{} resigns", g.player_name(p));
        let v = json!({
            "winner": winner,
            "reason": "resign",
            "loser": g.side_name(side),
            "why": why,
        });
        t.ended = Some((v, why));
        t.version += 1;
        self.tell(&t);
        Ok(())
    }

    /// The state as a seat (or a watcher, without a token) sees it.
    pub(crate) fn view(&self, token: Option<&str>) -> Result<Value, ApiError> {
        let t = self.lock();
        let you = token.map(|k| t.seat(k)).transpose()?;
        if t.broken {
            return Err(broken());
        }
        let g = t.g.clone();
        let st = &t.st;
        let summary = t.summary();
        let mover = match g.status(st) {
            Status::Decision(m) if !t.over() => Some(m),
            _ => None,
        };
        let persons_turn = mover.is_some_and(|m| t.tokens[m.0 as usize].is_some());
        let legal: Vec<Value> = if persons_turn && t.thinking.is_none() {
            g.legal_actions(st)
                .into_iter()
                .map(|a| {
                    let mut after = st.clone();
                    let sites: Vec<&str> = g
                        .apply_action_narrated(&mut after, a)
                        .map(|ev| event_sites(&ev))
                        .unwrap_or_default()
                        .into_iter()
                        .map(|s| g.site_name(s))
                        .collect();
                    json!({"id": a, "notation": g.action_to_string(st, a), "sites": sites})
                })
                .collect()
        } else {
            vec![]
        };
        let obs = g.observation_json(st);
        let players: Vec<Value> = t
            .specs
            .iter()
            .enumerate()
            .map(|(p, s)| {
                let p = Player(p as u8);
                json!({
                    "name": g.player_name(p),
                    "side": g.side_name(g.side_of(p)),
                    "agent": s.describe(),
                    "person": *s == AgentSpec::Human,
                })
            })
            .collect();
        Ok(json!({
            "id": self.id,
            "game": t.label,
            "title": g.title(),
            "seed": t.seed,
            "version": t.version,
            "players": players,
            "you": you.map(|p| g.player_name(p)),
            "status": summary["status"],
            "turn": summary["turn"],
            "your_turn": you.is_some() && you == mover && t.thinking.is_none(),
            "thinking": summary["thinking"],
            "legal": legal,
            "svg": svg(&g, st, &t.last_sites),
            "last_sites": t.last_sites.iter().map(|&s| g.site_name(s)).collect::<Vec<_>>(),
            "narration": t.narration,
            "steps": t.steps.len(),
            "scores": obs["scores"],
            "round": obs["round"],
            "end": t.end_json(),
            "end_text": t.end_text(),
            "observation": obs,
        }))
    }

    /// The game as the CLI's record.
    pub(crate) fn record(&self) -> Result<Record, ApiError> {
        let t = self.lock();
        let g = &t.g;
        let agents: BTreeMap<String, String> = g
            .players()
            .iter()
            .cloned()
            .zip(t.specs.iter().map(AgentSpec::describe))
            .collect();
        Ok(Record {
            format: FORMAT,
            game: t.label.clone(),
            title: g.title().to_string(),
            source_hash: g.source_hash().to_string(),
            options: g.option_values(),
            seed: Some(t.seed),
            agents,
            steps: t.steps.clone(),
            result: t.end_json(),
            last: t
                .st
                .is_over()
                .then(|| ludic::render::final_position(g, &t.st)),
        })
    }
}

fn broken() -> ApiError {
    err(
        StatusCode::INTERNAL_SERVER_ERROR,
        "the engine failed on this table",
        "this is a bug of ludic: please report it; create a new table",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::panic::AssertUnwindSafe;

    /// A table of the first built-in game, a person first.
    fn table() -> (Cell, String) {
        let game = ludic::builtin::GAMES[0].0;
        let req = NewTable::read(&json!({"game": game, "seed": 1})).expect("a request");
        let cell = create("t".into(), req, vec!["tok".into(), "other".into()]).expect("a table");
        (cell, "tok".into())
    }

    fn first_decision(c: &Cell, tok: &str) -> Move {
        let v = c.view(Some(tok)).expect("the state");
        Move::Action(v["legal"][0]["id"].as_u64().expect("a legal decision"))
    }

    /// A panic while a table is held (the engine failing on it) marks that table broken: its
    /// requests answer 500 from then on, and another table plays on.
    #[test]
    fn a_panic_in_a_table_breaks_that_table_only() {
        let (broken_one, tok) = table();
        let (other, tok2) = table();
        let r = std::panic::catch_unwind(AssertUnwindSafe(|| {
            let _held = broken_one.lock();
            panic!("the engine failed");
        }));
        assert!(r.is_err());
        let e = broken_one
            .play(&tok, first_decision(&other, &tok2))
            .expect_err("a broken table plays nothing");
        assert_eq!(e.status, StatusCode::INTERNAL_SERVER_ERROR);
        assert!(broken_one.view(Some(&tok)).is_err());
        // the other table is untouched
        other
            .play(&tok2, first_decision(&other, &tok2))
            .expect("another table plays on");
        assert!(other.view(Some(&tok2)).is_ok());
    }
}
