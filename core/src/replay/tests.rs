use std::collections::HashMap;

use super::{decimal, plain_token, replay, Stop};

const ROOT: &str = "(;FF[4]GM[1001]SZ[5]XG[spelde]XV[nopie]";

#[test]
fn replays_a_record() {
    let text = format!("{ROOT};B[e5]XT[1.5];W[a1]XT[x])");
    let r = replay(&text, &HashMap::new()).unwrap();
    assert_eq!((r.game, r.size), ("spelde", 5));
    assert_eq!(r.tokens, ["e5", "a1"]);
    assert_eq!(r.seconds, [Some(1.5), None]);
    assert_eq!(r.changes, ["e5b", "a1w"]);
    assert_eq!(r.marks, ["", ""]);
    assert_eq!(r.first, "");
    assert_eq!(r.statuses.len(), 1);
    assert_eq!(r.statuses[0].1, ["b", "play"]);
}

#[test]
fn names_the_ply_of_an_illegal_action() {
    match replay(&format!("{ROOT};B[e5];W[e5])"), &HashMap::new()) {
        Err(Stop::Illegal { ply, token, .. }) => assert_eq!((ply, token.as_str()), (2, "e5")),
        other => panic!("{other:?}"),
    }
}

#[test]
fn leaves_what_it_does_not_read_exactly_to_python() {
    for text in [format!("{ROOT};B[E5])"), format!("{ROOT};W[e5])"), format!("{ROOT};B[e5]W[a1])"),
                 "(;SZ[5]XG[chess];B[e5])".into(), "(;SZ[05a]XG[spelde];B[e5])".into(),
                 format!("{ROOT};B[ e5])"), format!("{ROOT};B[e05])")] {
        assert!(matches!(replay(&text, &HashMap::new()), Err(Stop::Unsure)), "{text}");
    }
}

#[test]
fn reads_numbers_as_python_does() {
    assert_eq!(decimal("12"), Some(12.0));
    assert_eq!(decimal("0.25"), Some(0.25));
    for bad in ["", ".5", "5.", "1e3", "-1", "inf", "1.2.3", "123456789012345678901"] {
        assert_eq!(decimal(bad), None, "{bad}");
    }
    assert!(plain_token("komi=10") && plain_token("e5:e6,f6") && plain_token("komi=0") && !plain_token("a01") && !plain_token("Swap"));
}
