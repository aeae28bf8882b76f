/* Optima (optima.md O1-O16) in the compiled engine: its own position, move
 * and generator, mirroring src/maxima_board/rules/optima/ (units are data: a unit type is a
 * list of primitive instances with parameters, as src/maxima_board/rules/variants/optima_units.py). */
#ifndef OPTIMA_H
#define OPTIMA_H
#include <stdint.h>
#include "search_api.h"

#define OP_MAXSQ 100
#define OP_MAXCAP 20
#define OP_MAXCONV 10
#define OP_MAXMOVES 1500
#define OP_ROYAL 64
#define OP_TYPE 63
#define OP_NTYPES 56
#define OP_PLACE (-1)
enum { OF_SWAP = 1, OF_PROMOTE = 2, OF_ROYAL = 4 };   /* OF_ROYAL: a royal unit is captured (set by the generator) */
enum { RK_NONE, RK_EQ, RK_U1, RK_U2 };

typedef struct {
    int8_t from, to;          /* from = OP_PLACE for a placement */
    int8_t flags;             /* OF_SWAP | OF_PROMOTE; a placement: unused */
    int8_t value;             /* a placement: the signed board value placed */
    uint8_t ncap, nconv;
    int8_t cap[OP_MAXCAP], conv[OP_MAXCONV];   /* sorted ascending (rank then file) */
} OMove;

typedef struct { int n; OMove m[OP_MAXMOVES]; } OMoveList;

/* a set of squares: bit s % 64 of w[s / 64] */
typedef struct { uint64_t w[2]; } OBB;

typedef struct {
    int8_t b[OP_MAXSQ];
    int8_t side;                   /* 1 White, -1 Black */
    int8_t rkind;                  /* RK_*: RK_NONE in the movement phase */
    int8_t left;                   /* units still to place */
    int ply;
    uint64_t hash;
    OBB occ[2];                    /* the units of each colour [0 Black, 1 White], kept by op_play */
    OBB pawns, guards, immob;      /* pawns, guards and immobilizers (O10) of both colours */
    OBB royals;                    /* royal units of both colours */
    int material;                  /* the board's material (op_value), White's minus Black's */
    uint8_t hand[2][128];          /* counts per unsigned code: [1] White's hand or the pool, [0] Black's hand;
                                      last: the movement phase never reads it, op_pos_copy leaves it out there */
} OPos;
/* q = p, without the hands in the movement phase (the search's copies) */
#include <stddef.h>
#include <string.h>
static inline void op_pos_copy(OPos *q, const OPos *p) {
    if (p->rkind) *q = *p;
    else memcpy(q, p, offsetof(OPos, hand));   /* a constant size: copied inline */
}

typedef struct { uint8_t shp, gna; uint64_t arm; } OOptions;   /* arm: bit per type code */

extern int OP_N;                   /* 10 or 9: the board of the last FEN read */

/* fen.c: a FEN error message into err, printable ASCII only */
void fen_error(char *err, int errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int op_is_variant(const char *name);
void op_select(int n, const OOptions *o);
int op_parse_fen(const char *fen, OPos *p, char *err, int errlen);
void op_format_fen(const OPos *p, char *out);
void op_move_str(const OMove *m, char *out);
int op_parse_move(OPos *p, const char *text, OMove *out);
void op_legal(const OPos *p, OMoveList *l);
/* the number of legal moves of colour c (to move or not); l receives those of them that are not plain
 * (captures, conversions, promotions, swaps), in op_legal's order; frozen: colour c's units frozen (O10,
 * op_frozen) or NULL */
int op_count(const OPos *p, int c, OMoveList *l, const OBB *frozen);
void op_play(OPos *p, const OMove *m);
uint64_t op_perft(OPos *p, int depth);
int op_royals(const OPos *p, int c);
static inline int op_captures_royal(const OPos *p, const OMove *m) {
    (void)p;
    return m->from != OP_PLACE && (m->flags & OF_ROYAL);
}
static inline int op_is_capture(const OMove *m) { return m->from != OP_PLACE && (m->ncap || m->nconv); }
int op_enemies_around(const OPos *p, int s);  /* the enemy units next to the unit on s */
void op_frozen(const OPos *p, OBB fz[2]);    /* the frozen units (O10) of each colour [0 Black, 1 White] */
void op_sync(OPos *p);                       /* the square sets and material from the board */
extern int OP_VALUES[128];                  /* material by unsigned code (type | royal) */
static inline int op_value(int code) { return OP_VALUES[code & 127]; }
void op_select_values(int n);                /* OP_VALUES of the 10x10 or the 9x9 board (op_select does it) */
const char *op_token(int code);              /* the unit type's two letters */
const char *op_start_fen(const char *variant);   /* optima_fen.c: the start position of optima or optima-9x9 */
int op_selfplay_main(int argc, char **argv); /* optima_selfplay.c */
int op_main(int argc, char **argv);         /* optima_main.c: perft / moves / children / bench / search / values / check */

/* optima_search.c (its UCI game: UCI_OPTIMA, search_api.h) */
void op_search_go(OPos *root, const uint64_t *hist, int nhist, const GoParams *gp, OMove *best, int *found,
                  int silent);
long long op_search_nodes(void);
#endif
