/* Optima's make (optima.md O11-O13): a move or placement played on the position with its square sets,
 * material and hash kept; perft; the royal units of a colour. */
#include <stdlib.h>
#include <string.h>
#include "optima_rules.h"

/* ------------------------------------------------------------ make */
static inline void setsq(OPos *p, int s, int v) {
    int old = p->b[s];
    p->hash ^= OP_ZK[s][(uint8_t)old] ^ OP_ZK[s][(uint8_t)v];
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
        if (code == OP_PAWN) p->pawns.w[w] |= bit;
        if (code == OP_GUARD) p->guards.w[w] |= bit;
        if (op_immob[code] != IM_NO) p->immob.w[w] |= bit;
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
    for (int s = 0; s < OP_SIZE; s++) { int v = p->b[s]; if (v) { p->b[s] = 0; setsq(p, s, v); } }
    p->hash = h;
}

void op_play(OPos *p, const OMove *m) {
    if (m->from == OP_PLACE) {
        int c = p->side, code = abs(m->value);
        uint8_t *h = op_source(p, c);
        int ci = p->rkind == RK_EQ ? c > 0 : 1;
        p->hash ^= OP_ZHAND[ci][code][h[code]];
        h[code]--;
        p->hash ^= OP_ZHAND[ci][code][h[code]];
        setsq(p, m->to, m->value);
        p->left--;
        int next = p->left ? op_side_at(p->rkind, 2 * op_set_size() - p->left) : 1;
        if (!p->left) p->rkind = RK_NONE;
        if (next != p->side) p->hash ^= OP_ZSIDE;
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
    if (m->flags & OF_PROMOTE) mover = c * OP_WIZARD;
    setsq(p, t, mover);
    p->side = (int8_t)-c;
    p->hash ^= OP_ZSIDE;
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
    for (int s = 0; s < OP_SIZE; s++) if (p->b[s] * c > 0 && ((p->b[s] * c) & OP_ROYAL)) n++;
    return n;
}
