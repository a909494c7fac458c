/* #pragma once, reached twice (directly and through ring_all.h): one copy,
 * read once, as without hcc. */
#pragma once
static inline int once_value(void) { return 7; }
