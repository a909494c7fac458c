/* A tiny function compiled into two files (count_stop_twin_a.c, _b.c): two
 * descriptors of one region. The first file's calls get its count stopped;
 * the second file calls it only after that, so its descriptor registers as
 * a twin of a stopped region (throttle_e2e_test.cpp). */
static unsigned twin_probe(unsigned x) { return x * 2654435761u + 7u; }
