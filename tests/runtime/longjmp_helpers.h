/* The C side of longjmp_test.cpp. */
#ifndef HCC_TEST_LONGJMP_HELPERS_H
#define HCC_TEST_LONGJMP_HELPERS_H
#ifdef __cplusplus
extern "C" {
#endif
enum { HCC_TEST_LONGJMP, HCC_TEST__LONGJMP, HCC_TEST_SIGLONGJMP };
/* setjmp (marked for hcc when `mark`), then lj_level1 -> 2 -> 3, which jumps
 * back; returns 1 once the jump arrived. */
int hcc_test_jump(int kind, int mark);
/* marks the buffer in a function that returns, then setjmp on it without a
 * mark and jumps back from lj_level3: the stale mark must be ignored. */
int hcc_test_stale_mark_jump(void);
/* The same through __longjmp_chk (ljf_level1..3). */
int hcc_test_jump_fortified(void);
/* setjmp (marked), then lj_ping -> lj_pong -> lj_ping ... `depth` frames of
 * a mutual recursion (folded by the runtime), the innermost jumps back. */
int hcc_test_jump_from_recursion(int depth);
#ifdef __cplusplus
}
#endif
#endif
