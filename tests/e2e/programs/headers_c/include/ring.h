/* static inline: one copy per translation unit, one region in the program. */
#ifndef RING_H
#define RING_H
static inline int ring_next(int i, int n) { return (i + 1) % n; }
#endif
