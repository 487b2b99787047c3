//! The whole state's own consistency (the differential test holds it to state.py): every
//! listed action plays, every random action is listed, playouts end by the rules or the cap.

use super::state::{Action, Phase, Prison};
use crate::geometry::hexagon;
use crate::rng::Rng;

fn games<const N: usize>(n: usize) {
    let geo = hexagon(n);
    let mut rng = Rng::new(n as u64);
    let mut listed = Vec::new();
    for balance in ["pie", "nopie", "corners"] {
        for komi in [0, 3] {
            let mut g = Prison::<N>::new_game(geo, balance, komi);
            while g.end_or_cap(g.ply_cap()).is_none() {
                assert!(g.actions(usize::MAX, &mut listed));
                assert!(listed.iter().all(|&a| g.play(a).is_some()), "{balance} ply {}", g.f.ply);
                let (a, next) = g.random_step(&mut rng).expect("a game not over has an action");
                assert!(listed.contains(&a));
                assert!(next == g.play(a).expect("legal"));
                g = next;
            }
            let (end, _, _) = g.playout(g.ply_cap(), &mut rng);
            assert!(end.outcome().is_some() || end.f.ply >= end.ply_cap());
        }
    }
}

#[test]
fn random_games_play_only_listed_actions() {
    games::<1>(2);
    games::<1>(3);
    games::<2>(5);
}

#[test]
fn the_dual_pie_and_the_komi_pie() {
    let geo = hexagon(5);
    let at = |s: &str| geo.parse(s).unwrap() as u16;
    let g = Prison::<2>::new_game(geo, "pie", 0);
    assert_eq!(g.f.phase, Phase::Pair);
    let g = g.play(Action::Pair(at("a1"), at("i9"))).unwrap();
    assert_eq!((g.f.phase, g.f.to_move), (Phase::PairSwap, 1));
    let g = g.play(Action::Swap).unwrap();
    assert_eq!((g.f.phase, g.f.to_move), (Phase::Pair, 1));
    let g = g.play(Action::Pair(at("a5"), at("i5"))).unwrap();
    assert_eq!((g.f.phase, g.f.to_move), (Phase::Swap, 0));
    assert!(g.play(Action::Propose).is_none());
    let g = g.play(Action::Keep).unwrap().play(Action::Komi(4)).unwrap();
    assert_eq!((g.f.phase, g.f.prison, g.f.komi), (Phase::KomiSwap, [4, 0], 4));
    let g = g.play(Action::Swap).unwrap();
    assert_eq!((g.f.phase, g.f.to_move), (Phase::Play, 0));
    assert_eq!(g.notation(Action::Pair(at("a5"), at("i5"))), "a5,i5");
    assert_eq!(g.notation(Action::Komi(4)), "komi=4");
}

#[test]
fn a_large_prison_scores_without_overflow() {
    // the Python constructors take the prison as it comes (u32): 2 x 2^31 must not wrap to 0
    let mut g = Prison::<1>::new_game(hexagon(3), "nopie", 0);
    g.f.prison = [1 << 31, 0];
    let o = g.score(super::state::Termination::Agreement);
    assert_eq!((o.winner, o.margin2), (Some(1), u32::MAX));
}
