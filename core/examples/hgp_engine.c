/* hgp_engine.c: an HGP engine in C over the hexarena C ABI (include/hexarena.h): uniformly
 * random legal actions in every game. Replace choose() with a search.
 *
 *   cargo build --release --features capi            (in core/)
 *   cc -O2 -Iinclude examples/hgp_engine.c target/release/libhexarena_core.a \
 *      -lpthread -ldl -lm -o hgp_engine_c
 */
#define _POSIX_C_SOURCE 200809L /* getline */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hexarena.h"

#define BIG (1 << 24) /* room for every answer: legal_moves holds at most 1,000,000 bytes */
#define MAX_ID_DIGITS 1000
#define MAX_LINE (1 << 16) /* the longest command line read, in bytes without its end of line */
static const char *COMMANDS[] = {"protocol_version", "name", "version", "known_command", "list_commands", "quit",
    "list_games", "game", "boardsize", "clear_board", "komi", "play", "genmove", "undo", "legal_moves", "position",
    "set_position", "final_score", "time_settings", "time_left", NULL};

static hx_game *game;
static char gid[32] = "spelde", variant[256] = "";
static int size = 6;
static unsigned komi = 0;
static int cleared = 1; /* the board came from a reset, not from set_position */
static unsigned long long seed = 1;
static char *out;
static hx_game **history; /* the games before each action, for undo */
static size_t depth, room;

/* The engine's choice for the side to move into buf: here, the random player's draw. */
static hx_status choose(char *buf, size_t cap) { return hx_random_action(game, seed++, buf, cap, NULL); }

static void forget(void) {
    while (depth) hx_game_free(history[--depth]);
}

/* Keeps a copy of the game before an action; 0 when out of memory. */
static int remember(void) {
    if (depth == room) {
        size_t more = room ? 2 * room : 64;
        hx_game **h = realloc(history, more * sizeof *h);
        if (!h) return 0;
        history = h, room = more;
    }
    return hx_game_clone(game, &history[depth]) == HX_OK ? (depth++, 1) : 0;
}

static int reset(const char *id, int n, const char *var) {
    hx_game *g;
    if (hx_game_new(id, n, var, komi, &g) != HX_OK) return 0;
    hx_game_free(game);
    forget();
    game = g, size = n, cleared = 1;
    if (id != gid) snprintf(gid, sizeof gid, "%s", id);
    if (var != variant) snprintf(variant, sizeof variant, "%s", var);
    return 1;
}

/* The colour a word names, 0 black or 1 white; -1 for another word. */
static int colour_of(const char *word) {
    if (!strcmp(word, "b") || !strcmp(word, "black")) return 0;
    if (!strcmp(word, "w") || !strcmp(word, "white")) return 1;
    return -1;
}

/* 1 when `colour` may move now, else 0 with the reason in out. */
static int to_move(int colour) {
    int c, over;
    hx_outcome(game, &over, NULL);
    if (over) return strcpy(out, "illegal move: the game is over"), 0;
    hx_to_move(game, &c);
    if (c != colour) return strcpy(out, "illegal move: not that colour's turn"), 0;
    return 1;
}

/* A whole number >= 0 of at most 20 ASCII digits into *k (saturated at 2^32 - 1); 0 for other text. */
static int whole(const char *text, unsigned *k) {
    size_t n = strlen(text);
    if (!n || n > 20 || strspn(text, "0123456789") != n) return 0;
    unsigned long long v = 0;
    for (const char *p = text; *p; p++) v = v > 429496729ULL ? 4294967295ULL : v * 10 + (unsigned)(*p - '0');
    *k = v > 4294967295ULL ? 4294967295U : (unsigned)v;
    return 1;
}

/* The words of args (at most `most`) into words[]; their number, or most + 1 when there are more. */
static int split(char *args, char **words, int most) {
    int n = 0;
    for (char *w = strtok(args, " "); w; w = strtok(NULL, " ")) {
        if (n == most) return most + 1;
        words[n++] = w;
    }
    return n;
}

/* Answers one command (lower-cased words); returns 1 on success, the text in out. */
static int run(char *cmd, char *args) {
    out[0] = 0;
    if (!strcmp(cmd, "protocol_version")) strcpy(out, "2");
    else if (!strcmp(cmd, "name")) strcpy(out, "kit-random-c");
    else if (!strcmp(cmd, "version")) strcpy(out, hx_api_version());
    else if (!strcmp(cmd, "known_command")) {
        char *w[1];
        if (split(args, w, 1) != 1) return strcpy(out, "syntax error: expected known_command NAME"), 0;
        strcpy(out, "false");
        for (int i = 0; COMMANDS[i]; i++) if (!strcmp(w[0], COMMANDS[i])) strcpy(out, "true");
    } else if (!strcmp(cmd, "list_commands")) {
        for (int i = 0; COMMANDS[i]; i++) strcat(strcat(out, COMMANDS[i]), COMMANDS[i + 1] ? "\n" : "");
    } else if (!strcmp(cmd, "list_games")) strcpy(out, "anda\nanda-prison\nspelde\nvaxandis\nmarbanta");
    else if (!strcmp(cmd, "game") && !*args) hx_variant(game, out, BIG, NULL);
    else if (!strcmp(cmd, "game")) {
        char id[32] = "";
        sscanf(args, "%31s", id);
        const char *rest = args + strlen(id) + (args[strlen(id)] == ' ');
        int n = !strcmp(id, "spelde") ? 6 : !strcmp(id, "vaxandis") ? 5 : 9;
        unsigned was = komi;
        komi = 0;
        if (!reset(id, n, rest)) return komi = was, snprintf(out, BIG, "%s", hx_last_error()), 0;
    } else if (!strcmp(cmd, "boardsize")) {
        char *w[1];
        unsigned n;
        if (split(args, w, 1) != 1) return strcpy(out, "syntax error: expected boardsize N"), 0;
        if (!whole(w[0] + (w[0][0] == '+' || w[0][0] == '-'), &n))
            return strcpy(out, "syntax error: the board size is not a whole number"), 0;
        if (w[0][0] == '-' || n < 2 || n > 13 || !reset(gid, (int)n, variant))
            return strcpy(out, "unacceptable size"), 0;
    } else if (!strcmp(cmd, "clear_board")) reset(gid, size, variant);
    else if (!strcmp(cmd, "komi")) {
        /* a setting for the next game: it applies at once only to a board no action is on */
        char *w[1];
        if (split(args, w, 1) != 1 || !whole(w[0], &komi))
            return strcpy(out, "syntax error: expected komi K, a whole number >= 0"), 0;
        if (cleared && !depth) reset(gid, size, variant);
    } else if (!strcmp(cmd, "play")) {
        char *w[2];
        int c;
        if (split(args, w, 2) != 2) return strcpy(out, "syntax error: expected play COLOUR ACTION"), 0;
        if ((c = colour_of(w[0])) < 0) return strcpy(out, "syntax error: not a colour (black, b, white, w)"), 0;
        if (hx_check(game, w[1]) == HX_ERR_SYNTAX) return snprintf(out, BIG, "%s", hx_last_error()), 0;
        if (!to_move(c)) return 0;
        if (!remember()) return strcpy(out, "internal error: out of memory"), 0;
        if (hx_play(game, w[1]) != HX_OK) {
            hx_game_free(history[--depth]);
            return snprintf(out, BIG, "%s", hx_last_error()), 0;
        }
    } else if (!strcmp(cmd, "genmove")) {
        char *w[1];
        int c;
        if (split(args, w, 1) != 1) return strcpy(out, "syntax error: expected genmove COLOUR"), 0;
        if ((c = colour_of(w[0])) < 0) return strcpy(out, "syntax error: not a colour (black, b, white, w)"), 0;
        if (!to_move(c)) return 0;
        if (choose(out, BIG) != HX_OK) return strcpy(out, "resign"), 1;
        if (!remember()) return strcpy(out, "internal error: out of memory"), 0;
        if (hx_play(game, out) != HX_OK) {
            hx_game_free(history[--depth]);
            return snprintf(out, BIG, "internal error: %s", hx_last_error()), 0;
        }
    } else if (!strcmp(cmd, "undo")) {
        if (!depth) return strcpy(out, "cannot undo"), 0;
        hx_game_free(game);
        game = history[--depth];
    } else if (!strcmp(cmd, "legal_moves")) {
        if (hx_legal_actions(game, out, BIG, NULL) != HX_OK) return snprintf(out, BIG, "%s", hx_last_error()), 0;
    } else if (!strcmp(cmd, "position")) hx_position(game, out, BIG, NULL);
    else if (!strcmp(cmd, "set_position")) {
        hx_game *g;
        if (!*args) return strcpy(out, "syntax error: expected set_position POSITION"), 0;
        if (hx_game_from_position(args, &g) != HX_OK) return snprintf(out, BIG, "%s", hx_last_error()), 0;
        hx_game_free(game);
        forget();
        game = g, cleared = 0;
        char v[300], id[32];
        hx_variant(game, v, sizeof v, NULL);
        sscanf(v, "%31s", id);
        if (strcmp(id, gid)) komi = 0; /* the komi setting belongs to the game it was given for */
        snprintf(gid, sizeof gid, "%s", id);
        snprintf(variant, sizeof variant, "%s", v + strlen(gid) + 1);
        char pos[16];
        sscanf(args, "%*s %15s", pos);
        size = atoi(pos);
    } else if (!strcmp(cmd, "final_score")) {
        if (hx_final_score(game, out, BIG, NULL) != HX_OK) return strcpy(out, "cannot score"), 0;
    } else if (strcmp(cmd, "time_settings") && strcmp(cmd, "time_left") && strcmp(cmd, "quit"))
        return strcpy(out, "unknown command"), 0;
    return 1;
}

int main(void) {
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    out = malloc(BIG);
    if (!out) return 1;
    reset("spelde", 6, "");
    /* getline: a whole line however long, NUL bytes included */
    while ((len = getline(&line, &cap, stdin)) > 0) {
        if (len - (line[len - 1] == '\n') > MAX_LINE) { /* answered once and skipped, as hexarena's engine side */
            printf("? syntax error: a line of more than %d bytes, skipped\n\n", MAX_LINE);
            fflush(stdout);
            continue;
        }
        char *q = line;
        for (ssize_t i = 0; i < len; i++) { /* drop control characters but HT and LF, HT -> space, cut at '#' */
            unsigned char ch = (unsigned char)line[i];
            if (ch == '#') break;
            if (ch == '\t') *q++ = ' ';
            else if (ch >= 32 && ch != 127) *q++ = (char)tolower(ch);
        }
        *q = 0;
        char *s = line + strspn(line, " ");
        if (!*s) continue;
        const char *id = "";
        int idn = 0, ok;
        if (isdigit((unsigned char)*s)) {
            size_t k = strspn(s, "0123456789");
            if (s[k] == 0 || s[k] == ' ') {
                if (k > MAX_ID_DIGITS) {
                    printf("? syntax error: command id of more than %d digits\n\n", MAX_ID_DIGITS);
                    fflush(stdout);
                    continue;
                }
                /* echoed exactly, digit for digit: 007 -> =007 */
                id = s, idn = (int)k;
                s += k;
                s += strspn(s, " ");
            }
        }
        char *args = s + strcspn(s, " ");
        if (*args) *args++ = 0;
        args += strspn(args, " ");
        for (char *e = args + strlen(args); e > args && e[-1] == ' '; ) *--e = 0;
        if (!*s) ok = 0, strcpy(out, "syntax error: no command after the id");
        else ok = run(s, args);
        printf("%c%.*s%s%s\n\n", ok ? '=' : '?', idn, id, *out ? " " : "", out);
        fflush(stdout);
        if (!strcmp(s, "quit")) break;
    }
    forget();
    free(history);
    hx_game_free(game);
    free(line);
    free(out);
    return 0;
}
