//! A game in progress at the terminal: the state, the steps played, undo, the record.

use super::*;
use ludic::Game;
use ludic::Player;
use ludic::agents::{Agent, AgentSpec, Event, Forfeited, GameEnd, Seat};
use ludic::limits::shorten;
use ludic::record::{RecordFile, Step};
use ludic::render::narrate::narrate;
use ludic::{Decision, Pending, State};

pub(super) struct Session<'a> {
    pub(super) g: &'a Game,
    pub(super) st: State,
    pub(super) steps: Vec<Step>,
    /// (state, steps) before each human decision, for undo
    pub(super) history: Vec<(State, usize)>,
    /// the computer player of each player (none for a person), told of every step
    pub(super) computers: Vec<Option<Box<dyn Agent>>>,
    /// the steps already in the record file that are still steps of the game
    pub(super) recorded: usize,
    pub(super) record: Option<RecordFile>,
    /// what the decisions since the last board was shown did (their sites are marked)
    pub(super) events: Vec<ludic::Event>,
    /// the narration of the steps played since it was last said
    pub(super) told: Vec<String>,
    /// the decisions of one player not yet told (a chain of hops, a sowing and its
    /// direction): the position before the first and their events, told as one move
    pub(super) chain: Option<(State, Vec<ludic::Event>)>,
    /// the computer that forfeited the game (it could not decide): the game is over
    pub(super) forfeit: Option<Forfeited>,
}

impl<'a> Session<'a> {
    /// A game at its start, each player played by its agent (a person for `human`).
    pub(super) fn new(g: &'a Game, agents: &[AgentSpec], record: Option<RecordFile>) -> Self {
        Session {
            g,
            st: g.start(),
            steps: vec![],
            history: vec![],
            computers: agents.iter().map(AgentSpec::build).collect(),
            events: vec![],
            told: vec![],
            chain: None,
            recorded: 0,
            record,
            forfeit: None,
        }
    }

    /// Tells each computer player which player it plays (before the first step).
    pub(super) fn begin(&mut self, seed: u64) {
        for (p, c) in self.computers.iter_mut().enumerate() {
            if let Some(c) = c {
                let seat = Seat {
                    players: vec![Player(p as u8)],
                    seed,
                    index: 0,
                };
                c.begin(self.g, &seat);
            }
        }
    }

    /// How the game ended: by its rules or by a computer's forfeit (`None` while it goes on).
    pub(super) fn end(&self) -> Option<GameEnd> {
        match &self.forfeit {
            Some(f) => Some(GameEnd::Forfeit(f.clone())),
            None => self.st.outcome().map(GameEnd::Over),
        }
    }

    /// Tells each computer player how the game ended (when it did).
    pub(super) fn tell_end(&mut self) {
        if let Some(end) = self.end() {
            for c in self.computers.iter_mut().flatten() {
                c.end(self.g, &self.st, &end);
            }
        }
    }

    /// Takes steps back (undo, or a line refused half-way).
    pub(super) fn truncate_steps(&mut self, n: usize) {
        self.steps.truncate(n);
        self.recorded = self.recorded.min(n);
    }

    /// Writes the steps not yet in the record file.
    pub(super) fn sync_record(&mut self) -> Result<(), Stop> {
        if let Some(f) = &mut self.record {
            f.sync(&self.steps, self.recorded).map_err(Stop::Record)?;
        }
        self.recorded = self.steps.len();
        Ok(())
    }

    /// Tells every computer player of a step about to be played.
    pub(super) fn tell(&mut self, event: Event) {
        for c in self.computers.iter_mut().flatten() {
            c.observe(self.g, &self.st, event);
        }
    }

    pub(super) fn decide(&mut self, d: Decision) -> Result<String, String> {
        let notation = self.g.notation_of(&self.st, d);
        let player = self.g.player_name(self.st.mover()).to_string();
        if !self.st.moves().contains(&d) {
            return Err(format!("`{notation}` is not a legal decision here"));
        }
        self.tell(Event::Decision(d));
        let before = self.st.clone();
        let events = self
            .g
            .play_narrated(&mut self.st, d)
            .map_err(|e| e.to_string())?;
        match &mut self.chain {
            Some((_, told)) => told.extend(events.iter().cloned()),
            None => self.chain = Some((before, events.clone())),
        }
        self.events.extend(events);
        self.steps.push(Step::Decision {
            player,
            notation: notation.clone(),
        });
        Ok(notation)
    }

    /// Tells the decisions played since they were last told, as one move.
    pub(super) fn flush_told(&mut self) {
        if let Some((before, events)) = self.chain.take() {
            self.told.extend(narrate(self.g, &before, &events));
        }
    }

    /// Plays the outcome of the pending chance event and records it by name.
    pub(super) fn chance(&mut self, o: i64) -> Result<String, String> {
        self.flush_told();
        let name = self.g.outcome_name(&self.st, o);
        self.tell(Event::Chance(o));
        let before = self.st.clone();
        let events = self
            .g
            .play_chance_narrated(&mut self.st, o)
            .map_err(|e| e.to_string())?;
        self.told.extend(narrate(self.g, &before, &events));
        self.events.extend(events);
        self.steps.push(Step::Chance {
            outcome: name.clone(),
        });
        Ok(name)
    }

    /// Plays one input line of decisions; all or nothing.
    pub(super) fn play_line(&mut self, line: &str) -> Result<Vec<String>, String> {
        let before = (self.st.clone(), self.steps.len());
        let (told, events) = (self.told.len(), self.events.len());
        let chain = self.chain.clone();
        let words: Vec<&str> = line.split_whitespace().collect();
        let mut done = vec![];
        let mut i = 0;
        let result = (|| {
            while i < words.len() {
                if !matches!(self.st.pending(), Pending::Choice(_) | Pending::Drop(_)) {
                    return Err(format!(
                        "`{}` was left over: the turn moved on",
                        shorten(&words[i..].join(" "), 80)
                    ));
                }
                let mover = self.st.mover();
                // A decision is written in at most as many words as its longest notation:
                // longer prefixes of the line are not tried (that made a long line quadratic).
                let most = self
                    .g
                    .legal_notations(&self.st)
                    .iter()
                    .map(|n| n.split_whitespace().count())
                    .max()
                    .unwrap_or(1)
                    .max(1);
                let mut matched = None;
                for j in (i + 1..=words.len().min(i + most)).rev() {
                    if let Ok(d) = self.g.parse_decision(&self.st, &words[i..j].join(" ")) {
                        matched = Some((d, j));
                        break;
                    }
                }
                let Some((d, j)) = matched else {
                    // Report the error of the attempt with every word left.
                    let rest = words[i..].join(" ");
                    return Err(self
                        .g
                        .parse_decision(&self.st, &rest)
                        .err()
                        .unwrap_or_else(|| format!("cannot read `{}`", shorten(&rest, 80))));
                };
                done.push(self.decide(d)?);
                i = j;
                if self.st.mover() != mover && i < words.len() {
                    return Err(format!(
                        "`{}` was left over: the turn ended",
                        shorten(&words[i..].join(" "), 80)
                    ));
                }
            }
            Ok(())
        })();
        match result {
            Ok(()) => Ok(done),
            Err(e) => {
                self.st = before.0;
                self.truncate_steps(before.1);
                self.told.truncate(told);
                self.events.truncate(events);
                self.chain = chain;
                Err(e)
            }
        }
    }
}
