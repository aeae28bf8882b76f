/* The evaluation of Maxima, Ultima and Deckle's games, for White (the search, search.c, turns it to the
 * side to move's view and adds the tempo bonus and the weak levels' noise): material (engine.h's
 * PType.value, variants.c, values.h), frozen pieces at half, the sliders' mobility on a grid, Pawn
 * advancement and the game phase, Maxima's palace, and the evaluation terms (terms.h, kept_terms.h),
 * with a small cache by position key. */
#include <stdlib.h>
#include <string.h>
#include "engine.h"
#include "eval.h"

/* ------------------------------------------------------------ mobility on a grid
 * The evaluation's slider mobility (the empty squares within three steps
 * along each ray) of all pieces at once. The board's cells are laid on a grid
 * of files x ranks bits (one or two words), where a step in a direction is a
 * shift. E1, E2, E3 of a direction are the cells whose first one, two, three
 * cells that way are empty (E3 within E2 within E1): a cell's count in that
 * direction, 0..3, is E1 + E2 + E3, in binary (E1 ^ E2 ^ E3, E2). The counts of
 * the directions are added as bit planes (bit k of every cell's sum), and a
 * colour's mobility is the sum of 2^k times the number of its pieces' cells in
 * plane k. */
typedef struct { uint64_t w[2]; } Grid;
static int mg_ok;                    /* the board fits (else each piece's rays are walked) */
static int mg_words;                 /* 1 (up to 64 cells) or 2 */
static int mg_step[8];               /* a step in each direction on the grid, in bits */
static Grid mg_edge[8];              /* the grid cells with a grid cell next to them in each direction */
static Grid mg_cells;                /* the board's cells */
static uint8_t mg_bit[MAXSQ];        /* the grid bit of each square */
static int mg_offset;                /* grid bit - square, for most squares */
/* the other squares (Maxima's goal squares): after the shift by mg_offset,
 * the bits of mg_odd[w] move by mg_odd_by[w] within word w */
static uint64_t mg_odd[2]; static int mg_odd_by[2], mg_odd_up[2], mg_odd_down[2];

static void mob_prepare(void) {
    const Geo *g = &V.g;
    static const int df[8] = {0, 1, 0, -1, 1, 1, -1, -1}, dr[8] = {1, 0, -1, 0, 1, -1, -1, 1};   /* N E S W NE SE SW NW */
    int files = g->files, ranks = g->max_rank - g->min_rank + 1;
    memset(&mg_cells, 0, sizeof mg_cells); memset(mg_edge, 0, sizeof mg_edge);
    mg_ok = files * ranks <= 128 && g->size > 0;
    if (!mg_ok) return;
    mg_words = files * ranks > 64 ? 2 : 1;
    for (int d = 0; d < 8; d++) mg_step[d] = dr[d] * files + df[d];
    for (int r = 0; r < ranks; r++)
        for (int f = 0; f < files; f++)
            for (int d = 0; d < 8; d++)
                if (f + df[d] >= 0 && f + df[d] < files && r + dr[d] >= 0 && r + dr[d] < ranks)
                    mg_edge[d].w[(r * files + f) >> 6] |= 1ULL << ((r * files + f) & 63);
    for (int s = 0; s < g->size; s++) {
        mg_bit[s] = (uint8_t)((g->rank_of[s] - g->min_rank) * files + g->file_of[s]);
        mg_cells.w[mg_bit[s] >> 6] |= 1ULL << (mg_bit[s] & 63);
    }
    mg_offset = mg_bit[g->size / 2] - g->size / 2;
    if (mg_offset < 0 || mg_offset > 63) mg_ok = 0;
    mg_odd[0] = mg_odd[1] = 0; mg_odd_by[0] = mg_odd_by[1] = 0;
    for (int s = 0; s < g->size; s++) {
        int at = s + mg_offset, by = mg_bit[s] - at;
        if (!by) continue;
        /* an odd square shifted by the offset must land on no cell, in the word of its cell, and move
         * by the same amount as the word's other odd squares */
        if (at >= 128 || ((mg_cells.w[at >> 6] >> (at & 63)) & 1) || at >> 6 != mg_bit[s] >> 6
            || (mg_odd[at >> 6] && mg_odd_by[at >> 6] != by)) { mg_ok = 0; break; }
        mg_odd[at >> 6] |= 1ULL << (at & 63); mg_odd_by[at >> 6] = by;
    }
    for (int w = 0; w < 2; w++) { mg_odd_up[w] = mg_odd_by[w] > 0 ? mg_odd_by[w] : 0; mg_odd_down[w] = mg_odd_by[w] < 0 ? -mg_odd_by[w] : 0; }
}

/* a square mask (two words) on the grid */
static inline Grid to_grid(const uint64_t *m) {
    Grid r;
    int k = mg_offset;
    if (!k) { r.w[0] = m[0]; r.w[1] = m[1]; }
    else { r.w[0] = m[0] << k; r.w[1] = (m[1] << k) | (m[0] >> (64 - k)); }
    for (int w = 0; w < 2; w++)
        if (mg_odd[w]) {
            uint64_t odd = r.w[w] & mg_odd[w];
            r.w[w] = (r.w[w] & ~mg_odd[w]) | ((odd << mg_odd_up[w]) >> mg_odd_down[w]);
        }
    return r;
}

/* bit i of the result = bit i + k of x (k = +-1..63) */
static inline __attribute__((always_inline)) Grid grid_shift(Grid x, int k, int nw) {
    Grid r;
    if (nw == 1) { r.w[0] = k > 0 ? x.w[0] >> k : x.w[0] << -k; r.w[1] = 0; }
    else if (k > 0) { r.w[0] = (x.w[0] >> k) | (x.w[1] << (64 - k)); r.w[1] = x.w[1] >> k; }
    else { r.w[1] = (x.w[1] << -k) | (x.w[0] >> (64 + k)); r.w[0] = x.w[0] << -k; }
    return r;
}

/* the bit-wise sum lo + 2 hi of two 3-plane numbers: s[0..3] */
static inline void add_lo_2hi(const uint64_t *lo, const uint64_t *hi, uint64_t *s) {
    uint64_t k = lo[1] & hi[0], x = lo[2] ^ hi[1];
    s[0] = lo[0]; s[1] = lo[1] ^ hi[0];
    s[2] = x ^ k; s[3] = hi[2] ^ ((lo[2] & hi[1]) | (x & k));
}

/* the bit-wise sum of four planes: s[0..2] */
static inline void add4(uint64_t a, uint64_t b, uint64_t c, uint64_t d, uint64_t *s) {
    uint64_t x = a ^ b, y = c ^ d, ab = a & b, cd = c & d, k = x & y, t = ab ^ cd;
    s[0] = x ^ y; s[1] = t ^ k; s[2] = (ab & cd) | (t & k);
}

/* sum over k < n of 2^k x the bits of m in plane k, in 16-bit lanes */
static inline __attribute__((always_inline)) uint64_t lanes_weighted(uint64_t m, const uint64_t *plane, int n) {
    uint64_t acc = 0;   /* bytes: at most 8 x (2^n - 1) <= 248 */
    for (int k = 0; k < n; k++) acc += byte_pop(m & plane[k]) << k;
    return (acc & 0x00FF00FF00FF00FFULL) + ((acc >> 8) & 0x00FF00FF00FF00FFULL);
}

/* mob[ci] = the mobility of the pieces of colour index ci on the squares of
 * all[ci] (every direction) and diag[ci] (the diagonal directions only); nw
 * and files are constants in the calls of mobility() */
static inline __attribute__((always_inline))
void mob_count(const Pos *p, const uint64_t all_sq[2][2], const uint64_t diag_sq[2][2], const uint64_t orth_sq[2][2],
               const uint64_t xorth_sq[2][2], int mob[2], int xmob[2], const int nw, const int files) {
    uint64_t occ[2] = {p->occ[0][0] | p->occ[1][0], p->occ[0][1] | p->occ[1][1]};
    Grid occg = to_grid(occ), empty, all[2], diag[2], orth[2];
    for (int w = 0; w < 2; w++) empty.w[w] = mg_cells.w[w] & ~occg.w[w];
    int any_diag = (diag_sq[0][0] | diag_sq[0][1] | diag_sq[1][0] | diag_sq[1][1]) != 0;
    int any_orth = (orth_sq[0][0] | orth_sq[0][1] | orth_sq[1][0] | orth_sq[1][1]) != 0;
    int any_xorth = (xorth_sq[0][0] | xorth_sq[0][1] | xorth_sq[1][0] | xorth_sq[1][1]) != 0;
    Grid xorth[2];
    for (int ci = 0; ci < 2; ci++) {
        all[ci] = to_grid(all_sq[ci]);
        if (any_diag) diag[ci] = to_grid(diag_sq[ci]);
        if (any_orth) orth[ci] = to_grid(orth_sq[ci]);
        if (any_xorth) xorth[ci] = to_grid(xorth_sq[ci]);
    }
    const int step[8] = {files, 1, -files, -1, files + 1, -files + 1, -files - 1, files - 1};   /* N E S W NE SE SW NW */
    uint64_t lo[8][2], hi[8][2];
#pragma GCC unroll 8
    for (int d = 0; d < 8; d++) {
        int k = files ? step[d] : mg_step[d];
        Grid e1 = grid_shift(empty, k, nw), e2, e3;
        for (int w = 0; w < nw; w++) e1.w[w] &= mg_edge[d].w[w];
        e2 = grid_shift(e1, k, nw);
        for (int w = 0; w < nw; w++) e2.w[w] &= e1.w[w];
        e3 = grid_shift(e2, k, nw);
        for (int w = 0; w < nw; w++) { e3.w[w] &= e1.w[w]; lo[d][w] = e1.w[w] ^ e2.w[w] ^ e3.w[w]; hi[d][w] = e2.w[w]; }
    }
    uint64_t lanes[2] = {0, 0}, xlanes[2] = {0, 0};
    for (int w = 0; w < nw; w++) {
        uint64_t a[3], b[3], c[3], e[3], l[4], h[4], t[5], k, x;
        add4(lo[0][w], lo[1][w], lo[2][w], lo[3][w], a); add4(hi[0][w], hi[1][w], hi[2][w], hi[3][w], b);
        add4(lo[4][w], lo[5][w], lo[6][w], lo[7][w], c); add4(hi[4][w], hi[5][w], hi[6][w], hi[7][w], e);
        /* l = a + c, h = b + e (the sums of the low and high bits), t = l + 2h (every direction) */
        l[0] = a[0] ^ c[0]; k = a[0] & c[0];
        x = a[1] ^ c[1]; l[1] = x ^ k; k = (a[1] & c[1]) | (x & k);
        x = a[2] ^ c[2]; l[2] = x ^ k; l[3] = (a[2] & c[2]) | (x & k);
        h[0] = b[0] ^ e[0]; k = b[0] & e[0];
        x = b[1] ^ e[1]; h[1] = x ^ k; k = (b[1] & e[1]) | (x & k);
        x = b[2] ^ e[2]; h[2] = x ^ k; h[3] = (b[2] & e[2]) | (x & k);
        t[0] = l[0]; t[1] = l[1] ^ h[0]; k = l[1] & h[0];
        x = l[2] ^ h[1]; t[2] = x ^ k; k = (l[2] & h[1]) | (x & k);
        x = l[3] ^ h[2]; t[3] = x ^ k; k = (l[3] & h[2]) | (x & k);
        t[4] = h[3] ^ k;   /* at most 24: no carry beyond */
        for (int ci = 0; ci < 2; ci++) if (all[ci].w[w]) lanes[ci] += lanes_weighted(all[ci].w[w], t, 5);
        if (any_diag && (diag[0].w[w] | diag[1].w[w])) {   /* diagonal directions only: c + 2e */
            uint64_t dg[4];
            add_lo_2hi(c, e, dg);
            for (int ci = 0; ci < 2; ci++) if (diag[ci].w[w]) lanes[ci] += lanes_weighted(diag[ci].w[w], dg, 4);
        }
        if (any_orth && (orth[0].w[w] | orth[1].w[w])) {   /* orthogonal directions only (Deckle's Rook): a + 2b */
            uint64_t og[4];
            add_lo_2hi(a, b, og);
            for (int ci = 0; ci < 2; ci++) if (orth[ci].w[w]) lanes[ci] += lanes_weighted(orth[ci].w[w], og, 4);
        }
        if (any_xorth && (xorth[0].w[w] | xorth[1].w[w])) {   /* the evaluation terms' orthogonal Pawns: a + 2b apart */
            uint64_t og[4];
            add_lo_2hi(a, b, og);
            for (int ci = 0; ci < 2; ci++) if (xorth[ci].w[w]) xlanes[ci] += lanes_weighted(xorth[ci].w[w], og, 4);
        }
    }
    for (int ci = 0; ci < 2; ci++) mob[ci] = (int)((lanes[ci] * 0x0001000100010001ULL) >> 48);
    for (int ci = 0; ci < 2; ci++) xmob[ci] = (int)((xlanes[ci] * 0x0001000100010001ULL) >> 48);
}
static void mobility(const Pos *p, const uint64_t all_sq[2][2], const uint64_t diag_sq[2][2],
                     const uint64_t orth_sq[2][2], const uint64_t xorth_sq[2][2], int mob[2], int xmob[2]) {
    if (mg_words == 1 && V.g.files == 8) mob_count(p, all_sq, diag_sq, orth_sq, xorth_sq, mob, xmob, 1, 8);          /* Ultima */
    else if (mg_words == 2 && V.g.files == 8) mob_count(p, all_sq, diag_sq, orth_sq, xorth_sq, mob, xmob, 2, 8);     /* Maxima */
    else if (mg_words == 2 && V.g.files == 10) mob_count(p, all_sq, diag_sq, orth_sq, xorth_sq, mob, xmob, 2, 10);   /* Deckle's games */
    else if (mg_words == 1) mob_count(p, all_sq, diag_sq, orth_sq, xorth_sq, mob, xmob, 1, 0);
    else mob_count(p, all_sq, diag_sq, orth_sq, xorth_sq, mob, xmob, 2, 0);
}

/* ------------------------------------------------------------ evaluation */
/* Material values are in engine.h's PType.value (variants.c). Frozen pieces
 * count half; a slider's reach adds mobility; Maxima's palace: enemy pieces on
 * or next to the own goal squares cost, own Guards near it pay. */
static uint8_t ev_mobdirs[MAXTYPES];    /* directions whose empty squares count as mobility */
/* the types whose mobility mobility() counts: in every direction, in the diagonal ones, in the
 * orthogonal ones; any type whose mobility each piece's rays count (ev_ray3) */
static uint8_t ev_mob_all[MAXTYPES], ev_mob_diag[MAXTYPES], ev_mob_orth[MAXTYPES];
static int ev_mob_rays, ev_mob_part_any;   /* ev_mob_part_any: some type counts only the diagonal or orthogonal ones */
static int16_t ev_vsq[2][MAXTYPES][MAXSQ];  /* ev_val + ev_sq: a piece's value and square bonus */
static int8_t ev_ray3[MAXSQ][8][3];     /* the first three squares of each ray, padded with the square itself (occupied) */
static int16_t ev_sq[2][MAXTYPES][MAXSQ]; /* [colour index][type][square]: Pawn advancement and palace pressure */
static int ev_val[MAXTYPES];
static int ev_pawn_delta;               /* the Pawn's endgame value minus its value (0: no phase term) */
static int ev_pawn_run;                 /* the endgame bonus of a Pawn one step from promotion (0: none) */
static int16_t ev_run[2][MAXSQ];        /* [colour index][square]: a Pawn's advance share squared, 0..1024 */
static const VariantDef *ev_def;

/* ------------------------------------------------------------ evaluation terms
 * Beyond material, linear in their weights (terms.h, Variant.w_*), each group switched by the EvalTerms
 * mask (eval_terms): placement (w_place[t] per ring of centrality of the square: 0 on the edge ring, 1 on
 * the next, ...; Maxima's goal squares are on the edge), the mobility of the kinds the slider term above
 * skips (w_mob[t] per square: a leaper's (King, Guard, Knight) empty targets, an orthogonal Pawn's (Ultima,
 * Maxima) empty squares within three steps of each line, a Mage's empty diagonal steps, a Deckle Pawn's
 * empty square ahead; frozen pieces none) and safety (w_safety per piece: TS_SHIELD own pieces next to
 * the own King, TS_NEAR2 enemy pieces two squares from it (Chebyshev), TS_FREEZER enemy freezers within two
 * squares of it; Maxima: TS_GOALDEF own pieces other than the King next to an own goal square, TS_GOAL2
 * enemy pieces two squares from the nearest own goal square). Placement is folded into ev_vsq. */
int eval_terms = ET_ALL;
/* the groups evaluate() adds: those of EvalTerms that a check match kept for the family (kept_terms.h),
 * or all of EvalTerms with ET_UNCHECKED (a check match of the fitted weights, the tests of the terms) */
static int terms_on(void) { return eval_terms & ET_ALL & (eval_terms & ET_UNCHECKED ? ET_ALL : V.kept_terms); }
enum { XM_NONE, XM_LEAP, XM_ORTH3, XM_MAGE, XM_PAWN };
static int ev_terms = -1;               /* the mask eval_prepare used */
static int8_t ev_cen[MAXSQ];            /* a square's ring of centrality */
static uint8_t ev_xmob[MAXTYPES];       /* XM_: the kind of a type's extra mobility */
static uint64_t ev_leap[MAXTYPES][MAXSQ][2];   /* XM_LEAP: the type's targets from a square */
static uint64_t ev_near1[MAXSQ][2], ev_ring2[MAXSQ][2];   /* the squares at Chebyshev distance 1, 2 */
static uint64_t ev_goal_adj[2][2], ev_goal_ring2[2][2];    /* [colour index]: next to / two from the own goal squares */
static int ev_wmob[MAXTYPES], ev_wsafe[NSAFETY];   /* the weights EvalTerms lets through */
static int ev_xmob_any, ev_safe_any;
static uint8_t ev_xm_piece[MAXTYPES];   /* the types whose extra mobility xmob_counts() counts in evaluate() */
static uint8_t ev_xm_grid[MAXTYPES];    /* the one XM_ORTH3 type mobility() counts apart (else in xmob_counts) */
static int ev_xm_grid_type;             /* that type, 0: none */

static void terms_prepare(void) {
    const Geo *g = &V.g;
    int lo = g->min_rank + (V.palace ? 1 : 0), hi = g->max_rank - (V.palace ? 1 : 0);
    for (int s = 0; s < g->size; s++) {
        int f = g->file_of[s], r = g->rank_of[s], c = f < g->files - 1 - f ? f : g->files - 1 - f;
        if (r - lo < c) c = r - lo;
        if (hi - r < c) c = hi - r;
        ev_cen[s] = (int8_t)(c > 0 ? c : 0);
    }
    memset(ev_near1, 0, sizeof ev_near1); memset(ev_ring2, 0, sizeof ev_ring2);
    for (int s = 0; s < g->size; s++)
        for (int t = 0; t < g->size; t++) {
            int df = abs(g->file_of[s] - g->file_of[t]), dr = abs(g->rank_of[s] - g->rank_of[t]);
            int d = df > dr ? df : dr;
            if (d == 1) ev_near1[s][t >> 6] |= 1ULL << (t & 63);
            if (d == 2) ev_ring2[s][t >> 6] |= 1ULL << (t & 63);
        }
    memset(ev_goal_adj, 0, sizeof ev_goal_adj); memset(ev_goal_ring2, 0, sizeof ev_goal_ring2);
    if (V.palace)
        for (int ci = 0; ci < 2; ci++) {
            uint64_t goals[2] = {0, 0};
            for (int j = 0; j < 2; j++) {
                int s = V.goals[ci ? 2 : 0][j];
                goals[s >> 6] |= 1ULL << (s & 63);
                for (int w = 0; w < 2; w++) { ev_goal_adj[ci][w] |= ev_near1[s][w]; ev_goal_ring2[ci][w] |= ev_ring2[s][w]; }
            }
            for (int w = 0; w < 2; w++) {
                ev_goal_adj[ci][w] &= ~goals[w];
                ev_goal_ring2[ci][w] &= ~(goals[w] | ev_goal_adj[ci][w]);
            }
        }
    memset(ev_leap, 0, sizeof ev_leap);
    ev_xmob_any = ev_safe_any = 0;
    for (int t = 0; t < MAXTYPES; t++) {
        const Prim *pr = &V.t[t].prim[0];
        ev_xmob[t] = XM_NONE;
        if (t >= 1 && t <= V.ntypes && !ev_mobdirs[t]) {
            if (pr->kind == PR_LEAP) {
                ev_xmob[t] = XM_LEAP;
                for (int s = 0; s < g->size; s++)
                    for (int i = 0; i < V.nleaps[pr->leaptab][s]; i++) {
                        int x = V.leaps[pr->leaptab][s][i];
                        ev_leap[t][s][x >> 6] |= 1ULL << (x & 63);
                    }
            } else if (pr->kind == PR_SLIDE) ev_xmob[t] = XM_ORTH3;
            else if (pr->kind == PR_MAGE) ev_xmob[t] = XM_MAGE;
            else if (pr->kind == PR_PAWN) ev_xmob[t] = XM_PAWN;
        }
        ev_wmob[t] = (terms_on() & ET_MOBILITY) && ev_xmob[t] && t <= V.ntypes ? V.w_mob[t] : 0;
        ev_xmob_any |= ev_wmob[t] != 0;
    }
    ev_xm_grid_type = 0;
    for (int t = 0; t < MAXTYPES; t++) {
        ev_xm_grid[t] = 0;
        ev_xm_piece[t] = ev_wmob[t] != 0;
        if (ev_wmob[t] && ev_xmob[t] == XM_ORTH3 && mg_ok && !ev_xm_grid_type) {
            ev_xm_grid_type = t; ev_xm_grid[t] = 1; ev_xm_piece[t] = 0;
        }
    }
    for (int i = 0; i < NSAFETY; i++) {
        ev_wsafe[i] = terms_on() & ET_SAFETY ? V.w_safety[i] : 0;
        if (!V.palace && (i == TS_GOALDEF || i == TS_GOAL2)) ev_wsafe[i] = 0;
        ev_safe_any |= ev_wsafe[i] != 0;
    }
    ev_terms = eval_terms;
}

/* the terms' counts of colour index ci: xm[t] the extra mobility of its pieces of type t, sf[] the
 * safety counts; fz the frozen pieces */
static inline int popcount2(const uint64_t *a, const uint64_t *m) { return popcount64(a[0] & m[0]) + popcount64(a[1] & m[1]); }
static void xmob_counts(const Pos *p, const uint64_t *pieces, int ci, int *xm) {
    const int c = ci ? 1 : -1;
    const uint64_t empty[2] = {~(p->occ[0][0] | p->occ[1][0]), ~(p->occ[0][1] | p->occ[1][1])};
    for (int w = 0; w < 2; w++)
        for (uint64_t bits = pieces[w]; bits; bits &= bits - 1) {
            int s = w * 64 + __builtin_ctzll(bits), t = p->b[s] * c, n = 0;
            switch (ev_xmob[t]) {
            case XM_NONE: continue;
            case XM_LEAP: n = popcount2(empty, ev_leap[t][s]); break;
            case XM_ORTH3:
                for (int d = 0; d < 4; d++) {
                    const int8_t *r3 = ev_ray3[s][d];
                    int e1 = p->b[r3[0]] == 0, e2 = e1 & (p->b[r3[1]] == 0), e3 = e2 & (p->b[r3[2]] == 0);
                    n += e1 + e2 + e3;
                }
                break;
            case XM_MAGE:
                for (int d = 4; d < 8; d++) { int x = V.g.step[s][d]; n += x >= 0 && p->b[x] == 0; }
                break;
            default: { int x = V.pawn_step[c + 1][s]; n = x >= 0 && p->b[x] == 0; }   /* XM_PAWN */
            }
            xm[t] += n;
        }
}
static void safety_counts(const Pos *p, int ci, int *sf) {
    int k = p->king[ci ? 2 : 0];
    const uint64_t *own = p->occ[ci], *enemy = p->occ[!ci];
    if (k >= 0) {
        uint64_t near2[2] = {ev_near1[k][0] | ev_ring2[k][0], ev_near1[k][1] | ev_ring2[k][1]};
        uint64_t efrz[2] = {p->frz[0] & enemy[0], p->frz[1] & enemy[1]};
        sf[TS_SHIELD] += popcount2(own, ev_near1[k]);
        sf[TS_NEAR2] += popcount2(enemy, ev_ring2[k]);
        sf[TS_FREEZER] += popcount2(efrz, near2);
    }
    if (V.palace) {
        uint64_t own_nk[2] = {own[0], own[1]};
        if (k >= 0) own_nk[k >> 6] &= ~(1ULL << (k & 63));
        sf[TS_GOALDEF] += popcount2(own_nk, ev_goal_adj[ci]);
        sf[TS_GOAL2] += popcount2(enemy, ev_goal_ring2[ci]);
    }
}
/* White's score of the mobility and safety terms (placement is in ev_vsq): xm_sq the squares of the pieces
 * (not frozen) whose extra mobility xmob_counts() counts, xgrid the extra mobility of ev_xm_grid_type's */
static int terms_score(const Pos *p, const uint64_t xm_sq[2][2], const int xgrid[2]) {
    int score = 0;
    if (ev_xmob_any) {
        int xm[2][MAXTYPES] = {{0}};
        xmob_counts(p, xm_sq[0], 0, xm[0]); xmob_counts(p, xm_sq[1], 1, xm[1]);
        xm[0][ev_xm_grid_type] += xgrid[0]; xm[1][ev_xm_grid_type] += xgrid[1];
        for (int t = 1; t <= V.ntypes; t++) score += ev_wmob[t] * (xm[1][t] - xm[0][t]);
    }
    if (ev_safe_any) {
        int sf[2][NSAFETY] = {{0}};
        safety_counts(p, 0, sf[0]); safety_counts(p, 1, sf[1]);
        for (int i = 0; i < NSAFETY; i++) score += ev_wsafe[i] * (sf[1][i] - sf[0][i]);
    }
    return score;
}

static void eval_prepare(void);
static void eval_ready(void);
/* the columns: place.T for types 1..n, mob.T likewise, then the NSAFETY safety terms */
int eval_term_features(const Pos *p, int *f) {
    eval_ready();
    int n = V.ntypes, xm[2][MAXTYPES] = {{0}}, sf[2][NSAFETY] = {{0}};
    uint64_t fz[2][2];
    frozen_masks(p, fz);
    for (int i = 0; i < 2 * n + NSAFETY; i++) f[i] = 0;
    for (int s = 0; s < V.g.size; s++)
        if (p->b[s]) { int t = p->b[s] > 0 ? p->b[s] : -p->b[s]; f[t - 1] += (p->b[s] > 0 ? 1 : -1) * ev_cen[s]; }
    for (int ci = 0; ci < 2; ci++) {
        const uint64_t mobile[2] = {p->occ[ci][0] & ~fz[ci][0], p->occ[ci][1] & ~fz[ci][1]};
        xmob_counts(p, mobile, ci, xm[ci]);
        safety_counts(p, ci, sf[ci]);
    }
    for (int t = 1; t <= n; t++) f[n + t - 1] = ev_xmob[t] ? xm[1][t] - xm[0][t] : 0;
    for (int i = 0; i < NSAFETY; i++) f[2 * n + i] = V.palace || (i != TS_GOALDEF && i != TS_GOAL2) ? sf[1][i] - sf[0][i] : 0;
    return 2 * n + NSAFETY;
}
const char *eval_term_name(int i, char *buf) {
    int n = V.ntypes;
    if (i < 2 * n) sprintf(buf, "%s.%c", i < n ? "place" : "mob", V.t[i % n + 1].letter);
    else sprintf(buf, "%s", SAFETY_TERMS[i - 2 * n]);
    return buf;
}
int eval_term_weight(int i) {
    eval_ready();
    int n = V.ntypes;
    if (i < n) return terms_on() & ET_PLACE ? V.w_place[i + 1] : 0;
    if (i < 2 * n) return ev_wmob[i - n + 1];
    return ev_wsafe[i - 2 * n];
}

static void eval_prepare(void) {
    const Geo *g = &V.g;
    for (int t = 0; t < MAXTYPES; t++) ev_val[t] = t <= V.ntypes ? V.t[t].value : 0;
    ev_pawn_delta = V.pawn && V.pawn_end && V.phase_pieces ? V.pawn_end - V.t[V.pawn].value : 0;
    ev_pawn_run = V.pawn && V.phase_pieces ? V.pawn_run : 0;
    for (int ci = 0; ci < 2; ci++)
        for (int s = 0; s < g->size; s++) {   /* ranks past the start rank, over those to the last before promotion */
            int r = g->rank_of[s] - g->min_rank, nr = g->max_rank - g->min_rank, a = (ci ? r : nr - r) - 1;
            ev_run[ci][s] = (int16_t)(a > 0 && nr > 2 ? 1024 * a * a / ((nr - 2) * (nr - 2)) : 0);
        }
    for (int s = 0; s < g->size; s++)
        for (int d = 0; d < 8; d++)
            for (int j = 0; j < 3; j++) ev_ray3[s][d][j] = j < g->raylen[s][d] ? g->rays[s][d][j] : (int8_t)s;
    for (int ci = 0; ci < 2; ci++) {
        int c = ci ? 1 : -1;
        for (int t = 1; t <= V.ntypes; t++)
            for (int s = 0; s < g->size; s++) {
                int val = 0;
                if (t == V.pawn) {  /* Deckle Pawn: advancement */
                    int r = g->rank_of[s] - g->min_rank, nr = g->max_rank - g->min_rank;
                    val += 6 * (c > 0 ? r : nr - r);
                }
                if (V.palace && t != V.king) {  /* pressure on the enemy palace */
                    for (int j = 0; j < 2; j++) {
                        int goal = V.goals[-c + 1][j];
                        if (s == goal) val += 120;
                        else if (g->adj[s][goal]) val += 25;
                    }
                }
                ev_sq[ci][t][s] = (int16_t)val;
            }
    }
    for (int t = 1; t <= V.ntypes; t++) {
        const Prim *pr = &V.t[t].prim[0];
        ev_mobdirs[t] = 0;
        /* not the orthogonal-only sliders, Ultima's and Maxima's Pawns; but Deckle's Rook */
        if ((pr->kind == PR_SLIDE && (pr->dirs != 0x0F || t == V.rook)) || pr->kind == PR_LEAPSLIDE || pr->kind == PR_IMIT)
            ev_mobdirs[t] = pr->kind == PR_SLIDE ? pr->dirs : 0xFF;
    }
    mob_prepare();
    terms_prepare();
    for (int ci = 0; ci < 2; ci++)
        for (int t = 0; t < MAXTYPES; t++)
            for (int s = 0; s < MAXSQ; s++)
                ev_vsq[ci][t][s] = (int16_t)(ev_val[t] + ev_sq[ci][t][s]
                                             + (terms_on() & ET_PLACE && t <= V.ntypes && s < g->size ? V.w_place[t] * ev_cen[s] : 0));
    ev_mob_rays = ev_mob_part_any = 0;
    for (int t = 0; t < MAXTYPES; t++) {
        ev_mob_all[t] = mg_ok && t <= V.ntypes && ev_mobdirs[t] == 0xFF;
        ev_mob_diag[t] = mg_ok && t <= V.ntypes && ev_mobdirs[t] == 0xF0;
        ev_mob_orth[t] = mg_ok && t <= V.ntypes && ev_mobdirs[t] == 0x0F;
        if (t <= V.ntypes && ev_mobdirs[t] && !ev_mob_all[t] && !ev_mob_diag[t] && !ev_mob_orth[t]) ev_mob_rays = 1;
        ev_mob_part_any |= ev_mob_diag[t] | ev_mob_orth[t];
    }
    ev_def = V.def;
}

/* eval.h: the cache of eval_board's scores */
EvalSlot ev_cache[EV_CACHE];

/* The game phase's Pawn terms (games with an endgame Pawn value, P, or an
 * endgame runner bonus, A, in values.h): with n pieces other than Pawns and
 * Kings on the board and N at the start, the endgame share is e = (N - n) / N;
 * each Pawn is worth its value + (P - value) * e + A * e * (a / m)^2, where a
 * is the ranks it has advanced past its start rank and m those to the last
 * rank before promotion; a frozen Pawn half of the terms. The counts are
 * White's minus Black's; selfplay.c prints them for src/maxima_board/opponent/tune.py. */
void pawn_phase_counts(const Pos *p, const uint64_t fz[2][2], int *pieces, int *pawns2, int *run2) {
    int n = 0, pw = 0, run = 0;   /* a mobile Pawn counts two, a frozen one one */
    for (int ci = 0; ci < 2; ci++)
        for (int w = 0; w < 2; w++)
            for (uint64_t bits = p->occ[ci][w]; bits; bits &= bits - 1) {
                int s = w * 64 + __builtin_ctzll(bits), t = p->b[s] < 0 ? -p->b[s] : p->b[s];
                if (t == V.pawn) {
                    int k = (ci ? 1 : -1) * (2 - (int)((fz[ci][w] >> (s & 63)) & 1));
                    pw += k; run += k * ev_run[ci][s];
                } else n += t != V.king;
            }
    *pieces = n; *pawns2 = pw; *run2 = run;
}
static int pawn_phase(const Pos *p, const uint64_t fz[2][2]) {
    int n, pawns2, run2;
    pawn_phase_counts(p, fz, &n, &pawns2, &run2);
    int late = V.phase_pieces - (n < V.phase_pieces ? n : V.phase_pieces);
    return ev_pawn_delta * late * pawns2 / (2 * V.phase_pieces)
         + (int)((long long)ev_pawn_run * late * run2 / (2048LL * V.phase_pieces));
}

static void eval_ready(void) {
    if (ev_def != V.def || ev_terms != eval_terms) { eval_prepare(); memset(ev_cache, 0, sizeof ev_cache); }
}

int eval_board(const Pos *p) {
    const Geo *g = &V.g;
    eval_ready();
    unsigned slot = (unsigned)(p->hash >> 7) & (EV_CACHE - 1);
    if (ev_cache[slot].key == p->hash && p->hash) return ev_cache[slot].score;
    int score = 0;
    /* the immobilized pieces of both sides: [colour index] square masks */
    uint64_t fz[2][2];
    frozen_masks(p, fz);
    frozen_note(p, (const uint64_t (*)[2])fz);
    int xgrid[2] = {0, 0};
#define FROZEN(s, c) ((fz[(c) > 0][(s) >> 6] >> ((s) & 63)) & 1)
    /* the squares of the pieces whose mobility mobility() counts: [colour index][word] */
    uint64_t mob_all[2][2] = {{0, 0}, {0, 0}}, mob_diag[2][2] = {{0, 0}, {0, 0}}, mob_orth[2][2] = {{0, 0}, {0, 0}};
    /* the evaluation terms' extra mobility: counted by mobility() (xm_grid), by xmob_counts() (xm_sq) */
    uint64_t xm_grid[2][2] = {{0, 0}, {0, 0}}, xm_sq[2][2] = {{0, 0}, {0, 0}};
    /* each colour's pieces in turn (the colour is then a constant) */
    for (int ci = 0; ci < 2; ci++) {
      const int c = ci ? 1 : -1;
      const int16_t *vsq = ev_vsq[ci][0];
      int side_score = 0;
      for (int w = 0; w < 2; w++) {
        if (ev_mob_part_any)
          for (uint64_t bits = p->occ[ci][w]; bits; bits &= bits - 1) {
            int s = w * 64 + __builtin_ctzll(bits), t = p->b[s] * c;
            side_score += vsq[t * MAXSQ + s];
            mob_all[ci][w] |= (uint64_t)ev_mob_all[t] << (s & 63);
            mob_diag[ci][w] |= (uint64_t)ev_mob_diag[t] << (s & 63);
            mob_orth[ci][w] |= (uint64_t)ev_mob_orth[t] << (s & 63);
            xm_grid[ci][w] |= (uint64_t)ev_xm_grid[t] << (s & 63);
            xm_sq[ci][w] |= (uint64_t)ev_xm_piece[t] << (s & 63);
          }
        else
          for (uint64_t bits = p->occ[ci][w]; bits; bits &= bits - 1) {
            int s = w * 64 + __builtin_ctzll(bits), t = p->b[s] * c;
            side_score += vsq[t * MAXSQ + s];
            mob_all[ci][w] |= (uint64_t)ev_mob_all[t] << (s & 63);
            xm_grid[ci][w] |= (uint64_t)ev_xm_grid[t] << (s & 63);
            xm_sq[ci][w] |= (uint64_t)ev_xm_piece[t] << (s & 63);
          }
        /* frozen: half value, no mobility */
        for (uint64_t bits = fz[ci][w]; bits; bits &= bits - 1) {
          int t = p->b[w * 64 + __builtin_ctzll(bits)] * c;
          side_score -= ev_val[t] - ev_val[t] / 2;
        }
        mob_all[ci][w] &= ~fz[ci][w]; mob_diag[ci][w] &= ~fz[ci][w]; mob_orth[ci][w] &= ~fz[ci][w];
        xm_grid[ci][w] &= ~fz[ci][w]; xm_sq[ci][w] &= ~fz[ci][w];
      }
      if (ev_mob_rays)   /* the other sliders: empty squares within three steps of each ray */
        for (int w = 0; w < 2; w++)
          for (uint64_t bits = p->occ[ci][w] & ~fz[ci][w]; bits; bits &= bits - 1) {
            int s = w * 64 + __builtin_ctzll(bits), t = p->b[s] * c, dirs = ev_mobdirs[t];
            if (!dirs || ev_mob_all[t] || ev_mob_diag[t] || ev_mob_orth[t]) continue;
            /* without branches: a ray shorter than three is padded with s itself, which is occupied */
            int mob = 0;
            const int8_t *b = p->b;
            for (int d = 0; d < 8; d++) {
                if (!(dirs & (1 << d))) continue;
                const int8_t *r3 = ev_ray3[s][d];
                int e1 = b[r3[0]] == 0, e2 = e1 & (b[r3[1]] == 0), e3 = e2 & (b[r3[2]] == 0);
                mob += e1 + e2 + e3;
            }
            side_score += 3 * mob;
          }
      score += c * side_score;
    }
    if (mob_all[0][0] | mob_all[0][1] | mob_all[1][0] | mob_all[1][1]
        | mob_diag[0][0] | mob_diag[0][1] | mob_diag[1][0] | mob_diag[1][1]
        | mob_orth[0][0] | mob_orth[0][1] | mob_orth[1][0] | mob_orth[1][1]
        | xm_grid[0][0] | xm_grid[0][1] | xm_grid[1][0] | xm_grid[1][1]) {
        int mob[2];
        mobility(p, (const uint64_t (*)[2])mob_all, (const uint64_t (*)[2])mob_diag, (const uint64_t (*)[2])mob_orth,
                 (const uint64_t (*)[2])xm_grid, mob, xgrid);
        score += 3 * (mob[1] - mob[0]);
    }
    if (V.palace) {  /* a piece on one goal square already is an invasion threat */
        for (int c = -1; c <= 1; c += 2)
            for (int j = 0; j < 2; j++) if (p->b[V.goals[c + 1][j]] * c < 0) score -= c * 150;
    }
    /* King safety: enemy pieces next to the King (every family); a frozen King is worse */
    for (int c = -1; c <= 1; c += 2) {
        int k = p->king[c + 1];
        if (k < 0) continue;
        int near_enemies = 0;
        for (int j = 0; j < g->nnb[k]; j++) if (p->b[g->nb[k][j]] * c < 0) near_enemies++;
        score -= c * 20 * near_enemies;
        if (FROZEN(k, c)) score -= c * 60;
    }
    if (ev_pawn_delta | ev_pawn_run) score += pawn_phase(p, (const uint64_t (*)[2])fz);
    if (ev_xmob_any | ev_safe_any) score += terms_score(p, (const uint64_t (*)[2])xm_sq, xgrid);
    ev_cache[slot].key = p->hash; ev_cache[slot].score = score;
    return score;
}

