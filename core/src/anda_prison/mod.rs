//! Anda-prison's placement (RULES.md section 3, docs/rules/anda-prison.md) on Anda's
//! incremental board: put the stones; (2) the placed group must not be smothered; one
//! evaluation sends every smothered group of both colours to the prison; (3) the placed
//! group must not be smothered at the end of the turn. The whole state over it (phases,
//! pairs, the annihilation ban, releases, proposals, the score): `state.rs`, `pairs.rs`,
//! `random.rs`. `engine/games/anda_prison/` is the specification; the differential test
//! holds this module to `board.py`'s `resolve` and the state to `state.py`.

pub mod pairs;
pub mod random;
pub mod state;

pub use state::{Action, Fields, Outcome, Phase, Prison, Termination};

use crate::anda::board::Board;
use crate::bitboard::Bb;
use crate::geometry::Hexagon;

/// A placement's verdict: legal, or refused by check (2) or by check (3).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Check {
    Legal,
    SmotheredAtOnce,
    SmotheredAtEnd,
}

/// A resolved placement: the verdict, the stones per colour after the turn (unchanged when
/// refused) and the stones each colour sends to the prison.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Placed<const N: usize> {
    pub check: Check,
    pub st: [Bb<N>; 2],
    pub jailed: [u32; 2],
}

/// A single stone of colour p on the empty site s, resolved from the board's analysis.
pub fn place<const N: usize>(b: &Board<N>, p: usize, s: usize) -> Placed<N> {
    let o = 1 - p;
    let w = b.w;
    let sb = Bb::bit(s);
    let refused = |check| Placed { check, st: b.st, jailed: [0; 2] };
    let r0 = b.rid[s] as usize;
    let big = b.reg[r0];
    let mut merged = [u16::MAX; 3];
    let mut nm = 0;
    let mut m = sb;
    let mut mexp = sb.grow(w);
    for x in b.geo.ring[s].iter().flatten() {
        if b.st[p].has(*x) {
            let g = b.gid[*x];
            if !merged[..nm].contains(&g) {
                merged[nm] = g;
                nm += 1;
                m = m.or(b.grp[p][g as usize]);
                mexp = mexp.or(b.gexp[p][g as usize]);
            }
        }
    }
    let mut parts = [Bb::<N>::ZERO; 3];
    let nparts = b.split(s, big.andnot(sb), &mut parts);
    let stp = b.st[p].or(sb);
    let mut good_o = b.good[o].andnot(big);
    let mut good_p = b.good[p].andnot(big);
    for part in &parts[..nparts] {
        let e = part.grow(w);
        if !e.and(stp).within(&m) {
            good_o = good_o.or(*part);
        }
        if b.groups_in(e.and(b.st[o]), o) != 1 {
            good_p = good_p.or(*part);
        }
    }
    if nm >= 2 {
        let mut todo = mexp.and(b.empty).andnot(big);
        while todo.any() {
            let k = b.rid[todo.lowest()] as usize;
            let r = b.reg[k];
            todo = todo.andnot(r);
            if b.rcnt[k][p] == 2 && r.grow(w).and(stp).within(&m) {
                good_o = good_o.andnot(r);
            }
        }
    }
    if !mexp.meets(&good_p) {
        return refused(Check::SmotheredAtOnce);
    }
    // one evaluation of both colours on the board after putting the stone
    let mut dead = [Bb::<N>::ZERO; 2];
    for (g, e) in b.grp[o].iter().zip(&b.gexp[o]) {
        if g.any() && !e.meets(&good_o) {
            dead[o] = dead[o].or(*g);
        }
    }
    for (k, (g, e)) in b.grp[p].iter().zip(&b.gexp[p]).enumerate() {
        if g.any() && !merged[..nm].contains(&(k as u16)) && !e.meets(&good_p) {
            dead[p] = dead[p].or(*g);
        }
    }
    let mut st = b.st;
    st[p] = stp;
    if dead[0].is_zero() && dead[1].is_zero() {
        return Placed { check: Check::Legal, st, jailed: [0; 2] };
    }
    let gone = dead[0].or(dead[1]);
    st[0] = st[0].andnot(dead[0]);
    st[1] = st[1].andnot(dead[1]);
    let all = gone.flood(b.empty.andnot(sb).or(gone), w);
    let mut good = good_p.andnot(all);
    let mut rest = all;
    while rest.any() {
        let piece = Bb::bit(rest.lowest()).flood(all, w);
        rest = rest.andnot(piece);
        if b.groups_in(piece.grow(w).and(st[o]), o) != 1 {
            good = good.or(piece);
        }
    }
    if !mexp.meets(&good) {
        return refused(Check::SmotheredAtEnd);
    }
    Placed { check: Check::Legal, st, jailed: [dead[0].count(), dead[1].count()] }
}

/// The stones `cells` (empty, colour p) put together and resolved from scratch: the rule
/// text, for two-stone turns (and, in the tests, to check [`place`]).
pub fn place_all<const N: usize>(geo: &'static Hexagon, st: [Bb<N>; 2], p: usize, cells: &[usize]) -> Placed<N> {
    let w = geo.width;
    let refused = |check| Placed { check, st, jailed: [0; 2] };
    let mut put = st;
    for &s in cells {
        put[p].set(s);
    }
    let laid = Board::new(geo, put[0], put[1]);
    let mine: Vec<Bb<N>> = cells.iter().map(|&s| Bb::bit(s).flood(put[p], w)).collect();
    if mine.iter().any(|g| !g.grow(w).meets(&laid.good[p])) {
        return refused(Check::SmotheredAtOnce);
    }
    let dead = [laid.smothered(0), laid.smothered(1)];
    if dead[0].is_zero() && dead[1].is_zero() {
        return Placed { check: Check::Legal, st: put, jailed: [0; 2] };
    }
    let after = [put[0].andnot(dead[0]), put[1].andnot(dead[1])];
    let end = Board::new(geo, after[0], after[1]);
    if mine.iter().any(|g| !g.grow(w).meets(&end.good[p])) {
        return refused(Check::SmotheredAtEnd);
    }
    Placed { check: Check::Legal, st: after, jailed: [dead[0].count(), dead[1].count()] }
}

/// Whether colour p has a legal single placement (stops at the first); `ban` as for
/// [`legal_cells`].
pub fn has_placement<const N: usize>(b: &Board<N>, p: usize, ban: bool) -> bool {
    let had = b.st[1 - p].any();
    b.empty.iter().any(|s| {
        let r = place(b, p, s);
        r.check == Check::Legal && !(ban && had && r.st[1 - p].is_zero())
    })
}

/// Every legal single placement of colour p; `ban`: p may not annihilate (the opponent
/// has annihilated before), so a placement leaving the opponent, who had stones, none is out.
pub fn legal_cells<const N: usize>(b: &Board<N>, p: usize, ban: bool) -> Bb<N> {
    let mut out = Bb::ZERO;
    let had = b.st[1 - p].any();
    for s in b.empty.iter() {
        let r = place(b, p, s);
        if r.check == Check::Legal && !(ban && had && r.st[1 - p].is_zero()) {
            out.set(s);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::hexagon;
    use crate::rng::Rng;

    fn stones<const N: usize>(geo: &'static Hexagon, names: &str) -> Bb<N> {
        let mut b = Bb::ZERO;
        for name in names.split_whitespace() {
            b.set(geo.parse(name).unwrap());
        }
        b
    }

    fn at5(black: &str, white: &str, p: usize, site: &str) -> Placed<2> {
        let geo = hexagon(5);
        let b = Board::new(geo, stones(geo, black), stones(geo, white));
        place(&b, p, geo.parse(site).unwrap())
    }

    #[test]
    fn b_t2_smothered_at_once() {
        assert_eq!(at5("a3 b3 c3 c2 c1 e9", "a2 b1 b2 i9 i5", 0, "a1").check, Check::SmotheredAtOnce);
    }

    #[test]
    fn b_t3_smothered_at_the_end_of_the_turn() {
        let r = at5("a1 a2 b2 d2 e9 i9", "a3 b3 c3 d1 d3 e2 e3 b1 i5", 0, "c2");
        assert_eq!(r.check, Check::SmotheredAtEnd);
    }

    #[test]
    fn b_t4_annihilation_sends_both_white_stones_to_the_prison() {
        let r = at5("b2 d2", "f7 h6", 0, "c2");
        assert_eq!((r.check, r.jailed), (Check::Legal, [0, 2]));
        assert!(r.st[1].is_zero());
    }

    #[test]
    fn b_t8_sixteen_white_stones_go_to_the_prison() {
        let r = at5("a2 b1 b2 h9 h8 i8", "a4 b4 c4 d4 e4 f4 g4 h4 b6 c6 d6 e6 f6 g6 h6 i6", 0, "e5");
        assert_eq!((r.check, r.jailed), (Check::Legal, [0, 16]));
    }

    fn random_boards<const N: usize>(n: usize, boards: u64) -> usize {
        let geo = hexagon(n);
        let mut rng = Rng::new(n as u64);
        let mut checked = 0;
        for _ in 0..boards {
            let fill = rng.below(80) + 5;
            let mut st = [Bb::<N>::ZERO; 2];
            for &s in &geo.sites {
                if rng.below(100) < fill {
                    st[rng.below(2) as usize].set(s);
                }
            }
            let b = Board::new(geo, st[0], st[1]);
            for p in 0..2 {
                for s in b.empty.iter() {
                    assert_eq!(place(&b, p, s), place_all(geo, st, p, &[s]), "n={n} site={}", geo.name(s));
                    checked += 1;
                }
                for ban in [false, true] {
                    assert_eq!(has_placement(&b, p, ban), legal_cells(&b, p, ban).any());
                }
            }
        }
        checked
    }

    #[test]
    fn incremental_placement_agrees_with_the_rule_text() {
        assert!(random_boards::<1>(3, 300) > 1000);
        assert!(random_boards::<2>(5, 300) > 10_000);
        assert!(random_boards::<3>(7, 100) > 10_000);
    }
}

#[cfg(test)]
mod tests_state;
