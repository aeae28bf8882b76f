/* FEN (M14, U13, D3) and canonical move strings (M14, U13, D17), as engine/notation.py. */
#include <string.h>
#include <stdlib.h>
#include <ctype.h>
#include "engine.h"

static int type_letter(char ch) {
    for (int i = 1; i <= V.ntypes; i++) if (V.t[i].letter == tolower((unsigned char)ch)) return i;
    return 0;
}

static int square_of(const char *name, int len) {
    for (int s = 0; s < V.g.size; s++)
        if ((int)strlen(V.g.names[s]) == len && !strncmp(V.g.names[s], name, (size_t)len)) return s;
    return -1;
}

static int sibling_for_rows(int rows) {
    if (V.family != FAM_DECKLE || rows == V.def->deckle_ranks) return 1;
    char name[64];
    const char *stem = V.def->name;
    size_t n = strlen(stem);
    if (n > 5 && !strcmp(stem + n - 5, "-10x8")) n -= 5;
    snprintf(name, sizeof name, "%.*s%s", (int)n, stem, rows == 10 ? "" : "-10x8");
    return select_variant(name);
}

int parse_fen(const char *fen, Pos *p, char *err, int errlen) {
    char buf[512];
    if (strlen(fen) >= sizeof buf) { snprintf(err, errlen, "FEN too long"); return 0; }
    strcpy(buf, fen);
    char *fields[8]; int nf = 0;
    for (char *tok = strtok(buf, " \t\r\n"); tok && nf < 8; tok = strtok(NULL, " \t\r\n")) fields[nf++] = tok;
    if (nf < 2) { snprintf(err, errlen, "FEN needs at least 2 fields"); return 0; }
    int rows = 1;
    for (char *c = fields[0]; *c; c++) rows += *c == '/';
    if (V.family == FAM_DECKLE && (rows == 8 || rows == 10)) sibling_for_rows(rows);
    const Geo *g = &V.g;
    int nranks = g->max_rank - g->min_rank + 1;
    if (rows != nranks) { snprintf(err, errlen, "FEN has %d rows, expected %d", rows, nranks); return 0; }
    memset(p, 0, sizeof *p);
    p->king[0] = p->king[2] = -1;
    p->ban0 = p->ban1 = -1;
    p->fullmove = 1;
    char *row = fields[0];
    for (int rank = g->max_rank; rank >= g->min_rank; rank--) {
        int file = 0;
        while (*row && *row != '/') {
            char ch = *row;
            if (isdigit((unsigned char)ch)) {
                int run = 0;
                if (V.family == FAM_DECKLE) while (isdigit((unsigned char)*row)) run = run * 10 + (*row++ - '0');
                else { run = ch - '0'; row++; }
                if (run <= 0) { snprintf(err, errlen, "bad empty run in rank %d", rank); return 0; }
                for (int f = file; f < file + run; f++)
                    if (f >= g->files || g->at[f][rank - g->min_rank] < 0) { snprintf(err, errlen, "bad run in rank %d", rank); return 0; }
                file += run;
                continue;
            }
            if (file >= g->files) { snprintf(err, errlen, "rank %d too long", rank); return 0; }
            int sq = g->at[file][rank - g->min_rank];
            if (ch == 'x' && V.family == FAM_MAXIMA) {
                if (sq >= 0) { snprintf(err, errlen, "'x' on an existing square in rank %d", rank); return 0; }
            } else {
                int t = type_letter(ch);
                if (!t || !isalpha((unsigned char)ch) || sq < 0) { snprintf(err, errlen, "bad letter '%c' in rank %d", ch, rank); return 0; }
                p->b[sq] = (int8_t)(isupper((unsigned char)ch) ? t : -t);
                if (t == V.king) p->king[isupper((unsigned char)ch) ? 2 : 0] = (int8_t)sq;
            }
            file++; row++;
        }
        if (file != g->files) { snprintf(err, errlen, "rank %d has %d cells", rank, file); return 0; }
        if (*row == '/') row++;
    }
    if (!strcmp(fields[1], "w")) p->side = 1;
    else if (!strcmp(fields[1], "b")) p->side = -1;
    else { snprintf(err, errlen, "side to move must be w or b"); return 0; }
    if (V.family != FAM_DECKLE) {
        if (nf != 3) { snprintf(err, errlen, "FEN needs 3 fields"); return 0; }
        p->ply = atoi(fields[2]);
    } else {
        int want = V.swap_ban ? 7 : 6;
        if (nf != want) { snprintf(err, errlen, "FEN needs %d fields", want); return 0; }
        const char *cs = fields[2];
        if (strcmp(cs, "-"))
            for (; *cs; cs++) {
                int bit = *cs == 'K' ? 1 : *cs == 'Q' ? 2 : *cs == 'k' ? 4 : *cs == 'q' ? 8 : 0;
                if (!bit) { snprintf(err, errlen, "bad castling field"); return 0; }
                p->castling |= (uint8_t)bit;
            }
        const char *ep = fields[3];
        if (strcmp(ep, "-")) {
            while (*ep) {
                const char *e = strchr(ep, ',');
                int len = e ? (int)(e - ep) : (int)strlen(ep);
                int s = square_of(ep, len);
                if (s < 0 || p->nep >= 3) { snprintf(err, errlen, "bad en-passant field"); return 0; }
                p->ep[p->nep++] = (int8_t)s;
                ep += len + (e ? 1 : 0);
            }
        }
        p->halfmove = atoi(fields[4]);
        p->fullmove = atoi(fields[5]);
        if (V.swap_ban && strcmp(fields[6], "-")) {
            const char *x = strstr(fields[6], "<>");
            if (!x) { snprintf(err, errlen, "bad swap-back field"); return 0; }
            p->ban0 = (int8_t)square_of(fields[6], (int)(x - fields[6]));
            p->ban1 = (int8_t)square_of(x + 2, (int)strlen(x + 2));
            if (p->ban0 < 0 || p->ban1 < 0) { snprintf(err, errlen, "bad swap-back field"); p->ban0 = p->ban1 = -1; return 0; }
        }
    }
    if (p->king[0] < 0 || p->king[2] < 0) { snprintf(err, errlen, "a side has no King"); return 0; }
    sync_occupancy(p);
    p->hash = compute_hash(p);
    return 1;
}

void format_fen(const Pos *p, char *out) {
    const Geo *g = &V.g;
    char *o = out;
    for (int rank = g->max_rank; rank >= g->min_rank; rank--) {
        int run = 0;
        for (int f = 0; f < g->files; f++) {
            int sq = g->at[f][rank - g->min_rank];
            if (sq >= 0 && p->b[sq] == 0) { run++; continue; }
            if (run) { o += sprintf(o, "%d", run); run = 0; }
            if (sq < 0) *o++ = 'x';
            else {
                int v = p->b[sq];
                char l = V.t[v > 0 ? v : -v].letter;
                *o++ = v > 0 ? (char)toupper((unsigned char)l) : l;
            }
        }
        if (run) o += sprintf(o, "%d", run);
        if (rank > g->min_rank) *o++ = '/';
    }
    *o = 0;
    if (V.family != FAM_DECKLE) { sprintf(o, " %c %d", p->side > 0 ? 'w' : 'b', p->ply); return; }
    o += sprintf(o, " %c ", p->side > 0 ? 'w' : 'b');
    if (!p->castling) *o++ = '-';
    if (p->castling & 1) *o++ = 'K';
    if (p->castling & 2) *o++ = 'Q';
    if (p->castling & 4) *o++ = 'k';
    if (p->castling & 8) *o++ = 'q';
    *o++ = ' ';
    if (!p->nep) *o++ = '-';
    else {
        int e[3], n = p->nep;
        for (int i = 0; i < n; i++) e[i] = p->ep[i];
        for (int i = 0; i < n; i++) for (int j = i + 1; j < n; j++) if (e[j] < e[i]) { int t = e[i]; e[i] = e[j]; e[j] = t; }
        for (int i = 0; i < n; i++) o += sprintf(o, "%s%s", i ? "," : "", g->names[e[i]]);
    }
    o += sprintf(o, " %d %d", p->halfmove, p->fullmove);
    if (V.swap_ban) {
        if (p->ban0 < 0) sprintf(o, " -");
        else sprintf(o, " %s<>%s", g->names[p->ban0], g->names[p->ban1]);
    }
}

void move_str(const Move *m, char *out) {
    const Geo *g = &V.g;
    if (m->kind == K_SWAP) { sprintf(out, "%s<>%s", g->names[m->from], g->names[m->to]); return; }
    char *o = out;
    o += sprintf(o, "%s-%s", g->names[m->from], m->to < 0 ? "S" : g->names[m->to]);
    if (m->ncap) {
        int c[MAXCAP], n = m->ncap;
        for (int i = 0; i < n; i++) c[i] = m->cap[i];
        for (int i = 1; i < n; i++) { int v = c[i], j = i - 1; while (j >= 0 && c[j] > v) { c[j + 1] = c[j]; j--; } c[j + 1] = v; }
        *o++ = 'x';
        for (int i = 0; i < n; i++) o += sprintf(o, "%s%s", i ? "," : "", g->names[c[i]]);
    }
    if (m->kind == K_PROMOTE) o += sprintf(o, "=%c", toupper((unsigned char)V.t[(int)m->arg].letter));
    *o = 0;
}

/* A legal move from its canonical string, or from FROM-TO[=L] without captures
 * naming exactly one legal non-swap move (Position.parse_move). */
int parse_move_legal(Pos *p, const char *text, Move *out) {
    MoveList l;
    legal_moves(p, &l);
    char s[64];
    const char *t = text;
    if (isupper((unsigned char)t[0]) && t[1]) t++;   /* optional piece letter */
    for (int i = 0; i < l.n; i++) { move_str(&l.m[i], s); if (!strcmp(s, t)) { *out = l.m[i]; return 1; } }
    if (strchr(t, 'x') || strstr(t, "<>") || strstr(t, "-S")) return 0;
    char base[64]; snprintf(base, sizeof base, "%s", t);
    char promo = 0;
    char *eq = strchr(base, '=');
    if (eq) { promo = eq[1]; *eq = 0; }
    int found = -1, n = 0;
    for (int i = 0; i < l.n; i++) {
        const Move *m = &l.m[i];
        if (m->kind == K_SWAP || m->to < 0) continue;
        char plain[32];
        snprintf(plain, sizeof plain, "%s-%s", V.g.names[m->from], V.g.names[m->to]);
        char mp = m->kind == K_PROMOTE ? (char)toupper((unsigned char)V.t[(int)m->arg].letter) : 0;
        if (!strcmp(plain, base) && mp == promo) { found = i; n++; }
    }
    if (n == 1) { *out = l.m[found]; return 1; }
    return 0;
}

static int cmpstr(const void *a, const void *b) { return strcmp((const char *)a, (const char *)b); }

/* sorted, de-duplicated canonical strings of the moves (Position.legal_moves) */
void sort_move_strings(MoveList *l, char (*strs)[64], int *n) {
    for (int i = 0; i < l->n; i++) move_str(&l->m[i], strs[i]);
    qsort(strs, (size_t)l->n, 64, cmpstr);
    int j = 0;
    for (int i = 0; i < l->n; i++) if (!j || strcmp(strs[i], strs[j - 1])) { if (i != j) strcpy(strs[j], strs[i]); j++; }
    *n = j;
}
