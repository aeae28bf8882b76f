/* Optima's move generation (optima.md O6-O12, written from src/maxima_board/rules/optima/): immobilization (O10),
 * the moves of each primitive with their captures and conversions (O11), two-part moves (O12.8),
 * placements (O5), equal moves merged (O6), and the counting mode of the evaluation (op_count). */
#include <stdlib.h>
#include <string.h>
#include "optima_rules.h"

/* ------------------------------------------------------------ O10 */
/* the units of colour c that the immobilizer on q freezes, added to f */
void op_freeze_around(const int8_t *b, int q, int c, OBB *f) {
    int im = op_immob[abs(b[q])];
    if (im == IM_KNIGHT || im == IM_ADJ) {
        int set = im == IM_KNIGHT ? LV_N : LV_K;
        for (int i = 0; i < op_nleaps[set][q]; i++) {
            int r = op_leaps[set][q][i], v = b[r] * c;
            if (v > 0 && !op_resolute[v]) bb_set(f, r);
        }
    } else {
        int mask = im == IM_FORTH ? ORTH : im == IM_FDIAG ? DIAG : ALLD;
        for (int d = 0; d < 8; d++) {
            if (!(mask >> d & 1)) continue;
            for (int k = 0; k < op_raylen[q][d]; k++) {
                int r = op_rays[q][d][k], v = b[r] * c;
                if (v) { if (v > 0 && !op_resolute[v]) bb_set(f, r); break; }
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
            op_freeze_around(p->b, q, c, &fz[c > 0]);
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
    /* never taken (a move captures at most OP_MAXCAP and converts at most OP_MAXCONV units); it tells
     * gcc so: with -fprofile-use its unrolled copy loops otherwise warn (-Wstringop-overflow, aarch64) */
    if (l->n >= OP_MAXMOVES || (unsigned)ncap > OP_MAXCAP || (unsigned)nconv > OP_MAXCONV) return;
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
        if (op_loyal[code]) continue;
        if (code & OP_ROYAL) caps[(*ncap)++] = q[i]; else convs[(*nconv)++] = q[i];
    }
}

static inline int cheb(int s, int t) {
    int df = abs(op_file[s] - op_file[t]), dr = abs(op_rank[s] - op_rank[t]);
    return df > dr ? df : dr;
}

static void emit(Ctx *x, int t, const int8_t *caps, int ncap, const int8_t *convs, int nconv, int flags) {
    const Prim *p = x->p;
    const int8_t *b = x->b;
    int c = x->c;
    switch (p->wrap) {
    case W_NONE: add_move(x, t, caps, ncap, convs, nconv, flags); return;
    case W_PROMOTE:
        if (op_rank[t] == (c > 0 ? OP_N : 1)) flags |= OF_PROMOTE;
        add_move(x, t, caps, ncap, convs, nconv, flags); return;
    case W_PROX: {
        if (b[t] || ncap || nconv || flags || (p->reach && cheb(x->s, t) > p->reach)) {
            add_move(x, t, caps, ncap, convs, nconv, flags); return;
        }
        int8_t around[8]; int na = 0;
        for (int d = 0; d < 8; d++) if ((p->hood >> d & 1) && op_stepsq[t][d] >= 0) around[na++] = op_stepsq[t][d];
        int8_t cc[8], vv[8] = {0}; int nc = 0, nv = 0;
        if (p->convert) convert(b, c, around, na, cc, &nc, vv, &nv);
        else for (int i = 0; i < na; i++) { int w = b[around[i]] * c; if (w < 0 && !op_shielded[-w]) cc[nc++] = around[i]; }
        add_move(x, t, cc, nc, vv, nv, 0);
        return;
    }
    case W_RIFLE:
        if (ncap == 1 && caps[0] == t && !nconv && !op_armored[-b[t] * c]) { int8_t q = (int8_t)t; add_move(x, x->s, &q, 1, NULL, 0, 0); }
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
    if (w == W_NONE || (w == W_PROMOTE && op_rank[t] != (x->c > 0 ? OP_N : 1))) add_plain(x, t);
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
            const int8_t *to = op_leaps[p->vecs][from];
            int n = op_nleaps[p->vecs][from], empty = 0, enemy = 0;
            for (int i = 0; i < n; i++) { int v = b[to[i]] * c; empty += v == 0; enemy |= v < 0; }
            if (p->move) *x->quiet += empty;
            if (enemy && p->capture)
                for (int i = 0; i < n; i++) if (b[to[i]] * c < 0) emit1(x, to[i]);
            return;
        }
        if (p->kind == P_SLIDE) {
            int range = p->range ? p->range : OP_MAXSQ;
            for (unsigned m = p->dirs; m; m &= m - 1) {
                int d = __builtin_ctz(m), len = op_raylen[from][d], k = 0;
                const int8_t *ray = op_rays[from][d];
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
        for (int i = 0; i < op_nleaps[p->vecs][from]; i++) {
            int t = op_leaps[p->vecs][from][i], v = b[t] * c;
            if (v == 0) { if (p->move) emit0(x, t); }
            else if (v < 0 && p->capture) emit1(x, t);
        }
        break;
    case P_SLIDE:
        for (int d = 0; d < 8; d++) {
            if (!(p->dirs >> d & 1)) continue;
            int len = op_raylen[from][d];
            if (p->range && len > p->range) len = p->range;
            for (int k = 0; k < len; k++) {
                int t = op_rays[from][d][k], v = b[t] * c;
                if (v == 0) { emit0(x, t); continue; }
                if (v < 0 && p->capture) emit1(x, t);
                break;
            }
        }
        break;
    case P_RIDER: {
        const VecSet *vs = &OP_VS[p->vecs];
        for (int i = 0; i < vs->n; i++) {
            int df = vs->v[i][0], dr = vs->v[i][1];
            int f = op_file[from], r = op_rank[from];
            if (p->slip) {
                f += df / p->slip; r += dr / p->slip;
                int gate = op_at(f, r);
                if (gate < 0 || b[gate]) continue;
            }
            int t;
            while ((t = op_at(f + df, r + dr)) >= 0) {
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
            for (int k = 0; k < op_raylen[from][d]; k++) if (!b[op_rays[from][d][k]]) emit0(x, op_rays[from][d][k]);
        }
        break;
    case P_FLYHOP:
        for (int d = 0; d < 8; d++) {
            if (!(p->dirs >> d & 1)) continue;
            const int8_t *ray = op_rays[from][d];
            for (int k = 0; k < op_raylen[from][d]; k++) {
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
            for (int k = 0; k < op_raylen[from][d]; k++) {
                int t = op_rays[from][d][k], v = b[t] * c;
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
            int len = op_raylen[from][d];
            if (p->range && len > p->range) len = p->range;
            int8_t caps[10]; int n = 0;
            for (int k = 0; k < len; k++) {
                int t = op_rays[from][d][k], v = b[t] * c;
                if (v > 0) break;
                if (v < 0) caps[n++] = (int8_t)t;
                if (n) emit(x, t, caps, n, NULL, 0, 0); else emit0(x, t);
                if (v < 0 && p->armor_stops && op_armored[-v]) break;
            }
        }
        break;
    case P_BENT:
        for (int d = 0; d < 8; d++) {
            if (!(p->dirs >> d & 1)) continue;
            int len = op_raylen[from][d];
            if (p->first && len > p->first) len = p->first;
            for (int k = 0; k < len; k++) {
                int corner = op_rays[from][d][k];
                if (b[corner]) break;
                for (int e = 0; e < 8; e++) {
                    if (!(p->dirs >> e & 1)) continue;
                    if (OP_VEC[d][0] * OP_VEC[e][0] + OP_VEC[d][1] * OP_VEC[e][1] != 0) continue;
                    int len2 = op_raylen[corner][e];
                    if (p->second && len2 > p->second) len2 = p->second;
                    for (int j = 0; j < len2; j++) {
                        int t = op_rays[corner][e][j], v = b[t] * c;
                        if (v == 0) { emit0(x, t); continue; }
                        if (v < 0 && p->capture) emit1(x, t);
                        break;
                    }
                }
            }
        }
        break;
    case P_DLEAP:
        for (int i = 0; i < op_nleaps[p->vecs][from]; i++) {
            int m = op_leaps[p->vecs][from][i];
            if (b[m]) continue;
            for (int j = 0; j < op_nleaps[p->vecs][m]; j++) {
                int t = op_leaps[p->vecs][m][j];
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
            int len = op_raylen[from][d];
            if (p->range && len > p->range) len = p->range;
            for (int k = 0; k < len; k++) {
                int q = op_rays[from][d][k];
                if (b[q]) break;
                int near = 0;
                for (int e = 0; e < 8 && !near; e++) { int r = op_stepsq[q][e]; if (r >= 0 && b[r] * c < 0) near = 1; }
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
                if (!(p->dirs >> d2 & 1) || OP_VEC[d1][0] * OP_VEC[d2][0] + OP_VEC[d1][1] * OP_VEC[d2][1] != 0) continue;
                int q = from, d = d1;
                while ((q = op_stepsq[q][d]) >= 0) {
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
            for (int k = 0; k + 1 < op_raylen[from][d]; k++) {
                int8_t q = op_rays[from][d][k]; int t = op_rays[from][d][k + 1];
                if (b[q] * c >= 0 || b[t]) continue;
                int8_t cc[1], vv[1]; int nc = 0, nv = 0;
                convert(b, c, &q, 1, cc, &nc, vv, &nv);
                if (nc || nv) emit(x, t, cc, nc, vv, nv, 0);
            }
        }
        break;
    case P_SWAPLEAP:
        for (int i = 0; i < op_nleaps[p->vecs][from]; i++) {
            int8_t t = op_leaps[p->vecs][from][i];
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
            int len = op_raylen[from][d];
            if (p->range && len > p->range) len = p->range;
            for (int k = 0; k < len; k++) {
                int t = op_rays[from][d][k];
                if (b[t]) break;
                int8_t ahead = op_stepsq[t][d];
                if (ahead >= 0 && b[ahead] * c < 0 && !op_loyal[-b[ahead] * c]) {   /* else nothing to convert */
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
    const Unit *u = &OP_UNITS[(b[s] * c) & OP_TYPE];
    Ctx x;
    x.b = b; x.c = c; x.s = s; x.out = out; x.start = out->n; x.collect = 0; x.nf = 0; x.cap1 = -1;
    x.seen[0] = x.seen[1] = 0; x.quiet = quiet;
    x.distinct = quiet && OP_DISTINCT[(b[s] * c) & OP_TYPE];
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

static void placements(const OPos *p, OMoveList *l) {
    const uint8_t *h = op_csource(p, p->side);
    int royal_only = 0;
    if (p->rkind != RK_EQ) for (int k = 0; k < 128; k++) if ((k & OP_ROYAL) && h[k]) { royal_only = 1; break; }
    int first = p->side > 0 ? 0 : (OP_N - 1) * OP_N;
    for (int i = 0; i < OP_NORDER; i++) {
        int code = OP_ORDER[i];
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
    OBB empty = bb_andnot(OP_BOARD, bb_or(p->occ[0], p->occ[1])), enemy = p->occ[!ci], last = OP_RANK_LAST[ci];
    OBB pn = bb_and(p->pawns, mobile), gd = bb_and(p->guards, mobile), hp = {{0, 0}}, hg = {{0, 0}};
#pragma GCC unroll 8
    for (int d = 0; d < 8; d++) {            /* first the hot ones */
        int o = OPP_DIR(d);
        OBB e1 = bb_step(enemy, o);                                   /* enemy one step away in direction d */
        hg = bb_or(hg, bb_or(e1, bb_step(bb_and(e1, empty), o)));     /* ... or two, over an empty square */
        if (d >= 4) hp = bb_or(hp, e1);
    }
    if (bb_any(bb_and(pn, OP_NEAR_LAST[ci])))   /* a promotion within reach */
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
                for (int k = 0; k < 2 && k < op_raylen[s][d]; k++) {
                    int t = op_rays[s][d][k];
                    if (p->b[t] || l->n >= OP_MAXMOVES) break;
                    OMove *m = &l->m[l->n++];
                    m->from = (int8_t)s; m->to = (int8_t)t; m->flags = 0; m->value = 0; m->ncap = 0; m->nconv = 0;
                }
        }
}

int op_enemies_around(const OPos *p, int s) { return bb_count(bb_and(OP_AROUND[s], p->occ[p->b[s] < 0])); }

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
