//! The declarations: meta, options, variants, dice, the board and its sites, and the other
//! items of a file (requirements, limits, pieces, actions, tallies, definitions, labels).

use super::*;

pub(super) fn dice(p: Pair<Rule>) -> DiceDecl {
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

pub(super) fn meta(p: Pair<Rule>) -> Meta {
    let span = span_of(&p);
    let mut it = inner(p);
    let mut m = Meta {
        name: string_value(it.next().expect("game: name")),
        span,
        ..Meta::default()
    };
    for entry in it {
        if entry.as_rule() == Rule::game_base {
            let s = inner(entry).next().expect("from: a string");
            m.base = Some((string_value(s.clone()), span_of(&s)));
            continue;
        }
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

pub(super) fn option_value(p: Pair<Rule>) -> OptionValue {
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

pub(super) fn int_value(p: &Pair<Rule>) -> i64 {
    // Numbers too large for i64 saturate; the checker reports them as out of range.
    p.as_str().parse::<i64>().unwrap_or(i64::MAX)
}

pub(super) fn option_decl(p: Pair<Rule>) -> OptionDecl {
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

pub(super) fn variant(p: Pair<Rule>) -> Variant {
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

pub(super) fn coord(p: Pair<Rule>) -> (Expr, Expr, Span) {
    let span = span_of(&p);
    let mut it = inner(p);
    let x = expr(it.next().expect("coord x"));
    let y = expr(it.next().expect("coord y"));
    (x, y, span)
}

pub(super) fn site_items(p: Pair<Rule>) -> Vec<SiteItem> {
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

pub(super) fn attrs<'i>(pairs: impl Iterator<Item = Pair<'i, Rule>>) -> Vec<SiteAttr> {
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

pub(super) fn board(p: Pair<Rule>) -> Board {
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
            Rule::directions_decl => {
                let mut it = inner(item);
                let mut dirs = vec![];
                while let (Some(name), Some(c)) = (it.next(), it.next()) {
                    let (x, y, sp) = coord(c);
                    dirs.push((ident(name), x, y, sp));
                }
                b.directions.push((dirs, span));
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

/// `require COND "message"`
pub(super) fn require(p: Pair<Rule>, span: Span) -> Require {
    let mut it = inner(p);
    let cond = expr(it.next().expect("require: expr"));
    let message = string_value(it.next().expect("require: message"));
    Require {
        cond,
        message,
        span,
    }
}

/// `limit N turns`, `limit N moves then end game draw`
pub(super) fn limit(p: Pair<Rule>, span: Span) -> LimitDecl {
    let mut it = inner(p);
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
    LimitDecl {
        count,
        moves,
        then,
        span,
    }
}

/// One piece of `pieces { NAME value V tokens N … }`
pub(super) fn piece(p: Pair<Rule>) -> PieceDecl {
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
}

/// `action NAME(PARAMS) { … }`
pub(super) fn action(p: Pair<Rule>, span: Span) -> ActionDecl {
    let mut parts: Vec<Pair<Rule>> = inner(p).collect();
    let body = block(parts.pop().expect("action: body"));
    let mut it = parts.into_iter();
    let name = ident(it.next().expect("action: name"));
    ActionDecl {
        name,
        params: it.map(ident).collect(),
        body,
        span,
    }
}

/// `tally NAME per player = VALUE "doc"`
pub(super) fn tally(p: Pair<Rule>, span: Span) -> TallyDecl {
    let mut it = inner(p);
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
    TallyDecl {
        name,
        per_player,
        init: init.expect("tally: value"),
        doc,
        span,
        per_site,
    }
}

/// `def NAME(PARAMS) = EXPR`
pub(super) fn def(p: Pair<Rule>, span: Span) -> Def {
    let mut parts: Vec<Pair<Rule>> = inner(p).collect();
    let body = expr(parts.pop().expect("def: body"));
    let mut it = parts.into_iter();
    let name = ident(it.next().expect("def: name"));
    Def {
        name,
        params: it.map(ident).collect(),
        body,
        span,
    }
}

/// The documented labels of `labels { LABEL "text" … }`
pub(super) fn label_docs(p: Pair<Rule>) -> Vec<LabelDoc> {
    let mut docs = vec![];
    for doc in inner(p).filter(|x| x.as_rule() == Rule::label_doc) {
        let mut it = inner(doc);
        let label = ident(it.next().expect("labels: label"));
        let text = it.next().expect("labels: text");
        docs.push(LabelDoc {
            label,
            text_span: span_of(&text),
            text: string_value(text),
        });
    }
    docs
}
