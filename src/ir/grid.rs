//! The board as a grid of coordinates: the site at a point (`site_at(x, y)`), and the board's
//! named directions (`directions n (0, 1) …`), each an offset with the site one step along it
//! from every site. Built once when a game is loaded; read by the static evaluator and the
//! engine alike.

const NONE: u16 = u16::MAX;
/// A dense table of the sites by coordinates is kept when the board's bounding box has at most
/// this many points; a larger (sparse) board is searched in a sorted list.
const MAX_DENSE: i64 = 1 << 16;

/// The site at each point of the board.
#[derive(Clone, Debug, Default)]
pub(crate) struct SiteGrid {
    x0: i64,
    y0: i64,
    width: i64,
    height: i64,
    /// `dense[(y - y0) * width + (x - x0)]`, when the box is small
    dense: Vec<u16>,
    /// (x, y, site), sorted, when it is not
    sparse: Vec<(i64, i64, u16)>,
}

impl SiteGrid {
    /// The grid of the given points (the first site declared at a point is the one there).
    pub(crate) fn new(points: impl IntoIterator<Item = ((i64, i64), u16)>) -> Self {
        let mut sparse: Vec<(i64, i64, u16)> =
            points.into_iter().map(|((x, y), s)| (x, y, s)).collect();
        sparse.sort_unstable();
        sparse.dedup_by_key(|p| (p.0, p.1));
        let Some(x0) = sparse.iter().map(|p| p.0).min() else {
            return Self::default();
        };
        let x1 = sparse.iter().map(|p| p.0).max().unwrap_or(x0);
        let y0 = sparse.iter().map(|p| p.1).min().unwrap_or(0);
        let y1 = sparse.iter().map(|p| p.1).max().unwrap_or(y0);
        // Coordinates are within ±1,000,000 (the checker's limit): no overflow here.
        let (width, height) = (x1 - x0 + 1, y1 - y0 + 1);
        if width.saturating_mul(height) > MAX_DENSE {
            return SiteGrid {
                x0,
                y0,
                width,
                height,
                dense: vec![],
                sparse,
            };
        }
        let mut dense = vec![NONE; (width * height) as usize];
        for &(x, y, s) in &sparse {
            dense[((y - y0) * width + (x - x0)) as usize] = s;
        }
        SiteGrid {
            x0,
            y0,
            width,
            height,
            dense,
            sparse: vec![],
        }
    }

    /// The site at (x, y), -1 for none.
    #[inline]
    pub(crate) fn at(&self, x: i64, y: i64) -> i64 {
        let (dx, dy) = (x.wrapping_sub(self.x0), y.wrapping_sub(self.y0));
        if !(0..self.width).contains(&dx) || !(0..self.height).contains(&dy) {
            return -1;
        }
        if !self.dense.is_empty() {
            let s = self.dense[(dy * self.width + dx) as usize];
            return if s == NONE { -1 } else { s as i64 };
        }
        match self.sparse.binary_search_by_key(&(x, y), |p| (p.0, p.1)) {
            Ok(i) => self.sparse[i].2 as i64,
            Err(_) => -1,
        }
    }
}

/// The board's named directions: `directions n (0, 1) e (1, 0) …`. Direction values 0 and 1 are
/// the ring's; named direction `i` is the value `FIRST + i`.
#[derive(Clone, Debug, Default)]
pub(crate) struct Compass {
    /// each direction's name and offset, in the order declared
    pub(crate) dirs: Vec<(String, (i64, i64))>,
    /// `step[i][s]`: the site one step from s along direction i (`u16::MAX` for none)
    pub(crate) step: Vec<Vec<u16>>,
}

impl Compass {
    /// The value of the first named direction (after the ring's two).
    pub(crate) const FIRST: i64 = 2;

    /// The named directions of a board whose sites are at `coords`.
    pub(crate) fn new(
        dirs: Vec<(String, (i64, i64))>,
        grid: &SiteGrid,
        coords: &[(i64, i64)],
    ) -> Self {
        let step = dirs
            .iter()
            .map(|(_, (dx, dy))| {
                coords
                    .iter()
                    .map(|&(x, y)| match grid.at(x + dx, y + dy) {
                        -1 => NONE,
                        s => s as u16,
                    })
                    .collect()
            })
            .collect();
        Compass { dirs, step }
    }

    /// The index of a named direction, from a direction value.
    #[inline(always)]
    pub(crate) fn index(&self, dir: i64) -> Option<usize> {
        usize::try_from(dir.checked_sub(Self::FIRST)?)
            .ok()
            .filter(|&i| i < self.dirs.len())
    }

    /// `next(s, d, n)` along named direction `i`: the site n offsets from s (-1 for none).
    /// `(x, y)` are the coordinates of `s`.
    pub(crate) fn walk(
        &self,
        grid: &SiteGrid,
        i: usize,
        s: usize,
        (x, y): (i64, i64),
        n: i64,
    ) -> i64 {
        if n == 1 {
            let t = self.step[i][s];
            return if t == NONE { -1 } else { t as i64 };
        }
        let (dx, dy) = self.dirs[i].1;
        match (
            dx.checked_mul(n).and_then(|d| x.checked_add(d)),
            dy.checked_mul(n).and_then(|d| y.checked_add(d)),
        ) {
            (Some(x), Some(y)) => grid.at(x, y),
            _ => -1,
        }
    }
}
