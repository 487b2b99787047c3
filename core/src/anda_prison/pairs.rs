//! Anda-prison's two-stone turns (the first turn under `nopie`, the pie's setup pairs, the
//! `corners` pair): the pair's shape, the fast test of quiet pairs, the legal pairs in
//! order and a uniformly drawn one, as engine/games/anda_prison/pairs.py.

use super::state::{Action, Phase, Prison};
use crate::bitboard::Bb;
use crate::rng::Rng;

/// Draws of two sites before a random pair is chosen from the full list instead.
const PAIR_DRAWS: u32 = 1000;

/// The corners K0..K5 of the board (engine.geometry's `corners`).
fn corners(geo: &crate::geometry::Hexagon) -> [usize; 6] {
    let (last, m, w) = (2 * geo.n - 2, geo.n - 1, geo.width);
    [(last, m), (last, last), (m, last), (0, m), (0, 0), (m, 0)].map(|(c, r)| r * w + c)
}

/// One two-stone turn: the quiet sites (no stone around) when no group stands smothered.
struct Turn<'a, const N: usize> {
    g: &'a Prison<N>,
    quiet: Option<Bb<N>>,
}

impl<'a, const N: usize> Turn<'a, N> {
    fn new(g: &'a Prison<N>) -> Turn<'a, N> {
        let b = &g.board;
        let standing = (0..2).any(|c| b.smothered(c).any());
        let mask = b.geo.mask::<N>();
        let quiet = (!standing).then(|| mask.andnot(b.st[0].or(b.st[1]).grow(b.geo.width)));
        Turn { g, quiet }
    }

    /// (region, the mover's groups touching it, the enemy's) of a quiet site.
    fn info(&self, s: usize) -> Option<(u16, u8, u8)> {
        let q = self.quiet?;
        if !q.has(s) {
            return None;
        }
        let b = &self.g.board;
        let k = b.rid[s];
        let me = self.g.f.to_move;
        let cnt = b.rcnt[k as usize];
        Some((k, cnt[me], cnt[1 - me]))
    }

    /// pairs.py `pair_ok`: whether the pair (shape checked) is legal; the fast test when
    /// both stones are quiet and it decides, else the full resolution.
    fn ok(&self, a: usize, b: usize) -> bool {
        if let (Some(ia), Some(ib)) = (self.info(a), self.info(b)) {
            if ia.2 == 1 || ib.2 == 1 {
                return false;
            }
            let same = ia.0 == ib.0;
            if (ia.2 == 0 || ia.1 > 0 || same) && (ib.2 == 0 || ib.1 > 0 || same) {
                return true;
            }
        }
        self.g.pair(a, b).is_some()
    }
}

impl<const N: usize> Prison<N> {
    /// pairs.py `pair_shape`: two distinct empty sites, not adjacent; in phase `corners`
    /// two corners that share no side (a, b in notation order).
    pub(crate) fn shape_ok(&self, a: usize, b: usize) -> bool {
        let geo = self.geo();
        let empty = self.board.empty;
        if !geo.is_site(a) || !geo.is_site(b) || !empty.has(a) || !empty.has(b) || a == b {
            return false;
        }
        if geo.nbr::<N>(a).has(b) {
            return false;
        }
        if self.f.phase == Phase::Corners {
            let k = corners(geo);
            let (Some(i), Some(j)) = (k.iter().position(|&x| x == a), k.iter().position(|&x| x == b)) else {
                return false;
            };
            let d = (i + 6 - j) % 6;
            return d != 1 && d != 5;
        }
        true
    }

    /// Calls `f` on each legal pair (notation order, as pairs.py `legal_pairs`) while it
    /// returns true; whether it stopped (`f` returned false).
    pub(crate) fn each_pair(&self, mut f: impl FnMut(usize, usize) -> bool) -> bool {
        let geo = self.geo();
        let turn = Turn::new(self);
        let mut cand: Vec<usize> = if self.f.phase == Phase::Corners {
            corners(geo).to_vec()
        } else {
            self.board.empty.iter().collect()
        };
        cand.sort_unstable_by_key(|&s| geo.rank[s]);
        for (i, &a) in cand.iter().enumerate() {
            for &b in &cand[i + 1..] {
                if self.shape_ok(a, b) && turn.ok(a, b) && !f(a, b) {
                    return true;
                }
            }
        }
        false
    }

    /// A uniformly drawn legal pair or `swap` when offered (pairs.py `random_pair`: two
    /// ordered site draws per pair and per word); None when there is neither.
    pub(crate) fn random_pair(&self, rng: &mut Rng) -> Option<Action> {
        let geo = self.geo();
        let words = u32::from(self.f.phase == Phase::PairSwap);
        let n = geo.site_count() as u32;
        let turn = Turn::new(self);
        for _ in 0..PAIR_DRAWS {
            let r = rng.below(n * n + 2 * words);
            if r >= n * n {
                return Some(Action::Swap);
            }
            let (x, y) = (geo.sites[(r / n) as usize], geo.sites[(r % n) as usize]);
            let (a, b) = if geo.rank[x] <= geo.rank[y] { (x, y) } else { (y, x) };
            if self.shape_ok(a, b) && turn.ok(a, b) {
                return Some(Action::Pair(a as u16, b as u16));
            }
        }
        let mut all = Vec::new();
        self.each_pair(|a, b| {
            all.push(Action::Pair(a as u16, b as u16));
            true
        });
        if words > 0 {
            all.push(Action::Swap);
        }
        (!all.is_empty()).then(|| all[rng.below(all.len() as u32) as usize])
    }
}
