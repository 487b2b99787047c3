//! Anda in the core: the rules' test positions (docs/rules/anda.md) and seeded random
//! games checking the incremental board against a from-scratch analysis at every ply.

use super::board::{smothered_stones, Verdict};
use super::*;
use crate::geometry::hexagon;

fn stones<const N: usize>(geo: &'static Hexagon, names: &str) -> Bb<N> {
    let mut b = Bb::ZERO;
    for name in names.split_whitespace() {
        b.set(geo.parse(name).unwrap());
    }
    b
}

fn game(black: &str, white: &str, to_move: usize) -> Anda<2> {
    let geo = hexagon(5);
    Anda::new(geo, false, stones(geo, black), stones(geo, white), to_move, 10, 0, [false; 2], Phase::Play)
}

fn at(g: &Anda<2>, name: &str) -> usize {
    g.geo.parse(name).unwrap()
}

#[test]
fn a_t3_black_removes_both_white_stones_and_wins() {
    let mut g = game("b2 d2", "f7 h6", BLACK);
    assert_eq!(g.place(at(&g, "c2")), Verdict::Legal);
    assert!(g.board.st[WHITE].is_zero());
    assert_eq!(g.outcome(), Some((BLACK, Termination::Eliminated)));
}

#[test]
fn a_t4_white_goes_first_then_black_is_smothered() {
    let mut g = game("b2 d2", "f7 h6 a4 b5 b6", BLACK);
    assert_eq!(g.place(at(&g, "c2")), Verdict::Legal);
    assert!(g.board.st[BLACK].is_zero());
    assert_eq!(g.board.st[WHITE], stones(g.geo, "a4 b5 b6"));
    assert_eq!(g.outcome(), Some((WHITE, Termination::Eliminated)));
}

#[test]
fn a_t5_enemy_territory_is_refused() {
    let mut g = game("b2 d2", "f7 h6 a4 b5 b6", BLACK);
    assert_eq!(g.place(at(&g, "a5")), Verdict::Territory);
}

#[test]
fn a_t6_suicide_of_one_stone_is_refused_of_more_is_legal() {
    let g = game("a2 b1 b2", "h8 h9 i8", BLACK);
    assert_eq!(g.board.probe(BLACK, at(&g, "e5")).verdict, Verdict::Suicide);
    assert_eq!(g.board.probe(BLACK, at(&g, "c3")).verdict, Verdict::Legal);
    assert_eq!(g.board.probe(BLACK, at(&g, "i9")).verdict, Verdict::Territory);
    let mut h = g.clone();
    assert_eq!(h.place(at(&g, "a1")), Verdict::Legal);
    assert!(h.board.st[BLACK].is_zero());
    assert_eq!(h.outcome(), Some((WHITE, Termination::Eliminated)));
}

#[test]
fn a_t7_smothered_by_one_group_only() {
    let g = game("e5", "a1 i9", WHITE);
    assert!(g.board.smothered(BLACK).is_zero());
    let g = game("e5", "a1 b1", WHITE);
    assert_eq!(g.board.smothered(BLACK), stones(g.geo, "e5"));
}

/// Placement from scratch: the rule text, for comparison with the incremental probe.
fn slow_place<const N: usize>(geo: &'static Hexagon, st: [Bb<N>; 2], p: usize, s: usize) -> (Verdict, [Bb<N>; 2]) {
    let w = geo.width;
    let mask = geo.mask::<N>();
    let empty = mask.andnot(st[0].or(st[1]));
    if !empty.has(s) {
        return (Verdict::Occupied, st);
    }
    let near = Bb::bit(s).flood(empty, w).grow(w);
    if near.meets(&st[1 - p]) && !near.meets(&st[p]) {
        return (Verdict::Territory, st);
    }
    let mut out = st;
    out[p].set(s);
    let empty = mask.andnot(out[0].or(out[1]));
    let dead_o = smothered_stones(geo, out[1 - p], out[p], empty);
    out[1 - p] = out[1 - p].andnot(dead_o);
    let dead_p = smothered_stones(geo, out[p], out[1 - p], empty.or(dead_o));
    out[p] = out[p].andnot(dead_p);
    if dead_o.is_zero() && dead_p == Bb::bit(s) {
        return (Verdict::Suicide, st);
    }
    (Verdict::Legal, out)
}

fn random_games<const N: usize>(n: usize, games: u64) -> usize {
    let geo = hexagon(n);
    let mut checked = 0;
    for seed in 0..games {
        let mut rng = Rng::new(seed);
        let mut g: Anda<N> =
            Anda::new(geo, seed % 2 == 1, Bb::ZERO, Bb::ZERO, BLACK, 0, (seed % 3) as u32, [true; 2], Phase::Play);
        let mut swaps = 0;
        while g.outcome().is_none() && g.ply < 3 * geo.site_count() as u32 {
            assert!(g.board.consistent(), "n={n} seed={seed} ply={}", g.ply);
            if g.placing() {
                let mut legal = Bb::<N>::ZERO;
                for &s in &geo.sites {
                    let (v, after) = slow_place(geo, g.board.st, g.to_move, s);
                    let pr = g.board.probe(g.to_move, s);
                    assert_eq!(pr.verdict, v, "n={n} seed={seed} ply={} site={}", g.ply, geo.name(s));
                    if v == Verdict::Legal {
                        assert_eq!(pr.st, after);
                        legal.set(s);
                    }
                    checked += 1;
                }
                assert_eq!(g.legal_cells(), legal);
            }
            assert!(g.random_step(&mut rng, &mut swaps));
        }
    }
    checked
}

#[test]
fn incremental_board_agrees_with_the_rule_text() {
    assert!(random_games::<1>(3, 40) > 1000);
    assert!(random_games::<2>(4, 30) > 1000);
    assert!(random_games::<2>(5, 20) > 1000);
    assert!(random_games::<3>(7, 4) > 1000);
}

#[test]
fn playouts_end_and_repeat_with_the_seed() {
    let geo = hexagon(9);
    let run = |seed| {
        let mut g: Anda<5> = Anda::new(geo, false, Bb::ZERO, Bb::ZERO, BLACK, 0, 0, [true; 2], Phase::Offer);
        let end = g.playout(2170, &mut Rng::new(seed));
        (end, g.ply, g.board.st)
    };
    for seed in 0..20 {
        let (end, ply, st) = run(seed);
        assert_eq!(run(seed), (end, ply, st));
        let (winner, why) = end.result.expect("random Anda games end well before the cap");
        assert_eq!(why, Termination::Eliminated);
        assert!(st[1 - winner].is_zero() && st[winner].any());
    }
}
