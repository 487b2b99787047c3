//! Anda's leaf value as players/games/anda.py computes it: `evaluate` (the same float)
//! squashed by `SCALE` after the random plies of its `CutoffPlayout`.

use crate::search::common::safety;
use crate::anda::Anda;
use crate::evaluation::anda_summary;
use crate::geometry::Hexagon;

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

/// players/games/anda.py `evaluate`: Black's advantage (stones + territory + safety, each
/// Black's minus White's, less half a point per komi pass left), the same float.
pub fn static_score<const N: usize>(g: &Anda<N>) -> f64 {
    let [b, w] = g.board.st;
    let (tb, tw, gb, gw) = anda_summary(g.geo, b, w);
    let whole = (i64::from(b.count()) - i64::from(w.count())) + (i64::from(tb) - i64::from(tw));
    let score = whole as f64 + (safety(&gb) - safety(&gw));
    score - 0.5 * f64::from(g.komi)
}
