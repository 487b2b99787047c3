//! Actions of every game as one type, and their HGP notation both ways.

use crate::geometry::Hexagon;

/// A site of the board: its bit in engine.geometry's layout (row * 2n + column: a padded
/// row-major board),
/// named `a1`-style by [`crate::kit::Game::site_name`].
pub type Site = u16;

/// An action of any of the five games (HGP "Actions"). Site lists are canonical: sorted in
/// notation order (column letter, then row number) where the order carries no meaning.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// `e5`: a stone (Vaxandis: a height-1 stack; Marbanta: a root with N = 1).
    Place(Site),
    /// `a1,i9`: the two-stone first turn (Anda, Anda-prison).
    Pair(Site, Site),
    /// `d4/d5,f5`: Spelde, a stone and the enemy stones it flips (never empty: a plain
    /// placement is `Place`).
    Flip(Site, Vec<Site>),
    /// `e8-e6`: Vaxandis, a stack's move.
    Move(Site, Site),
    /// `e5:e6,f6`: Marbanta, a root and the group's other stones (never empty: a root with
    /// N = 1 is `Place`).
    Group(Site, Vec<Site>),
    /// `e5,c3`: Marbanta's pie, a black stone then a white stone.
    Pie(Site, Site),
    /// `komi=K`: a komi offer.
    Komi(u32),
    Swap,
    Keep,
    /// Anda: White spends one komi point.
    Pass,
    /// Anda-prison: one enemy-coloured stone out of the prison.
    Release,
    Propose,
    Accept,
    Decline,
}

/// Why an action was refused: HGP's `syntax error` (not a form of this game) or
/// `illegal move` (a form of this game the rules forbid now), with the detail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    Syntax(String),
    Illegal(String),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Syntax(why) => write!(f, "syntax error: {why}"),
            Refusal::Illegal(why) => write!(f, "illegal move: {why}"),
        }
    }
}

impl std::error::Error for Refusal {}

/// The forms of action a game has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Form {
    Place,
    Pair,
    Flip,
    Move,
    Group,
    Pie,
    Komi,
    Word(&'static str),
}

/// The first site `action` names that is no cell of the board (`geo.is_site`), if any.
pub(crate) fn off_board(geo: &Hexagon, action: &Action) -> Option<Site> {
    let off = |s: &Site| !geo.is_site(usize::from(*s));
    match action {
        Action::Place(s) => Some(s).filter(|s| off(s)).copied(),
        Action::Pair(a, b) | Action::Pie(a, b) | Action::Move(a, b) => [a, b].into_iter().find(|s| off(s)).copied(),
        Action::Flip(c, more) | Action::Group(c, more) => std::iter::once(c).chain(more).find(|s| off(s)).copied(),
        _ => None,
    }
}

pub(crate) fn name(geo: &Hexagon, s: Site) -> String {
    geo.name(usize::from(s))
}

fn names(geo: &Hexagon, sites: &[Site]) -> String {
    sites.iter().map(|&s| name(geo, s)).collect::<Vec<_>>().join(",")
}

/// The action's HGP token.
pub(crate) fn format(geo: &Hexagon, action: &Action) -> String {
    match action {
        Action::Place(s) => name(geo, *s),
        Action::Pair(a, b) | Action::Pie(a, b) => format!("{},{}", name(geo, *a), name(geo, *b)),
        Action::Flip(c, f) if f.is_empty() => name(geo, *c),
        Action::Flip(c, f) => format!("{}/{}", name(geo, *c), names(geo, f)),
        Action::Move(a, b) => format!("{}-{}", name(geo, *a), name(geo, *b)),
        Action::Group(r, o) if o.is_empty() => name(geo, *r),
        Action::Group(r, o) => format!("{}:{}", name(geo, *r), names(geo, o)),
        Action::Komi(k) => format!("komi={k}"),
        Action::Swap => "swap".into(),
        Action::Keep => "keep".into(),
        Action::Pass => "pass".into(),
        Action::Release => "release".into(),
        Action::Propose => "propose".into(),
        Action::Accept => "accept".into(),
        Action::Decline => "decline".into(),
    }
}

/// Sites sorted in notation order.
pub(crate) fn sorted(geo: &Hexagon, mut sites: Vec<Site>) -> Vec<Site> {
    sites.sort_by_key(|&s| geo.rank[usize::from(s)]);
    sites
}

/// The most bytes of a caller's text a message repeats.
const SHOWN: usize = 100;

/// `text` as a message repeats it: whole up to [`SHOWN`] bytes, else its start (cut at a
/// character's boundary), `...` and its length (a huge token makes no huge message).
pub(crate) fn shown(text: &str) -> String {
    if text.len() <= SHOWN {
        return text.to_string();
    }
    let cut = (0..=SHOWN).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
    format!("{}... ({} bytes)", &text[..cut], text.len())
}

/// `text` quoted (`{:?}`) as a message repeats it (see [`shown`]).
pub(crate) fn quoted(text: &str) -> String {
    if text.len() <= SHOWN {
        return format!("{text:?}");
    }
    let cut = (0..=SHOWN).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
    format!("{:?}... ({} bytes)", &text[..cut], text.len())
}

/// The shape of a site name in a token, `[a-z][0-9]+` (engine.notation's): a token of another
/// shape is no form of any game (`syntax error`) before any of its sites is read.
fn cell_shaped(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() >= 2 && b[0].is_ascii_lowercase() && b[1..].iter().all(u8::is_ascii_digit)
}

/// `C(,C)*`: a list of site names.
fn list_shaped(text: &str) -> bool {
    text.split(',').all(cell_shaped)
}

/// The most digits a number in a token may have (engine.numbers' `MAX_DIGITS`); a longer
/// number is a `syntax error`.
const MAX_DIGITS: usize = 20;

/// The site a name of [`cell_shaped`] form names, read as engine.geometry reads it: a row
/// number with a leading zero (`e05`, `e0`) or of more than [`MAX_DIGITS`] digits is a
/// `syntax error`, a well-formed name off the board (`e99999`) an `illegal move`.
fn site(geo: &Hexagon, text: &str) -> Result<Site, Refusal> {
    let row = &text[1..];
    if row.starts_with('0') || row.len() > MAX_DIGITS {
        return Err(Refusal::Syntax(format!("{} is not a site", quoted(text))));
    }
    geo.parse(text).map(|s| s as Site).ok_or_else(|| Refusal::Illegal(format!("{} is off the board", shown(text))))
}

/// The sites of a list of names, in the order written; a site named twice is an `illegal move`.
fn sites<'a>(geo: &Hexagon, names: impl Iterator<Item = &'a str>, token: &str) -> Result<Vec<Site>, Refusal> {
    let out = names.map(|t| site(geo, t)).collect::<Result<Vec<_>, _>>()?;
    let mut seen = out.clone();
    seen.sort_unstable();
    seen.dedup();
    if seen.len() != out.len() {
        return Err(Refusal::Illegal(format!("{} names a site twice", shown(token))));
    }
    Ok(out)
}

fn need(forms: &[Form], form: Form, token: &str) -> Result<(), Refusal> {
    if forms.contains(&form) {
        Ok(())
    } else {
        Err(Refusal::Syntax(format!("{} is not an action of this game", quoted(token))))
    }
}

/// The token as engine.notation reads it: without the white space Python's `str.strip` drops
/// (Rust's and the separators U+001C..U+001F), lower case as Python's `str.lower` makes it where
/// that gives ASCII (the Kelvin sign is a `k`).
fn lowered(token: &str) -> String {
    token.trim_matches(|c: char| c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c))
        .chars().map(|c| if c == '\u{212a}' { 'k' } else { c.to_ascii_lowercase() }).collect()
}

/// The action a token names, for a game of `forms` on `geo` (canonical: lists sorted). As
/// engine.notation decides: a token of no shape, or of a shape the game lacks, is a `syntax
/// error` before its sites are read; then each site in the order written (a malformed row
/// number a `syntax error`, an off-board site an `illegal move`), then a repeated site (an
/// `illegal move`). `resign` is a form of every game that the rules never play: an `illegal
/// move` here (the referee handles it).
pub(crate) fn parse(geo: &Hexagon, forms: &[Form], token: &str) -> Result<Action, Refusal> {
    let t = lowered(token);
    let bad = || Refusal::Syntax(format!("{} is not an action of this game", quoted(token)));
    if t == "resign" {
        return Err(Refusal::Illegal("resign is not played into the rules (the referee handles it)".into()));
    }
    for (word, action) in [("swap", Action::Swap), ("keep", Action::Keep), ("pass", Action::Pass),
                           ("release", Action::Release), ("propose", Action::Propose),
                           ("accept", Action::Accept), ("decline", Action::Decline)] {
        if t == word {
            need(forms, Form::Word(word), token)?;
            return Ok(action);
        }
    }
    if let Some(k) = t.strip_prefix("komi=") {
        if k.is_empty() || !k.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        need(forms, Form::Komi, token)?;
        if k.len() > MAX_DIGITS {
            return Err(bad());
        }
        // a well-formed offer past any board's sites: refused by the rules as any offer too large
        return k.parse::<u32>().map(Action::Komi)
            .map_err(|_| Refusal::Illegal(format!("komi={} is more than the board's sites", shown(k))));
    }
    if cell_shaped(&t) {
        need(forms, Form::Place, token)?;
        return Ok(Action::Place(site(geo, &t)?));
    }
    if let Some((a, b)) = t.split_once(',').filter(|(a, b)| cell_shaped(a) && cell_shaped(b)) {
        if !forms.contains(&Form::Pair) {
            need(forms, Form::Pie, token)?;
        }
        let both = sites(geo, [a, b].into_iter(), &t)?;
        if forms.contains(&Form::Pair) {
            let s = sorted(geo, both);
            return Ok(Action::Pair(s[0], s[1]));
        }
        return Ok(Action::Pie(both[0], both[1]));
    }
    if let Some((c, f)) = t.split_once('/').filter(|(c, f)| cell_shaped(c) && list_shaped(f)) {
        need(forms, Form::Flip, token)?;
        let mut all = sites(geo, std::iter::once(c).chain(f.split(',')), &t)?;
        let c = all.remove(0);
        return Ok(Action::Flip(c, sorted(geo, all)));
    }
    if let Some((a, b)) = t.split_once('-').filter(|(a, b)| cell_shaped(a) && cell_shaped(b)) {
        need(forms, Form::Move, token)?;
        let both = sites(geo, [a, b].into_iter(), &t)?;
        return Ok(Action::Move(both[0], both[1]));
    }
    if let Some((r, o)) = t.split_once(':').filter(|(r, o)| cell_shaped(r) && list_shaped(o)) {
        need(forms, Form::Group, token)?;
        let mut all = sites(geo, std::iter::once(r).chain(o.split(',')), &t)?;
        let r = all.remove(0);
        return Ok(Action::Group(r, sorted(geo, all)));
    }
    Err(bad())
}
