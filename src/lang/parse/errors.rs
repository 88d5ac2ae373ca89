//! pest's syntax errors in the language's words: what was expected, as a rule author would
//! name it ("a number", "`track`"), never a generated rule name.

use super::grammar::{ends_a_list, is_reserved, starts_a_statement};
use super::*;

pub(super) fn syntax_error(e: &pest::error::Error<Rule>, source: &str) -> Diagnostic {
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
            // where any statement may come: "a statement", rather than each by its words
            let n_stmt = words.iter().filter(|w| starts_a_statement(w)).count();
            if n_stmt >= 3 {
                words.retain(|w| !starts_a_statement(w));
                words.push("a statement".into());
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
    let reserved = !word.is_empty() && is_reserved(&word);
    let hint = if reserved && expected.contains("a name") {
        format!(
            "`{word}` is one of the few reserved words (`ludic help language`, \"Reserved words\"): it can never be a name; choose another, such as `{word}_`"
        )
    } else if let Some(word) = list_ender(source, pos, &word) {
        format!(
            "a list written with spaces ends before `{word}`, which begins a declaration, a statement or the next part of one; as an item of such a list, write the name in brackets where an expression may stand, `({word})`, or rename it"
        )
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

/// The word that may have ended a list too early where a syntax error is: the word at the
/// error, or the one just before it (`capture a set }`: the error is at `}`), when it ends
/// lists and follows what may be an item.
fn list_ender(source: &str, pos: usize, at: &str) -> Option<String> {
    if !at.is_empty() && ends_a_list(at) && after_an_item(source, pos) {
        return Some(at.to_string());
    }
    let before = source.get(..pos)?.trim_end();
    let start = before
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .map_or(0, |i| i + 1);
    let word = &before[start..];
    (!word.is_empty() && ends_a_list(word) && after_an_item(source, start))
        .then(|| word.to_string())
}

/// Whether the text before `pos` ends what may be an item of a list (a name, a number, a
/// bracket closed): a word there that ends lists may have ended one.
fn after_an_item(source: &str, pos: usize) -> bool {
    let before = source.get(..pos).unwrap_or("").trim_end();
    before
        .chars()
        .next_back()
        .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | ')' | ']'))
}

/// A word of the language as a syntax error names it: `kw_row` is "`row`".
pub(super) fn keyword_words(r: Rule) -> Option<String> {
    if !is_keyword(r) {
        return None;
    }
    let name = format!("{r:?}");
    Some(format!("`{}`", name.strip_prefix("kw_").unwrap_or(&name)))
}

/// Grammar rules in words, for syntax errors. A statement or a declaration (an alternative of
/// `stmt` or `item`) needs no row: its words are the ones it begins with in the grammar.
pub(super) fn rule_words(r: Rule) -> Option<&'static str> {
    Some(match r {
        Rule::EOI => "end of file",
        Rule::ident => "a name",
        Rule::int => "a number",
        Rule::version_decl => "`ludic` and a version",
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
        Rule::another_kw => "`another turn`",
        Rule::let_type | Rule::type_word => {
            "a type (`site`, `player`, `token`, `area`, `number`, …)"
        }
        Rule::moves_kw => "`moves`",
        Rule::limit_then => "`then end game`",
        Rule::some_along => "`from`",
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
        Rule::kw_between => "`between rounds`",
        Rule::kw_rounds => "`rounds`",
        Rule::labels_kw => "`labels`",
        Rule::label_doc => "a label and its description",
        Rule::tally_per | Rule::kw_player => "`per player`",
        Rule::draw_kw => "`draw`",
        Rule::set_items | Rule::region_items => "sites",
        Rule::capture_keep => "`keep`",
        Rule::links_decl => "`links`",
        Rule::directions_decl => "`directions`",
        Rule::position_decl => "`position`",
        Rule::position_base => "`pieces` or `board`",
        Rule::choose_else => "`else`",
        Rule::alt_to => "`to`",
        Rule::alt_set | Rule::exists_set => "a set",
        Rule::option_word => "a word",
        Rule::points_decl | Rule::points_for => "`points`",
        Rule::coord | Rule::coord_range => "coordinates like `(5, 1)`",
        Rule::group => "`(`",
        Rule::track_turned => "`turned`",
        Rule::some_expr => "`some`",
        Rule::kw_players => "`players per side`",
        Rule::die_decl => "`die`",
        Rule::chart_row => "`value`",
        Rule::chart_when => "`when`",
        Rule::chart_otherwise => "`otherwise`",
        Rule::track_decl => "`track`",
        Rule::area_decl => "`area`",
        Rule::piece_value | Rule::piece_tokens => "`value` or `tokens`",
        Rule::move_stmt => "`move`",
        Rule::move_to | Rule::move_onto => "`to` or `onto`",
        Rule::for_tokens | Rule::for_sites => "`for`",
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
        Rule::forget_kw => "`forget positions`",
        Rule::positions_kw => "`positions`",
        Rule::line_expr | Rule::line_set => "`line NAME through …: …`",
        Rule::through_kw => "`through`",
        // a statement or a declaration: the words it begins with, read from the grammar
        _ => return super::grammar::starting_words(r),
    })
}

/// Grammar rules that have no words of their own on purpose: a syntax error never names them
/// (pest reports the rule that starts at the place, and these are inside one that has words:
/// the parts of a declaration, a statement or an expression, the tokens of an atomic rule), or
/// they are named through a rule that contains them. A new rule of the grammar (but a
/// statement or a declaration, whose words are read from the grammar) is either given words
/// in [`rule_words`] or added here: the test `every_rule_has_words_or_is_listed` fails until
/// it is, so that no rule is left without words by mistake.
#[cfg(test)]
const NO_WORDS: &[Rule] = &[
    // between tokens, and the whole file
    Rule::WHITESPACE,
    Rule::COMMENT,
    Rule::file,
    Rule::item,
    // inside atomic rules (`ident`, `string`), which have words
    Rule::keyword,
    Rule::list_end_word,
    Rule::stmt_end,
    Rule::stmt_word,
    Rule::leaving_head,
    Rule::board_end,
    Rule::board_word,
    Rule::line_head,
    Rule::lines_head,
    Rule::directions_head,
    Rule::item_end,
    Rule::item_word,
    Rule::position_head,
    Rule::dice_end,
    Rule::token_of,
    Rule::bracketed_name,
    Rule::ident_char,
    Rule::long_string,
    Rule::short_string,
    // choices among rules that have words (the error names the alternatives), and rules
    // that begin with one (`game_base` with `from`, `end_reason` with a string)
    Rule::game_base,
    Rule::board_item,
    Rule::site_item,
    Rule::block_body,
    Rule::stmt,
    Rule::move_word,
    Rule::alt_head,
    Rule::value_item,
    Rule::end_reason,
    Rule::infix,
    Rule::prefix,
    Rule::primary,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_has_words_or_is_listed() {
        let missing: Vec<Rule> = Rule::all_rules()
            .iter()
            .copied()
            .filter(|r| rule_words(*r).is_none() && keyword_words(*r).is_none())
            .filter(|r| !NO_WORDS.contains(r))
            .collect();
        assert!(
            missing.is_empty(),
            "grammar rules without words for syntax errors: give them words in `rule_words` \
             or list them in `NO_WORDS`: {missing:?}"
        );
        for r in NO_WORDS {
            assert!(
                rule_words(*r).is_none() && keyword_words(*r).is_none(),
                "{r:?} has words: take it out of `NO_WORDS`"
            );
        }
    }
}
