//! Board summaries the players' leaf evaluations read (players/games/), computed as the
//! Python definitions compute them (engine/games/anda_regions.py `summary`, the Vaxandis
//! state's `summary`); the players weigh them in Python, so that both modes share one formula.

use crate::bitboard::Bb;
use crate::geometry::Hexagon;
use crate::vaxandis::Vaxandis;

/// The connected components of `bb`, lowest bit first (engine.geometry's `components`).
fn components<const N: usize>(geo: &Hexagon, mut bb: Bb<N>) -> Vec<Bb<N>> {
    let mut out = Vec::new();
    while bb.any() {
        let comp = Bb::bit(bb.lowest()).flood(bb, geo.width);
        out.push(comp);
        bb = bb.andnot(comp);
    }
    out
}

fn adjacent<const N: usize>(geo: &Hexagon, bb: Bb<N>) -> Bb<N> {
    bb.grow(geo.width).and(geo.mask::<N>()).andnot(bb)
}

/// Each group of one colour as (its stones, its safe breaths), in component order.
pub type Groups = Vec<(u32, u32)>;

/// The Anda games' summary of a board: (Black's territory, White's territory, Black's groups,
/// White's groups). Territory: the empty sites of regions touching stones of one colour only.
/// A group's safe breaths: the regions it touches that touch no enemy group or two or more.
pub fn anda_summary<const N: usize>(geo: &Hexagon, black: Bb<N>, white: Bb<N>) -> (u32, u32, Groups, Groups) {
    let empty = geo.mask::<N>().andnot(black.or(white));
    let regions: Vec<(Bb<N>, Bb<N>)> = components(geo, empty).into_iter().map(|r| (r, adjacent(geo, r))).collect();
    let (mut tb, mut tw) = (0, 0);
    for (region, around) in &regions {
        let (b, w) = (around.meets(&black), around.meets(&white));
        if b && !w {
            tb += region.count();
        } else if w && !b {
            tw += region.count();
        }
    }
    let groups = |own: Bb<N>, enemy: Bb<N>| -> Groups {
        let enemy_groups = components(geo, enemy);
        let touching: Vec<usize> = regions.iter().map(|(_, around)| {
            if around.meets(&enemy) { enemy_groups.iter().filter(|g| around.meets(g)).count() } else { 0 }
        }).collect();
        components(geo, own).into_iter().map(|group| {
            let around = adjacent(geo, group);
            let safe = regions.iter().zip(&touching)
                .filter(|((region, _), &t)| region.meets(&around) && t != 1).count();
            (group.count(), safe as u32)
        }).collect()
    };
    let (gb, gw) = (groups(black, white), groups(white, black));
    (tb, tw, gb, gw)
}

/// Vaxandis's summary of a position: (Black's frozen stacks, White's, Black's `ranks` tallest
/// heights, tallest first, White's, the actions Black would have, White's). A stack is frozen
/// here when an enemy stack next to it is higher (the players' measure, whatever `freeze=`);
/// a colour's actions are the placements of the position and that colour's moves.
pub fn vaxandis_summary<const N: usize>(g: &Vaxandis<N>, ranks: usize) -> (u32, u32, Vec<u32>, Vec<u32>, u32, u32) {
    let frozen = |own: Bb<N>, enemy: Bb<N>| -> u32 {
        own.iter().filter(|&x| g.geo.nbr::<N>(x).and(enemy).iter().any(|e| g.height[e] > g.height[x])).count() as u32
    };
    let tallest = |own: Bb<N>| -> Vec<u32> {
        let mut hs: Vec<u32> = own.iter().map(|x| g.height[x]).collect();
        hs.sort_unstable_by(|a, b| b.cmp(a));
        hs.truncate(ranks);
        hs
    };
    let cells = g.cells().count();
    let actions = |c: usize| -> u32 {
        let mut side = g.clone();
        side.to_move = c;
        cells + side.st[c].iter().map(|src| side.moves_from(src).len() as u32).sum::<u32>()
    };
    let [b, w] = g.st;
    (frozen(b, w), frozen(w, b), tallest(b), tallest(w), actions(0), actions(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::hexagon;

    fn stones(geo: &Hexagon, names: &str) -> Bb<2> {
        Bb::from_iter_bits(names.split_whitespace().map(|s| geo.parse(s).unwrap()))
    }

    #[test]
    fn a_vaxandis_summary_counts_the_actions_of_each_side() {
        use crate::rng::Rng;
        use crate::vaxandis::Phase;
        let geo = hexagon(5);
        let mut g: Vaxandis<2> = Vaxandis {
            geo, freeze_group: false, touch_path: true, st: [Bb::ZERO; 2], height: vec![0; geo.bits()],
            to_move: 0, ply: 0, phase: Phase::Play,
        };
        let (mut rng, mut swaps) = (Rng::new(3), 0);
        for _ in 0..60 {
            let (fb, fw, tb, tw, ab, aw) = vaxandis_summary(&g, 3);
            let mover = if g.to_move == 0 { ab } else { aw };
            assert_eq!(mover, g.cells().count() + g.moves().len() as u32);
            assert!(fb <= g.st[0].count() && fw <= g.st[1].count());
            assert!(tb.len() <= 3 && tb.windows(2).all(|p| p[0] >= p[1]) && tw.len() <= 3);
            if !g.random_step(&mut rng, &mut swaps) {
                break;
            }
        }
    }

    #[test]
    fn territory_and_safe_breaths_of_a_small_board() {
        let geo = hexagon(3);
        // a1 b1 a2 black, walling off nothing: one region touching both colours
        let (tb, tw, gb, gw) = anda_summary(geo, stones(geo, "a1"), stones(geo, "c3"));
        assert_eq!((tb, tw), (0, 0));
        assert_eq!(gb, vec![(1, 0)]);      // its one breath touches one white group
        assert_eq!(gw, vec![(1, 0)]);
        let (_, _, gb, _) = anda_summary(geo, stones(geo, "a1"), Bb::ZERO);
        assert_eq!(gb, vec![(1, 1)]);      // a breath touching no enemy is safe
        let (tb, tw, _, _) = anda_summary(geo, stones(geo, "a1"), Bb::ZERO);
        assert_eq!((tb, tw), (geo.sites.len() as u32 - 1, 0));
    }
}
