//! Anda-prison's random actions and playouts: each action uniform over the legal actions,
//! as state.py's `random_action` (its rejection draws, over the crate's `Rng`).

use super::state::{Action, Outcome, Phase, Prison};
use crate::rng::Rng;

impl<const N: usize> Prison<N> {
    /// A uniformly random legal action; None when the game is over.
    pub fn random_action(&self, rng: &mut Rng) -> Option<Action> {
        self.random_step(rng).map(|(a, _)| a)
    }

    /// A uniformly random legal action and the state after it; None when the game is over.
    /// A normal turn draws among the empty sites not yet refused and the words (a release,
    /// a proposal) until it meets a legal one: state.py's rejection draws over every site,
    /// without drawing a refused site twice.
    pub fn random_step(&self, rng: &mut Rng) -> Option<(Action, Prison<N>)> {
        if self.outcome().is_some() {
            return None;
        }
        let two = |a: Action, b: Action, rng: &mut Rng| if rng.below(2) == 0 { a } else { b };
        let action = match self.f.phase {
            Phase::Proposed => two(Action::Accept, Action::Decline, rng),
            Phase::Swap | Phase::KomiSwap => two(Action::Swap, Action::Keep, rng),
            Phase::Komi => Action::Komi(rng.below(self.geo().site_count() as u32 + 1) as u16),
            Phase::Corners => {
                let mut all = Vec::new();
                self.each_pair(|a, b| {
                    all.push(Action::Pair(a as u16, b as u16));
                    true
                });
                *all.get(rng.below(all.len().max(1) as u32) as usize)?
            }
            _ if self.pairing() => self.random_pair(rng)?,
            _ => {
                let mut words = [Action::Release; 2];
                let mut nw = 0;
                if self.can_release() {
                    nw += 1;
                }
                if self.f.phase == Phase::Play {
                    words[nw] = Action::Propose;
                    nw += 1;
                }
                let mut cand = self.board.empty;
                loop {
                    let k = cand.count();
                    if k + nw as u32 == 0 {
                        return None;
                    }
                    let i = rng.below(k + nw as u32);
                    if i >= k {
                        break words[(i - k) as usize];
                    }
                    let s = cand.nth(i);
                    if let Some(next) = self.placement(s) {
                        return Some((Action::Place(s as u16), next));
                    }
                    cand.clear(s);
                }
            }
        };
        let next = self.play(action)?;
        Some((action, next))
    }

    /// Random actions until the rules end the game or the ply reaches `cap`: the final
    /// state, its end (the adjudication at the cap) and the `swap`s played.
    pub fn playout(&self, cap: u32, rng: &mut Rng) -> (Prison<N>, Outcome, u32) {
        let mut g = self.clone();
        let mut swaps = 0;
        loop {
            if let Some(end) = g.end_or_cap(cap) {
                return (g, end, swaps);
            }
            let Some((action, next)) = g.random_step(rng) else {
                unreachable!("a state that is not over has a legal action");
            };
            swaps += u32::from(action == Action::Swap);
            g = next;
        }
    }
}
