//! Anda's leaf value as players/games/anda.py computes it: `evaluate` (the same float)
//! squashed by `SCALE` after the random plies of its `CutoffPlayout`.

use crate::anda::{Anda, BLACK};
use crate::evaluation::anda_summary;
use crate::geometry::Hexagon;
use crate::search::game::Colour;

/// players/games/anda.py `SCALE`: Black's advantage that makes an expected score of 1/(1+e^-1).
pub const SCALE: f64 = 6.0;

/// The random plies of the leaf value before the static evaluation (players/games/anda.py
/// `evaluator`): 40 from n = 9 on, 10 below.
pub fn depth(geo: &Hexagon) -> u32 {
    if geo.n >= 9 {
        40
    } else {
        10
    }
}

/// players/games/common.py `safety`: stones weighted by how safe their group is.
fn safety(groups: &[(u32, u32)]) -> f64 {
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

/// players/games/anda.py `evaluate`: Black's advantage (stones + territory + safety, each
/// Black's minus White's, less half a point per komi pass left), the same float.
pub fn static_score<const N: usize>(g: &Anda<N>) -> f64 {
    let [b, w] = g.board.st;
    let (tb, tw, gb, gw) = anda_summary(g.geo, b, w);
    let whole = (i64::from(b.count()) - i64::from(w.count())) + (i64::from(tb) - i64::from(tw));
    let score = whole as f64 + (safety(&gb) - safety(&gw));
    score - 0.5 * f64::from(g.komi)
}

/// players/evaluators.py `squash`: an advantage as an expected score.
pub fn squash(score: f64, scale: f64) -> f64 {
    let x = (score / scale).clamp(-60.0, 60.0);
    1.0 / (1.0 + (-x).exp())
}

/// players/evaluators.py `outcome_value`: 1 a Black win, 0 a White win, 1/2 a draw.
pub(super) fn value_of(winner: Option<Colour>) -> f64 {
    match winner {
        Some(BLACK) => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    }
}
