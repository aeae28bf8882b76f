/* Search: iterative deepening, PVS alpha-beta, transposition table, move
 * ordering (TT move, captures by victim value, killers, history), quiescence
 * on captures, mate scores, time management, levels 1-10. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "engine.h"

#define INF 32000
#define MATE 30000
#define MATE_BOUND (MATE - 1000)
#define MAXPLY 96

volatile int stop_flag;
int search_silent;   /* no info lines (self-play) */
static long long nodes, node_limit;
static double t_start, t_soft, t_hard;
static int use_time, level_noise, root_depth_limit;
static uint64_t noise_seed;

long long search_nodes(void) { return nodes; }
static double now_s(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }

/* ------------------------------------------------------------ transposition table */
typedef struct { uint64_t key; Move move; int16_t score; int8_t depth; uint8_t flag; } TTEntry;
enum { TT_NONE, TT_EXACT, TT_LOWER, TT_UPPER };
static TTEntry *tt;
static size_t tt_size;

void search_init(int hash_mb) {
    if (hash_mb < 1) hash_mb = 1;
    size_t n = 1;
    while (n * 2 * sizeof(TTEntry) <= (size_t)hash_mb << 20) n *= 2;
    free(tt);
    tt = malloc(n * sizeof(TTEntry));
    tt_size = n;
    /* touched now, so the pages are mapped before the first search (not in its time) */
    if (tt) memset(tt, 0, n * sizeof(TTEntry));
}
void search_clear(void) { if (tt) memset(tt, 0, tt_size * sizeof(TTEntry)); }

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
    int8_t sqs[MAXSQ], fsq[MAXSQ]; int nf = 0;
    if (V.nfreezers)
        for (int i = 0, n = piece_squares(p, 2, sqs); i < n; i++) { int v = p->b[sqs[i]]; if (V.freezer[v > 0 ? v : -v]) fsq[nf++] = sqs[i]; }
    /* the immobilized pieces of both sides: [colour index] square masks */
    uint64_t fz[2][2] = {{0, 0}, {0, 0}};
    if (nf) { frozen_given(p, -1, fsq, nf, fz[0]); frozen_given(p, 1, fsq, nf, fz[1]); }
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

/* ------------------------------------------------------------ search state */
static Move killers[MAXPLY][2];
static int history[MAXSQ][MAXSQ];
static Move pv[MAXPLY][MAXPLY];
static int pvlen[MAXPLY];
static uint64_t hstack[1024 + MAXPLY];
static int hbase;

static int check_time(void) {
    if (stop_flag) return 1;
    if (node_limit && nodes >= node_limit) { stop_flag = 1; return 1; }
    if ((nodes & 1023) == 0 && use_time && now_s() >= t_hard) { stop_flag = 1; return 1; }
    return 0;
}

static int capture_value(const Pos *p, const Move *m) {
    int v = 0;
    for (int i = 0; i < m->ncap; i++) { int x = p->b[m->cap[i]]; v += V.t[x > 0 ? x : -x].value + 1; }
    if (m->kind == K_PROMOTE) v += V.t[(int)m->arg].value;
    return v;
}

static void score_moves(const Pos *p, const MoveList *l, int *sc, const Move *ttm, int ply) {
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

static void pick(MoveList *l, int *sc, int i) {
    int best = i;
    for (int j = i + 1; j < l->n; j++) if (sc[j] > sc[best]) best = j;
    if (best != i) { Move t = l->m[i]; l->m[i] = l->m[best]; l->m[best] = t; int x = sc[i]; sc[i] = sc[best]; sc[best] = x; }
}

static int qsearch(Pos *p, int alpha, int beta, int ply) {
    nodes++;
    pvlen[ply] = 0;
    if (check_time()) return 0;
    int st;
    if (game_over_static(p, ply, &st)) return st;
    int stand = evaluate(p);
    if (ply >= MAXPLY - 1) return stand;
    if (stand >= beta) return stand;
    if (stand > alpha) alpha = stand;
    MoveList l; int sc[MAXMOVES];
    capture_moves(p, &l);
    int j = 0;
    for (int i = 0; i < l.n; i++) if (l.m[i].ncap || l.m[i].kind == K_PROMOTE) l.m[j++] = l.m[i];
    l.n = j;
    score_moves(p, &l, sc, NULL, ply);
    for (int i = 0; i < l.n; i++) {
        pick(&l, sc, i);
        Pos q = *p;
        play(&q, &l.m[i]);
        prefetch_pos(&q);
        if (!move_legal(p, &l.m[i], 0, NULL, &q)) continue;   /* few moves: the full test is cheaper than the shortcut's set-up */
        int v = -qsearch(&q, -beta, -alpha, ply + 1);
        if (stop_flag) return 0;
        if (v > stand) stand = v;
        if (v > alpha) { alpha = v; if (v >= beta) break; }
    }
    return stand;
}

static int score_to_tt(int s, int ply) { return s > MATE_BOUND ? s + ply : s < -MATE_BOUND ? s - ply : s; }
static int score_from_tt(int s, int ply) { return s > MATE_BOUND ? s - ply : s < -MATE_BOUND ? s + ply : s; }

static int no_quiescence;

static int search(Pos *p, int depth, int alpha, int beta, int ply) {
    if (depth <= 0) {
        if (no_quiescence) { nodes++; pvlen[ply] = 0; return evaluate(p); }
        return qsearch(p, alpha, beta, ply);
    }
    nodes++;
    pvlen[ply] = 0;
    if (check_time()) return 0;
    int st;
    if (ply && game_over_static(p, ply, &st)) return st;
    if (ply && V.repetition) {
        for (int i = hbase + ply - 2; i >= 0 && i >= hbase + ply - p->halfmove; i -= 2)
            if (hstack[i] == p->hash) return 0;
    }
    if (ply >= MAXPLY - 1) return evaluate(p);
    /* mate distance pruning */
    if (alpha < -MATE + ply) alpha = -MATE + ply;
    if (beta > MATE - ply - 1) beta = MATE - ply - 1;
    if (alpha >= beta) return alpha;
    TTEntry *e = &tt[p->hash & (tt_size - 1)];
    Move *ttm = NULL;
    if (e->key == p->hash && e->flag) {
        ttm = &e->move;
        if (ply && e->depth >= depth) {
            int s = score_from_tt(e->score, ply);
            if (e->flag == TT_EXACT || (e->flag == TT_LOWER && s >= beta) || (e->flag == TT_UPPER && s <= alpha)) return s;
        }
    }
    Move ttmove; int has_tt = 0;
    if (ttm) { ttmove = *ttm; has_tt = 1; }
    /* the TT move (legal: stored from this very position) is tried before generating */
    MoveList l; int sc[MAXMOVES];
    l.n = 0;
    int generated = 0;
    int best = -INF, legal = 0, alpha0 = alpha;
    uint8_t z[MAXSQ];
    int hz = -1;
    Move bestm; memset(&bestm, 0, sizeof bestm);
    hstack[hbase + ply] = p->hash;
    for (int i = has_tt ? -1 : 0;; i++) {
        const Move *m;
        if (i < 0) m = &ttmove;
        else {
            if (!generated) {
                candidates(p, &l);
                score_moves(p, &l, sc, NULL, ply);
                generated = 1;
            }
            if (i >= l.n) break;
            pick(&l, sc, i);
            m = &l.m[i];
            if (has_tt && same_move(m, &ttmove)) continue;
        }
        Pos q = *p;
        play(&q, m);
        prefetch_pos(&q);
        if (i >= 0) {
            if (hz < 0) hz = legal_prepare(p, z);
            if (!move_legal(p, m, hz, z, &q)) continue;
        }
        legal++;
        int v;
        if (legal == 1) v = -search(&q, depth - 1, -beta, -alpha, ply + 1);
        else {
            /* late move reduction for quiet moves */
            int r = (depth >= 3 && legal > 4 && !m->ncap && m->kind != K_PROMOTE) ? 1 : 0;
            v = -search(&q, depth - 1 - r, -alpha - 1, -alpha, ply + 1);
            if (v > alpha && (r || v < beta)) v = -search(&q, depth - 1, -beta, -alpha, ply + 1);
        }
        if (stop_flag) return 0;
        if (v > best) {
            best = v; bestm = *m;
            if (v > alpha) {
                alpha = v;
                pv[ply][0] = *m;
                memcpy(&pv[ply][1], &pv[ply + 1][0], sizeof(Move) * (size_t)pvlen[ply + 1]);
                pvlen[ply] = pvlen[ply + 1] + 1;
                if (v >= beta) {
                    if (!m->ncap && ply < MAXPLY) {
                        if (!same_move(m, &killers[ply][0])) { killers[ply][1] = killers[ply][0]; killers[ply][0] = *m; }
                        if (m->to >= 0) history[m->from][m->to] += depth * depth;
                    }
                    break;
                }
            }
        }
    }
    if (!legal) return no_move_score(p, ply);
    e->key = p->hash; e->move = bestm; e->depth = (int8_t)depth;
    e->score = (int16_t)score_to_tt(best, ply);
    e->flag = best >= beta ? TT_LOWER : best > alpha0 ? TT_EXACT : TT_UPPER;
    return best;
}

static const int LEVEL_DEPTH[11] = {0, 1, 1, 2, 2, 3, 4, 5, 6, 8, MAXPLY - 4};
static const int LEVEL_NOISE[11] = {0, 500, 250, 90, 0, 0, 0, 0, 0, 0, 0};
/* percent of moves chosen at random among the legal ones (the weakest levels) */
static const int LEVEL_RANDOM[11] = {0, 65, 35, 10, 0, 0, 0, 0, 0, 0, 0};
static const int LEVEL_QUIESCENCE[11] = {0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1};
static const int LEVEL_NODES[11] = {0, 0, 0, 0, 20000, 60000, 200000, 600000, 2000000, 8000000, 0};

void search_go(Pos *root, const uint64_t *hist, int nhist, const GoParams *gp, Move *best, int *found) {
    int level = gp->level < 1 ? 10 : gp->level > 10 ? 10 : gp->level;
    t_start = now_s();
    nodes = 0;
    node_limit = gp->nodes_limit > 0 ? gp->nodes_limit : LEVEL_NODES[level];
    level_noise = LEVEL_NOISE[level];
    noise_seed = (uint64_t)time(NULL) * 0x2545F4914F6CDD1DULL ^ (uint64_t)clock();
    root_depth_limit = gp->depth > 0 ? gp->depth : MAXPLY - 4;
    if (root_depth_limit > LEVEL_DEPTH[level]) root_depth_limit = LEVEL_DEPTH[level];
    use_time = 0;
    if (gp->movetime > 0) { use_time = 1; t_soft = t_hard = t_start + gp->movetime / 1000.0; }
    else {
        int mytime = root->side > 0 ? gp->wtime : gp->btime, inc = root->side > 0 ? gp->winc : gp->binc;
        if (mytime > 0 || inc > 0) {
            int mtg = gp->movestogo > 0 ? gp->movestogo : 30;
            double budget = mytime / (double)mtg + inc * 0.8;
            if (budget > mytime * 0.5) budget = mytime * 0.5;
            if (budget < 5) budget = 5;
            use_time = 1;
            t_soft = t_start + budget * 0.6 / 1000.0;
            t_hard = t_start + (budget * 2 < mytime * 0.5 ? budget * 2 : mytime * 0.5 > budget ? mytime * 0.5 : budget) / 1000.0;
        }
    }
    if (gp->infinite) { use_time = 0; node_limit = 0; root_depth_limit = gp->depth > 0 ? gp->depth : MAXPLY - 4; }
    if (!tt) search_init(16);
    memset(killers, 0, sizeof killers);
    for (int i = 0; i < MAXSQ; i++) for (int j = 0; j < MAXSQ; j++) history[i][j] /= 8;
    hbase = nhist < 1024 ? nhist : 1024;
    for (int i = 0; i < hbase; i++) hstack[i] = hist[nhist - hbase + i];
    MoveList l;
    legal_moves(root, &l);
    *found = l.n > 0;
    if (!l.n) return;
    *best = l.m[0];
    no_quiescence = !LEVEL_QUIESCENCE[level] && !gp->infinite;
    if (LEVEL_RANDOM[level] && !gp->infinite) {
        uint64_t r = noise_seed * 0xD1B54A32D192ED03ULL ^ root->hash;
        r ^= r >> 29;
        if ((int)(r % 100) < LEVEL_RANDOM[level]) {
            *best = l.m[(r >> 8) % (uint64_t)l.n];
            char mv[64]; move_str(best, mv);
            printf("info depth 0 score cp 0 nodes 0 nps 0 time 0 pv %s\n", mv);
            fflush(stdout);
            return;
        }
    }
    Move root_pv[MAXPLY]; int root_pvlen = 0;
    for (int depth = 1; depth <= root_depth_limit; depth++) {
        int v = search(root, depth, -INF, INF, 0);
        if (stop_flag && depth > 1) break;
        if (pvlen[0] > 0) { *best = pv[0][0]; root_pvlen = pvlen[0]; memcpy(root_pv, pv[0], sizeof(Move) * (size_t)root_pvlen); }
        double el = now_s() - t_start;
        long long ms = (long long)(el * 1000);
        char buf[8192], *o = buf, mv[64];
        o += sprintf(o, "info depth %d ", depth);
        if (v > MATE_BOUND) o += sprintf(o, "score mate %d", (MATE - v + 1) / 2);
        else if (v < -MATE_BOUND) o += sprintf(o, "score mate -%d", (MATE + v) / 2);
        else o += sprintf(o, "score cp %d", v);
        o += sprintf(o, " nodes %lld nps %lld time %lld pv", nodes, el > 0 ? (long long)(nodes / el) : nodes, ms);
        for (int i = 0; i < root_pvlen && o - buf < 7900; i++) { move_str(&root_pv[i], mv); o += sprintf(o, " %s", mv); }
        if (!search_silent) { printf("%s\n", buf); fflush(stdout); }
        if (stop_flag) break;
        if (v > MATE_BOUND || v < -MATE_BOUND) { if (depth >= 2 * (MATE - (v > 0 ? v : -v)) + 2) break; }
        if (use_time && now_s() >= t_soft) break;
        if (l.n == 1 && use_time) break;
    }
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
