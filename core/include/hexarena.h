/* hexarena.h: the rules of the hexarena games (anda, anda-prison, spelde, vaxandis,
 * marbanta) for engine authors in C. API version 1.1 (docs/engines.md, "Versions").
 *
 * Build the library:  cargo build --release --features capi   (in core/)
 *   static: target/release/libhexarena_core.a  (link also -lpthread -ldl -lm)
 *   shared: target/release/libhexarena_core.so
 *
 * Memory: an hx_game handle is made by the library (hx_game_new, hx_game_from_position,
 * hx_game_clone) and owned by the caller until hx_game_free. Text comes back in buffers
 * the caller owns: `buf` of `cap` bytes receives the text and a NUL when it fits, else the
 * call returns HX_ERR_BUFFER; `needed` (may be NULL) receives the bytes the text needs,
 * NUL included, either way. hx_api_version and hx_last_error return strings the library
 * owns (hx_last_error's until the next call on the same thread).
 *
 * Errors: every call returns an hx_status, HX_OK (0) on success; otherwise
 * hx_last_error() says why (as errno: a call that succeeds leaves it as it was, so read it
 * only after a status other than HX_OK). A panic inside the library becomes HX_ERR_PANIC.
 * A call made after the calling thread's thread-locals are destroyed (from an atexit
 * handler or a pthread key's destructor) still returns its status; its message is lost
 * (hx_last_error() then gives "").
 *
 * Threads: calls that only read a handle (those taking `const hx_game *`) may be made on
 * one handle from several threads at once; a call that changes it (taking `hx_game *`:
 * hx_play, hx_random_playout, hx_game_free) needs it alone, with no other call on that
 * handle meanwhile. Different handles are independent.
 *
 * Sites are bits: row * 2n + column, counted from 0 (a1 is 0; a padded row-major board, so
 * some bits between the rows' ends name no cell: hx_site_name refuses them).
 */
#ifndef HEXARENA_H
#define HEXARENA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HX_API_VERSION "1.1"

typedef int hx_status;
#define HX_OK 0
#define HX_ERR_UNKNOWN_GAME 1
#define HX_ERR_UNKNOWN_VARIANT 2
#define HX_ERR_UNACCEPTABLE_SIZE 3
#define HX_ERR_INVALID_POSITION 4
#define HX_ERR_SYNTAX 5
#define HX_ERR_ILLEGAL 6
#define HX_ERR_TOO_MANY 7
#define HX_ERR_BUFFER 8
#define HX_ERR_ARGUMENT 9
#define HX_ERR_PANIC 10
#define HX_ERR_GAME_OVER 11

/* An opaque game state. */
typedef struct hx_game hx_game;

/* The API version, "1.1". */
const char *hx_api_version(void);
/* The message of the last error on this thread ("" before the first): meaningful after a
 * call that returned a status other than HX_OK. */
const char *hx_last_error(void);

/* A new game: id ("anda", ...), board side 2..13, variant as HGP `game` arguments
 * ("" or NULL for the defaults, "nopie opening=cells"), the komi setting. */
hx_status hx_game_new(const char *game_id, int size, const char *variant, uint32_t komi, hx_game **out);
/* The game a position string describes (HGP set_position). */
hx_status hx_game_from_position(const char *position, hx_game **out);
hx_status hx_game_clone(const hx_game *g, hx_game **out);
/* Frees a handle; NULL is ignored. */
void hx_game_free(hx_game *g);

/* 0 black, 1 white. */
hx_status hx_to_move(const hx_game *g, int *colour);
/* Actions played since the start (the position's ply). */
hx_status hx_ply(const hx_game *g, uint32_t *ply);
/* *over 1 when the game is over; *winner 0, 1, or -1 (a draw, or not over). */
hx_status hx_outcome(const hx_game *g, int *over, int *winner);
/* HGP final_score: "B+", "W+", "B+2.5", "0"; HX_ERR_ILLEGAL while the game goes on. */
hx_status hx_final_score(const hx_game *g, char *buf, size_t cap, size_t *needed);
/* Every legal action as canonical tokens separated by spaces (HGP legal_moves);
 * HX_ERR_TOO_MANY over 100000 actions or over 1,000,000 bytes of text (Spelde's flip sets),
 * as HGP's `too many moves`: a buffer of 1,000,001 bytes always holds a listing. */
hx_status hx_legal_actions(const hx_game *g, char *buf, size_t cap, size_t *needed);
/* The sites of single placements (HGP legal_cells) into sites[0..cap); *count their number. */
hx_status hx_legal_cells(const hx_game *g, uint16_t *sites, size_t cap, size_t *count);
/* A site's name ("e5"); HX_ERR_ARGUMENT for a bit that is not a site of the board. */
hx_status hx_site_name(const hx_game *g, uint16_t site, char *buf, size_t cap, size_t *needed);
/* HX_OK when the rules allow the action now, else HX_ERR_SYNTAX or HX_ERR_ILLEGAL. */
hx_status hx_check(const hx_game *g, const char *token);
/* Plays an action for the side to move; on a refusal the game is unchanged. */
hx_status hx_play(hx_game *g, const char *token);
/* A random legal action (seeded); HX_ERR_GAME_OVER when there is none. */
hx_status hx_random_action(const hx_game *g, uint64_t seed, char *buf, size_t cap, size_t *needed);
/* Random actions to the end or ply_cap plies; *winner 0, 1 or -1. */
hx_status hx_random_playout(hx_game *g, uint32_t ply_cap, uint64_t seed, int *winner);
/* The canonical position string (HGP position). */
hx_status hx_position(const hx_game *g, char *buf, size_t cap, size_t *needed);
/* HGP `game` without arguments: "ID BALANCE [OPTION=VALUE ...]". */
hx_status hx_variant(const hx_game *g, char *buf, size_t cap, size_t *needed);

#ifdef __cplusplus
}
#endif

#endif /* HEXARENA_H */
