/* hcc — objects that find the runtime themselves (x86-64 ELF, GCC and Clang).
 * Included by inject.h, before the API headers; nothing here is for users.
 *
 * Why: build systems often link with a plain command (CMake's compiler
 * launcher without a linker launcher, libtool, Python extension builds, a
 * makefile's own LD), so the runtime is not on the link line. Each
 * instrumented object therefore carries what the runtime calls need:
 *
 *  - HCC_BIND_(name) gives every runtime function the instrumented code can
 *    call (region.h, hcc.h, pomp2.h) the assembler name __hcc_t_<name>, a
 *    hidden symbol of the module being linked: the trampoline
 *        __hcc_t_hcc_enter:  jmp *slot_hcc_enter(%rip)
 *    A call costs what a call through the PLT costs (one indirect jump), and
 *    the names the runtime exports (hcc_enter …) are never defined here, so
 *    nothing interposes them and libhcc is found by its own names.
 *  - The slots start at lazy stubs. The first call through one of them (or a
 *    constructor that runs before the program's own, priority 101) binds
 *    every slot: dlsym(RTLD_DEFAULT, <name>) when libhcc is already loaded
 *    (linked by hcc, LD_PRELOAD, another module), else dlopen() of the
 *    runtime hcc itself used (the driver passes its absolute path as
 *    HCC_RUNTIME_LIBRARY_), else of "libhcc.so" by the loader's search.
 *    Stubs keep the callee's argument registers, like glibc's lazy PLT.
 *  - Everything sits in one COMDAT group: a program or shared library keeps
 *    one copy however many objects bring it; each module binds its own slots
 *    (they all reach the one libhcc the process has).
 *
 * Threads racing through the first call each bind: they store the same
 * values, aligned 8-byte stores, so the race is harmless. When the runtime
 * cannot be loaded the constructor stays silent; the first call into it
 * prints why and ends the process with status 127, as the loader does for a
 * missing library. A function a too-old runtime lacks is reported likewise,
 * at its first call.
 *
 * Elsewhere (other architectures, other object formats, -DHCC_NO_TRAMPOLINES)
 * HCC_BIND_ is empty: the objects reference the runtime directly, so they
 * need libhcc on the link line (hcc adds it).
 *
 * Only compiler-predefined macros and no system header are used here: the
 * prelude comes before the user's first line and must not change it. */
#ifndef HCC_DETAIL_BIND_H
#define HCC_DETAIL_BIND_H
/* The asm strings are longer than ISO C asks compilers to support (509
 * characters in C90): a user's -pedantic -Werror must not see them. */
#pragma GCC system_header

#if defined(__x86_64__) && defined(__ELF__) && !defined(__ILP32__) && defined(__GNUC__) && \
    !defined(HCC_NO_TRAMPOLINES)

#define HCC_BIND_(name) __asm__("__hcc_t_" #name) __attribute__((__visibility__("hidden")))

/* Every entry point instrumented code can reference, in two tables: the
 * core (function guards, user regions, setjmp marks) that every object
 * carries, and the OpenMP one (POMP2), emitted by pomp2.h only into objects
 * whose code calls it (the driver force-includes inject_openmp.h for those).
 * Sixty trampolines in every object cost GCC -O2 about 5% of a small C
 * file's compile (samples/matmul: 16 M of 330 M instructions, mostly in the
 * assembler). hcc_enter first (the probe for a loaded runtime). Append only:
 * the order is the slots'. */
#define HCC_BIND_CORE_LIST_(X)                                               \
  X(hcc_enter) X(hcc_exit) X(hcc_setjmp_mark)                                \
  X(hcc_region_begin) X(hcc_region_end) X(hcc_pause) X(hcc_resume)          \
  X(hcc_count_enter) X(hcc_count_exit) X(hcc_count_visit)
#define HCC_BIND_OPENMP_LIST_(X)                                             \
  X(POMP2_Parallel_fork) X(POMP2_Parallel_begin) X(hcc_pomp_parallel_begin)  \
  X(POMP2_Parallel_end) X(POMP2_Parallel_join)                               \
  X(POMP2_For_enter) X(POMP2_For_exit) X(POMP2_Workshare_enter) X(POMP2_Workshare_exit) \
  X(POMP2_Sections_enter) X(POMP2_Sections_exit) X(POMP2_Section_begin) X(POMP2_Section_end) \
  X(POMP2_Single_enter) X(POMP2_Single_exit) X(POMP2_Single_begin) X(POMP2_Single_end) \
  X(POMP2_Master_begin) X(POMP2_Master_end)                                  \
  X(POMP2_Critical_enter) X(POMP2_Critical_exit) X(POMP2_Critical_begin) X(POMP2_Critical_end) \
  X(POMP2_Ordered_enter) X(POMP2_Ordered_exit) X(POMP2_Ordered_begin) X(POMP2_Ordered_end) \
  X(POMP2_Atomic_enter) X(POMP2_Atomic_exit) X(POMP2_Flush_enter) X(POMP2_Flush_exit) \
  X(POMP2_Barrier_enter) X(POMP2_Barrier_exit)                               \
  X(POMP2_Implicit_barrier_enter) X(POMP2_Implicit_barrier_exit)             \
  X(POMP2_Taskwait_begin) X(POMP2_Taskwait_end)                              \
  X(POMP2_Task_create_begin) X(POMP2_Task_create_end) X(POMP2_Task_begin) X(POMP2_Task_end) \
  X(POMP2_Taskgroup_begin) X(POMP2_Taskgroup_end)                            \
  X(POMP2_Untied_task_create_begin) X(POMP2_Untied_task_create_end)          \
  X(POMP2_Untied_task_begin) X(POMP2_Untied_task_end)                        \
  X(POMP2_Init_lock) X(POMP2_Destroy_lock) X(POMP2_Set_lock) X(POMP2_Unset_lock) \
  X(POMP2_Test_lock) X(POMP2_Init_nest_lock) X(POMP2_Destroy_nest_lock)      \
  X(POMP2_Set_nest_lock) X(POMP2_Unset_nest_lock) X(POMP2_Test_nest_lock)    \
  X(hcc_pomp_construct_enter) X(hcc_pomp_construct_exit)

#ifndef HCC_RUNTIME_LIBRARY_
#define HCC_RUNTIME_LIBRARY_ "libhcc.so"
#endif

/* Indirect-branch targets carry ENDBR64 when the build asks for CET. */
#ifdef __CET__
#define HCC_BIND_ENDBR_ "endbr64\n\t"
#else
#define HCC_BIND_ENDBR_ ""
#endif

/* One entry, one asm statement (ISO C limits a string literal to 4095
 * characters, which -Wpedantic enforces): its trampoline, a hidden weak
 * function of this module; its lazy stub, which passes the slot's address
 * in %r11; its slot; its name. Each kind goes to its own section of the
 * group, so the stubs, the slots and the names are contiguous arrays in the
 * order of its list. */
#define HCC_BIND_ENTRY_(G, n) HCC_BIND_ENTRY_SLOT_(G, n, "")
/* The same entry whose slot also has a name, __hcc_s_<name> (hidden, weak:
 * one per module), so a guard can call the runtime through it directly
 * (`call *__hcc_s_<name>(%rip)`): one indirect call instead of a call, a
 * jump and an indirect jump (inject.h's count guards). */
#define HCC_BIND_SLOT_NAME_(n)                                               \
  ".weak __hcc_s_" #n "\n"                                                   \
  ".hidden __hcc_s_" #n "\n"                                                 \
  ".type __hcc_s_" #n ",@object\n"                                           \
  ".size __hcc_s_" #n ",8\n"                                                 \
  "__hcc_s_" #n ":\n"
#define HCC_BIND_NAMED_ENTRY_(G, n) HCC_BIND_ENTRY_SLOT_(G, n, HCC_BIND_SLOT_NAME_(n))
#define HCC_BIND_ENTRY_SLOT_(G, n, SLOT_NAME)                                \
  __asm__(".pushsection .text.__hcc_bind_v2" G ",\"axG\",@progbits,__hcc_bind_v2" G ",comdat\n" \
          ".p2align 4\n"                                                     \
          ".weak __hcc_t_" #n "\n"                                           \
          ".hidden __hcc_t_" #n "\n"                                         \
          ".type __hcc_t_" #n ",@function\n"                                 \
          "__hcc_t_" #n ":\n\t"                                              \
          ".cfi_startproc\n\t" HCC_BIND_ENDBR_                               \
          "jmp *.Lhcc" G "_s_" #n "(%rip)\n\t"                               \
          ".cfi_endproc\n"                                                   \
          ".size __hcc_t_" #n ",.-__hcc_t_" #n "\n"                          \
          ".section .text.__hcc_bind_v2" G ".stubs,\"axG\",@progbits,__hcc_bind_v2" G ",comdat\n" \
          ".Lhcc" G "_l_" #n ":\n\t"                                         \
          ".cfi_startproc\n\t" HCC_BIND_ENDBR_                               \
          "leaq .Lhcc" G "_s_" #n "(%rip), %r11\n\t"                         \
          "jmp .Lhcc" G "_bind_common\n\t"                                   \
          ".cfi_endproc\n"                                                   \
          ".section .data.__hcc_bind_v2" G ",\"awG\",@progbits,__hcc_bind_v2" G ",comdat\n" \
          SLOT_NAME                                                          \
          ".Lhcc" G "_s_" #n ": .quad .Lhcc" G "_l_" #n "\n"                 \
          ".section .rodata.__hcc_bind_v2" G ",\"aG\",@progbits,__hcc_bind_v2" G ",comdat\n" \
          ".asciz \"" #n "\"\n"                                              \
          ".popsection\n");

/* %rdi = a NUL-terminated string, written to stderr (no libc: a program may
 * define its own write or strlen). Clobbers %rax %rcx %rdx %rsi %rdi %r11. */
#define HCC_BIND_PUTS_(G)                                                    \
  ".Lhcc" G "_puts:\n\t"                                                     \
  "movq %rdi, %rsi\n\t"                                                      \
  "xorl %edx, %edx\n"                                                        \
  ".Lhcc" G "_puts_len:\n\t"                                                 \
  "cmpb $0, (%rsi,%rdx)\n\t"                                                 \
  "je .Lhcc" G "_puts_write\n\t"                                             \
  "incq %rdx\n\t"                                                            \
  "jmp .Lhcc" G "_puts_len\n"                                                \
  ".Lhcc" G "_puts_write:\n\t"                                               \
  "movl $1, %eax\n\t" /* write(2, s, len) */                                 \
  "movl $2, %edi\n\t"                                                        \
  "syscall\n\t"                                                              \
  "ret\n"

/* The first call through a stub: save the callee's argument registers, bind,
 * restore them and jump to the bound function. */
#define HCC_BIND_COMMON_(G)                                                  \
  ".p2align 4\n"                                                             \
  ".Lhcc" G "_bind_common:\n\t"                                              \
  ".cfi_startproc\n\t"                                                       \
  "pushq %rbp\n\t"                                                           \
  ".cfi_def_cfa_offset 16\n\t"                                               \
  ".cfi_offset %rbp, -16\n\t"                                                \
  "movq %rsp, %rbp\n\t"                                                      \
  ".cfi_def_cfa_register %rbp\n\t"                                           \
  "andq $-16, %rsp\n\t"                                                      \
  "subq $192, %rsp\n\t"                                                      \
  "movq %rdi, 0(%rsp)\n\t"                                                   \
  "movq %rsi, 8(%rsp)\n\t"                                                   \
  "movq %rdx, 16(%rsp)\n\t"                                                  \
  "movq %rcx, 24(%rsp)\n\t"                                                  \
  "movq %r8, 32(%rsp)\n\t"                                                   \
  "movq %r9, 40(%rsp)\n\t"                                                   \
  "movq %rax, 48(%rsp)\n\t"                                                  \
  "movq %r11, 56(%rsp)\n\t"                                                  \
  "movaps %xmm0, 64(%rsp)\n\t"                                               \
  "movaps %xmm1, 80(%rsp)\n\t"                                               \
  "movaps %xmm2, 96(%rsp)\n\t"                                               \
  "movaps %xmm3, 112(%rsp)\n\t"                                              \
  "movaps %xmm4, 128(%rsp)\n\t"                                              \
  "movaps %xmm5, 144(%rsp)\n\t"                                              \
  "movaps %xmm6, 160(%rsp)\n\t"                                              \
  "movaps %xmm7, 176(%rsp)\n\t"                                              \
  "movl $1, %edi\n\t" /* a failure is fatal now */                           \
  "call .Lhcc" G "_bind_all\n\t"                                             \
  "movq 56(%rsp), %r11\n\t"                                                  \
  "movq (%r11), %r10\n\t"                                                    \
  "leaq .Lhcc" G "_stubs_begin(%rip), %rax\n\t"                              \
  "cmpq %rax, %r10\n\t"                                                      \
  "jb .Lhcc" G "_common_bound\n\t"                                           \
  "leaq .Lhcc" G "_stubs_end(%rip), %rax\n\t"                                \
  "cmpq %rax, %r10\n\t"                                                      \
  "jae .Lhcc" G "_common_bound\n\t"                                          \
  "leaq .Lhcc" G "_slots(%rip), %rax\n\t" /* still a stub: the runtime lacks it */ \
  "subq %rax, %r11\n\t"                                                      \
  "shrq $3, %r11\n\t"                                                        \
  "movq %r11, %rdi\n\t"                                                      \
  "call .Lhcc" G "_missing\n"                                                \
  ".Lhcc" G "_common_bound:\n\t"                                             \
  "movaps 176(%rsp), %xmm7\n\t"                                              \
  "movaps 160(%rsp), %xmm6\n\t"                                              \
  "movaps 144(%rsp), %xmm5\n\t"                                              \
  "movaps 128(%rsp), %xmm4\n\t"                                              \
  "movaps 112(%rsp), %xmm3\n\t"                                              \
  "movaps 96(%rsp), %xmm2\n\t"                                               \
  "movaps 80(%rsp), %xmm1\n\t"                                               \
  "movaps 64(%rsp), %xmm0\n\t"                                               \
  "movq 48(%rsp), %rax\n\t"                                                  \
  "movq 40(%rsp), %r9\n\t"                                                   \
  "movq 32(%rsp), %r8\n\t"                                                   \
  "movq 24(%rsp), %rcx\n\t"                                                  \
  "movq 16(%rsp), %rdx\n\t"                                                  \
  "movq 8(%rsp), %rsi\n\t"                                                   \
  "movq 0(%rsp), %rdi\n\t"                                                   \
  "leave\n\t"                                                                \
  ".cfi_def_cfa %rsp, 8\n\t"                                                 \
  "jmp *%r10\n\t"                                                            \
  ".cfi_endproc\n"

/* void bind_all(int fatal): fills every slot it can; idempotent. Finds the
 * runtime by hcc_enter in the default scope, else loads it. */
#define HCC_BIND_ALL_(G)                                                     \
  ".p2align 4\n"                                                             \
  ".Lhcc" G "_bind_all:\n\t"                                                 \
  ".cfi_startproc\n\t"                                                       \
  "pushq %rbx\n\t"                                                           \
  ".cfi_def_cfa_offset 16\n\t"                                               \
  ".cfi_offset %rbx, -16\n\t"                                                \
  "pushq %r12\n\t"                                                           \
  ".cfi_def_cfa_offset 24\n\t"                                               \
  ".cfi_offset %r12, -24\n\t"                                                \
  "pushq %r13\n\t"                                                           \
  ".cfi_def_cfa_offset 32\n\t"                                               \
  ".cfi_offset %r13, -32\n\t"                                                \
  "cmpl $0, .Lhcc" G "_done(%rip)\n\t"                                       \
  "jne .Lhcc" G "_ba_ret\n\t"                                                \
  "movl %edi, %r13d\n\t"                                                     \
  "xorl %edi, %edi\n\t" /* RTLD_DEFAULT: a runtime already loaded */         \
  "leaq .Lhcc" G "_probe(%rip), %rsi\n\t"                                    \
  "call dlsym@PLT\n\t"                                                       \
  "xorl %ebx, %ebx\n\t"                                                      \
  "testq %rax, %rax\n\t"                                                     \
  "jnz .Lhcc" G "_ba_lookup\n\t"                                             \
  "leaq .Lhcc" G "_path(%rip), %rdi\n\t"                                     \
  "movl $0x102, %esi\n\t" /* RTLD_NOW | RTLD_GLOBAL */                       \
  "call dlopen@PLT\n\t"                                                      \
  "movq %rax, %rbx\n\t"                                                      \
  "testq %rax, %rax\n\t"                                                     \
  "jnz .Lhcc" G "_ba_lookup\n\t"                                             \
  "leaq .Lhcc" G "_soname(%rip), %rdi\n\t"                                   \
  "movl $0x102, %esi\n\t"                                                    \
  "call dlopen@PLT\n\t"                                                      \
  "movq %rax, %rbx\n\t"                                                      \
  "testq %rax, %rax\n\t"                                                     \
  "jz .Lhcc" G "_ba_fail\n"                                                  \
  ".Lhcc" G "_ba_lookup:\n\t"                                                \
  "leaq .Lhcc" G "_names(%rip), %r13\n\t"                                    \
  "leaq .Lhcc" G "_slots(%rip), %r12\n"                                      \
  ".Lhcc" G "_ba_loop:\n\t"                                                  \
  "cmpb $0, (%r13)\n\t"                                                      \
  "je .Lhcc" G "_ba_done\n\t"                                                \
  "movq %rbx, %rdi\n\t"                                                      \
  "movq %r13, %rsi\n\t"                                                      \
  "call dlsym@PLT\n\t"                                                       \
  "testq %rax, %rax\n\t"                                                     \
  "jz .Lhcc" G "_ba_next\n\t"                                                \
  "movq %rax, (%r12)\n"                                                      \
  ".Lhcc" G "_ba_next:\n\t"                                                  \
  "addq $8, %r12\n"                                                          \
  ".Lhcc" G "_ba_skip:\n\t" /* past this name's NUL */                       \
  "incq %r13\n\t"                                                            \
  "cmpb $0, -1(%r13)\n\t"                                                    \
  "jne .Lhcc" G "_ba_skip\n\t"                                               \
  "jmp .Lhcc" G "_ba_loop\n"                                                 \
  ".Lhcc" G "_ba_done:\n\t"                                                  \
  "movl $1, .Lhcc" G "_done(%rip)\n"                                         \
  ".Lhcc" G "_ba_ret:\n\t"                                                   \
  "popq %r13\n\t"                                                            \
  ".cfi_def_cfa_offset 24\n\t"                                               \
  "popq %r12\n\t"                                                            \
  ".cfi_def_cfa_offset 16\n\t"                                               \
  "popq %rbx\n\t"                                                            \
  ".cfi_def_cfa_offset 8\n\t"                                                \
  "ret\n"                                                                    \
  ".Lhcc" G "_ba_fail:\n\t"                                                  \
  ".cfi_def_cfa_offset 32\n\t"                                               \
  "testl %r13d, %r13d\n\t" /* the constructor stays silent */                \
  "jz .Lhcc" G "_ba_ret\n\t"                                                 \
  "leaq .Lhcc" G "_msg_load(%rip), %rdi\n\t"                                 \
  "call .Lhcc" G "_puts\n\t"                                                 \
  "leaq .Lhcc" G "_path(%rip), %rdi\n\t"                                     \
  "call .Lhcc" G "_puts\n\t"                                                 \
  "leaq .Lhcc" G "_msg_load2(%rip), %rdi\n\t"                                \
  "call .Lhcc" G "_puts\n\t"                                                 \
  "call dlerror@PLT\n\t"                                                     \
  "testq %rax, %rax\n\t"                                                     \
  "jz .Lhcc" G "_ba_exit\n\t"                                                \
  "movq %rax, %rdi\n\t"                                                      \
  "call .Lhcc" G "_puts\n"                                                   \
  ".Lhcc" G "_ba_exit:\n\t"                                                  \
  "leaq .Lhcc" G "_msg_nl(%rip), %rdi\n\t"                                   \
  "call .Lhcc" G "_puts\n\t"                                                 \
  "movl $231, %eax\n\t" /* exit_group(127) */                                \
  "movl $127, %edi\n\t"                                                      \
  "syscall\n\t"                                                              \
  ".cfi_endproc\n"

/* %rdi = the index of a slot the runtime could not fill: say which. */
#define HCC_BIND_MISSING_(G)                                                 \
  ".Lhcc" G "_missing:\n\t"                                                  \
  "leaq .Lhcc" G "_names(%rip), %rsi\n"                                      \
  ".Lhcc" G "_missing_find:\n\t"                                             \
  "testq %rdi, %rdi\n\t"                                                     \
  "jz .Lhcc" G "_missing_say\n"                                              \
  ".Lhcc" G "_missing_skip:\n\t"                                             \
  "incq %rsi\n\t"                                                            \
  "cmpb $0, -1(%rsi)\n\t"                                                    \
  "jne .Lhcc" G "_missing_skip\n\t"                                          \
  "decq %rdi\n\t"                                                            \
  "jmp .Lhcc" G "_missing_find\n"                                            \
  ".Lhcc" G "_missing_say:\n\t"                                              \
  "pushq %rsi\n\t"                                                           \
  "leaq .Lhcc" G "_msg_missing(%rip), %rdi\n\t"                              \
  "call .Lhcc" G "_puts\n\t"                                                 \
  "movq (%rsp), %rdi\n\t"                                                    \
  "call .Lhcc" G "_puts\n\t"                                                 \
  "leaq .Lhcc" G "_msg_missing2(%rip), %rdi\n\t"                             \
  "call .Lhcc" G "_puts\n\t"                                                 \
  "movl $231, %eax\n\t"                                                      \
  "movl $127, %edi\n\t"                                                      \
  "syscall\n"

/* A table is HCC_BIND_TABLE_BEGIN_(G), one HCC_BIND_ENTRY_(G, name) per
 * entry, HCC_BIND_TABLE_END_(G): G names its COMDAT group (__hcc_bind_v2 G)
 * and its local labels. BEGIN marks where the stubs, slots and names arrays
 * start (asm statements are emitted in source order); END closes them and
 * adds the code that binds. The constructor, __hcc_bind_v2 G (also the
 * group's signature symbol), runs in .init_array priority 101, before the
 * program's constructors: objects binding in the default priority could be
 * preceded by user code that calls into them. v2: the tables split in two
 * (v1 was one group of every entry); objects of both kinds link together. */
#define HCC_BIND_TABLE_BEGIN_(G)                                             \
  __asm__(".pushsection .text.__hcc_bind_v2" G ".stubs,\"axG\",@progbits,__hcc_bind_v2" G ",comdat\n" \
          ".p2align 4\n"                                                     \
          ".Lhcc" G "_stubs_begin:\n"                                        \
          ".section .data.__hcc_bind_v2" G ",\"awG\",@progbits,__hcc_bind_v2" G ",comdat\n" \
          ".p2align 3\n"                                                     \
          ".Lhcc" G "_done: .quad 0\n"                                       \
          ".Lhcc" G "_slots:\n"                                              \
          ".section .rodata.__hcc_bind_v2" G ",\"aG\",@progbits,__hcc_bind_v2" G ",comdat\n" \
          ".Lhcc" G "_names:\n"                                              \
          ".popsection\n");

#define HCC_BIND_TABLE_END_(G)                                               \
  __asm__(".pushsection .text.__hcc_bind_v2" G ".stubs,\"axG\",@progbits,__hcc_bind_v2" G ",comdat\n" \
          ".Lhcc" G "_stubs_end:\n"                                          \
          ".section .rodata.__hcc_bind_v2" G ",\"aG\",@progbits,__hcc_bind_v2" G ",comdat\n" \
          ".byte 0\n"                                                        \
          ".Lhcc" G "_probe: .asciz \"hcc_enter\"\n"                         \
          ".Lhcc" G "_path: .asciz \"" HCC_RUNTIME_LIBRARY_ "\"\n"           \
          ".Lhcc" G "_soname: .asciz \"libhcc.so\"\n"                        \
          ".Lhcc" G "_msg_load: .asciz \"hcc: error: cannot load the measurement runtime \"\n" \
          ".Lhcc" G "_msg_load2: .asciz \" (nor libhcc.so from the library path): \"\n" \
          ".Lhcc" G "_msg_nl: .asciz \"\\n\"\n"                              \
          ".Lhcc" G "_msg_missing: .asciz \"hcc: error: the measurement runtime has no \"\n" \
          ".Lhcc" G "_msg_missing2: .asciz \"; it is older than the hcc that compiled this program\\n\"\n" \
          ".section .init_array.00101,\"awG\",@init_array,__hcc_bind_v2" G ",comdat\n" \
          ".p2align 3\n"                                                     \
          ".quad __hcc_bind_v2" G "\n"                                       \
          ".popsection\n");                                                  \
  __asm__(".pushsection .text.__hcc_bind_v2" G ",\"axG\",@progbits,__hcc_bind_v2" G ",comdat\n" \
          HCC_BIND_COMMON_(G)                                                \
          ".popsection\n");                                                  \
  __asm__(".pushsection .text.__hcc_bind_v2" G ",\"axG\",@progbits,__hcc_bind_v2" G ",comdat\n" \
          HCC_BIND_ALL_(G)                                                   \
          HCC_BIND_MISSING_(G)                                               \
          HCC_BIND_PUTS_(G)                                                  \
          ".p2align 4\n"                                                     \
          ".weak __hcc_bind_v2" G "\n"                                       \
          ".hidden __hcc_bind_v2" G "\n"                                     \
          ".type __hcc_bind_v2" G ",@function\n"                             \
          "__hcc_bind_v2" G ":\n\t"                                          \
          ".cfi_startproc\n\t" HCC_BIND_ENDBR_                               \
          "xorl %edi, %edi\n\t"                                              \
          "jmp .Lhcc" G "_bind_all\n\t"                                      \
          ".cfi_endproc\n"                                                   \
          ".size __hcc_bind_v2" G ",.-__hcc_bind_v2" G "\n"                  \
          ".popsection\n");

/* The core group is __hcc_bind_v2_c4 since its slots got names
 * (__hcc_s_<name>, for count mode's direct calls), _c3 when count mode added
 * two entries (hcc_count_enter/exit): a COMDAT group keeps one copy per
 * link, so a group that changed under its old name could lose the new
 * symbols to an older object's copy. Objects of an older hcc keep
 * __hcc_bind_v2 or _c3; all link together (each group binds its own slots;
 * the trampolines are weak). */
#define HCC_BIND_CORE_ENTRY_(n) HCC_BIND_NAMED_ENTRY_("_c4", n)
#define HCC_BIND_OPENMP_ENTRY_(n) HCC_BIND_ENTRY_("_omp", n)

HCC_BIND_TABLE_BEGIN_("_c4")
HCC_BIND_CORE_LIST_(HCC_BIND_CORE_ENTRY_)
HCC_BIND_TABLE_END_("_c4")

/* The function guards' calls (inject.h): the test for an excluded region
 * (descriptor id 0xFFFFFFFF at offset 36, checked there) lives here, not
 * inline in every instrumented function, then a tail jump to the trampoline:
 *     __hcc_t_hcc_enter_guard(r):   cmpl $-1, 36(r); je 1f; jmp __hcc_t_hcc_enter; 1: ret
 *     __hcc_t_hcc_exit_guard(&r):   the same after loading r
 * Inline, the test and its branch in each function and at each of its exits
 * cost GCC -O2 as much as the calls themselves (samples/matmul: 30 M of 381 M
 * instructions, 10 % of the compile); an excluded region pays a direct call
 * and return instead. A region that is recorded runs the same instructions
 * plus one direct jump, and no frame is left between the instrumented
 * function and the runtime (both jumps are tail jumps). Their own COMDAT
 * group: objects from an older hcc carry only __hcc_bind_v2. */
/* One guard call: `LOAD` gets the descriptor into %rdi. */
#define HCC_BIND_GUARD_STUB_(n, LOAD)                                        \
  ".p2align 4\n"                                                             \
  ".weak __hcc_t_" #n "_guard\n"                                             \
  ".hidden __hcc_t_" #n "_guard\n"                                           \
  ".type __hcc_t_" #n "_guard,@function\n"                                   \
  "__hcc_t_" #n "_guard:\n\t"                                                \
  ".cfi_startproc\n\t" HCC_BIND_ENDBR_ LOAD                                  \
  "cmpl $-1, 36(%rdi)\n\t"                                                   \
  "je 1f\n\t"                                                                \
  "jmp __hcc_t_" #n "\n"                                                     \
  "1:\n\t"                                                                   \
  "ret\n\t"                                                                  \
  ".cfi_endproc\n"                                                           \
  ".size __hcc_t_" #n "_guard,.-__hcc_t_" #n "_guard\n"
__asm__(".pushsection .text.__hcc_guard_v1,\"axG\",@progbits,__hcc_guard_v1,comdat\n"
        ".weak __hcc_guard_v1\n"
        ".hidden __hcc_guard_v1\n"
        "__hcc_guard_v1:\n"
        HCC_BIND_GUARD_STUB_(hcc_enter, "")
        HCC_BIND_GUARD_STUB_(hcc_exit, "movq (%rdi), %rdi\n\t")
        ".popsection\n");
/* Count mode's guards (HCC_COUNT_GUARD_, inject.h) call the runtime through
 * the core table's named slots instead: hcc_count_enter/exit test for an
 * excluded region themselves, and a counted pair has no clock read to hide
 * two more jumps per event behind (tests/bench/pair_floor.sh). Objects of
 * an older hcc bring their own __hcc_guard_count_v1 group. */
#define HCC_BIND_GUARDS_ 1

/* bind_openmp.h (through pomp2.h) emits the OpenMP table with these macros,
 * so they stay defined; all are named HCC_BIND_*. */
#endif /* x86-64 ELF */

#ifndef HCC_BIND_
#define HCC_BIND_(name)
#endif

#endif /* HCC_DETAIL_BIND_H */
