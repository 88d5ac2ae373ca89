//! The outline of a `.game` file, for editors: its symbols (what it declares, with where and
//! a one-line detail) and the uses of each, read from the syntax tree and its spans. A name is
//! resolved as the checker resolves it: a `let`, a parameter or a loop variable where it is in
//! scope (the innermost first), then the file's one namespace of declarations.

mod walk;

use crate::ast::Span;
use crate::diagnostic::Diagnostics;
use std::collections::HashMap;
use std::ops::Range;

/// What a symbol of a file is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SymbolKind {
    /// `option stones = 12 in 2..40`
    Option,
    /// a side of `sides South North`
    Side,
    /// a piece kind of `pieces { … }`
    Piece,
    /// `dice grains { … }`
    Dice,
    /// a die or a face of a `dice` block (`die g1 g2 faces marked blank`)
    Face,
    /// `site east at (…)`, or the sites of a range in a `row` (`s[1..7]`, named `s`)
    Site,
    /// `region treasure = …`
    Region,
    /// `track South from 0 = …`, named by its side
    Track,
    /// `ring …`
    Ring,
    /// a direction of a ring (`forward ccw backward cw`)
    Direction,
    /// an area off the board (`area killed`)
    Area,
    /// a label of a choice's alternatives (`sow` in `choose sow h …`, `labels { sow "…" }`)
    Label,
    /// `tally debt per player = 0`
    Tally,
    /// `def mine(h) = …`
    Def,
    /// `action take(t, q) { … }`
    Action,
    /// a parameter of a def or an action
    Parameter,
    /// `let v = …`, and `throw … as v`
    Let,
    /// the variable of a loop, an alternative, a `sow`, or an expression (`exists h where …`)
    Variable,
}

impl SymbolKind {
    /// The word for it: `def`, `region`, `loop variable`…
    ///
    /// ```
    /// assert_eq!(ludic::SymbolKind::Def.word(), "def");
    /// ```
    pub fn word(self) -> &'static str {
        match self {
            SymbolKind::Option => "option",
            SymbolKind::Side => "side",
            SymbolKind::Piece => "piece",
            SymbolKind::Dice => "dice",
            SymbolKind::Face => "die or face",
            SymbolKind::Site => "site",
            SymbolKind::Region => "region",
            SymbolKind::Track => "track",
            SymbolKind::Ring => "ring",
            SymbolKind::Direction => "direction",
            SymbolKind::Area => "area",
            SymbolKind::Label => "label",
            SymbolKind::Tally => "tally",
            SymbolKind::Def => "def",
            SymbolKind::Action => "action",
            SymbolKind::Parameter => "parameter",
            SymbolKind::Let => "let",
            SymbolKind::Variable => "variable",
        }
    }
}

/// A symbol of a file: a name it declares, where, and every use of it. Spans are byte ranges
/// of the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    /// the name as declared (a row's range of sites is named by its prefix: `s`)
    pub name: String,
    /// what it is
    pub kind: SymbolKind,
    /// where its name is written in its declaration
    pub name_span: Range<usize>,
    /// the whole declaration
    pub span: Range<usize>,
    /// one line that says what it is: the declaration's first line (`def mine(h) = …`), and
    /// what the game built from the file says of it (a region's sites)
    pub detail: String,
    /// what the file says it means (an option's, a tally's or a label's string)
    pub doc: Option<String>,
    /// where it can be used: `None` for the whole file; a local's range otherwise
    pub scope: Option<Range<usize>>,
    /// every use of the name (not the declaration), in the order of the text
    pub references: Vec<Range<usize>>,
}

/// The outline of a file: its symbols, declarations in the order of the text.
///
/// ```
/// let text = "def twice(n) = n + n\ndef four(x) = twice(x)\n";
/// let outline = ludic::outline(text).unwrap();
/// let twice = outline.symbol_at(text.rfind("twice").unwrap()).unwrap();
/// assert_eq!((twice.name.as_str(), twice.kind), ("twice", ludic::SymbolKind::Def));
/// assert_eq!(twice.references, vec![35..40]);
/// ```
#[derive(Clone, Debug, Default)]
pub struct Outline {
    /// the symbols, by the start of their declaration
    pub symbols: Vec<Symbol>,
}

/// The outline of a game's text: its symbols and their uses. A file that does not parse has
/// none: its syntax errors are returned (as `ludic validate` reports them). A file that parses
/// has its outline even when it does not check; what only the checked game can tell (the
/// sites of a region) is then left out.
///
/// ```
/// let (_, text) = ludic::builtin::GAMES[0];
/// let outline = ludic::outline(text).unwrap();
/// assert!(outline.symbols.iter().any(|s| s.kind == ludic::SymbolKind::Def));
/// assert!(ludic::outline("turn {").is_err());
/// ```
pub fn outline(source: &str) -> Result<Outline, Diagnostics> {
    let file = crate::parse::parse(source)?;
    let game = crate::load_game(source, &crate::Settings::default()).ok();
    let mut w = walk::Walker::new(source);
    w.declare(&file);
    w.walk(&file);
    let mut symbols = w.finish();
    if let Some(game) = &game {
        describe_regions(&mut symbols, game);
    }
    // (a composed text's symbols of its other files are not in this one)
    symbols.retain(|s| s.span.end <= source.len() && s.name_span.end <= source.len());
    symbols.sort_by_key(|s| (s.span.start, s.name_span.start));
    for s in &mut symbols {
        s.references.sort_by_key(|r| (r.start, r.end));
        s.references.dedup();
    }
    Ok(Outline { symbols })
}

/// A region's detail ends with the sites it has, as the game has it.
fn describe_regions(symbols: &mut [Symbol], game: &crate::Game) {
    for s in symbols.iter_mut().filter(|s| s.kind == SymbolKind::Region) {
        if let Some((_, member)) = game.regions.iter().find(|(n, _)| *n == s.name) {
            let sites: Vec<&str> = game
                .all_sites()
                .filter(|d| member.get(d.id.0 as usize) == Some(&true))
                .map(|d| d.name)
                .collect();
            s.detail.push_str(&format!(" — sites: {}", sites.join(" ")));
        }
    }
}

impl Outline {
    /// The symbol whose name or one of whose uses is written at a byte offset (the offset just
    /// after a name counts, as an editor's cursor at its end).
    ///
    /// ```
    /// let text = "def f(h) = h + 1\ndef g(h) = h";
    /// let o = ludic::outline(text).unwrap();
    /// let h = o.symbol_at(text.rfind('h').unwrap()).unwrap();
    /// assert_eq!(h.name_span, 23..24); // the `h` of g, not of f
    /// ```
    pub fn symbol_at(&self, offset: usize) -> Option<&Symbol> {
        let hit = |r: &Range<usize>| r.start <= offset && offset <= r.end;
        // (a name's own span first: `track South` names the track and uses the side)
        self.symbols
            .iter()
            .find(|s| hit(&s.name_span))
            .or_else(|| self.symbols.iter().find(|s| s.references.iter().any(hit)))
    }

    /// The symbols that can be used at a byte offset: the file's declarations, and the locals
    /// in scope there.
    ///
    /// ```
    /// let text = "def f(h) = h + 1\ndef g(k) = k";
    /// let o = ludic::outline(text).unwrap();
    /// let names: Vec<&str> = o.visible_at(text.len()).map(|s| s.name.as_str()).collect();
    /// assert_eq!(names, ["f", "g", "k"]);
    /// ```
    pub fn visible_at(&self, offset: usize) -> impl Iterator<Item = &Symbol> {
        self.symbols.iter().filter(move |s| match &s.scope {
            None => true,
            Some(r) => r.start <= offset && offset <= r.end,
        })
    }
}

/// The byte range of a span.
fn range(s: Span) -> Range<usize> {
    s.start..s.end
}

/// The first line of a declaration, cut to a length a hover or a list shows.
fn first_line(source: &str, span: Span) -> String {
    let text = source
        .get(span.start..span.end.min(source.len()))
        .unwrap_or("");
    let line = text.lines().next().unwrap_or("").trim();
    let line = match line.find(" #") {
        Some(i) => line[..i].trim_end(),
        None => line,
    };
    if line.chars().count() > 100 {
        let cut: String = line.chars().take(99).collect();
        format!("{cut}…")
    } else {
        line.to_string()
    }
}

/// The names declared once for the whole file, for the walk: by name, a symbol's index.
#[derive(Default)]
struct Globals {
    names: HashMap<String, usize>,
    labels: HashMap<String, usize>,
    /// a row's ranges of sites (`s[1..7]`), by prefix
    prefixes: HashMap<String, usize>,
}
