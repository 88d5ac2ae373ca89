//! The lines of a board: `line a1 d1 g1, a4 b4 c4` (given by their sites) and `lines 3`
//! (every run of 3 sites along a straight line of the links), for `line x through s: …`.

use super::{Checker, MAX_SITES};
use crate::ast::{LineDecl, Span};
use crate::diagnostic::ErrorKind;

/// Sites in all the lines of a board, together (a table the engine keeps).
const MAX_LINE_SITES: usize = 1 << 20;

impl Checker<'_> {
    /// Builds the lines of the board, each once (a line given twice, or given and derived
    /// from the links, is kept once).
    pub(super) fn board_lines(&mut self, decls: &[LineDecl]) {
        let mut lines: Vec<Vec<u16>> = vec![];
        let mut total = 0usize;
        for d in decls {
            match d {
                LineDecl::Sites(lists, _) => {
                    for list in lists {
                        let sites = self.resolve_sites(list);
                        let mut line: Vec<u16> = vec![];
                        for (s, span) in sites {
                            if line.contains(&s.0) {
                                let name = self.t.sites[s.0 as usize].name.clone();
                                self.error_hint(
                                    ErrorKind::LineRepeat { name },
                                    span,
                                    "a line passes through a site once; separate two lines with a comma",
                                );
                                continue;
                            }
                            line.push(s.0);
                        }
                        total += line.len();
                        lines.push(line);
                    }
                }
                LineDecl::Along(n, span) => {
                    let Some(n) = self.const_int(n) else { continue };
                    if !(2..=MAX_SITES).contains(&n) {
                        self.error(
                            ErrorKind::TooLarge {
                                value: n,
                                what: "`lines N` takes a number of sites from 2 to 4096",
                            },
                            *span,
                        );
                        continue;
                    }
                    if self.t.dirs.is_empty() {
                        self.error_hint(
                            ErrorKind::Missing {
                                what: "`links` (`lines N` follows them)",
                            },
                            *span,
                            "declare the board's lines with `links (1, 0) (0, 1)`, or list each line: `line a1 b1 c1`",
                        );
                        continue;
                    }
                    if !self.lines_along(n as usize, &mut lines, &mut total, *span) {
                        break;
                    }
                }
            }
            if total > MAX_LINE_SITES {
                self.too_many_line_sites(total, d.span());
                return;
            }
        }
        // Each line once, whatever its direction.
        let mut seen = std::collections::HashSet::new();
        lines.retain(|l| {
            let mut key = l.clone();
            key.sort_unstable();
            seen.insert(key)
        });
        self.t.board_lines = lines;
    }

    /// Every run of `n` sites one after the other along each line of the links (one direction
    /// of each pair); false past the size of the table (reported).
    fn lines_along(
        &mut self,
        n: usize,
        lines: &mut Vec<Vec<u16>>,
        total: &mut usize,
        span: Span,
    ) -> bool {
        for d in 0..self.t.dirs.len() {
            let (dx, dy) = self.t.dirs[d];
            // one direction of each pair: the other is the same lines backwards
            if (dx, dy) < (-dx, -dy) && self.t.dirs.contains(&(-dx, -dy)) {
                continue;
            }
            for s in 0..self.t.sites.len() {
                let mut line = Vec::with_capacity(n);
                let mut at = s as u16;
                line.push(at);
                while line.len() < n {
                    at = self.t.step[d][at as usize];
                    // (a straight line never comes back to a site: offsets are not zero)
                    if at == u16::MAX {
                        break;
                    }
                    line.push(at);
                }
                if line.len() == n {
                    *total += n;
                    if *total > MAX_LINE_SITES {
                        self.too_many_line_sites(*total, span);
                        return false;
                    }
                    lines.push(line);
                }
            }
        }
        true
    }

    fn too_many_line_sites(&mut self, total: usize, span: Span) {
        self.error(
            ErrorKind::TooLarge {
                value: total as i64,
                what: "at most 1048576 sites in all the lines of a board",
            },
            span,
        );
    }
}

impl LineDecl {
    fn span(&self) -> Span {
        match self {
            LineDecl::Sites(_, s) | LineDecl::Along(_, s) => *s,
        }
    }
}
