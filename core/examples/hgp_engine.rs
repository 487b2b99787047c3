//! A complete HGP engine in Rust over the kit (`hexarena_core::kit`): uniformly random legal
//! actions in every game. `cargo run --release --example hgp_engine [-- --seed N]`; it reads
//! commands on stdin and answers on stdout (docs/engines.md, /docs/protocol.md).
//! Replace `choose` with a search and you have an engine.

use std::io::{self, BufRead, Write};

use hexarena_core::kit::{Action, Game, Refusal, GAMES};

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
    seed: u64,
}

impl Engine {
    fn reset(&mut self, id: &str, size: usize) -> Result<(), String> {
        self.game = Game::with_komi(id, size, &self.variant, self.komi).map_err(|e| e.to_string())?;
        self.history.clear();
        Ok(())
    }

    fn colour(&self, word: &str) -> Result<(), String> {
        let c = match word.to_ascii_lowercase().as_str() {
            "b" | "black" => 'b',
            "w" | "white" => 'w',
            _ => return Err("syntax error: expected a colour".into()),
        };
        if c != self.game.to_move().letter() {
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
            "known_command" => Ok(COMMANDS.contains(&args.first().copied().unwrap_or("")).to_string()),
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
                let n: usize = args.first().and_then(|a| a.parse().ok()).ok_or("syntax error: expected a size")?;
                if !(2..=13).contains(&n) {
                    return Err("unacceptable size".into());
                }
                self.reset(id, n).map(|_| String::new())
            }
            "clear_board" => self.reset(id, size).map(|_| String::new()),
            "komi" => {
                self.komi = args.first().and_then(|a| a.parse().ok()).ok_or("syntax error: expected a whole number")?;
                self.reset(id, size).map(|_| String::new())
            }
            "play" => {
                let [colour, token] = args else { return Err("syntax error: play COLOUR ACTION".into()) };
                self.colour(colour)?;
                let before = self.game.clone();
                self.game.play_token(token).map_err(|r| r.to_string())?;
                self.history.push(before);
                Ok(String::new())
            }
            "genmove" => {
                self.colour(args.first().copied().unwrap_or(""))?;
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
            "legal_moves" => {
                let actions = self.game.legal_actions().ok_or("too many moves")?;
                Ok(actions.iter().map(|a| self.game.format(a)).collect::<Vec<_>>().join(" "))
            }
            "legal_cells" => {
                Ok(self.game.legal_cells().iter().filter_map(|&s| self.game.site_name(s)).collect::<Vec<_>>().join(" "))
            }
            "position" => Ok(self.game.position()),
            "set_position" => {
                self.game = Game::from_position(&args.join(" ")).map_err(|e| e.to_string())?;
                self.variant = self.game.variant().split_once(' ').map_or(String::new(), |(_, v)| v.to_string());
                self.history.clear();
                Ok(String::new())
            }
            "final_score" => self.game.outcome().map(|o| o.score()).ok_or_else(|| "cannot score".into()),
            "time_settings" | "time_left" | "quit" => Ok(String::new()),
            _ => Err("unknown command".into()),
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seed = args.iter().position(|a| a == "--seed").and_then(|i| args.get(i + 1)?.parse().ok()).unwrap_or(1);
    let game = Game::new("spelde", 6, "").expect("the default game");
    let mut engine = Engine { game, variant: String::new(), komi: 0, history: Vec::new(), seed };
    let stdout = io::stdout();
    for line in io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let line: String = line.chars().filter(|&c| c == '\t' || !c.is_control()).map(|c| if c == '\t' { ' ' } else { c }).collect();
        let line = line.split('#').next().unwrap_or("").trim().to_string();
        if line.is_empty() {
            continue;
        }
        let mut words: Vec<&str> = line.split_whitespace().collect();
        let id = words[0].parse::<u64>().ok().map(|i| { words.remove(0); i.to_string() }).unwrap_or_default();
        let Some((&name, rest)) = words.split_first() else { continue };
        let name = name.to_ascii_lowercase();
        let answer = engine.run(&name, rest);
        let mut out = stdout.lock();
        let _ = match answer {
            Ok(text) => write!(out, "{}\n\n", format!("={id} {text}").trim_end()),
            Err(why) => write!(out, "?{id} {why}\n\n"),
        };
        let _ = out.flush();
        if name == "quit" {
            break;
        }
    }
}
