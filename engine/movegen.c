/* Move generation, immobilization, check, legality, make (mirrors src/maxima_board/rules/movegen.py, src/maxima_board/rules/pieces.py). */
#include <string.h>
#include "engine.h"

#define B(x) (p->b[x])
#define KING(c) (p->king[(c) + 1])

static inline void add(MoveList *l, int f, int t, const int8_t *caps, int n, int kind, int arg, int arg2) {
    Move *m = &l->m[l->n++];
    m->from = (int8_t)f; m->to = (int8_t)t; m->kind = (uint8_t)kind; m->arg = (int8_t)arg; m->arg2 = (int8_t)arg2;
    m->ncap = (uint8_t)n;
    for (int i = 0; i < n; i++) m->cap[i] = caps[i];
}

/* ------------------------------------------------------------ immobilization */
static uint64_t nb_mask[MAXSQ][2];   /* the neighbours of a square */
int mobile(const Pos *p, int x, int a) {
    if (!V.nfreezers) return 1;
    /* only a piece next to an enemy piece, and only a freezer or a piece next
     * to one, can be immobilized */
    const uint64_t *enemy = p->occ[a < 0];
    if (!((enemy[0] & nb_mask[x][0]) | (enemy[1] & nb_mask[x][1]))) return 1;
    if (!((p->frz[0] & nb_mask[x][0]) | (p->frz[1] & nb_mask[x][1]) | ((p->frz[x >> 6] >> (x & 63)) & 1))) return 1;
    int code = B(x) * a;
    if (code <= 0) return 1;
    if (V.never_frozen[code]) return 1;
    const Geo *g = &V.g;
    int nn = g->nnb[x];
    if (V.freezer[code])
        for (int i = 0; i < nn; i++) {
            int e = -B(g->nb[x][i]) * a;
            if (e > 0 && V.freezes_freezer[e]) return 0;
        }
    for (int i = 0; i < nn; i++) {
        int n = g->nb[x][i];
        int e = -B(n) * a;
        if (e > 0 && V.freezer[e]) {
            if (!V.pure) return 0;
            int neutralized = 0;
            for (int j = 0; j < g->nnb[n]; j++) {
                int m = g->nb[n][j];
                int o = B(m) * a;
                if (m != x && o > 0 && V.neutralizer[o]) { neutralized = 1; break; }
            }
            if (!neutralized) return 0;
        }
    }
    return 1;
}

/* fz (a square mask) = the immobilized pieces of colour c
 * (movegen.frozen_squares); returns whether there is any. Only a piece next
 * to an enemy freezer, or a freezer itself, can be immobilized; without the
 * pure rules' neutralization a piece next to an enemy freezer is, unless it
 * is never immobilized (Maxima's Mage). */
/* the immobilized pieces of colour c (0 Black, 1 White) given near, the squares next to an enemy freezer */
static inline int frozen_near(const Pos *p, int c, const uint64_t *near, uint64_t *fz) {
    const uint64_t *own = p->occ[c > 0];
    int any = 0;
    for (int w = 0; w < 2; w++) {
        fz[w] = 0;
        uint64_t cand = (near[w] | p->frz[w]) & own[w];
        if (!V.pure) {   /* next to an enemy freezer: immobilized unless never */
            for (uint64_t m = near[w] & own[w]; m; m &= m - 1) {
                int x = w * 64 + __builtin_ctzll(m);
                if (!V.never_frozen[B(x) * c]) fz[w] |= 1ULL << (x & 63);
            }
            cand &= ~near[w];
        }
        for (; cand; cand &= cand - 1) {
            int x = w * 64 + __builtin_ctzll(cand);
            if (!mobile(p, x, c)) fz[w] |= 1ULL << (x & 63);
        }
        any |= fz[w] != 0;
    }
    return any;
}
int frozen_mask(const Pos *p, int c, uint64_t *fz) {
    fz[0] = fz[1] = 0;
    if (!(p->frz[0] | p->frz[1])) return 0;
    const uint64_t *enemy = p->occ[c < 0];
    uint64_t near[2] = {0, 0};   /* the squares next to an enemy freezer */
    for (int w = 0; w < 2; w++)
        for (uint64_t m = p->frz[w] & enemy[w]; m; m &= m - 1) {
            int f = w * 64 + __builtin_ctzll(m);
            near[0] |= nb_mask[f][0]; near[1] |= nb_mask[f][1];
        }
    return frozen_near(p, c, near, fz);
}
/* both colours' at once: fz[colour index] */
void frozen_masks(const Pos *p, uint64_t fz[2][2]) {
    memset(fz, 0, 2 * sizeof fz[0]);
    if (!(p->frz[0] | p->frz[1])) return;
    uint64_t near[2][2] = {{0, 0}, {0, 0}};   /* [colour index]: next to a freezer of the other colour */
    for (int w = 0; w < 2; w++)
        for (uint64_t m = p->frz[w]; m; m &= m - 1) {
            int f = w * 64 + __builtin_ctzll(m), ci = B(f) < 0;   /* the colour it freezes */
            near[ci][0] |= nb_mask[f][0]; near[ci][1] |= nb_mask[f][1];
        }
    frozen_near(p, -1, near[0], fz[0]);
    frozen_near(p, 1, near[1], fz[1]);
}

/* the immobilized pieces of both colours of the last position evaluate()
 * computed them for, by its key (quiescence generates the captures of the
 * same position next); only positions made by play() (a true key) use it */
static struct { uint64_t key; const VariantDef *def; uint64_t fz[2][2]; } fz_memo;
void frozen_note(const Pos *p, const uint64_t fz[2][2]) {
    fz_memo.key = p->hash; fz_memo.def = V.def;
    memcpy(fz_memo.fz, fz, sizeof fz_memo.fz);
}
static int frozen_mask_known(const Pos *p, int c, uint64_t *fz) {
    if (p->hash && fz_memo.key == p->hash && fz_memo.def == V.def) {
        fz[0] = fz_memo.fz[c > 0][0]; fz[1] = fz_memo.fz[c > 0][1];
        return (fz[0] | fz[1]) != 0;
    }
    return frozen_mask(p, c, fz);
}

/* ------------------------------------------------------------ capture effects */
static uint64_t orth_nb[MAXSQ][2];   /* the orthogonal neighbours of a square, as a mask */
static uint64_t ray_bits[MAXSQ][8][2];   /* the squares of each ray, as a mask */
static uint64_t lines[MAXSQ][2][2];      /* the squares of a square's [0] orthogonal, [1] diagonal rays */
/* whether mask m (two words) meets the ray from s in direction d */
static inline int on_ray(const uint64_t *m, int s, int d) { return ((m[0] & ray_bits[s][d][0]) | (m[1] & ray_bits[s][d][1])) != 0; }
static uint64_t file_mask[16][2], rank_mask[16][2];
static int custodian_caps(const Pos *p, int c, int t, int victim, int8_t *out) {
    const Geo *g = &V.g;
    int n = 0;
    const uint64_t *enemy = p->occ[c < 0];
    if (!((enemy[0] & orth_nb[t][0]) | (enemy[1] & orth_nb[t][1]))) return 0;
    for (int e = 0; e < 4; e++) {
        int x = g->step[t][e];
        if (x < 0) continue;
        int v = B(x) * c;
        if (v < 0 && (!victim || v == -victim)) {
            int beyond = g->step[x][e];
            if (beyond >= 0 && B(beyond) * c > 0) out[n++] = (int8_t)x;
        }
    }
    return n;
}

static int coord_caps(const Pos *p, int c, int t, int victim, int8_t *out) {
    int king = KING(c);
    if (king < 0) return 0;
    const Geo *g = &V.g;
    int kf = g->file_of[king], kr = g->rank_of[king], tf = g->file_of[t], tr = g->rank_of[t];
    if (tf == kf || tr == kr) return 0;
    int n = 0;
    int xs[2] = {g->at[tf][kr - g->min_rank], g->at[kf][tr - g->min_rank]};
    for (int i = 0; i < 2; i++) {
        int x = xs[i];
        if (x >= 0) {
            int v = B(x) * c;
            if (v < 0 && (!victim || v == -victim)) out[n++] = (int8_t)x;
        }
    }
    return n;
}

static void add_pawn_move(MoveList *l, int c, int s, int t, const int8_t *caps, int n) {
    if (V.last_rank[c + 1][t]) {
        for (int i = 0; i < V.npromo; i++) add(l, s, t, caps, n, K_PROMOTE, V.promo[i], 0);
    } else add(l, s, t, caps, n, K_PLAIN, 0, 0);
}

/* ------------------------------------------------------------ generation per primitive */
/* What one generation of colour c's moves in one position works out once, on
 * first use: the squares from which a coordination or a custodian capture is
 * possible (supersets: coord_caps and custodian_caps find nothing elsewhere),
 * the enemy pieces a Chameleon could jump. */
typedef struct {
    int masks;     /* the target masks may be used */
    int have_coord, have_cust, have_eleap;
    uint64_t coord_t[2], cust_t[2], eleap[2];
} GenCtx;
static void coordinator_targets(const Pos *p, int c, uint64_t *m);
static void custodian_targets(const Pos *p, int c, uint64_t *mask);
static inline void gc_init(GenCtx *x, int masks) {
    x->masks = masks;
    x->have_coord = x->have_cust = x->have_eleap = 0;
}
static inline const uint64_t *gc_coord(GenCtx *x, const Pos *p, int c) {
    if (!x->have_coord) { coordinator_targets(p, c, x->coord_t); x->have_coord = 1; }
    return x->coord_t;
}
static inline const uint64_t *gc_cust(GenCtx *x, const Pos *p, int c) {
    if (!x->have_cust) { x->cust_t[0] = x->cust_t[1] = 0; custodian_targets(p, c, x->cust_t); x->have_cust = 1; }
    return x->cust_t;
}
static inline const uint64_t *gc_eleap(GenCtx *x, const Pos *p, int c) {
    if (!x->have_eleap) {
        x->eleap[0] = x->eleap[1] = 0;
        for (int w = 0; w < 2; w++)
            for (uint64_t m = p->occ[c < 0][w]; m; m &= m - 1) {
                int e = w * 64 + __builtin_ctzll(m);
                if (-B(e) * c == V.im_leaping) x->eleap[w] |= 1ULL << (e & 63);
            }
        x->have_eleap = 1;
    }
    return x->eleap;
}
#define BIT(m, t) (((m)[(t) >> 6] >> ((t) & 63)) & 1)

/* a slider's moves (gen_prim_body's PR_SLIDE) with capture effects eff */
static inline __attribute__((always_inline))
void slide_moves(const Pos *p, const Prim *pr, int c, int s, MoveList *l, GenCtx *x, const int eff) {
    const Geo *g = &V.g;
    const int masks = x->masks;
    int8_t caps[MAXCAP];
    for (int d = 0; d < 8; d++) {
        if (!(pr->dirs & (1 << d))) continue;
        int nbase = 0;
        int8_t base[1];
        if (eff & EF_WITHDRAW) {
            int back = g->step[s][OPP[d]];
            if (back >= 0 && B(back) * c < 0) base[nbase++] = (int8_t)back;
        }
        const int8_t *ray = g->rays[s][d];
        for (int i = 0; i < g->raylen[s][d]; i++) {
            int t = ray[i];
            int w = B(t);
            if (w) {
                if (pr->replace && w * c < 0) { caps[0] = (int8_t)t; add(l, s, t, caps, 1, 0, 0, 0); }
                break;
            }
            int n = 0;
            if (nbase) caps[n++] = base[0];
            if (eff & EF_APPROACH) {
                int front = g->step[t][d];
                if (front >= 0 && B(front) * c < 0) caps[n++] = (int8_t)front;
            }
            if ((eff & EF_CUSTODIAN) && (!masks || BIT(gc_cust(x, p, c), t))) n += custodian_caps(p, c, t, 0, caps + n);
            if ((eff & EF_COORD) && (!masks || BIT(gc_coord(x, p, c), t))) n += coord_caps(p, c, t, 0, caps + n);
            add(l, s, t, caps, n, 0, 0, 0);
        }
    }
}

/* a Deckle Pawn's moves; qonly: only its promotions and captures (what quiescence keeps) */
static inline __attribute__((always_inline)) void pawn_moves(const Pos *p, int c, int s, MoveList *l, const int qonly) {
    int8_t caps[1] = {0};
    int st = V.pawn_step[c + 1][s];
    if (st >= 0 && B(st) == 0 && (!qonly || V.last_rank[c + 1][st])) {
        add_pawn_move(l, c, s, st, caps, 0);
        if (!qonly && V.second_rank[c + 1][s]) {
            int x = st;
            for (int i = 0; i < V.pawn_advance - 1; i++) {
                x = V.pawn_step[c + 1][x];
                if (x < 0 || B(x) != 0) break;
                add(l, s, x, caps, 0, 0, 0, 0);
            }
        }
    }
    for (int i = 0; i < V.npawn_caps[c + 1][s]; i++) {
        int t = V.pawn_caps[c + 1][s][i];
        if (B(t) * c < 0) { caps[0] = (int8_t)t; add_pawn_move(l, c, s, t, caps, 1); }
    }
}

/* qonly: only the moves that capture (and a Pawn's promotions); the order
 * of the moves kept is the order of the full list. x->masks: capture effects
 * are looked for only on their target squares, and in qonly the Chameleon
 * skips the rays along which it cannot capture. */
static inline __attribute__((always_inline))
void gen_prim_body(const Pos *p, const Prim *pr, int c, int s, MoveList *l, GenCtx *x, const int qonly) {
    const Geo *g = &V.g;
    const int masks = x->masks;
    int8_t caps[MAXCAP] = {0};
    switch (pr->kind) {
    case PR_LEAP: {
        int lt = pr->leaptab;
        for (int i = 0; i < V.nleaps[lt][s]; i++) {
            int t = V.leaps[lt][s][i];
            int w = B(t) * c;
            if (w == 0) add(l, s, t, caps, 0, 0, 0, 0);
            else if (w < 0 && pr->replace) { caps[0] = (int8_t)t; add(l, s, t, caps, 1, 0, 0, 0); }
        }
        break;
    }
    case PR_SLIDE: {
        int eff = pr->effects;
        /* a withdrawal needs an enemy next to it */
        if ((eff & EF_WITHDRAW) && !((p->occ[c < 0][0] & nb_mask[s][0]) | (p->occ[c < 0][1] & nb_mask[s][1]))) eff &= ~EF_WITHDRAW;
        /* the effects a constant in the common cases */
        switch (eff) {
        case 0: slide_moves(p, pr, c, s, l, x, 0); break;
        case EF_CUSTODIAN: slide_moves(p, pr, c, s, l, x, EF_CUSTODIAN); break;
        case EF_COORD: slide_moves(p, pr, c, s, l, x, EF_COORD); break;
        case EF_WITHDRAW: slide_moves(p, pr, c, s, l, x, EF_WITHDRAW); break;
        default: slide_moves(p, pr, c, s, l, x, eff);
        }
        break;
    }
    case PR_LEAPSLIDE:
        for (int d = 0; d < 8; d++) {
            const int8_t *ray = g->rays[s][d];
            int len = g->raylen[s][d], n = 0, i = 0;
            if (qonly && !on_ray(p->occ[c < 0], s, d)) continue;   /* no enemy to jump */
            while (i < len) {
                int t = ray[i];
                int w = B(t) * c;
                if (w == 0) { if (n || !qonly) add(l, s, t, caps, n, 0, 0, 0); i++; }
                else if (w < 0 && i + 1 < len && B(ray[i + 1]) == 0) { caps[n++] = (int8_t)t; i++; }
                else break;
            }
        }
        break;
    case PR_MAGE: {
        static const int bent[8][2] = {{0,0},{0,0},{0,0},{0,0},{DN,DE},{DS,DE},{DS,DW},{DN,DW}};
        for (int d = 4; d < 8; d++) {
            int mid = g->step[s][d];
            if (mid < 0) continue;
            int w = B(mid) * c;
            if (w < 0) { caps[0] = (int8_t)mid; add(l, s, mid, caps, 1, 0, 0, 0); continue; }
            if (w > 0) continue;
            if (!qonly) add(l, s, mid, caps, 0, 0, 0, 0);
            for (int j = 0; j < 2; j++) {
                int o = bent[d][j];
                for (int i = 0; i < g->raylen[mid][o]; i++) {
                    int t = g->rays[mid][o][i];
                    int v = B(t) * c;
                    if (v == 0) { if (!qonly) add(l, s, t, caps, 0, 0, 0, 0); continue; }
                    if (v < 0) { caps[0] = (int8_t)t; add(l, s, t, caps, 1, 0, 0, 0); }
                    break;
                }
            }
        }
        break;
    }
    case PR_PAWN: pawn_moves(p, c, s, l, qonly); break;
    case PR_IMIT: {
        /* a capture by a step and a withdrawal need an enemy next to it */
        int near_enemy = ((p->occ[c < 0][0] & nb_mask[s][0]) | (p->occ[c < 0][1] & nb_mask[s][1])) != 0;
        if (near_enemy)
            for (int i = 0; i < g->nnb[s]; i++) {
                int t = g->nb[s][i];
                int e = -B(t) * c;
                if (e > 0 && V.step_victim[e]) { caps[0] = (int8_t)t; add(l, s, t, caps, 1, 0, 0, 0); }
            }
        int leaper = V.im_leaping, withdrawer = near_enemy ? V.im_withdrawal : 0, coordinator = V.im_coordination, pawn = V.im_custodian;
        uint64_t want[2][2] = {{0, 0}, {0, 0}};   /* qonly: what a ray along which it captures meets [orthogonal, diagonal] */
        if (qonly && masks) {
            for (int w = 0; w < 2; w++) {
                if (coordinator) want[1][w] |= gc_coord(x, p, c)[w];
                if (leaper) want[1][w] |= gc_eleap(x, p, c)[w];
                want[0][w] = want[1][w] | (pawn ? gc_cust(x, p, c)[w] : 0);
            }
        }
        for (int d = 0; d < 8; d++) {
            const int8_t *ray = g->rays[s][d];
            int len = g->raylen[s][d];
            int nbase = 0; int8_t base = -1;
            if (withdrawer) {
                int back = g->step[s][OPP[d]];
                if (back >= 0 && -B(back) * c == withdrawer) { base = (int8_t)back; nbase = 1; }
            }
            if (qonly && masks && !nbase && !on_ray(want[d >= 4], s, d)) continue;
            int8_t jumped[MAXCAP]; int nj = 0;
            int i = 0;
            while (i < len) {
                int t = ray[i];
                int w = B(t);
                if (w == 0) {
                    if (V.chameleon_pure && nj) add(l, s, t, jumped, nj, 0, 0, 0);
                    else {
                        int n = 0;
                        if (nbase) caps[n++] = base;
                        for (int j = 0; j < nj; j++) caps[n++] = jumped[j];
                        if (coordinator && (!masks || BIT(gc_coord(x, p, c), t))) n += coord_caps(p, c, t, coordinator, caps + n);
                        if (pawn && d < 4 && (!masks || BIT(gc_cust(x, p, c), t))) n += custodian_caps(p, c, t, pawn, caps + n);
                        if (n || !qonly) add(l, s, t, caps, n, 0, 0, 0);
                    }
                    i++;
                } else if (leaper && -w * c == leaper && i + 1 < len && B(ray[i + 1]) == 0) {
                    jumped[nj++] = (int8_t)t; i++;
                } else break;
            }
        }
        break;
    }
    case PR_SWAP: {
        if (qonly) break;
        int me = B(s);
        for (int d = 0; d < 8; d++) {
            for (int i = 0; i < g->raylen[s][d]; i++) {
                int t = g->rays[s][d][i];
                int w = B(t);
                if (!w) continue;
                if (w != me && !((w == V.pawn || w == -V.pawn) && V.end_rank[s])) add(l, s, t, caps, 0, K_SWAP, 0, 0);
                break;
            }
        }
        break;
    }
    case PR_DESTRUCT:
        for (int i = 0; i < g->nnb[s]; i++) {
            int t = g->nb[s][i];
            if (B(t) * c < 0) { caps[0] = (int8_t)t; add(l, s, -1, caps, 1, 0, 0, 0); }
        }
        break;
    case PR_MIMIC:
        for (int v = 1; v <= V.ntypes; v++) {
            const PType *T = &V.t[v];
            for (int j = 0; j < T->nmimic; j++) {
                const Prim *mp = &T->mimic[j];
                if (mp->kind == PR_LEAP) {
                    int lt = mp->leaptab;
                    for (int i = 0; i < V.nleaps[lt][s]; i++) {
                        int t = V.leaps[lt][s][i];
                        if (B(t) * c == -v) { caps[0] = (int8_t)t; add(l, s, t, caps, 1, 0, 0, 0); }
                    }
                } else if (mp->kind == PR_SLIDE) {
                    for (int d = 0; d < 8; d++) {
                        if (!(mp->dirs & (1 << d))) continue;
                        for (int i = 0; i < g->raylen[s][d]; i++) {
                            int t = g->rays[s][d][i];
                            int w = B(t);
                            if (w) { if (w * c == -v) { caps[0] = (int8_t)t; add(l, s, t, caps, 1, 0, 0, 0); } break; }
                        }
                    }
                } else if (mp->kind == PR_PAWN) {
                    for (int i = 0; i < V.npawn_caps[c + 1][s]; i++) {
                        int t = V.pawn_caps[c + 1][s][i];
                        if (B(t) * c == -v) { caps[0] = (int8_t)t; add(l, s, t, caps, 1, 0, 0, 0); }
                    }
                }
            }
        }
        break;
    }
}
/* gen_prim_body compiled once for each kind of generation */
static void gen_prim_full(const Pos *p, const Prim *pr, int c, int s, MoveList *l, GenCtx *x) { gen_prim_body(p, pr, c, s, l, x, 0); }
static void gen_prim_capt(const Pos *p, const Prim *pr, int c, int s, MoveList *l, GenCtx *x) { gen_prim_body(p, pr, c, s, l, x, 1); }



/* ------------------------------------------------------------ look-back attacks */
static inline int clear_between(const Pos *p, int s, int k) {
    const Geo *g = &V.g;
    int d = g->dir[s][k], n = g->dist[s][k];
    for (int i = 0; i < n - 1; i++) if (B(g->rays[s][d][i])) return 0;
    return 1;
}

static int gen_has_capture(const Pos *p, const Prim *pr, int a, int s, int k) {
    MoveList l; l.n = 0;
    GenCtx x;
    gc_init(&x, 0);
    gen_prim_capt(p, pr, a, s, &l, &x);
    for (int i = 0; i < l.n; i++)
        for (int j = 0; j < l.m[i].ncap; j++) if (l.m[i].cap[j] == k) return 1;
    return 0;
}

static int replace_attacks(const Pos *p, const Prim *pr, int a, int s, int k) {
    const Geo *g = &V.g;
    if (pr->kind == PR_LEAP) return V.isleap[pr->leaptab][s][k];
    if (pr->kind == PR_PAWN) {
        for (int i = 0; i < V.npawn_caps[a + 1][s]; i++) if (V.pawn_caps[a + 1][s][i] == k) return 1;
        return 0;
    }
    int d = g->dir[s][k];
    return d >= 0 && (pr->dirs & (1 << d)) && clear_between(p, s, k);
}

/* geometric supersets: could the Mage on s ever capture on k; could an
 * orthogonal custodian slider on s ever end next to k */
static uint8_t mage_geo[MAXSQ][MAXSQ], cust_geo[MAXSQ][MAXSQ], may[MAXSQ][MAXTYPES][MAXSQ];   /* may: [k][v][s] */
static const Variant *geo_for;
static void build_geo_tables(void) {
    const Geo *g = &V.g;
    memset(mage_geo, 0, sizeof mage_geo); memset(cust_geo, 0, sizeof cust_geo);
    static const int bent[8][2] = {{0,0},{0,0},{0,0},{0,0},{DN,DE},{DS,DE},{DS,DW},{DN,DW}};
    for (int s = 0; s < g->size; s++) {
        for (int d = 4; d < 8; d++) {
            int x = g->step[s][d];
            if (x < 0) continue;
            mage_geo[s][x] = 1;
            for (int j = 0; j < 2; j++)
                for (int i = 0; i < g->raylen[x][bent[d][j]]; i++) mage_geo[s][g->rays[x][bent[d][j]][i]] = 1;
        }
        for (int k = 0; k < g->size; k++)
            for (int e = 0; e < 4; e++) {
                int t = g->step[k][e];
                if (t >= 0 && g->dir[s][t] >= 0 && g->dir[s][t] < 4) cust_geo[s][k] = 1;
            }
    }
    geo_for = V.def ? &V : NULL;
    memset(orth_nb, 0, sizeof orth_nb);
    memset(ray_bits, 0, sizeof ray_bits); memset(lines, 0, sizeof lines);
    for (int s = 0; s < g->size; s++)
        for (int d = 0; d < 8; d++)
            for (int i = 0; i < g->raylen[s][d]; i++) { int t = g->rays[s][d][i]; ray_bits[s][d][t >> 6] |= 1ULL << (t & 63); }
    for (int s = 0; s < g->size; s++)
        for (int d = 0; d < 8; d++)
            for (int w = 0; w < 2; w++) lines[s][d >= 4][w] |= ray_bits[s][d][w];
    memset(nb_mask, 0, sizeof nb_mask);
    for (int s = 0; s < g->size; s++)
        for (int j = 0; j < g->nnb[s]; j++) { int t = g->nb[s][j]; nb_mask[s][t >> 6] |= 1ULL << (t & 63); }
    memset(file_mask, 0, sizeof file_mask); memset(rank_mask, 0, sizeof rank_mask);
    for (int s = 0; s < g->size; s++) {
        file_mask[g->file_of[s]][s >> 6] |= 1ULL << (s & 63);
        rank_mask[g->rank_of[s] - g->min_rank][s >> 6] |= 1ULL << (s & 63);
    }
    for (int s = 0; s < g->size; s++)
        for (int e = 0; e < 4; e++) { int t = g->step[s][e]; if (t >= 0) orth_nb[s][t >> 6] |= 1ULL << (t & 63); }
    /* may[k][v][s]: a superset of "a piece of type v on s can capture on k" */
    memset(may, 0, sizeof may);
    for (int v = 1; v <= V.ntypes; v++) {
        const PType *T = &V.t[v];
        for (int s = 0; s < g->size; s++)
            for (int k = 0; k < g->size; k++) {
                int ok = 0;
                for (int i = 0; i < T->nprim && !ok; i++) {
                    const Prim *pr = &T->prim[i];
                    int d = g->dir[s][k];
                    switch (pr->kind) {
                    case PR_LEAP: ok = pr->replace && V.isleap[pr->leaptab][s][k]; break;
                    case PR_SLIDE:
                        if (pr->effects & EF_COORD) ok = 1;
                        if ((pr->replace || (pr->effects & EF_APPROACH)) && d >= 0 && (pr->dirs & (1 << d))) ok = 1;
                        if ((pr->effects & EF_WITHDRAW) && g->adj[s][k]) ok = 1;
                        if ((pr->effects & EF_CUSTODIAN) && (pr->dirs != 0x0F || cust_geo[s][k])) ok = 1;
                        break;
                    case PR_LEAPSLIDE: ok = d >= 0; break;
                    case PR_MAGE: ok = mage_geo[s][k]; break;
                    case PR_PAWN: ok = 1; break;
                    case PR_SWAP: break;
                    case PR_DESTRUCT: ok = g->adj[s][k]; break;
                    default: ok = 1;
                    }
                }
                may[k][v][s] = (uint8_t)ok;
            }
    }
}

/* kc: 0 when no custodian capture on k is possible (no empty square beside k with a piece of a opposite) */
static int prim_captures(const Pos *p, const Prim *pr, int a, int s, int k, int kc) {
    const Geo *g = &V.g;
    switch (pr->kind) {
    case PR_LEAP: return pr->replace && V.isleap[pr->leaptab][s][k];
    case PR_SLIDE: {
        int dirs = pr->dirs;
        if (pr->replace) {
            int d = g->dir[s][k];
            if (d >= 0 && (dirs & (1 << d)) && clear_between(p, s, k)) return 1;
        }
        if (pr->effects & EF_WITHDRAW) {
            int d = g->dir[k][s];
            if (d >= 0 && g->dist[k][s] == 1 && (dirs & (1 << d))) {
                int t = g->step[s][d];
                if (t >= 0 && B(t) == 0) return 1;
            }
        }
        if (pr->effects & EF_APPROACH) {
            int d = g->dir[s][k];
            if (d >= 0 && (dirs & (1 << d)) && g->dist[s][k] >= 2 && clear_between(p, s, k)) return 1;
        }
        if ((pr->effects & EF_CUSTODIAN) && kc && (pr->dirs != 0x0F || cust_geo[s][k])) {
            for (int e = 0; e < 4; e++) {
                int t = g->step[k][e];
                if (t < 0 || B(t) != 0) continue;
                int anvil = g->step[k][OPP[e]];
                if (anvil < 0 || B(anvil) * a <= 0 || anvil == s) continue;
                int d = g->dir[s][t];
                if (d >= 0 && (dirs & (1 << d)) && clear_between(p, s, t)) return 1;
            }
        }
        if (pr->effects & EF_COORD) {
            int king = KING(a);
            if (king >= 0 && king != k) {
                int byfile;  /* 1: need t on k's file; 0: need t on k's rank */
                if (g->rank_of[king] == g->rank_of[k]) byfile = 1;
                else if (g->file_of[king] == g->file_of[k]) byfile = 0;
                else return 0;
                int target = byfile ? g->file_of[k] : g->rank_of[k];
                for (int d = 0; d < 8; d++) {
                    if (!(dirs & (1 << d))) continue;
                    for (int i = 0; i < g->raylen[s][d]; i++) {
                        int t = g->rays[s][d][i];
                        if (B(t)) break;
                        if ((byfile ? g->file_of[t] : g->rank_of[t]) == target) return 1;
                    }
                }
            }
        }
        return 0;
    }
    case PR_LEAPSLIDE: {
        int d = g->dir[s][k];
        if (d < 0) return 0;
        const int8_t *ray = g->rays[s][d];
        int len = g->raylen[s][d], i = 0;
        while (i < len) {
            int t = ray[i];
            int w = B(t) * a;
            if (w == 0) i++;
            else if (w < 0 && i + 1 < len && B(ray[i + 1]) == 0) { if (t == k) return 1; i++; }
            else return 0;
        }
        return 0;
    }
    case PR_PAWN:
        for (int i = 0; i < V.npawn_caps[a + 1][s]; i++) if (V.pawn_caps[a + 1][s][i] == k) return 1;
        return 0;
    case PR_IMIT: {
        int victim = -B(k) * a;
        if (victim > 0 && V.step_victim[victim]) return g->adj[s][k];
        return gen_has_capture(p, pr, a, s, k);
    }
    case PR_SWAP: return 0;
    case PR_DESTRUCT: return g->adj[s][k];
    case PR_MIMIC: {
        int victim = -B(k) * a;
        if (victim <= 0) return 0;
        const PType *T = &V.t[victim];
        for (int j = 0; j < T->nmimic; j++) if (replace_attacks(p, &T->mimic[j], a, s, k)) return 1;
        return 0;
    }
    default: /* PR_MAGE */
        return mage_geo[s][k] && gen_has_capture(p, pr, a, s, k);
    }
}

static int gen_reaches(const Pos *p, const Prim *pr, int a, int s, int goal) {
    MoveList l; l.n = 0;
    GenCtx x;
    gc_init(&x, 0);
    gen_prim_full(p, pr, a, s, &l, &x);
    for (int i = 0; i < l.n; i++) if (l.m[i].to == goal) return 1;
    return 0;
}

static int prim_reaches(const Pos *p, const Prim *pr, int a, int s, int goal) {
    const Geo *g = &V.g;
    switch (pr->kind) {
    case PR_LEAP:
        return V.isleap[pr->leaptab][s][goal] && (B(goal) == 0 || (pr->replace && B(goal) * a < 0));
    case PR_SLIDE: {
        int d = g->dir[s][goal];
        if (d < 0 || !(pr->dirs & (1 << d)) || !clear_between(p, s, goal)) return 0;
        return B(goal) == 0 || (pr->replace && B(goal) * a < 0);
    }
    case PR_LEAPSLIDE:
        if (B(goal) != 0 || g->dir[s][goal] < 0) return 0;
        return gen_reaches(p, pr, a, s, goal);
    case PR_SWAP: case PR_DESTRUCT: return 0;
    case PR_MIMIC: return B(goal) * a < 0 && prim_captures(p, pr, a, s, goal, 1);
    default: return gen_reaches(p, pr, a, s, goal);
    }
}

static int tables_variant = -1;
void movegen_prepare(void) {
    int id = (int)(V.def - VARIANTS);
    if (tables_variant != id) { build_geo_tables(); tables_variant = id; }
}

int attacked(const Pos *p, int a, int k) {
    const Geo *g = &V.g;
    int kc = 0;
    for (int e = 0; e < 4 && !kc; e++) {
        int t = g->step[k][e], anvil = g->step[k][OPP[e]];
        kc = t >= 0 && B(t) == 0 && anvil >= 0 && B(anvil) * a > 0;
    }
    for (int w0 = 0; w0 < 2; w0++)
    for (uint64_t bits0 = p->occ[a > 0][w0]; bits0; bits0 &= bits0 - 1) {
        int s = w0 * 64 + __builtin_ctzll(bits0), v = B(s) * a;
        if (!may[k][v][s]) continue;
        const PType *T = &V.t[v];
        for (int i = 0; i < T->nprim; i++)
            if (prim_captures(p, &T->prim[i], a, s, k, kc)) {
                if (mobile(p, s, a)) return 1;
                break;
            }
    }
    return 0;
}

static int reaches_any(const Pos *p, int a, int goal, int exclude) {
    for (int w0 = 0; w0 < 2; w0++)
    for (uint64_t bits0 = p->occ[a > 0][w0]; bits0; bits0 &= bits0 - 1) {
        int s = w0 * 64 + __builtin_ctzll(bits0), v = B(s) * a;
        if (s == exclude) continue;
        const PType *T = &V.t[v];
        for (int i = 0; i < T->nprim; i++)
            if (prim_reaches(p, &T->prim[i], a, s, goal)) {
                if (mobile(p, s, a)) return 1;
                break;
            }
    }
    return 0;
}

int palace_held(const Pos *p, int owner, int holder) {
    if (!V.palace) return 0;
    return B(V.goals[owner + 1][0]) * holder > 0 && B(V.goals[owner + 1][1]) * holder > 0;
}

static int winning_reply_exists(const Pos *p, int a) {
    int d = -a, k = KING(d);
    MoveList l; l.n = 0;
    pseudo_moves(p, a, &l);
    for (int i = 0; i < l.n; i++) {
        const Move *m = &l.m[i];
        if (k >= 0) for (int j = 0; j < m->ncap; j++) if (m->cap[j] == k) return 1;
        if (!V.palace) continue;
        Pos q = *p;
        make_board(&q, m);
        if (!palace_held(&q, a, a) && palace_held(&q, d, a)) return 1;
    }
    return 0;
}

int attacks(const Pos *p, int a) {
    int d = -a, k = KING(d);
    if (k >= 0 && attacked(p, a, k)) return 1;
    if (!V.palace) return 0;
    int g1 = V.goals[d + 1][0], g2 = V.goals[d + 1][1];
    int h1 = B(g1) * a > 0, h2 = B(g2) * a > 0;
    if (h1 && h2) return winning_reply_exists(p, a);
    if (h1) return reaches_any(p, a, g2, g1);
    if (h2) return reaches_any(p, a, g1, g2);
    return 0;
}

int in_check(const Pos *p) { return attacks(p, -p->side); }

/* ------------------------------------------------------------ generation */
static void special_moves(Pos *p, int c, MoveList *out);
void pseudo_moves(const Pos *p, int c, MoveList *out) {
    GenCtx x;
    gc_init(&x, 1);
    uint64_t fz[2];
    int anyfz = frozen_mask(p, c, fz);
    for (int w0 = 0; w0 < 2; w0++)
    for (uint64_t bits0 = p->occ[c > 0][w0]; bits0; bits0 &= bits0 - 1) {
        int s = w0 * 64 + __builtin_ctzll(bits0), v = B(s) * c;
        if (anyfz && ((fz[s >> 6] >> (s & 63)) & 1)) {
            if (V.suicide && v != V.king) add(out, s, -1, NULL, 0, 0, 0, 0);
            continue;
        }
        const PType *T = &V.t[v];
        for (int i = 0; i < T->nprim; i++) gen_prim_full(p, &T->prim[i], c, s, out, &x);
    }
}

/* Moves that capture or promote (a superset of what quiescence needs): like
 * pseudo_moves but skipping pieces and rays that cannot capture. */
/* the squares a Coordinator of colour c would capture from: on the file of
 * an enemy on its King's rank or the rank of an enemy on its King's file */
static void coordinator_targets(const Pos *p, int c, uint64_t *m) {
    const Geo *g = &V.g;
    m[0] = m[1] = 0;
    int king = KING(c);
    if (king < 0) return;
    int kf = g->file_of[king], kr = g->rank_of[king];
    for (int d = 0; d < 4; d++)   /* the King's rank and file */
        for (int i = 0; i < g->raylen[king][d]; i++) {
            int x = g->rays[king][d][i];
            if (B(x) * c >= 0) continue;
            const uint64_t *line = d == DN || d == DS ? rank_mask[g->rank_of[x] - g->min_rank] : file_mask[g->file_of[x]];
            m[0] |= line[0]; m[1] |= line[1];
        }
    m[0] &= ~(file_mask[kf][0] | rank_mask[kr - g->min_rank][0]);
    m[1] &= ~(file_mask[kf][1] | rank_mask[kr - g->min_rank][1]);
}

/* the squares from which a custodian capture by c is possible: next to an
 * enemy piece (orthogonally) with a piece of c beyond it (the grid's steps
 * are symmetric, so t = step(x, opposite e) has step(t, e) = x) */
static void custodian_targets(const Pos *p, int c, uint64_t *mask) {
    const Geo *g = &V.g;
    const uint64_t *own = p->occ[c > 0];
    for (int w0 = 0; w0 < 2; w0++)
    for (uint64_t bits0 = p->occ[c < 0][w0]; bits0; bits0 &= bits0 - 1) {
        int x = w0 * 64 + __builtin_ctzll(bits0);
        if (!((own[0] & orth_nb[x][0]) | (own[1] & orth_nb[x][1]))) continue;   /* no piece of c beside it */
        for (int e = 0; e < 4; e++) {
            int beyond = g->step[x][e], t = g->step[x][OPP[e]];
            if (beyond >= 0 && t >= 0 && B(beyond) * c > 0) mask[t >> 6] |= 1ULL << (t & 63);
        }
    }
}

void capture_moves(Pos *p, MoveList *out) {
    const Geo *g = &V.g;
    int c = p->side;
    out->n = 0;
    GenCtx x;
    gc_init(&x, 1);
    const uint64_t *enemy = p->occ[c < 0];
    uint64_t fz[2];
    int anyfz = frozen_mask_known(p, c, fz);
    for (int w0 = 0; w0 < 2; w0++)
    for (uint64_t bits0 = p->occ[c > 0][w0]; bits0; bits0 &= bits0 - 1) {
        int s = w0 * 64 + __builtin_ctzll(bits0), v = B(s) * c;
        if (anyfz && ((fz[s >> 6] >> (s & 63)) & 1)) continue;
        const PType *T = &V.t[v];
        for (int i = 0; i < T->nprim; i++) {
            const Prim *pr = &T->prim[i];
            if (pr->kind == PR_SWAP) continue;
            if (pr->kind == PR_SLIDE && !pr->effects) {
                if (!pr->replace) continue;
                int8_t cap[1];
                for (int d = 0; d < 8; d++) {
                    if (!(pr->dirs & (1 << d))) continue;
                    for (int j = 0; j < g->raylen[s][d]; j++) {
                        int t = g->rays[s][d][j], w = B(t);
                        if (w) { if (w * c < 0) { cap[0] = (int8_t)t; add(out, s, t, cap, 1, 0, 0, 0); } break; }
                    }
                }
                continue;
            }
            if (pr->kind == PR_SLIDE) {  /* a slide with capture effects: only moves that capture */
                int eff = pr->effects;
                /* a withdrawal needs an enemy next to it */
                if ((eff & EF_WITHDRAW) && !((enemy[0] & nb_mask[s][0]) | (enemy[1] & nb_mask[s][1]))) eff &= ~EF_WITHDRAW;
                if (!eff && !pr->replace) continue;
                int8_t caps[MAXCAP];
                /* the squares from which it captures by coordination or custodian, and whether the first
                 * piece of a ray is captured (approach, replacement) */
                uint64_t need[2] = {0, 0};   /* without a withdrawal, a ray along which it captures meets one */
                if (eff & EF_CUSTODIAN) { const uint64_t *m = gc_cust(&x, p, c); need[0] |= m[0]; need[1] |= m[1]; }
                if (eff & EF_COORD) { const uint64_t *m = gc_coord(&x, p, c); need[0] |= m[0]; need[1] |= m[1]; }
                if ((eff & EF_APPROACH) || pr->replace) { need[0] |= enemy[0]; need[1] |= enemy[1]; }
                if (!(eff & EF_WITHDRAW)) {   /* none on any of its rays: no capture */
                    int o = (pr->dirs & 0x0F) != 0, dg = (pr->dirs & 0xF0) != 0;
                    if (!(((need[0] & lines[s][0][0]) | (need[1] & lines[s][0][1])) * o
                          | ((need[0] & lines[s][1][0]) | (need[1] & lines[s][1][1])) * dg)) continue;
                }
                for (int d = 0; d < 8; d++) {
                    if (!(pr->dirs & (1 << d))) continue;
                    int nbase = 0;
                    int8_t base = -1;
                    if (eff & EF_WITHDRAW) {
                        int back = g->step[s][OPP[d]];
                        if (back >= 0 && B(back) * c < 0) { base = (int8_t)back; nbase = 1; }
                    }
                    if (!nbase && !on_ray(need, s, d)) continue;
                    const int8_t *ray = g->rays[s][d];
                    for (int j = 0; j < g->raylen[s][d]; j++) {
                        int t = ray[j], w = B(t);
                        if (w) {
                            if (pr->replace && w * c < 0) { caps[0] = (int8_t)t; add(out, s, t, caps, 1, 0, 0, 0); }
                            break;
                        }
                        int n = 0;
                        if (nbase) caps[n++] = base;
                        if (eff & EF_APPROACH) {
                            int front = g->step[t][d];
                            if (front >= 0 && B(front) * c < 0) caps[n++] = (int8_t)front;
                        }
                        if ((eff & EF_CUSTODIAN) && BIT(x.cust_t, t)) n += custodian_caps(p, c, t, 0, caps + n);
                        if ((eff & EF_COORD) && BIT(x.coord_t, t)) n += coord_caps(p, c, t, 0, caps + n);
                        if (n) add(out, s, t, caps, n, 0, 0, 0);
                    }
                }
                continue;
            }
            if (pr->kind == PR_LEAP) {
                int8_t cap[1];
                for (int j = 0; j < V.nleaps[pr->leaptab][s]; j++) {
                    int t = V.leaps[pr->leaptab][s][j];
                    if (B(t) * c < 0 && pr->replace) { cap[0] = (int8_t)t; add(out, s, t, cap, 1, 0, 0, 0); }
                }
                continue;
            }
            if (pr->kind == PR_PAWN) { pawn_moves(p, c, s, out, 1); continue; }   /* inline: most of the pieces */
            if (pr->kind == PR_IMIT) {   /* nothing to capture next to it, nothing on its rays to capture from or jump */
                uint64_t m0 = 0, m1 = 0;
                if (V.im_coordination) { const uint64_t *m = gc_coord(&x, p, c); m0 |= m[0]; m1 |= m[1]; }
                if (V.im_leaping) { const uint64_t *m = gc_eleap(&x, p, c); m0 |= m[0]; m1 |= m[1]; }
                int on_lines = ((m0 & (lines[s][0][0] | lines[s][1][0])) | (m1 & (lines[s][0][1] | lines[s][1][1]))) != 0;
                if (!on_lines && V.im_custodian) {
                    const uint64_t *m = gc_cust(&x, p, c);
                    on_lines = ((m[0] & lines[s][0][0]) | (m[1] & lines[s][0][1])) != 0;
                }
                if (!on_lines && !((enemy[0] & nb_mask[s][0]) | (enemy[1] & nb_mask[s][1]))) continue;
            }
            gen_prim_capt(p, pr, c, s, out, &x);
        }
    }
    if (V.family == FAM_DECKLE && p->nep) {
        MoveList sp; sp.n = 0;
        special_moves(p, c, &sp);
        for (int i = 0; i < sp.n; i++) if (sp.m[i].kind == K_EP) out->m[out->n++] = sp.m[i];
    }
}

static void special_moves(Pos *p, int c, MoveList *out) {
    if (p->nep && V.pawn) {
        int pawn = c * V.pawn;
        int hi = p->ep[0], lo = p->ep[0];
        for (int i = 1; i < p->nep; i++) { if (p->ep[i] > hi) hi = p->ep[i]; if (p->ep[i] < lo) lo = p->ep[i]; }
        int victim = V.pawn_step[-c + 1][-c == 1 ? hi : lo];
        for (int i = 0; i < p->nep; i++) {
            int e = p->ep[i];
            for (int j = 0; j < V.npawn_caps[-c + 1][e]; j++) {
                int s = V.pawn_caps[-c + 1][e][j];
                if (B(s) == pawn && mobile(p, s, c) && B(e) == 0) {
                    int8_t cap = (int8_t)victim;
                    add(out, s, e, &cap, 1, K_EP, 0, 0);
                }
            }
        }
    }
    if (p->castling && V.castling) {
        int king = c * V.king, rook = c * V.rook, ci = c + 1;
        for (int side = 0; side < 2; side++) {
            int kf = V.cs_kf[ci][side], rf = V.cs_rf[ci][side];
            if (!(p->castling & V.cs_bit[ci][side]) || B(kf) != king || B(rf) != rook) continue;
            int ok = 1;
            for (int i = 0; i < V.cs_nempty[ci][side]; i++) if (B(V.cs_empty[ci][side][i])) ok = 0;
            if (!ok) continue;
            if (!mobile(p, kf, c) || !mobile(p, rf, c)) continue;
            if (attacked(p, -c, kf)) continue;
            p->b[kf] = 0;
            for (int i = 0; i < V.cs_nsafe[ci][side] && ok; i++) {
                int x = V.cs_safe[ci][side][i];
                p->b[x] = (int8_t)king; KING(c) = (int8_t)x;
                if (attacked(p, -c, x)) ok = 0;
                p->b[x] = 0;
            }
            p->b[kf] = (int8_t)king; KING(c) = (int8_t)kf;
            if (ok) add(out, kf, V.cs_kt[ci][side], NULL, 0, K_CASTLE, rf, V.cs_rt[ci][side]);
        }
    }
}

void make_board(Pos *p, const Move *m) {
    int frm = m->from, to = m->to;
    int pc = B(frm);
    int rk = V.king;
    for (int i = 0; i < m->ncap; i++) {
        int x = m->cap[i], v = B(x);
        if (v == rk || v == -rk) KING(v > 0 ? 1 : -1) = -1;
        set_square(p, x, 0);
    }
    if (m->kind == K_SWAP) {
        int other = B(to);
        set_square(p, to, pc); set_square(p, frm, other);
        if (other == rk || other == -rk) KING(other > 0 ? 1 : -1) = (int8_t)frm;
        if (pc == rk || pc == -rk) KING(pc > 0 ? 1 : -1) = (int8_t)to;
        return;
    }
    set_square(p, frm, 0);
    if (m->kind == K_PROMOTE) { set_square(p, to, pc > 0 ? m->arg : -m->arg); return; }
    if (to >= 0) {
        set_square(p, to, pc);
        if (pc == rk || pc == -rk) KING(pc > 0 ? 1 : -1) = (int8_t)to;
    } else if (pc == rk || pc == -rk) KING(pc > 0 ? 1 : -1) = -1;
    if (m->kind == K_CASTLE) { int r = p->b[(int)m->arg]; set_square(p, m->arg, 0); set_square(p, m->arg2, r); }
}

void sync_occupancy(Pos *p) {
    memset(p->occ, 0, sizeof p->occ);
    memset(p->frz, 0, sizeof p->frz);
    for (int s = 0; s < V.g.size; s++)
        if (B(s)) {
            p->occ[B(s) > 0][s >> 6] |= 1ULL << (s & 63);
            if (V.freezer[B(s) > 0 ? B(s) : -B(s)]) p->frz[s >> 6] |= 1ULL << (s & 63);
        }
}

int legal_after(const Pos *q, int c) {
    if (V.palace) {
        if (palace_held(q, c, c)) return 0;
        if (palace_held(q, -c, c)) return 1;
        return !attacks(q, -c);
    }
    int k = q->king[c + 1];
    return k < 0 || !attacked(q, -c, k);
}

void candidates(Pos *p, MoveList *l) {
    int c = p->side;
    l->n = 0;
    pseudo_moves(p, c, l);
    if (V.family == FAM_DECKLE) {
        special_moves(p, c, l);
        if (p->ban0 >= 0) {
            int j = 0;
            for (int i = 0; i < l->n; i++) {
                const Move *m = &l->m[i];
                if (m->kind == K_SWAP && m->from == p->ban0 && m->to == p->ban1) continue;
                l->m[j++] = *m;
            }
            l->n = j;
        }
    }
}

/* ------------------------------------------------------------ legality shortcut
 * (movegen.Rules.relevant_squares): the squares a plain move must touch to
 * possibly give the opponent a winning reply; 0 when every move needs the
 * full test. Mirrors each primitive's deps(). */
static inline void mark_between(uint8_t *z, int s, int k) {
    const Geo *g = &V.g;
    int d = g->dir[s][k], n = g->dist[s][k];
    for (int i = 0; i < n - 1; i++) z[g->rays[s][d][i]] = 1;
}

static int prim_deps(const Pos *p, const Prim *pr, int a, int s, int k, uint8_t *z) {
    const Geo *g = &V.g;
    static const int bent[8][2] = {{0,0},{0,0},{0,0},{0,0},{DN,DE},{DS,DE},{DS,DW},{DN,DW}};
    switch (pr->kind) {
    case PR_LEAP: case PR_PAWN: case PR_SWAP: case PR_DESTRUCT: return 1;
    case PR_SLIDE: {
        int dirs = pr->dirs;
        int d = g->dir[s][k];
        if ((pr->replace || (pr->effects & EF_APPROACH)) && d >= 0 && (dirs & (1 << d))) mark_between(z, s, k);
        if (pr->effects & EF_WITHDRAW) {
            int dk = g->dir[k][s];
            if (dk >= 0 && g->dist[k][s] == 1 && (dirs & (1 << dk))) { int t = g->step[s][dk]; if (t >= 0) z[t] = 1; }
        }
        if (pr->effects & EF_CUSTODIAN) {
            for (int e = 0; e < 4; e++) {
                int t = g->step[k][e];
                if (t < 0) continue;
                int anvil = g->step[k][OPP[e]];
                if (anvil < 0 || B(anvil) * a <= 0) continue;
                int dt = g->dir[s][t];
                if (dt >= 0 && (dirs & (1 << dt))) { z[t] = 1; mark_between(z, s, t); }
            }
        }
        if (pr->effects & EF_COORD) {
            int king = KING(a);
            if (king >= 0 && king != k) {
                int byfile;
                if (g->rank_of[king] == g->rank_of[k]) byfile = 1;
                else if (g->file_of[king] == g->file_of[k]) byfile = 0;
                else return 1;
                int target = byfile ? g->file_of[k] : g->rank_of[k];
                for (int dd = 0; dd < 8; dd++) {
                    if (!(dirs & (1 << dd))) continue;
                    const int8_t *ray = g->rays[s][dd];
                    for (int i = 0; i < g->raylen[s][dd]; i++)
                        if ((byfile ? g->file_of[ray[i]] : g->rank_of[ray[i]]) == target) {
                            for (int j = 0; j <= i; j++) z[ray[j]] = 1;
                            break;
                        }
                }
            }
        }
        return 1;
    }
    case PR_LEAPSLIDE: {
        int d = g->dir[s][k];
        if (d < 0) return 1;
        int n = g->dist[s][k] + 1;
        for (int i = 0; i < n && i < g->raylen[s][d]; i++) z[g->rays[s][d][i]] = 1;
        return 1;
    }
    case PR_MAGE:
        for (int d = 4; d < 8; d++) {
            int x = g->step[s][d];
            if (x < 0 || x == k) continue;
            for (int j = 0; j < 2; j++)
                if (g->dir[x][k] == bent[d][j]) { z[x] = 1; mark_between(z, x, k); }
        }
        return 1;
    case PR_IMIT: {
        int victim = -B(k) * a;
        return victim > 0 && V.step_victim[victim];
    }
    case PR_MIMIC: {
        int victim = -B(k) * a;
        if (victim <= 0) return 1;
        const PType *T = &V.t[victim];
        for (int j = 0; j < T->nmimic; j++) {
            const Prim *mp = &T->mimic[j];
            if (mp->kind == PR_SLIDE) {
                int d = g->dir[s][k];
                if (d >= 0 && (mp->dirs & (1 << d))) mark_between(z, s, k);
            }
        }
        return 1;
    }
    }
    return 0;
}

/* 1 and z filled when the shortcut applies; 0 when every move needs the full test */
static int relevant_squares(const Pos *p, uint8_t *z) {
    int c = p->side, a = -c, k = KING(c);
    if (k < 0) return 0;
    if (V.palace) {
        if (B(V.goals[c + 1][0]) * a > 0 || B(V.goals[c + 1][1]) * a > 0) return 0;
    }
    if (attacked(p, a, k)) return 0;
    memset(z, 0, MAXSQ);
    for (int w0 = 0; w0 < 2; w0++)
    for (uint64_t bits0 = p->occ[a > 0][w0]; bits0; bits0 &= bits0 - 1) {
        int s = w0 * 64 + __builtin_ctzll(bits0), v = B(s) * a;
        const PType *T = &V.t[v];
        for (int i = 0; i < T->nprim; i++) if (!prim_deps(p, &T->prim[i], a, s, k, z)) return 0;
    }
    return 1;
}

/* whether the plain move m skips the full test (z from relevant_squares) */
static inline int shortcut_safe(const Pos *p, const Move *m, const uint8_t *z) {
    if (m->kind != K_PLAIN) return 0;
    int frm = m->from, c = p->side;
    int v = B(frm) * c;
    if (V.t[v].royal) return 0;
    if (V.t[v].freezer || V.t[v].freezes_freezer) {
        const Geo *g = &V.g;
        for (int i = 0; i < g->nnb[frm]; i++) if (B(g->nb[frm][i]) * c < 0) return 0;
    }
    int to = m->to;
    if (z[frm] || (to >= 0 && z[to])) return 0;
    if (V.palace && (to == V.goals[c + 1][0] || to == V.goals[c + 1][1])) return 0;
    for (int i = 0; i < m->ncap; i++) if (z[m->cap[i]]) return 0;
    return 1;
}

int legal_prepare(const Pos *p, uint8_t *z) { return relevant_squares(p, z); }

int move_legal(const Pos *p, const Move *m, int have_z, const uint8_t *z, const Pos *after) {
    if (have_z && shortcut_safe(p, m, z)) return 1;
    if (after) return legal_after(after, p->side);
    Pos q = *p;
    make_board(&q, m);
    return legal_after(&q, p->side);
}

void legal_moves(Pos *p, MoveList *out) {
    MoveList l;
    candidates(p, &l);
    out->n = 0;
    uint8_t z[MAXSQ];
    int hz = relevant_squares(p, z);
    for (int i = 0; i < l.n; i++)
        if (move_legal(p, &l.m[i], hz, z, NULL)) out->m[out->n++] = l.m[i];
}

int count_legal(Pos *p) {
    MoveList l;
    candidates(p, &l);
    int n = 0;
    uint8_t z[MAXSQ];
    int hz = relevant_squares(p, z);
    for (int i = 0; i < l.n; i++) n += move_legal(p, &l.m[i], hz, z, NULL);
    return n;
}

/* ------------------------------------------------------------ hashing */
static uint64_t Z[MAXTYPES * 2 + 1][MAXSQ], Z_SIDE, Z_CASTLE[16], Z_EP[MAXSQ], Z_BAN[MAXSQ], Z_BAN2[MAXSQ];
static int zinit;
static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;
static uint64_t rng64(void) {
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
void init_zobrist(void) {
    if (zinit) return;
    zinit = 1;
    for (int i = 0; i < MAXTYPES * 2 + 1; i++) for (int s = 0; s < MAXSQ; s++) Z[i][s] = rng64();
    Z_SIDE = rng64();
    for (int i = 0; i < 16; i++) Z_CASTLE[i] = rng64();
    for (int s = 0; s < MAXSQ; s++) { Z_EP[s] = rng64(); Z_BAN[s] = rng64(); Z_BAN2[s] = rng64(); }
}
#define ZP(v, s) Z[(v) + MAXTYPES][s]
static uint64_t state_hash(const Pos *p) {
    uint64_t h = 0;
    if (p->side < 0) h ^= Z_SIDE;
    h ^= Z_CASTLE[p->castling & 15];
    for (int i = 0; i < p->nep; i++) h ^= Z_EP[p->ep[i]];
    if (p->ban0 >= 0) h ^= Z_BAN[p->ban0] ^ Z_BAN2[p->ban1];
    return h;
}
uint64_t compute_hash(const Pos *p) {
    uint64_t h = state_hash(p);
    for (int s = 0; s < V.g.size; s++) if (B(s)) h ^= ZP(B(s), s);
    return h;
}

/* full make: castling rights, en passant, swap ban (movegen.next_state), counters, hash */
void play(Pos *p, const Move *m) {
    int frm = m->from, to = m->to, kind = m->kind;
    int pc = B(frm);
    int touched[MAXCAP + 4], nt = 0;
    touched[nt++] = frm;
    if (to >= 0) touched[nt++] = to;
    for (int i = 0; i < m->ncap; i++) touched[nt++] = m->cap[i];
    if (kind == K_CASTLE) { touched[nt++] = m->arg; touched[nt++] = m->arg2; }
    uint64_t h = p->hash ^ state_hash(p);
    uint64_t tm[2] = {0, 0};   /* the touched squares, each once */
    for (int i = 0; i < nt; i++) tm[touched[i] >> 6] |= 1ULL << (touched[i] & 63);
    /* remove old contents of touched squares */
    for (int w = 0; w < 2; w++)
        for (uint64_t b = tm[w]; b; b &= b - 1) { int x = w * 64 + __builtin_ctzll(b); if (B(x)) h ^= ZP(B(x), x); }
    if (V.family == FAM_DECKLE) {
        int castling = p->castling;
        if (castling) {
            for (int ci = 0; ci <= 2; ci += 2)
                for (int side = 0; side < 2; side++) {
                    int bit = V.cs_bit[ci][side];
                    if (!(castling & bit)) continue;
                    for (int i = 0; i < nt; i++)
                        if (touched[i] == V.cs_kf[ci][side] || touched[i] == V.cs_rf[ci][side]) { castling &= ~bit; break; }
                }
        }
        p->castling = (uint8_t)castling;
        p->nep = 0; p->ban0 = p->ban1 = -1;
        if (kind == K_SWAP) {
            if (B(to) == -pc) { p->ban0 = (int8_t)frm; p->ban1 = (int8_t)to; }
        } else if ((pc == V.pawn || pc == -V.pawn) && to >= 0 && kind == K_PLAIN) {
            int c = pc > 0 ? 1 : -1;
            int x = V.pawn_step[c + 1][frm], crossed[3], n = 0;
            while (x != to && x >= 0 && n < 3) { crossed[n++] = x; x = V.pawn_step[c + 1][x]; }
            if (n && x == to) {
                /* sorted by square index */
                for (int i = 0; i < n; i++) for (int j = i + 1; j < n; j++)
                    if (crossed[j] < crossed[i]) { int t = crossed[i]; crossed[i] = crossed[j]; crossed[j] = t; }
                for (int i = 0; i < n; i++) p->ep[i] = (int8_t)crossed[i];
                p->nep = (uint8_t)n;
            }
        }
        int removes = m->ncap > 0 || to < 0;
        int pawn_move = (pc == V.pawn || pc == -V.pawn) && kind != K_SWAP;
        p->halfmove = (removes || pawn_move) ? 0 : p->halfmove + 1;
        if (p->side < 0) p->fullmove++;
    }
    make_board(p, m);
    for (int w = 0; w < 2; w++)
        for (uint64_t b = tm[w]; b; b &= b - 1) { int x = w * 64 + __builtin_ctzll(b); if (B(x)) h ^= ZP(B(x), x); }
    p->side = (int8_t)-p->side;
    p->ply++;
    p->hash = h ^ state_hash(p);
}

uint64_t perft(Pos *p, int depth) {
    if (depth <= 0) return 1;
    if (depth == 1) return (uint64_t)count_legal(p);
    MoveList l;
    legal_moves(p, &l);
    uint64_t total = 0;
    for (int i = 0; i < l.n; i++) {
        Pos q = *p;
        play(&q, &l.m[i]);
        total += perft(&q, depth - 1);
    }
    return total;
}
