//! The hexagon of side n (2..13), as `engine/geometry.py` lays it out: bit = ri * W + ci,
//! W = 2n; a site exists iff 0 <= ci, ri <= 2n-2 and |ci - ri| <= n-1. Built once per
//! size and shared (`hexagon(n)`).

use std::sync::OnceLock;

use crate::bitboard::Bb;

pub const MIN_SIZE: usize = 2;
pub const MAX_SIZE: usize = 13;
/// Words of the widest board (n = 13: 25 * 26 + 25 bits).
pub const MAX_WORDS: usize = 11;

type Words = [u64; MAX_WORDS];

/// The six straight-line steps (dci, dri) in angular order, as engine.geometry.DIRECTIONS.
pub const DIRECTIONS: [(i32, i32); 6] = [(1, 0), (1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1)];

/// 64-bit words a board of side n needs.
pub fn words(n: usize) -> usize {
    let w = 2 * n;
    let last = 2 * n - 2;
    (last * w + last + 1).div_ceil(64)
}

pub struct Hexagon {
    pub n: usize,
    pub width: usize,
    /// Bits in notation order (column, then row).
    pub sites: Vec<usize>,
    /// bit -> position in notation order (usize::MAX off the board).
    pub rank: Vec<usize>,
    /// bit -> the neighbours in DIRECTIONS order (None off the board).
    pub ring: Vec<[Option<usize>; 6]>,
    nbr: Vec<Words>,
    mask: Words,
    perimeter: Words,
    /// bit -> perimeter feature 0..11 (K0, S0, K1, S1, ...), None inside.
    pub feature: Vec<Option<u8>>,
    /// The first-turn pairs of the empty board, canonical and in canonical order:
    /// [0] `opening=features`, [1] `opening=cells`.
    pub pairs: [Vec<(usize, usize)>; 2],
}

fn to_bb<const N: usize>(w: &Words) -> Bb<N> {
    let mut r = Bb::<N>::ZERO;
    r.0.copy_from_slice(&w[..N]);
    r
}

fn set(w: &mut Words, bit: usize) {
    w[bit >> 6] |= 1 << (bit & 63);
}

fn has(w: &Words, bit: usize) -> bool {
    (w[bit >> 6] >> (bit & 63)) & 1 == 1
}

/// Whether two distinct features are adjacent (1 or 2 apart around the perimeter).
pub fn features_adjacent(f: u8, g: u8) -> bool {
    let d = (f as i32 - g as i32).rem_euclid(12);
    let d = d.min(12 - d);
    d == 1 || d == 2
}

impl Hexagon {
    fn new(n: usize) -> Hexagon {
        let w = 2 * n;
        let last = (2 * n - 2) as i32;
        let ni = n as i32;
        let on = |c: i32, r: i32| (0..=last).contains(&c) && (0..=last).contains(&r) && (c - r).abs() < ni;
        let size = (last as usize) * w + last as usize + 1;
        let mut sites = Vec::new();
        for c in 0..=last {
            for r in 0..=last {
                if on(c, r) {
                    sites.push(r as usize * w + c as usize);
                }
            }
        }
        let mut rank = vec![usize::MAX; size];
        let mut ring = vec![[None; 6]; size];
        let mut nbr = vec![[0u64; MAX_WORDS]; size];
        let mut mask = [0u64; MAX_WORDS];
        let mut perimeter = [0u64; MAX_WORDS];
        for (i, &b) in sites.iter().enumerate() {
            rank[b] = i;
            set(&mut mask, b);
            let (c, r) = ((b % w) as i32, (b / w) as i32);
            for (d, (dc, dr)) in DIRECTIONS.iter().enumerate() {
                if on(c + dc, r + dr) {
                    let x = (r + dr) as usize * w + (c + dc) as usize;
                    ring[b][d] = Some(x);
                    set(&mut nbr[b], x);
                }
            }
            if ring[b].iter().any(|x| x.is_none()) {
                set(&mut perimeter, b);
            }
        }
        let m = n as i32 - 1;
        let k = [(last, m), (last, last), (m, last), (0, m), (0, 0), (m, 0)];
        let mut feature = vec![None; size];
        for i in 0..6 {
            let (c0, r0) = k[i];
            let (c1, r1) = k[(i + 1) % 6];
            let (dc, dr) = ((c1 - c0) / m, (r1 - r0) / m);
            for j in 1..m {
                feature[((r0 + j * dr) * w as i32 + c0 + j * dc) as usize] = Some(2 * i as u8 + 1);
            }
        }
        for (i, &(c, r)) in k.iter().enumerate() {
            feature[r as usize * w + c as usize] = Some(2 * i as u8);
        }
        let rim: Vec<usize> = sites.iter().copied().filter(|&b| has(&perimeter, b)).collect();
        let mut pairs = [Vec::new(), Vec::new()];
        for (i, &a) in rim.iter().enumerate() {
            for &b in &rim[i + 1..] {
                let (fa, fb) = (feature[a].unwrap_or(0), feature[b].unwrap_or(0));
                if fa != fb && !features_adjacent(fa, fb) {
                    pairs[0].push((a, b));
                }
                if !has(&nbr[a], b) {
                    pairs[1].push((a, b));
                }
            }
        }
        Hexagon { n, width: w, sites, rank, ring, nbr, mask, perimeter, feature, pairs }
    }

    pub fn site_count(&self) -> usize {
        self.sites.len()
    }

    /// One past the highest bit of the board.
    pub fn bits(&self) -> usize {
        self.rank.len()
    }

    #[inline(always)]
    pub fn mask<const N: usize>(&self) -> Bb<N> {
        to_bb(&self.mask)
    }

    #[inline(always)]
    pub fn perimeter<const N: usize>(&self) -> Bb<N> {
        to_bb(&self.perimeter)
    }

    /// The neighbours of a site (on the board).
    #[inline(always)]
    pub fn nbr<const N: usize>(&self, bit: usize) -> Bb<N> {
        to_bb(&self.nbr[bit])
    }

    pub fn is_site(&self, bit: usize) -> bool {
        bit < self.rank.len() && self.rank[bit] != usize::MAX
    }

    /// The site's name (`a1`), for messages and tests.
    pub fn name(&self, bit: usize) -> String {
        format!("{}{}", (b'a' + (bit % self.width) as u8) as char, bit / self.width + 1)
    }

    /// The site named `text` (`a1`), None when it is not one of the board.
    pub fn parse(&self, text: &str) -> Option<usize> {
        let mut chars = text.chars();
        let c = chars.next()? as i32 - 'a' as i32;
        let r: i32 = chars.as_str().parse::<i32>().ok()? - 1;
        let last = 2 * self.n as i32 - 2;
        if (0..=last).contains(&c) && (0..=last).contains(&r) && (c - r).abs() < self.n as i32 {
            Some(r as usize * self.width + c as usize)
        } else {
            None
        }
    }
}

static BOARDS: [OnceLock<Hexagon>; MAX_SIZE + 1] = [const { OnceLock::new() }; MAX_SIZE + 1];

/// The shared board of side n; n must lie in MIN_SIZE..=MAX_SIZE.
pub fn hexagon(n: usize) -> &'static Hexagon {
    assert!((MIN_SIZE..=MAX_SIZE).contains(&n), "hexagon side {n} outside 2..13");
    BOARDS[n].get_or_init(|| Hexagon::new(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn site_counts_and_words() {
        for n in MIN_SIZE..=MAX_SIZE {
            let h = hexagon(n);
            assert_eq!(h.site_count(), 3 * n * (n - 1) + 1);
            assert!(words(n) <= MAX_WORDS);
            assert!(h.bits() <= 64 * words(n));
        }
    }

    #[test]
    fn neighbours_of_e5_at_5() {
        let h = hexagon(5);
        let e5 = h.parse("e5").unwrap();
        let mut names: Vec<String> = h.nbr::<2>(e5).iter().map(|b| h.name(b)).collect();
        names.sort();
        assert_eq!(names, ["d4", "d5", "e4", "e6", "f5", "f6"]);
    }

    #[test]
    fn features_at_5() {
        let h = hexagon(5);
        let at = |s: &str| h.feature[h.parse(s).unwrap()];
        assert_eq!(at("i5"), Some(0));
        assert_eq!(at("i7"), Some(1));
        assert_eq!(at("a1"), Some(8));
        assert_eq!(at("c1"), Some(9));
        assert_eq!(at("e5"), None);
        assert!(features_adjacent(0, 11) && features_adjacent(0, 10) && !features_adjacent(0, 3));
    }

    #[test]
    fn opening_pairs_at_9_follow_a_t1() {
        let h = hexagon(9);
        let p = |a: &str, b: &str| {
            let (x, y) = (h.parse(a).unwrap(), h.parse(b).unwrap());
            let (x, y) = if h.rank[x] < h.rank[y] { (x, y) } else { (y, x) };
            (h.pairs[0].contains(&(x, y)), h.pairs[1].contains(&(x, y)))
        };
        assert_eq!(p("a1", "q17"), (true, true));
        assert_eq!(p("a1", "a9"), (false, true));
        assert_eq!(p("a3", "c1"), (false, true));
        assert_eq!(p("a3", "q12"), (true, true));
        assert!(p("a1", "b10").0);
        assert_eq!(p("a1", "b1"), (false, false));
    }
}
