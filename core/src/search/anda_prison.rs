//! Anda-prison's [`SearchGame`]: the compiled MCTS over the whole state
//! ([`Prison`], core/src/anda_prison), as the Python player searches Anda-prison
//! (players/games/anda_prison.py): every phase, the ply cap (adjudicated by the agreement
//! score), the candidates of a normal turn (`placement_order` over every empty site, the
//! release and the proposal among the rest), and the leaf value of its `StaticEvaluation`
//! (`evaluate` squashed by SCALE; the end's value when over or at the cap).

use super::common::{outcome_value, placement_order, safety, squash};
use super::game::{Colour, SearchGame};
use crate::anda_prison::{Action, Phase, Prison};
use crate::evaluation::anda_summary;
use crate::rng::Rng;

/// players/games/anda_prison.py `SCALE`.
pub const SCALE: f64 = 6.0;

/// players/games/anda_prison.py `evaluate`: Black's advantage (the agreement score's
/// territory and prison, half the stones, the groups' safety; each Black's minus White's),
/// the same float.
pub fn static_score<const N: usize>(g: &Prison<N>) -> f64 {
    let [b, w] = g.board.st;
    let (tb, tw, gb, gw) = anda_summary(g.geo(), b, w);
    let prison = i64::from(g.f.prison[1]) - i64::from(g.f.prison[0]);
    let score = (i64::from(tb) - i64::from(tw) + prison) as f64
        + 0.5 * (i64::from(b.count()) - i64::from(w.count())) as f64;
    score + safety(&gb) - safety(&gw)
}

impl<const N: usize> SearchGame for Prison<N> {
    type Action = Action;

    fn to_move(&self) -> Colour {
        self.f.to_move
    }

    fn ply(&self) -> u32 {
        self.f.ply
    }

    fn outcome(&self) -> Option<Option<Colour>> {
        self.end_or_cap(self.ply_cap()).map(|o| o.winner)
    }

    fn list(&self, cap: usize, out: &mut Vec<Action>) -> bool {
        if SearchGame::outcome(self).is_some() {
            out.clear();
            return true;
        }
        self.actions(cap, out)
    }

    /// players/games/anda_prison.py `candidates`: in a normal turn, a placement on every
    /// empty site and the release and the proposal when offered, in `placement_order`'s
    /// bands (the rest, those next to an enemy stone, those joining two or more of the
    /// mover's groups), each shuffled.
    fn candidates(&self, rng: &mut Rng, out: &mut Vec<Action>) -> bool {
        if !self.normal() {
            return false;
        }
        let mut others = Vec::with_capacity(2);
        if self.can_release() {
            others.push(Action::Release);
        }
        if self.f.phase == Phase::Play {
            others.push(Action::Propose);
        }
        placement_order(&self.board, self.f.to_move, self.board.empty, &others,
                        |s| Action::Place(s as u16), rng, out);
        true
    }

    fn random_action(&self, rng: &mut Rng) -> Option<Action> {
        if SearchGame::outcome(self).is_some() {
            return None;
        }
        Prison::random_action(self, rng)
    }

    fn legal_cell_count(&self) -> u32 {
        self.legal_cells().count()
    }

    fn play(&self, action: Action) -> Option<Self> {
        Prison::play(self, action)
    }

    fn is_swap(action: Action) -> bool {
        action == Action::Swap
    }

    /// players/evaluators.py `StaticEvaluation(evaluate, SCALE)`: the end's value when the
    /// game is over or at the cap, else `evaluate` squashed.
    fn evaluate(&self, _searcher: Colour, _rng: &mut Rng, _trace: Option<&mut Vec<(Colour, Action)>>) -> f64 {
        match SearchGame::outcome(self) {
            Some(winner) => outcome_value(winner),
            None => squash(static_score(self), SCALE),
        }
    }

    fn notation(&self, action: Action) -> String {
        Prison::notation(self, action)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::hexagon;

    #[test]
    fn candidates_cover_every_legal_action_of_a_normal_turn() {
        let geo = hexagon(5);
        let mut rng = Rng::new(5);
        let (mut cand, mut legal) = (Vec::new(), Vec::new());
        for balance in ["nopie", "pie", "corners"] {
            let mut g = Prison::<2>::new_game(geo, balance, 2);
            while SearchGame::outcome(&g).is_none() {
                assert!(g.list(usize::MAX, &mut legal));
                if g.candidates(&mut rng, &mut cand) {
                    assert!(legal.iter().all(|a| cand.contains(a)), "ply {}", g.f.ply);
                    assert!(cand.iter().all(|&a| legal.contains(&a) == g.play(a).is_some()));
                }
                let v = g.evaluate(0, &mut rng, None);
                assert!((0.0..=1.0).contains(&v));
                g = g.play(SearchGame::random_action(&g, &mut rng).unwrap()).unwrap();
            }
        }
    }
}
