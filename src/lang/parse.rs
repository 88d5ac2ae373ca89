//! The only module that sees pest: turns source text into an [`ast::GameFile`].

use crate::ast::*;
use crate::diagnostic::{Diagnostic, Diagnostics, ErrorKind};
use crate::limits::{MAX_NAME_CHARS, MAX_NESTING};
use pest::Parser;
use pest::iterators::Pair;
use pest::pratt_parser::{Assoc, Op, PrattParser};
use std::sync::OnceLock;

mod brackets;
mod lines;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/ludic.pest"]
struct LudicParser;

/// Whether a rule is one of the words of the language (`kw_row`, …): matched whole, it carries
/// nothing the syntax tree needs, and [`inner`] skips it.
fn is_keyword(r: Rule) -> bool {
    // indexed by the rule's number
    static KEYWORDS: OnceLock<Vec<bool>> = OnceLock::new();
    let table = KEYWORDS.get_or_init(|| {
        let rules = Rule::all_rules();
        let mut t = vec![false; rules.iter().map(|&r| r as usize + 1).max().unwrap_or(0)];
        for &r in rules {
            t[r as usize] = format!("{r:?}").starts_with("kw_");
        }
        t
    });
    table.get(r as usize).copied().unwrap_or(false)
}

/// The pairs inside a pair, without the words of the language.
fn inner(p: Pair<'_, Rule>) -> impl Iterator<Item = Pair<'_, Rule>> {
    p.into_inner().filter(|x| !is_keyword(x.as_rule()))
}

fn is_operator(r: Rule) -> bool {
    matches!(
        r,
        Rule::op_or
            | Rule::op_and
            | Rule::op_not
            | Rule::op_eq
            | Rule::op_ne
            | Rule::op_le
            | Rule::op_ge
            | Rule::op_lt
            | Rule::op_gt
            | Rule::op_in
            | Rule::op_add
            | Rule::op_sub
            | Rule::op_mul
            | Rule::op_div
            | Rule::op_mod
            | Rule::op_neg
    )
}

/// What the parser accepts but the stages after it could not take: an expression whose
/// operators and brackets nest deeper than [`MAX_NESTING`] (a chain of 300 `not`, or of 300
/// `+`, is a tree 300 levels deep), names longer than [`MAX_NAME_CHARS`], and numbers that do
/// not fit in 64 bits. The walk keeps
/// its own stack, so that it cannot overflow on what it checks.
fn check_limits(file: Pair<'_, Rule>) -> Result<(), Diagnostics> {
    let mut diags = vec![];
    let mut stack: Vec<(Pair<Rule>, usize)> = vec![(file, 0)];
    while let Some((p, depth)) = stack.pop() {
        let mut depth = depth;
        match p.as_rule() {
            Rule::expr => {
                depth += 1;
                for op in p.clone().into_inner().filter(|x| is_operator(x.as_rule())) {
                    depth += 1;
                    if depth > MAX_NESTING {
                        diags.push(
                            Diagnostic::new(
                                ErrorKind::TooDeep {
                                    what: "operators and brackets of an expression",
                                    limit: MAX_NESTING,
                                },
                                span_of(&op),
                            )
                            .with_hint("split the expression with `def` or `let`"),
                        );
                        return Err(Diagnostics(diags).sorted());
                    }
                }
            }
            Rule::int => {
                if p.as_str().parse::<i64>().is_err() {
                    diags.push(
                        Diagnostic::new(ErrorKind::Overflow, span_of(&p)).with_hint(
                            "numbers are from -9223372036854775808 to 9223372036854775807",
                        ),
                    );
                }
                continue;
            }
            Rule::ident | Rule::call_name | Rule::alt_word | Rule::option_word => {
                let chars = p.as_str().chars().count();
                if chars > MAX_NAME_CHARS {
                    diags.push(
                        Diagnostic::new(
                            ErrorKind::NameTooLong {
                                chars,
                                limit: MAX_NAME_CHARS,
                            },
                            span_of(&p),
                        )
                        .with_hint("choose a shorter name"),
                    );
                }
                continue;
            }
            _ => {}
        }
        stack.extend(p.into_inner().map(|c| (c, depth)));
    }
    if diags.is_empty() {
        Ok(())
    } else {
        Err(Diagnostics(diags).sorted())
    }
}

/// The span of a pair without the blanks and comments pest may have taken after it.
fn span_of(p: &Pair<Rule>) -> Span {
    let s = p.as_span();
    let mut text = s.as_str();
    loop {
        let t = text.trim_end();
        let line_start = t.rfind('\n').map(|i| i + 1).unwrap_or(0);
        match comment_start(&t[line_start..]) {
            Some(c) => text = &t[..line_start + c],
            None => {
                text = t;
                break;
            }
        }
    }
    Span {
        start: s.start(),
        end: s.start() + text.len().max(1).min(s.end() - s.start()),
    }
}

/// Where a `#` comment starts in a line, outside strings.
fn comment_start(line: &str) -> Option<usize> {
    let mut in_string = false;
    for (i, c) in line.char_indices() {
        match c {
            '"' => in_string = !in_string,
            '#' if !in_string => return Some(i),
            _ => {}
        }
    }
    None
}

fn ident(p: Pair<Rule>) -> Ident {
    Ident {
        span: span_of(&p),
        name: p.as_str().to_string(),
    }
}

fn string_value(p: Pair<Rule>) -> String {
    let s = p.as_str();
    let inner = if let Some(rest) = s.strip_prefix("\"\"\"") {
        rest.strip_suffix("\"\"\"").unwrap_or(rest)
    } else {
        s.trim_matches('"')
    };
    // Dedent long strings: trim each line.
    inner
        .lines()
        .map(str::trim)
        .collect::<Vec<_>>()
        .join("\n")
        .trim()
        .to_string()
}

/// Parses a whole file. A syntax error stops the parse (pest does not recover); it is reported
/// with the words of the grammar, never with generated rule names. Nesting too deep for the
/// parser is refused before it runs, and what is too deep or too long for the stages after it
/// before the syntax tree is built ([`crate::limits`]).
pub fn parse(source: &str) -> Result<GameFile, Diagnostics> {
    // the size a `.game` file may have, whoever reads it (the commands refuse a larger file
    // before reading it whole)
    let limit = crate::limits::MAX_SOURCE_BYTES;
    if source.len() as u64 > limit {
        let kind = ErrorKind::SourceTooLarge {
            bytes: source.len(),
            limit,
        };
        return Err(Diagnostics(vec![
            Diagnostic::new(kind, Span { start: 0, end: 0 })
                .with_hint("split the description, or generate fewer sites and rules"),
        ]));
    }
    crate::limits::prescan(source).map_err(|d| Diagnostics(vec![d]))?;
    let mut pairs = LudicParser::parse(Rule::file, source).map_err(|e| {
        let first = syntax_error(&e, source);
        let mut all = vec![];
        if matches!(first.kind, ErrorKind::Syntax { .. }) {
            // where the parser stopped may be far from a bracket left open
            all = brackets::unclosed(source);
        }
        all.push(first);
        Diagnostics(all).sorted()
    })?;
    let file = pairs
        .next()
        .expect("the grammar's `file` rule always yields one pair");
    check_limits(file.clone())?;
    let mut g = GameFile {
        span: span_of(&file),
        ..GameFile::default()
    };
    for item in inner(file) {
        let span = span_of(&item);
        match item.as_rule() {
            Rule::game_block => g.meta.push(meta(item)),
            Rule::option_decl => g.options.push(option_decl(item)),
            Rule::variant_decl => g.variants.push(variant(item)),
            Rule::require_decl => {
                let mut it = inner(item);
                let cond = expr(it.next().expect("require: expr"));
                let message = string_value(it.next().expect("require: message"));
                g.requires.push(Require {
                    cond,
                    message,
                    span,
                });
            }
            Rule::sides_decl => {
                g.sides.push(inner(item).map(ident).collect());
                g.sides_spans.push(span);
            }
            Rule::limit_decl => {
                let mut it = inner(item);
                let count = expr(it.next().expect("limit: expr"));
                let mut moves = false;
                let mut then = None;
                for x in it {
                    match x.as_rule() {
                        Rule::moves_kw => moves = true,
                        Rule::limit_then => {
                            then = inner(x).next().map(|e| end_game_rule(e));
                        }
                        _ => {}
                    }
                }
                g.limits.push(LimitDecl {
                    count,
                    moves,
                    then,
                    span,
                });
            }
            Rule::board_block => g.boards.push(board(item)),
            Rule::pieces_block => g.pieces.push(
                inner(item)
                    .map(|p| {
                        let mut it = inner(p);
                        let name = ident(it.next().expect("piece name"));
                        let mut d = PieceDecl {
                            name,
                            value: None,
                            tokens: None,
                        };
                        for part in it {
                            let is_value = part.as_rule() == Rule::piece_value;
                            let e = inner(part).next().map(expr);
                            if is_value {
                                d.value = e;
                            } else {
                                d.tokens = e;
                            }
                        }
                        d
                    })
                    .collect(),
            ),
            Rule::dice_block => g.dice.push(dice(item)),
            Rule::players_decl => g
                .team_size
                .push(expr(inner(item).next().expect("players per side"))),
            Rule::action_decl => {
                let mut parts: Vec<Pair<Rule>> = inner(item).collect();
                let body = block(parts.pop().expect("action: body"));
                let mut it = parts.into_iter();
                let name = ident(it.next().expect("action: name"));
                g.actions.push(ActionDecl {
                    name,
                    params: it.map(ident).collect(),
                    body,
                    span,
                });
            }
            Rule::start_block => g.starts.push((span, stmts(inner(item)))),
            Rule::turn_block => g.turns.push((span, stmts(inner(item)))),
            Rule::between_block => g.betweens.push((span, stmts(inner(item)))),
            Rule::tally_decl => {
                let mut it = inner(item);
                let name = ident(it.next().expect("tally: name"));
                let mut per_player = false;
                let mut per_site = false;
                let mut init = None;
                let mut doc = None;
                for x in it {
                    match x.as_rule() {
                        Rule::tally_per if x.as_str().ends_with("site") => per_site = true,
                        Rule::tally_per => per_player = true,
                        Rule::string => doc = Some(string_value(x)),
                        _ => init = Some(expr(x)),
                    }
                }
                g.tallies.push(TallyDecl {
                    name,
                    per_player,
                    init: init.expect("tally: value"),
                    doc,
                    span,
                    per_site,
                });
            }
            Rule::def_decl => {
                let mut parts: Vec<Pair<Rule>> = inner(item).collect();
                let body = expr(parts.pop().expect("def: body"));
                let mut it = parts.into_iter();
                let name = ident(it.next().expect("def: name"));
                g.defs.push(Def {
                    name,
                    params: it.map(ident).collect(),
                    body,
                    span,
                });
            }
            Rule::labels_block => {
                for doc in inner(item).filter(|x| x.as_rule() == Rule::label_doc) {
                    let mut it = inner(doc);
                    let label = ident(it.next().expect("labels: label"));
                    let text = it.next().expect("labels: text");
                    g.labels.push(LabelDoc {
                        label,
                        text_span: span_of(&text),
                        text: string_value(text),
                    });
                }
            }
            Rule::EOI => {}
            r => unreachable!("unexpected item {r:?}"),
        }
    }
    Ok(g)
}

fn syntax_error(e: &pest::error::Error<Rule>, source: &str) -> Diagnostic {
    use pest::error::{ErrorVariant, InputLocation};
    let pos = match e.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    if let ErrorVariant::CustomError { message } = &e.variant
        && message.contains("limit reached")
    {
        // pest's own guard (its stack or its count of calls): the nesting is too deep for it
        return Diagnostic::new(
            ErrorKind::TooDeep {
                what: "brackets, blocks and nested expressions",
                limit: MAX_NESTING,
            },
            Span {
                start: pos,
                end: pos + 1,
            },
        )
        .with_hint("split the rule with `def`, `let` or `action`");
    }
    let expected = match &e.variant {
        ErrorVariant::ParsingError { positives, .. } => {
            // The many ways an expression can start read better as one word.
            let starts_expr = |r: &Rule| {
                matches!(
                    r,
                    Rule::filter_expr
                        | Rule::agg_expr
                        | Rule::agg_kind
                        | Rule::some_expr
                        | Rule::coord
                        | Rule::group
                        | Rule::list_expr
                        | Rule::exists_expr
                        | Rule::forall_expr
                        | Rule::if_expr
                        | Rule::kw_if
                        | Rule::kw_exists
                        | Rule::kw_forall
                        | Rule::kw_some
                        | Rule::bool_lit
                        | Rule::call
                        | Rule::call_name
                        | Rule::ident
                        | Rule::int
                        | Rule::op_not
                        | Rule::op_neg
                        | Rule::site_range
                        | Rule::line_expr
                        | Rule::line_set
                        | Rule::kw_line
                )
            };
            let n_expr = positives.iter().filter(|r| starts_expr(r)).count();
            let mut words: Vec<String> = positives
                .iter()
                .filter(|r| n_expr < 3 || !starts_expr(r))
                .filter_map(|r| {
                    rule_words(*r)
                        .map(str::to_string)
                        .or_else(|| keyword_words(*r))
                })
                .collect();
            if n_expr >= 3 {
                words.push("an expression".into());
            }
            words.sort();
            words.dedup();
            match words.len() {
                0 => "something else".to_string(),
                1 => words[0].clone(),
                n => format!("{} or {}", words[..n - 1].join(", "), words[n - 1]),
            }
        }
        ErrorVariant::CustomError { message } => message.clone(),
    };
    // A reserved word where a name was expected deserves to be named.
    let word: String = source
        .get(pos..)
        .unwrap_or("")
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    let reserved = !word.is_empty()
        && LudicParser::parse(Rule::keyword, &word)
            .ok()
            .and_then(|mut p| p.next())
            .is_some_and(|p| p.as_str() == word);
    let hint = if reserved && expected.contains("a name") {
        format!("`{word}` is a reserved word of the language; choose another name")
    } else {
        "`ludic help language` shows the syntax of each construct".to_string()
    };
    Diagnostic::new(
        ErrorKind::Syntax { expected },
        Span {
            start: pos,
            end: pos + word.len().max(1),
        },
    )
    .with_hint(hint)
}

/// A word of the language as a syntax error names it: `kw_row` is "`row`".
fn keyword_words(r: Rule) -> Option<String> {
    if !is_keyword(r) {
        return None;
    }
    let name = format!("{r:?}");
    Some(format!("`{}`", name.strip_prefix("kw_").unwrap_or(&name)))
}

/// Grammar rules in words, for syntax errors.
fn rule_words(r: Rule) -> Option<&'static str> {
    Some(match r {
        Rule::EOI => "end of file",
        Rule::game_block => "`game`",
        Rule::option_decl => "`option`",
        Rule::variant_decl => "`variant`",
        Rule::require_decl => "`require`",
        Rule::sides_decl => "`sides`",
        Rule::board_block => "`board`",
        Rule::pieces_block => "`pieces`",
        Rule::start_block => "`start`",
        Rule::def_decl => "`def`",
        Rule::turn_block => "`turn`",
        Rule::limit_decl => "`limit`",
        Rule::ident => "a name",
        Rule::int => "a number",
        Rule::string => "a string",
        Rule::expr => "an expression",
        Rule::meta | Rule::meta_key => "`aliases`, `origin`, `source` or `summary`",
        Rule::option_value => "an option value (a number, `on`, `off` or a word)",
        Rule::option_domain => "`in`",
        Rule::int_range => "a range like `1..10`",
        Rule::variant_set => "`NAME = VALUE`",
        Rule::row_decl => "`row`",
        Rule::site_decl => "`site`",
        Rule::region_decl => "`region`",
        Rule::ring_decl => "`ring`",
        Rule::opposite_decl => "`opposite`",
        Rule::site_attr | Rule::attr_kind | Rule::attr_owner => "`kind` or `owner`",
        Rule::site_list | Rule::site_range => "a site",
        Rule::piece_decl => "a piece name",
        Rule::block => "`{`",
        Rule::if_stmt => "`if`",
        Rule::while_stmt => "`while`",
        Rule::choose_stmt => "`choose`",
        Rule::sow_stmt => "`sow`",
        Rule::let_stmt => "`let`",
        Rule::set_stmt => "`set`",
        Rule::capture_stmt => "`capture`",
        Rule::place_stmt => "`place`",
        Rule::relay_stmt => "`relay`",
        Rule::end_stmt => "`end`",
        Rule::again_stmt => "`again`",
        Rule::another_stmt | Rule::another_kw => "`another turn`",
        Rule::let_type | Rule::type_word => {
            "a type (`site`, `player`, `token`, `area`, `number`, …)"
        }
        Rule::moves_kw => "`moves`",
        Rule::limit_then => "`then end game`",
        Rule::some_along => "`from`",
        Rule::first_stmt => "`first`",
        Rule::alternative | Rule::alt_label | Rule::alt_label_var | Rule::alt_var_only => {
            "a choice"
        }
        Rule::values => "values",
        Rule::alt_word => "a label",
        Rule::sow_opt => "`sower orders drops` or `skip`",
        Rule::sow_orders | Rule::kw_sower => "`sower orders drops`",
        Rule::sow_skip => "`skip`",
        Rule::end_turn => "`turn`",
        Rule::end_round => "`round`",
        Rule::end_game => "`game`",
        Rule::between_block | Rule::kw_between => "`between rounds`",
        Rule::kw_rounds => "`rounds`",
        Rule::tally_decl => "`tally`",
        Rule::labels_block | Rule::labels_kw => "`labels`",
        Rule::label_doc => "a label and its description",
        Rule::tally_per | Rule::kw_player => "`per player`",
        Rule::give_stmt => "`give`",
        Rule::draw_kw => "`draw`",
        Rule::set_items => "sites",
        Rule::capture_keep => "`keep`",
        Rule::dice_block => "`dice`",
        Rule::links_decl => "`links`",
        Rule::choose_else => "`else`",
        Rule::alt_to => "`to`",
        Rule::alt_set | Rule::exists_set => "a set",
        Rule::option_word => "a word",
        Rule::points_decl | Rule::points_for => "`points`",
        Rule::coord | Rule::coord_range => "coordinates like `(5, 1)`",
        Rule::group => "`(`",
        Rule::track_turned => "`turned`",
        Rule::some_expr => "`some`",
        Rule::players_decl | Rule::kw_players => "`players per side`",
        Rule::die_decl => "`die`",
        Rule::chart_row => "`value`",
        Rule::chart_when => "`when`",
        Rule::chart_otherwise => "`otherwise`",
        Rule::action_decl => "`action`",
        Rule::track_decl => "`track`",
        Rule::area_decl => "`area`",
        Rule::piece_value | Rule::piece_tokens => "`value` or `tokens`",
        Rule::throw_stmt => "`throw`",
        Rule::move_stmt => "`move`",
        Rule::move_to | Rule::move_onto => "`to` or `onto`",
        Rule::send_stmt => "`send`",
        Rule::for_stmt | Rule::for_tokens | Rule::for_sites => "`for`",
        Rule::do_stmt => "`do`",
        Rule::token_kw => "`token`",
        Rule::place_on | Rule::place_in => "`on` or `in`",
        Rule::place_from => "`from`",
        Rule::place_for => "`for`",
        Rule::agg_expr | Rule::agg_kind => "`minimum`, `maximum` or `total`",
        Rule::capture_to => "`to`",
        Rule::if_expr => "`if`",
        Rule::exists_expr => "`exists`",
        Rule::forall_expr => "`forall`",
        Rule::filter_expr => "`(NAME where …)`",
        Rule::bool_lit => "`true` or `false`",
        Rule::call | Rule::call_name => "a call",
        Rule::list_expr => "`[`",
        Rule::random_kw => "`random`",
        Rule::op_or
        | Rule::op_and
        | Rule::op_eq
        | Rule::op_ne
        | Rule::op_le
        | Rule::op_ge
        | Rule::op_lt
        | Rule::op_gt
        | Rule::op_in
        | Rule::op_add
        | Rule::op_sub
        | Rule::op_mul
        | Rule::op_div
        | Rule::op_mod => "an operator",
        Rule::op_not | Rule::op_neg => "`not` or `-`",
        Rule::line_decl | Rule::kw_line => "`line`",
        Rule::lines_decl | Rule::kw_lines => "`lines`",
        Rule::alt_leaving | Rule::kw_leaving => "`leaving`",
        Rule::forget_stmt | Rule::forget_kw => "`forget positions`",
        Rule::positions_kw => "`positions`",
        Rule::line_expr | Rule::line_set => "`line NAME through …: …`",
        Rule::through_kw => "`through`",
        _ => return None,
    })
}

fn dice(p: Pair<Rule>) -> DiceDecl {
    let span = span_of(&p);
    let mut it = inner(p);
    let name = ident(it.next().expect("dice name"));
    let mut d = DiceDecl {
        name,
        dice: vec![],
        chart: vec![],
        span,
    };
    for part in it {
        let psp = span_of(&part);
        match part.as_rule() {
            Rule::die_decl => {
                // Names before `faces` are dice, after it faces: tell them apart by position.
                let faces_at = part.as_span().start() + part.as_str().find("faces").unwrap_or(0);
                let (mut names, mut faces) = (vec![], vec![]);
                for x in inner(part) {
                    if x.as_span().start() < faces_at {
                        names.push(ident(x));
                    } else {
                        faces.push(ident(x));
                    }
                }
                d.dice.push((names, faces));
            }
            Rule::chart_row => {
                let mut row = ChartRow {
                    value: Expr {
                        kind: ExprKind::Int(0),
                        span: psp,
                    },
                    name: None,
                    when: None,
                    span: psp,
                };
                for x in inner(part) {
                    match x.as_rule() {
                        Rule::expr => row.value = expr(x),
                        Rule::string => row.name = Some(string_value(x)),
                        Rule::chart_when => row.when = inner(x).next().map(expr),
                        _ => {}
                    }
                }
                d.chart.push(row);
            }
            _ => {}
        }
    }
    d
}

fn meta(p: Pair<Rule>) -> Meta {
    let span = span_of(&p);
    let mut it = inner(p);
    let mut m = Meta {
        name: string_value(it.next().expect("game: name")),
        span,
        ..Meta::default()
    };
    for entry in it {
        let mut e = inner(entry);
        let key = e.next().expect("meta key").as_str().to_string();
        let values: Vec<String> = e.map(string_value).collect();
        match key.as_str() {
            "aliases" => m.aliases.extend(values),
            "origin" => m.origin = Some(values.join(" ")),
            "source" => m.source = Some(values.join(" ")),
            _ => m.summary = Some(values.join("\n")),
        }
    }
    m
}

fn option_value(p: Pair<Rule>) -> OptionValue {
    let s = p.as_str();
    match s {
        "on" => OptionValue::Bool(true),
        "off" => OptionValue::Bool(false),
        _ => match s.parse::<i64>() {
            Ok(n) => OptionValue::Int(n),
            Err(_) if s.starts_with(|c: char| c == '-' || c.is_ascii_digit()) => {
                OptionValue::Int(i64::MAX)
            }
            Err(_) => OptionValue::Word(s.to_string()),
        },
    }
}

fn int_value(p: &Pair<Rule>) -> i64 {
    // Numbers too large for i64 saturate; the checker reports them as out of range.
    p.as_str().parse::<i64>().unwrap_or(i64::MAX)
}

fn option_decl(p: Pair<Rule>) -> OptionDecl {
    let span = span_of(&p);
    let mut it = inner(p);
    let name = ident(it.next().expect("option name"));
    let v = it.next().expect("option value");
    let default_span = span_of(&v);
    let default = option_value(v);
    let mut domain = None;
    let mut doc = None;
    for rest in it {
        match rest.as_rule() {
            Rule::option_domain => {
                let parts: Vec<Pair<Rule>> = inner(rest).collect();
                if parts.len() == 1 && parts[0].as_rule() == Rule::int_range {
                    let r = &parts[0];
                    let sp = span_of(r);
                    let b: Vec<i64> = inner(r.clone()).map(|x| int_value(&x)).collect();
                    domain = Some(OptionDomain::Range(b[0], b[1], sp));
                } else {
                    domain = Some(OptionDomain::Words(parts.into_iter().map(ident).collect()));
                }
            }
            Rule::string => doc = Some(string_value(rest)),
            _ => {}
        }
    }
    OptionDecl {
        name,
        default,
        default_span,
        domain,
        doc,
        span,
    }
}

fn variant(p: Pair<Rule>) -> Variant {
    let span = span_of(&p);
    let mut v = Variant {
        name: String::new(),
        doc: None,
        span,
        sets: vec![],
    };
    let mut first = true;
    for part in inner(p) {
        match part.as_rule() {
            Rule::string if first => {
                v.name = string_value(part);
                first = false;
            }
            Rule::string => v.doc = Some(string_value(part)),
            Rule::variant_set => {
                let sp = span_of(&part);
                let mut it = inner(part);
                let name = ident(it.next().expect("variant: name"));
                let value = option_value(it.next().expect("variant: value"));
                v.sets.push((name, value, sp));
            }
            _ => {}
        }
    }
    v
}

fn coord(p: Pair<Rule>) -> (Expr, Expr, Span) {
    let span = span_of(&p);
    let mut it = inner(p);
    let x = expr(it.next().expect("coord x"));
    let y = expr(it.next().expect("coord y"));
    (x, y, span)
}

fn site_items(p: Pair<Rule>) -> Vec<SiteItem> {
    inner(p)
        .map(|item| match item.as_rule() {
            Rule::coord => {
                let (x, y, span) = coord(item);
                SiteItem::Coord(x, y, span)
            }
            Rule::coord_range => {
                let span = span_of(&item);
                let mut it = inner(item);
                let (x1, y1, _) = coord(it.next().expect("range start"));
                let (x2, y2, _) = coord(it.next().expect("range end"));
                SiteItem::CoordRange(x1, y1, x2, y2, span)
            }
            Rule::site_range => {
                let span = span_of(&item);
                let mut it = inner(item);
                let prefix = ident(it.next().expect("range prefix"));
                let from = expr(it.next().expect("range from"));
                let to = expr(it.next().expect("range to"));
                SiteItem::Range {
                    prefix,
                    from,
                    to,
                    span,
                }
            }
            _ => SiteItem::Name(ident(item)),
        })
        .collect()
}

fn attrs<'i>(pairs: impl Iterator<Item = Pair<'i, Rule>>) -> Vec<SiteAttr> {
    pairs
        .filter(|p| p.as_rule() == Rule::site_attr)
        .map(|p| {
            let a = inner(p).next().expect("attr");
            let rule = a.as_rule();
            let id = inner(a)
                .find(|x| x.as_rule() == Rule::ident)
                .map(ident)
                .expect("attr value");
            if rule == Rule::attr_kind {
                SiteAttr::Kind(id)
            } else {
                SiteAttr::Owner(id)
            }
        })
        .collect()
}

fn board(p: Pair<Rule>) -> Board {
    let mut b = Board {
        span: span_of(&p),
        ..Board::default()
    };
    for item in inner(p) {
        let span = span_of(&item);
        match item.as_rule() {
            Rule::row_decl => {
                let parts: Vec<Pair<Rule>> = inner(item).collect();
                let mut it = parts.into_iter().peekable();
                let sites = site_items(it.next().expect("row sites"));
                let y = expr(it.next().expect("row y"));
                let x = if it.peek().is_some_and(|p| p.as_rule() == Rule::expr) {
                    it.next().map(expr)
                } else {
                    None
                };
                b.rows.push(Row {
                    sites,
                    y,
                    x,
                    attrs: attrs(it),
                    span,
                });
            }
            Rule::site_decl => {
                let mut it = inner(item);
                let name = ident(it.next().expect("site name"));
                let x = expr(it.next().expect("site x"));
                let y = expr(it.next().expect("site y"));
                b.sites.push(SiteDecl {
                    name,
                    x,
                    y,
                    attrs: attrs(it),
                    span,
                });
            }
            Rule::region_decl => {
                let mut it = inner(item);
                let name = ident(it.next().expect("region name"));
                let items = set_items(it.next().expect("region items"));
                b.regions.push(RegionDecl { name, items, span });
            }
            Rule::ring_decl => {
                let mut it = inner(item);
                let sites = site_items(it.next().expect("ring sites"));
                let forward = ident(it.next().expect("forward"));
                let backward = ident(it.next().expect("backward"));
                b.rings.push(RingDecl {
                    sites,
                    forward,
                    backward,
                    span,
                });
            }
            Rule::points_decl => {
                let mut d = PointsDecl {
                    generator: None,
                    coords: vec![],
                    attrs: vec![],
                    span,
                };
                let parts: Vec<Pair<Rule>> = inner(item).collect();
                d.attrs = attrs(parts.iter().cloned());
                for x in parts {
                    match x.as_rule() {
                        Rule::coord => d.coords.push(coord(x)),
                        Rule::points_for => {
                            let mut it = inner(x);
                            let xn = ident(it.next().expect("x name"));
                            let x1 = expr(it.next().expect("x from"));
                            let x2 = expr(it.next().expect("x to"));
                            let yn = ident(it.next().expect("y name"));
                            let y1 = expr(it.next().expect("y from"));
                            let y2 = expr(it.next().expect("y to"));
                            let cond = it.next().map(expr);
                            d.generator = Some((xn, x1, x2, yn, y1, y2, cond));
                        }
                        _ => {}
                    }
                }
                b.points.push(d);
            }
            Rule::track_decl => {
                let mut side = None;
                let mut from = None;
                let mut sites = vec![];
                let mut turned = None;
                for x in inner(item) {
                    match x.as_rule() {
                        Rule::ident => side = Some(ident(x)),
                        Rule::int => from = Some(int_value(&x)),
                        Rule::site_list => sites = site_items(x),
                        Rule::track_turned => {
                            let mut it = inner(x);
                            let other = ident(it.next().expect("turned side"));
                            let deg = int_value(&it.next().expect("degrees"));
                            let (cx, cy, _) = coord(it.next().expect("about"));
                            turned = Some((other, deg, cx, cy));
                        }
                        _ => {}
                    }
                }
                b.tracks.push(TrackDecl {
                    side: side.expect("track side"),
                    from,
                    sites,
                    turned,
                    span,
                });
            }
            Rule::area_decl => b.areas.extend(inner(item).map(ident)),
            Rule::links_decl => {
                let mut offsets = vec![];
                let mut cond = None;
                for x in inner(item) {
                    if x.as_rule() == Rule::coord {
                        offsets.push(coord(x));
                    } else {
                        cond = Some(expr(x));
                    }
                }
                b.links.push((offsets, cond, span));
            }
            Rule::opposite_decl => {
                let mut it = inner(item);
                let left = site_items(it.next().expect("opposite left"));
                let right = site_items(it.next().expect("opposite right"));
                b.opposites.push(OppositeDecl { left, right, span });
            }
            Rule::line_decl | Rule::lines_decl => b.lines.push(lines::line_decl(item)),
            r => unreachable!("unexpected board item {r:?}"),
        }
    }
    b
}

fn set_items(p: Pair<Rule>) -> Vec<Expr> {
    inner(p).map(expr).collect()
}

fn stmts<'i>(pairs: impl Iterator<Item = Pair<'i, Rule>>) -> Vec<Stmt> {
    pairs.map(stmt).collect()
}

fn block(p: Pair<Rule>) -> Vec<Stmt> {
    stmts(inner(p))
}

/// `game`, `game draw`, `game winner P` after `end`.
fn end_game_rule(e: Pair<Rule>) -> EndGame {
    match inner(e).next() {
        None => EndGame::Score,
        Some(x) if x.as_rule() == Rule::draw_kw => EndGame::Draw,
        Some(x) => EndGame::Winner(expr(x)),
    }
}

fn stmt(p: Pair<Rule>) -> Stmt {
    let span = span_of(&p);
    let rule = p.as_rule();
    let mut it = inner(p);
    let kind = match rule {
        Rule::if_stmt => {
            let cond = expr(it.next().expect("if cond"));
            let then = block(it.next().expect("if block"));
            let otherwise = it.next().map(|e| match e.as_rule() {
                Rule::if_stmt => vec![stmt(e)],
                _ => block(e),
            });
            StmtKind::If {
                cond,
                then,
                otherwise,
            }
        }
        Rule::while_stmt => {
            let cond = expr(it.next().expect("while cond"));
            let body = block(it.next().expect("while block"));
            StmtKind::While { cond, body }
        }
        Rule::choose_stmt => {
            let mut alts = vec![];
            let mut otherwise = None;
            for x in it {
                if x.as_rule() == Rule::choose_else {
                    otherwise = inner(x).next().map(block);
                } else {
                    alts.push(alternative(x));
                }
            }
            StmtKind::Choose(alts, otherwise)
        }
        Rule::sow_stmt => {
            let from = expr(it.next().expect("sow from"));
            let dir = expr(it.next().expect("sow dir"));
            let mut orders = false;
            let mut skip = None;
            let mut last = None;
            let mut body = vec![];
            for part in it {
                match part.as_rule() {
                    Rule::sow_opt => {
                        let o = inner(part).next().expect("sow option");
                        if o.as_rule() == Rule::sow_orders {
                            orders = true;
                        } else {
                            skip = inner(o).next().map(expr);
                        }
                    }
                    Rule::ident => last = Some(ident(part)),
                    Rule::block => body = block(part),
                    _ => {}
                }
            }
            StmtKind::Sow {
                from,
                dir,
                orders,
                skip,
                last: last.expect("sow: lap variable"),
                body,
            }
        }
        Rule::let_stmt => {
            let name = ident(it.next().expect("let name"));
            let x = it.next().expect("let value");
            if x.as_rule() == Rule::let_type {
                let w = inner(x).next().expect("let type");
                let ty = Ident {
                    name: w.as_str().to_string(),
                    span: span_of(&w),
                };
                let value = expr(it.next().expect("let value"));
                StmtKind::LetTyped { name, ty, value }
            } else {
                StmtKind::Let(name, expr(x))
            }
        }
        Rule::another_stmt => StmtKind::AnotherTurn,
        Rule::set_stmt => {
            let t = it.next().expect("set target");
            let target = match t.as_rule() {
                Rule::ident => {
                    let id = ident(t);
                    Expr {
                        span: id.span,
                        kind: ExprKind::Name(id),
                    }
                }
                _ => call(t),
            };
            StmtKind::Set {
                target,
                value: expr(it.next().expect("set value")),
            }
        }
        Rule::capture_stmt => {
            let items = set_items(it.next().expect("capture items"));
            let mut keep = None;
            let mut to = None;
            for e in it {
                let is_keep = e.as_rule() == Rule::capture_keep;
                let value = inner(e).next().map(expr);
                if is_keep {
                    keep = value;
                } else {
                    to = value;
                }
            }
            StmtKind::Capture { items, keep, to }
        }
        Rule::place_stmt => {
            let count = expr(it.next().expect("place count"));
            let piece = ident(it.next().expect("place piece"));
            let t = it.next().expect("place target");
            let target = if t.as_rule() == Rule::place_on {
                PlaceTarget::Sites(set_items(inner(t).next().expect("place on")))
            } else {
                PlaceTarget::Area(ident(inner(t).next().expect("place in")))
            };
            let (mut from, mut owner) = (None, None);
            for x in it {
                let is_from = x.as_rule() == Rule::place_from;
                let e = inner(x).next().map(expr);
                if is_from {
                    from = e;
                } else {
                    owner = e;
                }
            }
            StmtKind::Place {
                count,
                piece,
                target,
                from,
                owner,
            }
        }
        Rule::throw_stmt => {
            let dice = ident(it.next().expect("throw dice"));
            StmtKind::Throw {
                dice,
                var: ident(it.next().expect("throw var")),
            }
        }
        Rule::move_stmt => {
            let carry = it.next().expect("move or carry").as_str() == "carry";
            let token = expr(it.next().expect("move token"));
            let t = it.next().expect("move target");
            let is_to = t.as_rule() == Rule::move_to;
            let e = expr(inner(t).next().expect("move target expr"));
            StmtKind::Move {
                token,
                target: if is_to {
                    MoveTarget::Position(e)
                } else {
                    MoveTarget::Site(e)
                },
                carry,
            }
        }
        Rule::send_stmt => {
            let token = expr(it.next().expect("send token"));
            StmtKind::Send {
                token,
                area: ident(it.next().expect("send area")),
            }
        }
        Rule::for_stmt => {
            let head = it.next().expect("for head");
            let body = block(it.next().expect("for body"));
            let is_tokens = head.as_rule() == Rule::for_tokens;
            let mut h = inner(head).filter(|x| x.as_rule() != Rule::token_kw);
            let var = ident(h.next().expect("for var"));
            let e = expr(h.next().expect("for cond"));
            if is_tokens {
                StmtKind::ForTokens { var, cond: e, body }
            } else {
                StmtKind::ForSites { var, set: e, body }
            }
        }
        Rule::do_stmt => {
            let name = ident(it.next().expect("do name"));
            StmtKind::Do {
                name,
                args: it.map(expr).collect(),
            }
        }
        Rule::relay_stmt => StmtKind::Relay(expr(it.next().expect("relay site"))),
        Rule::end_stmt => {
            let e = it.next().expect("end what");
            match e.as_rule() {
                Rule::end_turn => StmtKind::EndTurn,
                Rule::end_round => StmtKind::EndRound,
                _ => StmtKind::EndGame(end_game_rule(e)),
            }
        }
        Rule::again_stmt => StmtKind::Again,
        Rule::first_stmt => {
            let x = it.next().expect("first what");
            StmtKind::First(if x.as_rule() == Rule::random_kw {
                None
            } else {
                Some(expr(x))
            })
        }
        Rule::give_stmt => {
            let count = expr(it.next().expect("give count"));
            let piece = ident(it.next().expect("give piece"));
            let from = expr(it.next().expect("give from"));
            let to = expr(it.next().expect("give to"));
            StmtKind::Give {
                count,
                piece,
                from,
                to,
            }
        }
        Rule::forget_stmt => StmtKind::ForgetPositions,
        r => unreachable!("unexpected statement {r:?}"),
    };
    Stmt { kind, span }
}

fn alternative(p: Pair<Rule>) -> Alternative {
    let span = span_of(&p);
    let mut a = Alternative {
        label: None,
        var: None,
        token_var: false,
        set: None,
        to: None,
        values: None,
        cond: None,
        body: None,
        span,
        leaving: None,
    };
    for part in inner(p) {
        match part.as_rule() {
            Rule::alt_var_only => {
                let mut it = inner(part);
                a.var = Some(ident(it.next().expect("alt var")));
                match it.next() {
                    Some(x) if x.as_rule() == Rule::alt_set => a.set = inner(x).next().map(primary),
                    Some(x) => a.values = Some(values(x)),
                    None => {}
                }
            }
            Rule::alt_label_var => {
                let mut it = inner(part).peekable();
                a.label = Some(ident(it.next().expect("alt label")));
                if it.peek().is_some_and(|x| x.as_rule() == Rule::token_kw) {
                    it.next();
                    a.token_var = true;
                }
                a.var = Some(ident(it.next().expect("alt var")));
                match it.next() {
                    Some(x) if x.as_rule() == Rule::alt_set => a.set = inner(x).next().map(primary),
                    Some(x) if x.as_rule() == Rule::alt_to => {
                        let mut t = inner(x);
                        let v = ident(t.next().expect("to var"));
                        let set = t
                            .next()
                            .and_then(|s| inner(s).next())
                            .map(primary)
                            .expect("to set");
                        a.to = Some((v, set));
                    }
                    Some(x) => a.values = Some(values(x)),
                    None => {}
                }
            }
            Rule::alt_label => a.label = Some(ident(inner(part).next().expect("label"))),
            Rule::expr => a.cond = Some(expr(part)),
            Rule::block => a.body = Some(block(part)),
            Rule::alt_leaving => a.leaving = inner(part).next().map(expr),
            r => unreachable!("unexpected alternative part {r:?}"),
        }
    }
    a
}

fn values(p: Pair<Rule>) -> Vec<ValueItem> {
    inner(p)
        .map(|v| {
            let span = span_of(&v);
            match v.as_rule() {
                Rule::int_range => {
                    let b: Vec<i64> = inner(v).map(|x| int_value(&x)).collect();
                    ValueItem::Range(b[0], b[1], span)
                }
                Rule::int => ValueItem::Int(int_value(&v), span),
                _ => ValueItem::Name(ident(v)),
            }
        })
        .collect()
}

fn pratt() -> &'static PrattParser<Rule> {
    static P: OnceLock<PrattParser<Rule>> = OnceLock::new();
    P.get_or_init(|| {
        PrattParser::new()
            .op(Op::infix(Rule::op_or, Assoc::Left))
            .op(Op::infix(Rule::op_and, Assoc::Left))
            .op(Op::prefix(Rule::op_not))
            .op(Op::infix(Rule::op_eq, Assoc::Left)
                | Op::infix(Rule::op_ne, Assoc::Left)
                | Op::infix(Rule::op_lt, Assoc::Left)
                | Op::infix(Rule::op_le, Assoc::Left)
                | Op::infix(Rule::op_gt, Assoc::Left)
                | Op::infix(Rule::op_ge, Assoc::Left)
                | Op::infix(Rule::op_in, Assoc::Left))
            .op(Op::infix(Rule::op_add, Assoc::Left) | Op::infix(Rule::op_sub, Assoc::Left))
            .op(Op::infix(Rule::op_mul, Assoc::Left)
                | Op::infix(Rule::op_div, Assoc::Left)
                | Op::infix(Rule::op_mod, Assoc::Left))
            .op(Op::prefix(Rule::op_neg))
    })
}

fn join(a: Span, b: Span) -> Span {
    Span {
        start: a.start.min(b.start),
        end: a.end.max(b.end),
    }
}

fn expr(p: Pair<Rule>) -> Expr {
    pratt()
        .map_primary(primary)
        .map_prefix(|op, rhs| {
            let span = join(span_of(&op), rhs.span);
            let o = if op.as_rule() == Rule::op_not {
                UnOp::Not
            } else {
                UnOp::Neg
            };
            Expr {
                kind: ExprKind::Unary(o, Box::new(rhs)),
                span,
            }
        })
        .map_infix(|lhs, op, rhs| {
            let o = match op.as_rule() {
                Rule::op_or => BinOp::Or,
                Rule::op_and => BinOp::And,
                Rule::op_eq => BinOp::Eq,
                Rule::op_ne => BinOp::Ne,
                Rule::op_lt => BinOp::Lt,
                Rule::op_le => BinOp::Le,
                Rule::op_gt => BinOp::Gt,
                Rule::op_ge => BinOp::Ge,
                Rule::op_in => BinOp::In,
                Rule::op_add => BinOp::Add,
                Rule::op_sub => BinOp::Sub,
                Rule::op_mul => BinOp::Mul,
                Rule::op_div => BinOp::Div,
                _ => BinOp::Mod,
            };
            let span = join(lhs.span, rhs.span);
            Expr {
                kind: ExprKind::Binary(o, Box::new(lhs), Box::new(rhs)),
                span,
            }
        })
        .parse(inner(p))
}

/// The inner pairs of a construct that may start with `token`, and whether it does.
fn token_flag(p: Pair<Rule>) -> (bool, impl Iterator<Item = Pair<Rule>>) {
    let parts: Vec<Pair<Rule>> = inner(p).collect();
    let tok = parts.first().is_some_and(|x| x.as_rule() == Rule::token_kw);
    (
        tok,
        parts.into_iter().filter(|x| x.as_rule() != Rule::token_kw),
    )
}

fn call(p: Pair<Rule>) -> Expr {
    let span = span_of(&p);
    let mut it = inner(p);
    let name = ident(it.next().expect("call name"));
    Expr {
        kind: ExprKind::Call(name, it.map(expr).collect()),
        span,
    }
}

fn primary(p: Pair<Rule>) -> Expr {
    let span = span_of(&p);
    let kind = match p.as_rule() {
        Rule::expr => return expr(p),
        Rule::int => ExprKind::Int(int_value(&p)),
        Rule::bool_lit => ExprKind::Bool(p.as_str() == "true"),
        Rule::ident => ExprKind::Name(ident(p)),
        Rule::call => return call(p),
        Rule::site_range => {
            let mut it = inner(p);
            let prefix = ident(it.next().expect("range prefix"));
            let a = expr(it.next().expect("range from"));
            let b = expr(it.next().expect("range to"));
            ExprKind::Range(prefix, Box::new(a), Box::new(b))
        }
        Rule::list_expr => ExprKind::List(inner(p).map(expr).collect()),
        Rule::if_expr => {
            let mut it = inner(p).map(expr);
            let c = it.next().expect("if cond");
            let a = it.next().expect("if then");
            let b = it.next().expect("if else");
            ExprKind::If(Box::new(c), Box::new(a), Box::new(b))
        }
        Rule::exists_expr => {
            let (tok, mut it) = token_flag(p);
            let v = ident(it.next().expect("exists var"));
            let next = it.next().expect("exists cond");
            if next.as_rule() == Rule::exists_set {
                let set = primary(inner(next).next().expect("exists set"));
                let cond = expr(it.next().expect("exists cond"));
                ExprKind::ExistsIn(v, Box::new(set), Box::new(cond))
            } else {
                ExprKind::Exists(v, Box::new(expr(next)), tok)
            }
        }
        Rule::agg_expr => {
            let mut it = inner(p);
            let kind = match it.next().expect("agg kind").as_str() {
                "minimum" => AggKind::Min,
                "maximum" => AggKind::Max,
                _ => AggKind::Sum,
            };
            let rest: Vec<Pair<Rule>> = it.collect();
            let token = rest.first().is_some_and(|x| x.as_rule() == Rule::token_kw);
            let mut it = rest.into_iter().filter(|x| x.as_rule() != Rule::token_kw);
            let var = ident(it.next().expect("agg var"));
            let cond = Box::new(expr(it.next().expect("agg cond")));
            let value = Box::new(expr(it.next().expect("agg value")));
            ExprKind::Agg {
                kind,
                token,
                var,
                cond,
                value,
            }
        }
        Rule::forall_expr => {
            let mut it = inner(p);
            let v = ident(it.next().expect("forall var"));
            let set = expr(it.next().expect("forall set"));
            let c = expr(it.next().expect("forall cond"));
            ExprKind::Forall(v, Box::new(set), Box::new(c))
        }
        Rule::group => {
            let mut it = inner(p).map(expr);
            let x = it.next().expect("group: expr");
            match it.next() {
                Some(y) => ExprKind::Coord(Box::new(x), Box::new(y)),
                None => return x,
            }
        }
        Rule::some_expr => {
            let (tok, mut it) = token_flag(p);
            let v = ident(it.next().expect("some var"));
            let x = it.next().expect("some cond");
            if x.as_rule() == Rule::some_along {
                let mut along = inner(x).map(expr);
                let from = along.next().expect("some from");
                let dir = along.next().expect("some toward");
                let cond = expr(it.next().expect("some cond"));
                ExprKind::SomeAlong {
                    var: v,
                    token: tok,
                    from: Box::new(from),
                    dir: Box::new(dir),
                    cond: Box::new(cond),
                }
            } else {
                ExprKind::Some(v, Box::new(expr(x)), tok)
            }
        }
        Rule::filter_expr => {
            let (tok, mut it) = token_flag(p);
            let v = ident(it.next().expect("filter var"));
            ExprKind::Filter(v, Box::new(expr(it.next().expect("filter cond"))), tok)
        }
        Rule::line_expr | Rule::line_set => return crate::parse::lines::line_expr(p),
        r => unreachable!("unexpected primary {r:?}"),
    };
    Expr { kind, span }
}
