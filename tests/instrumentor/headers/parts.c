/* A source file #included by another (unity builds, test suites): the
 * user's code, instrumented like the main file. */
static int part_twice(int x) { return 2 * x; }
