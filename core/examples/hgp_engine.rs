//! A complete HGP engine in Rust over the kit (`hexarena_core::kit`): uniformly random legal
//! actions in every game. `cargo run --release --example hgp_engine [-- --seed N]`; it reads
//! commands on stdin and answers on stdout (docs/engines.md, /docs/protocol.md).
//! Replace `choose` with a search and you have an engine.

use std::io::{self, BufRead, Write};

use hexarena_core::kit::{Action, Game, Refusal, GAMES, MAX_ACTIONS, MAX_LEGAL_BYTES};

const NAME: &str = "kit-random-rust";
const COMMANDS: &[&str] = &[
    "protocol_version", "name", "version", "known_command", "list_commands", "quit", "list_games", "game",
    "boardsize", "clear_board", "komi", "play", "genmove", "undo", "showboard", "legal_moves", "legal_cells",
    "position", "set_position", "final_score", "time_settings", "time_left", "hgp_version",
];

/// The engine's choice for the side to move: here, the random player's draw.
fn choose(game: &Game, seed: u64) -> Option<Action> {
    game.random_action(seed)
}

struct Engine {
    game: Game,
    variant: String,
    komi: u32,
    history: Vec<Game>,
    /// The board came from a reset (`game`, `boardsize`, `clear_board`), not from `set_position`:
    /// a `komi` then applies at once while no action is on it, as hexarena's own engines do.
    cleared: bool,
    seed: u64,
}

/// The longest command line read, in bytes without its end of line (as hexarena's engine side).
const MAX_LINE: usize = 1 << 16;
/// The most digits of a command id read (hexarena's engines refuse a longer id).
const MAX_ID_DIGITS: usize = 1000;

/// A whole number >= 0 in ASCII digits (at most 20: past `u32` it saturates), else None.
fn whole(text: &str) -> Option<u32> {
    let digits = !text.is_empty() && text.len() <= 20 && text.bytes().all(|b| b.is_ascii_digit());
    digits.then(|| text.parse::<u64>().map_or(u32::MAX, |v| u32::try_from(v).unwrap_or(u32::MAX)))
}

impl Engine {
    fn reset(&mut self, id: &str, size: usize) -> Result<(), String> {
        self.game = Game::with_komi(id, size, &self.variant, self.komi).map_err(|e| e.to_string())?;
        self.history.clear();
        self.cleared = true;
        Ok(())
    }

    /// The colour a word names: `syntax error` for another word.
    fn colour(word: &str) -> Result<char, String> {
        match word.to_ascii_lowercase().as_str() {
            "b" | "black" => Ok('b'),
            "w" | "white" => Ok('w'),
            _ => Err(format!("syntax error: {word:?} is not a colour (black, b, white, w)")),
        }
    }

    /// `illegal move` unless `colour` may move now.
    fn to_move(&self, colour: char) -> Result<(), String> {
        if self.game.outcome().is_some() {
            return Err("illegal move: the game is over".into());
        }
        if colour != self.game.to_move().letter() {
            return Err("illegal move: not that colour's turn".into());
        }
        Ok(())
    }

    fn run(&mut self, name: &str, args: &[&str]) -> Result<String, String> {
        let (id, size) = (self.game.id(), self.game.size());
        match name {
            "protocol_version" => Ok("2".into()),
            "name" => Ok(NAME.into()),
            "version" => Ok(hexarena_core::kit::API_VERSION.into()),
            "hgp_version" => Ok("1.2".into()),
            "known_command" => {
                let [command] = args else { return Err("syntax error: expected known_command NAME".into()) };
                Ok(COMMANDS.contains(&command.to_ascii_lowercase().as_str()).to_string())
            }
            "list_commands" => Ok(COMMANDS.join("\n")),
            "list_games" => Ok(GAMES.join("\n")),
            "game" if args.is_empty() => Ok(self.game.variant()),
            "game" => {
                let probe = Game::new(args[0], 5, &args[1..].join(" ")).map_err(|e| e.to_string())?;
                let default = match probe.id() { "spelde" => 6, "vaxandis" => 5, _ => 9 };
                self.variant = args[1..].join(" ");
                self.komi = 0;
                self.reset(probe.id(), default)
                    .map(|_| String::new())
            }
            "boardsize" => {
                let [n] = args else { return Err("syntax error: expected boardsize N".into()) };
                let digits = n.strip_prefix(['+', '-']).unwrap_or(n);
                if whole(digits).is_none() {
                    return Err(format!("syntax error: board size {n:?} is not a whole number"));
                }
                match n.parse::<usize>() {
                    Ok(n) if (2..=13).contains(&n) => self.reset(id, n).map(|_| String::new()),
                    _ => Err(format!("unacceptable size: {n} outside 2..13")),
                }
            }
            "clear_board" => self.reset(id, size).map(|_| String::new()),
            "komi" => {
                // a setting for the next game: it applies at once only to a board no action is on
                let [k] = args else { return Err("syntax error: expected komi K".into()) };
                self.komi = whole(k).ok_or_else(|| format!("syntax error: komi {k:?} is not a whole number >= 0"))?;
                if self.cleared && self.history.is_empty() {
                    self.reset(id, size)?;
                }
                Ok(String::new())
            }
            "play" => {
                let [colour, token] = args else { return Err("syntax error: expected play COLOUR ACTION".into()) };
                let colour = Self::colour(colour)?;
                let action = self.game.parse(token).map_err(|r| r.to_string())?;
                self.to_move(colour)?;
                let before = self.game.clone();
                self.game.play(&action).map_err(|r| r.to_string())?;
                self.history.push(before);
                Ok(String::new())
            }
            "genmove" => {
                let [colour] = args else { return Err("syntax error: expected genmove COLOUR".into()) };
                self.to_move(Self::colour(colour)?)?;
                self.seed = self.seed.wrapping_add(1);
                let Some(action) = choose(&self.game, self.seed) else { return Ok("resign".into()) };
                self.history.push(self.game.clone());
                self.game.play(&action).map_err(|r: Refusal| r.to_string())?;
                Ok(self.game.format(&action))
            }
            "undo" => {
                self.game = self.history.pop().ok_or("cannot undo")?;
                Ok(String::new())
            }
            "showboard" => Ok(self.game.position().replace(' ', "\n")),
            "legal_moves" => self.game.legal_moves().ok_or_else(|| format!(
                "too many moves: over {MAX_ACTIONS} actions or {MAX_LEGAL_BYTES} bytes")),
            "legal_cells" => {
                Ok(self.game.legal_cells().iter().filter_map(|&s| self.game.site_name(s)).collect::<Vec<_>>().join(" "))
            }
            "position" => Ok(self.game.position()),
            "set_position" => {
                let game = Game::from_position(&args.join(" ")).map_err(|e| e.to_string())?;
                if game.id() != id {
                    self.komi = 0;      // the komi setting belongs to the game it was given for
                }
                self.game = game;
                self.variant = self.game.variant().split_once(' ').map_or(String::new(), |(_, v)| v.to_string());
                self.history.clear();
                self.cleared = false;
                Ok(String::new())
            }
            "final_score" => self.game.outcome().map(|o| o.score()).ok_or_else(|| "cannot score".into()),
            "time_settings" | "time_left" | "quit" => Ok(String::new()),
            _ => Err("unknown command".into()),
        }
    }

    /// The answer to one input line (HGP framing: preprocessing, the id, the command), None for
    /// a line that preprocessing leaves empty; and whether it was `quit`.
    fn handle(&mut self, line: &str) -> Option<(String, bool)> {
        // control characters but HT and LF dropped (NUL, CR, ...), HT a space, a comment cut
        let line: String = line.split('#').next().unwrap_or("").chars()
            .filter(|&c| c == '\t' || (c >= ' ' && c != '\x7f')).map(|c| if c == '\t' { ' ' } else { c }).collect();
        let mut words: Vec<&str> = line.split_whitespace().collect();
        let first = *words.first()?;
        let mut id = String::new();
        if first.bytes().all(|b| b.is_ascii_digit()) {
            if first.len() > MAX_ID_DIGITS {
                return Some((format!("? syntax error: command id of more than {MAX_ID_DIGITS} digits\n\n"), false));
            }
            id = first.into(); // echoed exactly, digit for digit (007 -> =007)
            words.remove(0);
        }
        let Some((&name, rest)) = words.split_first() else {
            return Some((format!("?{id} syntax error: no command after the id\n\n"), false));
        };
        let name = name.to_ascii_lowercase();
        let answer = match self.run(&name, rest) {
            Ok(text) => format!("{}\n\n", format!("={id} {text}").trim_end()),
            Err(why) => format!("?{id} {why}\n\n"),
        };
        Some((answer, name == "quit"))
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seed = args.iter().position(|a| a == "--seed").and_then(|i| args.get(i + 1)?.parse().ok()).unwrap_or(1);
    let game = Game::new("spelde", 6, "").expect("the default game");
    let mut engine = Engine { game, variant: String::new(), komi: 0, history: Vec::new(), cleared: true, seed };
    let stdout = io::stdout();
    let mut input = io::stdin().lock();
    let mut bytes = Vec::new();
    loop {
        // bytes, not text: a byte that is not UTF-8 (in a comment, say) becomes U+FFFD
        bytes.clear();
        match input.read_until(b'\n', &mut bytes) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        // a line of more than MAX_LINE bytes (end of line not counted) is answered once and skipped
        let text = bytes.strip_suffix(b"\n").unwrap_or(&bytes);
        let handled = if text.len() > MAX_LINE {
            Some((format!("? syntax error: a line of more than {MAX_LINE} bytes, skipped\n\n"), false))
        } else {
            engine.handle(&String::from_utf8_lossy(text))
        };
        let Some((answer, quit)) = handled else { continue };
        let mut out = stdout.lock();
        let _ = out.write_all(answer.as_bytes());
        let _ = out.flush();
        if quit {
            break;
        }
    }
}
