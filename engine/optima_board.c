/* Optima's board (optima.md O1): the geometry of the 10x10 or 9x9 board (rays, steps, leaps, square
 * sets), the Zobrist keys, the attribute tables of a game's options (O14) and the placement order (O5). */
#include <stdio.h>
#include <string.h>
#include "optima_rules.h"

int OP_N = 10;
int OP_SIZE = 100;
int8_t op_file[OP_MAXSQ], op_rank[OP_MAXSQ];
int8_t op_rays[OP_MAXSQ][8][10];
uint8_t op_raylen[OP_MAXSQ][8];
int8_t op_stepsq[OP_MAXSQ][8];
char op_sqname[OP_MAXSQ][8];
const int OP_VEC[8][2] = {{0,1},{1,0},{0,-1},{-1,0},{1,1},{1,-1},{-1,-1},{-1,1}};
int8_t op_leaps[LV_NSETS][OP_MAXSQ][24];
uint8_t op_nleaps[LV_NSETS][OP_MAXSQ];

/* per unsigned code (type | ROYAL), under the options of the current game (O14) */
uint8_t op_shielded[128], op_resolute[128], op_armored[128], op_loyal[128], op_immob[128];
OOptions OP_OPTS;
static int geo_n;

/* ------------------------------------------------------------ square sets */
OBB OP_BOARD, OP_RANK_LAST[2];          /* all squares; the last rank of Black [0] (rank 1) and White [1] */
OBB OP_NEAR_LAST[2];                 /* the last three ranks of Black [0] and White [1]: a pawn's promotions */
OBB OP_AROUND[OP_MAXSQ];             /* the (up to) eight squares next to a square */
OBB OP_SHIFT_KEEP[8];                /* the squares a shift by OP_VEC[d] may reach (no wrap over the edge) */
int OP_SHIFT_BY[8];                  /* the index change of a step in direction d */

static void op_build_geo(int n) {
    OP_N = n; OP_SIZE = n * n;
    memset(&OP_BOARD, 0, sizeof OP_BOARD); memset(OP_RANK_LAST, 0, sizeof OP_RANK_LAST); memset(OP_NEAR_LAST, 0, sizeof OP_NEAR_LAST);
    for (int s = 0; s < OP_SIZE; s++) {
        bb_set(&OP_BOARD, s);
        if (s < n) bb_set(&OP_RANK_LAST[0], s);
        if (s >= OP_SIZE - n) bb_set(&OP_RANK_LAST[1], s);
        if (s < 3 * n) bb_set(&OP_NEAR_LAST[0], s);
        if (s >= OP_SIZE - 3 * n) bb_set(&OP_NEAR_LAST[1], s);
    }
    for (int d = 0; d < 8; d++) {
        OP_SHIFT_BY[d] = OP_VEC[d][1] * n + OP_VEC[d][0];
        OP_SHIFT_KEEP[d] = OP_BOARD;
        for (int s = 0; s < OP_SIZE; s++)
            if ((OP_VEC[d][0] > 0 && s % n == 0) || (OP_VEC[d][0] < 0 && s % n == n - 1)) OP_SHIFT_KEEP[d].w[s >> 6] &= ~(1ULL << (s & 63));
    }
    for (int s = 0; s < OP_SIZE; s++) {
        int f = s % n, r = s / n + 1;
        op_file[s] = (int8_t)f; op_rank[s] = (int8_t)r;
        snprintf(op_sqname[s], sizeof op_sqname[s], "%c%d", 'a' + f, r);
        for (int d = 0; d < 8; d++) {
            int k = 0, ff = f, rr = r, q;
            while ((q = op_at(ff + OP_VEC[d][0], rr + OP_VEC[d][1])) >= 0) { op_rays[s][d][k++] = (int8_t)q; ff += OP_VEC[d][0]; rr += OP_VEC[d][1]; }
            op_raylen[s][d] = (uint8_t)k;
            op_stepsq[s][d] = (int8_t)op_at(f + OP_VEC[d][0], r + OP_VEC[d][1]);
        }
        memset(&OP_AROUND[s], 0, sizeof OP_AROUND[s]);
        for (int d = 0; d < 8; d++) if (op_stepsq[s][d] >= 0) bb_set(&OP_AROUND[s], op_stepsq[s][d]);
        for (int i = 0; i < LV_NSETS; i++) {
            int k = 0;
            for (int j = 0; j < OP_VS[i].n; j++) {
                int q = op_at(f + OP_VS[i].v[j][0], r + OP_VS[i].v[j][1]);
                if (q >= 0) op_leaps[i][s][k++] = (int8_t)q;
            }
            op_nleaps[i][s] = (uint8_t)k;
        }
    }
    geo_n = n;
}

uint64_t OP_ZK[OP_MAXSQ][256], OP_ZSIDE, OP_ZHAND[2][128][21];   /* a hand holds at most 20 units of a code (O4) */
static int op_zinit;
static void op_init_zobrist(void) {
    uint64_t x = 0x9E3779B97F4A7C15ULL;
    #define NEXT (x ^= x << 13, x ^= x >> 7, x ^= x << 17, x)
    for (int s = 0; s < OP_MAXSQ; s++) for (int v = 0; v < 256; v++) OP_ZK[s][v] = NEXT;
    OP_ZSIDE = NEXT;
    for (int c = 0; c < 2; c++) for (int k = 0; k < 128; k++) for (int j = 0; j < 12; j++) OP_ZHAND[c][k][j] = NEXT;
    for (int c = 0; c < 2; c++) for (int k = 0; k < 128; k++) for (int j = 12; j < 21; j++) OP_ZHAND[c][k][j] = NEXT;
    op_zinit = 1;
}

void op_select(int n, const OOptions *o) {
    if (!op_zinit) { op_init_zobrist(); op_build_vecsets(); op_build_distinct(); }
    if (geo_n != n) op_build_geo(n);
    op_select_values(n);
    OP_OPTS = *o;
    for (int code = 0; code < 128; code++) {
        int valid = (code & OP_TYPE) >= 1 && (code & OP_TYPE) < OP_NUNITS;
        const Unit *u = &OP_UNITS[valid ? code & OP_TYPE : 0];
        op_shielded[code] = valid && (u->shielded || (o->shp && u->kind == KD_PAWN));
        op_resolute[code] = valid && u->resolute;
        op_armored[code] = valid && ((u->armored && !(o->gna && u->kind == KD_GUARD)) || ((o->arm >> (code & OP_TYPE)) & 1));
        op_loyal[code] = valid && u->loyal;
        op_immob[code] = valid ? u->immob : IM_NO;
    }
}

int op_is_variant(const char *name) { return !strcmp(name, "optima") || !strcmp(name, "optima-9x9"); }

/* ------------------------------------------------------------ reserve and placement (O5) */
int op_set_size(void) { return OP_N == 10 ? 10 : 5; }
int op_side_at(int kind, int i) {
    if (kind == RK_EQ) return i % 2 == 0 ? 1 : -1;
    if (i == 0) return 1;
    return ((i - 1) / 2) % 2 == 0 ? -1 : 1;
}
int OP_ORDER[128], OP_NORDER;   /* placeable codes in canonical order (token letters, plain before royal) */
void op_build_order(void) {
    if (OP_NORDER) return;
    for (int t = 1; t <= OP_NTYPES; t++) {
        if (OP_UNITS[t].kind != KD_PIECE) continue;
        for (int r = 0; r < 2; r++) OP_ORDER[OP_NORDER++] = t | (r ? OP_ROYAL : 0);
    }
    for (int i = 1; i < OP_NORDER; i++) {   /* insertion sort by (token, royal) */
        int k = OP_ORDER[i], j = i - 1;
        while (j >= 0) {
            int cmp = strcmp(OP_UNITS[OP_ORDER[j] & OP_TYPE].tok, OP_UNITS[k & OP_TYPE].tok);
            if (cmp > 0 || (cmp == 0 && (OP_ORDER[j] & OP_ROYAL) > (k & OP_ROYAL))) { OP_ORDER[j + 1] = OP_ORDER[j]; j--; }
            else break;
        }
        OP_ORDER[j + 1] = k;
    }
}
