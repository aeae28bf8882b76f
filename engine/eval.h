/* The evaluation (eval.c) as the search (search.c) uses it: the board score and the cache slot to fetch
 * ahead. engine.h declares the rest (the terms' columns for selfplay.c and the features mode). */
#ifndef MAXIMA_ENGINE_EVAL_H
#define MAXIMA_ENGINE_EVAL_H
#include <stdint.h>
#include "engine.h"

int eval_board(const Pos *p);   /* White's score of p: material and the terms, no tempo, no noise */

/* a small cache of eval_board's score by position key (the same positions recur in quiescence);
 * cleared with the variant or EvalTerms */
#define EV_CACHE (1 << 14)
typedef struct { uint64_t key; int score; } EvalSlot;
extern EvalSlot ev_cache[EV_CACHE];
/* the cache slot of a position just made, fetched ahead of its search (mostly a cache miss) */
static inline void eval_prefetch(const Pos *q) { __builtin_prefetch(&ev_cache[(unsigned)(q->hash >> 7) & (EV_CACHE - 1)]); }
#endif
