/* Optima's rules in the compiled engine (optima.md O1-O16), written from
 * engine/optima/ (the reference): geometry, the 56 unit types as data built
 * from primitives (movers.py, effects.py), immobilization (O10), conversion
 * (O11), placement (O5), make, perft, FEN (O15) and canonical moves. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <ctype.h>
#include "optima.h"

int OP_N = 10;
static int SIZE = 100;
static int8_t file_of[OP_MAXSQ], rank_of[OP_MAXSQ];
static int8_t rays[OP_MAXSQ][8][10];
static uint8_t raylen[OP_MAXSQ][8];
static int8_t stepsq[OP_MAXSQ][8];
static char names[OP_MAXSQ][8];
static const int VEC[8][2] = {{0,1},{1,0},{0,-1},{-1,0},{1,1},{1,-1},{-1,-1},{-1,1}};

/* ------------------------------------------------------------ vector sets (movers.py) */
enum { LV_W, LV_F, LV_K, LV_N, LV_D, LV_KN, LV_WFNC, LV_K123, LV_K23, LV_K12, LV_FA, LV_WD, LV_NDA, LV_NSETS };
typedef struct { int n; int v[24][2]; } VecSet;
static VecSet VS[LV_NSETS];
static int8_t leaps[LV_NSETS][OP_MAXSQ][24];
static uint8_t nleaps[LV_NSETS][OP_MAXSQ];

static const int W_[4][2] = {{0,1},{1,0},{0,-1},{-1,0}};
static const int F_[4][2] = {{1,1},{1,-1},{-1,-1},{-1,1}};
static const int N_[8][2] = {{1,2},{2,1},{2,-1},{1,-2},{-1,-2},{-2,-1},{-2,1},{-1,2}};
static const int C_[8][2] = {{1,3},{3,1},{3,-1},{1,-3},{-1,-3},{-3,-1},{-3,1},{-1,3}};

static void vs_add(VecSet *s, const int (*v)[2], int n, int k) {
    for (int i = 0; i < n; i++) { s->v[s->n][0] = k * v[i][0]; s->v[s->n][1] = k * v[i][1]; s->n++; }
}
static void build_vecsets(void) {
    memset(VS, 0, sizeof VS);
    vs_add(&VS[LV_W], W_, 4, 1);
    vs_add(&VS[LV_F], F_, 4, 1);
    vs_add(&VS[LV_K], W_, 4, 1); vs_add(&VS[LV_K], F_, 4, 1);
    vs_add(&VS[LV_N], N_, 8, 1);
    vs_add(&VS[LV_D], W_, 4, 2);
    vs_add(&VS[LV_KN], W_, 4, 1); vs_add(&VS[LV_KN], F_, 4, 1); vs_add(&VS[LV_KN], N_, 8, 1);
    vs_add(&VS[LV_WFNC], W_, 4, 1); vs_add(&VS[LV_WFNC], F_, 4, 1); vs_add(&VS[LV_WFNC], N_, 8, 1);
    vs_add(&VS[LV_WFNC], C_, 8, 1);
    for (int k = 1; k <= 3; k++) { vs_add(&VS[LV_K123], W_, 4, k); vs_add(&VS[LV_K123], F_, 4, k); }
    for (int k = 2; k <= 3; k++) { vs_add(&VS[LV_K23], W_, 4, k); vs_add(&VS[LV_K23], F_, 4, k); }
    for (int k = 1; k <= 2; k++) { vs_add(&VS[LV_K12], W_, 4, k); vs_add(&VS[LV_K12], F_, 4, k); }
    vs_add(&VS[LV_FA], F_, 4, 1); vs_add(&VS[LV_FA], F_, 4, 2);
    vs_add(&VS[LV_WD], W_, 4, 1); vs_add(&VS[LV_WD], W_, 4, 2);
    vs_add(&VS[LV_NDA], N_, 8, 1); vs_add(&VS[LV_NDA], W_, 4, 2); vs_add(&VS[LV_NDA], F_, 4, 2);
}

static inline int at(int f, int r) {   /* f from 0, r from 1 */
    return (f < 0 || f >= OP_N || r < 1 || r > OP_N) ? -1 : (r - 1) * OP_N + f;
}

/* ------------------------------------------------------------ primitives */
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

/* primitive constructors (parameters as in engine/variants/optima.py) */
#define LEAP(vs) {.kind = P_LEAP, .vecs = vs, .capture = 1, .move = 1}
#define LEAPM(vs) {.kind = P_LEAP, .vecs = vs, .capture = 0, .move = 1}        /* capture=False */
#define LEAPC(vs) {.kind = P_LEAP, .vecs = vs, .capture = 1, .move = 0}        /* move=False */
#define SLIDE(d, r) {.kind = P_SLIDE, .dirs = d, .range = r, .capture = 1}
#define SLIDEM(d, r) {.kind = P_SLIDE, .dirs = d, .range = r, .capture = 0}
#define RIDER(vs, sl) {.kind = P_RIDER, .vecs = vs, .capture = 1, .slip = sl}
#define FLY(d) {.kind = P_FLY, .dirs = d}
#define FLYHOP(d, r) {.kind = P_FLYHOP, .dirs = d, .run = r}
#define SCREEN(d, m) {.kind = P_SCREEN, .dirs = d, .screens = m}
#define PLOW(d, r, a) {.kind = P_PLOW, .dirs = d, .range = r, .armor_stops = a}
#define BENT(d, f, s) {.kind = P_BENT, .dirs = d, .first = f, .second = s, .capture = 1}
#define DLEAP(vs) {.kind = P_DLEAP, .vecs = vs, .capture = 1}
#define LEAPCONV(d) {.kind = P_LEAPCONV, .dirs = d}
#define SWAPLEAP(vs, m) {.kind = P_SWAPLEAP, .vecs = vs, .move = m}
#define APPROACH(d, r) {.kind = P_APPROACH, .dirs = d, .range = r}
#define ZIGZAG(d) {.kind = P_ZIGZAG, .dirs = d, .capture = 1}
/* wrapped primitives */
#define PROX_LEAPM(vs) {.kind = P_LEAP, .vecs = vs, .move = 1, .wrap = W_PROX, .hood = ALLD}
#define PROX_STOP(d, r) {.kind = P_STOP, .dirs = d, .range = r, .wrap = W_PROX, .hood = ALLD}
#define PROX_SLIDE(d, h) {.kind = P_SLIDE, .dirs = d, .capture = 1, .wrap = W_PROX, .hood = h}
#define RIFLE_SLIDE(d, r) {.kind = P_SLIDE, .dirs = d, .range = r, .capture = 1, .wrap = W_RIFLE}
#define RIFLE_LEAP(vs) {.kind = P_LEAP, .vecs = vs, .capture = 1, .move = 1, .wrap = W_RIFLE}
#define TWO_SLIDE(d, r) {.kind = P_SLIDE, .dirs = d, .range = r, .capture = 1, .wrap = W_TWO}
#define TWO_LEAP(vs) {.kind = P_LEAP, .vecs = vs, .capture = 1, .move = 1, .wrap = W_TWO, .roc = 1}

static const Unit UNITS[OP_NTYPES + 1] = {
    [0] = {"??", 0, {{0}}, 0, 0, 0, 0, 0, 0, 0},
    /* Section A */
    [1] = {"CE", 3, {LEAP(LV_N), SLIDE(DIAG, 0), LEAP(LV_W)}, 0, 1, 0, 0, IM_NO, KD_PIECE, 622},
    [2] = {"HE", 1, {LEAP(LV_K123)}, 0, 1, 0, 0, IM_NO, KD_PIECE, 692},
    [3] = {"MA", 3, {SLIDE(ORTH, 0), LEAP(LV_N), LEAP(LV_F)}, 1, 0, 0, 0, IM_NO, KD_PIECE, 642},
    [4] = {"MY", 1, {LEAP(LV_WFNC)}, 1, 0, 0, 0, IM_NO, KD_PIECE, 584},
    [5] = {"NO", 1, {RIDER(LV_NDA, 0)}, 0, 1, 0, 0, IM_NO, KD_PIECE, 825},
    [6] = {"PR", 2, {LEAP(LV_N), SLIDE(ALLD, 3)}, 0, 0, 0, 1, IM_NO, KD_PIECE, 483},
    [7] = {"QU", 1, {SLIDE(ALLD, 0)}, 0, 0, 0, 1, IM_NO, KD_PIECE, 822},
    [8] = {"BS", 3, {LEAP(LV_F), RIDER(LV_D, 0), RIDER(LV_D, 2)}, 1, 0, 0, 0, IM_NO, KD_PIECE, 290},
    [9] = {"JU", 1, {PLOW(ALLD, 3, 0)}, 0, 1, 0, 0, IM_NO, KD_PIECE, 655},
    [10] = {"LE", 1, {PLOW(ORTH, 0, 1)}, 0, 0, 0, 0, IM_NO, KD_PIECE, 855},
    [11] = {"PH", 2, {PLOW(DIAG, 0, 1), LEAP(LV_W)}, 0, 0, 0, 0, IM_NO, KD_PIECE, 575},
    [12] = {"DA", 2, {SLIDE(ALLD, 0), SCREEN(ALLD, 2)}, 0, 0, 0, 1, IM_NO, KD_PIECE, 914},
    [13] = {"DE", 3, {FLY(DIAG), LEAP(LV_W), SCREEN(DIAG, 3)}, 0, 0, 0, 0, IM_NO, KD_PIECE, 359},
    [14] = {"PA", 2, {FLY(ORTH), SCREEN(ORTH, 3)}, 0, 0, 0, 0, IM_NO, KD_PIECE, 501},
    [15] = {"GE", 3, {FLY(ALLD), SCREEN(ALLD, 2), LEAPC(LV_K)}, 1, 0, 0, 0, IM_NO, KD_PIECE, 933},
    [16] = {"FA", 1, {FLYHOP(ALLD, 1)}, 0, 1, 0, 0, IM_NO, KD_PIECE, 784},
    [17] = {"KI", 3, {FLYHOP(DIAG, 0), LEAPM(LV_W), LEAPC(LV_K)}, 0, 0, 0, 0, IM_NO, KD_PIECE, 516},
    [18] = {"OW", 2, {FLYHOP(ORTH, 0), LEAPC(LV_K)}, 0, 0, 0, 0, IM_NO, KD_PIECE, 573},
    [19] = {"TO", 1, {BENT(ORTH, 0, 0)}, 0, 0, 0, 0, IM_NO, KD_PIECE, 786},
    [20] = {"PT", 2, {BENT(DIAG, 0, 0), LEAP(LV_W)}, 0, 0, 0, 0, IM_NO, KD_PIECE, 657},
    [21] = {"BT", 3, {SLIDE(ORTH, 0), BENT(ORTH, 1, 0), BENT(ORTH, 0, 1)}, 0, 0, 0, 0, IM_NO, KD_PIECE, 743},
    [22] = {"PL", 4, {SLIDE(DIAG, 0), BENT(DIAG, 1, 0), BENT(DIAG, 0, 1), LEAP(LV_W)}, 0, 0, 0, 0, IM_NO, KD_PIECE, 583},
    [23] = {"CV", 2, {LEAP(LV_N), DLEAP(LV_N)}, 0, 0, 0, 0, IM_NO, KD_PIECE, 467},
    [24] = {"BA", 1, {LEAP(LV_KN)}, 0, 0, 0, 0, IM_KNIGHT, KD_PIECE, 670},
    [25] = {"CH", 1, {SLIDE(ORTH, 0)}, 0, 0, 0, 0, IM_FORTH, KD_PIECE, 1039},
    [26] = {"CY", 2, {SLIDE(DIAG, 0), LEAPM(LV_W)}, 0, 0, 0, 0, IM_FDIAG, KD_PIECE, 672},
    [27] = {"GO", 1, {SLIDEM(ALLD, 0)}, 0, 0, 0, 0, IM_FALL, KD_PIECE, 1221},
    [28] = {"ME", 2, {SLIDEM(ALLD, 0), LEAPC(LV_K12)}, 0, 0, 0, 0, IM_ADJ, KD_PIECE, 992},
    [29] = {"PN", 2, {{.kind = P_SLIDE, .dirs = ORTH, .range = 2, .capture = 0, .wrap = W_PROMOTE},
                      {.kind = P_LEAP, .vecs = LV_F, .capture = 1, .move = 0, .wrap = W_PROMOTE}},
            0, 0, 0, 0, IM_NO, KD_PAWN, 131},
    [30] = {"GD", 1, {SLIDE(ALLD, 2)}, 0, 0, 1, 0, IM_NO, KD_GUARD, 185},
    /* Section B */
    [31] = {"CM", 1, {TWO_SLIDE(ORTH, 2)}, 0, 0, 0, 1, IM_NO, KD_PIECE, 557},
    [32] = {"MI", 2, {TWO_SLIDE(DIAG, 2), LEAP(LV_W)}, 0, 0, 0, 1, IM_NO, KD_PIECE, 513},
    [33] = {"VR", 1, {TWO_LEAP(LV_K)}, 0, 0, 0, 0, IM_NO, KD_PIECE, 270},
    [34] = {"RA", 1, {ZIGZAG(ORTH)}, 0, 0, 0, 0, IM_NO, KD_PIECE, 588},
    [35] = {"SC", 2, {LEAP(LV_W), ZIGZAG(DIAG)}, 0, 1, 0, 0, IM_NO, KD_PIECE, 533},
    [36] = {"CP", 2, {LEAPM(LV_W), PROX_LEAPM(LV_FA)}, 0, 0, 0, 0, IM_NO, KD_PIECE, 697},
    [37] = {"CG", 1, {PROX_LEAPM(LV_N)}, 0, 0, 0, 0, IM_NO, KD_PIECE, 363},
    [38] = {"DR", 1, {PROX_LEAPM(LV_WD)}, 0, 0, 0, 0, IM_NO, KD_PIECE, 647},
    [39] = {"CT", 1, {PROX_STOP(ORTH, 0)}, 0, 0, 0, 0, IM_NO, KD_PIECE, 593},
    [40] = {"RE", 1, {PROX_STOP(ALLD, 3)}, 0, 0, 0, 0, IM_NO, KD_PIECE, 902},
    [41] = {"IN", 2, {PROX_STOP(DIAG, 0), LEAPM(LV_W)}, 0, 0, 0, 0, IM_NO, KD_PIECE, 717},
    [42] = {"FR", 1, {PROX_SLIDE(ORTH, ORTH)}, 0, 0, 0, 0, IM_NO, KD_PIECE, 724},
    [43] = {"SL", 2, {PROX_SLIDE(DIAG, DIAG), LEAP(LV_W)}, 0, 0, 0, 0, IM_NO, KD_PIECE, 439},
    [44] = {"AR", 2, {SLIDE(ALLD, 3), RIFLE_SLIDE(ALLD, 3)}, 0, 0, 0, 0, IM_NO, KD_PIECE, 623},
    [45] = {"LA", 2, {LEAP(LV_KN), RIFLE_LEAP(LV_KN)}, 0, 0, 0, 0, IM_NO, KD_PIECE, 530},
    [46] = {"SP", 2, {SLIDE(ORTH, 0), RIFLE_SLIDE(ORTH, 0)}, 0, 0, 0, 0, IM_NO, KD_PIECE, 451},
    [47] = {"SW", 3, {LEAP(LV_W), SLIDE(DIAG, 0), RIFLE_SLIDE(DIAG, 0)}, 0, 0, 0, 0, IM_NO, KD_PIECE, 543},
    [48] = {"WI", 1, {{.kind = P_SLIDE, .dirs = ALLD, .capture = 1, .wrap = W_PROX, .hood = ALLD, .reach = 1}},
            0, 0, 0, 0, IM_ADJ, KD_WIZARD, 1015},
    [49] = {"AG", 3, {SLIDEM(DIAG, 0), LEAPM(LV_W), LEAPCONV(DIAG)}, 0, 0, 0, 0, IM_NO, KD_PIECE, 508},
    [50] = {"SY", 2, {SLIDEM(ORTH, 0), LEAPCONV(ORTH)}, 0, 0, 0, 0, IM_NO, KD_PIECE, 564},
    [51] = {"AM", 1, {SWAPLEAP(LV_K23, 1)}, 0, 0, 0, 0, IM_NO, KD_PIECE, 477},
    [52] = {"CR", 1, {SWAPLEAP(LV_KN, 1)}, 0, 0, 0, 0, IM_NO, KD_PIECE, 477},
    [53] = {"KE", 3, {LEAPM(LV_F), APPROACH(ORTH, 0), SWAPLEAP(LV_W, 0)}, 0, 0, 0, 0, IM_NO, KD_PIECE, 765},
    [54] = {"VI", 3, {LEAPM(LV_W), APPROACH(DIAG, 0), SWAPLEAP(LV_F, 0)}, 0, 0, 0, 0, IM_NO, KD_PIECE, 376},
    [55] = {"DI", 1, {APPROACH(ALLD, 3)}, 0, 0, 0, 0, IM_NO, KD_PIECE, 679},
    [56] = {"EN", 2, {SLIDEM(DIAG, 2),
                      {.kind = P_SLIDE, .dirs = ORTH, .range = 2, .capture = 0, .wrap = W_PROX, .hood = ALLD,
                       .reach = 1, .convert = 1}}, 0, 0, 0, 0, IM_NO, KD_PIECE, 612},
};
#define NUNITS ((int)(sizeof UNITS / sizeof UNITS[0]))   /* OP_NTYPES + 1: codes & OP_TYPE may be larger */
_Static_assert(sizeof UNITS / sizeof UNITS[0] == OP_NTYPES + 1, "UNITS: one entry per type code, 0 unused");
#define WIZARD 48
#define PAWN 29
#define GUARD 30

/* DISTINCT[type]: no two plain moves (O6) of a unit of this type can ever be equal, so counting them
 * needs no marks: each primitive's plain targets are distinct (a leap's vectors, a line's squares) and
 * no two primitives can reach the same square (checked on an open board from a central square) */
static uint8_t DISTINCT[OP_NTYPES + 1];
static void build_distinct(void) {
    for (int ty = 1; ty <= OP_NTYPES; ty++) {
        const Unit *u = &UNITS[ty];
        int ok = 1;
        uint8_t reach[4][21][21];           /* [primitive][file + 10][rank + 10]: a plain move's target */
        memset(reach, 0, sizeof reach);
        for (int i = 0; i < u->np && ok; i++) {
            const Prim *p = &u->p[i];
            if (p->wrap == W_TWO) { ok = 0; break; }
            if (p->wrap == W_RIFLE) continue;                      /* shots only */
            switch (p->kind) {
            case P_LEAP: case P_SWAPLEAP:
                if (p->kind == P_LEAP && !p->move) break;          /* captures only */
                for (int j = 0; j < VS[p->vecs].n; j++) reach[i][VS[p->vecs].v[j][0] + 10][VS[p->vecs].v[j][1] + 10] = 1;
                break;
            case P_SLIDE: case P_FLY: case P_FLYHOP: case P_PLOW: case P_STOP: case P_APPROACH:
                for (int d = 0; d < 8; d++) {
                    if (!(p->dirs >> d & 1)) continue;
                    for (int k = 1; k <= (p->range ? p->range : 9); k++) reach[i][VEC[d][0] * k + 10][VEC[d][1] * k + 10] = 1;
                }
                break;
            case P_SCREEN: case P_LEAPCONV: break;                 /* never plain */
            default: ok = 0;                                       /* riders, bent paths, double leaps, zig-zags */
            }
        }
        for (int i = 0; i < u->np && ok; i++)
            for (int j = i + 1; j < u->np && ok; j++)
                for (int f = 0; f < 21 && ok; f++) for (int r = 0; r < 21; r++) if (reach[i][f][r] && reach[j][f][r]) { ok = 0; break; }
        DISTINCT[ty] = (uint8_t)ok;
    }
}

/* per unsigned code (type | ROYAL), under the options of the current game (O14) */
static uint8_t A_shielded[128], A_resolute[128], A_armored[128], A_loyal[128], A_immob[128];
static OOptions OPTS;
static int geo_n;
/* the 9x9 board's own values (optima-9x9), by token, over UNITS' (10x10) values: all 56 fitted to
 * self-play on 9x9 from varied forces (opponent/tune.py --forces; docs/opponent-engine.md, Optima) */
static const struct { const char *tok; int value; } VALUES_9X9[] = {
    {"CE", 702},
    {"HE", 654},
    {"MA", 656},
    {"MY", 557},
    {"NO", 742},
    {"PR", 666},
    {"QU", 806},
    {"BS", 462},
    {"JU", 572},
    {"LE", 589},
    {"PH", 469},
    {"DA", 933},
    {"DE", 501},
    {"PA", 652},
    {"GE", 725},
    {"FA", 711},
    {"KI", 484},
    {"OW", 695},
    {"TO", 810},
    {"PT", 525},
    {"BT", 653},
    {"PL", 587},
    {"CV", 406},
    {"BA", 578},
    {"CH", 1113},
    {"CY", 655},
    {"GO", 917},
    {"ME", 812},
    {"PN", 107},
    {"GD", 239},
    {"CM", 519},
    {"MI", 578},
    {"VR", 520},
    {"RA", 561},
    {"SC", 440},
    {"CP", 541},
    {"CG", 494},
    {"DR", 400},
    {"CT", 700},
    {"RE", 928},
    {"IN", 604},
    {"FR", 658},
    {"SL", 562},
    {"AR", 544},
    {"LA", 499},
    {"SP", 570},
    {"SW", 658},
    {"WI", 1030},
    {"AG", 631},
    {"SY", 575},
    {"AM", 611},
    {"CR", 529},
    {"KE", 774},
    {"VI", 546},
    {"DI", 666},
    {"EN", 690},
    {0, 0},
};
int OP_VALUES[128];
static int values_n;                     /* the board whose values OP_VALUES holds */
void op_select_values(int n) {
    if (values_n == n) return;
    values_n = n;
    for (int code = 0; code < 128; code++) {
        int ty = code & OP_TYPE;           /* 0..63, but UNITS ends at OP_NTYPES: the codes past it are worth 0 */
        OP_VALUES[code] = ty < NUNITS ? UNITS[ty].value : 0;
        if (n == 9 && ty >= 1 && ty < NUNITS)
            for (int i = 0; VALUES_9X9[i].tok; i++)
                if (!strcmp(VALUES_9X9[i].tok, UNITS[ty].tok)) OP_VALUES[code] = VALUES_9X9[i].value;
    }
}
__attribute__((constructor)) static void init_values(void) {   /* before any position is read */
    op_select_values(10);
}


const char *op_token(int code) { return (code & OP_TYPE) < NUNITS ? UNITS[code & OP_TYPE].tok : UNITS[0].tok; }

/* ------------------------------------------------------------ square sets */
static OBB BOARD, RANK_LAST[2];          /* all squares; the last rank of Black [0] (rank 1) and White [1] */
static OBB NEAR_LAST[2];                 /* the last three ranks of Black [0] and White [1]: a pawn's promotions */
static OBB AROUND[OP_MAXSQ];             /* the (up to) eight squares next to a square */
static OBB SHIFT_KEEP[8];                /* the squares a shift by VEC[d] may reach (no wrap over the edge) */
static int SHIFT_BY[8];                  /* the index change of a step in direction d */
static inline int bb_has(OBB a, int s) { return (int)(a.w[s >> 6] >> (s & 63)) & 1; }
static inline void bb_set(OBB *a, int s) { a->w[s >> 6] |= 1ULL << (s & 63); }
static inline OBB bb_and(OBB a, OBB b) { a.w[0] &= b.w[0]; a.w[1] &= b.w[1]; return a; }
static inline OBB bb_or(OBB a, OBB b) { a.w[0] |= b.w[0]; a.w[1] |= b.w[1]; return a; }
static inline OBB bb_andnot(OBB a, OBB b) { a.w[0] &= ~b.w[0]; a.w[1] &= ~b.w[1]; return a; }
static inline int bb_any(OBB a) { return (a.w[0] | a.w[1]) != 0; }
static inline int bb_count(OBB a) { return __builtin_popcountll(a.w[0]) + __builtin_popcountll(a.w[1]); }
/* every square of a moved one step in direction d (squares leaving the board drop out) */
static inline OBB bb_step(OBB a, int d) {
    int k = SHIFT_BY[d];
    OBB r;
    if (d == 0 || d == 1 || d == 4 || d == 7) { r.w[1] = a.w[1] << k | a.w[0] >> (64 - k); r.w[0] = a.w[0] << k; }   /* N, E, NE, NW: up */
    else { k = -k; r.w[0] = a.w[0] >> k | a.w[1] << (64 - k); r.w[1] = a.w[1] >> k; }
    return bb_and(r, SHIFT_KEEP[d]);
}
#define OPP_DIR(d) ((d) ^ 2)   /* N<->S, E<->W, NE<->SW, SE<->NW */

static void build_geo(int n) {
    OP_N = n; SIZE = n * n;
    memset(&BOARD, 0, sizeof BOARD); memset(RANK_LAST, 0, sizeof RANK_LAST); memset(NEAR_LAST, 0, sizeof NEAR_LAST);
    for (int s = 0; s < SIZE; s++) {
        bb_set(&BOARD, s);
        if (s < n) bb_set(&RANK_LAST[0], s);
        if (s >= SIZE - n) bb_set(&RANK_LAST[1], s);
        if (s < 3 * n) bb_set(&NEAR_LAST[0], s);
        if (s >= SIZE - 3 * n) bb_set(&NEAR_LAST[1], s);
    }
    for (int d = 0; d < 8; d++) {
        SHIFT_BY[d] = VEC[d][1] * n + VEC[d][0];
        SHIFT_KEEP[d] = BOARD;
        for (int s = 0; s < SIZE; s++)
            if ((VEC[d][0] > 0 && s % n == 0) || (VEC[d][0] < 0 && s % n == n - 1)) SHIFT_KEEP[d].w[s >> 6] &= ~(1ULL << (s & 63));
    }
    for (int s = 0; s < SIZE; s++) {
        int f = s % n, r = s / n + 1;
        file_of[s] = (int8_t)f; rank_of[s] = (int8_t)r;
        snprintf(names[s], sizeof names[s], "%c%d", 'a' + f, r);
        for (int d = 0; d < 8; d++) {
            int k = 0, ff = f, rr = r, q;
            while ((q = at(ff + VEC[d][0], rr + VEC[d][1])) >= 0) { rays[s][d][k++] = (int8_t)q; ff += VEC[d][0]; rr += VEC[d][1]; }
            raylen[s][d] = (uint8_t)k;
            stepsq[s][d] = (int8_t)at(f + VEC[d][0], r + VEC[d][1]);
        }
        memset(&AROUND[s], 0, sizeof AROUND[s]);
        for (int d = 0; d < 8; d++) if (stepsq[s][d] >= 0) bb_set(&AROUND[s], stepsq[s][d]);
        for (int i = 0; i < LV_NSETS; i++) {
            int k = 0;
            for (int j = 0; j < VS[i].n; j++) {
                int q = at(f + VS[i].v[j][0], r + VS[i].v[j][1]);
                if (q >= 0) leaps[i][s][k++] = (int8_t)q;
            }
            nleaps[i][s] = (uint8_t)k;
        }
    }
    geo_n = n;
}

static uint64_t ZK[OP_MAXSQ][256], ZSIDE, ZHAND[2][128][21];   /* a hand holds at most 20 units of a code (O4) */
static int zinit;
static void init_zobrist(void) {
    uint64_t x = 0x9E3779B97F4A7C15ULL;
    #define NEXT (x ^= x << 13, x ^= x >> 7, x ^= x << 17, x)
    for (int s = 0; s < OP_MAXSQ; s++) for (int v = 0; v < 256; v++) ZK[s][v] = NEXT;
    ZSIDE = NEXT;
    for (int c = 0; c < 2; c++) for (int k = 0; k < 128; k++) for (int j = 0; j < 12; j++) ZHAND[c][k][j] = NEXT;
    for (int c = 0; c < 2; c++) for (int k = 0; k < 128; k++) for (int j = 12; j < 21; j++) ZHAND[c][k][j] = NEXT;
    zinit = 1;
}

void op_select(int n, const OOptions *o) {
    if (!zinit) { init_zobrist(); build_vecsets(); build_distinct(); }
    if (geo_n != n) build_geo(n);
    op_select_values(n);
    OPTS = *o;
    for (int code = 0; code < 128; code++) {
        int valid = (code & OP_TYPE) >= 1 && (code & OP_TYPE) < NUNITS;
        const Unit *u = &UNITS[valid ? code & OP_TYPE : 0];
        A_shielded[code] = valid && (u->shielded || (o->shp && u->kind == KD_PAWN));
        A_resolute[code] = valid && u->resolute;
        A_armored[code] = valid && ((u->armored && !(o->gna && u->kind == KD_GUARD)) || ((o->arm >> (code & OP_TYPE)) & 1));
        A_loyal[code] = valid && u->loyal;
        A_immob[code] = valid ? u->immob : IM_NO;
    }
}

int op_is_variant(const char *name) { return !strcmp(name, "optima") || !strcmp(name, "optima-9x9"); }

/* ------------------------------------------------------------ O10 */
/* the units of colour c that the immobilizer on q freezes, added to f */
static void freeze_around(const int8_t *b, int q, int c, OBB *f) {
    int im = A_immob[abs(b[q])];
    if (im == IM_KNIGHT || im == IM_ADJ) {
        int set = im == IM_KNIGHT ? LV_N : LV_K;
        for (int i = 0; i < nleaps[set][q]; i++) {
            int r = leaps[set][q][i], v = b[r] * c;
            if (v > 0 && !A_resolute[v]) bb_set(f, r);
        }
    } else {
        int mask = im == IM_FORTH ? ORTH : im == IM_FDIAG ? DIAG : ALLD;
        for (int d = 0; d < 8; d++) {
            if (!(mask >> d & 1)) continue;
            for (int k = 0; k < raylen[q][d]; k++) {
                int r = rays[q][d][k], v = b[r] * c;
                if (v) { if (v > 0 && !A_resolute[v]) bb_set(f, r); break; }
            }
        }
    }
}

/* both colours' frozen units in one pass over the immobilizers */
void op_frozen(const OPos *p, OBB fz[2]) {
    memset(fz, 0, 2 * sizeof *fz);
    for (int w = 0; w < 2; w++)
        for (uint64_t bits = p->immob.w[w]; bits; bits &= bits - 1) {
            int q = w * 64 + __builtin_ctzll(bits);
            int c = p->b[q] > 0 ? -1 : 1;          /* the colour it freezes */
            freeze_around(p->b, q, c, &fz[c > 0]);
        }
}

/* ------------------------------------------------------------ emitting moves */
typedef struct {
    const int8_t *b;          /* the position before the move */
    int c, s;                 /* colour, the mover's start square */
    const Prim *p;
    OMoveList *out;
    int start;                /* first move of this unit in out (O6: equal moves are one) */
    int collect, nf;          /* two-part: collecting part 1 */
    int8_t fm[64], fcap[64];  /* part 1 ends and captures (-1 none) */
    int cap1;                 /* two-part: part 1's capture in part 2 (-1 none) */
    uint64_t seen[2];         /* this unit's plain moves (no capture, conversion or flag) by target: O6 merge */
    int *quiet;               /* counting mode (op_count): plain moves are counted here, not listed */
    int distinct;             /* counting mode, and no two plain moves of this unit can be equal: no marks */
} Ctx;

static void sort8(int8_t *a, int n) {
    for (int i = 1; i < n; i++) { int8_t x = a[i]; int j = i - 1; while (j >= 0 && a[j] > x) { a[j + 1] = a[j]; j--; } a[j + 1] = x; }
}

/* a plain move (no capture, conversion or flag) equals another only with the same target; counting
 * mode only marks it (gen_unit counts the marks) */
static inline void add_plain(Ctx *x, int t) {
    if (x->distinct) { (*x->quiet)++; return; }
    uint64_t bit = 1ULL << (t & 63);
    if (x->seen[t >> 6] & bit) return;
    x->seen[t >> 6] |= bit;
    if (x->quiet) { (*x->quiet)++; return; }
    OMoveList *l = x->out;
    if (l->n < OP_MAXMOVES) {
        OMove *m = &l->m[l->n++];
        m->from = (int8_t)x->s; m->to = (int8_t)t; m->flags = 0; m->value = 0; m->ncap = 0; m->nconv = 0;
    }
}

static void add_move(Ctx *x, int t, const int8_t *caps, int ncap, const int8_t *convs, int nconv, int flags) {
    if (!ncap && !nconv && !flags) { add_plain(x, t); return; }
    OMoveList *l = x->out;
    if (l->n >= OP_MAXMOVES) return;
    OMove *m = &l->m[l->n];           /* written in place, kept unless it equals an earlier move (O6) */
    m->from = (int8_t)x->s; m->to = (int8_t)t; m->value = 0;
    m->ncap = (uint8_t)ncap; m->nconv = (uint8_t)nconv;
    for (int i = 0; i < ncap; i++) m->cap[i] = caps[i];
    for (int i = 0; i < nconv; i++) m->conv[i] = convs[i];
    if (ncap > 1) sort8(m->cap, ncap);
    if (nconv > 1) sort8(m->conv, nconv);
    for (int i = 0; i < ncap; i++) {
        int v = x->b[m->cap[i]] * x->c;
        if (v < 0 && (-v & OP_ROYAL)) { flags |= OF_ROYAL; break; }
    }
    m->flags = (int8_t)flags;
    for (int i = x->start; i < l->n; i++) {
        const OMove *o = &l->m[i];
        if (o->to == t && o->ncap == ncap && o->nconv == nconv && o->flags == flags
            && !memcmp(o->cap, m->cap, (size_t)ncap) && !memcmp(o->conv, m->conv, (size_t)nconv)) return;
    }
    l->n++;
}

/* O11: colour c converts the enemy units on squares q[]: loyal untouched, royal captured, others converted */
static void convert(const int8_t *b, int c, const int8_t *q, int n, int8_t *caps, int *ncap, int8_t *convs, int *nconv) {
    for (int i = 0; i < n; i++) {
        int v = b[q[i]] * c;
        if (v >= 0) continue;
        int code = -v;
        if (A_loyal[code]) continue;
        if (code & OP_ROYAL) caps[(*ncap)++] = q[i]; else convs[(*nconv)++] = q[i];
    }
}

static inline int cheb(int s, int t) {
    int df = abs(file_of[s] - file_of[t]), dr = abs(rank_of[s] - rank_of[t]);
    return df > dr ? df : dr;
}

static void emit(Ctx *x, int t, const int8_t *caps, int ncap, const int8_t *convs, int nconv, int flags) {
    const Prim *p = x->p;
    const int8_t *b = x->b;
    int c = x->c;
    switch (p->wrap) {
    case W_NONE: add_move(x, t, caps, ncap, convs, nconv, flags); return;
    case W_PROMOTE:
        if (rank_of[t] == (c > 0 ? OP_N : 1)) flags |= OF_PROMOTE;
        add_move(x, t, caps, ncap, convs, nconv, flags); return;
    case W_PROX: {
        if (b[t] || ncap || nconv || flags || (p->reach && cheb(x->s, t) > p->reach)) {
            add_move(x, t, caps, ncap, convs, nconv, flags); return;
        }
        int8_t around[8]; int na = 0;
        for (int d = 0; d < 8; d++) if ((p->hood >> d & 1) && stepsq[t][d] >= 0) around[na++] = stepsq[t][d];
        int8_t cc[8], vv[8] = {0}; int nc = 0, nv = 0;
        if (p->convert) convert(b, c, around, na, cc, &nc, vv, &nv);
        else for (int i = 0; i < na; i++) { int w = b[around[i]] * c; if (w < 0 && !A_shielded[-w]) cc[nc++] = around[i]; }
        add_move(x, t, cc, nc, vv, nv, 0);
        return;
    }
    case W_RIFLE:
        if (ncap == 1 && caps[0] == t && !nconv && !A_armored[-b[t] * c]) { int8_t q = (int8_t)t; add_move(x, x->s, &q, 1, NULL, 0, 0); }
        return;
    case W_TWO:
        if (x->collect) {
            if (x->nf < 64) { x->fm[x->nf] = (int8_t)t; x->fcap[x->nf] = ncap ? caps[0] : -1; x->nf++; }
            return;
        }
        if (t == x->s && !(p->roc && x->cap1 >= 0)) return;
        {
            int8_t all[4] = {0}; int n = 0;
            if (x->cap1 >= 0) all[n++] = (int8_t)x->cap1;
            for (int i = 0; i < ncap; i++) all[n++] = caps[i];
            add_move(x, t, all, n, NULL, 0, 0);
        }
        return;
    }
}

static inline __attribute__((always_inline)) void emit0(Ctx *x, int t) {
    int w = x->p->wrap;
    if (w == W_NONE || (w == W_PROMOTE && rank_of[t] != (x->c > 0 ? OP_N : 1))) add_plain(x, t);
    else if (w == W_TWO && !x->collect && x->cap1 < 0) { if (t != x->s) add_plain(x, t); }   /* a plain second part */
    else if (w != W_RIFLE) emit(x, t, NULL, 0, NULL, 0, 0);   /* a rifle only shoots */
}
static inline void emit1(Ctx *x, int t) {
    int8_t q = (int8_t)t;
    if (x->p->wrap == W_NONE) add_move(x, t, &q, 1, NULL, 0, 0); else emit(x, t, &q, 1, NULL, 0, 0);
}

/* generate primitive p of the unit of colour c standing (or imagined) on `from` of board b */
static void gen(Ctx *x, const int8_t *b, int from) {
    const Prim *p = x->p;
    int c = x->c;
    /* counting a unit whose plain moves are all distinct (no marks): a plain leap or slide counts its empty
     * targets in bulk and emits only its captures, in the same order as below */
    if (x->distinct && p->wrap == W_NONE) {
        if (p->kind == P_LEAP) {
            const int8_t *to = leaps[p->vecs][from];
            int n = nleaps[p->vecs][from], empty = 0, enemy = 0;
            for (int i = 0; i < n; i++) { int v = b[to[i]] * c; empty += v == 0; enemy |= v < 0; }
            if (p->move) *x->quiet += empty;
            if (enemy && p->capture)
                for (int i = 0; i < n; i++) if (b[to[i]] * c < 0) emit1(x, to[i]);
            return;
        }
        if (p->kind == P_SLIDE) {
            int range = p->range ? p->range : OP_MAXSQ;
            for (unsigned m = p->dirs; m; m &= m - 1) {
                int d = __builtin_ctz(m), len = raylen[from][d], k = 0;
                const int8_t *ray = rays[from][d];
                if (len > range) len = range;
                while (k < len && !b[ray[k]]) k++;
                *x->quiet += k;
                if (k < len && p->capture && b[ray[k]] * c < 0) emit1(x, ray[k]);
            }
            return;
        }
    }
    switch (p->kind) {
    case P_LEAP:
        for (int i = 0; i < nleaps[p->vecs][from]; i++) {
            int t = leaps[p->vecs][from][i], v = b[t] * c;
            if (v == 0) { if (p->move) emit0(x, t); }
            else if (v < 0 && p->capture) emit1(x, t);
        }
        break;
    case P_SLIDE:
        for (int d = 0; d < 8; d++) {
            if (!(p->dirs >> d & 1)) continue;
            int len = raylen[from][d];
            if (p->range && len > p->range) len = p->range;
            for (int k = 0; k < len; k++) {
                int t = rays[from][d][k], v = b[t] * c;
                if (v == 0) { emit0(x, t); continue; }
                if (v < 0 && p->capture) emit1(x, t);
                break;
            }
        }
        break;
    case P_RIDER: {
        const VecSet *vs = &VS[p->vecs];
        for (int i = 0; i < vs->n; i++) {
            int df = vs->v[i][0], dr = vs->v[i][1];
            int f = file_of[from], r = rank_of[from];
            if (p->slip) {
                f += df / p->slip; r += dr / p->slip;
                int gate = at(f, r);
                if (gate < 0 || b[gate]) continue;
            }
            int t;
            while ((t = at(f + df, r + dr)) >= 0) {
                f += df; r += dr;
                int v = b[t] * c;
                if (v == 0) { emit0(x, t); continue; }
                if (v < 0 && p->capture) emit1(x, t);
                break;
            }
        }
        break;
    }
    case P_FLY:
        for (int d = 0; d < 8; d++) {
            if (!(p->dirs >> d & 1)) continue;
            for (int k = 0; k < raylen[from][d]; k++) if (!b[rays[from][d][k]]) emit0(x, rays[from][d][k]);
        }
        break;
    case P_FLYHOP:
        for (int d = 0; d < 8; d++) {
            if (!(p->dirs >> d & 1)) continue;
            const int8_t *ray = rays[from][d];
            for (int k = 0; k < raylen[from][d]; k++) {
                int t = ray[k];
                if (b[t]) continue;
                int8_t caps[10]; int n = 0;
                for (int j = k - 1; j >= 0 && b[ray[j]] * c < 0 && (!p->run || n < p->run); j--) caps[n++] = ray[j];
                if (n) emit(x, t, caps, n, NULL, 0, 0); else emit0(x, t);
            }
        }
        break;
    case P_SCREEN: {
        int most = (p->screens & 2) ? 1 : 0;
        for (int d = 0; d < 8; d++) {
            if (!(p->dirs >> d & 1)) continue;
            int seen = 0;
            for (int k = 0; k < raylen[from][d]; k++) {
                int t = rays[from][d][k], v = b[t] * c;
                if (!v) continue;
                if (v < 0 && (p->screens >> seen & 1)) emit1(x, t);
                if (++seen > most) break;
            }
        }
        break;
    }
    case P_PLOW:
        for (int d = 0; d < 8; d++) {
            if (!(p->dirs >> d & 1)) continue;
            int len = raylen[from][d];
            if (p->range && len > p->range) len = p->range;
            int8_t caps[10]; int n = 0;
            for (int k = 0; k < len; k++) {
                int t = rays[from][d][k], v = b[t] * c;
                if (v > 0) break;
                if (v < 0) caps[n++] = (int8_t)t;
                if (n) emit(x, t, caps, n, NULL, 0, 0); else emit0(x, t);
                if (v < 0 && p->armor_stops && A_armored[-v]) break;
            }
        }
        break;
    case P_BENT:
        for (int d = 0; d < 8; d++) {
            if (!(p->dirs >> d & 1)) continue;
            int len = raylen[from][d];
            if (p->first && len > p->first) len = p->first;
            for (int k = 0; k < len; k++) {
                int corner = rays[from][d][k];
                if (b[corner]) break;
                for (int e = 0; e < 8; e++) {
                    if (!(p->dirs >> e & 1)) continue;
                    if (VEC[d][0] * VEC[e][0] + VEC[d][1] * VEC[e][1] != 0) continue;
                    int len2 = raylen[corner][e];
                    if (p->second && len2 > p->second) len2 = p->second;
                    for (int j = 0; j < len2; j++) {
                        int t = rays[corner][e][j], v = b[t] * c;
                        if (v == 0) { emit0(x, t); continue; }
                        if (v < 0 && p->capture) emit1(x, t);
                        break;
                    }
                }
            }
        }
        break;
    case P_DLEAP:
        for (int i = 0; i < nleaps[p->vecs][from]; i++) {
            int m = leaps[p->vecs][from][i];
            if (b[m]) continue;
            for (int j = 0; j < nleaps[p->vecs][m]; j++) {
                int t = leaps[p->vecs][m][j];
                if (t == from) continue;
                int v = b[t] * c;
                if (v == 0) emit0(x, t);
                else if (v < 0 && p->capture) emit1(x, t);
            }
        }
        break;
    case P_STOP:
        for (int d = 0; d < 8; d++) {
            if (!(p->dirs >> d & 1)) continue;
            int len = raylen[from][d];
            if (p->range && len > p->range) len = p->range;
            for (int k = 0; k < len; k++) {
                int q = rays[from][d][k];
                if (b[q]) break;
                int near = 0;
                for (int e = 0; e < 8 && !near; e++) { int r = stepsq[q][e]; if (r >= 0 && b[r] * c < 0) near = 1; }
                /* no enemy around: a proximity capture (hood of all eight) has nothing to take there */
                if (!near && p->wrap == W_PROX && p->hood == ALLD) add_plain(x, q); else emit0(x, q);
                if (near) break;
            }
        }
        break;
    case P_ZIGZAG:
        for (int d1 = 0; d1 < 8; d1++) {
            if (!(p->dirs >> d1 & 1)) continue;
            for (int d2 = 0; d2 < 8; d2++) {
                if (!(p->dirs >> d2 & 1) || VEC[d1][0] * VEC[d2][0] + VEC[d1][1] * VEC[d2][1] != 0) continue;
                int q = from, d = d1;
                while ((q = stepsq[q][d]) >= 0) {
                    int v = b[q] * c;
                    if (v == 0) { emit0(x, q); d = d == d1 ? d2 : d1; continue; }
                    if (v < 0 && p->capture) emit1(x, q);
                    break;
                }
            }
        }
        break;
    case P_LEAPCONV:
        for (int d = 0; d < 8; d++) {
            if (!(p->dirs >> d & 1)) continue;
            for (int k = 0; k + 1 < raylen[from][d]; k++) {
                int8_t q = rays[from][d][k]; int t = rays[from][d][k + 1];
                if (b[q] * c >= 0 || b[t]) continue;
                int8_t cc[1], vv[1]; int nc = 0, nv = 0;
                convert(b, c, &q, 1, cc, &nc, vv, &nv);
                if (nc || nv) emit(x, t, cc, nc, vv, nv, 0);
            }
        }
        break;
    case P_SWAPLEAP:
        for (int i = 0; i < nleaps[p->vecs][from]; i++) {
            int8_t t = leaps[p->vecs][from][i];
            int v = b[t] * c;
            if (v == 0) { if (p->move) emit0(x, t); }
            else if (v < 0) {
                int8_t cc[1], vv[1]; int nc = 0, nv = 0;
                convert(b, c, &t, 1, cc, &nc, vv, &nv);
                if (nc) emit(x, t, cc, nc, NULL, 0, 0);
                else if (nv) emit(x, t, NULL, 0, vv, nv, OF_SWAP);
            }
        }
        break;
    case P_APPROACH:
        for (int d = 0; d < 8; d++) {
            if (!(p->dirs >> d & 1)) continue;
            int len = raylen[from][d];
            if (p->range && len > p->range) len = p->range;
            for (int k = 0; k < len; k++) {
                int t = rays[from][d][k];
                if (b[t]) break;
                int8_t ahead = stepsq[t][d];
                if (ahead >= 0 && b[ahead] * c < 0 && !A_loyal[-b[ahead] * c]) {   /* else nothing to convert */
                    int8_t cc[1], vv[1]; int nc = 0, nv = 0;
                    convert(b, c, &ahead, 1, cc, &nc, vv, &nv);
                    emit(x, t, cc, nc, vv, nv, 0);
                } else emit0(x, t);
            }
        }
        break;
    }
}

static void gen_unit(const int8_t *b, int c, int s, OMoveList *out, int *quiet) {
    const Unit *u = &UNITS[(b[s] * c) & OP_TYPE];
    Ctx x;
    x.b = b; x.c = c; x.s = s; x.out = out; x.start = out->n; x.collect = 0; x.nf = 0; x.cap1 = -1;
    x.seen[0] = x.seen[1] = 0; x.quiet = quiet;
    x.distinct = quiet && DISTINCT[(b[s] * c) & OP_TYPE];
    for (int i = 0; i < u->np; i++) {
        x.p = &u->p[i];
        if (x.p->wrap != W_TWO) { gen(&x, b, s); continue; }
        /* O12.8: part 1, then part 2 on the board as part 1 left it */
        x.collect = 1; x.nf = 0;
        gen(&x, b, s);
        x.collect = 0;
        int nf = x.nf;
        int8_t fm[64], fcap[64];
        memcpy(fm, x.fm, (size_t)nf); memcpy(fcap, x.fcap, (size_t)nf);
        for (int j = 0; j < nf; j++) {
            int8_t cap1 = fcap[j];
            add_move(&x, fm[j], &cap1, cap1 >= 0, NULL, 0, 0);
            int8_t after[OP_MAXSQ];
            memcpy(after, b, OP_MAXSQ);   /* a constant size: copied inline */
            after[fm[j]] = after[s]; after[s] = 0;
            x.cap1 = cap1;
            gen(&x, after, fm[j]);
            x.cap1 = -1;
        }
    }
}

/* ------------------------------------------------------------ reserve and placement (O5) */
static int set_size(void) { return OP_N == 10 ? 10 : 5; }
static int side_at(int kind, int i) {
    if (kind == RK_EQ) return i % 2 == 0 ? 1 : -1;
    if (i == 0) return 1;
    return ((i - 1) / 2) % 2 == 0 ? -1 : 1;
}
static int ORDER[128], NORDER;   /* placeable codes in canonical order (token letters, plain before royal) */
static void build_order(void) {
    if (NORDER) return;
    for (int t = 1; t <= OP_NTYPES; t++) {
        if (UNITS[t].kind != KD_PIECE) continue;
        for (int r = 0; r < 2; r++) ORDER[NORDER++] = t | (r ? OP_ROYAL : 0);
    }
    for (int i = 1; i < NORDER; i++) {   /* insertion sort by (token, royal) */
        int k = ORDER[i], j = i - 1;
        while (j >= 0) {
            int cmp = strcmp(UNITS[ORDER[j] & OP_TYPE].tok, UNITS[k & OP_TYPE].tok);
            if (cmp > 0 || (cmp == 0 && (ORDER[j] & OP_ROYAL) > (k & OP_ROYAL))) { ORDER[j + 1] = ORDER[j]; j--; }
            else break;
        }
        ORDER[j + 1] = k;
    }
}
static inline uint8_t *source(OPos *p, int c) { return p->rkind == RK_EQ ? p->hand[c > 0] : p->hand[1]; }
static inline const uint8_t *csource(const OPos *p, int c) { return p->rkind == RK_EQ ? p->hand[c > 0] : p->hand[1]; }

static void placements(const OPos *p, OMoveList *l) {
    const uint8_t *h = csource(p, p->side);
    int royal_only = 0;
    if (p->rkind != RK_EQ) for (int k = 0; k < 128; k++) if ((k & OP_ROYAL) && h[k]) { royal_only = 1; break; }
    int first = p->side > 0 ? 0 : (OP_N - 1) * OP_N;
    for (int i = 0; i < NORDER; i++) {
        int code = ORDER[i];
        if (!h[code] || (royal_only && !(code & OP_ROYAL))) continue;
        for (int t = first; t < first + OP_N; t++) {
            if (p->b[t]) continue;
            OMove *m = &l->m[l->n++];
            memset(m, 0, sizeof *m);
            m->from = OP_PLACE; m->to = (int8_t)t; m->value = (int8_t)(p->side * code);
        }
    }
}

/* The plain moves of colour ci's pawns and guards in mobile, counted a whole set at a time; *hot
 * receives those of them that may also make other moves (a capture, a promotion), left to gen_unit. A
 * pawn slides up to two squares orthogonally without capturing and captures one step diagonally,
 * promoting on the last rank; a guard slides up to two squares in the eight directions. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__POPCNT__) && !defined(__clang__) && defined(__GLIBC__)
__attribute__((target_clones("popcnt", "default")))   /* the popcount instruction where the CPU has it (no -march) */
#endif
static int pawns_guards(const OPos *p, int ci, OBB mobile, OBB *hot) {
    OBB empty = bb_andnot(BOARD, bb_or(p->occ[0], p->occ[1])), enemy = p->occ[!ci], last = RANK_LAST[ci];
    OBB pn = bb_and(p->pawns, mobile), gd = bb_and(p->guards, mobile), hp = {{0, 0}}, hg = {{0, 0}};
#pragma GCC unroll 8
    for (int d = 0; d < 8; d++) {            /* first the hot ones */
        int o = OPP_DIR(d);
        OBB e1 = bb_step(enemy, o);                                   /* enemy one step away in direction d */
        hg = bb_or(hg, bb_or(e1, bb_step(bb_and(e1, empty), o)));     /* ... or two, over an empty square */
        if (d >= 4) hp = bb_or(hp, e1);
    }
    if (bb_any(bb_and(pn, NEAR_LAST[ci])))   /* a promotion within reach */
        for (int d = 0; d < 4; d++) {
            int o = OPP_DIR(d);
            OBB t1 = bb_and(bb_step(pn, d), empty), t2 = bb_and(bb_step(t1, d), empty);
            hp = bb_or(hp, bb_or(bb_step(bb_and(t1, last), o), bb_step(bb_step(bb_and(t2, last), o), o)));
        }
    hp = bb_and(hp, pn); hg = bb_and(hg, gd);
    pn = bb_andnot(pn, hp); gd = bb_andnot(gd, hg);
    int n = 0;
#pragma GCC unroll 8
    for (int d = 0; d < 8; d++) {            /* then the others' plain moves */
        OBB g1 = bb_and(bb_step(gd, d), empty);
        n += bb_count(g1) + bb_count(bb_and(bb_step(g1, d), empty));
        if (d < 4) {
            OBB t1 = bb_and(bb_step(pn, d), empty);
            n += bb_count(t1) + bb_count(bb_and(bb_step(t1, d), empty));
        }
    }
    *hot = bb_or(hp, hg);
    return n;
}

void op_legal(const OPos *p, OMoveList *l) {
    l->n = 0;
    if (p->rkind != RK_NONE) { placements(p, l); return; }
    OBB fz[2], hot;
    int c = p->side;
    op_frozen(p, fz);
    OBB mob = bb_andnot(p->occ[c > 0], fz[c > 0]);
    pawns_guards(p, c > 0, mob, &hot);
    OBB simple = bb_andnot(bb_and(mob, bb_or(p->pawns, p->guards)), hot);   /* pawns and guards with plain moves only */
    for (int w = 0; w < 2; w++)
        for (uint64_t bits = mob.w[w]; bits; bits &= bits - 1) {
            int s = w * 64 + __builtin_ctzll(bits);
            if (!bb_has(simple, s)) { gen_unit(p->b, c, s, l, NULL); continue; }
            /* gen_unit's moves for them, in its order: up to two squares in each direction (a pawn: orthogonal) */
            int ndir = bb_has(p->pawns, s) ? 4 : 8;
            for (int d = 0; d < ndir; d++)
                for (int k = 0; k < 2 && k < raylen[s][d]; k++) {
                    int t = rays[s][d][k];
                    if (p->b[t] || l->n >= OP_MAXMOVES) break;
                    OMove *m = &l->m[l->n++];
                    m->from = (int8_t)s; m->to = (int8_t)t; m->flags = 0; m->value = 0; m->ncap = 0; m->nconv = 0;
                }
        }
}

int op_enemies_around(const OPos *p, int s) { return bb_count(bb_and(AROUND[s], p->occ[p->b[s] < 0])); }

int op_count(const OPos *p, int c, OMoveList *l, const OBB *frozen) {
    l->n = 0;
    if (p->rkind != RK_NONE) { OPos q = *p; q.side = (int8_t)c; placements(&q, l); return l->n; }
    int ci = c > 0;
    OBB fz;
    if (frozen) fz = *frozen;
    else { OBB both[2]; op_frozen(p, both); fz = both[ci]; }
    OBB mob = bb_andnot(p->occ[ci], fz), hot;
    int quiet = pawns_guards(p, ci, mob, &hot);
    OBB rest = bb_or(bb_andnot(mob, bb_or(p->pawns, p->guards)), hot);
    for (int w = 0; w < 2; w++)
        for (uint64_t bits = rest.w[w]; bits; bits &= bits - 1) gen_unit(p->b, c, w * 64 + __builtin_ctzll(bits), l, &quiet);
    return quiet + l->n;
}

/* ------------------------------------------------------------ make */
static inline void setsq(OPos *p, int s, int v) {
    int old = p->b[s];
    p->hash ^= ZK[s][(uint8_t)old] ^ ZK[s][(uint8_t)v];
    p->b[s] = (int8_t)v;
    int w = s >> 6;
    uint64_t bit = 1ULL << (s & 63);
    if (old) {
        p->occ[old > 0].w[w] &= ~bit;
        p->pawns.w[w] &= ~bit; p->guards.w[w] &= ~bit; p->immob.w[w] &= ~bit; p->royals.w[w] &= ~bit;
        p->material -= old > 0 ? op_value(old) : -op_value(-old);
    }
    if (v) {
        int code = abs(v);
        p->occ[v > 0].w[w] |= bit;
        if (code == PAWN) p->pawns.w[w] |= bit;
        if (code == GUARD) p->guards.w[w] |= bit;
        if (A_immob[code] != IM_NO) p->immob.w[w] |= bit;
        if (code & OP_ROYAL) p->royals.w[w] |= bit;
        p->material += v > 0 ? op_value(code) : -op_value(code);
    }
}

void op_sync(OPos *p) {
    memset(p->occ, 0, sizeof p->occ);
    memset(&p->pawns, 0, sizeof p->pawns); memset(&p->guards, 0, sizeof p->guards); memset(&p->immob, 0, sizeof p->immob);
    memset(&p->royals, 0, sizeof p->royals);
    p->material = 0;
    uint64_t h = p->hash;
    for (int s = 0; s < SIZE; s++) { int v = p->b[s]; if (v) { p->b[s] = 0; setsq(p, s, v); } }
    p->hash = h;
}

void op_play(OPos *p, const OMove *m) {
    if (m->from == OP_PLACE) {
        int c = p->side, code = abs(m->value);
        uint8_t *h = source(p, c);
        int ci = p->rkind == RK_EQ ? c > 0 : 1;
        p->hash ^= ZHAND[ci][code][h[code]];
        h[code]--;
        p->hash ^= ZHAND[ci][code][h[code]];
        setsq(p, m->to, m->value);
        p->left--;
        int next = p->left ? side_at(p->rkind, 2 * set_size() - p->left) : 1;
        if (!p->left) p->rkind = RK_NONE;
        if (next != p->side) p->hash ^= ZSIDE;
        p->side = (int8_t)next;
        p->ply++;
        return;
    }
    int s = m->from, t = m->to, c = p->side;
    int mover = p->b[s];
    int tv = p->b[t];
    setsq(p, s, 0);
    for (int i = 0; i < m->ncap; i++) setsq(p, m->cap[i], 0);
    if (m->flags & OF_SWAP) setsq(p, s, -tv);
    for (int i = 0; i < m->nconv; i++) {
        int q = m->conv[i];
        if ((m->flags & OF_SWAP) && q == t) continue;
        setsq(p, q, -p->b[q]);
    }
    if (m->flags & OF_PROMOTE) mover = c * WIZARD;
    setsq(p, t, mover);
    p->side = (int8_t)-c;
    p->hash ^= ZSIDE;
    p->ply++;
}

uint64_t op_perft(OPos *p, int depth) {
    if (depth <= 0) return 1;
    OMoveList *l = malloc(sizeof *l);
    op_legal(p, l);
    uint64_t total = 0;
    if (depth == 1) total = (uint64_t)l->n;
    else for (int i = 0; i < l->n; i++) { OPos q = *p; op_play(&q, &l->m[i]); total += op_perft(&q, depth - 1); }
    free(l);
    return total;
}

int op_royals(const OPos *p, int c) {
    int n = 0;
    for (int s = 0; s < SIZE; s++) if (p->b[s] * c > 0 && ((p->b[s] * c) & OP_ROYAL)) n++;
    return n;
}

/* ------------------------------------------------------------ text (O15) */
static int type_of_token(const char *t) {
    char up[3] = {(char)toupper((unsigned char)t[0]), (char)toupper((unsigned char)t[1]), 0};
    for (int i = 1; i <= OP_NTYPES; i++) if (!strcmp(UNITS[i].tok, up)) return i;
    return 0;
}
static int two_letters(const char *s) {
    return isalpha((unsigned char)s[0]) && isalpha((unsigned char)s[1])
        && ((isupper((unsigned char)s[0]) && isupper((unsigned char)s[1])) || (islower((unsigned char)s[0]) && islower((unsigned char)s[1])));
}
static void token_of(int code, int lower, char *out) {
    const char *t = UNITS[code & OP_TYPE].tok;
    out[0] = lower ? (char)tolower((unsigned char)t[0]) : t[0];
    out[1] = lower ? (char)tolower((unsigned char)t[1]) : t[1];
    int k = 2;
    if (code & OP_ROYAL) out[k++] = '*';
    out[k] = 0;
}

#define FAIL(...) do { fen_error(err, errlen, __VA_ARGS__); return 0; } while (0)

/* Two-letter tokens with an optional '*' (engine/optima/fen.py's _tokens): codes
 * (type | OP_ROYAL), lower[i] for lower case; 0 and err on a bad token. */
static int split_tokens(const char *text, const char *where, int *codes, int *lower, int max, int *count,
                        char *err, int errlen) {
    int k = 0;
    for (const char *q = text; *q; ) {
        if (*q == '*') FAIL("%s: misplaced '*' in '%s'", where, text);
        if (!q[1] || !two_letters(q)) FAIL("%s: bad token '%.2s' in '%s' (two letters, one case)", where, q, text);
        if (k == max) FAIL("%s: too many tokens", where);
        int ty = type_of_token(q);
        if (!ty) FAIL("%s: unknown unit '%.2s'", where, q);
        lower[k] = islower((unsigned char)q[0]) != 0;
        q += 2;
        codes[k] = ty | (*q == '*' ? OP_ROYAL : 0);
        if (*q == '*') q++;
        k++;
    }
    *count = k;
    return 1;
}

/* a group of reserve codes in canonical order: by token letters, plain before royal (O15) */
static int sorted_group(const int *codes, int n) {
    for (int i = 1; i < n; i++) {
        int c = strcmp(UNITS[codes[i - 1] & OP_TYPE].tok, UNITS[codes[i] & OP_TYPE].tok);
        if (c > 0 || (c == 0 && (codes[i - 1] & OP_ROYAL) > (codes[i] & OP_ROYAL))) return 0;
    }
    return 1;
}

static int cmp_item(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The rules field (O14): '-' or distinct sorted items shp, gna, arm=TT.. (sorted piece tokens). */
static int parse_rules(const char *text, OOptions *o, char *err, int errlen) {
    memset(o, 0, sizeof *o);
    if (!strcmp(text, "-")) return 1;
    char rb[256], *items[16], *sorted[16];
    int ni = 0;
    snprintf(rb, sizeof rb, "%s", text);
    for (char *q = rb; ; ) {
        char *comma = strchr(q, ',');
        if (comma) *comma = 0;
        if (ni == 16) FAIL("rules field '%s': too many options", text);
        items[ni++] = q;
        if (!comma) break;
        q = comma + 1;
    }
    memcpy(sorted, items, sizeof items[0] * (size_t)ni);
    qsort(sorted, (size_t)ni, sizeof sorted[0], cmp_item);
    for (int i = 0; i < ni; i++)
        if (sorted[i] != items[i] && strcmp(sorted[i], items[i])) FAIL("rules field '%s': options must be distinct and sorted", text);
    for (int i = 1; i < ni; i++) if (!strcmp(sorted[i - 1], sorted[i])) FAIL("rules field '%s': options must be distinct and sorted", text);
    for (int i = 0; i < ni; i++) {
        const char *it = items[i];
        if (!strcmp(it, "shp")) o->shp = 1;
        else if (!strcmp(it, "gna")) o->gna = 1;
        else if (!strncmp(it, "arm=", 4)) {
            int codes[64], lower[64], n;
            if (!split_tokens(it + 4, "rules arm=", codes, lower, 64, &n, err, errlen)) return 0;
            for (int j = 0; j < n; j++) if (lower[j] || (codes[j] & OP_ROYAL)) n = 0;
            if (!n) FAIL("rules field: '%s' must list upper-case piece tokens, e.g. arm=QUVR", it);
            for (int j = 0; j < n; j++)
                if (UNITS[codes[j]].kind == KD_PAWN || UNITS[codes[j]].kind == KD_GUARD)
                    FAIL("rules field: '%s': %s is not a piece type", it, UNITS[codes[j]].tok);
            for (int j = 1; j < n; j++)
                if (strcmp(UNITS[codes[j - 1]].tok, UNITS[codes[j]].tok) >= 0)
                    FAIL("rules field: '%s': tokens must be distinct and sorted", it);
            for (int j = 0; j < n; j++) o->arm |= 1ULL << codes[j];
        } else if (!strncmp(it, "pawn=", 5) || !strncmp(it, "guard=", 6)) {
            if (!strcmp(strchr(it, '=') + 1, "std")) FAIL("rules field: '%s': the standard rule is written by leaving it out", it);
            FAIL("rules field: '%s': unknown %.*s rule (only the standard one is defined, O14)", it,
                 (int)(strchr(it, '=') - it), it);
        } else FAIL("rules field: unknown option '%s' (known: shp, gna, arm=TT..., O14)", it);
    }
    return 1;
}

static int check_position(const OPos *p, int n, char *err, int errlen);

int op_parse_fen(const char *fen, OPos *p, char *err, int errlen) {
    char buf[1024];
    if (strlen(fen) >= sizeof buf) FAIL("FEN too long");
    snprintf(buf, sizeof buf, "%s", fen);
    /* five fields separated by single spaces (O15) */
    char *field[5]; int nf = 0, words = 0, empty = 0;
    for (char *q = buf; ; ) {
        char *sp = strchr(q, ' ');
        if (sp) *sp = 0;
        if (*q) words++; else empty = 1;
        if (nf < 5) field[nf] = q;
        nf++;
        if (!sp) break;
        q = sp + 1;
    }
    if (nf != 5 || empty)
        FAIL("Optima FEN needs 5 fields separated by single spaces (board, side, reserve, rules, ply), got %d", words);
    int rows = 1;
    for (const char *q = field[0]; *q; q++) rows += *q == '/';
    if (rows != 9 && rows != 10) FAIL("Optima FEN board has %d ranks, expected 10 (10x10) or 9 (9x9)", rows);
    /* rules first: they set the attribute tables */
    OOptions o;
    if (!parse_rules(field[3], &o, err, errlen)) return 0;
    build_order();
    op_select(rows, &o);
    memset(p, 0, sizeof *p);
    int n = rows, rank = n, file = 0;
    for (const char *q = field[0]; ; q++) {
        if (*q == '/' || !*q) {
            if (file != n) FAIL("rank %d has %d cells, expected %d", rank, file, n);
            if (!*q) break;
            rank--; file = 0; continue;
        }
        if (isdigit((unsigned char)*q)) {
            if (*q == '0') FAIL("rank %d: bad empty run", rank);
            int k = 0;
            while (isdigit((unsigned char)*q)) { if (k < 1000) k = 10 * k + (*q - '0'); q++; }
            q--;
            file += k;
            continue;
        }
        if (*q == '*') FAIL("rank %d: misplaced '*' (it follows a piece's token)", rank);
        if (!two_letters(q)) FAIL("rank %d: bad token '%.2s' (two letters, one case)", rank, q);
        int ty = type_of_token(q);
        if (!ty) FAIL("rank %d: unknown unit '%.2s'", rank, q);
        int lower = islower((unsigned char)q[0]);
        q += 2;
        int code = ty;
        if (*q == '*') { if (UNITS[ty].kind != KD_PIECE) FAIL("rank %d: %s can never be royal", rank, UNITS[ty].tok); code |= OP_ROYAL; }
        else q--;
        if (file >= n) FAIL("rank %d is longer than %d cells", rank, n);
        p->b[(rank - 1) * n + file] = (int8_t)(lower ? -code : code);
        file++;
    }
    if (rank != 1) FAIL("bad board field");
    if (!strcmp(field[1], "w")) p->side = 1; else if (!strcmp(field[1], "b")) p->side = -1;
    else FAIL("side field must be 'w' or 'b', got '%s'", field[1]);
    if (strcmp(field[2], "-")) {
        const char *r = field[2];
        if (!strncmp(r, "eq:", 3)) p->rkind = RK_EQ; else if (!strncmp(r, "u1:", 3)) p->rkind = RK_U1;
        else if (!strncmp(r, "u2:", 3)) p->rkind = RK_U2;
        else FAIL("reserve field '%s': expected '-', 'eq:...', 'u1:...' or 'u2:...'", r);
        int codes[340], lower[340], k;
        if (!split_tokens(r + 3, "reserve", codes, lower, 340, &k, err, errlen)) return 0;
        if (!k) FAIL("reserve field '%s' is empty: after the placement phase the reserve is '-'", r);
        int nw = 0;
        while (nw < k && !lower[nw]) nw++;
        for (int i = nw; i < k; i++)
            if (!lower[i]) FAIL("reserve field '%s': White's hand (upper case) comes before Black's (lower case)", r);
        if (p->rkind != RK_EQ && nw < k) FAIL("reserve field '%s': a %.2s pool is written in upper case", r, r);
        for (int i = 0; i < k; i++)
            if (UNITS[codes[i] & OP_TYPE].kind != KD_PIECE)
                FAIL("reserve: %s is never placed (only the 53 piece types are, O4)", UNITS[codes[i] & OP_TYPE].tok);
        if (!sorted_group(codes, nw) || !sorted_group(codes + nw, k - nw)) FAIL("reserve field '%s' is not sorted", r);
        if (k > 2 * set_size()) FAIL("reserve field '%s' holds %d units, more than %d (O4)", r, k, 2 * set_size());
        for (int i = 0; i < k; i++) p->hand[p->rkind == RK_EQ ? !lower[i] : 1][codes[i]]++;
        p->left = (int8_t)k;
    }
    /* ply: digits, no leading zero, at most 1,000,000 (engine/notation.py's MAX_PLIES) */
    const char *d = field[4];
    size_t nd = strspn(d, "0123456789");
    if (d[nd] || !nd || (d[0] == '0' && nd > 1) || nd > 7 || atol(d) > 1000000)
        FAIL("ply field must be a whole number from 0 to 1000000 (digits 0-9, no leading zero), got '%.24s'", d);
    p->ply = atoi(d);
    if (!check_position(p, n, err, errlen)) return 0;
    /* hash */
    for (int s = 0; s < n * n; s++) p->hash ^= ZK[s][(uint8_t)p->b[s]];
    if (p->side < 0) p->hash ^= ZSIDE;
    for (int ci = 0; ci < 2; ci++) for (int k = 0; k < 128; k++) p->hash ^= ZHAND[ci][k][p->hand[ci][k]];
    op_sync(p);
    return 1;
}

/* ------------------------------------------------------------ O16: positions a FEN may describe */
static const char *who(int c) { return c > 0 ? "White" : "Black"; }

static int check_placement(const OPos *p, int n, char *err, int errlen) {
    const int pawn = type_of_token("PN"), guard = type_of_token("GD");
    int placed[2][128], count[2] = {0, 0}, royals_placed[2] = {0, 0};   /* [colour: 0 Black, 1 White] */
    memset(placed, 0, sizeof placed);
    for (int s = 0; s < n * n; s++) {
        int v = p->b[s], rank = s / n + 1, file = s % n;
        int want = rank == 2 ? guard : rank == 3 ? pawn : rank == n - 1 ? -guard : rank == n - 2 ? -pawn : 0;
        if (want) {
            if (v != want) {
                const char *t = UNITS[abs(want)].tok;
                char w[3] = {t[0], t[1], 0};
                if (want < 0) { w[0] = (char)tolower((unsigned char)w[0]); w[1] = (char)tolower((unsigned char)w[1]); }
                FAIL("placement phase: %c%d must hold %s (pawns and guards stand on their starting ranks until the "
                     "placement is over, O1, O16)", 'a' + file, rank, w);
            }
            continue;
        }
        if (!v) continue;
        int ci = v > 0, code = abs(v);
        if (rank != (v > 0 ? 1 : n) || UNITS[code & OP_TYPE].kind != KD_PIECE) {
            char t[4]; token_of(code & OP_TYPE, v < 0, t);
            FAIL("placement phase: %s on %c%d is off its owner's first rank (O5, O16)", t, 'a' + file, rank);
        }
        placed[ci][code]++; count[ci]++;
        if (code & OP_ROYAL) royals_placed[ci]++;
    }
    int i = count[0] + count[1], kind = p->rkind, size = set_size();
    const char *kname = kind == RK_EQ ? "eq" : kind == RK_U1 ? "u1" : "u2";
    if (kind == RK_U2 && n == 9) FAIL("reserve u2 is not played on 9x9 (O4: 9x9 unequal forces are u1 only)");
    int white_due = 0;
    for (int j = 0; j < i; j++) white_due += side_at(kind, j) > 0;
    if (count[1] != white_due)
        FAIL("placement phase: after %d placements White has placed %d by O5, the board shows %d", i, white_due, count[1]);
    if (i + p->left != 2 * size)
        FAIL("placement phase: %d placed plus %d in the reserve is not %d (each side gets %d pieces, O4)", i, p->left,
             2 * size, size);
    if (p->ply != i) FAIL("ply field is %d, but %d placements have been made (O5, O15)", p->ply, i);
    int due = side_at(kind, i);
    if (p->side != due) FAIL("placement %d is %s's by O5, the side field says %s", i, who(due), who(p->side));
    if (kind == RK_EQ) {
        int royals = 0;
        for (int code = 0; code < 128; code++) {
            int w = placed[1][code] + p->hand[1][code], b = placed[0][code] + p->hand[0][code];
            if (w != b) FAIL("reserve eq: White's and Black's pieces (placed plus in hand) differ (O4 equal forces)");
            if (code & OP_ROYAL) royals += w;
        }
        if (royals < 1 || royals > (n == 10 ? 2 : 1))
            FAIL("reserve eq: each side has %d royal pieces; %dx%d allows %s (O4)", royals, n, n, n == 10 ? "1 or 2" : "1");
        return 1;
    }
    int royals = royals_placed[0] + royals_placed[1], want = kind == RK_U1 ? 2 : 4;
    for (int code = OP_ROYAL; code < 128; code++) royals += p->hand[1][code];
    if (royals != want) FAIL("reserve %s: %d royal units in pool and placed, expected %d (O4)", kname, royals, want);
    int first[2] = {0, 0};
    for (int j = 0; j < (i < want ? i : want); j++) first[side_at(kind, j) > 0]++;
    for (int ci = 1; ci >= 0; ci--)
        if (royals_placed[ci] != first[ci])
            FAIL("reserve %s: %s has placed %d royal units; royals are placed first, so after %d placements it has %d (O5)",
                 kname, who(ci ? 1 : -1), royals_placed[ci], i, first[ci]);
    return 1;
}

/* O16 (engine/optima/fen.py's check): the movement phase allows at most 2 royal units a side and
 * none only for the side to move (it lost); the placement phase must follow O4/O5. */
static int check_position(const OPos *p, int n, char *err, int errlen) {
    if (p->rkind != RK_NONE) return check_placement(p, n, err, errlen);
    for (int c = 1; c >= -1; c -= 2) {
        int royals = 0;
        for (int s = 0; s < n * n; s++) if (p->b[s] * c > 0 && ((p->b[s] * c) & OP_ROYAL)) royals++;
        if (royals > 2) FAIL("%s has %d royal units; at most 2 (O4, O16)", who(c), royals);
        if (!royals && c != p->side) FAIL("%s, not to move, has no royal unit: the game ended before (O13, O16)", who(c));
    }
    return 1;
}

static void append(char **o, const char *s) { while (*s) *(*o)++ = *s++; **o = 0; }

void op_format_fen(const OPos *p, char *out) {
    char *o = out, tk[4], num[16];
    int n = OP_N;
    for (int rank = n; rank >= 1; rank--) {
        int run = 0;
        for (int f = 0; f < n; f++) {
            int v = p->b[(rank - 1) * n + f];
            if (!v) { run++; continue; }
            if (run) { snprintf(num, sizeof num, "%d", run); append(&o, num); run = 0; }
            token_of(abs(v), v < 0, tk); append(&o, tk);
        }
        if (run) { snprintf(num, sizeof num, "%d", run); append(&o, num); }
        if (rank > 1) append(&o, "/");
    }
    append(&o, p->side > 0 ? " w " : " b ");
    if (p->rkind == RK_NONE) append(&o, "-");
    else {
        append(&o, p->rkind == RK_EQ ? "eq:" : p->rkind == RK_U1 ? "u1:" : "u2:");
        for (int pass = 0; pass < (p->rkind == RK_EQ ? 2 : 1); pass++) {
            const uint8_t *h = p->hand[p->rkind == RK_EQ ? !pass : 1];
            for (int i = 0; i < NORDER; i++)
                for (int k = 0; k < h[ORDER[i]]; k++) { token_of(ORDER[i], pass == 1, tk); append(&o, tk); }
        }
    }
    append(&o, " ");
    int any = 0;
    if (OPTS.arm) {
        append(&o, "arm=");
        const char *toks[OP_NTYPES]; int nt = 0;      /* tokens sorted */
        for (int ty = 1; ty <= OP_NTYPES; ty++) if (OPTS.arm >> ty & 1) toks[nt++] = UNITS[ty].tok;
        for (int i = 1; i < nt; i++) for (int j = i; j > 0 && strcmp(toks[j - 1], toks[j]) > 0; j--) {
            const char *t = toks[j]; toks[j] = toks[j - 1]; toks[j - 1] = t;
        }
        for (int i = 0; i < nt; i++) append(&o, toks[i]);
        any = 1;
    }
    if (OPTS.gna) { if (any) append(&o, ","); append(&o, "gna"); any = 1; }
    if (OPTS.shp) { if (any) append(&o, ","); append(&o, "shp"); any = 1; }
    if (!any) append(&o, "-");
    snprintf(num, sizeof num, " %d", p->ply);
    append(&o, num);
}

void op_move_str(const OMove *m, char *out) {
    char *o = out;
    *o = 0;
    if (m->from == OP_PLACE) {
        char tk[4];
        token_of(abs(m->value), 0, tk);
        append(&o, tk); append(&o, "@"); append(&o, names[m->to]);
        return;
    }
    append(&o, names[m->from]); append(&o, "-"); append(&o, names[m->to]);
    for (int i = 0; i < m->ncap; i++) { append(&o, i ? "," : "x"); append(&o, names[m->cap[i]]); }
    for (int i = 0; i < m->nconv; i++) { append(&o, i ? "," : "^"); append(&o, names[m->conv[i]]); }
    if (m->flags & OF_PROMOTE) append(&o, "=WI");
}

/* a legal move from its text; FROM-TO alone (or with =WI) names the only legal move from FROM to TO */
int op_parse_move(OPos *p, const char *text, OMove *out) {
    static OMoveList l;
    op_legal(p, &l);
    char ms[128];
    const char *txt = text;
    if (isupper((unsigned char)txt[0]) && isupper((unsigned char)txt[1]) && strchr(txt, '-')) {  /* ARe5-e5xg7 */
        txt += 2; if (*txt == '*') txt++;
    }
    for (int i = 0; i < l.n; i++) { op_move_str(&l.m[i], ms); if (!strcmp(ms, txt)) { *out = l.m[i]; return 1; } }
    if (strchr(txt, 'x') || strchr(txt, '^') || strchr(txt, '@')) return 0;
    char base[32]; snprintf(base, sizeof base, "%s", txt);
    char *eq = strstr(base, "=WI"); if (eq) *eq = 0;
    int found = -1;
    for (int i = 0; i < l.n; i++) {
        if (l.m[i].from == OP_PLACE) continue;
        char fb[16]; snprintf(fb, sizeof fb, "%s-%s", names[l.m[i].from], names[l.m[i].to]);
        if (!strcmp(fb, base)) { if (found >= 0) return 0; found = i; }
    }
    if (found < 0) return 0;
    *out = l.m[found];
    return 1;
}

/* ------------------------------------------------------------ command-line modes */
static int cmpstr(const void *a, const void *b) { return strcmp((const char *)a, (const char *)b); }
#include "clocks.h"

static const char *start_fen(const char *variant) {
    return !strcmp(variant, "optima-9x9")
        ? "9/gdgdgdgdgdgdgdgdgd/pnpnpnpnpnpnpnpnpn/9/9/9/PNPNPNPNPNPNPNPNPN/GDGDGDGDGDGDGDGDGD/9 w eq:CHFAQUREVR*chfaqurevr* - 0"
        : "10/gdgdgdgdgdgdgdgdgdgd/pnpnpnpnpnpnpnpnpnpn/10/10/10/10/PNPNPNPNPNPNPNPNPNPN/GDGDGDGDGDGDGDGDGDGD/10 w eq:ARCECHFAJUKEMAQUREVR*arcechfajukemaqurevr* - 0";
}
const char *op_start_fen(const char *variant) { return start_fen(variant); }

/* `check`: the state op_play keeps (square sets, material), the one-pass frozen map and op_count against
 * their from-scratch definitions, for a position and every position after one of its legal moves */
static void frozen_ref(const int8_t *b, int c, OBB *fz) {   /* O10 for colour c, square by square */
    memset(fz, 0, sizeof *fz);
    for (int q = 0; q < SIZE; q++)
        if (b[q] * c < 0 && A_immob[abs(b[q])] != IM_NO) freeze_around(b, q, c, fz);
}
static int same_bb(OBB a, OBB b) { return a.w[0] == b.w[0] && a.w[1] == b.w[1]; }
static const char *check_one(const OPos *p) {
    static OMoveList all, listed;
    OPos q = *p;
    op_sync(&q);
    if (!same_bb(q.occ[0], p->occ[0]) || !same_bb(q.occ[1], p->occ[1])) return "occupancy";
    if (!same_bb(q.pawns, p->pawns) || !same_bb(q.guards, p->guards)) return "pawns/guards";
    if (!same_bb(q.immob, p->immob) || !same_bb(q.royals, p->royals)) return "immobilizers/royals";
    int mat = 0;
    for (int s = 0; s < SIZE; s++) if (p->b[s]) mat += p->b[s] > 0 ? op_value(p->b[s]) : -op_value(-p->b[s]);
    if (mat != p->material) return "material";
    OBB fz[2], ref;
    op_frozen(p, fz);
    for (int ci = 0; ci < 2; ci++) { frozen_ref(p->b, ci ? 1 : -1, &ref); if (!same_bb(ref, fz[ci])) return "frozen"; }
    for (int c = -1; c <= 1; c += 2) {
        q = *p; q.side = (int8_t)c;
        op_legal(&q, &all);
        int n = op_count(p, c, &listed, NULL), k = 0;
        if (n != all.n) return "count";
        for (int i = 0; i < all.n; i++) {
            const OMove *m = &all.m[i];
            if (m->from != OP_PLACE && !m->ncap && !m->nconv && !m->flags) continue;
            if (k >= listed.n) return "listed moves";
            const OMove *o = &listed.m[k++];
            if (o->from != m->from || o->to != m->to || o->flags != m->flags || o->value != m->value || o->ncap != m->ncap
                || o->nconv != m->nconv || memcmp(o->cap, m->cap, m->ncap) || memcmp(o->conv, m->conv, m->nconv)) return "listed moves";
        }
        if (k != listed.n) return "listed moves";
    }
    return NULL;
}

int op_main(int argc, char **argv) {
    const char *mode = argv[1], *variant = argv[2];
    if (!strcmp(mode, "values")) {   /* the material table, for opponent/material.py's test */
        op_select_values(!strcmp(variant, "optima-9x9") ? 9 : 10);
        for (int t = 1; t <= OP_NTYPES; t++) printf("%s%s:%d", t > 1 ? " " : "", UNITS[t].tok, op_value(t));
        printf("\n");
        return 0;
    }
    if (!strcmp(mode, "bench") || !strcmp(mode, "search")) {
        if (argc < 4) return 2;
        OPos p; char err[200];
        const char *fen = argc > 4 ? argv[4] : start_fen(variant);
        if (!op_parse_fen(fen, &p, err, sizeof err)) { fprintf(stderr, "maxima-engine: %s\n", err); return 2; }
        double t0 = wall_seconds(), c0 = cpu_seconds();
        if (!strcmp(mode, "bench")) {
            uint64_t n = op_perft(&p, atoi(argv[3]));
            double dt = wall_seconds() - t0, dc = cpu_seconds() - c0;
            printf("perft %s depth %s: %llu leaves, %.3f s CPU (%.3f s wall), %.0f leaves/s CPU\n", variant, argv[3],
                   (unsigned long long)n, dc, dt, n / (dc > 0 ? dc : 1e-9));
        } else {
            GoParams gp; memset(&gp, 0, sizeof gp);
            gp.depth = atoi(argv[3]); gp.level = 10;
            OMove best; int found;
            op_search_go(&p, NULL, 0, &gp, &best, &found, 1);
            double dt = wall_seconds() - t0, dc = cpu_seconds() - c0;
            long long n = op_search_nodes();
            char mv[128] = "(none)";
            if (found) op_move_str(&best, mv);
            printf("search %s depth %s: %lld nodes, %.3f s CPU (%.3f s wall), %.0f nodes/s CPU, best %s\n", variant,
                   argv[3], n, dc, dt, n / (dc > 0 ? dc : 1e-9), mv);
        }
        return 0;
    }
    int depth = argc > 3 ? atoi(argv[3]) : 1;
    static char line[4096];
    static char strs[OP_MAXMOVES][128];
    static OMoveList l;
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = 0;
        if (!line[0]) continue;
        OPos p; char err[200];
        if (!op_parse_fen(line, &p, err, sizeof err)) { printf("error %s\n", err); fflush(stdout); continue; }
        if (!strcmp(mode, "perft")) printf("%llu\n", (unsigned long long)op_perft(&p, depth));
        else if (!strcmp(mode, "check")) {
            const char *bad = check_one(&p);
            int n = 1;
            op_legal(&p, &l);
            for (int i = 0; i < l.n && !bad; i++, n++) {
                OPos q = p; op_play(&q, &l.m[i]);
                bad = check_one(&q);
            }
            if (bad) printf("bad %s\n", bad); else printf("ok %d\n", n);
        }
        else if (!strcmp(mode, "moves")) {
            op_legal(&p, &l);
            for (int i = 0; i < l.n; i++) op_move_str(&l.m[i], strs[i]);
            qsort(strs, (size_t)l.n, sizeof strs[0], cmpstr);
            for (int i = 0; i < l.n; i++) printf("%s%s", i ? " " : "", strs[i]);
            printf("\n");
        } else if (!strcmp(mode, "children")) {
            char ms[128], fen[1024];
            op_legal(&p, &l);
            for (int i = 0; i < l.n; i++) {
                OPos q = p; op_play(&q, &l.m[i]);
                op_move_str(&l.m[i], ms); op_format_fen(&q, fen);
                printf("%s %s\n", ms, fen);
            }
            printf("\n");
        } else return 2;
        fflush(stdout);
    }
    return 0;
}
