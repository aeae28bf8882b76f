/* Optima's rules inside the engine: what optima_units.c, optima_board.c, optima_movegen.c, optima_play.c,
 * optima_fen.c and optima_main.c share (the unit types' data, the board's geometry and tables, square
 * sets). The rest of the engine sees optima.h only. Each file uses the ones listed before it, never
 * one after it: units, board, movegen, play, fen, then optima_search.c and optima_main.c. */
#ifndef OPTIMA_RULES_H
#define OPTIMA_RULES_H
#include <stdint.h>
#include "optima.h"

/* ------------------------------------------------------------ unit types (optima_units.c) */
enum { P_LEAP, P_SLIDE, P_RIDER, P_FLY, P_FLYHOP, P_SCREEN, P_PLOW, P_BENT, P_DLEAP, P_STOP, P_ZIGZAG,
       P_LEAPCONV, P_SWAPLEAP, P_APPROACH };
enum { W_NONE, W_PROMOTE, W_PROX, W_RIFLE, W_TWO };
#define ORTH 0x0F
#define DIAG 0xF0
#define ALLD 0xFF
typedef struct {
    uint8_t kind, wrap, dirs, vecs;
    int8_t range;                    /* 0: unlimited */
    uint8_t capture, move, slip, run, screens, armor_stops, first, second;
    uint8_t hood, reach, convert, roc;
} Prim;
enum { IM_NO, IM_KNIGHT, IM_ADJ, IM_FORTH, IM_FDIAG, IM_FALL };
enum { KD_PIECE, KD_PAWN, KD_GUARD, KD_WIZARD };
typedef struct {
    const char *tok;
    int np;
    Prim p[4];
    uint8_t shielded, resolute, armored, loyal, immob, kind;
    int value;                       /* centipawns on 10x10 (9x9: VALUES_9X9), fitted to self-play (opponent/
                                        tune.py): the 12 types of the default set from E10, the other 44
                                        from varied forces (--forces, --keep the 12) */
} Unit;


/* the vector sets of the leaps (movers.py) */
enum { LV_W, LV_F, LV_K, LV_N, LV_D, LV_KN, LV_WFNC, LV_K123, LV_K23, LV_K12, LV_FA, LV_WD, LV_NDA, LV_NSETS };
typedef struct { int n; int v[24][2]; } VecSet;
extern VecSet OP_VS[LV_NSETS];
void op_build_vecsets(void);

extern const Unit OP_UNITS[OP_NTYPES + 1];   /* by type code; [0] unused */
#define OP_NUNITS ((int)(sizeof OP_UNITS / sizeof OP_UNITS[0]))   /* OP_NTYPES + 1: codes & OP_TYPE may be larger */
#define OP_WIZARD 48
#define OP_PAWN 29
#define OP_GUARD 30
extern uint8_t OP_DISTINCT[OP_NTYPES + 1];   /* no two plain moves of the type can be equal (optima_units.c) */
void op_build_distinct(void);

/* ------------------------------------------------------------ the board (optima_board.c) */
extern int OP_SIZE;                          /* OP_N * OP_N */
extern int8_t op_file[OP_MAXSQ], op_rank[OP_MAXSQ];
extern int8_t op_rays[OP_MAXSQ][8][10];      /* the squares along each direction, nearest first */
extern uint8_t op_raylen[OP_MAXSQ][8];
extern int8_t op_stepsq[OP_MAXSQ][8];        /* the next square in each direction, -1 off the board */
extern char op_sqname[OP_MAXSQ][8];
extern const int OP_VEC[8][2];               /* N, E, S, W, NE, SE, SW, NW */
extern int8_t op_leaps[LV_NSETS][OP_MAXSQ][24];   /* a vector set's targets from a square */
extern uint8_t op_nleaps[LV_NSETS][OP_MAXSQ];
/* per unsigned code (type | ROYAL), under the options of the current game (O14) */
extern uint8_t op_shielded[128], op_resolute[128], op_armored[128], op_loyal[128], op_immob[128];
extern OOptions OP_OPTS;
extern OBB OP_BOARD, OP_RANK_LAST[2], OP_NEAR_LAST[2], OP_AROUND[OP_MAXSQ], OP_SHIFT_KEEP[8];
extern int OP_SHIFT_BY[8];
extern uint64_t OP_ZK[OP_MAXSQ][256], OP_ZSIDE, OP_ZHAND[2][128][21];
extern int OP_ORDER[128], OP_NORDER;         /* placeable codes in canonical order (token letters, plain before royal) */
void op_build_order(void);
int op_set_size(void);                       /* each side's pieces: 10 (10x10) or 5 (9x9) */
int op_side_at(int kind, int i);             /* who makes placement i (O5): 1 White, -1 Black */

static inline int op_at(int f, int r) {   /* f from 0, r from 1 */
    return (f < 0 || f >= OP_N || r < 1 || r > OP_N) ? -1 : (r - 1) * OP_N + f;
}
static inline uint8_t *op_source(OPos *p, int c) { return p->rkind == RK_EQ ? p->hand[c > 0] : p->hand[1]; }
static inline const uint8_t *op_csource(const OPos *p, int c) { return p->rkind == RK_EQ ? p->hand[c > 0] : p->hand[1]; }

/* ------------------------------------------------------------ square sets */
static inline int bb_has(OBB a, int s) { return (int)(a.w[s >> 6] >> (s & 63)) & 1; }
static inline void bb_set(OBB *a, int s) { a->w[s >> 6] |= 1ULL << (s & 63); }
static inline OBB bb_and(OBB a, OBB b) { a.w[0] &= b.w[0]; a.w[1] &= b.w[1]; return a; }
static inline OBB bb_or(OBB a, OBB b) { a.w[0] |= b.w[0]; a.w[1] |= b.w[1]; return a; }
static inline OBB bb_andnot(OBB a, OBB b) { a.w[0] &= ~b.w[0]; a.w[1] &= ~b.w[1]; return a; }
static inline int bb_any(OBB a) { return (a.w[0] | a.w[1]) != 0; }
static inline int bb_count(OBB a) { return __builtin_popcountll(a.w[0]) + __builtin_popcountll(a.w[1]); }
/* every square of a moved one step in direction d (squares leaving the board drop out) */
static inline OBB bb_step(OBB a, int d) {
    int k = OP_SHIFT_BY[d];
    OBB r;
    if (d == 0 || d == 1 || d == 4 || d == 7) { r.w[1] = a.w[1] << k | a.w[0] >> (64 - k); r.w[0] = a.w[0] << k; }   /* N, E, NE, NW: up */
    else { k = -k; r.w[0] = a.w[0] >> k | a.w[1] << (64 - k); r.w[1] = a.w[1] >> k; }
    return bb_and(r, OP_SHIFT_KEEP[d]);
}
#define OPP_DIR(d) ((d) ^ 2)   /* N<->S, E<->W, NE<->SW, SE<->NW */

/* ------------------------------------------------------------ optima_movegen.c */
void op_freeze_around(const int8_t *b, int q, int c, OBB *f);   /* the units of colour c the immobilizer on q freezes, into f */
#endif
