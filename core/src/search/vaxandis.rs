//! Vaxandis as the compiled MCTS sees it: every phase (placements, the pie's `swap`, moves),
//! the ply cap (engine/games/vaxandis/state.py `ply_cap`, a draw there), and the leaf
//! evaluation of players/games/vaxandis.py: 20 random plies, then `evaluate_search` plus the
//! searcher's `trailing` term, squashed by SEARCH_SCALE (the same values).

use super::common::squash;
use super::game::{Colour, SearchGame};
use crate::evaluation::vaxandis_summary;
use crate::rng::Rng;
use crate::vaxandis::{Phase, Vaxandis};

/// players/games/vaxandis.py: the cut-off depth, the weights and scales.
const DEPTH: u32 = 20;
const TALL: f64 = 0.5;
const TALL_CAP: i64 = 10;
const MOBILITY: f64 = 5.0;
const KILL: f64 = 10.0;
const SEARCH_SCALE: f64 = 3.0;
const RANKS: usize = 3;
const TRAILING: f64 = 0.5;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Action {
    Place(u16),
    Move(u16, u16),
    Swap,
}

/// A Vaxandis state with its ply cap.
#[derive(Clone)]
pub struct Game<const N: usize> {
    pub g: Vaxandis<N>,
    pub cap: u32,
}

impl<const N: usize> PartialEq for Game<N> {
    fn eq(&self, o: &Self) -> bool {
        let (a, b) = (&self.g, &o.g);
        std::ptr::eq(a.geo, b.geo) && a.freeze_group == b.freeze_group && a.touch_path == b.touch_path
            && a.st == b.st && a.height == b.height && a.to_move == b.to_move && a.ply == b.ply && a.phase == b.phase
    }
}

/// The referee's default cap: 8 x sites rounded up to a hundred (state.py `ply_cap`).
pub fn ply_cap(sites: usize) -> u32 {
    (8 * sites).div_ceil(100) as u32 * 100
}

impl<const N: usize> Game<N> {
    pub fn new(g: Vaxandis<N>) -> Game<N> {
        let cap = ply_cap(g.geo.sites.len());
        Game { g, cap }
    }

    /// Black's advantage by `evaluate_search` (players/games/vaxandis.py) plus `trailing` for
    /// the searching player holding `searcher`.
    pub fn score(&self, searcher: Colour) -> f64 {
        let g = &self.g;
        let (fb, fw, tb, tw, ab, aw) = vaxandis_summary(g, RANKS);
        let (b, w) = (g.st[0].count() as f64, g.st[1].count() as f64);
        let unfrozen = (b - fb as f64) - (w - fw as f64);
        let frozen = fw as f64 - fb as f64;
        let top = |t: &[u32]| t.first().copied().unwrap_or(0) as i64;
        let lead = top(&tb) - top(&tw);
        let mut score = (b - w) + unfrozen + 0.5 * frozen + 0.1 * lead as f64;
        score += TALL * lead.clamp(-TALL_CAP, TALL_CAP) as f64;
        let (ab, aw) = (ab as f64, aw as f64);
        score += KILL * (1.0 / (1.0 + aw) - 1.0 / (1.0 + ab)) + MOBILITY * (ab - aw) / (ab + aw + 1.0);
        let (ours, its) = if searcher == 0 { (&tb, &tw) } else { (&tw, &tb) };
        let at = |t: &Vec<u32>, i: usize| t.get(i).copied().unwrap_or(0) as i64;
        let gap: i64 = (0..RANKS).map(|i| (at(its, i) - at(ours, i)).clamp(0, TALL_CAP)).sum();
        score + if searcher == 0 { -TRAILING * gap as f64 } else { TRAILING * gap as f64 }
    }

    /// The value of the end of the game (`winner`) or of the cap (a draw).
    fn end_value(winner: Option<Colour>) -> f64 {
        match winner {
            None => 0.5,
            Some(0) => 1.0,
            Some(_) => 0.0,
        }
    }
}

impl<const N: usize> SearchGame for Game<N> {
    type Action = Action;
    const SEARCHER_RELATIVE: bool = true;

    fn to_move(&self) -> Colour {
        self.g.to_move
    }

    fn ply(&self) -> u32 {
        self.g.ply
    }

    fn outcome(&self) -> Option<Option<Colour>> {
        match self.g.winner() {
            Some(w) => Some(Some(w)),
            None if self.g.ply >= self.cap => Some(None),
            None => None,
        }
    }

    fn list(&self, cap: usize, out: &mut Vec<Action>) -> bool {
        out.clear();
        if self.g.phase == Phase::Swap {
            out.push(Action::Swap);
        }
        out.extend(self.g.cells().iter().map(|c| Action::Place(c as u16)));
        for (src, dst, _) in self.g.moves() {
            out.push(Action::Move(src as u16, dst as u16));
            if out.len() > cap {
                return false;
            }
        }
        out.len() <= cap
    }

    fn random_action(&self, rng: &mut Rng) -> Option<Action> {
        let cells = self.g.cells();
        let moves = self.g.moves();
        let swap = u32::from(self.g.phase == Phase::Swap);
        let total = cells.count() + moves.len() as u32 + swap;
        if total == 0 {
            return None;
        }
        let k = rng.below(total);
        Some(if k < cells.count() {
            Action::Place(cells.nth(k) as u16)
        } else if ((k - cells.count()) as usize) < moves.len() {
            let (s, d, _) = moves[(k - cells.count()) as usize];
            Action::Move(s as u16, d as u16)
        } else {
            Action::Swap
        })
    }

    fn legal_cell_count(&self) -> u32 {
        self.g.cells().count()
    }

    fn play(&self, action: Action) -> Option<Game<N>> {
        let mut g = self.g.clone();
        match action {
            Action::Place(c) => {
                if !g.cells().has(c as usize) {
                    return None;
                }
                g.place(c as usize);
            }
            Action::Move(s, d) => {
                let (_, touched) = g.moves_from(s as usize).into_iter().find(|&(x, _)| x == d as usize)?;
                g.apply_move(s as usize, d as usize, touched);
            }
            Action::Swap => {
                if g.phase != Phase::Swap {
                    return None;
                }
                g.swap();
            }
        }
        Some(Game { g, cap: self.cap })
    }

    fn is_swap(action: Action) -> bool {
        action == Action::Swap
    }

    fn evaluate(&self, searcher: Colour, rng: &mut Rng, trace: Option<&mut Vec<(Colour, Action)>>) -> f64 {
        let depth_cap = self.cap.min(self.g.ply.saturating_add(DEPTH));
        let mut swapped = false;
        let mut state = self.clone();
        let value = match trace {
            None => {
                let (winner, swaps) = state.g.playout(depth_cap, rng);
                swapped = swaps % 2 == 1;
                match winner {
                    Some(w) => Some(Self::end_value(Some(w))),
                    None if state.g.ply >= self.cap => Some(0.5),
                    None => None,
                }
            }
            Some(trace) => loop {
                if let Some(w) = state.outcome() {
                    break Some(Self::end_value(w));
                }
                if state.g.ply >= depth_cap {
                    break None;
                }
                let action = state.random_action(rng).expect("a state that is not over has an action");
                trace.push((state.g.to_move, action));
                swapped ^= action == Action::Swap;
                state = state.play(action).expect("a drawn action is legal");
            },
        };
        let value = value.unwrap_or_else(|| {
            squash(state.score(if swapped { 1 - searcher } else { searcher }), SEARCH_SCALE)
        });
        if swapped { 1.0 - value } else { value }
    }

    fn notation(&self, action: Action) -> String {
        let geo = self.g.geo;
        match action {
            Action::Place(c) => geo.name(c as usize),
            Action::Move(s, d) => format!("{}-{}", geo.name(s as usize), geo.name(d as usize)),
            Action::Swap => "swap".to_string(),
        }
    }
}

#[cfg(test)]
mod tests;
