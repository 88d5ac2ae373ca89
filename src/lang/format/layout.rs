//! The canonical layout: which token begins a line, how deep each line is indented, the
//! spaces between the tokens of a line, blocks kept on one line or opened, long lines
//! wrapped, blank lines.

use super::lex::{Kind, Tok};
use super::spans::Shape;
use std::collections::HashSet;

/// Spaces per level of `{`, and for a continued line.
pub(super) const INDENT: usize = 2;
/// The longest line the formatter makes, where it can.
pub(super) const WIDTH: usize = 100;
/// The tier of a break between the items of a list (the last choice).
const LIST: usize = usize::MAX;

/// What holds a token: an element (its breaks are the formatter's), or a block or the file
/// (where an author's line breaks are kept, for what the syntax tree gives no span to).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Holder {
    Element,
    Block,
}

/// One line of the output: its tokens, its depth, whether it continues the line before.
#[derive(Clone, Debug, Default)]
pub(super) struct Line {
    pub depth: usize,
    pub cont: bool,
    pub toks: Vec<usize>,
    pub blank: bool,
}

/// The tokens with the facts the layout reads, per token.
pub(super) struct Doc<'a> {
    pub text: &'a str,
    pub toks: &'a [Tok],
    starts: Vec<bool>,
    ends: Vec<bool>,
    holder: Vec<Holder>,
    /// the matching brace of each `{` and `}`
    pair: Vec<Option<usize>>,
    /// the `{` depth before each token
    depth: Vec<usize>,
    /// the `{` of the innermost block around each token
    enclosing: Vec<Option<usize>>,
    /// the tokens that begin a setting of a variant
    setting: Vec<bool>,
    /// the first token that is not a comment at or after each token, and the last before it
    next_code: Vec<Option<usize>>,
    prev_code: Vec<Option<usize>>,
    binary: Vec<bool>,
    /// `and`, `or`, and the `then` and `else` of an `if` expression: where a long line breaks
    logic: Vec<bool>,
    glued: Vec<bool>,
    /// for each `{`: whether its block stays on one line
    inline: Vec<bool>,
}

impl<'a> Doc<'a> {
    pub(super) fn new(text: &'a str, toks: &'a [Tok], shape: &Shape) -> Doc<'a> {
        let n = toks.len();
        let mut d = Doc {
            text,
            toks,
            starts: vec![false; n],
            ends: vec![false; n],
            holder: vec![Holder::Block; n],
            pair: vec![None; n],
            depth: vec![0; n],
            enclosing: vec![None; n],
            setting: vec![false; n],
            next_code: vec![None; n],
            prev_code: vec![None; n],
            binary: vec![false; n],
            logic: vec![false; n],
            glued: vec![false; n],
            inline: vec![false; n],
        };
        let starts: HashSet<usize> = shape.elements.iter().map(|e| e.start).collect();
        let ends: HashSet<usize> = shape.elements.iter().map(|e| e.end).collect();
        let glued: HashSet<usize> = shape.glued.iter().copied().collect();
        let settings: HashSet<usize> = shape.settings.iter().copied().collect();
        let mut open = vec![];
        for (i, t) in toks.iter().enumerate() {
            d.starts[i] = starts.contains(&t.start);
            d.ends[i] = ends.contains(&t.end);
            d.glued[i] = t.kind == Kind::Word && glued.contains(&t.end);
            d.depth[i] = open.len();
            d.enclosing[i] = open.last().copied();
            d.setting[i] = settings.contains(&t.start);
            match d.tx(i) {
                "{" if t.kind == Kind::Punct => open.push(i),
                "}" if t.kind == Kind::Punct => {
                    if let Some(o) = open.pop() {
                        d.pair[o] = Some(i);
                        d.pair[i] = Some(o);
                        d.depth[i] = open.len();
                    }
                }
                _ => {}
            }
        }
        let mut last = None;
        for (i, t) in toks.iter().enumerate() {
            d.prev_code[i] = last;
            if t.kind != Kind::Comment {
                last = Some(i);
            }
        }
        let mut next = None;
        for i in (0..n).rev() {
            if toks[i].kind != Kind::Comment {
                next = Some(i);
            }
            d.next_code[i] = next;
        }
        d.mark_binary(shape);
        d.mark_holders(shape);
        d.mark_inline();
        d
    }

    /// The text of token `i`.
    pub(super) fn tx(&self, i: usize) -> &'a str {
        &self.text[self.toks[i].start..self.toks[i].end]
    }

    /// The operator between each binary operation's operands: the first token between them
    /// that is not a bracket (an operand's span may or may not hold its brackets).
    fn mark_binary(&mut self, shape: &Shape) {
        for &(l, r) in &shape.binary {
            if let Some(i) = self.between(l, r) {
                self.binary[i] = true;
                self.logic[i] = matches!(self.tx(i), "and" | "or");
            }
        }
        for &(l, r) in &shape.keywords {
            if let Some(i) = self.between(l, r) {
                self.logic[i] = true;
            }
        }
    }

    /// The first token between two operands that is not a bracket or a comment.
    fn between(&self, l: usize, r: usize) -> Option<usize> {
        let from = self.toks.partition_point(|t| t.start < l);
        (from..self.toks.len())
            .take_while(|&i| self.toks[i].end <= r)
            .find(|&i| !matches!(self.tx(i), "(" | ")" | "[" | "]"))
            .filter(|&i| self.toks[i].kind != Kind::Comment)
    }

    /// The innermost element or block around each token (a sweep: spans nest).
    fn mark_holders(&mut self, shape: &Shape) {
        // (first byte inside, end, holder)
        let mut iv: Vec<(usize, usize, Holder)> = shape
            .elements
            .iter()
            .filter(|e| e.end > e.start)
            .map(|e| (e.start + 1, e.end, Holder::Element))
            .collect();
        for (o, c) in self.pair.iter().enumerate() {
            if let Some(c) = *c
                && c > o
            {
                iv.push((self.toks[o].end, self.toks[c].start, Holder::Block));
            }
        }
        iv.sort_by_key(|&(s, e, _)| (s, std::cmp::Reverse(e)));
        let mut stack: Vec<(usize, usize, Holder)> = vec![];
        let mut j = 0;
        for (i, t) in self.toks.iter().enumerate() {
            while j < iv.len() && iv[j].0 <= t.start {
                while stack.last().is_some_and(|s| s.1 < iv[j].0) {
                    stack.pop();
                }
                stack.push(iv[j]);
                j += 1;
            }
            while stack.last().is_some_and(|s| s.1 < t.end) {
                stack.pop();
            }
            self.holder[i] = stack.last().map_or(Holder::Block, |s| s.2);
        }
    }

    /// A block stays on one line if its author wrote it so, with no comment in it, one
    /// element at most directly in it (any number of the settings of a variant), and only
    /// blocks on one line inside it.
    fn mark_inline(&mut self) {
        let mut blocks: Vec<(usize, usize)> = (0..self.toks.len())
            .filter_map(|o| self.pair[o].filter(|&c| c > o).map(|c| (o, c)))
            .collect();
        blocks.sort_by_key(|b| b.1);
        for (o, c) in blocks {
            let inside = o + 1..=c;
            let one_line = inside
                .clone()
                .all(|i| self.toks[i].breaks_before == 0 && self.toks[i].kind != Kind::Comment);
            let elements = inside
                .clone()
                .filter(|&i| {
                    self.starts[i] && !self.setting[i] && self.depth[i] == self.depth[o] + 1
                })
                .count();
            let inner_open = inside
                .filter(|&i| self.pair[i].is_some_and(|p| p > i))
                .all(|i| self.inline[i]);
            self.inline[o] = one_line && elements <= 1 && inner_open;
        }
    }

    /// Opens the block at `o` and every block around it.
    fn open_block(&mut self, o: usize) {
        for b in 0..o {
            if self.pair[b].is_some_and(|c| c > o) {
                self.inline[b] = false;
            }
        }
        self.inline[o] = false;
    }

    fn opens_block(&self, i: usize) -> bool {
        self.pair[i].is_some_and(|c| c > i) && !self.inline[i]
    }

    fn closes_block(&self, i: usize) -> bool {
        self.pair[i].is_some_and(|o| o < i && !self.inline[o])
    }

    /// Whether token `i` begins a line.
    fn breaks_before(&self, i: usize) -> bool {
        let t = &self.toks[i];
        if i == 0 || self.toks[i - 1].kind == Kind::Comment {
            return true;
        }
        if t.kind == Kind::Comment {
            return t.breaks_before > 0;
        }
        if self.opens_block(i - 1) || self.closes_block(i) {
            return true;
        }
        let after_sibling = self.ends[i - 1] || self.tx(i - 1) == "}";
        let in_line = self.enclosing[i].is_some_and(|o| self.inline[o]);
        if self.starts[i] && after_sibling && !in_line {
            return true;
        }
        self.holder[i] == Holder::Block && t.breaks_before > 0
    }

    /// Whether the line that token `i` begins continues the line before (one level deeper):
    /// a break inside an element, but not at a `}` nor just after one (`} else {` broken by
    /// a comment). A comment's line is indented with the code after it.
    fn continues(&self, i: usize) -> bool {
        let Some(code) = self.next_code[i] else {
            return false;
        };
        let prev = self.prev_code[code];
        self.holder[code] == Holder::Element
            && !self.starts[code]
            && !self.closes_block(code)
            && prev.is_none_or(|p| self.pair[p].is_none_or(|o| o > p))
    }

    /// The lines, before long ones are wrapped.
    pub(super) fn lines(&self) -> Vec<Line> {
        let mut lines: Vec<Line> = vec![];
        for i in 0..self.toks.len() {
            if self.breaks_before(i) {
                let t = &self.toks[i];
                let closing = self.closes_block(i);
                let after_open = i > 0 && self.opens_block(i - 1);
                lines.push(Line {
                    depth: self.depth[i],
                    cont: self.continues(i),
                    toks: vec![],
                    blank: t.breaks_before >= 2 && !closing && !after_open && i > 0,
                });
            }
            if let Some(l) = lines.last_mut() {
                l.toks.push(i);
            }
        }
        for l in &mut lines {
            if l.cont {
                l.blank = false;
            }
        }
        lines
    }

    /// The lines, blocks too long for one line opened.
    pub(super) fn settle(&mut self) -> Vec<Line> {
        loop {
            let lines = self.lines();
            let long = lines.iter().find_map(|l| {
                let open = l
                    .toks
                    .iter()
                    .copied()
                    .find(|&i| self.pair[i].is_some_and(|c| c > i) && self.inline[i])?;
                (self.width(l) > WIDTH).then_some(open)
            });
            match long {
                Some(o) => self.open_block(o),
                None => return lines,
            }
        }
    }

    /// What goes between tokens `a` and `b` on a line.
    pub(super) fn sep(&self, a: usize, b: usize) -> &'static str {
        let (ta, tb) = (self.tx(a), self.tx(b));
        if self.toks[b].kind == Kind::Comment {
            return "  ";
        }
        let punct = |i: usize| self.toks[i].kind == Kind::Punct;
        if punct(a) && matches!(ta, "(" | "[") {
            return "";
        }
        if punct(b) && matches!(tb, ")" | "]" | "," | ":") {
            return "";
        }
        if (punct(a) && ta == "..") || (punct(b) && tb == "..") {
            return "";
        }
        if punct(b) && matches!(tb, "(" | "[") && self.glued[a] {
            return "";
        }
        let operator = |i: usize| {
            punct(i)
                && !self.binary[i]
                && !matches!(
                    self.tx(i),
                    "(" | ")" | "[" | "]" | "{" | "}" | "," | ":" | "="
                )
        };
        if operator(a) || operator(b) {
            // a sign the syntax tree does not show as a binary operator (a minus sign, the
            // `+` of an option's word): as its author wrote it
            return if self.toks[a].end == self.toks[b].start {
                ""
            } else {
                " "
            };
        }
        " "
    }

    /// A line's text, without its indentation.
    pub(super) fn render(&self, toks: &[usize]) -> String {
        let mut s = String::new();
        for (k, &i) in toks.iter().enumerate() {
            if k > 0 {
                s.push_str(self.sep(toks[k - 1], i));
            }
            s.push_str(self.tx(i));
        }
        s
    }

    pub(super) fn indent(&self, l: &Line) -> usize {
        (l.depth + usize::from(l.cont)) * INDENT
    }

    /// The width of a line, its trailing comment left out (the width of its last line when
    /// it holds a `"""` string).
    pub(super) fn width(&self, l: &Line) -> usize {
        let code: Vec<usize> = l
            .toks
            .iter()
            .copied()
            .filter(|&i| self.toks[i].kind != Kind::Comment)
            .collect();
        let s = self.render(&code);
        let last = s.rsplit('\n').next().unwrap_or("");
        let indent = if s.contains('\n') { 0 } else { self.indent(l) };
        indent + last.chars().count()
    }

    /// A long line wrapped: before `and`/`or` where it has some (the outermost), else between
    /// the items of a list; the lines after the first indented one level more. Only the lines
    /// of an element are wrapped (the formatter knows where those end).
    pub(super) fn wrap(&self, l: Line) -> Vec<Line> {
        let first = l.toks[0];
        let eligible = (self.starts[first] || l.cont)
            && !l.toks.iter().any(|&i| self.tx(i).contains('\n'))
            && self.width(&l) > WIDTH;
        if !eligible {
            return vec![l];
        }
        let (code, comment): (Vec<usize>, Vec<usize>) = l
            .toks
            .iter()
            .partition(|&&i| self.toks[i].kind != Kind::Comment);
        // a line with a string breaks only before `and`, `or`, `then`, `else`: not to move
        // a long doc string to a line of its own
        let strings = code.iter().any(|&i| self.toks[i].kind == Kind::Str);
        let mut tiers = self.candidates(&code);
        if strings {
            tiers.retain(|t| t.1 != LIST);
        }
        if tiers.is_empty() {
            return vec![l];
        }
        let tiers: std::collections::HashMap<usize, usize> = tiers.into_iter().collect();
        let tier = |i: usize| tiers.get(&i).copied();
        // the best place to break in a segment: the lowest tier, the last of equals
        let best_in = |toks: &[usize]| {
            let mut best: Option<(usize, usize)> = None; // (tier, index in toks)
            for (k, &i) in toks.iter().enumerate().skip(1) {
                if let Some(t) = tier(i)
                    && best.is_none_or(|b| t <= b.0)
                {
                    best = Some((t, k));
                }
            }
            best
        };
        let mut out = vec![];
        let mut seg = Line {
            toks: vec![code[0]],
            ..l.clone()
        };
        let len = |i: usize| self.tx(i).chars().count();
        let mut width = self.indent(&seg) + len(code[0]);
        for (k, &i) in code.iter().enumerate().skip(1) {
            seg.toks.push(i);
            width += self.sep(code[k - 1], i).len() + len(i);
            if width > WIDTH
                && let Some((_, at)) = best_in(&seg.toks)
            {
                let rest = seg.toks.split_off(at);
                let next = Line {
                    depth: l.depth,
                    cont: true,
                    toks: rest,
                    blank: false,
                };
                out.push(std::mem::replace(&mut seg, next));
                width = self.indent(&seg) + len(seg.toks[0]);
                for w in seg.toks.windows(2) {
                    width += self.sep(w[0], w[1]).len() + len(w[1]);
                }
            }
        }
        seg.toks.extend(comment);
        out.push(seg);
        out
    }

    /// Where a long line may break, each place with its tier (the lower the better): before
    /// `then` and `else`, `or`, `and` (the outermost brackets first), or else between two
    /// items of a list (names, numbers, bracketed coordinates); never inside a block kept on
    /// one line, nor in the first two tokens.
    fn candidates(&self, code: &[usize]) -> Vec<(usize, usize)> {
        let mut depth = 0usize;
        let mut braces = 0usize;
        let mut out = vec![];
        for (k, &i) in code.iter().enumerate() {
            let t = self.tx(i);
            let punct = self.toks[i].kind == Kind::Punct;
            if k >= 2 && braces == 0 && !self.sep(code[k - 1], i).is_empty() {
                if self.logic[i] {
                    let rank = match t {
                        "and" => 2,
                        "or" => 1,
                        _ => 0,
                    };
                    out.push((i, depth * 3 + rank));
                } else {
                    let prev = code[k - 1];
                    let item_end = matches!(self.toks[prev].kind, Kind::Word | Kind::Number)
                        || matches!(self.tx(prev), ")" | "]");
                    let item_start = matches!(self.toks[i].kind, Kind::Word | Kind::Number)
                        || (punct && t == "(");
                    if item_end && item_start {
                        out.push((i, LIST));
                    }
                }
            }
            match t {
                "(" | "[" if punct => depth += 1,
                ")" | "]" if punct => depth = depth.saturating_sub(1),
                "{" if punct => braces += 1,
                "}" if punct => braces = braces.saturating_sub(1),
                _ => {}
            }
        }
        out
    }
}

/// Blank lines between top-level items: one around an item with a block, and between two
/// items of one line (or one wrapped) as their author had it (none or one).
pub(super) fn space_items(d: &Doc, lines: &mut [Line]) {
    let item_start = |l: &Line| {
        l.depth == 0 && !l.cont && d.toks[l.toks[0]].kind != Kind::Comment && d.tx(l.toks[0]) != "}"
    };
    let comment = |l: &Line| l.depth == 0 && !l.cont && d.toks[l.toks[0]].kind == Kind::Comment;
    // (first line with its leading comments, first line of code)
    let mut items: Vec<(usize, usize)> = vec![];
    for (k, l) in lines.iter().enumerate() {
        if item_start(l) {
            let mut g = k;
            let floor = items.last().map_or(0, |p| p.1 + 1);
            while g > floor && comment(&lines[g - 1]) {
                g -= 1;
            }
            items.push((g, k));
        }
    }
    // an item of several lines: one with a block opened (a long line wrapped is still one)
    let opened =
        |lines: &[Line], from: usize, to: usize| lines[from + 1..to].iter().any(|l| !l.cont);
    for w in 0..items.len().saturating_sub(1) {
        let (_, s) = items[w];
        let (g, s2) = items[w + 1];
        let next_end = items.get(w + 2).map_or(lines.len(), |n| n.0);
        if opened(lines, s, g) || opened(lines, s2, next_end) {
            lines[g].blank = true;
        }
    }
}
