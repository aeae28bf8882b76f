/* Search for Maxima, Ultima and Deckle's games: the evaluation, the game's
 * end, move ordering (TT move, captures by victim value, killers, history)
 * and the hooks of the search written once in search_core.h (iterative
 * deepening, PVS alpha-beta, transposition table, quiescence on captures,
 * mate scores, time management, levels 1-10). */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "engine.h"

#define MAXPLY 96

volatile int stop_flag;
int search_silent;   /* no info lines (self-play) */

typedef struct { int hz; uint8_t z[MAXSQ]; } LegalCtx;   /* legal_prepare's squares, prepared on first use */
#define SC_POS Pos
#define SC_MOVE Move
#define SC_MOVELIST MoveList
#define SC_GOPARAMS GoParams
#define SC_MAXPLY MAXPLY
#define SC_MAXMOVES MAXMOVES
#define SC_HIST_FROM MAXSQ
#define SC_HIST_TO MAXSQ
#define SC_LEGALCTX LegalCtx
#define SC_QDEPTH 0                /* unlimited: the captures run out */
#define SC_MATE_DISTANCE 1
#define SC_TT_MOVE_FIRST 1
#define SC_MATE_STOP_AT_ONCE 0
#define SC_QS_FAIL_SOFT 1
#include "search_core.h"

long long search_nodes(void) { return nodes; }

void search_init(int hash_mb) {
    if (hash_mb < 1) hash_mb = 1;
    tt_alloc((size_t)hash_mb << 20);
}
void search_clear(void) { if (tt) memset(tt, 0, tt_size * sizeof(TTEntry)); }
static void sc_tt_ready(void) { if (!tt) search_init(16); }

static inline int same_move(const Move *a, const Move *b) {
    if (a->from != b->from || a->to != b->to || a->kind != b->kind || a->arg != b->arg || a->ncap != b->ncap) return 0;
    for (int i = 0; i < a->ncap; i++) if (a->cap[i] != b->cap[i]) return 0;
    return 1;
}

/* ------------------------------------------------------------ evaluation */
/* Material values are in engine.h's PType.value (variants.c). Frozen pieces
 * count half; a slider's reach adds mobility; Maxima's palace: enemy pieces on
 * or next to the own goal squares cost, own Guards near it pay. */
static uint8_t ev_mobdirs[MAXTYPES];    /* directions whose empty squares count as mobility */
static int8_t ev_ray3[MAXSQ][8][3];     /* the first three squares of each ray, padded with the square itself (occupied) */
static int16_t ev_sq[2][MAXTYPES][MAXSQ]; /* [colour index][type][square]: Pawn advancement and palace pressure */
static int ev_val[MAXTYPES];
static const VariantDef *ev_def;
static void eval_prepare(void) {
    const Geo *g = &V.g;
    for (int t = 0; t < MAXTYPES; t++) ev_val[t] = t <= V.ntypes ? V.t[t].value : 0;
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
        if ((pr->kind == PR_SLIDE && pr->dirs != 0x0F) || pr->kind == PR_LEAPSLIDE || pr->kind == PR_IMIT)
            ev_mobdirs[t] = pr->kind == PR_SLIDE ? pr->dirs : 0xFF;
    }
    ev_def = V.def;
}

/* a small cache of evaluate()'s board score by position key (the same
 * positions recur in quiescence); cleared with the variant */
#define EV_CACHE (1 << 14)
static struct { uint64_t key; int score; } ev_cache[EV_CACHE];

/* the evaluation cache's and the TT's slots of a position just made, fetched
 * ahead of its search (both are mostly cache misses) */
static inline void prefetch_pos(const Pos *q) {
    __builtin_prefetch(&ev_cache[(unsigned)(q->hash >> 7) & (EV_CACHE - 1)]);
    if (tt) __builtin_prefetch(&tt[q->hash & (tt_size - 1)]);
}

static int finish_eval(const Pos *p, int score) {
    int out = score * p->side;
    if (level_noise) {
        uint64_t z = (p->hash ^ noise_seed) * 0x9E3779B97F4A7C15ULL;
        out += (int)((z >> 40) % (uint64_t)(2 * level_noise + 1)) - level_noise;
    }
    return out + 10;  /* tempo */
}

int evaluate(const Pos *p) {
    const Geo *g = &V.g;
    if (ev_def != V.def) { eval_prepare(); memset(ev_cache, 0, sizeof ev_cache); }
    unsigned slot = (unsigned)(p->hash >> 7) & (EV_CACHE - 1);
    if (ev_cache[slot].key == p->hash && p->hash) return finish_eval(p, ev_cache[slot].score);
    int score = 0;
    /* the immobilized pieces of both sides: [colour index] square masks */
    uint64_t fz[2][2];
    frozen_mask(p, -1, fz[0]); frozen_mask(p, 1, fz[1]);
    frozen_note(p, (const uint64_t (*)[2])fz);
#define FROZEN(s, c) ((fz[(c) > 0][(s) >> 6] >> ((s) & 63)) & 1)
    /* each colour's pieces in turn (the colour is then a constant) */
    for (int ci = 0; ci < 2; ci++) {
      const int c = ci ? 1 : -1;
      const int16_t *sqv = ev_sq[ci][0];
      int side_score = 0;
      for (int w = 0; w < 2; w++)
      for (uint64_t bits = p->occ[ci][w]; bits; bits &= bits - 1) {
        int s = w * 64 + __builtin_ctzll(bits), t = p->b[s] * c;
        int val = ev_val[t];
        if ((fz[ci][w] >> (s & 63)) & 1) val /= 2;   /* frozen: half value, no mobility */
        else if (ev_mobdirs[t]) {
            /* empty squares within three steps, without branches (a ray shorter
             * than three is padded with s itself, which is occupied) */
            int mob = 0, dirs = ev_mobdirs[t];
            const int8_t *b = p->b;
            if (dirs == 0xFF) {
                const int8_t *r3 = ev_ray3[s][0];
                /* unrolled over the eight directions */
#define RAY3(d) { unsigned e1 = b[r3[3 * (d)]] == 0, e2 = e1 & (b[r3[3 * (d) + 1]] == 0); \
                  mob += (int)(e1 + e2 + (e2 & (b[r3[3 * (d) + 2]] == 0))); }
                RAY3(0) RAY3(1) RAY3(2) RAY3(3) RAY3(4) RAY3(5) RAY3(6) RAY3(7)
#undef RAY3
            } else
                for (int d = 0; d < 8; d++) {
                    if (!(dirs & (1 << d))) continue;
                    const int8_t *r3 = ev_ray3[s][d];
                    int e1 = b[r3[0]] == 0, e2 = e1 & (b[r3[1]] == 0), e3 = e2 & (b[r3[2]] == 0);
                    mob += e1 + e2 + e3;
                }
            val += 3 * mob;
        }
        side_score += val + sqv[t * MAXSQ + s];
      }
      score += c * side_score;
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
    ev_cache[slot].key = p->hash; ev_cache[slot].score = score;
    return finish_eval(p, score);
}

/* ------------------------------------------------------------ game end */
static int game_over_static(const Pos *p, int ply, int *score) {
    int side = p->side;
    if (V.palace && palace_held(p, side, -side)) { *score = -MATE + ply; return 1; }
    if (V.bare_king) {
        if (piece_count(p, side > 0) == 1) { *score = -MATE + ply; return 1; }
    }
    if (V.family == FAM_DECKLE) {
        if (piece_count(p, 2) == 2 || p->halfmove >= 100) { *score = 0; return 1; }
    }
    return 0;
}

static int no_move_score(const Pos *p, int ply) {
    if (in_check(p)) return -MATE + ply;
    if (V.stalemate_mover_wins) return -MATE + ply;
    return 0;
}


/* ------------------------------------------------------------ ordering */
static int capture_value(const Pos *p, const Move *m) {
    int v = 0;
    for (int i = 0; i < m->ncap; i++) { int x = p->b[m->cap[i]]; v += V.t[x > 0 ? x : -x].value + 1; }
    if (m->kind == K_PROMOTE) v += V.t[(int)m->arg].value;
    return v;
}

static void sc_score_moves(const Pos *p, const MoveList *l, int *sc, const Move *ttm, int ply) {
    for (int i = 0; i < l->n; i++) {
        const Move *m = &l->m[i];
        int s;
        if (ttm && same_move(m, ttm)) s = 1 << 30;
        else if (m->ncap || m->kind == K_PROMOTE) {
            int mover = p->b[m->from];
            s = (1 << 24) + capture_value(p, m) * 16 - V.t[mover > 0 ? mover : -mover].value / 16;
            if (m->to < 0) s -= 1 << 20;   /* mutual destruction */
        } else if (ply < MAXPLY && same_move(m, &killers[ply][0])) s = (1 << 23);
        else if (ply < MAXPLY && same_move(m, &killers[ply][1])) s = (1 << 23) - 1;
        else if (m->to < 0) s = -1000000;  /* suicide last */
        else s = history[m->from][m->to];
        sc[i] = s;
    }
}

/* ------------------------------------------------------------ the search's hooks */
static int sc_eval(const Pos *p) { return evaluate(p); }
static int sc_same(const Move *a, const Move *b) { return same_move(a, b); }
static void sc_play(Pos *q, const Move *m) { play(q, m); }
static void sc_prefetch(const Pos *q) { prefetch_pos(q); }
static int sc_before(Pos *p, int ply, int *score) { (void)p; (void)ply; (void)score; return 0; }
static int sc_node_end(Pos *p, int ply, int *score) {
    if (ply && game_over_static(p, ply, score)) return 1;
    if (ply && V.repetition) {
        for (int i = hbase + ply - 2; i >= 0 && i >= hbase + ply - p->halfmove; i -= 2)
            if (hstack[i] == p->hash) { *score = 0; return 1; }
    }
    if (ply >= MAXPLY - 1) { *score = evaluate(p); return 1; }
    return 0;
}
/* pseudo-legal moves (with castling, en passant, the swap ban); legality is tested after each is made */
static int sc_generate(Pos *p, MoveList *l, int ply, int *score) { (void)ply; (void)score; candidates(p, l); return 0; }
static void sc_legal_init(LegalCtx *x) { x->hz = -1; }
static int sc_legal(Pos *p, const Move *m, const Pos *q, LegalCtx *x) {
    if (x->hz < 0) x->hz = legal_prepare(p, x->z);
    return move_legal(p, m, x->hz, x->z, q);
}
static int sc_no_moves(Pos *p, int ply) { return no_move_score(p, ply); }
static int sc_quiet(const Move *m) { return !m->ncap && m->kind != K_PROMOTE; }
static int sc_killer_ok(const Move *m) { return !m->ncap; }
static int *sc_history(const Move *m) { return m->to >= 0 ? &history[m->from][m->to] : NULL; }
static int sc_qs_stand(Pos *p, int alpha, int beta, int ply, int qdepth, MoveList *l, int *stand) {
    (void)alpha; (void)qdepth;
    if (game_over_static(p, ply, stand)) return 1;
    *stand = evaluate(p);
    if (ply >= MAXPLY - 1 || *stand >= beta) return 1;
    capture_moves(p, l);
    int j = 0;
    for (int i = 0; i < l->n; i++) if (l->m[i].ncap || l->m[i].kind == K_PROMOTE) l->m[j++] = l->m[i];
    l->n = j;
    return 0;
}
/* few moves: the full test is cheaper than the shortcut's set-up */
static int sc_qs_legal(Pos *p, const Move *m, const Pos *q) { return move_legal(p, m, 0, NULL, q); }
static int sc_root(Pos *root, MoveList *l, Move *best, int *found, int silent) {
    (void)silent;
    legal_moves(root, l);
    *found = l->n > 0;
    if (!l->n) return 1;
    *best = l->m[0];
    return 0;
}
static void sc_move_str(const Move *m, char *out) { move_str(m, out); }

void search_go(Pos *root, const uint64_t *hist, int nhist, const GoParams *gp, Move *best, int *found) {
    sc_go(root, hist, nhist, gp, best, found, search_silent);
}

/* the game's end before a move is chosen: 1 and *white_score (1, 0.5, 0) when over */
int game_end(Pos *p, double *white_score) {
    int st;
    if (game_over_static(p, 0, &st)) {
        *white_score = st == 0 ? 0.5 : (st > 0) == (p->side > 0) ? 1.0 : 0.0;
        return 1;
    }
    if (!count_legal(p)) {
        int v = no_move_score(p, 0);
        *white_score = v == 0 ? 0.5 : (v > 0) == (p->side > 0) ? 1.0 : 0.0;
        return 1;
    }
    return 0;
}
