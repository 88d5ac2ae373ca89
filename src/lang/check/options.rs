//! Options, variants and the settings given on the command line (`-o`, `--variant`): their
//! declarations, values and requirements.

use super::*;

impl Checker<'_> {
    pub(super) fn options_decls(&mut self) {
        for o in &self.t.file.options {
            let (domain, default) = match (&o.domain, &o.default) {
                (None, OptionValue::Bool(b)) => (OptDomain::Bool, OptValue::Bool(*b)),
                (Some(OptionDomain::Range(lo, hi, sp)), OptionValue::Int(n)) => {
                    if lo > hi {
                        self.error(
                            ErrorKind::BadRange {
                                name: o.name.name.clone(),
                            },
                            *sp,
                        );
                    } else if n < lo || n > hi {
                        self.error(
                            ErrorKind::OutOfRange {
                                name: o.name.name.clone(),
                                value: *n,
                                lo: *lo,
                                hi: *hi,
                            },
                            o.default_span,
                        );
                    }
                    (OptDomain::Range(*lo, *hi), OptValue::Int(*n))
                }
                (None, OptionValue::Int(n)) => {
                    self.error_hint(
                        ErrorKind::Missing {
                            what: "range for this number option",
                        },
                        o.default_span,
                        format!(
                            "write the allowed values, e.g. `option {} = {n} in 1..100`",
                            o.name.name
                        ),
                    );
                    (OptDomain::Range(*n, *n), OptValue::Int(*n))
                }
                // A number may be one of the words (`rounds = 1 in 1 match`).
                (Some(OptionDomain::Words(ws)), OptionValue::Word(_) | OptionValue::Int(_)) => {
                    let w = &option_value_text(&o.default);
                    let list: Vec<String> = ws.iter().map(|i| i.name.clone()).collect();
                    if !list.contains(w) {
                        self.error(
                            ErrorKind::BadOptionValue {
                                name: o.name.name.clone(),
                                value: w.clone(),
                                expected: list.join(" | ").into(),
                            },
                            o.default_span,
                        );
                    }
                    for wd in ws {
                        // A number among the words (`rounds = 1 in 1 match`) is no name.
                        let numeric = wd
                            .name
                            .starts_with(|c: char| c.is_ascii_digit() || c == '-');
                        if !self.t.words.contains(&wd.name) {
                            self.t.words.push(wd.name.clone());
                            let id = (self.t.words.len() - 1) as i64;
                            if !numeric {
                                self.declare(&wd.name, Global::Word(id), wd.span, "word");
                            }
                        }
                    }
                    (OptDomain::Words(list), OptValue::Word(w.clone()))
                }
                (_, v) => {
                    let expected = match &o.domain {
                        Some(OptionDomain::Range(..)) => "a number".to_string(),
                        Some(OptionDomain::Words(ws)) => ws
                            .iter()
                            .map(|i| i.name.as_str())
                            .collect::<Vec<_>>()
                            .join(" | "),
                        None => "`on`, `off`, or a number with a range".to_string(),
                    };
                    self.error(
                        ErrorKind::BadOptionValue {
                            name: o.name.name.clone(),
                            value: option_value_text(v),
                            expected: expected.into(),
                        },
                        o.default_span,
                    );
                    (OptDomain::Bool, OptValue::Bool(false))
                }
            };
            let idx = self.t.options.len();
            if self.declare(&o.name.name, Global::Option(idx), o.name.span, "option") {
                self.t.options.push(OptionInfo {
                    name: o.name.name.clone(),
                    value: default.clone(),
                    default,
                    domain,
                    doc: o.doc.clone(),
                });
            }
        }
    }

    pub(super) fn option_index(&self, name: &str) -> Option<usize> {
        self.t.options.iter().position(|o| o.name == name)
    }

    pub(super) fn variants(&mut self) -> Vec<VariantInfo> {
        let mut out: Vec<VariantInfo> = vec![];
        for v in &self.t.file.variants {
            if out.len() >= MAX_VARIANTS {
                // each variant is loaded when the file is validated
                self.error(
                    ErrorKind::TooLarge {
                        value: MAX_VARIANTS as i64 + 1,
                        what: "at most 64 variants",
                    },
                    v.span,
                );
                break;
            }
            if out.iter().any(|o| o.name == v.name) {
                self.error(
                    ErrorKind::Duplicate {
                        what: "variant",
                        name: v.name.clone(),
                    },
                    v.span,
                );
                continue;
            }
            let mut sets = vec![];
            for (name, value, sp) in &v.sets {
                let Some(i) = self.option_index(&name.name) else {
                    let hint = self
                        .d
                        .suggest_among(&name.name, self.t.options.iter().map(|o| o.name.as_str()))
                        .map(|s| format!("did you mean `{s}`?"))
                        .unwrap_or_else(|| "a variant sets options declared with `option`".into());
                    self.error_hint(
                        ErrorKind::Unknown {
                            what: "option",
                            name: name.name.clone(),
                        },
                        name.span,
                        hint,
                    );
                    continue;
                };
                match typed_value(&self.t.options[i], value) {
                    Ok(val) => sets.push((name.name.clone(), val)),
                    Err(kind) => self.error(kind, *sp),
                }
            }
            out.push(VariantInfo {
                name: v.name.clone(),
                doc: v.doc.clone(),
                sets,
            });
        }
        out
    }

    /// Applies the variant, then the `-o` settings; returns the errors and the option values
    /// before the `-o` settings (to tell whether one of them breaks a requirement).
    pub(super) fn apply_settings(
        &mut self,
        settings: &Settings,
        variants: &[VariantInfo],
    ) -> (Vec<String>, Vec<OptValue>) {
        let mut errors = vec![];
        if let Some(vname) = &settings.variant {
            match variants.iter().find(|v| &v.name == vname) {
                Some(v) => {
                    for (n, val) in &v.sets {
                        if let Some(i) = self.option_index(n) {
                            self.t.options[i].value = val.clone();
                        }
                    }
                }
                None => {
                    let names: Vec<&str> = variants.iter().map(|v| v.name.as_str()).collect();
                    let mut msg = format!("unknown variant `{vname}`");
                    match suggest(vname, names.iter().copied()) {
                        Some(s) => msg.push_str(&format!(": did you mean `{s}`?")),
                        None if names.is_empty() => msg.push_str(": this game has no variants"),
                        None => msg.push_str(&format!(
                            " (variants: {})",
                            names
                                .iter()
                                .map(|n| format!("`{n}`"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        )),
                    }
                    errors.push(msg);
                }
            }
        }
        let before_sets = self.t.options.iter().map(|o| o.value.clone()).collect();
        for (name, text) in &settings.sets {
            let Some(i) = self.option_index(name) else {
                let mut msg = format!("unknown option `{name}`");
                match suggest(name, self.t.options.iter().map(|o| o.name.as_str())) {
                    Some(s) => msg.push_str(&format!(": did you mean `{s}`?")),
                    None => msg.push_str(&format!(
                        " (options: {})",
                        self.t
                            .options
                            .iter()
                            .map(|o| o.name.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )),
                }
                errors.push(msg);
                continue;
            };
            let raw = parse_setting(text);
            match typed_value(&self.t.options[i], &raw) {
                Ok(v) => self.t.options[i].value = v,
                Err(kind) => errors.push(kind.to_string()),
            }
        }
        (errors, before_sets)
    }

    /// Checks the requirements. One that the values given with `-o` break (it holds without
    /// them) is the user's error, returned in words naming those options; one that fails
    /// otherwise is an error of the file.
    pub(super) fn requires(
        &mut self,
        settings: &Settings,
        before_sets: &[OptValue],
    ) -> Vec<String> {
        let mut broken = vec![];
        for r in &self.t.file.requires {
            let (e, ty) = self.expr(&r.cond);
            match (e, ty) {
                (_, Ty::Error) => {}
                (Expr::Const(0), Ty::Bool) if !settings.sets.is_empty() => {
                    match self.options_breaking(&r.cond, settings, before_sets) {
                        Some(names) => broken.push(format!(
                            "{names} {} a requirement of the game: {}",
                            if names.contains(", ") {
                                "break"
                            } else {
                                "breaks"
                            },
                            r.message
                        )),
                        None => self.error_hint(
                            ErrorKind::Requirement {
                                message: r.message.clone(),
                            },
                            r.span,
                            "the options chosen do not satisfy this requirement",
                        ),
                    }
                }
                (Expr::Const(v), Ty::Bool) => {
                    if v == 0 {
                        let user = !settings.sets.is_empty() || settings.variant.is_some();
                        let hint = if user {
                            "the options chosen do not satisfy this requirement".to_string()
                        } else {
                            "the default option values do not satisfy this requirement".to_string()
                        };
                        self.error_hint(
                            ErrorKind::Requirement {
                                message: r.message.clone(),
                            },
                            r.span,
                            hint,
                        );
                    }
                }
                (_, t) => self.error(
                    ErrorKind::Type {
                        expected: "a condition on options".into(),
                        found: t.words().into(),
                    },
                    r.cond.span,
                ),
            }
        }
        broken
    }

    /// Whether a requirement holds with the values before the `-o` settings: then the
    /// settings that make it fail, in words (`option \`seeds\` = 7`); `None` when it fails
    /// without them too (the file's error).
    pub(super) fn options_breaking(
        &mut self,
        cond: &ast::Expr,
        settings: &Settings,
        before_sets: &[OptValue],
    ) -> Option<String> {
        let diags = self.d.diags.len();
        let holds_with = |c: &mut Self, values: &[OptValue]| {
            let now: Vec<OptValue> = c.t.options.iter().map(|o| o.value.clone()).collect();
            for (o, v) in c.t.options.iter_mut().zip(values) {
                o.value = v.clone();
            }
            let holds = matches!(c.expr(cond), (Expr::Const(v), Ty::Bool) if v != 0);
            for (o, v) in c.t.options.iter_mut().zip(now) {
                o.value = v;
            }
            holds
        };
        let holds_before = holds_with(self, before_sets);
        let mut named = vec![];
        if holds_before {
            let set: Vec<OptValue> = self.t.options.iter().map(|o| o.value.clone()).collect();
            // each option given with -o, alone back to its value before: does that mend it?
            for (name, _) in &settings.sets {
                let Some(i) = self.option_index(name) else {
                    continue;
                };
                let mut values = set.clone();
                values[i] = before_sets[i].clone();
                let label = format!("option `{name}` = {}", set[i]);
                if holds_with(self, &values) && !named.contains(&label) {
                    named.push(label);
                }
            }
            if named.is_empty() {
                named = settings
                    .sets
                    .iter()
                    .filter_map(|(n, _)| self.option_index(n))
                    .map(|i| format!("option `{}` = {}", self.t.options[i].name, set[i]))
                    .collect();
                named.dedup();
            }
        }
        // (evaluating again says nothing new)
        self.d.diags.truncate(diags);
        holds_before.then(|| named.join(", "))
    }
}

fn option_value_text(v: &OptionValue) -> String {
    match v {
        OptionValue::Int(n) => n.to_string(),
        OptionValue::Bool(true) => "on".into(),
        OptionValue::Bool(false) => "off".into(),
        OptionValue::Word(w) => w.clone(),
    }
}

pub(super) fn parse_setting(text: &str) -> OptionValue {
    match text {
        "on" | "true" | "yes" => OptionValue::Bool(true),
        "off" | "false" | "no" => OptionValue::Bool(false),
        _ => match text.parse::<i64>() {
            Ok(n) => OptionValue::Int(n),
            Err(_) => OptionValue::Word(text.to_string()),
        },
    }
}

/// Checks a value against an option's domain.
pub(super) fn typed_value(o: &OptionInfo, v: &OptionValue) -> Result<OptValue, ErrorKind> {
    let bad = |expected: String| ErrorKind::BadOptionValue {
        name: o.name.clone(),
        value: option_value_text(v),
        expected: expected.into(),
    };
    match (&o.domain, v) {
        (OptDomain::Range(lo, hi), OptionValue::Int(n)) => {
            if n < lo || n > hi {
                Err(ErrorKind::OutOfRange {
                    name: o.name.clone(),
                    value: *n,
                    lo: *lo,
                    hi: *hi,
                })
            } else {
                Ok(OptValue::Int(*n))
            }
        }
        (OptDomain::Range(lo, hi), _) => Err(bad(format!("a number in {lo}..{hi}"))),
        (OptDomain::Bool, OptionValue::Bool(b)) => Ok(OptValue::Bool(*b)),
        (OptDomain::Bool, _) => Err(bad("`on` or `off`".into())),
        (OptDomain::Words(ws), OptionValue::Word(w)) if ws.contains(w) => {
            Ok(OptValue::Word(w.clone()))
        }
        (OptDomain::Words(ws), OptionValue::Int(n)) if ws.contains(&n.to_string()) => {
            Ok(OptValue::Word(n.to_string()))
        }
        (OptDomain::Words(ws), _) => Err(bad(ws.join(" | "))),
    }
}

/// The options in force, by name (for records and `list`).
pub fn option_map(g: &Game) -> BTreeMap<String, String> {
    g.options
        .iter()
        .map(|o| (o.name.clone(), o.value.to_string()))
        .collect()
}
