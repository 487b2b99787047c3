//! What the games' searches share: the evaluators' arithmetic (players/evaluators.py,
//! players/games/common.py) and the candidates' order of both Anda games.

use crate::anda::board::Board;
use crate::bitboard::Bb;
use crate::rng::Rng;

use super::game::Colour;

/// players/evaluators.py `squash`: an advantage as an expected score, the logistic of
/// `score / scale` (clamped to +-60 first).
pub fn squash(score: f64, scale: f64) -> f64 {
    let x = (score / scale).clamp(-60.0, 60.0);
    1.0 / (1.0 + (-x).exp())
}

/// players/evaluators.py `outcome_value`: 1 a Black win, 0 a White win, 1/2 a draw.
pub fn outcome_value(winner: Option<Colour>) -> f64 {
    match winner {
        None => 0.5,
        Some(0) => 1.0,
        Some(_) => 0.0,
    }
}

/// players/games/common.py `safety`: stones weighted by how safe their group is, from a
/// colour's groups as (stones, safe breaths).
pub fn safety(groups: &[(u32, u32)]) -> f64 {
    let mut total = 0.0;
    for &(size, safe) in groups {
        let size = f64::from(size);
        total += match safe {
            0 => -size,
            1 => -0.4 * size,
            _ => 0.3 * size,
        };
    }
    total
}

/// `rng.shuffle` (Fisher-Yates from the end).
pub fn shuffle<T>(v: &mut [T], rng: &mut Rng) {
    for i in (1..v.len()).rev() {
        v.swap(i, rng.below(i as u32 + 1) as usize);
    }
}

/// players/games/common.py `placement_order` into `out`, to try last first: placements on
/// `sites` and the `others`, in three bands each shuffled: the rest (`others` among them),
/// then the placements next to an enemy stone, then those joining two or more of the
/// mover's (`p`'s) groups.
pub fn placement_order<const N: usize, A: Copy>(board: &Board<N>, p: Colour, sites: Bb<N>, others: &[A],
                                                place: impl Fn(usize) -> A, rng: &mut Rng, out: &mut Vec<A>) {
    let empty = board.empty;
    let near_enemy = board.st[1 - p].grow(board.geo.width).and(empty);
    let (mut joining, mut seen) = (Bb::<N>::ZERO, Bb::<N>::ZERO);
    for (g, around) in board.grp[p].iter().zip(&board.gexp[p]) {
        if g.any() {
            let around = around.and(empty);
            joining = joining.or(around.and(seen));
            seen = seen.or(around);
        }
    }
    out.clear();
    out.extend(sites.andnot(near_enemy).andnot(joining).iter().map(&place));
    out.extend_from_slice(others);
    shuffle(out, rng);
    let band = out.len();
    out.extend(sites.and(near_enemy).andnot(joining).iter().map(&place));
    shuffle(&mut out[band..], rng);
    let band = out.len();
    out.extend(sites.and(joining).iter().map(&place));
    shuffle(&mut out[band..], rng);
}
