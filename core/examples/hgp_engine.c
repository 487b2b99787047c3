/* hgp_engine.c: an HGP engine in C over the hexarena C ABI (include/hexarena.h): uniformly
 * random legal actions in every game. Replace choose() with a search.
 *
 *   cargo build --release --features capi            (in core/)
 *   cc -O2 -Iinclude examples/hgp_engine.c target/release/libhexarena_core.a \
 *      -lpthread -ldl -lm -o hgp_engine_c
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hexarena.h"

#define BIG (1 << 24) /* room for legal_moves: 100000 actions of Spelde's flip sets */
static const char *COMMANDS[] = {"protocol_version", "name", "version", "known_command", "list_commands", "quit",
    "list_games", "game", "boardsize", "clear_board", "komi", "play", "genmove", "legal_moves", "position",
    "set_position", "final_score", "time_settings", "time_left", NULL};

static hx_game *game;
static char gid[32] = "spelde", variant[256] = "";
static int size = 6;
static unsigned komi = 0;
static unsigned long long seed = 1;
static char *out;

/* The engine's choice for the side to move into buf: here, the random player's draw. */
static hx_status choose(char *buf, size_t cap) { return hx_random_action(game, seed++, buf, cap, NULL); }

static int reset(const char *id, int n, const char *var) {
    hx_game *g;
    if (hx_game_new(id, n, var, komi, &g) != HX_OK) return 0;
    hx_game_free(game);
    game = g, size = n;
    if (id != gid) snprintf(gid, sizeof gid, "%s", id);
    if (var != variant) snprintf(variant, sizeof variant, "%s", var);
    return 1;
}

static int colour_ok(const char *word) {
    int c;
    hx_to_move(game, &c);
    if (!strcmp(word, "b") || !strcmp(word, "black")) return c == 0;
    if (!strcmp(word, "w") || !strcmp(word, "white")) return c == 1;
    return 0;
}

/* Answers one command (lower-cased words); returns 1 on success, the text in out. */
static int run(char *cmd, char *args) {
    out[0] = 0;
    if (!strcmp(cmd, "protocol_version")) strcpy(out, "2");
    else if (!strcmp(cmd, "name")) strcpy(out, "kit-random-c");
    else if (!strcmp(cmd, "version")) strcpy(out, hx_api_version());
    else if (!strcmp(cmd, "known_command")) {
        strcpy(out, "false");
        for (int i = 0; COMMANDS[i]; i++) if (!strcmp(args, COMMANDS[i])) strcpy(out, "true");
    } else if (!strcmp(cmd, "list_commands")) {
        for (int i = 0; COMMANDS[i]; i++) strcat(strcat(out, COMMANDS[i]), COMMANDS[i + 1] ? "\n" : "");
    } else if (!strcmp(cmd, "list_games")) strcpy(out, "anda\nanda-prison\nspelde\nvaxandis\nmarbanta");
    else if (!strcmp(cmd, "game") && !*args) hx_variant(game, out, BIG, NULL);
    else if (!strcmp(cmd, "game")) {
        char id[32] = "";
        sscanf(args, "%31s", id);
        const char *rest = args + strlen(id) + (args[strlen(id)] == ' ');
        int n = !strcmp(id, "spelde") ? 6 : !strcmp(id, "vaxandis") ? 5 : 9;
        komi = 0;
        if (!reset(id, n, rest)) return snprintf(out, BIG, "%s", hx_last_error()), 0;
    } else if (!strcmp(cmd, "boardsize")) {
        if (!reset(gid, atoi(args), variant)) return strcpy(out, "unacceptable size"), 0;
    } else if (!strcmp(cmd, "clear_board")) reset(gid, size, variant);
    else if (!strcmp(cmd, "komi")) komi = (unsigned)atoi(args), reset(gid, size, variant);
    else if (!strcmp(cmd, "play") || !strcmp(cmd, "genmove")) {
        char colour[16] = "", token[4096] = "";
        sscanf(args, "%15s %4095s", colour, token);
        if (!colour_ok(colour)) return strcpy(out, "illegal move: not that colour's turn"), 0;
        if (!strcmp(cmd, "genmove")) {
            if (choose(out, BIG) != HX_OK) return strcpy(out, "resign"), 1;
            strcpy(token, out);
        }
        if (hx_play(game, token) != HX_OK) return snprintf(out, BIG, "%s", hx_last_error()), 0;
    } else if (!strcmp(cmd, "legal_moves")) {
        if (hx_legal_actions(game, out, BIG, NULL) != HX_OK) return strcpy(out, "too many moves"), 0;
    } else if (!strcmp(cmd, "position")) hx_position(game, out, BIG, NULL);
    else if (!strcmp(cmd, "set_position")) {
        hx_game *g;
        if (hx_game_from_position(args, &g) != HX_OK) return snprintf(out, BIG, "%s", hx_last_error()), 0;
        hx_game_free(game);
        game = g;
        char v[300];
        hx_variant(game, v, sizeof v, NULL);
        sscanf(v, "%31s", gid);
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
    static char line[1 << 16];
    out = malloc(BIG);
    reset("spelde", 6, "");
    while (fgets(line, sizeof line, stdin)) {
        char *p = line, *q = line;
        for (; *p; p++) { /* drop control characters but HT and LF, HT -> space, cut at '#' */
            if (*p == '#') break;
            if (*p == '\t') *q++ = ' ';
            else if ((unsigned char)*p >= 32 && *p != 127) *q++ = (char)tolower((unsigned char)*p);
        }
        *q = 0;
        char *s = line + strspn(line, " ");
        if (!*s) continue;
        char id[24] = "";
        if (isdigit((unsigned char)*s)) { size_t k = strspn(s, "0123456789"); snprintf(id, sizeof id, "%.*s", (int)k, s); s += k + strspn(s + k, " "); }
        char *args = s + strcspn(s, " ");
        if (*args) *args++ = 0;
        args += strspn(args, " ");
        for (char *e = args + strlen(args); e > args && e[-1] == ' '; ) *--e = 0;
        int ok = run(s, args);
        printf("%c%s%s%s\n\n", ok ? '=' : '?', id, *out ? " " : "", out);
        fflush(stdout);
        if (!strcmp(s, "quit")) break;
    }
    hx_game_free(game);
    free(out);
    return 0;
}
