/* Search and evaluation for Optima: iterative deepening, PVS alpha-beta, a
 * transposition table, move ordering (TT move, royal captures, captures and
 * conversions by victim value, killers, history), quiescence on captures and
 * conversions, levels 1-10 as search.c's table. A move that captures a royal
 * unit wins at once (O13); a side with no move loses; repetition is a draw. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <time.h>
#include "engine.h"
#include "optima.h"

#define INF 32000
#define MATE 30000
#define MATE_BOUND (MATE - 1000)
#define OMAXPLY 64

static long long nodes, node_limit;
static double t_start, t_soft, t_hard;
static int use_time, noise, no_quiescence;
static uint64_t noise_seed;
long long op_search_nodes(void) { return nodes; }
static double now_s(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }

typedef struct { uint64_t key; OMove move; int16_t score; int8_t depth; uint8_t flag; } OTT;
enum { TT_NONE, TT_EXACT, TT_LOWER, TT_UPPER };
static OTT *tt;
static size_t tt_size = 1 << 18;

static OMove killers[OMAXPLY][2];
static int hist_score[OP_MAXSQ + 1][OP_MAXSQ];
static uint64_t hstack[1024 + OMAXPLY];
static int hbase;
static OMove pv[OMAXPLY][OMAXPLY];
static int pvlen[OMAXPLY];

static int same(const OMove *a, const OMove *b) {
    return a->from == b->from && a->to == b->to && a->flags == b->flags && a->value == b->value && a->ncap == b->ncap
        && a->nconv == b->nconv && !memcmp(a->cap, b->cap, a->ncap) && !memcmp(a->conv, b->conv, a->nconv);
}

/* ------------------------------------------------------------ evaluation */
/* Material (values set by hand in optima.c from each unit's reach and powers,
 * not tuned), frozen units at half value (O10), mobility (legal moves of each
 * side, 4 each), royal safety (a royal the opponent could capture costs 250,
 * each enemy unit next to a royal 15), from the side to move's view. */
static OMoveList ev_l;
static OMoveList plist[OMAXPLY + 1];            /* the moves of each ply (search and quiescence) */
static int psc[OMAXPLY + 1][OP_MAXMOVES];
#define EV_CACHE (1 << 18)
/* White's score by position key; moving: the position was evaluated by the quiescence search, so its
 * side to move has a move and none that captures a royal */
static struct { uint64_t key; int score, moving; } ev_cache[EV_CACHE];
static int finish_eval(const OPos *p, int score) {
    int out = score * p->side + 10;
    if (noise) {
        uint64_t z = (p->hash ^ noise_seed) * 0x9E3779B97F4A7C15ULL;
        out += (int)((z >> 40) % (uint64_t)(2 * noise + 1)) - noise;
    }
    return out;
}
/* own_n >= 0: the side to move has own_n moves, own_royal of them capture a royal (then moving: the
 * quiescence search's call). fz: both colours' frozen units (op_frozen) or NULL. A score at or below
 * `fail_low` may be returned as such a bound instead (not cached): the other side's moves only lower it */
static int evaluate_op(const OPos *p, int own_n, int own_royal, const OBB *fz, int fail_low) {
    int score = 0, n = OP_N * OP_N;
    unsigned slot = (unsigned)(p->hash & (EV_CACHE - 1));
    if (ev_cache[slot].key == p->hash && p->hash) return finish_eval(p, ev_cache[slot].score);
    if (p->rkind == RK_NONE) {
        OBB own_fz[2];
        if (!fz) { op_frozen(p, own_fz); fz = own_fz; }
        score = p->material;                   /* a frozen unit counts half (rounded as val / 2) */
        for (int ci = 0; ci < 2; ci++)
            for (int w = 0; w < 2; w++)
                for (uint64_t bits = fz[ci].w[w]; bits; bits &= bits - 1) {
                    int s = w * 64 + __builtin_ctzll(bits), val = op_value(abs(p->b[s]));
                    score -= ci ? val - val / 2 : -(val - val / 2);
                }
        for (int w = 0; w < 2; w++)       /* royal safety: enemy units next to a royal */
          for (uint64_t bits = p->royals.w[w]; bits; bits &= bits - 1) {
            int s = w * 64 + __builtin_ctzll(bits), v = p->b[s];
            int c = v > 0 ? 1 : -1, f = s % OP_N, r = s / OP_N;
            for (int df = -1; df <= 1; df++) for (int dr = -1; dr <= 1; dr++) {
                int ff = f + df, rr = r + dr;
                if ((df || dr) && ff >= 0 && ff < OP_N && rr >= 0 && rr < OP_N && p->b[rr * OP_N + ff] * c < 0) score -= c * 15;
            }
        }
        /* mobility and royal threats: the number of legal moves of each side (counted, plain moves not
         * listed) and whether one of them captures a royal */
        if (own_n >= 0) {
            score += p->side * (4 * own_n + (own_royal ? 250 : 0));
            int bound = finish_eval(p, score);
            if (bound <= fail_low) return bound;
        }
        for (int ci = 0; ci < 2; ci++) {
            int c = ci ? 1 : -1, cnt, royal = 0;
            if (own_n >= 0 && c == p->side) continue;
            cnt = op_count(p, c, &ev_l, &fz[c > 0]);
            for (int i = 0; i < ev_l.n; i++) if (ev_l.m[i].flags & OF_ROYAL) { royal = 1; break; }
            score += c * 4 * cnt;
            if (royal) score += c * 250;
        }
    } else {   /* placement (O5): placed units and each side's own hand (eq); a shared pool counts for no one */
        for (int s = 0; s < n; s++) if (p->b[s]) score += (p->b[s] > 0 ? 1 : -1) * op_value(abs(p->b[s]));
        if (p->rkind == RK_EQ)
            for (int k = 0; k < 128; k++) score += (p->hand[1][k] - p->hand[0][k]) * (k ? op_value(k) : 0);
    }
    ev_cache[slot].key = p->hash; ev_cache[slot].score = score; ev_cache[slot].moving = own_n >= 0;
    return finish_eval(p, score);
}

/* ------------------------------------------------------------ ordering */
static int gain(const OPos *p, const OMove *m) {
    if (m->from == OP_PLACE) return 0;
    int g = 0;
    for (int i = 0; i < m->ncap; i++) g += op_value(abs(p->b[m->cap[i]]));
    for (int i = 0; i < m->nconv; i++) g += 2 * op_value(abs(p->b[m->conv[i]]));
    if (m->flags & OF_PROMOTE) g += 800;
    return g;
}
static void score_moves(const OPos *p, const OMoveList *l, int *sc, const OMove *ttm, int ply) {
    for (int i = 0; i < l->n; i++) {
        const OMove *m = &l->m[i];
        int s;
        if (ttm && same(m, ttm)) s = 1 << 30;
        else if (op_captures_royal(p, m)) s = 1 << 29;
        else if (op_is_capture(m) || (m->flags & OF_PROMOTE)) s = (1 << 24) + gain(p, m) * 16 - op_value(abs(p->b[m->from])) / 16;
        else if (ply < OMAXPLY && (same(m, &killers[ply][0]) || same(m, &killers[ply][1]))) s = 1 << 23;
        else s = hist_score[m->from + 1][m->to];
        sc[i] = s;
    }
}
static void pick(OMoveList *l, int *sc, int i) {
    int b = i;
    for (int j = i + 1; j < l->n; j++) if (sc[j] > sc[b]) b = j;
    if (b != i) { OMove t = l->m[i]; l->m[i] = l->m[b]; l->m[b] = t; int x = sc[i]; sc[i] = sc[b]; sc[b] = x; }
}

static int check_time(void) {
    if (stop_flag) return 1;
    if (node_limit && nodes >= node_limit) { stop_flag = 1; return 1; }
    if ((nodes & 255) == 0 && use_time && now_s() >= t_hard) { stop_flag = 1; return 1; }
    return 0;
}

static int qsearch(OPos *p, int alpha, int beta, int ply, int qdepth) {
    nodes++;
    if (check_time()) return 0;
    int last = qdepth <= 0 || ply >= OMAXPLY - 2;
    unsigned slot = (unsigned)(p->hash & (EV_CACHE - 1));
    if (ev_cache[slot].key == p->hash && p->hash && ev_cache[slot].moving) {   /* known to have a move, no royal capture */
        int stand = finish_eval(p, ev_cache[slot].score);
        if (stand >= beta || last) return stand;
    }
    OMoveList *l = &plist[ply];
    OBB fz[2];
    op_frozen(p, fz);
    int nall = op_count(p, p->side, l, &fz[p->side > 0]);   /* l: the captures, conversions, promotions and swaps */
    if (!nall) return -MATE + ply;
    for (int i = 0; i < l->n; i++) if (op_captures_royal(p, &l->m[i])) return MATE - ply - 1;
    /* a stand-pat at or below alpha changes nothing below (the result is alpha or a capture's score), so
     * its exact value is not needed then */
    int stand = evaluate_op(p, nall, 0, fz, last ? -INF : alpha);
    if (stand >= beta || last) return stand;
    if (stand > alpha) alpha = stand;
    int *sc = psc[ply];
    int k = 0;
    for (int i = 0; i < l->n; i++) if (op_is_capture(&l->m[i]) || (l->m[i].flags & OF_PROMOTE)) l->m[k++] = l->m[i];
    l->n = k;
    score_moves(p, l, sc, NULL, ply);
    for (int i = 0; i < l->n; i++) {
        pick(l, sc, i);
        OPos q = *p;
        op_play(&q, &l->m[i]);
        int v = -qsearch(&q, -beta, -alpha, ply + 1, qdepth - 1);
        if (stop_flag) return 0;
        if (v > alpha) { alpha = v; if (v >= beta) break; }
    }
    return alpha;
}

static int score_to_tt(int s, int ply) { return s > MATE_BOUND ? s + ply : s < -MATE_BOUND ? s - ply : s; }
static int score_from_tt(int s, int ply) { return s > MATE_BOUND ? s - ply : s < -MATE_BOUND ? s + ply : s; }

static int search(OPos *p, int depth, int alpha, int beta, int ply) {
    pvlen[ply] = 0;
    if (ply > 0) {
        for (int i = hbase + ply - 2; i >= 0; i -= 2) if (hstack[i] == p->hash) return 0;   /* repetition */
    }
    if (depth <= 0) return no_quiescence ? evaluate_op(p, -1, 0, NULL, -INF) : qsearch(p, alpha, beta, ply, 6);
    nodes++;
    if (check_time()) return 0;
    if (ply >= OMAXPLY - 2) return evaluate_op(p, -1, 0, NULL, -INF);
    OTT *e = &tt[p->hash & (tt_size - 1)];
    OMove ttm; int have_tt = 0;
    if (e->key == p->hash && e->flag != TT_NONE) {
        ttm = e->move; have_tt = 1;
        if (ply > 0 && e->depth >= depth) {
            int s = score_from_tt(e->score, ply);
            if (e->flag == TT_EXACT || (e->flag == TT_LOWER && s >= beta) || (e->flag == TT_UPPER && s <= alpha)) return s;
        }
    }
    OMoveList *l = &plist[ply];
    op_legal(p, l);
    if (!l->n) return -MATE + ply;   /* no moves: the side to move loses (O13) */
    for (int i = 0; i < l->n; i++)
        if (op_captures_royal(p, &l->m[i])) {      /* royal capture ends the game (O13) */
            pv[ply][0] = l->m[i]; pvlen[ply] = 1;
            return MATE - ply - 1;
        }
    int *sc = psc[ply];
    score_moves(p, l, sc, have_tt ? &ttm : NULL, ply);
    int best = -INF, a0 = alpha;
    OMove bestm = l->m[0];
    hstack[hbase + ply] = p->hash;
    for (int i = 0; i < l->n; i++) {
        pick(l, sc, i);
        const OMove *m = &l->m[i];
        OPos q = *p;
        op_play(&q, m);
        int quiet = !op_is_capture(m) && !(m->flags & OF_PROMOTE);
        int v;
        if (i == 0) v = -search(&q, depth - 1, -beta, -alpha, ply + 1);
        else {
            int r = (quiet && i >= 4 && depth >= 3) ? 1 : 0;
            v = -search(&q, depth - 1 - r, -alpha - 1, -alpha, ply + 1);
            if (v > alpha && (r || v < beta)) v = -search(&q, depth - 1, -beta, -alpha, ply + 1);
        }
        if (stop_flag) return 0;
        if (v > best) {
            best = v; bestm = *m;
            if (v > alpha) {
                alpha = v;
                pv[ply][0] = *m;
                memcpy(&pv[ply][1], pv[ply + 1], sizeof(OMove) * (size_t)pvlen[ply + 1]);
                pvlen[ply] = pvlen[ply + 1] + 1;
                if (v >= beta) {
                    if (quiet && ply < OMAXPLY) {
                        if (!same(m, &killers[ply][0])) { killers[ply][1] = killers[ply][0]; killers[ply][0] = *m; }
                        hist_score[m->from + 1][m->to] += depth * depth;
                    }
                    break;
                }
            }
        }
    }
    e->key = p->hash; e->move = bestm; e->score = (int16_t)score_to_tt(best, ply); e->depth = (int8_t)depth;
    e->flag = best >= beta ? TT_LOWER : best > a0 ? TT_EXACT : TT_UPPER;
    return best;
}

static const int LEVEL_DEPTH[11] = {0, 1, 1, 2, 2, 3, 4, 5, 6, 8, OMAXPLY - 4};
static const int LEVEL_NODES[11] = {0, 0, 0, 0, 20000, 60000, 200000, 600000, 2000000, 8000000, 0};
static const int LEVEL_RANDOM[11] = {0, 65, 35, 10, 0, 0, 0, 0, 0, 0, 0};
static const int LEVEL_NOISE[11] = {0, 500, 250, 90, 0, 0, 0, 0, 0, 0, 0};

void op_search_go(OPos *root, const uint64_t *hist, int nhist, const struct GoParamsOpt *gp, OMove *best, int *found,
                  int silent) {
    int level = gp->level < 1 ? 10 : gp->level > 10 ? 10 : gp->level;
    if (!tt) tt = calloc(tt_size, sizeof *tt);
    t_start = now_s();
    nodes = 0;
    node_limit = gp->nodes_limit > 0 ? gp->nodes_limit : LEVEL_NODES[level];
    noise = LEVEL_NOISE[level];
    noise_seed = (uint64_t)time(NULL) * 0x2545F4914F6CDD1DULL ^ (uint64_t)clock();
    int depth_limit = gp->depth > 0 ? gp->depth : OMAXPLY - 4;
    if (depth_limit > LEVEL_DEPTH[level]) depth_limit = LEVEL_DEPTH[level];
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
            t_hard = t_start + (budget * 2 < mytime * 0.5 ? budget * 2 : budget) / 1000.0;
        }
    }
    if (gp->infinite) { use_time = 0; node_limit = 0; depth_limit = gp->depth > 0 ? gp->depth : OMAXPLY - 4; }
    no_quiescence = level <= 2 && !gp->infinite;
    memset(killers, 0, sizeof killers);
    for (int i = 0; i <= OP_MAXSQ; i++) for (int j = 0; j < OP_MAXSQ; j++) hist_score[i][j] /= 8;
    hbase = nhist < 1024 ? nhist : 1024;
    for (int i = 0; i < hbase; i++) hstack[i] = hist[nhist - hbase + i];
    static OMoveList l;
    op_legal(root, &l);
    *found = l.n > 0;
    if (!l.n) return;
    *best = l.m[0];
    char mv[128];
    for (int i = 0; i < l.n; i++)
        if (op_captures_royal(root, &l.m[i])) {   /* mate in 1 = royal capture: take it */
            *best = l.m[i];
            if (!silent) { op_move_str(best, mv); printf("info depth 1 score mate 1 nodes 1 nps 0 time 0 pv %s\n", mv); fflush(stdout); }
            return;
        }
    if (LEVEL_RANDOM[level] && !gp->infinite) {
        uint64_t r = noise_seed * 0xD1B54A32D192ED03ULL ^ root->hash;
        r ^= r >> 29;
        if ((int)(r % 100) < LEVEL_RANDOM[level]) {
            *best = l.m[(r >> 8) % (uint64_t)l.n];
            if (!silent) { op_move_str(best, mv); printf("info depth 0 score cp 0 nodes 0 nps 0 time 0 pv %s\n", mv); fflush(stdout); }
            return;
        }
    }
    static OMove root_pv[OMAXPLY]; int root_pvlen = 0;
    for (int depth = 1; depth <= depth_limit; depth++) {
        int v = search(root, depth, -INF, INF, 0);
        if (stop_flag && depth > 1) break;
        if (pvlen[0] > 0) { *best = pv[0][0]; root_pvlen = pvlen[0]; memcpy(root_pv, pv[0], sizeof(OMove) * (size_t)root_pvlen); }
        double el = now_s() - t_start;
        static char buf[8192];
        char *o = buf;
        o += sprintf(o, "info depth %d ", depth);
        if (v > MATE_BOUND) o += sprintf(o, "score mate %d", (MATE - v + 1) / 2);
        else if (v < -MATE_BOUND) o += sprintf(o, "score mate -%d", (MATE + v) / 2);
        else o += sprintf(o, "score cp %d", v);
        o += sprintf(o, " nodes %lld nps %lld time %lld pv", nodes, el > 0 ? (long long)(nodes / el) : nodes, (long long)(el * 1000));
        for (int i = 0; i < root_pvlen && o - buf < 7800; i++) { op_move_str(&root_pv[i], mv); o += sprintf(o, " %s", mv); }
        if (!silent) { printf("%s\n", buf); fflush(stdout); }
        if (stop_flag) break;
        if (v > MATE_BOUND || v < -MATE_BOUND) break;
        if (use_time && now_s() >= t_soft) break;
        if (l.n == 1 && use_time) break;
    }
}

/* ------------------------------------------------------------ UCI hooks */
const char *op_start_fen(const char *variant);
static OPos uroot;
static uint64_t uhist[4096];
static int unhist;
static char uvariant[32] = "optima";

void op_uci_select(const char *variant) {
    char err[200];
    snprintf(uvariant, sizeof uvariant, "%s", variant);
    op_parse_fen(op_start_fen(uvariant), &uroot, err, sizeof err);
    unhist = 0;
    if (tt) memset(tt, 0, tt_size * sizeof *tt);
    memset(ev_cache, 0, sizeof ev_cache);   /* another game may have other rules options (O14) */
}

int op_uci_position(const char *args, const char *moves) {
    char err[200];
    OPos p;
    if (!strncmp(args, "startpos", 8)) op_parse_fen(op_start_fen(uvariant), &p, err, sizeof err);
    else if (!strncmp(args, "fen", 3)) {
        if (!op_parse_fen(args + 3, &p, err, sizeof err)) { printf("info string error bad fen: %s\n", err); fflush(stdout); return 0; }
    } else { printf("info string error position needs startpos or fen\n"); fflush(stdout); return 0; }
    unhist = 0;
    if (moves) {
        char buf[16384];
        snprintf(buf, sizeof buf, "%s", moves);
        for (char *tok = strtok(buf, " \t"); tok; tok = strtok(NULL, " \t")) {
            OMove m;
            if (!op_parse_move(&p, tok, &m)) { printf("info string error illegal move %s\n", tok); fflush(stdout); break; }
            if (unhist < 4096) uhist[unhist++] = p.hash;
            op_play(&p, &m);
        }
    }
    uroot = p;
    return 1;
}

void op_uci_go(const struct GoParamsOpt *gp) {
    OMove best; int found = 0;
    OPos p = uroot;
    op_search_go(&p, uhist, unhist, gp, &best, &found, 0);
    if (gp->infinite) while (!stop_flag) { struct timespec t = {0, 2000000}; nanosleep(&t, NULL); }
    char mv[128] = "(none)";
    if (found) op_move_str(&best, mv);
    printf("bestmove %s\n", mv);
    fflush(stdout);
}

void op_uci_fen(char *out) { op_format_fen(&uroot, out); }
