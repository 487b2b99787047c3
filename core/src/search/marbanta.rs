//! Marbanta as the compiled MCTS sees it: every phase (the pie stones, `swap`/`keep`, play),
//! the misère end (the mover without a turn wins), the ply cap (state.py `ply_cap`, a draw
//! there), and the leaf evaluation of players/games/marbanta.py: a uniformly random playout
//! to the end (RandomPlayout), traced for RAVE.

use std::sync::OnceLock;

use super::game::{Colour, SearchGame};
use crate::bitboard::Bb;
use crate::marbanta::{Marbanta, Phase, Played};
use crate::rng::Rng;

/// A Marbanta state with its ply cap and whether the mover has a turn (computed once, when
/// first asked: a `OnceLock`, so that several threads may read one state at once). Actions
/// are the core's [`Played`]: the pie stones (Black's site, White's), `swap` (true) or `keep`
/// (false), a new group (its root, every stone of it).
#[derive(Clone)]
pub struct Game<const N: usize> {
    pub g: Marbanta<N>,
    pub cap: u32,
    has_turn: OnceLock<bool>,
}

impl<const N: usize> PartialEq for Game<N> {
    fn eq(&self, o: &Self) -> bool {
        let (a, b) = (&self.g, &o.g);
        std::ptr::eq(a.geo, b.geo) && a.pie == b.pie && a.st == b.st && a.to_move == b.to_move && a.ply == b.ply
            && a.phase == b.phase
    }
}

/// The referee's default cap: twice the sites plus 4 (state.py `ply_cap`).
pub fn ply_cap(sites: usize) -> u32 {
    2 * sites as u32 + 4
}

impl<const N: usize> Game<N> {
    pub fn new(g: Marbanta<N>) -> Game<N> {
        let cap = ply_cap(g.geo.sites.len());
        Game { g, cap, has_turn: OnceLock::new() }
    }

    fn has_turn(&self) -> bool {
        *self.has_turn.get_or_init(|| self.g.has_turn())
    }

    fn empty(&self) -> Bb<N> {
        self.g.geo.mask::<N>().andnot(self.g.st[0].or(self.g.st[1]))
    }

    /// Whether `group` is a legal new group of the mover at `root` (state.py's `_check_turn`).
    fn allows(&self, root: usize, group: Bb<N>) -> bool {
        let g = &self.g;
        root < g.geo.bits() && group.has(root) && group.within(&g.free()) && {
            let n = g.groups_seen(root);
            n > 0 && group.count() == n && Bb::bit(root).flood(group, g.geo.width) == group
        }
    }
}

impl<const N: usize> SearchGame for Game<N> {
    type Action = Played<N>;

    fn to_move(&self) -> Colour {
        self.g.to_move
    }

    fn ply(&self) -> u32 {
        self.g.ply
    }

    fn outcome(&self) -> Option<Option<Colour>> {
        if self.g.phase != Phase::Swap && !self.has_turn() {
            Some(Some(self.g.to_move))
        } else if self.g.ply >= self.cap {
            Some(None)
        } else {
            None
        }
    }

    fn list(&self, cap: usize, out: &mut Vec<Played<N>>) -> bool {
        out.clear();
        match self.g.phase {
            Phase::Pie => {
                let empty = self.empty();
                let k = empty.count() as usize;
                if k >= 2 && k * (k - 1) > cap {
                    return false;
                }
                for b in empty.iter() {
                    out.extend(empty.iter().filter(|&w| w != b).map(|w| Played::Pie(b, w)));
                }
            }
            Phase::Swap => out.extend([Played::Swap(true), Played::Swap(false)]),
            Phase::Play => {
                let groups = self.g.groups(cap.saturating_add(1));
                if groups.len() > cap {
                    return false;
                }
                out.extend(groups.into_iter().map(|(r, group)| Played::Group(r, group)));
            }
        }
        out.len() <= cap
    }

    fn random_action(&self, rng: &mut Rng) -> Option<Played<N>> {
        self.g.draw(rng)
    }

    fn legal_cell_count(&self) -> u32 {
        match self.g.phase {
            Phase::Play => self.g.roots().len() as u32,
            _ => 0,
        }
    }

    fn play(&self, action: Played<N>) -> Option<Game<N>> {
        let ok = match (self.g.phase, action) {
            (Phase::Pie, Played::Pie(b, w)) => {
                let empty = self.empty();
                b != w && b < self.g.geo.bits() && w < self.g.geo.bits() && empty.has(b) && empty.has(w)
            }
            (Phase::Swap, Played::Swap(_)) => true,
            (Phase::Play, Played::Group(r, group)) => self.allows(r, group),
            _ => false,
        };
        ok.then(|| {
            let mut next = self.g.clone();
            next.apply(action);
            Game::new(next)
        })
    }

    fn is_swap(action: Played<N>) -> bool {
        action == Played::Swap(true)
    }

    fn evaluate(&self, _searcher: Colour, rng: &mut Rng, trace: Option<&mut Vec<(Colour, Played<N>)>>) -> f64 {
        let mut end = self.g.clone();
        let (winner, swaps) = match trace {
            Some(trace) => end.traced_playout(self.cap, rng, trace),
            None => end.playout(self.cap, rng),
        };
        let value = match winner {
            None => 0.5,
            Some(0) => 1.0,
            Some(_) => 0.0,
        };
        if swaps % 2 == 1 { 1.0 - value } else { value }
    }

    fn notation(&self, action: Played<N>) -> String {
        let geo = self.g.geo;
        match action {
            Played::Pie(b, w) => format!("{},{}", geo.name(b), geo.name(w)),
            Played::Swap(true) => "swap".to_string(),
            Played::Swap(false) => "keep".to_string(),
            Played::Group(r, group) if group == Bb::bit(r) => geo.name(r),
            Played::Group(r, group) => {
                let mut stones: Vec<usize> = group.iter().filter(|&x| x != r).collect();
                stones.sort_by_key(|&x| geo.rank[x]);
                let names: Vec<String> = stones.into_iter().map(|x| geo.name(x)).collect();
                format!("{}:{}", geo.name(r), names.join(","))
            }
        }
    }
}

#[cfg(test)]
mod tests;
