/* A shared library with one tiny function, called through the program's
 * PLT (plt_main.c). */
long plt_tiny(long i) { return i ^ (i >> 3); }
