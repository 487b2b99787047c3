//! Vaxandis (RULES.md section 5, docs/rules/vaxandis.md): stacks that slide and jump, and
//! the groups they touch grow. Legal moves, a move's effect, uniformly random playouts.
//! `engine/games/vaxandis/` is the specification; the differential test holds this to it.

use crate::bitboard::Bb;
use crate::geometry::Hexagon;
use crate::rng::Rng;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Phase {
    Open,
    Swap,
    Play,
}

#[derive(Clone)]
pub struct Vaxandis<const N: usize> {
    pub geo: &'static Hexagon,
    /// `freeze=group` (else `stack`), `touch=path` (else `landing`).
    pub freeze_group: bool,
    pub touch_path: bool,
    pub st: [Bb<N>; 2],
    /// Height of the stack on every bit (0 where empty).
    pub height: Vec<u32>,
    pub to_move: usize,
    pub ply: u32,
    pub phase: Phase,
}

impl<const N: usize> Vaxandis<N> {
    fn occupied(&self) -> Bb<N> {
        self.st[0].or(self.st[1])
    }

    /// Empty sites with no stack adjacent: where a height-1 stack may be placed.
    pub fn cells(&self) -> Bb<N> {
        let occ = self.occupied();
        self.geo.mask::<N>().andnot(occ.grow(self.geo.width))
    }

    /// The stacks of `stones` with height h connected to site s (s among them).
    fn group(&self, stones: Bb<N>, s: usize) -> Bb<N> {
        let h = self.height[s];
        let same: Bb<N> = Bb::from_iter_bits(stones.iter().filter(|&x| self.height[x] == h));
        Bb::bit(s).flood(same, self.geo.width)
    }

    /// Whether the mover's stack on src may not move (next to a higher enemy stack; with
    /// freeze=group, any stack of its group).
    pub fn frozen(&self, src: usize) -> bool {
        let (own, enemy) = (self.st[self.to_move], self.st[1 - self.to_move]);
        let h = self.height[src];
        let around = if self.freeze_group {
            let g = self.group(own, src);
            g.grow(self.geo.width).and(self.geo.mask::<N>()).andnot(g)
        } else {
            self.geo.nbr::<N>(src)
        };
        around.and(enemy).iter().any(|e| self.height[e] > h)
    }

    /// The landing sites of the mover's stack on src, and for each the friendly stacks it
    /// touches (empty when src cannot move).
    pub fn moves_from(&self, src: usize) -> Vec<(usize, Bb<N>)> {
        let mut out = Vec::new();
        if !self.st[self.to_move].has(src) || self.frozen(src) {
            return out;
        }
        let occ = self.occupied();
        let friends = self.st[self.to_move].andnot(Bb::bit(src));
        let h = self.height[src];
        for d in 0..6 {
            let mut touched = Bb::<N>::ZERO;
            let mut x = self.geo.ring[src][d];
            while let Some(p) = x {
                if occ.has(p) {
                    if self.height[p] > h {
                        break;
                    }
                    if friends.has(p) {
                        touched.set(p);
                    }
                } else {
                    let near = self.geo.nbr::<N>(p).and(friends);
                    let now = if self.touch_path {
                        touched = touched.or(near);
                        touched
                    } else {
                        touched.or(near)
                    };
                    if now.any() {
                        out.push((p, now));
                    }
                }
                x = self.geo.ring[p][d];
            }
        }
        out
    }

    /// Every legal move of the mover: (source, landing, touched stacks).
    pub fn moves(&self) -> Vec<(usize, usize, Bb<N>)> {
        let mut out = Vec::new();
        for src in self.st[self.to_move].iter() {
            for (dst, touched) in self.moves_from(src) {
                out.push((src, dst, touched));
            }
        }
        out
    }

    /// The effect of a legal move: every group (the mover taken out) with a touched stack
    /// grows by one, once; the mover lands on dst one higher.
    pub fn apply_move(&mut self, src: usize, dst: usize, touched: Bb<N>) {
        let me = self.to_move;
        let friends = self.st[me].andnot(Bb::bit(src));
        let mut grown = Bb::<N>::ZERO;
        let mut rest = touched;
        while rest.any() {
            let g = self.group(friends, rest.lowest());
            grown = grown.or(g);
            rest = rest.andnot(g);
        }
        for x in grown.iter() {
            self.height[x] += 1;
        }
        let h = self.height[src];
        self.height[src] = 0;
        self.height[dst] = h + 1;
        self.st[me].clear(src);
        self.st[me].set(dst);
        self.phase = Phase::Play;
        self.to_move = 1 - me;
        self.ply = self.ply.saturating_add(1);
    }

    pub fn place(&mut self, s: usize) {
        self.st[self.to_move].set(s);
        self.height[s] = 1;
        self.phase = if self.phase == Phase::Open { Phase::Swap } else { Phase::Play };
        self.to_move = 1 - self.to_move;
        self.ply = self.ply.saturating_add(1);
    }

    pub fn swap(&mut self) {
        self.phase = Phase::Play;
        self.ply = self.ply.saturating_add(1);
    }

    /// The winner when the game is over (the mover without a legal action loses).
    pub fn winner(&self) -> Option<usize> {
        if self.phase == Phase::Swap || self.cells().any() {
            return None;
        }
        let any_move = self.st[self.to_move].iter().any(|s| !self.moves_from(s).is_empty());
        (!any_move).then_some(1 - self.to_move)
    }

    /// One action drawn uniformly from every legal one (placements, moves, `swap`); false
    /// when the mover has none.
    pub fn random_step(&mut self, rng: &mut Rng, swaps: &mut u32) -> bool {
        let cells = self.cells();
        let moves = self.moves();
        let swap = u32::from(self.phase == Phase::Swap);
        let total = cells.count() + moves.len() as u32 + swap;
        if total == 0 {
            return false;
        }
        let mut k = rng.below(total);
        if k < cells.count() {
            self.place(cells.nth(k));
            return true;
        }
        k -= cells.count();
        if (k as usize) < moves.len() {
            let (src, dst, touched) = moves[k as usize];
            self.apply_move(src, dst, touched);
        } else {
            *swaps += 1;
            self.swap();
        }
        true
    }

    /// Random actions until the mover has none (it loses) or the ply reaches `cap`:
    /// (the winner, if the game ended, and the swaps played).
    pub fn playout(&mut self, cap: u32, rng: &mut Rng) -> (Option<usize>, u32) {
        let mut swaps = 0;
        loop {
            if self.ply >= cap {
                return (self.winner(), swaps);
            }
            if !self.random_step(rng, &mut swaps) {
                return (Some(1 - self.to_move), swaps);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::hexagon;

    fn game(stacks: &[(&str, usize, u32)], to_move: usize) -> Vaxandis<2> {
        let geo = hexagon(5);
        let mut g = Vaxandis {
            geo,
            freeze_group: false,
            touch_path: true,
            st: [Bb::ZERO; 2],
            height: vec![0; geo.bits()],
            to_move,
            ply: 4,
            phase: Phase::Play,
        };
        for &(name, c, h) in stacks {
            let s = geo.parse(name).unwrap();
            g.st[c].set(s);
            g.height[s] = h;
        }
        g
    }

    fn names(g: &Vaxandis<2>) -> Vec<String> {
        let mut out: Vec<String> =
            g.moves().iter().map(|&(s, d, _)| format!("{}-{}", g.geo.name(s), g.geo.name(d))).collect();
        out.sort();
        out
    }

    #[test]
    fn v_t2_moves_and_growth() {
        let mut g = game(&[("e5", 0, 1), ("e8", 0, 1), ("a1", 1, 1)], 0);
        assert_eq!(names(&g), ["e5-e7", "e5-e9", "e8-e1", "e8-e2", "e8-e3", "e8-e4", "e8-e6"]);
        let (e5, e7, e8) = (g.geo.parse("e5").unwrap(), g.geo.parse("e7").unwrap(), g.geo.parse("e8").unwrap());
        let touched = g.moves().into_iter().find(|&(s, d, _)| s == e5 && d == e7).unwrap().2;
        g.apply_move(e5, e7, touched);
        assert_eq!((g.height[e7], g.height[e8]), (2, 2));
    }

    #[test]
    fn v_t3_a_higher_stack_blocks() {
        let g = game(&[("e5", 0, 2), ("e6", 1, 2), ("e9", 0, 1), ("c3", 1, 3), ("a1", 1, 1)], 0);
        let e5 = g.geo.parse("e5").unwrap();
        let from: Vec<String> = g.moves_from(e5).iter().map(|&(d, _)| g.geo.name(d)).collect();
        assert_eq!(from, ["e8"]);
    }

    #[test]
    fn v_t4_frozen_next_to_a_higher_enemy() {
        let g = game(&[("e5", 0, 1), ("e6", 1, 2)], 0);
        assert!(g.frozen(g.geo.parse("e5").unwrap()));
        let g = game(&[("e5", 0, 2), ("e6", 1, 2)], 0);
        assert!(!g.frozen(g.geo.parse("e5").unwrap()));
    }

    #[test]
    fn v_t5_the_touched_group_grows_once() {
        let mut g = game(&[("c5", 0, 1), ("d5", 0, 1), ("g5", 0, 1), ("a1", 1, 1)], 0);
        let (g5, e5) = (g.geo.parse("g5").unwrap(), g.geo.parse("e5").unwrap());
        let touched = g.moves().into_iter().find(|&(s, d, _)| s == g5 && d == e5).unwrap().2;
        g.apply_move(g5, e5, touched);
        for s in ["c5", "d5", "e5"] {
            assert_eq!(g.height[g.geo.parse(s).unwrap()], 2, "{s}");
        }
    }

    #[test]
    fn playouts_stop_at_the_cap_or_a_player_without_actions() {
        let geo = hexagon(5);
        for seed in 0..10 {
            let mut g: Vaxandis<2> = Vaxandis {
                geo,
                freeze_group: seed % 2 == 1,
                touch_path: seed % 3 != 0,
                st: [Bb::ZERO; 2],
                height: vec![0; geo.bits()],
                to_move: 0,
                ply: 0,
                phase: Phase::Open,
            };
            let (winner, _) = g.playout(500, &mut Rng::new(seed));
            assert!(winner.is_some() || g.ply == 500);
            assert_eq!(winner, g.winner());
        }
    }
}
