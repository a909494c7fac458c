/* A loop with no unwind information at all (no .cfi directives, so no FDE
 * in .eh_frame): a sample that lands here cannot be unwound, which is how
 * the tests provoke "<unwind failed>". rdi = iterations. */
	.text
	.globl	spin_nocfi
	.type	spin_nocfi, @function
spin_nocfi:
	movq	%rdi, %rax
1:	subq	$1, %rax
	jnz	1b
	ret
	.size	spin_nocfi, .-spin_nocfi
	.section	.note.GNU-stack,"",@progbits
