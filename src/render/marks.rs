//! The marks of tokens on the text board: each side's initial, and with several kinds of tokens
//! each kind's letter (`wK`, `bN`).

use super::*;

/// The first letter of each side's name (or its index when two sides share one).
pub(super) fn initials(g: &Game) -> Vec<String> {
    let firsts: Vec<String> = g
        .sides
        .iter()
        .map(|p| p.chars().next().unwrap_or('?').to_string())
        .collect();
    let unique = firsts
        .iter()
        .collect::<std::collections::BTreeSet<_>>()
        .len()
        == firsts.len();
    if unique {
        firsts
    } else {
        (1..=g.sides.len()).map(|i| i.to_string()).collect()
    }
}

/// How tokens are marked on the text board, worked out once for a drawing.
pub(super) struct Marks {
    ini: Vec<String>,
    letters: Option<Vec<char>>,
}

impl Marks {
    pub(super) fn new(g: &Game) -> Self {
        Marks {
            ini: initials(g),
            letters: kind_letters(g),
        }
    }

    /// A token's mark: its side's initial, with the player's number in a team (`S2`), and
    /// with several kinds of tokens the side in a small letter and the kind's letter (`wK`).
    pub(super) fn of(&self, g: &Game, st: &State, t: usize) -> String {
        let owner = g.tokens[t].owner;
        let side = g.side_of(owner).0 as usize;
        let team = if g.players.len() > g.sides.len() {
            (owner.0 as usize / g.sides.len() + 1).to_string()
        } else {
            String::new()
        };
        match &self.letters {
            Some(letters) => format!(
                "{}{team}{}",
                self.ini[side].to_lowercase(),
                letters[st.tokens().kind_of(t).0 as usize]
            ),
            None => format!("{}{team}", self.ini[side]),
        }
    }
}

/// Whether every piece kind of the game is a kind of tokens (the board shows tokens' marks).
pub(super) fn only_tokens(g: &Game) -> bool {
    let kinds: std::collections::BTreeSet<u8> = g.tokens.iter().map(|t| t.kind.0).collect();
    !g.tokens.is_empty() && kinds.len() == g.pieces.len()
}

/// A capital letter for each kind of tokens, when a game has several (`None` otherwise): the
/// first letter of its name that no kind declared before it took (`king` K, `knight` N).
pub(crate) fn kind_letters(g: &Game) -> Option<Vec<char>> {
    let token_kinds: std::collections::BTreeSet<u8> = g.tokens.iter().map(|t| t.kind.0).collect();
    if token_kinds.len() < 2 {
        return None;
    }
    let mut taken: Vec<char> = vec![];
    let letters = g
        .pieces
        .iter()
        .enumerate()
        .map(|(k, p)| {
            let upper = p
                .name
                .chars()
                .filter(|c| c.is_alphanumeric())
                .map(|c| c.to_ascii_uppercase());
            let letter = if token_kinds.contains(&(k as u8)) {
                upper
                    .clone()
                    .find(|c| !taken.contains(c))
                    .or_else(|| upper.clone().next())
            } else {
                None
            };
            let letter = letter.unwrap_or('?');
            taken.push(letter);
            letter
        })
        .collect();
    Some(letters)
}
