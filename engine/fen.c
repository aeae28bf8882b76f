/* FEN (M14, U13, D3) and canonical move strings (M14, U13, D17), as src/maxima_board/rules/notation.py. */
#include <string.h>
#include <stdlib.h>
#include <ctype.h>
#include <stdarg.h>
#include "engine.h"
#include "optima.h"   /* fen_error */

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

/* err: the message, printable ASCII only (a FEN may hold any bytes); Optima's reader uses it too */
void fen_error(char *err, int errlen, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, (size_t)errlen, fmt, ap);
    va_end(ap);
    for (char *c = err; *c; c++) if ((unsigned char)*c < 32 || (unsigned char)*c > 126) *c = '?';
}
#define FAIL(...) do { fen_error(err, errlen, __VA_ARGS__); return 0; } while (0)

/* a FEN counter (src/maxima_board/rules/notation.py's _count): ASCII digits, no leading zero, low..1,000,000 */
static int count_field(const char *text, int low, int *out) {
    size_t n = strspn(text, "0123456789");
    if (text[n] || !n || (text[0] == '0' && n > 1) || n > 7) return 0;
    long v = atol(text);
    if (v < low || v > 1000000) return 0;
    *out = (int)v;
    return 1;
}

/* the en-passant field (src/maxima_board/rules/notation.py's _parse_ep): squares of one file, consecutive,
 * lowest first, at most pawn_advance - 1, beside the second rank of the side that just
 * moved, empty, with that side's Pawn after them and its second-rank square empty */
static int parse_ep(const char *text, Pos *p, char *err, int errlen) {
    const Geo *g = &V.g;
    if (!strcmp(text, "-")) return 1;
    int sq[MAXSQ], n = 0;
    for (const char *q = text; ; ) {
        const char *e = strchr(q, ',');
        int len = e ? (int)(e - q) : (int)strlen(q);
        int s = square_of(q, len);
        if (s < 0 || n == MAXSQ) FAIL("en-passant field must be '-' or squares like 'e3' or 'e3,e4', got '%s'", text);
        sq[n++] = s;
        if (!e) break;
        q = e + 1;
    }
    int mover = -p->side, first = g->min_rank, last = g->max_rank;
    int second = mover > 0 ? first + 1 : last - 1, f = g->file_of[sq[0]];
    for (int i = 0; i < n; i++)
        if (g->file_of[sq[i]] != f || g->rank_of[sq[i]] != g->rank_of[sq[0]] + i)
            FAIL("en-passant field '%s' is impossible: its squares must be consecutive on one file, lowest rank first", text);
    if (n > V.pawn_advance - 1) FAIL("en-passant field '%s' is impossible: at most %d squares on this board", text, V.pawn_advance - 1);
    int lo = g->rank_of[sq[0]], hi = g->rank_of[sq[n - 1]];
    if ((mover > 0 ? lo : hi) != (mover > 0 ? second + 1 : second - 1))
        FAIL("en-passant field '%s' is impossible: the squares must start next to the second rank of the side that just moved", text);
    for (int i = 0; i < n; i++) if (p->b[sq[i]]) FAIL("en-passant field '%s' is impossible: its squares must be empty", text);
    int br = mover > 0 ? hi + 1 : lo - 1;
    int beyond = br >= first && br <= last ? g->at[f][br - first] : -1;
    if (beyond < 0 || p->b[beyond] != mover * V.pawn)
        FAIL("en-passant field '%s' is impossible: no Pawn of the side that just moved stands after it", text);
    if (p->b[g->at[f][second - first]]) FAIL("en-passant field '%s' is impossible: the Pawn's second-rank square is not empty", text);
    if (n > 3) FAIL("en-passant field '%s': too many squares", text);
    for (int i = 0; i < n; i++) p->ep[i] = (int8_t)sq[i];
    p->nep = (uint8_t)n;
    return 1;
}

/* the swap-back field (src/maxima_board/rules/notation.py's _parse_ban): X<>Y, the side to move's Swapper on X,
 * the other side's on Y, on one line with only empty squares between */
static int parse_ban(const char *text, Pos *p, char *err, int errlen) {
    if (!strcmp(text, "-")) return 1;
    const char *x = strstr(text, "<>");
    int a = x ? square_of(text, (int)(x - text)) : -1, b = x ? square_of(x + 2, (int)strlen(x + 2)) : -1;
    if (a < 0 || b < 0) FAIL("swap-back field must be '-' or 'X<>Y', got '%s'", text);
    if (p->b[a] != p->side * V.swapper || p->b[b] != -p->side * V.swapper)
        FAIL("swap-back field '%s': the side to move's Swapper must stand on %s and the other side's on %s", text,
             V.g.names[a], V.g.names[b]);
    int seen = 0;
    for (int d = 0; d < 8 && !seen; d++)
        for (int k = 0; k < V.g.raylen[a][d]; k++) {
            int t = V.g.rays[a][d][k];
            if (t == b) { seen = 1; break; }
            if (p->b[t]) break;
        }
    if (!seen) FAIL("swap-back field '%s': %s and %s are not on one line with only empty squares between", text,
                    V.g.names[a], V.g.names[b]);
    p->ban0 = (int8_t)a; p->ban1 = (int8_t)b;
    return 1;
}

/* A FEN as src/maxima_board/rules/notation.py's parse_fen reads it, then checked as Position does (M15, U14,
 * D18): one King a side, no side filling its own palace (M11), the side not to move not in
 * check unless the side to move holds its palace (a finished game). */
int parse_fen(const char *fen, Pos *p, char *err, int errlen) {
    char buf[512];
    if (strlen(fen) >= sizeof buf) FAIL("FEN too long");
    strcpy(buf, fen);
    char *fields[8]; int nf = 0;
    for (char *tok = strtok(buf, " \t\r\n\v\f"); tok; tok = strtok(NULL, " \t\r\n\v\f")) { if (nf < 8) fields[nf] = tok; nf++; }
    if (V.family != FAM_DECKLE && nf != 3) FAIL("FEN needs 3 fields (rows, side to move, half-moves), got %d", nf);
    int rows = 1;
    if (nf) for (char *c = fields[0]; *c; c++) rows += *c == '/';
    if (V.family == FAM_DECKLE) {
        int want = V.swap_ban ? 7 : 6;
        if (nf != want) FAIL("FEN needs %d fields, got %d", want, nf);
        if (rows != 8 && rows != 10) FAIL("FEN has %d rows, expected 10 (10x10 board) or 8 (10x8 board)", rows);
        sibling_for_rows(rows);
    }
    const Geo *g = &V.g;
    int nranks = g->max_rank - g->min_rank + 1;
    if (rows != nranks) FAIL("FEN has %d rows, expected %d", rows, nranks);
    memset(p, 0, sizeof *p);
    p->king[0] = p->king[2] = -1;
    p->ban0 = p->ban1 = -1;
    p->fullmove = 1;
    int kings[3] = {0, 0, 0};
    char *row = fields[0];
    for (int rank = g->max_rank; rank >= g->min_rank; rank--) {
        int file = 0, previous_digit = 0;
        while (*row && *row != '/') {
            char ch = *row;
            if (file >= g->files) FAIL("row for rank %d is too long", rank);
            if (isdigit((unsigned char)ch)) {
                if (previous_digit) FAIL("two digits in a row in rank %d", rank);
                if (ch == '0') FAIL("empty run in rank %d", rank);
                int run = 0;
                if (V.family == FAM_DECKLE) while (isdigit((unsigned char)*row)) { if (run < 1000) run = run * 10 + (*row - '0'); row++; }
                else { run = ch - '0'; row++; }
                for (int f = file; f < file + run; f++) {
                    if (f >= g->files) FAIL("row for rank %d is too long", rank);
                    if (g->at[f][rank - g->min_rank] < 0) FAIL("rank %d: cell %c%d does not exist and must be 'x'", rank, 'a' + f, rank);
                }
                file += run;
                previous_digit = 1;
                continue;
            }
            previous_digit = 0;
            int sq = g->at[file][rank - g->min_rank];
            if (ch == 'x' && V.family == FAM_MAXIMA) {
                if (sq >= 0) FAIL("rank %d: 'x' on square %s, which exists", rank, g->names[sq]);
            } else {
                int t = isalpha((unsigned char)ch) ? type_letter(ch) : 0;
                if (!t) FAIL("unknown letter '%c' in rank %d", ch, rank);
                if (sq < 0) FAIL("rank %d: piece '%c' on cell %c%d, which does not exist", rank, ch, 'a' + file, rank);
                int c = isupper((unsigned char)ch) ? 1 : -1;
                p->b[sq] = (int8_t)(c * t);
                if (t == V.king) { p->king[c + 1] = (int8_t)sq; kings[c + 1]++; }
            }
            file++; row++;
        }
        if (file != g->files) FAIL("row for rank %d has %d cells, expected %d", rank, file, g->files);
        if (*row == '/') row++;
    }
    if (!strcmp(fields[1], "w")) p->side = 1;
    else if (!strcmp(fields[1], "b")) p->side = -1;
    else FAIL("side to move must be 'w' or 'b', got '%s'", fields[1]);
    if (V.family != FAM_DECKLE) {
        if (!count_field(fields[2], 0, &p->ply)) FAIL("half-move number must be a whole number from 0 to 1000000 (digits 0-9, no leading zero)");
    } else {
        for (int s = 0; s < g->size; s++)
            if (V.pawn && abs(p->b[s]) == V.pawn && (g->rank_of[s] == g->min_rank || g->rank_of[s] == g->max_rank))
                FAIL("Pawn on %s: no Pawn may stand on rank %d or %d (D7)", g->names[s], g->min_rank, g->max_rank);
        const char *cs = fields[2];
        if (strcmp(cs, "-")) {
            static const char order[] = "KQkq";
            int at = 0;
            for (; *cs; cs++) {
                const char *o = strchr(order + at, *cs);
                if (!*cs || !o) FAIL("castling field must be '-' or a subset of 'KQkq' in that order, got '%s'", fields[2]);
                at = (int)(o - order) + 1;
                int c = isupper((unsigned char)*cs) ? 1 : -1, rank = c > 0 ? g->min_rank : g->max_rank;
                int rook_file = tolower((unsigned char)*cs) == 'k' ? 9 : 0;
                if (p->b[g->at[5][rank - g->min_rank]] != c * V.king) FAIL("castling right '%c': the King is not on f%d", *cs, rank);
                if (p->b[g->at[rook_file][rank - g->min_rank]] != c * V.rook)
                    FAIL("castling right '%c': the Rook is not on %c%d", *cs, 'a' + rook_file, rank);
                p->castling |= (uint8_t)(1 << (o - order));
            }
        }
        if (!parse_ep(fields[3], p, err, errlen)) return 0;
        if (!count_field(fields[4], 0, &p->halfmove)) FAIL("half-move clock must be a whole number from 0 to 1000000 (digits 0-9, no leading zero)");
        if (!count_field(fields[5], 1, &p->fullmove)) FAIL("move number must be a whole number from 1 to 1000000 (digits 0-9, no leading zero)");
        if (V.swap_ban && !parse_ban(fields[6], p, err, errlen)) return 0;
    }
    for (int c = 1; c >= -1; c -= 2) {
        const char *name = c > 0 ? "White" : "Black";
        if (kings[c + 1] != 1) FAIL("%s has %d Kings; a side needs exactly one", name, kings[c + 1]);
    }
    sync_occupancy(p);
    for (int c = 1; c >= -1; c -= 2)
        if (palace_held(p, c, c)) FAIL("%s's own palace is filled by %s's pieces (M11)", c > 0 ? "White" : "Black", c > 0 ? "White" : "Black");
    if (!palace_held(p, p->side, -p->side) && attacks(p, p->side))
        FAIL("%s, not to move, is in check: the position cannot arise", p->side > 0 ? "Black" : "White");
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
