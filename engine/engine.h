/* maxima-engine: a compiled player of the Ultima family (Maxima, Ultima,
 * Deckle's games). Rules identical to the Python engine (engine/). */
#ifndef MAXIMA_ENGINE_H
#define MAXIMA_ENGINE_H
#include <stdint.h>
#include <stdio.h>
#include "search_api.h"

#define MAXSQ 100
#define MAXRAY 11
#define MAXCAP 12
#define MAXMOVES 640
#define MAXTYPES 16

/* directions: N E S W NE SE SW NW (as src/maxima_board/rules/geometry.py) */
enum { DN, DE, DS, DW, DNE, DSE, DSW, DNW };
extern const int OPP[8];

/* move kinds (src/maxima_board/rules/pieces.py) */
enum { K_PLAIN = 0, K_CASTLE = 1, K_SWAP = 2, K_PROMOTE = 3, K_EP = 4 };

/* primitives and capture effects */
enum { PR_LEAP, PR_SLIDE, PR_LEAPSLIDE, PR_MAGE, PR_PAWN, PR_IMIT, PR_SWAP, PR_DESTRUCT, PR_MIMIC };
enum { EF_WITHDRAW = 1, EF_APPROACH = 2, EF_CUSTODIAN = 4, EF_COORD = 8 };
enum { LT_KING, LT_KNIGHT, LT_KNIGHT_WRAP, LT_N };
enum { IM_NONE, IM_STEP, IM_CUSTODIAN, IM_WITHDRAWAL, IM_COORDINATION, IM_LEAPING };
enum { FAM_MAXIMA, FAM_ULTIMA, FAM_DECKLE };
/* the evaluation terms beyond material (eval.c, "evaluation terms"; weights in terms.h): the UCI option
 * EvalTerms masks them (1 placement, 2 the mobility of the kinds the slider mobility skips, 4 King and
 * palace safety) */
enum { ET_PLACE = 1, ET_MOBILITY = 2, ET_SAFETY = 4, ET_ALL = 7,
       ET_UNCHECKED = 8,   /* also the terms whose check match has not shown a gain (kept_terms.h) */
       ET_MAX = 15 };
/* the safety terms: own pieces next to the own King, enemy pieces two squares from it, enemy freezers
 * within two squares of it; Maxima: own pieces next to the own goal squares, enemy pieces two squares from them */
enum { TS_SHIELD, TS_NEAR2, TS_FREEZER, TS_GOALDEF, TS_GOAL2, NSAFETY };

typedef struct { uint8_t kind, dirs, replace, effects, leaptab; } Prim;

typedef struct {
    char letter;
    const char *name;
    int nprim;
    Prim prim[3];
    uint8_t royal, freezer, freezes_freezer, never_frozen, pawn;
    uint8_t imitated;
    int nmimic;
    Prim mimic[1];
    int value;      /* material in centipawns (evaluation) */
} PType;

typedef struct {
    int files, min_rank, max_rank, size;
    char names[MAXSQ][5];
    int8_t file_of[MAXSQ], rank_of[MAXSQ];
    int8_t at[10][12];                /* [file][rank - min_rank] */
    int8_t rays[MAXSQ][8][MAXRAY];
    uint8_t raylen[MAXSQ][8];
    int8_t step[MAXSQ][8];
    int8_t nb[MAXSQ][8];
    uint8_t nnb[MAXSQ];
    int8_t dir[MAXSQ][MAXSQ];         /* direction s->t on a common line, else -1 */
    int8_t dist[MAXSQ][MAXSQ];
    uint8_t adj[MAXSQ][MAXSQ];
} Geo;

typedef struct {
    const char *name;
    int family;
    int deckle_ranks;       /* 10 or 8 for Deckle */
    char added;             /* Deckle's added piece letter */
} VariantDef;

typedef struct {
    const VariantDef *def;
    int family;
    Geo g;
    int ntypes;                   /* types 1..ntypes */
    PType t[MAXTYPES];
    int palace;
    int goals[3][2];              /* [c+1] */
    int suicide, pure, chameleon_pure, castling, en_passant, pawn_advance, swap_ban;
    int stalemate_mover_wins, bare_king, fifty, repetition, insufficient;
    int npromo; int promo[6];
    int king, pawn, rook, swapper;       /* type indices (0 = none) */
    int pawn_end;                 /* the Pawn's value with no other piece but Kings left (values.h 'P'); 0: one value all game */
    int pawn_run;                 /* the bonus then of a Pawn one step from promotion (values.h 'A'; eval.c, pawn_phase) */
    int phase_pieces;             /* the pieces other than Pawns and Kings at the start (the game phase's scale) */
    int nfreezers;
    int w_place[MAXTYPES], w_mob[MAXTYPES], w_safety[NSAFETY];   /* the evaluation terms' weights (terms.h) */
    int kept_terms;     /* the ET_ groups a check match kept for the game's family (kept_terms.h) */
    uint8_t freezer[MAXTYPES], freezes_freezer[MAXTYPES], neutralizer[MAXTYPES], never_frozen[MAXTYPES];
    uint8_t step_victim[MAXTYPES];
    int im_custodian, im_withdrawal, im_coordination, im_leaping;
    int8_t leaps[LT_N][MAXSQ][8]; uint8_t nleaps[LT_N][MAXSQ];
    uint8_t isleap[LT_N][MAXSQ][MAXSQ];
    int8_t pawn_step[3][MAXSQ];
    int8_t pawn_caps[3][MAXSQ][2]; uint8_t npawn_caps[3][MAXSQ];
    uint8_t second_rank[3][MAXSQ], last_rank[3][MAXSQ], end_rank[MAXSQ];
    const char *start_fen;
    char start_buf[160];
    /* castling: [c+1][side 0=king,1=queen] */
    int cs_bit[3][2], cs_kf[3][2], cs_kt[3][2], cs_rf[3][2], cs_rt[3][2];
    int cs_empty[3][2][4], cs_nempty[3][2], cs_safe[3][2][3], cs_nsafe[3][2];
} Variant;

typedef struct {
    int8_t from, to;
    uint8_t kind;
    int8_t arg;             /* promotion type; castle: rook from */
    int8_t arg2;            /* castle: rook to */
    uint8_t ncap;
    int8_t cap[MAXCAP];
} Move;

typedef struct { int n; Move m[MAXMOVES]; } MoveList;

typedef struct {
    int8_t b[MAXSQ];
    int8_t side;            /* 1 White, -1 Black */
    int8_t king[3];         /* [c+1] */
    uint8_t castling;
    uint8_t nep;
    int8_t ep[3];
    int8_t ban0, ban1;      /* swap-back ban, -1 none */
    int halfmove, fullmove, ply;
    uint64_t hash;
    uint64_t occ[2][2];     /* occupied squares [colour: 0 Black, 1 White][square / 64], kept by make_board */
    uint64_t frz[2];        /* the squares of freezers (Immobilizers) of both colours [square / 64], kept likewise */
} Pos;

/* the number of set bits of each byte of x */
static inline uint64_t byte_pop(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    return (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
}
/* the number of set bits (without a population-count instruction, gcc calls a library function) */
static inline int popcount64(uint64_t x) {
#if defined(__POPCNT__) || defined(__aarch64__)
    return __builtin_popcountll(x);
#else
    return (int)((byte_pop(x) * 0x0101010101010101ULL) >> 56);
#endif
}
static inline int piece_count(const Pos *p, int ci) {
    if (ci == 2) return popcount64(p->occ[0][0] | p->occ[1][0]) + popcount64(p->occ[0][1] | p->occ[1][1]);
    return popcount64(p->occ[ci][0]) + popcount64(p->occ[ci][1]);
}

extern Variant V;
extern const VariantDef VARIANTS[];
extern const int NVARIANTS;

static inline void set_square(Pos *p, int s, int v) {
    int old = p->b[s];
    uint64_t bit = 1ULL << (s & 63);
    if (old) { p->occ[old > 0][s >> 6] &= ~bit; p->frz[s >> 6] &= ~bit; }
    if (v) {
        p->occ[v > 0][s >> 6] |= bit;
        if (V.freezer[v > 0 ? v : -v]) p->frz[s >> 6] |= bit;
    }
    p->b[s] = (int8_t)v;
}
void sync_occupancy(Pos *p);

/* variants.c */
extern const char *const SAFETY_TERMS[NSAFETY];
int select_variant(const char *name);
const VariantDef *find_variant(const char *name);

/* movegen.c */
int mobile(const Pos *p, int x, int a);
int frozen_mask(const Pos *p, int c, uint64_t *fz);
void frozen_masks(const Pos *p, uint64_t fz[2][2]);   /* both colours: [colour index] */
void frozen_note(const Pos *p, const uint64_t fz[2][2]);   /* evaluate's masks, for capture_moves */
void movegen_prepare(void);
void pseudo_moves(const Pos *p, int c, MoveList *out);
void capture_moves(Pos *p, MoveList *out);
void legal_moves(Pos *p, MoveList *out);
int count_legal(Pos *p);
void candidates(Pos *p, MoveList *l);      /* pseudo-legal + castling, en passant, swap ban */
int legal_after(const Pos *q, int c);
int legal_prepare(const Pos *p, uint8_t *z);
int move_legal(const Pos *p, const Move *m, int have_z, const uint8_t *z, const Pos *after);      /* c just moved into q: is it legal */
int attacked(const Pos *p, int a, int k);
int attacks(const Pos *p, int a);
int in_check(const Pos *p);
void make_board(Pos *p, const Move *m);
void play(Pos *p, const Move *m);           /* full make: state, counters, hash */
uint64_t perft(Pos *p, int depth);
uint64_t compute_hash(const Pos *p);
void init_zobrist(void);
int palace_held(const Pos *p, int owner, int holder);

/* fen.c */
int parse_fen(const char *fen, Pos *p, char *err, int errlen);
void format_fen(const Pos *p, char *out);
void move_str(const Move *m, char *out);
int parse_move_legal(Pos *p, const char *text, Move *out);
void sort_move_strings(MoveList *l, char (*strs)[64], int *n);

/* eval.c (eval.h: what the search uses) */
extern int eval_terms;           /* EvalTerms: the ET_ terms evaluate() adds (default ET_ALL: those kept) */
int eval_term_features(const Pos *p, int *f);   /* the terms' columns, White's minus Black's; returns their number */
const char *eval_term_name(int i, char *buf);    /* column i's name (place.LETTER, mob.LETTER, a safety term's) */
int eval_term_weight(int i);                     /* column i's weight in this build (0 when EvalTerms masks it) */
void pawn_phase_counts(const Pos *p, const uint64_t fz[2][2], int *pieces, int *pawns2, int *run2);

/* search.c */
void search_init(int hash_mb);
void search_clear(void);
void search_go(Pos *root, const uint64_t *hist, int nhist, const GoParams *gp, Move *best, int *found);
int evaluate(const Pos *p);      /* the side to move's view, with the tempo bonus and the levels' noise */
int static_eval(const Pos *p);   /* White's view, without the tempo bonus and the levels' noise */
long long search_nodes(void);
extern int search_silent;
int game_end(Pos *p, double *white_score);
int selfplay_main(int argc, char **argv);
int terminal_score(Pos *p, int nlegal, int ply, int *is_terminal);
#endif
