/* C: static inline functions are instrumented (one copy per translation
 * unit, one region in the program); an `inline` definition with external
 * linkage may not hold a static object (C99 6.7.4p3) and is left alone. */
#ifndef RING_H
#define RING_H
static inline int ring_next(int i, int n) { return (i + 1) % n; }
inline int ring_prev(int i, int n) { return (i + n - 1) % n; }
#define RING_LAST(n) ((n) - 1)
#endif
