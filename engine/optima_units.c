/* Optima's 56 unit types as data (optima.md O2, O3; src/maxima_board/rules/variants/optima.py): each a list of
 * primitive instances with parameters (movers.py, effects.py); the vector sets of the leaps; which types
 * count their plain moves without marks; the material values of the 10x10 and 9x9 boards. */
#include <string.h>
#include "optima_rules.h"

/* ------------------------------------------------------------ vector sets (movers.py) */
VecSet OP_VS[LV_NSETS];

static const int W_[4][2] = {{0,1},{1,0},{0,-1},{-1,0}};
static const int F_[4][2] = {{1,1},{1,-1},{-1,-1},{-1,1}};
static const int N_[8][2] = {{1,2},{2,1},{2,-1},{1,-2},{-1,-2},{-2,-1},{-2,1},{-1,2}};
static const int C_[8][2] = {{1,3},{3,1},{3,-1},{1,-3},{-1,-3},{-3,-1},{-3,1},{-1,3}};

static void vs_add(VecSet *s, const int (*v)[2], int n, int k) {
    for (int i = 0; i < n; i++) { s->v[s->n][0] = k * v[i][0]; s->v[s->n][1] = k * v[i][1]; s->n++; }
}
void op_build_vecsets(void) {
    memset(OP_VS, 0, sizeof OP_VS);
    vs_add(&OP_VS[LV_W], W_, 4, 1);
    vs_add(&OP_VS[LV_F], F_, 4, 1);
    vs_add(&OP_VS[LV_K], W_, 4, 1); vs_add(&OP_VS[LV_K], F_, 4, 1);
    vs_add(&OP_VS[LV_N], N_, 8, 1);
    vs_add(&OP_VS[LV_D], W_, 4, 2);
    vs_add(&OP_VS[LV_KN], W_, 4, 1); vs_add(&OP_VS[LV_KN], F_, 4, 1); vs_add(&OP_VS[LV_KN], N_, 8, 1);
    vs_add(&OP_VS[LV_WFNC], W_, 4, 1); vs_add(&OP_VS[LV_WFNC], F_, 4, 1); vs_add(&OP_VS[LV_WFNC], N_, 8, 1);
    vs_add(&OP_VS[LV_WFNC], C_, 8, 1);
    for (int k = 1; k <= 3; k++) { vs_add(&OP_VS[LV_K123], W_, 4, k); vs_add(&OP_VS[LV_K123], F_, 4, k); }
    for (int k = 2; k <= 3; k++) { vs_add(&OP_VS[LV_K23], W_, 4, k); vs_add(&OP_VS[LV_K23], F_, 4, k); }
    for (int k = 1; k <= 2; k++) { vs_add(&OP_VS[LV_K12], W_, 4, k); vs_add(&OP_VS[LV_K12], F_, 4, k); }
    vs_add(&OP_VS[LV_FA], F_, 4, 1); vs_add(&OP_VS[LV_FA], F_, 4, 2);
    vs_add(&OP_VS[LV_WD], W_, 4, 1); vs_add(&OP_VS[LV_WD], W_, 4, 2);
    vs_add(&OP_VS[LV_NDA], N_, 8, 1); vs_add(&OP_VS[LV_NDA], W_, 4, 2); vs_add(&OP_VS[LV_NDA], F_, 4, 2);
}

/* primitive constructors (parameters as in src/maxima_board/rules/variants/optima.py) */
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

const Unit OP_UNITS[OP_NTYPES + 1] = {
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

_Static_assert(sizeof OP_UNITS / sizeof OP_UNITS[0] == OP_NTYPES + 1, "OP_UNITS: one entry per type code, 0 unused");
/* OP_DISTINCT[type]: no two plain moves (O6) of a unit of this type can ever be equal, so counting them
 * needs no marks: each primitive's plain targets are distinct (a leap's vectors, a line's squares) and
 * no two primitives can reach the same square (checked on an open board from a central square) */
uint8_t OP_DISTINCT[OP_NTYPES + 1];
void op_build_distinct(void) {
    for (int ty = 1; ty <= OP_NTYPES; ty++) {
        const Unit *u = &OP_UNITS[ty];
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
                for (int j = 0; j < OP_VS[p->vecs].n; j++) reach[i][OP_VS[p->vecs].v[j][0] + 10][OP_VS[p->vecs].v[j][1] + 10] = 1;
                break;
            case P_SLIDE: case P_FLY: case P_FLYHOP: case P_PLOW: case P_STOP: case P_APPROACH:
                for (int d = 0; d < 8; d++) {
                    if (!(p->dirs >> d & 1)) continue;
                    for (int k = 1; k <= (p->range ? p->range : 9); k++) reach[i][OP_VEC[d][0] * k + 10][OP_VEC[d][1] * k + 10] = 1;
                }
                break;
            case P_SCREEN: case P_LEAPCONV: break;                 /* never plain */
            default: ok = 0;                                       /* riders, bent paths, double leaps, zig-zags */
            }
        }
        for (int i = 0; i < u->np && ok; i++)
            for (int j = i + 1; j < u->np && ok; j++)
                for (int f = 0; f < 21 && ok; f++) for (int r = 0; r < 21; r++) if (reach[i][f][r] && reach[j][f][r]) { ok = 0; break; }
        OP_DISTINCT[ty] = (uint8_t)ok;
    }
}

/* the 9x9 board's own values (optima-9x9), by token, over OP_UNITS' (10x10) values: all 56 fitted to
 * self-play on 9x9 from varied forces (src/maxima_board/opponent/tune.py --forces; docs/opponent-engine.md, Optima) */
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
        int ty = code & OP_TYPE;           /* 0..63, but OP_UNITS ends at OP_NTYPES: the codes past it are worth 0 */
        OP_VALUES[code] = ty < OP_NUNITS ? OP_UNITS[ty].value : 0;
        if (n == 9 && ty >= 1 && ty < OP_NUNITS)
            for (int i = 0; VALUES_9X9[i].tok; i++)
                if (!strcmp(VALUES_9X9[i].tok, OP_UNITS[ty].tok)) OP_VALUES[code] = VALUES_9X9[i].value;
    }
}
__attribute__((constructor)) static void init_values(void) {   /* before any position is read */
    op_select_values(10);
}

const char *op_token(int code) { return (code & OP_TYPE) < OP_NUNITS ? OP_UNITS[code & OP_TYPE].tok : OP_UNITS[0].tok; }
