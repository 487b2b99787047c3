//! Anda's [`SearchGame`]: the compiled MCTS over [`Anda`] (core/src/anda), as the Python
//! player searches Anda (players/games/anda.py): every phase of engine/games/anda/state.py
//! (the komi pie, the two-stone first turns, White's passes), the ply cap (a draw), the
//! candidates of `players/games/common.py` `placement_order`, and the leaf value of its
//! `CutoffPlayout` (random plies, then `evaluate` squashed).

use super::common::{outcome_value, placement_order};
use super::game::{Colour, SearchGame};
use crate::anda::board::Verdict;
use crate::anda::{Anda, Phase};
use crate::geometry::{features_adjacent, Hexagon};
use crate::rng::Rng;

/// An action of Anda (engine/actions.py): sites are bits; a pair is canonical (its first
/// site first in notation order).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Action {
    Place(u16),
    Pair(u16, u16),
    Komi(u16),
    Swap,
    Keep,
    Pass,
}

/// The referee's ply cap (state.py `ply_cap`): 10 x sites, adjudged a draw.
pub fn ply_cap(geo: &Hexagon) -> u32 {
    10 * geo.site_count() as u32
}

impl<const N: usize> Anda<N> {
    /// The end by the rules or, failing that, at the ply cap (a draw); None while it goes on.
    fn end(&self) -> Option<Option<Colour>> {
        match Anda::outcome(self) {
            Some((winner, _)) => Some(Some(winner)),
            None if self.ply >= ply_cap(self.geo) => Some(None),
            None => None,
        }
    }

    /// Whether (a, b) (canonical) is a legal first-turn pair now.
    fn pair_ok(&self, a: usize, b: usize) -> bool {
        let geo = self.geo;
        let rim = geo.perimeter::<N>().and(self.board.empty);
        if !rim.has(a) || !rim.has(b) || geo.rank[a] >= geo.rank[b] {
            return false;
        }
        if self.cells {
            !geo.nbr::<N>(a).has(b)
        } else {
            let (fa, fb) = (geo.feature[a].unwrap_or(0), geo.feature[b].unwrap_or(0));
            fa != fb && !features_adjacent(fa, fb)
        }
    }

    /// Every legal action in `legal_actions`' order.
    fn legal(&self) -> Vec<Action> {
        let mut out = Vec::new();
        match self.phase {
            Phase::Offer => out.extend((0..=self.geo.site_count() as u16).map(Action::Komi)),
            Phase::Answer => out.extend([Action::Swap, Action::Keep]),
            Phase::Play if self.first[self.to_move] => {
                out.extend(self.free_pairs().map(|(a, b)| Action::Pair(a as u16, b as u16)))
            }
            Phase::Play => {
                let mut cells: Vec<usize> = self.legal_cells().iter().collect();
                cells.sort_by_key(|&s| self.geo.rank[s]);
                out.extend(cells.into_iter().map(|s| Action::Place(s as u16)));
                if self.can_pass() {
                    out.push(Action::Pass);
                }
            }
        }
        out
    }

    /// state.py's rejection draw of a placing turn: uniform over the sites and the pass
    /// until a legal action comes up (then any legal action, uniformly).
    fn draw_placing(&self, rng: &mut Rng) -> Option<Action> {
        let sites = &self.geo.sites;
        let n = sites.len() as u32;
        let total = n + u32::from(self.can_pass());
        for _ in 0..50 * total {
            let k = rng.below(total);
            if k == n {
                return Some(Action::Pass);
            }
            let s = sites[k as usize];
            if self.board.empty.has(s) && self.board.probe(self.to_move, s).verdict == Verdict::Legal {
                return Some(Action::Place(s as u16));
            }
        }
        self.any_legal(rng)
    }

    fn any_legal(&self, rng: &mut Rng) -> Option<Action> {
        let all = self.legal();
        (!all.is_empty()).then(|| all[rng.below(all.len() as u32) as usize])
    }

    /// The leaf value's playout with each action recorded: at most `depth` random actions.
    fn traced(&mut self, depth: u32, rng: &mut Rng, trace: &mut Vec<(Colour, Action)>) -> (Option<f64>, bool) {
        let mut swapped = false;
        for _ in 0..depth {
            if let Some(winner) = self.end() {
                return (Some(outcome_value(winner)), swapped);
            }
            let Some(action) = SearchGame::random_action(self, rng) else { break };
            trace.push((self.to_move, action));
            swapped ^= action == Action::Swap;
            match SearchGame::play(self, action) {
                Some(next) => *self = next,
                None => break,
            }
        }
        (None, swapped)
    }
}

impl<const N: usize> SearchGame for Anda<N> {
    type Action = Action;

    fn to_move(&self) -> Colour {
        self.to_move
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn outcome(&self) -> Option<Option<Colour>> {
        self.end()
    }

    fn list(&self, cap: usize, out: &mut Vec<Action>) -> bool {
        out.clear();
        let many = match self.phase {
            Phase::Offer => self.geo.site_count() + 1 > cap,
            Phase::Play if self.first[self.to_move] => self.free_pairs().nth(cap).is_some(),
            _ => false,
        };
        if many {
            return false;
        }
        out.extend(self.legal());
        out.len() <= cap
    }

    /// players/games/anda.py `candidates`: on a placing turn with a legal placement, the
    /// rest (the pass among them), then the placements next to an enemy stone, then those
    /// joining two or more of the mover's groups, each band shuffled.
    fn candidates(&self, rng: &mut Rng, out: &mut Vec<Action>) -> bool {
        let legal = self.legal_cells();
        if legal.is_zero() {
            return false;
        }
        let others: &[Action] = if self.can_pass() { &[Action::Pass] } else { &[] };
        placement_order(&self.board, self.to_move, legal, others,
                        |s| Action::Place(s as u16), rng, out);
        true
    }

    fn random_action(&self, rng: &mut Rng) -> Option<Action> {
        if Anda::outcome(self).is_some() {
            return None;
        }
        match self.phase {
            Phase::Offer => Some(Action::Komi(rng.below(self.geo.site_count() as u32 + 1) as u16)),
            Phase::Answer => Some(if rng.below(2) == 0 { Action::Swap } else { Action::Keep }),
            Phase::Play if self.first[self.to_move] => {
                let pairs = &self.geo.pairs[self.cells as usize];
                if !pairs.is_empty() {
                    for _ in 0..1000 {
                        let (a, b) = pairs[rng.below(pairs.len() as u32) as usize];
                        if self.board.empty.has(a) && self.board.empty.has(b) {
                            return Some(Action::Pair(a as u16, b as u16));
                        }
                    }
                }
                self.any_legal(rng)
            }
            Phase::Play => self.draw_placing(rng),
        }
    }

    fn legal_cell_count(&self) -> u32 {
        self.legal_cells().count()
    }

    fn play(&self, action: Action) -> Option<Self> {
        let mut next = self.clone();
        match action {
            Action::Place(s) => {
                let s = usize::from(s);
                if !self.placing() || !self.geo.is_site(s) || next.place(s) != Verdict::Legal {
                    return None;
                }
            }
            Action::Pair(a, b) => {
                let (a, b) = (usize::from(a), usize::from(b));
                if self.phase != Phase::Play || !self.first[self.to_move] || !self.pair_ok(a, b) {
                    return None;
                }
                next.pair(a, b);
            }
            Action::Pass if self.can_pass() => next.pass(),
            Action::Komi(k) if self.phase == Phase::Offer && usize::from(k) <= self.geo.site_count() => {
                next.offer(u32::from(k))
            }
            Action::Swap | Action::Keep if self.phase == Phase::Answer => next.answer(),
            _ => return None,
        }
        Some(next)
    }

    fn is_swap(action: Action) -> bool {
        action == Action::Swap
    }

    /// players/evaluators.py `CutoffPlayout(evaluate, depth, SCALE)`: random plies up to the
    /// depth (or the ply cap), then the result if the game is over there, else `evaluate`
    /// squashed; in the colours of this state (a `swap` on the way exchanges them).
    fn evaluate(&self, _searcher: Colour, rng: &mut Rng, trace: Option<&mut Vec<(Colour, Action)>>) -> f64 {
        let mut g = self.clone();
        let (cap, depth) = (ply_cap(self.geo), depth(self.geo));
        let (done, swapped) = match trace {
            Some(trace) => g.traced(depth, rng, trace),
            None => (None, g.playout(cap.min(g.ply.saturating_add(depth)), rng).swaps % 2 == 1),
        };
        let value = done.unwrap_or_else(|| match g.end() {
            Some(winner) => outcome_value(winner),
            None => squash(static_score(&g), SCALE),
        });
        if swapped {
            1.0 - value
        } else {
            value
        }
    }

    fn notation(&self, action: Action) -> String {
        let name = |s: u16| self.geo.name(usize::from(s));
        match action {
            Action::Place(s) => name(s),
            Action::Pair(a, b) => format!("{},{}", name(a), name(b)),
            Action::Komi(k) => format!("komi={k}"),
            Action::Swap => "swap".into(),
            Action::Keep => "keep".into(),
            Action::Pass => "pass".into(),
        }
    }
}

#[cfg(test)]
mod tests;
mod value;

pub use super::common::squash;
pub use value::{depth, static_score, SCALE};
