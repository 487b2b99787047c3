use super::*;
use crate::geometry::hexagon;
use crate::search::game::Config;
use crate::search::tree::Search;

const UCT: Config = Config { exploration: 1.0, rave: None, narrow: false };

fn empty(n: usize, pie: bool) -> Game<2> {
    let geo = hexagon(n);
    let phase = if pie { Phase::Open } else { Phase::Play };
    Game::new(Vaxandis { geo, freeze_group: false, touch_path: true, st: [crate::bitboard::Bb::ZERO; 2],
                         height: vec![0; geo.bits()], to_move: 0, ply: 0, phase })
}

#[test]
fn a_search_of_the_opening_runs_and_chooses_a_legal_action() {
    let g = empty(4, true);
    let mut s = Search::new(g.clone(), UCT, 1);
    assert_eq!(s.run(Some(200), None), 200);
    let child = s.checked_child().unwrap();
    let action = s.nodes[child].action.unwrap();
    assert!(g.play(action).is_some());
}
